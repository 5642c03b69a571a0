//! Rules as values: the ko rule and komi. `Copy + Eq + Hash`, parse and print round-trip.

use std::fmt;
use std::str::FromStr;

/// Which repetitions are forbidden.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum KoRule {
    /// Positional superko (PSK): a stone move may not recreate any earlier board of the game
    /// (the Chinese rules as written; the default). Printed "psk".
    #[default]
    PositionalSuperko,
    /// Situational superko (SSK): a stone move may not recreate an earlier board with the same
    /// side to move. Printed "ssk".
    SituationalSuperko,
    /// Simple ko: a stone move may not recreate the board from before the opponent's last
    /// move. Games can cycle, so games under this rule carry a move limit. Printed "simple".
    Simple,
}

impl fmt::Display for KoRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            KoRule::PositionalSuperko => "psk",
            KoRule::SituationalSuperko => "ssk",
            KoRule::Simple => "simple",
        })
    }
}

impl FromStr for KoRule {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s.to_ascii_lowercase().as_str() {
            "psk" | "positional" => Ok(KoRule::PositionalSuperko),
            "ssk" | "situational" => Ok(KoRule::SituationalSuperko),
            "simple" | "ko" => Ok(KoRule::Simple),
            _ => Err(format!(
                "unknown ko rule '{s}' (expected psk, ssk or simple)"
            )),
        }
    }
}

/// Komi: an exact number of half-points added to White's area (never a float).
///
/// `Komi::from_half_points(15)` is 7.5 points. A half-integer komi makes draws impossible.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Komi(i32);

/// A komi that is not a multiple of one half.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid komi '{0}' (expected a multiple of 0.5 from -1000 to 1000, e.g. 7.5 or -2)")]
pub struct KomiError(pub String);

impl Komi {
    /// Komi of `h` half-points (`h / 2` points).
    #[must_use]
    pub const fn from_half_points(h: i32) -> Self {
        Komi(h)
    }

    /// The komi in half-points.
    #[must_use]
    pub const fn half_points(self) -> i32 {
        self.0
    }

    /// Whether Black wins a game with area margin `margin` (Black minus White, in points) at
    /// this komi: `margin > komi`. `Some(true)` Black, `Some(false)` White, `None` a draw.
    #[must_use]
    pub const fn black_wins(self, margin: i32) -> Option<bool> {
        let m2 = margin * 2;
        if m2 > self.0 {
            Some(true)
        } else if m2 < self.0 {
            Some(false)
        } else {
            None
        }
    }

    /// Converts a floating value read from SGF's `KM` exactly.
    ///
    /// # Errors
    /// [`KomiError`] unless `x` is a finite multiple of 0.5 within ±1000.
    pub fn from_f64(x: f64) -> Result<Self, KomiError> {
        let h = x * 2.0;
        if !h.is_finite() || h.fract() != 0.0 || h.abs() > 2000.0 {
            return Err(KomiError(x.to_string()));
        }
        Ok(Komi(h as i32))
    }
}

impl fmt::Display for Komi {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sign = if self.0 < 0 { "-" } else { "" };
        let a = self.0.unsigned_abs();
        if a.is_multiple_of(2) {
            write!(f, "{sign}{}", a / 2)
        } else {
            write!(f, "{sign}{}.5", a / 2)
        }
    }
}

impl FromStr for Komi {
    type Err = KomiError;
    /// Parses "7.5", "-3", "0.5", "+2.0" exactly (no floating point).
    fn from_str(s: &str) -> Result<Self, KomiError> {
        let err = || KomiError(s.to_string());
        let t = s.trim();
        let (neg, t) = match t.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, t.strip_prefix('+').unwrap_or(t)),
        };
        let (int, frac) = t.split_once('.').unwrap_or((t, ""));
        if int.is_empty() || !int.bytes().all(|b| b.is_ascii_digit()) || int.len() > 4 {
            return Err(err());
        }
        let whole: i32 = int.parse().map_err(|_| err())?;
        let half = match frac.trim_end_matches('0') {
            "" => 0,
            "5" => 1,
            _ => return Err(err()),
        };
        let h = whole * 2 + half;
        if h > 2000 {
            return Err(err());
        }
        Ok(Komi(if neg { -h } else { h }))
    }
}

/// The rules of a game: ko rule and komi. Suicide is always illegal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Rules {
    /// The repetition rule.
    pub ko: KoRule,
    /// Komi added to White.
    pub komi: Komi,
}

impl fmt::Display for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} komi {}", self.ko, self.komi)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn komi_round_trips_and_rejects_non_halves() {
        for text in ["7.5", "-3", "0", "0.5", "-0.5", "24.5", "100"] {
            let k: Komi = text.parse().unwrap();
            assert_eq!(k.to_string(), text);
        }
        assert_eq!("7.50".parse::<Komi>().unwrap().half_points(), 15);
        assert_eq!("+2.0".parse::<Komi>().unwrap().half_points(), 4);
        for bad in [
            "7.25",
            "abc",
            "",
            "1e3",
            "--1",
            "0.55",
            "1000.5",
            "99999.5",
            "2147483647",
        ] {
            assert!(bad.parse::<Komi>().is_err(), "{bad} should be rejected");
        }
        assert!(Komi::from_f64(6.25).is_err());
        assert_eq!(Komi::from_f64(6.5).unwrap().half_points(), 13);
    }

    #[test]
    fn komi_sign_is_added_to_white() {
        // Black leads by 7 points on the board.
        assert_eq!(Komi::from_half_points(13).black_wins(7), Some(true)); // 6.5
        assert_eq!(Komi::from_half_points(15).black_wins(7), Some(false)); // 7.5
        assert_eq!(Komi::from_half_points(14).black_wins(7), None); // 7: draw
        // Negative komi helps White lose: White leads by 2, komi -2.5 gives Black the win.
        assert_eq!(Komi::from_half_points(-5).black_wins(-2), Some(true));
    }

    #[test]
    fn ko_rule_round_trips() {
        for r in [
            KoRule::PositionalSuperko,
            KoRule::SituationalSuperko,
            KoRule::Simple,
        ] {
            assert_eq!(r.to_string().parse::<KoRule>().unwrap(), r);
        }
        assert!("superduper".parse::<KoRule>().is_err());
    }
}
