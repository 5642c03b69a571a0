//! The answer to one yes-or-no question of a proof search.

/// The answer to the question a search was asked.
///
/// pns asks "can the attacker force its goal?" ([`Answer::Proven`]: yes); gosolve asks "does
/// player w win at komi k?" ([`Answer::Proven`]: w wins, [`Answer::Disproven`]: w loses).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Answer {
    /// Yes: the asked player reaches its goal (gosolve: wins) against any defence.
    Proven,
    /// No: the other player prevents it (gosolve: the asked player loses).
    Disproven,
    /// A limit stopped the search first (or, in gosolve, a loss of a pruned side).
    Unknown,
}

impl Answer {
    /// Lowercase name: "proven", "disproven", "unknown".
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Answer::Proven => "proven",
            Answer::Disproven => "disproven",
            Answer::Unknown => "unknown",
        }
    }

    /// The name for a question "does w win?": "win", "loss", "unknown".
    #[must_use]
    pub const fn outcome_name(self) -> &'static str {
        match self {
            Answer::Proven => "win",
            Answer::Disproven => "loss",
            Answer::Unknown => "unknown",
        }
    }

    /// Whether the question is settled (proven or disproven).
    #[must_use]
    pub const fn is_known(self) -> bool {
        !matches!(self, Answer::Unknown)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_namings() {
        assert_eq!(Answer::Proven.name(), "proven");
        assert_eq!(Answer::Disproven.outcome_name(), "loss");
        assert_eq!(Answer::Unknown.outcome_name(), "unknown");
        assert!(Answer::Disproven.is_known() && !Answer::Unknown.is_known());
    }
}
