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
use std::collections::HashMap;
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
    #[error(
        "oracle node budget of {0} nodes exhausted (raise it with --max-expansions, or use the dfpn engine)"
    )]
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

#[derive(Clone, PartialEq, Eq, Hash)]
struct Key {
    board: Packed,
    white_to_move: bool,
    after_pass: bool,
    /// The set of earlier boards, sorted (the current board included).
    earlier: Arc<[Packed]>,
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
    memo: HashMap<Key, Entry>,
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
        let earlier = earlier_set(pos);
        self.mtdf(&st, &earlier)
    }

    /// The exact value of a state by MTD(f).
    fn mtdf(&mut self, st: &State, earlier: &Arc<[Packed]>) -> Result<i32, OracleError> {
        let n = st.board.size().points() as i32;
        let (mut lower, mut upper) = (-n, n);
        let mut g = st.board.area().margin();
        while lower < upper {
            let beta = if g == lower { g + 1 } else { g };
            g = self.search(st, earlier, beta - 1, beta);
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
            let mut earlier = earlier_set(pos);
            loop {
                // The child whose value is exactly `value` (a window around it decides).
                let mut found = None;
                for (m, child) in self.children(&st, &earlier) {
                    let v = match &child {
                        None => st.board.area().margin(),
                        Some((c, set)) => {
                            let v = self.search(c, set, value - 1, value + 1);
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
                    Some((c, set)) => {
                        st = c;
                        earlier = set;
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

    /// The legal moves of `st` with their children: `None` for a pass that ends the game,
    /// else the child state and its set of earlier boards. The pass comes first.
    #[allow(clippy::type_complexity)]
    fn children(
        &self,
        st: &State,
        earlier: &Arc<[Packed]>,
    ) -> Vec<(Move, Option<(State, Arc<[Packed]>)>)> {
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
            out.push((Move::Pass, Some((c, earlier.clone()))));
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
            if earlier.binary_search(&packed).is_ok() {
                continue; // positional superko
            }
            let c = State {
                board: child.board().clone(),
                packed,
                to_move: st.to_move.opponent(),
                after_pass: false,
            };
            out.push((m, Some((c, insert_sorted(earlier, packed)))));
        }
        // By the area margin the move leaves, best for the mover first; stable, so the pass
        // comes first among equals.
        let sign = if st.to_move == Player::Black { -1 } else { 1 };
        let here = st.board.area().margin();
        let from = usize::from(st.after_pass);
        out[from..]
            .sort_by_key(|(_, c)| sign * c.as_ref().map_or(here, |(c, _)| c.board.area().margin()));
        out
    }

    /// Fail-soft alpha-beta on Black's margin (window `alpha` < `beta`): a result g ≤ alpha
    /// is an upper bound on the value, g ≥ beta a lower bound, anything between exact.
    /// `earlier` is the sorted set of boards of the game so far (the current one included).
    fn search(
        &mut self,
        st: &State,
        earlier: &Arc<[Packed]>,
        mut alpha: i32,
        mut beta: i32,
    ) -> i32 {
        if self.stopped.is_some() {
            return 0;
        }
        self.nodes += 1;
        if self.nodes > self.max_nodes {
            self.stopped = Some(OracleError::Budget(self.max_nodes));
            return 0;
        }
        if self.nodes % 4096 == 0 {
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
            earlier: earlier.clone(),
        };
        let n = st.board.size().points() as i32;
        let mut entry = self.memo.get(&key).copied().unwrap_or(Entry {
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
        let mut children = self.children(st, earlier);
        // The memo's best move first.
        if let Some(b) = entry.best {
            if let Some(i) = children.iter().position(|(m, _)| *m == b) {
                children[..=i].rotate_right(1);
            }
        }
        let mut best = if maximising { i32::MIN } else { i32::MAX };
        let mut best_move = None;
        for (m, child) in &children {
            let v = match child {
                None => st.board.area().margin(),
                Some((c, set)) => self.search(c, set, alpha, beta),
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
        if let Some(e) = self.memo.get_mut(&key) {
            *e = entry;
        } else if self.memo_bytes < MEMO_BYTES {
            self.memo_bytes += 96 + 16 * key.earlier.len();
            self.memo.insert(key, entry);
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

fn insert_sorted(set: &Arc<[Packed]>, board: Packed) -> Arc<[Packed]> {
    let mut v: Vec<Packed> = set.to_vec();
    if let Err(i) = v.binary_search(&board) {
        v.insert(i, board);
    }
    v.into()
}

fn earlier_set(pos: &Position) -> Arc<[Packed]> {
    let mut v: Vec<Packed> = pos.history().positions().map(|(b, _)| pack(b)).collect();
    v.push(pack(pos.board()));
    v.sort_unstable();
    v.dedup();
    v.into()
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
