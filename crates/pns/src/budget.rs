//! The budget of one proof (expansions, seconds, MiB) and the meter that enforces it.
//!
//! **One expansion** is the generation of the children of one node. For the depth-first
//! algorithms (df-pn, PDS, focused df-pn) that is one call of the recursive procedure on a
//! node, the unit of effort of the Go paper; for PNS and PN² it is one expansion of a leaf
//! (PN²'s second-level expansions included).

use std::fmt;
use std::time::{Duration, Instant};

pub use vocab::{Limits, Stop};

/// A snapshot passed to the progress callback (pns reports no detail).
pub type Progress = vocab::Progress;

/// A progress callback, called about once a second.
pub type ProgressFn = vocab::ProgressFn;

/// The budget of one proof: its [`Limits`], the memory of its tree or table, and a progress
/// callback.
#[derive(Clone)]
pub struct Budget {
    /// Expansions, wall-clock time and the cancel flag (checked every 1,024 expansions).
    pub limits: Limits,
    /// Memory for the tree or transposition table, in MiB.
    pub max_mib: usize,
    /// Called about once a second while the proof runs.
    pub progress: Option<ProgressFn>,
}

impl Default for Budget {
    fn default() -> Self {
        Self {
            limits: Limits::default(),
            max_mib: 256,
            progress: None,
        }
    }
}

impl fmt::Debug for Budget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Budget")
            .field("limits", &self.limits)
            .field("max_mib", &self.max_mib)
            .field("progress", &self.progress.is_some())
            .finish()
    }
}

impl Budget {
    /// At most `n` expansions, 256 MiB.
    #[must_use]
    pub fn expansions(n: u64) -> Self {
        Self {
            limits: Limits::expansions(n),
            ..Self::default()
        }
    }

    /// Memory in bytes.
    #[must_use]
    pub const fn max_bytes(&self) -> usize {
        self.max_mib.saturating_mul(1 << 20)
    }
}

/// Counts expansions and checks the limits.
pub(crate) struct Meter {
    budget: Budget,
    start: Instant,
    last_report: Instant,
    pub expansions: u64,
    pub nodes: u64,
    pub peak_nodes: u64,
    pub stop: Option<Stop>,
}

impl Meter {
    pub fn new(budget: &Budget) -> Self {
        let now = Instant::now();
        Self {
            budget: budget.clone(),
            start: now,
            last_report: now,
            expansions: 0,
            nodes: 0,
            peak_nodes: 0,
            stop: None,
        }
    }

    /// Counts one expansion; false when a limit is reached (then `stop` says which).
    pub fn tick(&mut self) -> bool {
        if self.stop.is_some() {
            return false;
        }
        let limits = &self.budget.limits;
        if limits.max_expansions != 0 && self.expansions >= limits.max_expansions {
            self.stop = Some(Stop::Expansions);
            return false;
        }
        self.expansions += 1;
        if self.expansions.is_multiple_of(1024) {
            if limits.cancelled() {
                self.stop = Some(Stop::Interrupted);
                return false;
            }
            let now = Instant::now();
            if let Some(t) = limits.max_time
                && now - self.start >= t
            {
                self.stop = Some(Stop::Time);
                return false;
            }
            if now - self.last_report >= Duration::from_secs(1) {
                self.last_report = now;
                if let Some(p) = &self.budget.progress {
                    p(&Progress {
                        expansions: self.expansions,
                        nodes: self.nodes,
                        elapsed: now - self.start,
                        detail: (),
                    });
                }
            }
        }
        true
    }

    /// Records the nodes in memory; false (and `stop = Memory`) when `bytes` exceeds the budget.
    pub fn set_nodes(&mut self, nodes: u64, bytes: usize) -> bool {
        self.nodes = nodes;
        self.peak_nodes = self.peak_nodes.max(nodes);
        if bytes > self.budget.max_bytes() {
            self.stop.get_or_insert(Stop::Memory);
            return false;
        }
        true
    }

    pub fn stopped(&self) -> bool {
        self.stop.is_some()
    }

    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }
}
