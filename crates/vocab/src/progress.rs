//! The event a running search passes to its progress callback.

use std::sync::Arc;
use std::time::Duration;

/// Running counts of one search, with the searcher's own `detail` (`()` for pns; gosolve's
/// root numbers, table fill and checkpoint state).
#[derive(Clone, Copy, Debug, Default)]
pub struct Progress<D = ()> {
    /// Expansions so far.
    pub expansions: u64,
    /// Nodes so far (pns: held in memory now; gosolve: distinct nodes expanded).
    pub nodes: u64,
    /// Wall-clock time since the search started.
    pub elapsed: Duration,
    /// What only this searcher reports.
    pub detail: D,
}

/// A progress callback; each search says how often it calls it.
pub type ProgressFn<D = ()> = Arc<dyn Fn(&Progress<D>) + Send + Sync>;
