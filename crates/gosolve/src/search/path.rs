//! The per-thread state of a df-pn search: the history stacks of the current line, the
//! children arena, the region solver and the counters. Every thread of a parallel search
//! owns one [`Path`]; what threads share is the [`crate::table::Table`] alone.

use super::KnowledgeStats;
use super::node::Child;
use crate::board::Board;
use crate::prior::FEATURES;
use crate::regions::RegionSolver;
use crate::table::TableStats;

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
    /// This thread's table evictions (over every question) when last added to the
    /// question's shared count.
    pub(crate) flushed_evictions: u64,
    pub(crate) aborted: bool,
    pub(crate) root_numbers: (u64, u64),
    pub(crate) depth: u32,
    pub(crate) regions: RegionSolver,
    /// Counters over every question of this thread.
    pub(crate) know: KnowledgeStats,
    pub(crate) table: TableStats,
    /// Training samples of the learned prior: features and whether the mover wins.
    pub(crate) samples: Vec<([f64; FEATURES], bool)>,
    pub(crate) stored_proofs: u64,
}

impl Path {
    /// A thread's state, with a region-game memo of `memo_entries` entries (see
    /// [`crate::regions::memo_entries_for_table`]).
    pub(crate) fn new(memo_entries: usize) -> Self {
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
            flushed_evictions: 0,
            aborted: false,
            root_numbers: (1, 1),
            depth: 0,
            regions: RegionSolver::new().with_memo_entries(memo_entries),
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
