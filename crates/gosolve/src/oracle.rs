//! The brute-force reference: exact minimax of the area margin, memoised on the exact state.
//!
//! # State and memo
//! The state is the board, the side to move, whether the last move was a pass, and the
//! **set of earlier boards**. Under positional superko the game tree below a node is a
//! function of exactly these four: a stone move is legal when its point is empty, it is not
//! suicide and its result is not in the set (the set only grows along a line, by each new
//! board), a pass answering a pass ends the game, and the score is the area of the final
//! board. So two nodes with the same state have the same tree and the same value, and the
//! memo is keyed by the whole state. A memo keyed by the board alone is unsound: the same
//! board with different earlier boards can have different values (see the test
//! `memo_distinguishes_histories`: +4 or −4 on 1x4). No part of the history can be dropped
//! from the key without an argument that it never matters, so none is.
//!
//! The set of the current line is kept once, as a hash set updated on the way down and up
//! (a child adds one board), not copied per node: lines under PSK can be thousands of plies
//! long (a 1x12 line of 13,000 boards cost a copy of 200 KB per child). The memo is found
//! by the board, the side to move, the pass state, the set's size and an order-free 128-bit
//! sum of its boards' hashes, and an entry counts only after its stored set is compared
//! board by board with the line's (a hash collision is a miss, never a wrong value).
//!
//! # Search
//! The value is found by MTD(f) (Plaat et al. 1996): a sequence of null-window fail-soft
//! alpha-beta searches "is the value at least u?", each narrowing the interval, starting from
//! the current area margin. Memo entries hold a lower and an upper bound on the value of
//! their state, both valid whatever window found them, so every search reuses all earlier
//! ones. The memo's best move of the state is tried first, then the moves (the pass
//! included) by the area margin of the board they leave, best for the mover first, the pass
//! first among equals (a pass answering a pass ends the game at once).
//!
//! # Budget
//! A search counts nodes (calls of the recursive procedure) and stops with
//! [`OracleError::Budget`] past [`DEFAULT_MAX_NODES`] (or [`Oracle::with_max_nodes`]). The
//! memo holds at most about [`MEMO_BYTES`] bytes; past that new states are searched but not
//! stored (which costs time, never correctness).
//!
//! Value: Black's area minus White's area at the end of optimal play (komi not included);
//! Black maximises it, White minimises it. Built on the reference board
//! [`games::go::Position`], so it shares no code with the fast solver it checks. Boards of up
//! to 64 points.

use games::Player;
use games::go::{Board, KoRule, Move, Position, Rules, Size};
use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

/// The node budget of [`Oracle::new`] (about 100,000 nodes a second).
pub const DEFAULT_MAX_NODES: u64 = 50_000_000;

/// The most bytes the memo may hold (estimated: an entry with its key, plus 16 bytes per
/// board of its set of earlier boards).
pub const MEMO_BYTES: usize = 1 << 30;

/// The result of an oracle solve.
#[derive(Clone, Debug, PartialEq)]
pub struct OracleResult {
    /// Black's area minus White's area under optimal play from the position, in points.
    pub value: i32,
    /// A best move for the side to move (`None` if the game is already over).
    pub best_move: Option<Move>,
    /// A principal variation from the position to the end of the game.
    pub pv: Vec<Move>,
    /// Nodes searched: calls of the recursive procedure (the oracle's expansions).
    pub nodes: u64,
    /// Distinct exact states stored in the memo.
    pub memo_entries: usize,
    /// Wall time in seconds.
    pub time_s: f64,
}

/// Why the oracle stopped without a value.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OracleError {
    /// The node budget ran out.
    #[error("oracle node budget of {0} nodes exhausted (raise it with --max-expansions)")]
    Budget(u64),
    /// The cancel flag was raised (Ctrl-C).
    #[error("oracle interrupted after {0} nodes")]
    Interrupted(u64),
    /// The board has more than 64 points, or the ko rule is not positional superko.
    #[error("the oracle solves boards of at most 64 points under positional superko (got {0})")]
    Unsupported(String),
}

/// A board as two 64-bit masks (Black in the low word, White in the high word).
type Packed = u128;

/// Where the memo looks for a state: everything but the set of earlier boards exactly, the
/// set by its size and hash (the entry holds the set itself for the exact comparison).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct Key {
    board: Packed,
    white_to_move: bool,
    after_pass: bool,
    /// Boards in the set of earlier boards (the current board included).
    set_len: usize,
    /// [`LineSet::hash`] of that set.
    set_hash: u128,
}

/// A memo entry with the exact set of earlier boards it belongs to (sorted).
struct Slot {
    earlier: Box<[Packed]>,
    entry: Entry,
}

/// The set of boards of the current line (the current board included), updated in place as
/// the search moves down and up, with an order-free hash of its members.
#[derive(Default)]
struct LineSet {
    boards: HashSet<Packed>,
    /// The wrapping sum of [`mix`] over the members.
    hash: u128,
}

impl LineSet {
    fn from_position(pos: &Position) -> Self {
        let mut set = LineSet::default();
        for (b, _) in pos.history().positions() {
            set.insert(pack(b));
        }
        set.insert(pack(pos.board()));
        set
    }

    fn contains(&self, b: Packed) -> bool {
        self.boards.contains(&b)
    }

    /// Adds `b`; false (and no change) if it is already a member.
    fn insert(&mut self, b: Packed) -> bool {
        let new = self.boards.insert(b);
        if new {
            self.hash = self.hash.wrapping_add(mix(b));
        }
        new
    }

    fn remove(&mut self, b: Packed) {
        if self.boards.remove(&b) {
            self.hash = self.hash.wrapping_sub(mix(b));
        }
    }

    /// Whether the sorted set `other` has exactly these members.
    fn equals(&self, other: &[Packed]) -> bool {
        other.len() == self.boards.len() && other.iter().all(|b| self.boards.contains(b))
    }

    fn sorted(&self) -> Box<[Packed]> {
        let mut v: Vec<Packed> = self.boards.iter().copied().collect();
        v.sort_unstable();
        v.into()
    }
}

/// A 128-bit hash of a board (splitmix64's finaliser on each half, crossed).
fn mix(b: Packed) -> u128 {
    fn fin(mut z: u64) -> u64 {
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    let (lo, hi) = (b as u64, (b >> 64) as u64);
    let a = fin(lo ^ 0x9e37_79b9_7f4a_7c15);
    let c = fin(hi.wrapping_add(a) ^ 0x6a09_e667_f3bc_c909);
    (u128::from(fin(a ^ c.rotate_left(17))) << 64) | u128::from(c)
}

/// What the memo knows of a state: lower ≤ value ≤ upper, and the move that gave the best
/// value in the last search of it.
#[derive(Clone, Copy, Debug)]
struct Entry {
    lower: i32,
    upper: i32,
    best: Option<Move>,
}

/// A node: the board, the side to move and whether the last move was a pass.
#[derive(Clone)]
struct State {
    board: Board,
    packed: Packed,
    to_move: Player,
    after_pass: bool,
}

/// The exact reference solver (single-threaded).
pub struct Oracle {
    memo: HashMap<Key, Slot>,
    /// The boards of the line being searched.
    line: LineSet,
    /// Estimated bytes of the memo.
    memo_bytes: usize,
    nodes: u64,
    max_nodes: u64,
    cancel: Option<Arc<AtomicBool>>,
    progress: Option<Arc<AtomicU64>>,
    stopped: Option<OracleError>,
}

impl Default for Oracle {
    fn default() -> Self {
        Self::new()
    }
}

fn pack(board: &Board) -> Packed {
    let size = board.size();
    let mut packed: Packed = 0;
    for (i, p) in size.all_points().enumerate() {
        match board.get(p) {
            Some(Player::Black) => packed |= 1 << i,
            Some(Player::White) => packed |= 1 << (64 + i),
            None => {}
        }
    }
    packed
}

const PSK: Rules = Rules {
    ko: KoRule::PositionalSuperko,
    komi: games::go::Komi::from_half_points(1),
};

impl Oracle {
    /// A fresh oracle with a budget of [`DEFAULT_MAX_NODES`] nodes.
    #[must_use]
    pub fn new() -> Self {
        Oracle {
            memo: HashMap::new(),
            line: LineSet::default(),
            memo_bytes: 0,
            nodes: 0,
            max_nodes: DEFAULT_MAX_NODES,
            cancel: None,
            progress: None,
            stopped: None,
        }
    }

    /// Limits the total number of nodes (calls) this oracle may search; 0 means unlimited.
    #[must_use]
    pub fn with_max_nodes(mut self, max_nodes: u64) -> Self {
        self.max_nodes = if max_nodes == 0 { u64::MAX } else { max_nodes };
        self
    }

    /// A flag that stops the search when raised (e.g. by Ctrl-C).
    #[must_use]
    pub fn with_cancel(mut self, cancel: Arc<AtomicBool>) -> Self {
        self.cancel = Some(cancel);
        self
    }

    /// A counter the oracle keeps equal to its node count (updated every 4,096 nodes), for
    /// progress displays on another thread.
    #[must_use]
    pub fn with_progress(mut self, counter: Arc<AtomicU64>) -> Self {
        self.progress = Some(counter);
        self
    }

    /// Nodes searched so far by this oracle (all calls).
    #[must_use]
    pub const fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The value of `pos`: Black's area minus White's area under optimal play.
    ///
    /// # Errors
    /// [`OracleError`] if the budget runs out, the search is cancelled, or the position is
    /// not supported (more than 64 points, or a ko rule other than positional superko).
    pub fn value(&mut self, pos: &Position) -> Result<i32, OracleError> {
        check_supported(pos)?;
        if pos.is_over() {
            return Ok(pos.score().margin());
        }
        let st = root_state(pos);
        self.line = LineSet::from_position(pos);
        self.mtdf(&st)
    }

    /// The exact value of a state by MTD(f) (its line of earlier boards in `self.line`).
    fn mtdf(&mut self, st: &State) -> Result<i32, OracleError> {
        let n = st.board.size().points() as i32;
        let (mut lower, mut upper) = (-n, n);
        let mut g = st.board.area().margin();
        while lower < upper {
            let beta = if g == lower { g + 1 } else { g };
            g = self.search(st, beta - 1, beta);
            if let Some(e) = self.stopped.take() {
                return Err(e);
            }
            if g < beta {
                upper = g;
            } else {
                lower = g;
            }
        }
        Ok(lower)
    }

    /// Solves `pos`: its value, a best move and a principal variation to the end of the game.
    ///
    /// # Errors
    /// As [`Oracle::value`].
    pub fn solve(&mut self, pos: &Position) -> Result<OracleResult, OracleError> {
        let start = Instant::now();
        let nodes_before = self.nodes;
        let value = self.value(pos)?;
        let mut pv = Vec::new();
        if !pos.is_over() {
            let mut st = root_state(pos);
            self.line = LineSet::from_position(pos);
            loop {
                // The child whose value is exactly `value` (a window around it decides).
                let mut found = None;
                for (m, child) in self.children(&st) {
                    let v = match &child {
                        None => st.board.area().margin(),
                        Some(c) => {
                            let added = self.line.insert(c.packed);
                            let v = self.search(c, value - 1, value + 1);
                            if added {
                                self.line.remove(c.packed);
                            }
                            if let Some(e) = self.stopped.take() {
                                return Err(e);
                            }
                            v
                        }
                    };
                    if v == value {
                        found = Some((m, child));
                        break;
                    }
                }
                let Some((m, child)) = found else {
                    unreachable!("some child attains the minimax value");
                };
                pv.push(m);
                match child {
                    None => break,
                    Some(c) => {
                        self.line.insert(c.packed);
                        st = c;
                    }
                }
            }
        }
        Ok(OracleResult {
            value,
            best_move: pv.first().copied(),
            pv,
            nodes: self.nodes - nodes_before,
            memo_entries: self.memo.len(),
            time_s: start.elapsed().as_secs_f64(),
        })
    }

    /// The legal moves of `st` (whose line is `self.line`) with their children: `None` for
    /// a pass that ends the game, else the child state (a stone move's board is new to the
    /// line). The pass comes first.
    fn children(&self, st: &State) -> Vec<(Move, Option<State>)> {
        let mut out = Vec::new();
        if st.after_pass {
            out.push((Move::Pass, None));
        } else {
            let c = State {
                board: st.board.clone(),
                packed: st.packed,
                to_move: st.to_move.opponent(),
                after_pass: true,
            };
            out.push((Move::Pass, Some(c)));
        }
        let pos = Position::from_board(st.board.clone(), st.to_move, PSK)
            .expect("every chain of a reached board has a liberty");
        for m in pos.legal_moves() {
            if m == Move::Pass {
                continue;
            }
            let mut child = pos.clone();
            child.play(m).expect("legal move");
            let packed = pack(child.board());
            if self.line.contains(packed) {
                continue; // positional superko
            }
            let c = State {
                board: child.board().clone(),
                packed,
                to_move: st.to_move.opponent(),
                after_pass: false,
            };
            out.push((m, Some(c)));
        }
        // By the area margin the move leaves, best for the mover first; stable, so the pass
        // comes first among equals.
        let sign = if st.to_move == Player::Black { -1 } else { 1 };
        let here = st.board.area().margin();
        let from = usize::from(st.after_pass);
        out[from..]
            .sort_by_key(|(_, c)| sign * c.as_ref().map_or(here, |c| c.board.area().margin()));
        out
    }

    /// Fail-soft alpha-beta on Black's margin (window `alpha` < `beta`): a result g ≤ alpha
    /// is an upper bound on the value, g ≥ beta a lower bound, anything between exact.
    /// `self.line` is the set of boards of the game so far (the current one included).
    fn search(&mut self, st: &State, mut alpha: i32, mut beta: i32) -> i32 {
        if self.stopped.is_some() {
            return 0;
        }
        self.nodes += 1;
        if self.nodes > self.max_nodes {
            self.stopped = Some(OracleError::Budget(self.max_nodes));
            return 0;
        }
        if self.nodes.is_multiple_of(4096) {
            if let Some(counter) = &self.progress {
                counter.store(self.nodes, Ordering::Relaxed);
            }
            if self
                .cancel
                .as_ref()
                .is_some_and(|c| c.load(Ordering::Relaxed))
            {
                self.stopped = Some(OracleError::Interrupted(self.nodes));
                return 0;
            }
        }
        let key = Key {
            board: st.packed,
            white_to_move: st.to_move == Player::White,
            after_pass: st.after_pass,
            set_len: self.line.boards.len(),
            set_hash: self.line.hash,
        };
        let n = st.board.size().points() as i32;
        let found = self
            .memo
            .get(&key)
            .map(|s| (self.line.equals(&s.earlier), s.entry));
        let mut entry = found.filter(|f| f.0).map(|f| f.1).unwrap_or(Entry {
            lower: -n,
            upper: n,
            best: None,
        });
        if entry.lower >= beta || entry.lower == entry.upper {
            return entry.lower;
        }
        if entry.upper <= alpha {
            return entry.upper;
        }
        alpha = alpha.max(entry.lower);
        beta = beta.min(entry.upper);
        let (alpha0, beta0) = (alpha, beta);
        let maximising = st.to_move == Player::Black;
        let mut children = self.children(st);
        // The memo's best move first.
        if let Some(b) = entry.best
            && let Some(i) = children.iter().position(|(m, _)| *m == b)
        {
            children[..=i].rotate_right(1);
        }
        let mut best = if maximising { i32::MIN } else { i32::MAX };
        let mut best_move = None;
        for (m, child) in &children {
            let v = match child {
                None => st.board.area().margin(),
                Some(c) => {
                    let added = self.line.insert(c.packed);
                    let v = self.search(c, alpha, beta);
                    if added {
                        self.line.remove(c.packed);
                    }
                    v
                }
            };
            if self.stopped.is_some() {
                return 0;
            }
            if (maximising && v > best) || (!maximising && v < best) {
                best = v;
                best_move = Some(*m);
            }
            if maximising {
                alpha = alpha.max(v);
            } else {
                beta = beta.min(v);
            }
            if alpha >= beta {
                break;
            }
        }
        // Bounds relative to the window searched (already inside the memo's bounds).
        if best <= alpha0 {
            entry.upper = best;
        } else if best >= beta0 {
            entry.lower = best;
        } else {
            entry.lower = best;
            entry.upper = best;
        }
        entry.best = best_move;
        match found {
            Some((true, _)) => {
                if let Some(s) = self.memo.get_mut(&key) {
                    s.entry = entry;
                }
            }
            // A different set under the same key (a hash collision): left as it is.
            Some((false, _)) => {}
            None if self.memo_bytes < MEMO_BYTES => {
                self.memo_bytes += 128 + 16 * key.set_len;
                self.memo.insert(
                    key,
                    Slot {
                        earlier: self.line.sorted(),
                        entry,
                    },
                );
            }
            None => {}
        }
        best
    }
}

fn root_state(pos: &Position) -> State {
    State {
        board: pos.board().clone(),
        packed: pack(pos.board()),
        to_move: pos.to_move(),
        after_pass: pos.passes() == 1,
    }
}

fn check_supported(pos: &Position) -> Result<(), OracleError> {
    let size: Size = pos.size();
    if size.points() > 64 || pos.rules().ko != KoRule::PositionalSuperko {
        return Err(OracleError::Unsupported(format!(
            "{size} under {}",
            pos.rules().ko
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use games::go::Rules;

    fn solve(r: u32, c: u32) -> OracleResult {
        let pos = Position::new(Size::new(r, c).unwrap(), Rules::default());
        Oracle::new().solve(&pos).unwrap()
    }

    #[test]
    fn pv_replays_to_the_value() {
        for (r, c) in [(1, 1), (1, 2), (1, 3), (2, 2)] {
            let res = solve(r, c);
            let mut pos = Position::new(Size::new(r, c).unwrap(), Rules::default());
            for &m in &res.pv {
                pos.play(m).unwrap();
            }
            assert!(pos.is_over());
            assert_eq!(pos.score().margin(), res.value);
        }
    }

    #[test]
    fn line_set_hash_is_order_free_and_undone_by_remove() {
        let boards: Vec<Packed> = (0..50u128).map(|i| i * 0x1_0000_0001 + (i << 70)).collect();
        let mut a = LineSet::default();
        let mut b = LineSet::default();
        for &x in &boards {
            assert!(a.insert(x));
        }
        for &x in boards.iter().rev() {
            b.insert(x);
        }
        assert_eq!(a.hash, b.hash);
        assert!(!a.insert(boards[3]), "a member is not added twice");
        assert_eq!(a.hash, b.hash);
        let before = a.hash;
        a.insert(7 << 90);
        assert_ne!(a.hash, before);
        a.remove(7 << 90);
        assert_eq!(a.hash, before);
        assert!(a.equals(&b.sorted()));
        let mut other = b.sorted().to_vec();
        other[0] ^= 1;
        assert!(
            !a.equals(&other),
            "a set with one board changed is not equal"
        );
    }

    #[test]
    fn long_lines_keep_the_line_set_balanced() {
        // A 1x5 game with many captures: after the search the oracle's line is the root's set
        // again (every board added on the way down was removed on the way up).
        let size = Size::new(1, 5).unwrap();
        let mut pos = Position::new(size, Rules::default());
        for m in ["B1", "D1", "C1"] {
            pos.play_text(m).unwrap();
        }
        let mut oracle = Oracle::new();
        let v = oracle.value(&pos).unwrap();
        let root = LineSet::from_position(&pos);
        assert_eq!(oracle.line.hash, root.hash);
        assert!(oracle.line.equals(&root.sorted()));
        assert_eq!(Oracle::new().value(&pos).unwrap(), v);
    }

    #[test]
    fn memo_distinguishes_histories() {
        // 1x4 after C1 B1 A1 the board is "X.X." with White to move. White B1 would capture
        // A1 and recreate ".OX.", the board after move 2: banned here, so Black owns all four
        // points (+4). From the same board with no history White's B1 is legal and White
        // wins everything (-4). One shared memo must keep the two nodes apart.
        let size = Size::new(1, 4).unwrap();
        let mut long = Position::new(size, Rules::default());
        for m in ["C1", "B1", "A1"] {
            long.play_text(m).unwrap();
        }
        assert_eq!(long.board().to_ascii(), "X.X.");
        let short =
            Position::from_board(long.board().clone(), Player::White, Rules::default()).unwrap();
        let mut oracle = Oracle::new();
        assert_eq!(oracle.value(&long).unwrap(), 4);
        assert_eq!(oracle.value(&short).unwrap(), -4);
        assert_eq!(oracle.value(&long).unwrap(), 4);
    }
}
