//! The transposition table: fixed memory, buckets of four packed entries, replacement by
//! effort, sound under positional superko.
//!
//! # Identity of an entry
//! A node is a position *and* the set of earlier boards. Without proof transfer (a later
//! issue) a result may be reused only in the identical superko game, so an entry is found
//! only by the triple
//!
//! ```text
//!   key   canonical position key: min over the board's symmetries s of the Zobrist key of
//!         s(position) (exact on boards of up to 30 points, see `zobrist`)
//!   sig1  Σ mix1(h1(s*(B)))  over the set of earlier boards B (current board included)
//!   sig2  Σ mix2(h2(s*(B)))  the same with independent keys and mixer
//! ```
//!
//! where `s*` is the canonicalising symmetry (among several, the one with the smallest `sig1`),
//! so both signatures are of the history seen in the canonical frame, and the stored best move
//! is in that frame too. Two entries match only if all 192 bits agree; the signatures are
//! non-linear (see `zobrist`), never a plain XOR of board keys.
//!
//! # What an entry says
//! Answers are in negamax form, from the point of view of the side to move, each for its own
//! winner: "the mover wins at komi k" (also at any komi better for the mover) or "the mover
//! loses at komi k". Unproven entries hold heuristic proof/disproof numbers (never 0 or ∞ when
//! read back) for their own komi only: a false match there can misguide the search but can
//! never prove anything.
//!
//! # Layout
//! [`Entry`] is 48 bytes, `#[repr(C)]` (size asserted at compile time): identity 24 bytes, two
//! 64-bit words that hold φ and δ of an unproven node and are reserved in a proven entry for the
//! transfer attributes of the next issue (Bloom filter of the winner's boards, territory), then
//! effort, komi, best move and flags (with spare bits for "path-specific" and "exclusion
//! target"). A bucket is four entries, 192 bytes, cache-line aligned. Memory is allocated and
//! written at creation, so the resident size is the requested MiB.

use games::Player;

/// Proof and disproof numbers are saturating 64-bit counts; this is "infinity".
pub const INF: u64 = u64::MAX;

/// One table entry (48 bytes).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Entry {
    key: u64,
    sig1: u64,
    sig2: u64,
    /// Unproven: φ (proof number of the mover). Proven: reserved (transfer attributes).
    word_a: u64,
    /// Unproven: δ (disproof number of the mover). Proven: reserved (transfer attributes).
    word_b: u64,
    /// Expansions spent below this node, saturating (replacement priority).
    effort: u32,
    /// Komi of the question, in half-points.
    komi2: i16,
    /// Best move in the canonical frame (255 = pass, 254 = none).
    best: u8,
    /// Bits 0–1: state (0 empty, 1 unproven, 2 mover wins, 3 mover loses); bit 2: White to
    /// move; bits 3–7 reserved for proof attributes (path-specific, exclusion target).
    flags: u8,
}

const _: () = assert!(std::mem::size_of::<Entry>() == 48);

const STATE_MASK: u8 = 0b11;
const EMPTY: u8 = 0;
const UNPROVEN: u8 = 1;
const WIN: u8 = 2;
const LOSS: u8 = 3;
const WHITE_TO_MOVE: u8 = 0b100;
/// "No best move" in an entry.
pub const NO_MOVE: u8 = 254;

/// Four entries, one cache-line-aligned bucket.
#[repr(C, align(64))]
#[derive(Clone, Copy, Debug, Default)]
struct Bucket([Entry; 4]);

const _: () = assert!(std::mem::size_of::<Bucket>() == 192);

/// The identity of a node in the table (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct NodeKey {
    /// Canonical position key.
    pub key: u64,
    /// First history signature (canonical frame).
    pub sig1: u64,
    /// Second history signature (canonical frame).
    pub sig2: u64,
    /// The canonicalising symmetry (maps the current frame to the canonical one).
    pub sym: u8,
}

/// What a probe found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Probe {
    /// No usable entry.
    Miss,
    /// A proof that the side to move wins (`true`) or loses (`false`) at the asked komi, with
    /// the stored best move (canonical frame).
    Proven {
        /// Whether the mover wins.
        mover_wins: bool,
        /// Best move code (canonical frame), [`NO_MOVE`] if none.
        best: u8,
    },
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

/// Counters of table use.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TableStats {
    /// Lookups.
    pub probes: u64,
    /// Lookups that returned a proof.
    pub proven_hits: u64,
    /// Lookups that returned numbers of an unproven node.
    pub unproven_hits: u64,
    /// Stores.
    pub stores: u64,
    /// Stores that evicted a different node.
    pub evictions: u64,
    /// Slots in use.
    pub used: u64,
    /// Slots in use holding proofs.
    pub proven_used: u64,
}

/// The transposition table.
pub struct Table {
    buckets: Vec<Bucket>,
    stats: TableStats,
}

impl std::fmt::Debug for Table {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Table({} buckets, {:?})", self.buckets.len(), self.stats)
    }
}

/// Whether a proof "the mover `mover` wins (or loses) at komi `stored`" decides the question
/// at komi `asked`: Black's wins hold at every lower komi, White's at every higher one.
#[must_use]
#[inline]
fn applies(mover: Player, mover_wins: bool, stored: i32, asked: i32) -> bool {
    let black_wins = (mover == Player::Black) == mover_wins;
    if black_wins {
        asked <= stored
    } else {
        asked >= stored
    }
}

impl Table {
    /// A table of `mib` MiB (at least one bucket), allocated and written at once so that it is
    /// resident.
    #[must_use]
    pub fn new(mib: usize) -> Self {
        let n = ((mib << 20) / std::mem::size_of::<Bucket>()).max(1);
        Table {
            buckets: vec![Bucket::default(); n],
            stats: TableStats::default(),
        }
    }

    /// Bytes held by the entries.
    #[must_use]
    pub fn bytes(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<Bucket>()
    }

    /// Number of slots.
    #[must_use]
    pub fn capacity(&self) -> usize {
        self.buckets.len() * 4
    }

    /// Counters.
    #[must_use]
    pub fn stats(&self) -> TableStats {
        self.stats
    }

    /// Empties the table (keeps its memory).
    pub fn clear(&mut self) {
        self.buckets.fill(Bucket::default());
        self.stats = TableStats::default();
    }

    #[inline]
    fn bucket_index(&self, k: &NodeKey) -> usize {
        let h = (k.key ^ k.sig1.rotate_left(29)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        ((u128::from(h) * self.buckets.len() as u128) >> 64) as usize
    }

    /// Looks up a node for the question "does the mover win at komi `komi2` half-points".
    #[must_use]
    pub fn probe(&mut self, k: &NodeKey, mover: Player, komi2: i32) -> Probe {
        self.stats.probes += 1;
        let b = &self.buckets[self.bucket_index(k)];
        let mut found = Probe::Miss;
        for e in &b.0 {
            if e.flags & STATE_MASK == EMPTY
                || e.key != k.key
                || e.sig1 != k.sig1
                || e.sig2 != k.sig2
            {
                continue;
            }
            let state = e.flags & STATE_MASK;
            if state == WIN || state == LOSS {
                if applies(mover, state == WIN, i32::from(e.komi2), komi2) {
                    self.stats.proven_hits += 1;
                    return Probe::Proven {
                        mover_wins: state == WIN,
                        best: e.best,
                    };
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
        if found != Probe::Miss {
            self.stats.unproven_hits += 1;
        }
        found
    }

    /// Whether any entry (any komi, proven or not) of the node is stored: a node never seen
    /// before has, but for rare transpositions, no stored children either.
    #[must_use]
    pub fn seen(&self, k: &NodeKey) -> bool {
        let b = &self.buckets[self.bucket_index(k)];
        b.0.iter().any(|e| {
            e.flags & STATE_MASK != EMPTY && e.key == k.key && e.sig1 == k.sig1 && e.sig2 == k.sig2
        })
    }

    /// Stores a node's numbers for the question at `komi2`: `pn == 0` stores a win of the mover,
    /// `dn == 0` a loss, anything else heuristic numbers. `effort` is the total expansions
    /// spent below the node so far.
    #[allow(clippy::too_many_arguments)]
    pub fn store(
        &mut self,
        k: &NodeKey,
        mover: Player,
        komi2: i32,
        pn: u64,
        dn: u64,
        best: u8,
        effort: u64,
    ) {
        self.stats.stores += 1;
        let state = if pn == 0 {
            WIN
        } else if dn == 0 {
            LOSS
        } else {
            UNPROVEN
        };
        let komi2 = komi2.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16;
        let entry = Entry {
            key: k.key,
            sig1: k.sig1,
            sig2: k.sig2,
            word_a: if state == UNPROVEN { pn } else { 0 },
            word_b: if state == UNPROVEN { dn } else { 0 },
            effort: effort.min(u64::from(u32::MAX)) as u32,
            komi2,
            best,
            flags: state
                | if mover == Player::White {
                    WHITE_TO_MOVE
                } else {
                    0
                },
        };
        let idx = self.bucket_index(k);
        let bucket = &mut self.buckets[idx].0;
        // 1. The same node: overwrite its entry for this komi, or an unproven one of another komi.
        let mut slot = None;
        for (i, e) in bucket.iter().enumerate() {
            if e.flags & STATE_MASK != EMPTY
                && e.key == k.key
                && e.sig1 == k.sig1
                && e.sig2 == k.sig2
            {
                let es = e.flags & STATE_MASK;
                if e.komi2 == komi2 || es == UNPROVEN {
                    slot = Some(i);
                    break;
                }
                if state == UNPROVEN {
                    // A proof of this node at another komi already sits here: keep it, and put
                    // the numbers elsewhere.
                    continue;
                }
            }
        }
        // 2. Otherwise an empty slot, else the one with the least effort (unproven first).
        let i = slot.unwrap_or_else(|| {
            let mut best_i = 0;
            let mut best_p = u64::MAX;
            for (i, e) in bucket.iter().enumerate() {
                let es = e.flags & STATE_MASK;
                let p = if es == EMPTY {
                    0
                } else {
                    1 + (u64::from(e.effort) << 1) + u64::from(es != UNPROVEN)
                };
                if p < best_p {
                    best_p = p;
                    best_i = i;
                }
            }
            best_i
        });
        let old = bucket[i];
        let old_state = old.flags & STATE_MASK;
        if old_state == EMPTY {
            self.stats.used += 1;
        } else if old.key != k.key || old.sig1 != k.sig1 || old.sig2 != k.sig2 {
            self.stats.evictions += 1;
        }
        if old_state == WIN || old_state == LOSS {
            self.stats.proven_used -= 1;
        }
        if state != UNPROVEN {
            self.stats.proven_used += 1;
        }
        bucket[i] = entry;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(k: u64, s1: u64, s2: u64) -> NodeKey {
        NodeKey {
            key: k,
            sig1: s1,
            sig2: s2,
            sym: 0,
        }
    }

    #[test]
    fn identity_needs_all_three_words() {
        let mut t = Table::new(1);
        let a = key(1, 2, 3);
        t.store(&a, Player::Black, 1, 0, INF, 7, 10);
        assert_eq!(
            t.probe(&a, Player::Black, 1),
            Probe::Proven {
                mover_wins: true,
                best: 7
            }
        );
        assert_eq!(t.probe(&key(1, 2, 4), Player::Black, 1), Probe::Miss);
        assert_eq!(t.probe(&key(1, 5, 3), Player::Black, 1), Probe::Miss);
        assert_eq!(t.probe(&key(9, 2, 3), Player::Black, 1), Probe::Miss);
    }

    #[test]
    fn proofs_are_monotone_in_komi() {
        let mut t = Table::new(1);
        let a = key(10, 20, 30);
        // Black to move wins at komi 3 (6 half-points... komi2 is odd in practice: 7 = 3.5).
        t.store(&a, Player::Black, 7, 0, INF, 1, 1);
        assert!(matches!(
            t.probe(&a, Player::Black, 5),
            Probe::Proven {
                mover_wins: true,
                ..
            }
        ));
        assert_eq!(t.probe(&a, Player::Black, 9), Probe::Miss);
        // White to move loses at komi 3.5: Black wins, also at lower komi.
        let b = key(11, 21, 31);
        t.store(&b, Player::White, 7, INF, 0, 1, 1);
        assert!(matches!(
            t.probe(&b, Player::White, 3),
            Probe::Proven {
                mover_wins: false,
                ..
            }
        ));
        assert_eq!(t.probe(&b, Player::White, 9), Probe::Miss);
    }

    #[test]
    fn unproven_numbers_are_never_zero_or_infinite() {
        let mut t = Table::new(1);
        let a = key(1, 1, 1);
        t.store(&a, Player::Black, 1, 5, 6, 0, 1);
        assert_eq!(
            t.probe(&a, Player::Black, 1),
            Probe::Unproven {
                pn: 5,
                dn: 6,
                best: 0,
                effort: 1
            }
        );
        assert_eq!(
            t.probe(&a, Player::Black, 3),
            Probe::Miss,
            "numbers are per komi"
        );
    }

    #[test]
    fn resident_size_matches() {
        let t = Table::new(3);
        assert!(t.bytes() <= 3 << 20 && t.bytes() > (3 << 20) - 192);
    }
}
