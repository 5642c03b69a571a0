//! The Go engine object (the shape of KataGo's `AsyncBot`: one object that the GTP front end,
//! and any other driver, talks to): the rules, the position with its full history, and a
//! player.
//!
//! # Rules
//! Those of the solver (`gosolve`) and of `games::go`: area scoring (stones plus empty regions
//! bordered by one colour), suicide illegal, **positional superko** (a stone move may not
//! recreate any earlier board of the game, setup boards included), komi added to White, two
//! consecutive passes end the game. Boards of 1×1 to 19×19 points, rectangles included.
//!
//! # History
//! The engine keeps the start position (the empty board, a handicap setup or a loaded SGF
//! position, each with the history it came with) and the moves played since, with their
//! colours. The current position is the start with those moves replayed, so its history holds
//! every board of the game: superko and `undo` are exact (undo replays all but the last move).
//!
//! # The player
//! [`GoEngine::genmove`] plays a **proven optimal move** when the position solves within the
//! budget: on boards of up to [`SOLVE_MAX_POINTS`] points the gosolve df-pn solver finds the
//! position's value v (Black's area minus White's under optimal play, from this position with
//! its history) by two proofs (`gosolve::value`), with a principal variation; its first move
//! keeps the value, so it wins whenever a win exists at the komi and otherwise loses by the
//! least. The solver's table (`tt_mib` MiB, allocated at the first solve of a board size) is
//! kept across moves. When the budget runs out (expansions per question, or seconds for the
//! whole solve), the one question "does the side to move win at the game's komi?" is asked
//! with what is left of the time (a half-integer komi; the table keeps what the value search
//! found): a proven winning move is played. Otherwise, and on larger boards, the move is the
//! MCPS player's (Monte Carlo Permutation Search, `mcts`, on `games::go` with the `GoRollout`
//! playout policy; seeded, so repeatable). [`Decision::source`] says which.

use games::Player;
use games::go::{Board, KoRule, Komi, Move, Point, Position, Rules, SgfError, Size};
use gosolve::{Answer, Solver, solve_value_from};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The largest board the solver is asked about, in points: its 64-bit Zobrist position keys
/// are linearly independent (so exact) only up to 30 points. Larger boards are played by MCPS
/// only.
pub const SOLVE_MAX_POINTS: usize = 30;

/// Stack of the thread a solve runs on, in bytes (virtual; the search recurses once per ply).
const SOLVE_STACK_BYTES: usize = 256 << 20;

/// How the engine plays and solves.
#[derive(Clone, Debug, PartialEq)]
pub struct GoSettings {
    /// Komi of a new game (GTP `komi` changes it).
    pub komi: Komi,
    /// Ask the solver at all (`--no-solve` switches it off: MCPS only).
    pub solve: bool,
    /// Expansions per solver question (a value takes a few questions: short probes, the two
    /// deciding proofs, the principal variation); 0: no limit.
    pub solve_budget: u64,
    /// Seconds for the whole solve of one position (0: no time limit).
    pub solve_seconds: f64,
    /// Transposition table of the solver, in MiB.
    pub tt_mib: usize,
    /// MCPS playouts per move (at least 1).
    pub playouts: u64,
    /// Seed of the MCPS player (the search of a position is seeded by it and the ply count).
    pub seed: u64,
    /// Resign when the solver proves that the side to move loses at the komi.
    pub resign: bool,
}

impl Default for GoSettings {
    fn default() -> Self {
        GoSettings {
            komi: Komi::from_half_points(15),
            solve: true,
            solve_budget: 1_000_000,
            solve_seconds: 10.0,
            tt_mib: 64,
            playouts: 1000,
            seed: 1,
            resign: false,
        }
    }
}

/// Why the engine refused a request.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GoError {
    /// A board size the engine cannot hold.
    #[error("unacceptable size")]
    UnacceptableSize,
    /// An illegal move (occupied, suicide, superko, game over), with the reason.
    #[error("illegal move ({0})")]
    IllegalMove(String),
    /// `undo` with no move to take back.
    #[error("cannot undo")]
    CannotUndo,
    /// Handicap stones on a board that is not empty.
    #[error("board not empty")]
    BoardNotEmpty,
    /// A handicap list that is not a set of at least two distinct points of the board.
    #[error("bad vertex list ({0})")]
    BadVertexList(String),
    /// An SGF file that cannot be read or played.
    #[error("cannot load file ({0})")]
    Sgf(String),
}

/// What the solver found about a position.
#[derive(Clone, Debug, PartialEq)]
pub enum Solution {
    /// The value is proven.
    Proven {
        /// Black's area minus White's under optimal play (komi not included).
        value: i32,
        /// A principal variation to the end of the game (empty when the game is over); its
        /// first move is a best move of the side to move.
        pv: Vec<Move>,
        /// Expansions of all the questions.
        expansions: u64,
        /// Seconds.
        seconds: f64,
    },
    /// The budget ran out first (or the board is too large, or solving is off).
    Unknown {
        /// Proven lower and upper bounds on the value.
        bounds: (i32, i32),
        /// Expansions spent.
        expansions: u64,
        /// Seconds.
        seconds: f64,
        /// Why there is no value.
        why: String,
    },
}

/// Where a generated move came from.
#[derive(Clone, Debug, PartialEq)]
pub enum Source {
    /// The solver: the move keeps the proven value.
    Proven {
        /// The position's value (Black's area minus White's).
        value: i32,
        /// The principal variation (its first move is the one played).
        pv: Vec<Move>,
        /// Solver expansions.
        expansions: u64,
    },
    /// The solver did not find the value within the budget but answered the one question at
    /// the game's komi: a winning move (`wins`), or a proven loss (a resignation with
    /// `--resign`).
    ProvenAtKomi {
        /// The komi of the question.
        komi: Komi,
        /// Whether the side to move wins.
        wins: bool,
        /// Expansions of that question.
        expansions: u64,
    },
    /// The MCPS player, after the solver gave up (`solver` says why).
    Mcps {
        /// Playouts run.
        playouts: u64,
        /// The move's mean reward for the side to move (0 to 1), `None` without playouts.
        win_rate: Option<f64>,
        /// Why the solver did not decide the move.
        solver: String,
    },
    /// The game is over (two passes): nothing is played, the answer is a pass.
    GameOver,
}

/// What `genmove` did.
#[derive(Clone, Debug, PartialEq)]
pub struct Decision {
    /// The move played, or `None` for a resignation (nothing played).
    pub mv: Option<Move>,
    /// Where it came from.
    pub source: Source,
}

impl Decision {
    /// One line for people (stderr, GoGui): the move and where it came from.
    #[must_use]
    pub fn describe(&self, komi: Komi, mover: Player) -> String {
        let mv = self
            .mv
            .map_or_else(|| "resign".to_string(), |m| m.to_string());
        match &self.source {
            Source::Proven {
                value, expansions, ..
            } => format!(
                "{mover} {mv}: proven, value {value:+} ({}) after {expansions} expansions",
                verdict(*value, komi)
            ),
            Source::Mcps {
                playouts,
                win_rate,
                solver,
            } => format!(
                "{mover} {mv}: MCPS, {playouts} playouts{} (solver: {solver})",
                win_rate.map_or_else(String::new, |w| format!(", win rate {w:.3}"))
            ),
            Source::ProvenAtKomi {
                komi,
                wins,
                expansions,
            } => format!(
                "{mover} {mv}: proven {} at komi {komi} after {expansions} expansions (the value \
                 was not found within the budget)",
                if *wins { "win" } else { "loss" }
            ),
            Source::GameOver => format!("{mover} {mv}: the game is over"),
        }
    }
}

/// "Black wins by 1.5 at komi 2.5" for a value and a komi.
#[must_use]
pub fn verdict(value: i32, komi: Komi) -> String {
    let d2 = 2 * value - komi.half_points();
    let by = Komi::from_half_points(d2.abs());
    match d2.signum() {
        1 => format!("Black wins by {by} at komi {komi}"),
        -1 => format!("White wins by {by} at komi {komi}"),
        _ => format!("a draw at komi {komi}"),
    }
}

/// The Go engine: rules, position with history, solver and MCPS player.
pub struct GoEngine {
    settings: GoSettings,
    /// Start of the game (empty board, handicap setup or loaded SGF position).
    start: Position,
    /// Moves since the start, with the colour that played each.
    moves: Vec<(Player, Move)>,
    /// The start with the moves replayed.
    pos: Position,
    /// The SGF file the start was loaded from, if it was: `undo` past the start takes back
    /// the file's own moves by reading it again up to one move less.
    loaded: Option<Vec<u8>>,
    /// The solver, made at the first solve of the current size.
    solver: Option<Solver>,
    /// How the last `genmove` was decided.
    last: Option<(Player, Decision)>,
}

impl GoEngine {
    /// An engine with an empty `size` board.
    #[must_use]
    pub fn new(size: Size, settings: GoSettings) -> Self {
        let start = Position::new(size, rules(settings.komi));
        GoEngine {
            settings,
            pos: start.clone(),
            start,
            moves: Vec::new(),
            loaded: None,
            solver: None,
            last: None,
        }
    }

    /// The settings.
    #[must_use]
    pub const fn settings(&self) -> &GoSettings {
        &self.settings
    }

    /// Expansions allowed to each question of a solve (the engine's budget).
    #[must_use]
    pub const fn solve_budget(&self) -> u64 {
        self.settings.solve_budget
    }

    /// The current position (with its history).
    #[must_use]
    pub const fn position(&self) -> &Position {
        &self.pos
    }

    /// How the last `genmove` was decided, with the colour it played for.
    #[must_use]
    pub const fn last_decision(&self) -> Option<&(Player, Decision)> {
        self.last.as_ref()
    }

    /// A new empty board of `rows` × `cols`.
    ///
    /// # Errors
    /// [`GoError::UnacceptableSize`] unless both are 1 to 19.
    pub fn set_size(&mut self, rows: u64, cols: u64) -> Result<(), GoError> {
        let (Ok(r), Ok(c)) = (u32::try_from(rows), u32::try_from(cols)) else {
            return Err(GoError::UnacceptableSize);
        };
        let size = Size::new(r, c).map_err(|_| GoError::UnacceptableSize)?;
        if size != self.pos.size() {
            self.solver = None;
        }
        self.start = Position::new(size, rules(self.pos.rules().komi));
        self.reset_to_start();
        Ok(())
    }

    /// Empties the board (same size and komi).
    pub fn clear(&mut self) {
        self.start = Position::new(self.pos.size(), self.pos.rules());
        self.reset_to_start();
    }

    fn reset_to_start(&mut self) {
        self.loaded = None;
        self.moves.clear();
        self.pos = self.start.clone();
        self.last = None;
    }

    /// Sets the komi of this game.
    pub fn set_komi(&mut self, komi: Komi) {
        self.start.set_komi(komi);
        self.pos.set_komi(komi);
    }

    /// Plays `mv` for `colour` (which need not be the side to move: GTP allows either).
    ///
    /// # Errors
    /// [`GoError::IllegalMove`] for an occupied point, suicide, a superko repetition or a
    /// finished game; the position is then unchanged.
    pub fn play(&mut self, colour: Player, mv: Move) -> Result<(), GoError> {
        let mut next = self.pos.clone();
        next.set_to_move(colour);
        next.play(mv)
            .map_err(|e| GoError::IllegalMove(e.to_string()))?;
        self.pos = next;
        self.moves.push((colour, mv));
        Ok(())
    }

    /// Takes back the last move, also one of a loaded SGF file's moves (as GNU Go does).
    ///
    /// # Errors
    /// [`GoError::CannotUndo`] when no move was played since the start and the start is
    /// not a loaded position with moves.
    pub fn undo(&mut self) -> Result<(), GoError> {
        if self.moves.pop().is_none() {
            return self.undo_loaded();
        }
        let mut p = self.start.clone();
        for &(colour, mv) in &self.moves {
            p.set_to_move(colour);
            p.play(mv)
                .expect("a move that was legal is legal again on the same history");
        }
        self.pos = p;
        self.last = None;
        Ok(())
    }

    /// Takes back the last move of a loaded SGF file: the file is read again up to just
    /// before that move (its setup and earlier moves, so the history stays exact), and the
    /// komi set since loading is kept.
    fn undo_loaded(&mut self) -> Result<(), GoError> {
        let plies = self.start.plies();
        let Some(bytes) = self.loaded.take() else {
            return Err(GoError::CannotUndo);
        };
        let earlier = (plies > 0)
            .then(|| {
                games::go::position_from_sgf_bytes_before(&bytes, KoRule::PositionalSuperko, plies)
                    .ok()
            })
            .flatten()
            .filter(|p| p.plies() + 1 == plies);
        let Some(mut p) = earlier else {
            self.loaded = Some(bytes);
            return Err(GoError::CannotUndo);
        };
        p.set_komi(self.start.rules().komi);
        self.start = p;
        self.reset_to_start();
        self.loaded = Some(bytes);
        Ok(())
    }

    /// Places Black's handicap stones on the empty board; White is then to move.
    ///
    /// # Errors
    /// [`GoError::BoardNotEmpty`] after a move or on a board with stones;
    /// [`GoError::BadVertexList`] for fewer than two stones, a repeated point, a pass, or so
    /// many stones that no empty point is left.
    pub fn set_free_handicap(&mut self, points: &[Move]) -> Result<(), GoError> {
        let size = self.pos.size();
        let empty = Board::empty(size);
        if !self.moves.is_empty() || *self.pos.board() != empty {
            return Err(GoError::BoardNotEmpty);
        }
        if points.len() < 2 {
            return Err(GoError::BadVertexList("at least two stones".into()));
        }
        if points.len() >= size.points() {
            return Err(GoError::BadVertexList(
                "no empty point would be left".into(),
            ));
        }
        let mut board = empty;
        for &m in points {
            let Move::Place(p) = m else {
                return Err(GoError::BadVertexList("pass is not a vertex".into()));
            };
            if board.get(p).is_some() {
                return Err(GoError::BadVertexList(format!("{p} is given twice")));
            }
            board.set(p, Some(Player::Black));
        }
        self.start = Position::from_board(board, Player::White, self.pos.rules())
            .map_err(|e| GoError::BadVertexList(e.to_string()))?;
        self.reset_to_start();
        Ok(())
    }

    /// Loads the main line of an SGF file's bytes, up to just before move `move_number`
    /// (all of it when `None`): board size, komi, setup, moves and their history. Undo then
    /// takes back the file's moves too, down to its setup.
    ///
    /// # Errors
    /// [`GoError::Sgf`] with the reader's message; the engine is then unchanged.
    pub fn load_sgf(&mut self, bytes: &[u8], move_number: Option<u32>) -> Result<(), GoError> {
        let p = match move_number {
            None => games::go::position_from_sgf_bytes(bytes, KoRule::PositionalSuperko),
            Some(n) => {
                games::go::position_from_sgf_bytes_before(bytes, KoRule::PositionalSuperko, n)
            }
        }
        .map_err(|e: SgfError| GoError::Sgf(e.to_string()))?;
        if p.size() != self.pos.size() {
            self.solver = None;
        }
        self.start = p;
        self.reset_to_start();
        self.loaded = Some(bytes.to_vec());
        Ok(())
    }

    /// Starts from `position` (with its history, side to move and rules; komi included), as
    /// [`GoEngine::load_sgf`] does: undo goes back only as far as it. The solver's table is
    /// kept when the size is the same.
    pub fn load_position(&mut self, position: Position) {
        if position.size() != self.pos.size() {
            self.solver = None;
        }
        self.start = position;
        self.reset_to_start();
    }

    /// Empties the solver's table (KataGo's `clear_cache`).
    pub fn clear_cache(&mut self) {
        if let Some(s) = self.solver.as_mut() {
            s.clear_table();
        }
    }

    /// The game as SGF text (the whole history, so reading it back gives the same position).
    #[must_use]
    pub fn to_sgf(&self) -> String {
        games::go::position_to_sgf(&self.pos)
    }

    /// The area score with komi, GTP style: "B+3.5", "W+0.5", or "0" for a draw.
    #[must_use]
    pub fn final_score(&self) -> String {
        let d2 = 2 * self.pos.score().margin() - self.pos.rules().komi.half_points();
        let by = Komi::from_half_points(d2.abs());
        match d2.signum() {
            1 => format!("B+{by}"),
            -1 => format!("W+{by}"),
            _ => "0".into(),
        }
    }

    /// The chains of stones on the board, each as its points (for `final_status_list`).
    #[must_use]
    pub fn chains(&self) -> Vec<Vec<Point>> {
        let board = self.pos.board();
        let mut seen = vec![false; board.size().points()];
        let mut out = Vec::new();
        for p in board.size().all_points() {
            if board.get(p).is_some() && !seen[board.size().index(p)] {
                let (mut chain, _) = board.chain(p);
                chain.sort();
                for &q in &chain {
                    seen[board.size().index(q)] = true;
                }
                out.push(chain);
            }
        }
        out
    }

    /// Why the solver is not asked about this position, if it is not.
    fn solver_refusal(&self) -> Option<String> {
        let points = self.pos.size().points();
        if points > SOLVE_MAX_POINTS {
            Some(format!(
                "{} has {points} points; the solver is exact up to {SOLVE_MAX_POINTS}",
                self.pos.size()
            ))
        } else if !self.settings.solve {
            Some("solving is off (--no-solve)".to_string())
        } else {
            None
        }
    }

    /// Runs `work` with the solver on the current position's superko game, on a thread with
    /// a large stack, stopped after `seconds` (0: no limit) through the solver's cancel flag.
    /// Returns its result, the seconds it took and whether the clock stopped it.
    fn with_solver<T: Send>(
        &mut self,
        seconds: f64,
        work: impl FnOnce(&mut Solver, &Position) -> T + Send,
    ) -> (T, f64, bool) {
        let (pos, settings) = (&self.pos, &self.settings);
        let solver = self.solver.get_or_insert_with(|| {
            Solver::for_size(pos.size(), settings.tt_mib, gosolve::session::config())
                .expect("boards of up to 30 points fit")
        });
        solver.config_mut().limits.max_expansions = settings.solve_budget;
        let cancel = Arc::new(AtomicBool::new(false));
        solver.config_mut().limits.cancel = Some(cancel.clone());
        let start = Instant::now();
        let out = std::thread::scope(|scope| {
            let (tx, rx) = std::sync::mpsc::channel::<()>();
            if seconds > 0.0 {
                let flag = cancel.clone();
                let limit = Duration::from_secs_f64(seconds.min(1e9));
                scope.spawn(move || {
                    if rx.recv_timeout(limit) == Err(std::sync::mpsc::RecvTimeoutError::Timeout) {
                        flag.store(true, Ordering::Relaxed);
                    }
                });
            }
            let out = gosolve::stack::run_with_stack("tsumi-solve", SOLVE_STACK_BYTES, || {
                work(solver, pos)
            })
            .expect("a solver thread can be started and does not panic");
            drop(tx);
            out
        });
        (
            out,
            start.elapsed().as_secs_f64(),
            cancel.load(Ordering::Relaxed),
        )
    }

    /// Solves the current position within the budget (without playing anything): its value
    /// by two proofs and a principal variation.
    pub fn solve(&mut self) -> Solution {
        if let Some(why) = self.solver_refusal() {
            let n = self.pos.size().points() as i32;
            return Solution::Unknown {
                bounds: (-n, n),
                expansions: 0,
                seconds: 0.0,
                why,
            };
        }
        let guess = self.playout_first_guess();
        let (solved, seconds, timed_out) = self
            .with_solver(self.settings.solve_seconds, |solver, pos| {
                solve_value_from(solver, pos, guess, |_| {})
            });
        let expansions = solved
            .probes
            .iter()
            .chain(&solved.proofs)
            .map(|p| p.expansions)
            .sum();
        match solved.value {
            Some(value) if solved.pv_checked => Solution::Proven {
                value,
                pv: solved.pv,
                expansions,
                seconds,
            },
            _ => Solution::Unknown {
                bounds: (solved.lower, solved.upper),
                expansions,
                seconds,
                why: if timed_out {
                    format!("no value within {} s", self.settings.solve_seconds)
                } else {
                    format!(
                        "no value within {} expansions a question",
                        self.settings.solve_budget
                    )
                },
            },
        }
    }

    /// The playouts' first guess of the value (`crate::playout_guess`), as `tsumi solve`
    /// places its first komi question; `None` (the solver's probes guess) where the playouts
    /// do not separate the komis, and for a game that is not replayed from the empty board
    /// with alternating moves from Black (a setup, an SGF start, two moves of one colour),
    /// which the playouts cannot follow.
    fn playout_first_guess(&self) -> Option<i32> {
        let size = self.pos.size();
        if self.start != Position::new(size, self.start.rules()) {
            return None;
        }
        let mut moves = Vec::with_capacity(self.moves.len());
        for (i, &(p, m)) in self.moves.iter().enumerate() {
            let turn = if i % 2 == 0 {
                Player::Black
            } else {
                Player::White
            };
            if p != turn {
                return None;
            }
            moves.push(m);
        }
        crate::playout_guess::playout_guess(size.rows() as usize, size.cols() as usize, &moves)
            .value
    }

    /// The one question "does the side to move win at the komi?" (half-integer komi only),
    /// within `seconds`: `Some((wins, winning move, expansions))` when answered.
    fn prove_at_komi(&mut self, seconds: f64) -> Option<(bool, Option<Move>, u64)> {
        let komi2 = self.pos.rules().komi.half_points();
        if komi2 % 2 == 0 || self.solver_refusal().is_some() {
            return None;
        }
        let mover = self.pos.to_move();
        // This question starts from its own numbers, not from cross-komi ones: the unfinished
        // value's questions were at other komis, possibly far from this one, and cross-komi
        // numbers are fit for a bisection closing in on the value. 3x4 at komi 0.5 after the
        // value's unfinished question at 8.5 (4 MiB, one thread), with a budget of 5,000 /
        // 6,000 / 8,000 expansions a question: 6,815 / 4,423 / 990 expansions without them,
        // 8,127 / no proof / 1,425 with them.
        let (proof, _, _) = self.with_solver(seconds, |solver, pos| {
            let cross = std::mem::replace(&mut solver.config_mut().cross_komi, false);
            let proof = solver.prove(pos, mover, Komi::from_half_points(komi2));
            solver.config_mut().cross_komi = cross;
            proof
        });
        match proof.answer {
            Answer::Proven => Some((true, proof.best_move, proof.expansions)),
            Answer::Disproven => Some((false, None, proof.expansions)),
            Answer::Unknown => None,
        }
    }

    /// Analyses the root moves of the current position, or of it with `mover` to move
    /// ([`crate::analysis`]: playouts, then each move's value from the solver in turn, within
    /// `limits`), calling `report` after each step; `stop` cancels it. The solver's table is
    /// kept (shared with `genmove` and the solves). Runs on a thread with a large stack.
    pub fn analyze(
        &mut self,
        limits: &crate::analysis::Limits,
        mover: Option<Player>,
        stop: &Arc<AtomicBool>,
        mut report: impl FnMut(&crate::analysis::Analysis) + Send,
    ) -> crate::analysis::Analysis {
        let mut pos = self.pos.clone();
        if let Some(c) = mover {
            pos.set_to_move(c);
        }
        let refusal = self.solver_refusal();
        let solver = if refusal.is_none() {
            let settings = &self.settings;
            Some(self.solver.get_or_insert_with(|| {
                Solver::for_size(pos.size(), settings.tt_mib, gosolve::session::config())
                    .expect("boards of up to 30 points fit")
            }))
        } else {
            None
        };
        gosolve::stack::run_with_stack("tsumi-analyze", SOLVE_STACK_BYTES, || {
            crate::analysis::run(solver, refusal, &pos, limits, stop, &mut report)
        })
        .expect("an analysis thread can be started and does not panic")
    }

    /// Chooses a move for `colour` and plays it (see the module documentation): the first
    /// move of the principal variation when the value is proven within the budget, else a
    /// proven winning move at the komi, else the MCPS player's move. With
    /// [`GoSettings::resign`], a proven loss at the komi is a resignation (nothing played).
    /// After the end of the game (two passes) the answer is a pass and nothing is played.
    pub fn genmove(&mut self, colour: Player) -> Decision {
        self.pos.set_to_move(colour);
        let decision = self.choose(colour);
        if let Some(m) = decision.mv
            && decision.source != Source::GameOver
        {
            self.play(colour, m)
                .expect("the engine only chooses legal moves");
        }
        self.last = Some((colour, decision.clone()));
        decision
    }

    fn choose(&mut self, colour: Player) -> Decision {
        if self.pos.is_over() {
            return Decision {
                mv: Some(Move::Pass),
                source: Source::GameOver,
            };
        }
        let komi = self.pos.rules().komi;
        let note = match self.solve() {
            Solution::Proven {
                value,
                pv,
                expansions,
                ..
            } => {
                if let Some(&first) = pv.first() {
                    let mover_loses = komi.black_wins(value) == Some(colour == Player::White);
                    let mv = (!self.settings.resign || !mover_loses).then_some(first);
                    return Decision {
                        mv,
                        source: Source::Proven {
                            value,
                            pv,
                            expansions,
                        },
                    };
                }
                "the value is proven but has no move".to_string()
            }
            Solution::Unknown {
                bounds,
                why,
                seconds,
                ..
            } => {
                let mut note = format!("{why}; value in [{:+}, {:+}]", bounds.0, bounds.1);
                // The value is two questions; the one at the game's komi may be answered
                // within what is left of the time (the table keeps what the value found).
                let total = self.settings.solve_seconds;
                let left = if total > 0.0 { total - seconds } else { 0.0 };
                let answer = if total == 0.0 || left > 0.0 {
                    self.prove_at_komi(left.max(0.0))
                } else {
                    None
                };
                match answer {
                    Some((true, Some(m), expansions)) => {
                        return Decision {
                            mv: Some(m),
                            source: Source::ProvenAtKomi {
                                komi,
                                wins: true,
                                expansions,
                            },
                        };
                    }
                    Some((false, _, expansions)) if self.settings.resign => {
                        return Decision {
                            mv: None,
                            source: Source::ProvenAtKomi {
                                komi,
                                wins: false,
                                expansions,
                            },
                        };
                    }
                    Some((false, _, _)) => {
                        note.push_str(&format!("; a loss at komi {komi} is proven"));
                    }
                    Some((true, None, _)) | None => {}
                }
                note
            }
        };
        self.mcps(note)
    }

    /// The game as [`FastGo`](games::fastgo::FastGo), the padded-array board that `tsumi
    /// match` plays on (about 50 times the reference board's playouts per second: 7x7, 3000
    /// playouts took 2.5 s a move on the reference board), with the engine's position when it
    /// is the empty board followed by alternating moves (Black first); `None` otherwise (a
    /// setup, handicap stones or two moves of one colour in a row), where the reference board
    /// plays.
    fn fast_game(&self, limit: u32) -> Option<(games::fastgo::FastGo, games::fastgo::FastGoState)> {
        let size = self.pos.size();
        let empty_start = self.start.plies() == 0
            && self.start.to_move() == Player::Black
            && self.start.board() == &games::go::Board::empty(size);
        let alternating = self
            .moves
            .iter()
            .enumerate()
            .all(|(i, &(c, _))| (c == Player::Black) == (i % 2 == 0));
        if !(empty_start && alternating) {
            return None;
        }
        let game =
            games::fastgo::FastGo::new(size.rows() as u8, size.cols() as u8, self.pos.rules().komi)
                .ok()?
                .with_ko_rule(self.pos.rules().ko)
                .with_move_limit(limit);
        let moves: Vec<Move> = self.moves.iter().map(|&(_, m)| m).collect();
        let state = game.replay(&moves).ok()?;
        use games::Game;
        (game.to_move(&state) == self.pos.to_move()).then_some((game, state))
    }

    fn mcps(&self, solver: String) -> Decision {
        use games::go::GoGame;
        use mcts::{Algorithm, Budget, Params};
        let size = self.pos.size();
        let limit = self
            .pos
            .plies()
            .saturating_add(4 * size.points() as u32 + 8);
        let params = Params::new(Algorithm::Mcps)
            .with_budget(Budget::Playouts(self.settings.playouts.max(1)));
        let seed =
            self.settings.seed ^ u64::from(self.pos.plies()).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let (mv, stats, win_rate) = match self.fast_game(limit) {
            Some((game, state)) => mcps_search(&game, &state, params, seed),
            None => {
                let game = GoGame::new(size.rows() as u8, size.cols() as u8, self.pos.rules())
                    .expect("the engine's size is a Go size")
                    .with_move_limit(Some(limit));
                mcps_search(&game, &self.pos, params, seed)
            }
        };
        Decision {
            mv: Some(mv),
            source: Source::Mcps {
                playouts: stats.playouts,
                win_rate,
                solver,
            },
        }
    }
}

/// One MCPS search of `state`: the chosen move (a pass when there is none), the search's
/// counts and the move's mean reward.
fn mcps_search<G>(
    game: &G,
    state: &G::State,
    params: mcts::Params,
    seed: u64,
) -> (Move, mcts::SearchStats, Option<f64>)
where
    G: games::Game<Move = Move>,
    mcts::GoRollout: mcts::Rollout<G>,
{
    let mut searcher = mcts::Searcher::new(game, params, mcts::GoRollout::default(), seed);
    let found = searcher.search(game, state);
    let (mv, stats) = found.unwrap_or((Move::Pass, mcts::SearchStats::default()));
    let win_rate = searcher
        .root_moves()
        .into_iter()
        .find(|&(m, n, _)| m == mv && n > 0)
        .map(|(_, _, w)| w);
    (mv, stats, win_rate)
}

/// The engine's rules at a komi: positional superko, area scoring, suicide illegal.
#[must_use]
pub fn rules(komi: Komi) -> Rules {
    Rules {
        ko: KoRule::PositionalSuperko,
        komi,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn engine(size: &str) -> GoEngine {
        GoEngine::new(Size::parse(size).unwrap(), GoSettings::default())
    }

    #[test]
    fn the_first_guess_comes_from_the_playouts_where_they_can_replay_the_game() {
        // 1x7 (value +2, Weninger and Hayward): the playouts' guess, as `tsumi solve` uses it.
        let mut e = engine("1x7");
        assert_eq!(e.playout_first_guess(), Some(2));
        let solved = e.solve();
        assert!(
            matches!(solved, Solution::Proven { value: 2, .. }),
            "{solved:?}"
        );
        // Alternating moves from Black are replayed: the guess after B1 is the playouts' own.
        let b1 = e.pos.size().parse_move("B1").unwrap();
        e.play(Player::Black, b1).unwrap();
        let direct = crate::playout_guess::playout_guess(1, 7, &[b1]).value;
        assert!(direct.is_some());
        assert_eq!(e.playout_first_guess(), direct);
        // Two moves of one colour cannot be replayed: the probes guess.
        let g1 = e.pos.size().parse_move("G1").unwrap();
        e.play(Player::Black, g1).unwrap();
        assert_eq!(e.playout_first_guess(), None);
        // 4x4: the playouts do not separate the komis.
        assert_eq!(engine("4x4").playout_first_guess(), None);
    }
}
