//! Proof transfer under positional superko (Sanko paper, Section 3, Theorem 1, Algorithm 1
//! and Appendix A.2).
//!
//! A proof T that player w wins from node N under history H stays valid under another history
//! H' of the same position if
//!
//! ```text
//!   (i)   B_w(T) ∩ H' = ∅         no board created by w's stone moves in T lies in H'
//!   (ii)  X(T) ⊆ H'               every board of H that excluded an opponent move is in H'
//!   (iii) cap_w(H') ∩ terr(T) = ∅ no w stone was captured in H' on territory certified in T
//! ```
//!
//! The search keeps, for every proof, attributes that over-approximate these sets ([`Attrs`]):
//! a 64-bit Bloom filter of the canonical hashes of B_w(T), the stones common to all boards of
//! B_w(T) and their minimum stone count, the certified territory, and the exclusion targets
//! (the smallest path index of a target, and whether there may be several). Composition:
//!
//! ```text
//!   won node   attrs(winning child) + the board its stone move creates (none for a pass)
//!   lost node  join over all children (∪ Bloom, ∩ common stones, min count, ∪ territory,
//!              ∪ targets) + the node's own exclusions (boards its mover's superko-illegal
//!              moves would recreate; a symmetry merge counts as "several")
//! ```
//!
//! Targets that are boards of the proof's own line (path index ≥ the node's history length)
//! are dropped on the way up. A proof whose history still holds a target is stored
//! path-specifically (reused only in the identical superko game); any other is stored by
//! position and accepted on a new path only by [`PathView::transfer_ok`] (Algorithm 1),
//! which is linear in the path length and uses exact data only: condition (ii) holds because
//! only target-free proofs transfer; (i) because an ancestor board can be in B_w(T) only if it
//! holds the common stones, has at least the minimum count and hits the Bloom filter (no false
//! negatives); (iii) because a stone captured on p stood on p on some earlier board.

use crate::board::{Bitboard, Board, Geometry};
use crate::table::{PackedAttrs, StoredTargets, bloom_bits, pack_pair, unpack_pair};
use games::Player;

/// "No exclusion target" in [`Attrs::excl_min`].
pub(crate) const NO_TARGET: u32 = u32::MAX;

/// The attributes of a proof (Theorem 1) in the current frame, while composing.
///
/// `excl_min` is the smallest index, in the solver's path, of a board that made an opponent
/// move inside the proof illegal; `excl_many` says that there may be several (or that a
/// symmetry merge was relied on). A node whose history holds a target (index below its path
/// length) has a path-specific proof.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Attrs {
    pub(crate) bloom: u64,
    pub(crate) common_b: Bitboard,
    pub(crate) common_w: Bitboard,
    pub(crate) min_stones: u32,
    pub(crate) territory: Bitboard,
    pub(crate) excl_min: u32,
    pub(crate) excl_many: bool,
}

impl Attrs {
    /// A terminal leaf: no winner's boards, no territory, no target.
    pub(crate) const LEAF: Attrs = Attrs {
        bloom: 0,
        common_b: Bitboard(u64::MAX),
        common_w: Bitboard(u64::MAX),
        min_stones: u32::MAX,
        territory: Bitboard::EMPTY,
        excl_min: NO_TARGET,
        excl_many: false,
    };

    /// A static leaf certifying `territory`.
    pub(crate) const fn static_leaf(territory: Bitboard) -> Attrs {
        Attrs {
            territory,
            ..Attrs::LEAF
        }
    }

    /// A won node: the winning child's attributes plus the board its stone move created.
    #[inline]
    pub(crate) fn add_board(mut self, board: &Board, canon: u64) -> Attrs {
        self.bloom |= bloom_bits(canon);
        self.common_b &= board.black;
        self.common_w &= board.white;
        self.min_stones = self.min_stones.min(board.occupied().count());
        self
    }

    /// A lost node: the join of its children's attributes.
    #[inline]
    pub(crate) fn join(&mut self, o: &Attrs) {
        self.bloom |= o.bloom;
        self.common_b &= o.common_b;
        self.common_w &= o.common_w;
        self.min_stones = self.min_stones.min(o.min_stones);
        self.territory |= o.territory;
        self.add_target(o.excl_min, o.excl_many);
    }

    /// Adds an exclusion target at path index `i` (or several from `min` on).
    #[inline]
    pub(crate) fn add_target(&mut self, i: u32, many: bool) {
        if i == NO_TARGET {
            return;
        }
        if self.excl_min == NO_TARGET {
            self.excl_min = i;
            self.excl_many = many;
        } else {
            self.excl_many |= many || self.excl_min != i;
            self.excl_min = self.excl_min.min(i);
        }
    }

    /// Drops targets that are not in a history of `len` boards (boards on the proof's own
    /// line are not exclusion targets of this node).
    #[inline]
    pub(crate) fn restrict(mut self, len: usize) -> Attrs {
        if self.excl_min != NO_TARGET && self.excl_min as usize >= len {
            self.excl_min = NO_TARGET;
            self.excl_many = false;
        }
        self
    }
}

/// The history of a node as the transfer test reads it.
pub(crate) struct PathView<'a> {
    pub(crate) geo: &'a Geometry,
    pub(crate) boards: &'a [Board],
    pub(crate) canon: &'a [u64],
    pub(crate) count: &'a [u32],
    pub(crate) ever: &'a [Board],
}

impl PathView<'_> {
    /// The transfer test (Algorithm 1) for a proof stored in the canonical frame `sym`, won by
    /// `winner`, offered at a node with board `board` whose history is this path (plus
    /// `board`). Exact data only, linear in the path length: a strict ancestor board can be
    /// one of the winner's boards B_w(T) only if it holds the common stones, has at least the
    /// minimum count and hits the Bloom filter (condition i); the territory must avoid every
    /// point where a winner's stone ever stood, since a captured stone stood on an earlier
    /// board (condition iii); a proof with an exclusion target is never transferred, so
    /// X(T) = ∅ (condition ii).
    pub(crate) fn transfer_ok(
        &self,
        a: &PackedAttrs,
        sym: u8,
        winner: Player,
        board: &Board,
    ) -> bool {
        if a.targets != StoredTargets::None {
            return false;
        }
        let geo = self.geo;
        let inv = geo.inverse(sym as usize);
        let full = geo.full();
        if a.territory != 0 {
            let terr = geo.map_bitboard(inv, Bitboard(u64::from(a.territory)) & full);
            if let Some(ever) = self.ever.last()
                && !(terr & ever.stones(winner)).is_empty()
            {
                return false;
            }
        }
        let min = u32::from(a.min_stones);
        if a.min_stones == u8::MAX {
            // B_w(T) is empty.
            return true;
        }
        let (cb, cw) = unpack_pair(a.common);
        let (cb, cw) = (
            geo.map_bitboard(inv, cb & full),
            geo.map_bitboard(inv, cw & full),
        );
        for (i, anc) in self.boards.iter().enumerate() {
            let bits = bloom_bits(self.canon[i]);
            if self.count[i] >= min
                && anc.black.0 & cb.0 == cb.0
                && anc.white.0 & cw.0 == cw.0
                && a.bloom & bits == bits
                && anc != board
            {
                return false;
            }
        }
        true
    }
}

/// Packs attributes of the current frame for a node stored in the canonical frame `sym`,
/// naming an exclusion target by its board in `boards` (the node's history). Boards of more
/// than 32 points get [`PackedAttrs::OPAQUE`] (never transferred).
pub(crate) fn pack(geo: &Geometry, a: &Attrs, sym: u8, boards: &[Board]) -> PackedAttrs {
    if geo.points() > 32 {
        return PackedAttrs::OPAQUE;
    }
    let s = sym as usize;
    let full = geo.full();
    let targets = if a.excl_min == NO_TARGET {
        StoredTargets::None
    } else if a.excl_many {
        StoredTargets::Many
    } else {
        let t = geo.map_board(s, &boards[a.excl_min as usize]);
        StoredTargets::One(pack_pair(t.black, t.white))
    };
    PackedAttrs {
        bloom: a.bloom,
        common: pack_pair(
            geo.map_bitboard(s, a.common_b & full),
            geo.map_bitboard(s, a.common_w & full),
        ),
        territory: geo.map_bitboard(s, a.territory & full).0 as u32,
        min_stones: a.min_stones.min(255) as u8,
        targets,
    }
}

/// Converts stored attributes (canonical frame `sym`) to the current frame, locating a
/// stored exclusion target in `boards` (the node's history, without its own `board`).
pub(crate) fn unpack(
    geo: &Geometry,
    a: &PackedAttrs,
    sym: u8,
    board: &Board,
    boards: &[Board],
) -> Attrs {
    let inv = geo.inverse(sym as usize);
    let full = geo.full();
    let (cb, cw) = unpack_pair(a.common);
    let mut out = Attrs {
        bloom: a.bloom,
        common_b: geo.map_bitboard(inv, cb & full),
        common_w: geo.map_bitboard(inv, cw & full),
        min_stones: if a.min_stones == u8::MAX {
            u32::MAX
        } else {
            u32::from(a.min_stones)
        },
        territory: geo.map_bitboard(inv, Bitboard(u64::from(a.territory)) & full),
        excl_min: NO_TARGET,
        excl_many: false,
    };
    match a.targets {
        StoredTargets::None => {}
        StoredTargets::Many => out.add_target(0, true),
        StoredTargets::One(packed) => {
            let (b, w) = unpack_pair(packed);
            let t = geo.map_board(
                inv,
                &Board {
                    black: b & full,
                    white: w & full,
                },
            );
            if let Some(i) = boards.iter().position(|p| *p == t) {
                out.add_target(i as u32, false);
            } else if t != *board {
                // Not found (cannot happen in the identical game): every board is a target.
                out.add_target(0, true);
            }
        }
    }
    out
}
