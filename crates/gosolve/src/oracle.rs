//! The brute-force reference: exact minimax of the area margin, memoised on the exact state.
//!
//! The state is the board, the side to move, whether the last move was a pass, and the
//! **set of earlier boards** (positional superko makes the value depend on it). Alpha-beta
//! with passes tried first prunes most of the tree (2×2 needs about 1,500 nodes); the memo
//! stores exact values and alpha-beta bounds. Built on the reference board
//! [`games::go::Position`], so it shares no code with the fast solver it checks.
//!
//! Value: Black's area minus White's area at the end of optimal play (komi not included);
//! Black maximises it, White minimises it. A pass answering a pass ends the game and is
//! scored at once. Boards of up to 64 points.

use games::Player;
use games::go::{Board, KoRule, Move, Position, Size};
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

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
    #[error("oracle node budget of {0} nodes exhausted")]
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

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Bound {
    Exact,
    Lower,
    Upper,
}

#[derive(Clone, PartialEq, Eq, Hash)]
struct Key {
    board: Packed,
    white_to_move: bool,
    after_pass: bool,
    /// The set of earlier boards, sorted (the current board included).
    earlier: Arc<[Packed]>,
}

/// The exact reference solver (single-threaded, memory grows with the search).
pub struct Oracle {
    memo: HashMap<Key, (i32, Bound)>,
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

impl Oracle {
    /// A fresh oracle with an unlimited node budget.
    #[must_use]
    pub fn new() -> Self {
        Oracle {
            memo: HashMap::new(),
            nodes: 0,
            max_nodes: u64::MAX,
            cancel: None,
            progress: None,
            stopped: None,
        }
    }

    /// Limits the total number of nodes (calls) this oracle may search.
    #[must_use]
    pub fn with_max_nodes(mut self, max_nodes: u64) -> Self {
        self.max_nodes = max_nodes;
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
        let n = pos.size().points() as i32;
        let earlier = earlier_set(pos);
        let v = self.search(pos, &earlier, -n - 1, n + 1);
        match self.stopped.take() {
            Some(e) => Err(e),
            None => Ok(v),
        }
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
        let mut cur = pos.clone();
        while !cur.is_over() {
            let mut found = None;
            for m in ordered_moves(&cur) {
                let mut child = cur.clone();
                child.play(m).expect("legal move");
                if self.value(&child)? == value {
                    found = Some((m, child));
                    break;
                }
            }
            let (m, child) = found.expect("some child attains the minimax value");
            pv.push(m);
            cur = child;
        }
        debug_assert_eq!(cur.score().margin(), value);
        Ok(OracleResult {
            value,
            best_move: pv.first().copied(),
            pv,
            nodes: self.nodes - nodes_before,
            memo_entries: self.memo.len(),
            time_s: start.elapsed().as_secs_f64(),
        })
    }

    /// Negamax-free minimax with alpha-beta on Black's margin; `earlier` is the sorted set
    /// of boards of the game so far (the current one included).
    fn search(
        &mut self,
        pos: &Position,
        earlier: &Arc<[Packed]>,
        mut alpha: i32,
        mut beta: i32,
    ) -> i32 {
        if pos.is_over() {
            return pos.score().margin();
        }
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
            board: pack(pos.board()),
            white_to_move: pos.to_move() == Player::White,
            after_pass: pos.passes() == 1,
            earlier: earlier.clone(),
        };
        let (alpha0, beta0) = (alpha, beta);
        if let Some(&(v, bound)) = self.memo.get(&key) {
            match bound {
                Bound::Exact => return v,
                Bound::Lower => alpha = alpha.max(v),
                Bound::Upper => beta = beta.min(v),
            }
            if alpha >= beta {
                return v;
            }
        }
        let maximising = pos.to_move() == Player::Black;
        let mut best = if maximising { i32::MIN } else { i32::MAX };
        for m in ordered_moves(pos) {
            let mut child = pos.clone();
            child.play(m).expect("legal move");
            let v = if child.is_over() {
                child.score().margin()
            } else if m == Move::Pass {
                self.search(&child, earlier, alpha, beta)
            } else {
                let child_set = insert_sorted(earlier, pack(child.board()));
                self.search(&child, &child_set, alpha, beta)
            };
            if self.stopped.is_some() {
                return 0;
            }
            if maximising {
                best = best.max(v);
                alpha = alpha.max(v);
            } else {
                best = best.min(v);
                beta = beta.min(v);
            }
            if alpha >= beta {
                break;
            }
        }
        let bound = if best <= alpha0 {
            Bound::Upper
        } else if best >= beta0 {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.memo.insert(key, (best, bound));
        best
    }
}

/// Legal moves, the pass first (the ordering that makes alpha-beta fast here).
fn ordered_moves(pos: &Position) -> Vec<Move> {
    let mut moves = pos.legal_moves();
    if let Some(i) = moves.iter().position(|&m| m == Move::Pass) {
        moves.remove(i);
        moves.insert(0, Move::Pass);
    }
    moves
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
