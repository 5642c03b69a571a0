//! What stops a search before it answers: an expansion count, wall-clock time, a cancel flag.
//!
//! **One expansion** is the generation of the children of one node; for the depth-first
//! searches (gosolve's df-pn, pns's df-pn, PDS, focused df-pn) that is one call of the
//! recursive procedure on a node, the unit of effort of the Go paper.

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// The limits of one search (gosolve: of one question). The default is no limit.
#[derive(Clone, Default)]
pub struct Limits {
    /// Maximum expansions (0 = unlimited).
    pub max_expansions: u64,
    /// Maximum wall-clock time (`None` = unlimited).
    pub max_time: Option<Duration>,
    /// Set (by a Ctrl-C handler, say) to stop the search; the answer is then unknown. Each
    /// search says how often it looks (pns and gosolve: every 1,024 expansions).
    pub cancel: Option<Arc<AtomicBool>>,
}

impl Limits {
    /// At most `n` expansions (0 = unlimited), no other limit.
    #[must_use]
    pub fn expansions(n: u64) -> Self {
        Self {
            max_expansions: n,
            ..Self::default()
        }
    }

    /// Whether the cancel flag is raised.
    #[must_use]
    pub fn cancelled(&self) -> bool {
        self.cancel
            .as_ref()
            .is_some_and(|c| c.load(Ordering::Relaxed))
    }
}

impl fmt::Debug for Limits {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Limits")
            .field("max_expansions", &self.max_expansions)
            .field("max_time", &self.max_time)
            .field("cancel", &self.cancel.is_some())
            .finish()
    }
}

/// Which limit stopped a search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The expansion limit.
    Expansions,
    /// The time limit.
    Time,
    /// The memory limit (pns's tree searches; the tables of the depth-first ones are fixed-size).
    Memory,
    /// The cancel flag was raised (Ctrl-C).
    Interrupted,
}

impl Stop {
    /// Lowercase name.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Stop::Expansions => "expansions",
            Stop::Time => "time",
            Stop::Memory => "memory",
            Stop::Interrupted => "interrupted",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cancel_flag_is_read_through() {
        let flag = Arc::new(AtomicBool::new(false));
        let limits = Limits {
            cancel: Some(flag.clone()),
            ..Limits::expansions(5)
        };
        assert!(!limits.cancelled());
        flag.store(true, Ordering::Relaxed);
        assert!(limits.cancelled());
        assert!(!Limits::default().cancelled());
        assert_eq!(Stop::Interrupted.name(), "interrupted");
    }
}
