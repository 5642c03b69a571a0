//! Probe and store: a node's identity, what a probe finds and what a store writes.

use super::entry::{Entry, LOSS, PackedAttrs, STATE_MASK, UNPROVEN, WIN};
use super::faults::{REVERSED, TRANSFER};
use super::prefetch_line;
use super::stats::TableStats;
use super::{INF, Table};
use games::Player;

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
    /// The canonicalising symmetry (maps the current frame to the canonical one), by its
    /// index in the geometry's symmetries ([`crate::bitboard::Geometry::symmetry`] names it).
    pub sym: u8,
}

/// A proof found by a probe.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Found {
    /// Whether the mover wins.
    pub mover_wins: bool,
    /// Best move code (canonical frame), [`super::NO_MOVE`] if none.
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

/// What [`Query::store`] writes.
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
    /// The table's view of one node (its identity `k`, its mover): its two buckets are found
    /// once for every probe and store of the node.
    #[must_use]
    #[inline]
    pub fn query(&self, k: &NodeKey, mover: Player) -> Query<'_> {
        Query {
            table: self,
            key: *k,
            mover,
            path_bucket: self.path_bucket(k),
            position_bucket: self.position_bucket(k),
        }
    }
}

/// One node's access to the table (KomoringHeights' query): its identity, its mover, and
/// the indices of its path bucket (key and history signature) and its position bucket (key
/// alone), computed once.
#[derive(Clone, Copy)]
pub struct Query<'t> {
    table: &'t Table,
    key: NodeKey,
    mover: Player,
    path_bucket: usize,
    position_bucket: usize,
}

/// What [`Query::store`] writes: the node's numbers or proof, at a komi, with its best move
/// and effort.
#[derive(Clone, Copy, Debug)]
pub struct Record {
    /// Numbers or a proof.
    pub what: StoreKind,
    /// The komi (half-points): the question's for numbers, the strongest komi a proof holds
    /// at for a proof.
    pub komi2: i32,
    /// Best move code (canonical frame), [`super::NO_MOVE`] if none.
    pub best: u8,
    /// Expansions spent below the node so far (the replacement priority).
    pub effort: u64,
}

impl Query<'_> {
    /// Looks up the node for the question "does the mover win at komi `komi2` half-points".
    ///
    /// Path entries of the identical game come first (skipped when `path` is false); then
    /// position entries, each offered to `accept` (the transfer test, called with the
    /// proof's attributes and whether the mover wins) unless it was stored in the identical
    /// game. With `transfer` false, position entries are not consulted. A slot that fails
    /// its seal reads as a miss. Counts go to `stats` (the caller's, one per thread).
    pub fn probe(
        &self,
        komi2: i32,
        path: bool,
        transfer: bool,
        stats: &mut TableStats,
        mut accept: impl FnMut(&PackedAttrs, bool) -> bool,
    ) -> Probe {
        let k = &self.key;
        stats.probes += 1;
        let mut found = Probe::Miss;
        if path {
            let b = &self.table.buckets[self.path_bucket];
            for (_, e) in b
                .with_key(k.key, &mut stats.torn_reads)
                .iter()
                .filter(|(_, e)| e.same_path(k))
            {
                let state = e.flags & STATE_MASK;
                if state == WIN || state == LOSS {
                    if applies(self.mover, state == WIN, i32::from(e.komi2), komi2) {
                        stats.proven_hits += 1;
                        return Probe::Proven(Found {
                            mover_wins: (state == WIN) != self.table.fault(REVERSED),
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
        if let Some(f) = self.table.other_path_fault(k, self.mover, komi2) {
            return Probe::Proven(f);
        }
        if !(transfer || self.table.share_unproven && found == Probe::Miss) {
            if found != Probe::Miss {
                stats.unproven_hits += 1;
            }
            return found;
        }
        let pos = self.table.buckets[self.position_bucket].with_key(k.key, &mut stats.torn_reads);
        let mut other_komi = false;
        if self.table.share_unproven && found == Probe::Miss {
            // This komi's numbers, else (cross-komi) those of the komi last searched.
            let shared = |exact: bool| {
                pos.iter()
                    .find(|(_, e)| e.shared_of(k) && (!exact || i32::from(e.komi2) == komi2))
            };
            let exact = shared(true);
            other_komi = exact.is_none() && self.table.cross_komi;
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
                if !applies(self.mover, wins, i32::from(e.komi2), komi2) {
                    continue;
                }
                let identical = e.sig1 == k.sig1 && e.sig2 == k.sig2;
                let attrs = e.attrs();
                if identical || accept(&attrs, wins) || self.table.fault(TRANSFER) {
                    stats.proven_hits += 1;
                    return Probe::Proven(Found {
                        mover_wins: wins != self.table.fault(REVERSED),
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
    /// position bucket if `transfer` or numbers are shared), so that several children's
    /// misses overlap.
    #[inline]
    pub fn prefetch(&self, path: bool, transfer: bool) {
        if path {
            prefetch_line(&self.table.buckets[self.path_bucket]);
        }
        if transfer || self.table.share_unproven {
            prefetch_line(&self.table.buckets[self.position_bucket]);
        }
    }

    /// Whether any path entry (any komi, proven or not) of the node is stored: a node never
    /// seen before has, but for rare transpositions, no stored children either.
    #[must_use]
    pub fn seen(&self) -> bool {
        let k = &self.key;
        let mut torn = 0;
        let b = &self.table.buckets[self.path_bucket];
        b.with_key(k.key, &mut torn)
            .iter()
            .any(|(_, e)| e.same_path(k))
            || (self.table.share_unproven && {
                let b = &self.table.buckets[self.position_bucket];
                b.with_key(k.key, &mut torn)
                    .iter()
                    .any(|(_, e)| e.shared_of(k) && e.sig1 == k.sig1 && e.sig2 == k.sig2)
            })
    }

    /// Stores the node's numbers or proof ([`Record`]). A position proof also removes the
    /// node's unproven path entry at the same komi. Unproven numbers never replace a proof
    /// of the same node at the same komi (another thread may have proven it meanwhile). A
    /// proof at a komi outside `i8` (boards above 63 points) is not stored.
    ///
    /// Three steps: the entry is encoded (`Entry::encode`), a slot chosen
    /// (`replace::slot_for`), and the occupancy counted (`TableStats::count_store`).
    pub fn store(&self, r: &Record, stats: &mut TableStats) {
        stats.stores += 1;
        let k = &self.key;
        let is_proof = !matches!(r.what, StoreKind::Unproven(..));
        if i8::try_from(r.komi2).is_err() && is_proof {
            return;
        }
        let shared = self.table.share_unproven;
        let (entry, position) = Entry::encode(k, self.mover, r, shared);
        if let StoreKind::PathProof(w, a) = r.what {
            self.table.note_path_proof(
                k,
                Found {
                    mover_wins: w,
                    best: r.best,
                    attrs: a,
                    needs_test: false,
                    komi2: i32::from(entry.komi2),
                },
            );
        }
        let mut torn = 0;
        if position && is_proof && !shared {
            // The node's unproven numbers at this komi are obsolete.
            let b = &self.table.buckets[self.path_bucket];
            for (i, _) in b.with_key(k.key, &mut torn).iter().filter(|(_, e)| {
                e.same_path(k) && e.flags & STATE_MASK == UNPROVEN && e.komi2 == entry.komi2
            }) {
                b.clear_slot(i);
                stats.used = stats.used.wrapping_sub(1);
            }
        }
        let idx = if position {
            self.position_bucket
        } else {
            self.path_bucket
        };
        let bucket = &self.table.buckets[idx];
        let Some(i) = super::replace::slot_for(bucket, k, &entry, position, &mut torn) else {
            // Proven meanwhile by another thread: the proof stays.
            return;
        };
        // What the slot held (a torn one counts as an eviction of a proof-free slot).
        let old = bucket.get(i).unwrap_or(Entry {
            flags: UNPROVEN,
            ..Entry::default()
        });
        stats.count_store(&old, &entry, k, position);
        stats.torn_reads += torn;
        bucket.set(i, &entry, self.table.tear());
        if let Some(j) = &self.table.journal {
            j.lock()
                .unwrap_or_else(|e| e.into_inner())
                .push((idx, i as u8));
        }
    }
}
