//! Virtual loss: spreading the threads of a parallel search over different children.

use super::node::Child;
use crate::table::{INF, NodeKey};
use std::sync::atomic::{AtomicU32, Ordering};

/// Virtual loss: per node (by a hash of its path identity), how many threads are below it
/// now. Collisions are harmless: the counts only steer the selection.
pub(super) struct Busy {
    counts: Vec<AtomicU32>,
}

/// Entries of the virtual-loss array (2^16 counters, 256 KiB).
pub(super) const BUSY_BITS: u32 = 16;

impl Busy {
    pub(super) fn new() -> Self {
        Busy {
            counts: (0..1usize << BUSY_BITS)
                .map(|_| AtomicU32::new(0))
                .collect(),
        }
    }

    #[inline]
    pub(super) fn slot(&self, k: &NodeKey) -> &AtomicU32 {
        let h = (k.key ^ k.sig1.rotate_left(29)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        &self.counts[(h >> (64 - BUSY_BITS)) as usize]
    }

    #[inline]
    pub(super) fn enter(&self, k: &NodeKey) {
        self.slot(k).fetch_add(1, Ordering::Relaxed);
    }

    #[inline]
    pub(super) fn leave(&self, k: &NodeKey) {
        self.slot(k).fetch_sub(1, Ordering::Relaxed);
    }

    /// The child to descend into and the second-smallest selection number: each child's δ
    /// multiplied by one plus the number of threads below it, so that a child another
    /// thread is searching looks as if its disproof were that much harder. Only children
    /// whose own δ is below the node's threshold `limit` are chosen, so that the chosen
    /// child always has room below its thresholds (no thread spins on a child it cannot
    /// expand).
    pub(super) fn select(
        &self,
        children: &[Child],
        base: usize,
        best: usize,
        d2: u64,
        limit: u64,
    ) -> (usize, u64) {
        let mut any = false;
        let mut sel = None;
        let mut lo = INF;
        for (i, c) in children.iter().enumerate() {
            let b = u64::from(self.slot(&c.key).load(Ordering::Relaxed));
            any |= b > 0;
            let v = c.dn.saturating_mul(1 + b);
            if c.dn < limit && (sel.is_none() || v < lo) {
                lo = v;
                sel = Some(base + i);
            }
        }
        let Some(sel) = sel.filter(|_| any) else {
            return (best, d2);
        };
        let second = children
            .iter()
            .enumerate()
            .filter(|&(i, _)| base + i != sel)
            .map(|(_, c)| {
                let b = u64::from(self.slot(&c.key).load(Ordering::Relaxed));
                c.dn.saturating_mul(1 + b)
            })
            .min()
            .unwrap_or(INF);
        (sel, second.max(lo))
    }
}
