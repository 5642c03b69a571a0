//! The journal of a trial: the slots a question stored to, emptied again when it fails.

use super::Table;
use super::entry::meta_flags;
use super::entry::{EMPTY, STATE_MASK};
use super::stats::TableStats;
use super::stats::uncount_proof;
use std::sync::atomic::Ordering::Relaxed;

impl Table {
    /// Starts recording the slots that stores write, for [`Table::close_journal`] (a store
    /// then also takes a lock: meant for short searches).
    pub fn open_journal(&mut self) {
        self.journal = Some(std::sync::Mutex::new(Vec::new()));
    }

    /// Stops recording; with `forget`, empties every slot stored to since
    /// [`Table::open_journal`], proofs and numbers alike, so that the search recorded leaves
    /// the table as it found it but for the entries it overwrote (an earlier search's, of
    /// the same node or a least-worked one), which are not restored. The occupancy counts
    /// in `stats` go down by what was emptied; returns the slots emptied.
    pub fn close_journal(&mut self, forget: bool, stats: &mut TableStats) -> u64 {
        let Some(journal) = self.journal.take() else {
            return 0;
        };
        if !forget {
            return 0;
        }
        let mut slots = journal.into_inner().unwrap_or_else(|e| e.into_inner());
        slots.sort_unstable();
        slots.dedup();
        let mut emptied = 0;
        for (b, i) in slots {
            let bucket = &self.buckets[b];
            let i = usize::from(i);
            let flags = meta_flags(bucket.meta[i].load(Relaxed));
            if flags & STATE_MASK == EMPTY {
                continue;
            }
            uncount_proof(stats, flags);
            stats.used = stats.used.wrapping_sub(1);
            bucket.clear_slot(i);
            emptied += 1;
        }
        emptied
    }
}
