//! What every thread of one question shares: the question itself and its counters.

use super::Config;
use super::virtual_loss::Busy;
use crate::board::Geometry;
use crate::prior::Prior;
use crate::table::Table;
use games::Player;
use std::sync::atomic::{AtomicBool, AtomicU64};
use std::time::Instant;

/// Counters every thread of one question adds to.
#[derive(Default)]
pub(super) struct Shared {
    /// Expansions and nodes flushed by the threads (every 1024 expansions).
    pub(super) expansions: AtomicU64,
    pub(super) nodes: AtomicU64,
    /// Set when a thread has answered the root: the others stop.
    pub(super) done: AtomicBool,
    /// Evictions flushed by the threads (with the expansions).
    pub(super) evictions: AtomicU64,
    /// Milliseconds from the start to the last proof of a node at depth 2 or less, plus
    /// one (0: none yet).
    pub(super) shallow_proof_ms: AtomicU64,
}

/// What every thread of one question reads.
pub(super) struct Query<'a> {
    pub(super) geo: &'a Geometry,
    pub(super) table: &'a Table,
    pub(super) cfg: &'a Config,
    pub(super) komi2: i32,
    pub(super) prior: &'a Prior,
    /// Whether proofs may be transferred (Theorem 1); false: reuse only in the identical game.
    pub(super) transfer: bool,
    /// The side whose moves are pruned (the side being proven), when pruning.
    pub(super) pruned_side: Option<Player>,
    /// Salt folded into keys so that pruned searches never share entries with others.
    pub(super) salt: u64,
    /// Virtual-loss counters (parallel search only).
    pub(super) busy: Option<&'a Busy>,
    pub(super) shared: &'a Shared,
    pub(super) start: Instant,
    /// Threads searching this question.
    pub(super) threads: usize,
    /// The side the question asks about (whether it wins).
    pub(super) asked: Player,
    /// The side to move at the root.
    pub(super) root_mover: Player,
}
