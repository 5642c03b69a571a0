//! Replacement: which slot of a bucket a store overwrites.
//!
//! ```text
//!   1. the same node: its entry for this komi, or an unproven one of another komi (a path
//!      entry); a newer proof or numbers of the position (a position bucket)
//!   2. else an empty slot, else the slot of least priority:
//!        priority = 1 + 2·effort + (1 if proven)      (an empty slot: 0)
//!      so unproven entries go before proofs of the same effort
//! ```
//!
//! Unproven numbers never replace a proof of the same node at the same komi: another thread
//! may have proven it meanwhile, and the proof stays.

use super::entry::{Bucket, EMPTY, Entry, STATE_MASK, UNPROVEN, meta_effort, meta_state};
use super::query::NodeKey;
use std::sync::atomic::Ordering::Relaxed;

/// The slot of `bucket` that `entry` (of node `k`; `position`: a position or shared entry)
/// goes to, or `None` when the bucket holds a proof of the same node at the same komi and
/// `entry` is only numbers. Slots that fail their seal while being read are counted in
/// `torn`.
pub(super) fn slot_for(
    bucket: &Bucket,
    k: &NodeKey,
    entry: &Entry,
    position: bool,
    torn: &mut u64,
) -> Option<usize> {
    let state = entry.flags & STATE_MASK;
    let komi2 = entry.komi2;
    // 1. The same node: overwrite its entry for this komi, or an unproven one of another komi.
    for (i, e) in bucket.with_key(k.key, torn).iter() {
        let es = e.flags & STATE_MASK;
        if position {
            // A newer proof of the position at this komi replaces the older one (and a
            // shared unproven entry at this komi, now obsolete); new shared numbers replace
            // the old ones (any komi).
            let replace = if state == UNPROVEN {
                e.shared_of(k)
            } else {
                (e.same_position(k) || e.shared_of(k)) && e.komi2 == komi2
            };
            if replace {
                return Some(i);
            }
        } else if e.same_path(k) {
            if state == UNPROVEN && es != UNPROVEN && e.komi2 == komi2 {
                // Proven meanwhile by another thread: keep the proof.
                return None;
            }
            if e.komi2 == komi2 || es == UNPROVEN {
                return Some(i);
            }
        }
    }
    // 2. Otherwise an empty slot, else the one with the least effort (unproven first).
    let mut best_i = 0;
    let mut best_p = u64::MAX;
    for i in 0..4 {
        let meta = bucket.meta[i].load(Relaxed);
        let es = meta_state(meta);
        let p = if es == EMPTY {
            0
        } else {
            1 + (u64::from(meta_effort(meta)) << 1) + u64::from(es != UNPROVEN)
        };
        if p < best_p {
            best_p = p;
            best_i = i;
        }
    }
    Some(best_i)
}
