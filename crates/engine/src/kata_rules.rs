//! KataGo's rules object (docs/GTP_Extensions.md, `kata-get-rules` / `kata-set-rules`; the
//! analysis engine's `rules` field) against tsumi's one ruleset.
//!
//! tsumi plays and proves under **positional superko, area scoring, suicide illegal**, with
//! no tax, no button, komi never changed for handicap stones, and the game ending after two
//! passes with every stone on the board counted (no dead-stone removal). In KataGo's terms:
//! [`TSUMI_RULES`]. A rules object is read field by field (missing fields are tsumi's), or
//! as one of KataGo's shorthand names (`tromp-taylor`, `chinese`, `chinese-ogs`,
//! `chinese-kgs`, `japanese`, `korean`, `stone-scoring`, `aga`, `bga`, `new-zealand`,
//! `aga-button`), and every field that differs from tsumi's is named.

use serde_json::{Map, Value};

/// tsumi's rules as KataGo's JSON (the `kata-get-rules` reply).
pub const TSUMI_RULES: &str = r#"{"ko":"POSITIONAL","scoring":"AREA","tax":"NONE","suicide":false,"hasButton":false,"whiteHandicapBonus":"0","friendlyPassOk":false}"#;

/// One of KataGo's shorthand rule names and its fields (docs/GTP_Extensions.md).
struct Shorthand {
    name: &'static str,
    ko: &'static str,
    scoring: &'static str,
    suicide: bool,
    tax: &'static str,
    white_handicap_bonus: &'static str,
    friendly_pass_ok: bool,
    has_button: bool,
}

/// KataGo's shorthand rule names (as its docs/GTP_Extensions.md lists them).
const SHORTHANDS: &[Shorthand] = &[
    Shorthand {
        name: "tromp-taylor",
        ko: "POSITIONAL",
        scoring: "AREA",
        suicide: true,
        tax: "NONE",
        white_handicap_bonus: "0",
        friendly_pass_ok: false,
        has_button: false,
    },
    Shorthand {
        name: "chinese",
        ko: "SIMPLE",
        scoring: "AREA",
        suicide: false,
        tax: "NONE",
        white_handicap_bonus: "N",
        friendly_pass_ok: true,
        has_button: false,
    },
    Shorthand {
        name: "chinese-ogs",
        ko: "POSITIONAL",
        scoring: "AREA",
        suicide: false,
        tax: "NONE",
        white_handicap_bonus: "N",
        friendly_pass_ok: true,
        has_button: false,
    },
    Shorthand {
        name: "chinese-kgs",
        ko: "POSITIONAL",
        scoring: "AREA",
        suicide: false,
        tax: "NONE",
        white_handicap_bonus: "N",
        friendly_pass_ok: true,
        has_button: false,
    },
    Shorthand {
        name: "japanese",
        ko: "SIMPLE",
        scoring: "TERRITORY",
        suicide: false,
        tax: "SEKI",
        white_handicap_bonus: "0",
        friendly_pass_ok: true,
        has_button: false,
    },
    Shorthand {
        name: "korean",
        ko: "SIMPLE",
        scoring: "TERRITORY",
        suicide: false,
        tax: "SEKI",
        white_handicap_bonus: "0",
        friendly_pass_ok: true,
        has_button: false,
    },
    Shorthand {
        name: "stone-scoring",
        ko: "SIMPLE",
        scoring: "AREA",
        suicide: false,
        tax: "ALL",
        white_handicap_bonus: "0",
        friendly_pass_ok: true,
        has_button: false,
    },
    Shorthand {
        name: "aga",
        ko: "SITUATIONAL",
        scoring: "AREA",
        suicide: false,
        tax: "NONE",
        white_handicap_bonus: "N-1",
        friendly_pass_ok: true,
        has_button: false,
    },
    Shorthand {
        name: "bga",
        ko: "SITUATIONAL",
        scoring: "AREA",
        suicide: false,
        tax: "NONE",
        white_handicap_bonus: "N-1",
        friendly_pass_ok: true,
        has_button: false,
    },
    Shorthand {
        name: "new-zealand",
        ko: "SITUATIONAL",
        scoring: "AREA",
        suicide: true,
        tax: "NONE",
        white_handicap_bonus: "0",
        friendly_pass_ok: true,
        has_button: false,
    },
    Shorthand {
        name: "aga-button",
        ko: "SITUATIONAL",
        scoring: "AREA",
        suicide: false,
        tax: "NONE",
        white_handicap_bonus: "N-1",
        friendly_pass_ok: true,
        has_button: true,
    },
];

/// A field of a rules object that differs from tsumi's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Difference {
    /// KataGo's field name.
    pub field: &'static str,
    /// The value asked for, as JSON text.
    pub asked: String,
    /// tsumi's value, as JSON text.
    pub tsumi: &'static str,
}

impl Difference {
    /// Whether the difference changes the values themselves (scoring, tax, button), not
    /// only rare positions (ko rule, suicide) or the procedure around them (handicap
    /// compensation, dead stones after two passes).
    #[must_use]
    pub fn changes_scores(&self) -> bool {
        matches!(self.field, "scoring" | "tax" | "hasButton")
    }
}

impl std::fmt::Display for Difference {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {} (tsumi: {})", self.field, self.asked, self.tsumi)
    }
}

/// Why a rules object cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RulesError {
    /// Neither a JSON object nor a known shorthand name.
    #[error("unknown rules '{0}' (expected a JSON object or one of KataGo's shorthand names)")]
    Unknown(String),
    /// A field of an unexpected type or value.
    #[error("bad rules field {0}")]
    BadField(String),
}

/// The rules object of a shorthand name (case and `_`/space for `-` ignored).
fn shorthand(name: &str) -> Option<Map<String, Value>> {
    let n = name.trim().to_ascii_lowercase().replace(['_', ' '], "-");
    let n = match n.as_str() {
        "tromptaylor" => "tromp-taylor",
        "newzealand" => "new-zealand",
        "stonescoring" => "stone-scoring",
        other => other,
    };
    SHORTHANDS.iter().find(|s| s.name == n).map(|s| {
        let mut m = Map::new();
        m.insert("ko".into(), s.ko.into());
        m.insert("scoring".into(), s.scoring.into());
        m.insert("suicide".into(), s.suicide.into());
        m.insert("tax".into(), s.tax.into());
        m.insert("whiteHandicapBonus".into(), s.white_handicap_bonus.into());
        m.insert("friendlyPassOk".into(), s.friendly_pass_ok.into());
        m.insert("hasButton".into(), s.has_button.into());
        m
    })
}

/// The fields of `rules` (a JSON object, or a string naming a shorthand) that differ from
/// tsumi's; an empty list means tsumi's rules.
///
/// # Errors
/// [`RulesError`] for an unknown name, a value that is neither object nor string, or a
/// field of the wrong type.
pub fn differences(rules: &Value) -> Result<Vec<Difference>, RulesError> {
    let map = match rules {
        Value::Object(m) => m.clone(),
        Value::String(s) => shorthand(s).ok_or_else(|| RulesError::Unknown(s.clone()))?,
        other => return Err(RulesError::Unknown(other.to_string())),
    };
    let mut out = Vec::new();
    let text = |field: &'static str,
                want: &'static str,
                upper: bool|
     -> Result<Option<Difference>, RulesError> {
        match map.get(field) {
            None => Ok(None),
            Some(Value::String(s)) => {
                let got = if upper {
                    s.to_ascii_uppercase()
                } else {
                    s.clone()
                };
                Ok((got != want).then(|| Difference {
                    field,
                    asked: format!("\"{s}\""),
                    tsumi: match field {
                        "ko" => "\"POSITIONAL\"",
                        "scoring" => "\"AREA\"",
                        "tax" => "\"NONE\"",
                        _ => "\"0\"",
                    },
                }))
            }
            Some(Value::Number(n)) if field == "whiteHandicapBonus" => Ok((n.as_i64() != Some(0))
                .then(|| Difference {
                    field,
                    asked: n.to_string(),
                    tsumi: "\"0\"",
                })),
            Some(v) => Err(RulesError::BadField(format!("{field}: {v}"))),
        }
    };
    let flag = |field: &'static str, want: bool| -> Result<Option<Difference>, RulesError> {
        match map.get(field) {
            None => Ok(None),
            Some(Value::Bool(b)) => Ok((*b != want).then(|| Difference {
                field,
                asked: b.to_string(),
                tsumi: if want { "true" } else { "false" },
            })),
            Some(v) => Err(RulesError::BadField(format!("{field}: {v}"))),
        }
    };
    out.extend(text("ko", "POSITIONAL", true)?);
    out.extend(text("scoring", "AREA", true)?);
    out.extend(text("tax", "NONE", true)?);
    out.extend(flag("suicide", false)?);
    out.extend(flag("hasButton", false)?);
    out.extend(text("whiteHandicapBonus", "0", false)?);
    out.extend(flag("friendlyPassOk", false)?);
    Ok(out)
}

/// The one-line refusal of rules that differ: what tsumi implements and what differs.
#[must_use]
pub fn refusal(diffs: &[Difference]) -> String {
    format!(
        "tsumi implements only positional superko, area scoring, suicide illegal, no tax, no \
         button, whiteHandicapBonus 0 and friendlyPassOk false; not {}",
        diffs
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tsumi_rules_differ_from_nothing_and_shorthands_name_their_differences() {
        let ours: Value = serde_json::from_str(TSUMI_RULES).unwrap();
        assert_eq!(differences(&ours).unwrap(), vec![]);
        assert_eq!(differences(&Value::Object(Map::new())).unwrap(), vec![]);
        let tt = differences(&Value::String("Tromp_Taylor".into())).unwrap();
        assert_eq!(tt.len(), 1);
        assert_eq!(tt[0].field, "suicide");
        assert!(!tt[0].changes_scores());
        let jp = differences(&Value::String("japanese".into())).unwrap();
        assert!(jp.iter().any(Difference::changes_scores));
        assert!(refusal(&jp).contains("scoring \"TERRITORY\""));
        assert!(differences(&Value::String("klingon".into())).is_err());
        assert!(differences(&serde_json::json!({"ko": 3})).is_err());
        assert!(differences(&serde_json::json!(7)).is_err());
    }
}
