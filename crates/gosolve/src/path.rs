//! The per-thread state of a df-pn search: the history stacks of the current line, the
//! children arena, the region solver and the counters. Every thread of a parallel search
//! owns one [`Path`]; what threads share is the [`crate::table::Table`] alone.

use crate::board::{Board, Move};
use crate::prior::FEATURES;
use crate::regions::RegionSolver;
use crate::search::KnowledgeStats;
use crate::table::{NodeKey, TableStats};
use crate::transfer::Attrs;
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

/// One thread's search state.
pub(crate) struct Path {
    /// Boards of the current path (root set, then the line), exact, for superko.
    pub(crate) boards: Vec<Board>,
    /// Their primary hashes (h1 under the identity).
    pub(crate) hash: Vec<u64>,
    /// Their canonical hashes (for the Bloom test).
    pub(crate) canon: Vec<u64>,
    /// Their stone counts.
    pub(crate) count: Vec<u32>,
    /// The union of the boards up to and including each one: every point where each colour
    /// ever had a stone (a stone captured on p implies an earlier board with it on p).
    pub(crate) ever: Vec<Board>,
    /// The children of every node on the line, in one arena.
    pub(crate) children: Vec<Child>,
    /// Expansions and distinct nodes of this thread in the current question.
    pub(crate) expansions: u64,
    pub(crate) nodes: u64,
    /// Expansions and nodes already added to the question's shared counters.
    pub(crate) flushed: (u64, u64),
    pub(crate) aborted: bool,
    pub(crate) root_numbers: (u64, u64),
    /// The root's winning move once this thread has proven the root a win for the mover (in
    /// the root's own frame). Kept here because with several threads and a small table the
    /// root's entry can be overwritten before the proof is read back.
    pub(crate) root_best: Option<Move>,
    pub(crate) depth: u32,
    /// Attributes of the proof `mid` last returned.
    pub(crate) ret_attrs: Attrs,
    /// With `ret_attrs`: the strongest komi at which the returned proof holds.
    pub(crate) ret_holds: i32,
    /// Set by `generate`: what the node's game-ending pass gives the winner, if it has one.
    pub(crate) own_holds: Option<i32>,
    /// The node's own exclusion targets, left by `generate`.
    pub(crate) own: Attrs,
    pub(crate) regions: RegionSolver,
    /// Counters over every question of this thread.
    pub(crate) know: KnowledgeStats,
    pub(crate) table: TableStats,
    /// Training samples of the learned prior: features and whether the mover wins.
    pub(crate) samples: Vec<([f64; FEATURES], bool)>,
    pub(crate) stored_proofs: u64,
}

impl Path {
    pub(crate) fn new() -> Self {
        Path {
            boards: Vec::new(),
            hash: Vec::new(),
            canon: Vec::new(),
            count: Vec::new(),
            ever: Vec::new(),
            children: Vec::new(),
            expansions: 0,
            nodes: 0,
            flushed: (0, 0),
            aborted: false,
            root_numbers: (1, 1),
            root_best: None,
            depth: 0,
            ret_attrs: Attrs::LEAF,
            ret_holds: 1,
            own_holds: None,
            own: Attrs::LEAF,
            regions: RegionSolver::new(),
            know: KnowledgeStats::default(),
            table: TableStats::default(),
            samples: Vec::new(),
            stored_proofs: 0,
        }
    }

    /// Empties the line (keeps the counters).
    pub(crate) fn clear_line(&mut self) {
        self.boards.clear();
        self.hash.clear();
        self.canon.clear();
        self.count.clear();
        self.ever.clear();
        self.children.clear();
        self.depth = 0;
    }

    /// Appends a board to the line, with its primary and canonical hashes.
    pub(crate) fn push(&mut self, board: Board, h: u64, canon: u64) {
        let ever = match self.ever.last() {
            Some(e) => Board {
                black: e.black | board.black,
                white: e.white | board.white,
            },
            None => board,
        };
        self.boards.push(board);
        self.hash.push(h);
        self.canon.push(canon);
        self.count.push(board.occupied().count());
        self.ever.push(ever);
    }

    /// Removes the last board of the line.
    pub(crate) fn pop(&mut self) {
        self.boards.pop();
        self.hash.pop();
        self.canon.pop();
        self.count.pop();
        self.ever.pop();
    }

    /// The index in the line of the board a stone move would recreate, if any.
    #[inline]
    pub(crate) fn repeat_index(&self, h: u64, board: &Board) -> Option<usize> {
        self.hash
            .iter()
            .zip(&self.boards)
            .position(|(&ph, pb)| ph == h && pb == board)
    }
}
