//! Live analysis of a Go position's root moves, for the GTP analysis commands
//! (`lz-analyze`, `kata-analyze`, `analyze`) and KataGo's analysis JSON protocol.
//!
//! # What is computed
//! 1. **Monte Carlo statistics**: UCT (`mcts`, seeded, with the `GoRollout` playout policy)
//!    runs its playouts from the position; each root move gets its playouts n and mean
//!    reward for the side to move (none when the analysis is stopped before it starts).
//! 2. **Exact values, move by move**: the root moves are taken in turn (most played first)
//!    and the value of the position after each is asked of the gosolve df-pn solver
//!    (`gosolve::value`: two proofs by bisection over komi, then a principal variation), with
//!    a budget of `b` expansions a question. A move whose value is found is **proven**; one
//!    whose questions run out keeps the proven bounds found so far. When every move has had
//!    its turn, the budget doubles and the unproven moves are asked again (the table keeps
//!    what the earlier rounds found), until every move is proven, the largest budget has
//!    been tried, the total work is spent or the analysis is stopped. A user sees the proven
//!    moves appear one by one.
//!
//! # What the numbers mean (all for the side to move, per move)
//! - `win rate`: 1 when the bounds prove the move wins at the komi, 0 when they prove it
//!   loses, 0.5 for a proven draw (integer komi); otherwise the playouts' mean reward (0.5
//!   without playouts).
//! - `score lead`: for a proven move, the **exact margin** after it under optimal play:
//!   v − komi for Black, komi − v for White, v being Black's area minus White's. For an
//!   unproven move, the middle of its proven bounds (the bounds are −R·C and R·C before any
//!   proof), with `score stdev` half their width (0 for a proven move).
//! - `visits`: the work spent on the move: its playouts plus the solver's expansions on its
//!   questions.
//! - order: proven wins first, then unproven moves by win rate, then proven losses; ties by
//!   score lead, then visits.

use games::Player;
use games::go::{Komi, Move, Position, Size};
use gosolve::{Solver, solve_value_from};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// The budgets of one analysis.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// MCPS playouts before the solver (0: none).
    pub playouts: u64,
    /// Expansions a solver question in the first round (at least 1); doubled each round.
    pub first_budget: u64,
    /// The largest budget a question (0: no limit, the rounds go on until every move is
    /// proven or the analysis is stopped).
    pub max_budget: u64,
    /// Total work of the analysis, playouts plus expansions (0: no limit).
    pub max_work: u64,
    /// Seed of the playouts.
    pub seed: u64,
}

/// What is known about one root move.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveInfo {
    /// The move.
    pub mv: Move,
    /// Playouts that began with it.
    pub playouts: u64,
    /// Their mean reward for the side to move (0 to 1), `None` without playouts.
    pub mc_win_rate: Option<f64>,
    /// Solver expansions spent on its questions.
    pub expansions: u64,
    /// Proven lower bound on the value after the move (Black's area minus White's).
    pub lower: i32,
    /// Proven upper bound on the value after the move.
    pub upper: i32,
    /// The move and, once its value is proven, an optimal continuation to the end of the game.
    pub pv: Vec<Move>,
}

impl MoveInfo {
    /// The value after the move, once proven.
    #[must_use]
    pub const fn value(&self) -> Option<i32> {
        if self.lower == self.upper {
            Some(self.lower)
        } else {
            None
        }
    }

    /// Work spent on the move: playouts plus expansions.
    #[must_use]
    pub const fn visits(&self) -> u64 {
        self.playouts.saturating_add(self.expansions)
    }

    /// The proven result for `mover` at `komi`: 1 a win, 0 a loss, 0.5 a draw; `None` while
    /// the bounds do not decide it.
    #[must_use]
    pub fn proven_win_rate(&self, mover: Player, komi: Komi) -> Option<f64> {
        let black = match (komi.black_wins(self.lower), komi.black_wins(self.upper)) {
            (Some(true), _) => 1.0,
            (_, Some(false)) => 0.0,
            (None, None) => 0.5,
            _ => return None,
        };
        Some(if mover == Player::Black {
            black
        } else {
            1.0 - black
        })
    }

    /// The win rate for `mover` (module documentation).
    #[must_use]
    pub fn win_rate(&self, mover: Player, komi: Komi) -> f64 {
        self.proven_win_rate(mover, komi)
            .or(self.mc_win_rate)
            .unwrap_or(0.5)
    }

    /// The score lead for `mover` in points (module documentation).
    #[must_use]
    pub fn score_lead(&self, mover: Player, komi: Komi) -> f64 {
        let mid = f64::from(self.lower + self.upper) / 2.0;
        let lead = mid - f64::from(komi.half_points()) / 2.0;
        if mover == Player::Black { lead } else { -lead }
    }

    /// Half the width of the proven bounds, in points (0 once proven).
    #[must_use]
    pub fn score_stdev(&self) -> f64 {
        f64::from(self.upper - self.lower) / 2.0
    }
}

/// The state of an analysis (a snapshot while it runs, the result when it ends).
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis {
    /// The board size.
    pub size: Size,
    /// The side to move.
    pub to_move: Player,
    /// The komi.
    pub komi: Komi,
    /// The legal moves, best first (module documentation).
    pub moves: Vec<MoveInfo>,
    /// Playouts run.
    pub playouts: u64,
    /// Solver expansions spent.
    pub expansions: u64,
    /// Whether the analysis ended on its own (every move proven, or the budgets spent).
    pub finished: bool,
    /// Why the solver was not asked, if it was not (board too large, solving off).
    pub solver_refusal: Option<String>,
}

impl Analysis {
    /// The position's value (Black's area minus White's under optimal play), once every
    /// move is proven: the best of the moves' values for the side to move.
    #[must_use]
    pub fn root_value(&self) -> Option<i32> {
        let values: Option<Vec<i32>> = self.moves.iter().map(MoveInfo::value).collect();
        let values = values?;
        if self.to_move == Player::Black {
            values.into_iter().max()
        } else {
            values.into_iter().min()
        }
    }

    /// The best move's entry, if any move is legal.
    #[must_use]
    pub fn best(&self) -> Option<&MoveInfo> {
        self.moves.first()
    }

    /// Total work: playouts plus expansions.
    #[must_use]
    pub const fn visits(&self) -> u64 {
        self.playouts.saturating_add(self.expansions)
    }

    /// Sorts the moves best first (module documentation).
    fn sort(&mut self) {
        let (p, k) = (self.to_move, self.komi);
        // Proven wins above every unproven move, proven losses below.
        let key = |m: &MoveInfo| {
            let tier = match m.proven_win_rate(p, k) {
                Some(1.0) => 2,
                Some(0.0) => 0,
                _ => 1,
            };
            (tier, m.win_rate(p, k), m.score_lead(p, k), m.visits())
        };
        self.moves.sort_by(|a, b| {
            let (ka, kb) = (key(a), key(b));
            kb.0.cmp(&ka.0)
                .then(kb.1.total_cmp(&ka.1))
                .then(kb.2.total_cmp(&ka.2))
                .then(kb.3.cmp(&ka.3))
        });
    }

    /// The final ownership of every point, row-major from the top-left point (A19 on 19×19)
    /// to the bottom-right, for `perspective` (+1 its point, −1 the opponent's, 0 neutral):
    /// the area at the end of the best move's principal variation, when its value is proven
    /// (one optimal line's ending; other optimal lines may end otherwise). `None` otherwise.
    #[must_use]
    pub fn ownership(&self, start: &Position, perspective: Player) -> Option<Vec<f64>> {
        let best = self.best()?;
        best.value()?;
        let mut p = start.clone();
        for &m in &best.pv {
            p.play(m).ok()?;
        }
        let size = p.size();
        let owner = area_owners(&p);
        let mut out = Vec::with_capacity(size.points());
        for r in (0..size.rows()).rev() {
            for c in 0..size.cols() {
                let i = size.index(games::go::Point::new(r, c));
                out.push(match owner[i] {
                    Some(x) if x == perspective => 1.0,
                    Some(_) => -1.0,
                    None => 0.0,
                });
            }
        }
        Some(out)
    }
}

/// The owner of each point under area scoring (index order): the stone's colour, or the one
/// colour bordering the empty region, or `None`.
fn area_owners(p: &Position) -> Vec<Option<Player>> {
    let board = p.board();
    let size = board.size();
    let mut owner: Vec<Option<Player>> = size.all_points().map(|q| board.get(q)).collect();
    let mut seen = vec![false; size.points()];
    for start in size.all_points() {
        let si = size.index(start);
        if seen[si] || board.get(start).is_some() {
            continue;
        }
        let (mut region, mut touches) = (Vec::new(), [false; 2]);
        let mut stack = vec![start];
        seen[si] = true;
        while let Some(q) = stack.pop() {
            region.push(size.index(q));
            for nb in size.neighbours(q) {
                let i = size.index(nb);
                match board.get(nb) {
                    Some(c) => touches[c.index()] = true,
                    None if !seen[i] => {
                        seen[i] = true;
                        stack.push(nb);
                    }
                    None => {}
                }
            }
        }
        let who = match touches {
            [true, false] => Some(Player::Black),
            [false, true] => Some(Player::White),
            _ => None,
        };
        for i in region {
            owner[i] = who;
        }
    }
    owner
}

/// The Monte Carlo part: UCT's playouts from `pos`, as one entry per legal move
/// (in the reference move order, pass last).
fn monte_carlo(pos: &Position, playouts: u64, seed: u64) -> (Vec<MoveInfo>, u64) {
    use games::go::GoGame;
    use mcts::{Algorithm, Budget, GoRollout, Params, Searcher};
    let n = pos.size().points() as i32;
    let mut moves: Vec<MoveInfo> = pos
        .legal_moves()
        .into_iter()
        .map(|mv| MoveInfo {
            mv,
            playouts: 0,
            mc_win_rate: None,
            expansions: 0,
            lower: -n,
            upper: n,
            pv: vec![mv],
        })
        .collect();
    if pos.is_over() {
        moves.clear();
    }
    if playouts == 0 || moves.len() < 2 {
        return (moves, 0);
    }
    let size = pos.size();
    let limit = pos.plies().saturating_add(4 * size.points() as u32 + 8);
    let game = GoGame::new(size.rows() as u8, size.cols() as u8, pos.rules())
        .expect("a position's size is a Go size")
        .with_move_limit(Some(limit));
    // UCT: plain means a move, and no per-playout window to set up (MCPS's costs seconds
    // on 19x19 before its first playout).
    let params = Params::new(Algorithm::Uct).with_budget(Budget::Playouts(playouts));
    let seed = seed ^ u64::from(pos.plies()).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let mut searcher = Searcher::new(&game, params, GoRollout::default(), seed);
    let stats = searcher.search(&game, pos).map(|(_, s)| s.playouts);
    for (mv, visits, mean) in searcher.root_moves() {
        if let Some(m) = moves.iter_mut().find(|m| m.mv == mv) {
            m.playouts = u64::from(visits);
            m.mc_win_rate = (visits > 0).then_some(mean);
        }
    }
    (moves, stats.unwrap_or(0))
}

/// Runs an analysis of `pos` (see the module documentation), calling `report` after the
/// playouts and after each solver question. `solver` is `None` when the solver is not to be
/// asked (`refusal` says why); it must have been made for `pos`'s board size. `stop` is
/// the solver's cancel flag for the time of the analysis. Call it on a thread with a large
/// stack (the solver recurses once per ply).
pub fn run(
    solver: Option<&mut Solver>,
    refusal: Option<String>,
    pos: &Position,
    limits: &Limits,
    stop: &Arc<AtomicBool>,
    report: &mut dyn FnMut(&Analysis),
) -> Analysis {
    let playouts = if stop.load(Ordering::Relaxed) {
        0
    } else {
        limits.playouts
    };
    let (moves, playouts) = monte_carlo(pos, playouts, limits.seed);
    let mut a = Analysis {
        size: pos.size(),
        to_move: pos.to_move(),
        komi: pos.rules().komi,
        moves,
        playouts,
        expansions: 0,
        finished: false,
        solver_refusal: refusal,
    };
    // The most played first: the order of the first round.
    a.moves.sort_by_key(|m| std::cmp::Reverse(m.playouts));
    report(&a);
    let Some(solver) = solver else {
        a.finished = true;
        a.sort();
        report(&a);
        return a;
    };
    let saved_cancel = solver.config_mut().limits.cancel.replace(stop.clone());
    let saved_budget = solver.config().limits.max_expansions;
    let mut budget = limits.first_budget.max(1);
    'rounds: loop {
        let open: Vec<usize> = (0..a.moves.len())
            .filter(|&i| a.moves[i].value().is_none())
            .collect();
        if open.is_empty() {
            a.finished = true;
            break;
        }
        for i in open {
            if stop.load(Ordering::Relaxed) {
                break 'rounds;
            }
            let spent = a.visits();
            let left = if limits.max_work == 0 {
                u64::MAX
            } else if spent >= limits.max_work {
                a.finished = true;
                break 'rounds;
            } else {
                limits.max_work - spent
            };
            solver.config_mut().limits.max_expansions = budget.min(left);
            let mv = a.moves[i].mv;
            let mut child = pos.clone();
            if child.play(mv).is_err() {
                continue;
            }
            let before = solver.totals().0;
            let solved = solve_value_from(solver, &child, None, |_| {});
            let used = solver.totals().0 - before;
            let m = &mut a.moves[i];
            m.expansions += used;
            m.lower = m.lower.max(solved.lower);
            m.upper = m.upper.min(solved.upper);
            if let Some(v) = solved.value {
                m.lower = v;
                m.upper = v;
                m.pv = std::iter::once(mv)
                    .chain(solved.pv.iter().copied())
                    .collect();
            }
            a.expansions += used;
            a.sort();
            report(&a);
        }
        if limits.max_budget != 0 && budget >= limits.max_budget {
            a.finished = true;
            break;
        }
        budget = budget.saturating_mul(2);
        if limits.max_budget != 0 {
            budget = budget.min(limits.max_budget);
        }
    }
    solver.config_mut().limits.cancel = saved_cancel;
    solver.config_mut().limits.max_expansions = saved_budget;
    a.sort();
    report(&a);
    a
}
