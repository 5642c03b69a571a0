//! Probe and store: a node's identity, what a probe finds and what a store writes.

use super::entry::{
    EMPTY, EXCL_MANY, EXCL_ONE, Entry, LOSS, POSITION, PackedAttrs, SHARED, STATE_MASK,
    StoredTargets, UNPROVEN, WHITE_TO_MOVE, WIN,
};
use super::entry::{meta_effort, meta_state};
use super::faults::{REVERSED, TRANSFER};
use super::prefetch_bucket;
use super::stats::TableStats;
use super::stats::uncount_proof;
use super::{INF, Table};
use games::Player;
use std::sync::atomic::Ordering::Relaxed;

/// The identity of a node in the table (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct NodeKey {
    /// Canonical position key.
    pub key: u64,
    /// Second-key-set hash of the canonical position.
    pub pos2: u64,
    /// First history signature (canonical frame).
    pub sig1: u64,
    /// Second history signature (canonical frame).
    pub sig2: u64,
    /// The canonicalising symmetry (maps the current frame to the canonical one).
    pub sym: u8,
}

/// A proof found by a probe.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Found {
    /// Whether the mover wins.
    pub mover_wins: bool,
    /// Best move code (canonical frame), [`NO_MOVE`] if none.
    pub best: u8,
    /// The proof's attributes.
    pub attrs: PackedAttrs,
    /// Whether it is a position entry found in a different superko game, which the caller
    /// must accept only after the transfer test.
    pub needs_test: bool,
    /// The komi (half-points) the proof was stored at: the strongest komi it holds for its
    /// winner (Black's wins hold at every lower komi, White's at every higher one).
    pub komi2: i32,
}

/// What a probe found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Probe {
    /// No usable entry.
    Miss,
    /// A proof that the side to move wins or loses at the asked komi.
    Proven(Found),
    /// Heuristic numbers of an unproven node at the same komi.
    Unproven {
        /// φ, in `1..INF`.
        pn: u64,
        /// δ, in `1..INF`.
        dn: u64,
        /// Best move code (canonical frame).
        best: u8,
        /// Expansions spent below the node so far.
        effort: u64,
    },
}

/// What [`Table::store`] writes.
#[derive(Clone, Copy, Debug)]
pub enum StoreKind {
    /// Heuristic numbers (φ, δ), both in `1..INF`.
    Unproven(u64, u64),
    /// A proof (mover wins or loses) reusable only in the identical superko game.
    PathProof(bool, PackedAttrs),
    /// A transferable proof (no exclusion target).
    PositionProof(bool, PackedAttrs),
}

/// Whether a proof "the mover `mover` wins (or loses) at komi `stored`" decides the question
/// at komi `asked`: Black's wins hold at every lower komi, White's at every higher one.
#[must_use]
#[inline]
pub(super) fn applies(mover: Player, mover_wins: bool, stored: i32, asked: i32) -> bool {
    let black_wins = (mover == Player::Black) == mover_wins;
    if black_wins {
        asked <= stored
    } else {
        asked >= stored
    }
}

impl Table {
    /// Looks up a node for the question "does the mover win at komi `komi2` half-points".
    ///
    /// Path entries of the identical game come first (skipped when `path` is false); then
    /// position entries, each offered to
    /// `accept` (the transfer test, called with the proof's attributes and whether the mover
    /// wins) unless it was stored in the identical game. With `transfer` false, position
    /// entries are not consulted. A slot that fails its seal reads as a miss. Counts go to
    /// `stats` (the caller's, one per thread).
    #[allow(clippy::too_many_arguments)]
    pub fn probe(
        &self,
        k: &NodeKey,
        mover: Player,
        komi2: i32,
        path: bool,
        transfer: bool,
        stats: &mut TableStats,
        mut accept: impl FnMut(&PackedAttrs, bool) -> bool,
    ) -> Probe {
        stats.probes += 1;
        let mut found = Probe::Miss;
        if path {
            let b = &self.buckets[self.path_bucket(k)];
            for (_, e) in b
                .with_key(k.key, &mut stats.torn_reads)
                .iter()
                .filter(|(_, e)| e.same_path(k))
            {
                let state = e.flags & STATE_MASK;
                if state == WIN || state == LOSS {
                    if applies(mover, state == WIN, i32::from(e.komi2), komi2) {
                        stats.proven_hits += 1;
                        return Probe::Proven(Found {
                            mover_wins: (state == WIN) != self.fault(REVERSED),
                            best: e.best,
                            attrs: e.attrs(),
                            needs_test: false,
                            komi2: i32::from(e.komi2),
                        });
                    }
                } else if i32::from(e.komi2) == komi2 {
                    found = Probe::Unproven {
                        pn: e.word_a.clamp(1, INF - 1),
                        dn: e.word_b.clamp(1, INF - 1),
                        best: e.best,
                        effort: u64::from(e.effort),
                    };
                }
            }
        }
        if let Some(f) = self.other_path_fault(k, mover, komi2) {
            return Probe::Proven(f);
        }
        if !(transfer || self.share_unproven && found == Probe::Miss) {
            if found != Probe::Miss {
                stats.unproven_hits += 1;
            }
            return found;
        }
        let pos = self.buckets[self.position_bucket(k)].with_key(k.key, &mut stats.torn_reads);
        let mut other_komi = false;
        if self.share_unproven && found == Probe::Miss {
            // This komi's numbers, else (cross-komi) those of the komi last searched.
            let shared = |exact: bool| {
                pos.iter()
                    .find(|(_, e)| e.shared_of(k) && (!exact || i32::from(e.komi2) == komi2))
            };
            let exact = shared(true);
            other_komi = exact.is_none() && self.cross_komi;
            if let Some((_, e)) = exact.or_else(|| if other_komi { shared(false) } else { None }) {
                found = Probe::Unproven {
                    pn: e.word_a.clamp(1, INF - 1),
                    dn: e.word_b.clamp(1, INF - 1),
                    best: e.best,
                    effort: u64::from(e.effort),
                };
            }
        }
        if transfer {
            for (_, e) in pos.iter().filter(|(_, e)| e.same_position(k)) {
                let state = e.flags & STATE_MASK;
                let wins = state == WIN;
                if !applies(mover, wins, i32::from(e.komi2), komi2) {
                    continue;
                }
                let identical = e.sig1 == k.sig1 && e.sig2 == k.sig2;
                let attrs = e.attrs();
                if identical || accept(&attrs, wins) || self.fault(TRANSFER) {
                    stats.proven_hits += 1;
                    return Probe::Proven(Found {
                        mover_wins: wins != self.fault(REVERSED),
                        best: e.best,
                        attrs,
                        needs_test: !identical,
                        komi2: i32::from(e.komi2),
                    });
                }
            }
        }
        if found != Probe::Miss {
            stats.unproven_hits += 1;
            stats.cross_komi_hits += u64::from(other_komi);
        }
        found
    }

    /// Starts loading the node's buckets into the cache (the path bucket if `path`, the
    /// position bucket if `transfer`), so that several children's misses overlap.
    #[inline]
    pub fn prefetch(&self, k: &NodeKey, path: bool, transfer: bool) {
        if path {
            prefetch_bucket(&self.buckets[self.path_bucket(k)]);
        }
        if transfer || self.share_unproven {
            prefetch_bucket(&self.buckets[self.position_bucket(k)]);
        }
    }

    /// Whether any path entry (any komi, proven or not) of the node is stored: a node never
    /// seen before has, but for rare transpositions, no stored children either.
    #[must_use]
    pub fn seen(&self, k: &NodeKey) -> bool {
        let mut torn = 0;
        let b = &self.buckets[self.path_bucket(k)];
        b.with_key(k.key, &mut torn)
            .iter()
            .any(|(_, e)| e.same_path(k))
            || (self.share_unproven && {
                let b = &self.buckets[self.position_bucket(k)];
                b.with_key(k.key, &mut torn)
                    .iter()
                    .any(|(_, e)| e.shared_of(k) && e.sig1 == k.sig1 && e.sig2 == k.sig2)
            })
    }

    /// Stores a node's numbers or proof for the question at `komi2`. `effort` is the total
    /// expansions spent below the node so far. A position proof also removes the node's
    /// unproven path entry at the same komi. Unproven numbers never replace a proof of the
    /// same node at the same komi (another thread may have proven it meanwhile). A proof at a
    /// komi outside `i8` (boards above 63 points) is not stored.
    #[allow(clippy::too_many_arguments)]
    pub fn store(
        &self,
        k: &NodeKey,
        mover: Player,
        komi2: i32,
        what: StoreKind,
        best: u8,
        effort: u64,
        stats: &mut TableStats,
    ) {
        stats.stores += 1;
        let is_proof = !matches!(what, StoreKind::Unproven(..));
        if i8::try_from(komi2).is_err() && is_proof {
            return;
        }
        let komi2 = komi2.clamp(i32::from(i8::MIN), i32::from(i8::MAX)) as i16;
        let side = if mover == Player::White {
            WHITE_TO_MOVE
        } else {
            0
        };
        let effort = effort.min(u64::from(u32::MAX)) as u32;
        let proof_entry = |wins: bool, a: &PackedAttrs, position: bool| {
            let mut flags = if wins { WIN } else { LOSS } | side;
            let mut word_d = 0;
            if position {
                flags |= POSITION;
                word_d = k.pos2;
            } else {
                match a.targets {
                    StoredTargets::None => {}
                    StoredTargets::One(b) => {
                        flags |= EXCL_ONE;
                        word_d = b;
                    }
                    StoredTargets::Many => flags |= EXCL_MANY,
                }
            }
            Entry {
                key: k.key,
                sig1: k.sig1,
                sig2: k.sig2,
                word_a: a.bloom,
                word_b: a.common,
                word_c: u64::from(a.territory) | (u64::from(a.min_stones) << 32),
                word_d,
                effort,
                komi2,
                best,
                flags,
            }
        };
        let shared = self.share_unproven;
        let (entry, position) = match what {
            StoreKind::Unproven(pn, dn) => (
                Entry {
                    key: k.key,
                    sig1: k.sig1,
                    sig2: k.sig2,
                    word_a: pn,
                    word_b: dn,
                    word_c: 0,
                    word_d: if shared { k.pos2 } else { 0 },
                    effort,
                    komi2,
                    best,
                    flags: UNPROVEN | side | if shared { SHARED } else { 0 },
                },
                shared,
            ),
            StoreKind::PathProof(w, a) => {
                self.note_path_proof(
                    k,
                    Found {
                        mover_wins: w,
                        best,
                        attrs: a,
                        needs_test: false,
                        komi2: i32::from(komi2),
                    },
                );
                (proof_entry(w, &a, false), false)
            }
            StoreKind::PositionProof(w, a) => (proof_entry(w, &a, true), true),
        };
        let mut torn = 0;
        if position && is_proof && !shared {
            // The node's unproven numbers at this komi are obsolete.
            let b = &self.buckets[self.path_bucket(k)];
            for (i, _) in b.with_key(k.key, &mut torn).iter().filter(|(_, e)| {
                e.same_path(k) && e.flags & STATE_MASK == UNPROVEN && e.komi2 == komi2
            }) {
                b.clear_slot(i);
                stats.used = stats.used.wrapping_sub(1);
            }
        }
        let state = entry.flags & STATE_MASK;
        let idx = if position {
            self.position_bucket(k)
        } else {
            self.path_bucket(k)
        };
        let bucket = &self.buckets[idx];
        // 1. The same node: overwrite its entry for this komi, or an unproven one of another komi.
        let mut slot = None;
        for (i, e) in bucket.with_key(k.key, &mut torn).iter() {
            let es = e.flags & STATE_MASK;
            if position {
                // A newer proof of the position at this komi replaces the older one (and
                // a shared unproven entry at this komi, now obsolete); new shared numbers
                // replace the old ones.
                let replace = if state == UNPROVEN {
                    // Shared numbers replace the position's shared numbers (any komi).
                    e.shared_of(k)
                } else {
                    (e.same_position(k) || e.shared_of(k)) && e.komi2 == komi2
                };
                if replace {
                    slot = Some(i);
                    break;
                }
            } else if e.same_path(k) {
                if state == UNPROVEN && es != UNPROVEN && e.komi2 == komi2 {
                    // Proven meanwhile by another thread: keep the proof.
                    return;
                }
                if e.komi2 == komi2 || es == UNPROVEN {
                    slot = Some(i);
                    break;
                }
            }
        }
        // 2. Otherwise an empty slot, else the one with the least effort (unproven first).
        let i = slot.unwrap_or_else(|| {
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
            best_i
        });
        // What the slot held (a torn one counts as an eviction of a proof-free slot).
        let old = bucket.get(i).unwrap_or(Entry {
            flags: UNPROVEN,
            ..Entry::default()
        });
        let old_state = old.flags & STATE_MASK;
        if old_state == EMPTY {
            stats.used = stats.used.wrapping_add(1);
        } else if old.key != k.key
            || if old.flags & (POSITION | SHARED) != 0 {
                old.word_d != k.pos2
            } else {
                old.sig1 != k.sig1 || old.sig2 != k.sig2
            }
        {
            stats.evictions += 1;
        }
        uncount_proof(stats, old.flags);
        if state != UNPROVEN {
            stats.proven_used = stats.proven_used.wrapping_add(1);
            if position {
                stats.transferable_used = stats.transferable_used.wrapping_add(1);
            }
        }
        stats.torn_reads += torn;
        bucket.set(i, &entry, self.tear());
        if let Some(j) = &self.journal {
            j.lock()
                .unwrap_or_else(|e| e.into_inner())
                .push((idx, i as u8));
        }
    }
}
