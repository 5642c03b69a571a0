//! A node of the search: its state (position, per-symmetry hashes, history signatures),
//! its table identity and its children's states.

use super::worker::Worker;
use crate::board::{Board, Geometry, Move, Point};
use crate::position::Line;
use crate::table::NodeKey;
use crate::transfer::Attrs;
use crate::zobrist::{self, mix1, mix2};
use games::Player;

/// A node of the search: the position, its per-symmetry hashes and history signatures.
#[derive(Clone, Copy, Debug)]
pub(crate) struct NodeState {
    pub(crate) board: Board,
    pub(crate) to_move: Player,
    pub(crate) passed: bool,
    /// Symmetries (bit s) mapping every board of the history to itself.
    pub(crate) stab: u8,
    /// Primary hash of s(board), per symmetry s.
    pub(crate) h1: [u64; 8],
    /// Second-set hash of s(board).
    pub(crate) h2: [u64; 8],
    /// Σ mix1(h1(s(B))) over the set of boards.
    pub(crate) s1: [u64; 8],
    /// Σ mix2(h2(s(B))).
    pub(crate) s2: [u64; 8],
}

impl NodeState {
    /// The canonical hash of the board (min over the symmetries), as the Bloom filter uses it.
    #[inline]
    pub(crate) fn canonical_board_hash(&self, nsym: usize) -> u64 {
        self.h1[..nsym].iter().copied().min().unwrap_or(0)
    }
}

/// A child in the arena, with its numbers (for its own mover) or its proof.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Child {
    pub(crate) mv: Move,
    pub(crate) key: NodeKey,
    pub(crate) pn: u64,
    pub(crate) dn: u64,
    pub(crate) state: NodeState,
    /// The proof's attributes once the child is proven.
    pub(crate) attrs: Attrs,
    /// Once proven: the strongest komi (half-points) at which the proof holds for its winner.
    pub(crate) holds: i32,
}

/// Constants folded into `pos2` for the side to move and the pass state.
pub(super) const SIDE2: u64 = 0x243F_6A88_85A3_08D3;

pub(super) const PASS2: u64 = 0x1319_8A2E_0370_7344;

/// The starting node of a line: hashes under every symmetry, the history signatures and
/// the symmetries that fix every board of the history.
pub(super) fn root_state(geo: &Geometry, line: &Line) -> NodeState {
    let n = geo.num_symmetries();
    let pos = line.position;
    let mut st = NodeState {
        board: pos.board,
        to_move: pos.to_move,
        passed: pos.passed,
        stab: 0,
        h1: [0; 8],
        h2: [0; 8],
        s1: [0; 8],
        s2: [0; 8],
    };
    for s in 0..n {
        st.h1[s] = pos.board.sym_hash(geo, s);
        st.h2[s] = pos.board.sym_hash2(geo, s);
        for b in &line.boards {
            st.s1[s] = st.s1[s].wrapping_add(mix1(b.sym_hash(geo, s)));
            st.s2[s] = st.s2[s].wrapping_add(mix2(b.sym_hash2(geo, s)));
        }
        if s > 0 && line.boards.iter().all(|b| geo.map_board(s, b) == *b) {
            st.stab |= 1 << s;
        }
    }
    st
}

/// The table identity of a node (canonical position key, the two history signatures in the
/// canonical frame, and the canonicalising symmetry), with the question's salt.
pub(super) fn key_of(geo: &Geometry, salt: u64, st: &NodeState) -> NodeKey {
    let white = st.to_move == Player::White;
    let sp =
        if white { zobrist::SIDE } else { 0 } ^ if st.passed { zobrist::PASS } else { 0 } ^ salt;
    let mut best = 0usize;
    let mut bk = st.h1[0] ^ sp;
    for s in 1..geo.num_symmetries() {
        let k = st.h1[s] ^ sp;
        if k < bk || (k == bk && st.s1[s] < st.s1[best]) {
            bk = k;
            best = s;
        }
    }
    let sp2 = if white { SIDE2 } else { 0 } ^ if st.passed { PASS2 } else { 0 } ^ salt;
    NodeKey {
        key: bk,
        pos2: st.h2[best] ^ sp2,
        sig1: st.s1[best],
        sig2: st.s2[best],
        sym: best as u8,
    }
}

impl Worker<'_> {
    #[inline]
    pub(super) fn key_of(&self, st: &NodeState) -> NodeKey {
        key_of(self.q.geo, self.q.salt, st)
    }

    /// The child after a stone move with result `board` and `captured` stones, given its
    /// identity hash `h0` (already computed for the superko test).
    #[inline]
    pub(super) fn stone_child(
        &self,
        st: &NodeState,
        p: Point,
        board: Board,
        captured: crate::board::Bitboard,
        h0: u64,
    ) -> NodeState {
        let geo = self.q.geo;
        let mut ch = NodeState {
            board,
            to_move: st.to_move.opponent(),
            passed: false,
            stab: 0,
            h1: [0; 8],
            h2: [0; 8],
            s1: [0; 8],
            s2: [0; 8],
        };
        for s in 0..geo.num_symmetries() {
            let (da, db) = geo.hash_delta(s, st.to_move, p, captured);
            let a = st.h1[s] ^ da;
            let b = st.h2[s] ^ db;
            ch.h1[s] = a;
            ch.h2[s] = b;
            ch.s1[s] = st.s1[s].wrapping_add(mix1(a));
            ch.s2[s] = st.s2[s].wrapping_add(mix2(b));
        }
        debug_assert_eq!(ch.h1[0], h0);
        let mut stab = st.stab;
        let mut bits = stab;
        while bits != 0 {
            let s = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            if ch.h1[s] != h0 || geo.map_board(s, &board) != board {
                stab &= !(1 << s);
            }
        }
        ch.stab = stab;
        ch
    }
}
