//! Counters of table use and occupancy.

use super::Table;
use super::entry::{EMPTY, Entry, POSITION, SHARED, STATE_MASK, UNPROVEN, meta_state};
use super::entry::{LOSS, WIN};
use super::query::NodeKey;
use std::sync::atomic::Ordering::Relaxed;

/// Counters of table use.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TableStats {
    /// Lookups.
    pub probes: u64,
    /// Lookups that returned a proof.
    pub proven_hits: u64,
    /// Lookups that returned numbers of an unproven node.
    pub unproven_hits: u64,
    /// Of `unproven_hits`: shared numbers of another komi (cross-komi numbers).
    pub cross_komi_hits: u64,
    /// Stores.
    pub stores: u64,
    /// Stores that evicted a different node.
    pub evictions: u64,
    /// Slots in use.
    pub used: u64,
    /// Slots in use holding proofs.
    pub proven_used: u64,
    /// Slots in use holding transferable proofs (position entries).
    pub transferable_used: u64,
    /// Slots whose words failed their seal (torn by concurrent writes) and read as misses.
    pub torn_reads: u64,
}

impl TableStats {
    /// Adds another searcher's counts. The occupancy counters (`used`, `proven_used`,
    /// `transferable_used`) are per-searcher deltas kept with wrapping arithmetic, so that
    /// their sum over the threads is the occupancy (exact with one thread; with several, two
    /// writers racing for one slot may both count it).
    pub fn add(&mut self, o: &TableStats) {
        self.probes += o.probes;
        self.proven_hits += o.proven_hits;
        self.unproven_hits += o.unproven_hits;
        self.cross_komi_hits += o.cross_komi_hits;
        self.stores += o.stores;
        self.evictions += o.evictions;
        self.used = self.used.wrapping_add(o.used);
        self.proven_used = self.proven_used.wrapping_add(o.proven_used);
        self.transferable_used = self.transferable_used.wrapping_add(o.transferable_used);
        self.torn_reads += o.torn_reads;
    }

    /// The sum clamped to what can be: a negative occupancy (a race) reads as 0.
    #[must_use]
    pub fn settled(mut self) -> TableStats {
        for v in [
            &mut self.used,
            &mut self.proven_used,
            &mut self.transferable_used,
        ] {
            if *v > i64::MAX as u64 {
                *v = 0;
            }
        }
        self
    }
}

/// Takes an entry with `flags` that leaves its slot out of the proof counts of `stats`
/// (`proven_used`, `transferable_used`; nothing for numbers).
#[inline]
pub(super) fn uncount_proof(stats: &mut TableStats, flags: u8) {
    if matches!(flags & STATE_MASK, WIN | LOSS) {
        stats.proven_used = stats.proven_used.wrapping_sub(1);
        if flags & POSITION != 0 {
            stats.transferable_used = stats.transferable_used.wrapping_sub(1);
        }
    }
}

impl TableStats {
    /// Counts a store of `new` (for node `k`; `position`: into its position bucket) over
    /// `old`, what its slot held: a slot taken, an eviction of another node, and the proof
    /// counts of both.
    pub(super) fn count_store(&mut self, old: &Entry, new: &Entry, k: &NodeKey, position: bool) {
        if old.flags & STATE_MASK == EMPTY {
            self.used = self.used.wrapping_add(1);
        } else if old.key != k.key
            || if old.flags & (POSITION | SHARED) != 0 {
                old.word_d != k.pos2
            } else {
                old.sig1 != k.sig1 || old.sig2 != k.sig2
            }
        {
            self.evictions += 1;
        }
        uncount_proof(self, old.flags);
        if new.flags & STATE_MASK != UNPROVEN {
            self.proven_used = self.proven_used.wrapping_add(1);
            if position {
                self.transferable_used = self.transferable_used.wrapping_add(1);
            }
        }
    }
}

impl Table {
    /// The fraction of slots in use, estimated from the first 4,096 buckets (or all, if
    /// fewer): every key lands in a uniformly hashed bucket, so the prefix is a fair sample.
    /// For progress lines; the exact count is [`TableStats::used`].
    #[must_use]
    pub fn fill_sample(&self) -> f64 {
        let n = self.buckets.len().min(4096);
        let used: usize = self.buckets[..n]
            .iter()
            .map(|b| {
                (0..4)
                    .filter(|&i| meta_state(b.meta[i].load(Relaxed)) != EMPTY)
                    .count()
            })
            .sum();
        used as f64 / (4 * n.max(1)) as f64
    }
}
