//! The Hex engine object and its HTP commands (benzene's and HexGui's dialect of GTP).
//!
//! Rules are `games::hex`'s: Black connects top and bottom, White left and right, Black
//! moves first, no swap. Cells are `a1`-style (column letter, row from the top). `play`
//! accepts either colour at any time (the other colour is then to move), as benzene does.
//!
//! # The solver
//! `dfpn-solve-state [COLOUR]` answers who wins with COLOUR to move (default: the side to
//! move): `black`, `white`, or `empty` when the budget runs out first. Behind it is the `pns`
//! focused df-pn, on boards of up to 128 cells (11x11) searching [`KnowledgeHex`] (Hex seen
//! through the sound knowledge of `pns::hexknow`: fill-in, H-search virtual connections,
//! must-play), on larger boards plain Hex. `dfpn-get-pv [COLOUR]` gives a principal variation:
//! the winner's winning moves (from the proof, the knowledge's winning move, or by proving the
//! children) and the loser's replies (the proof's move, else the first empty cell in circuit
//! resistance order), to the end of the game.
//!
//! `genmove COLOUR` plays a proven winning move when the solve finds one within the budget,
//! and the MCPS player's move (`mcts`, uniform playouts, seeded) otherwise; after the end of
//! the game it answers `resign`.

use crate::protocol::{Handler, Reply};
use games::hex::{Hex, HexMove, HexState};
use games::{Game, Outcome, Player};
use pns::{
    Algorithm, Answer, Budget, KnowledgeHex, MoveOrder, OnHex, Prover, Question, ResistanceOrder,
    Settings,
};
use std::time::Duration;

/// How the Hex engine solves and plays.
#[derive(Clone, Debug, PartialEq)]
pub struct HexSettings {
    /// Expansions per proof (0: no limit).
    pub solve_budget: u64,
    /// Seconds per proof (0: no limit).
    pub solve_seconds: f64,
    /// Memory of the prover's table, in MiB.
    pub tt_mib: usize,
    /// MCPS playouts per move (at least 1).
    pub playouts: u64,
    /// Seed of the MCPS player (mixed with the number of stones).
    pub seed: u64,
}

impl Default for HexSettings {
    fn default() -> Self {
        HexSettings {
            solve_budget: 200_000,
            solve_seconds: 10.0,
            tt_mib: 64,
            playouts: 1000,
            seed: 1,
        }
    }
}

/// The Hex engine: the board size, the moves played (with colours) and the solver.
pub struct HexEngine {
    settings: HexSettings,
    hex: Hex,
    /// The knowledge game (boards of up to 128 cells), `None` for plain Hex.
    known: Option<KnowledgeHex>,
    moves: Vec<(Player, HexMove)>,
    state: HexState,
}

/// The commands of [`HexEngine`] besides the common ones.
pub const HTP_COMMANDS: &[&str] = &[
    "boardsize",
    "clear_board",
    "play",
    "genmove",
    "undo",
    "showboard",
    "dfpn-solve-state",
    "dfpn-get-pv",
];

impl HexEngine {
    /// An engine with an empty `width` × `height` board.
    ///
    /// # Errors
    /// A one-line message unless both are 1 to 19.
    pub fn new(width: usize, height: usize, settings: HexSettings) -> Result<Self, String> {
        let hex = Hex::new(width, height).map_err(|e| e.to_string())?;
        let known = KnowledgeHex::new(&hex).ok();
        Ok(HexEngine {
            settings,
            state: hex.initial(),
            hex,
            known,
            moves: Vec::new(),
        })
    }

    /// The game (board size).
    #[must_use]
    pub const fn hex(&self) -> &Hex {
        &self.hex
    }

    /// The current position.
    #[must_use]
    pub const fn state(&self) -> &HexState {
        &self.state
    }

    /// Plays `mv` for `colour`.
    ///
    /// # Errors
    /// A message when the cell is occupied.
    pub fn play(&mut self, colour: Player, mv: HexMove) -> Result<(), String> {
        if self
            .hex
            .stone(&self.state, self.hex.cell_index(mv))
            .is_some()
        {
            return Err(format!("cell {mv} is occupied"));
        }
        self.hex.set_to_move(&mut self.state, colour);
        self.hex.play(&mut self.state, mv);
        self.moves.push((colour, mv));
        Ok(())
    }

    /// Takes back the last move; `false` when there is none.
    pub fn undo(&mut self) -> bool {
        if self.moves.pop().is_none() {
            return false;
        }
        let mut s = self.hex.initial();
        for &(c, m) in &self.moves {
            self.hex.set_to_move(&mut s, c);
            self.hex.play(&mut s, m);
        }
        self.state = s;
        true
    }

    fn budget(&self) -> Budget {
        Budget {
            limits: pns::Limits {
                max_expansions: self.settings.solve_budget,
                max_time: (self.settings.solve_seconds > 0.0)
                    .then(|| Duration::from_secs_f64(self.settings.solve_seconds.min(1e9))),
                cancel: None,
            },
            max_mib: self.settings.tt_mib.max(1),
            progress: None,
        }
    }

    /// The winner of `state` (with its side to move), or `None` when unsolved within the
    /// budget; and the move the deciding proof gives for the side to move.
    fn solve_at(&self, state: &HexState) -> (Option<Player>, Option<HexMove>) {
        if let Some(Outcome::Win(w)) = self.hex.outcome(state) {
            return (Some(w), None);
        }
        let me = self.hex.to_move(state);
        let settings = Settings::new(Algorithm::FocusedDfPn);
        let budget = self.budget();
        let proof = match &self.known {
            Some(k) => settings
                .prover::<KnowledgeHex>(Box::new(OnHex(ResistanceOrder)))
                .prove(k, state, Question::win(me), &budget),
            None => settings.prover::<Hex>(Box::new(ResistanceOrder)).prove(
                &self.hex,
                state,
                Question::win(me),
                &budget,
            ),
        };
        let winner = match proof.answer {
            Answer::Proven => Some(me),
            Answer::Disproven => Some(me.opponent()),
            Answer::Unknown => None,
        };
        let best = proof
            .best_move
            .filter(|&m| self.hex.stone(state, self.hex.cell_index(m)).is_none());
        (winner, best)
    }

    /// The winner with `colour` to move (default: the side to move), `None` when unsolved.
    #[must_use]
    pub fn solve(&self, colour: Option<Player>) -> Option<Player> {
        self.solve_at(&self.with_mover(colour)).0
    }

    fn with_mover(&self, colour: Option<Player>) -> HexState {
        let mut s = self.state.clone();
        if let Some(c) = colour {
            self.hex.set_to_move(&mut s, c);
        }
        s
    }

    /// A winning move of the side to move of `state`, which is known to win; `None` when the
    /// budget runs out first.
    fn winning_move(&self, state: &HexState, from_proof: Option<HexMove>) -> Option<HexMove> {
        if from_proof.is_some() {
            return from_proof;
        }
        if let Some(k) = &self.known {
            let board = k.knowledge.board(&self.hex, state);
            if let Some(c) = k.knowledge.winning_move(&board) {
                return Some(self.hex.move_at(c));
            }
        }
        // Prove the children: the first one the mover still wins after is a winning move.
        let me = self.hex.to_move(state);
        for mv in self.ordered_moves(state) {
            let mut child = state.clone();
            self.hex.play(&mut child, mv);
            match self.solve_at(&child).0 {
                Some(w) if w == me => return Some(mv),
                Some(_) => {}
                None => return None,
            }
        }
        None
    }

    fn ordered_moves(&self, state: &HexState) -> Vec<HexMove> {
        let mut moves = Vec::new();
        self.hex.legal_moves(state, &mut moves);
        ResistanceOrder.order(&self.hex, state, &mut moves);
        moves
    }

    /// A principal variation with `colour` to move (default: the side to move): empty when
    /// the position is unsolved within the budget (see the module documentation).
    #[must_use]
    pub fn principal_variation(&self, colour: Option<Player>) -> Vec<HexMove> {
        let mut s = self.with_mover(colour);
        let mut pv = Vec::new();
        while self.hex.outcome(&s).is_none() && pv.len() < self.hex.cells() {
            let (Some(w), proof_move) = self.solve_at(&s) else {
                break;
            };
            let me = self.hex.to_move(&s);
            let mv = if w == me {
                self.winning_move(&s, proof_move)
            } else {
                proof_move.or_else(|| self.ordered_moves(&s).first().copied())
            };
            let Some(mv) = mv else { break };
            self.hex.play(&mut s, mv);
            pv.push(mv);
        }
        pv
    }

    /// Chooses a move for `colour` and plays it: a proven winning move, else the MCPS
    /// player's; `None` (resign) when the game is over.
    pub fn genmove(&mut self, colour: Player) -> (Option<HexMove>, String) {
        let s = self.with_mover(Some(colour));
        if self.hex.outcome(&s).is_some() {
            return (None, "the game is over".into());
        }
        let (winner, proof_move) = self.solve_at(&s);
        let (mv, how) = match winner {
            Some(w) if w == colour => match self.winning_move(&s, proof_move) {
                Some(m) => (m, "proven win".to_string()),
                None => self.mcps(&s, "the win is proven but no move within the budget"),
            },
            Some(_) => self.mcps(&s, "proven loss"),
            None => self.mcps(&s, "unsolved within the budget"),
        };
        self.play(colour, mv)
            .expect("the engine chooses empty cells");
        (Some(mv), how)
    }

    fn mcps(&self, state: &HexState, solver: &str) -> (HexMove, String) {
        use mcts::{Budget as Playouts, Params, Searcher, Uniform};
        let params = Params::new(mcts::Algorithm::Mcps)
            .with_budget(Playouts::Playouts(self.settings.playouts.max(1)));
        let seed =
            self.settings.seed ^ (self.moves.len() as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let mut searcher = Searcher::new(&self.hex, params, Uniform, seed);
        let (mv, stats) = searcher
            .search(&self.hex, state)
            .expect("a game that is not over has a move");
        (mv, format!("MCPS, {} playouts ({solver})", stats.playouts))
    }

    fn showboard(&self) -> String {
        let to_move = self.hex.to_move(&self.state);
        let over = match self.hex.outcome(&self.state) {
            Some(Outcome::Win(w)) => format!(", {w} has won"),
            _ => String::new(),
        };
        format!(
            "\n{}\n{to_move} to move{over}",
            self.hex.render(&self.state)
        )
    }
}

/// The HTP front end of [`HexEngine`]; each `genmove` writes one line on stderr unless
/// `quiet`.
pub struct HtpEngine {
    /// The engine.
    pub engine: HexEngine,
    /// No stderr lines (tests).
    pub quiet: bool,
}

impl HtpEngine {
    /// An HTP engine around `engine`.
    #[must_use]
    pub const fn new(engine: HexEngine) -> Self {
        HtpEngine {
            engine,
            quiet: false,
        }
    }

    fn colour_arg(args: &[String]) -> Result<Option<Player>, Reply> {
        match args {
            [] => Ok(None),
            [c] => colour(c)
                .map(Some)
                .ok_or_else(|| Reply::err("syntax error (invalid colour)")),
            _ => Err(Reply::err("syntax error (expected at most a colour)")),
        }
    }
}

impl Handler for HtpEngine {
    fn name(&self) -> String {
        "tsumi".into()
    }

    fn version(&self) -> String {
        env!("CARGO_PKG_VERSION").into()
    }

    fn commands(&self) -> &'static [&'static str] {
        HTP_COMMANDS
    }

    fn handle(&mut self, name: &str, args: &[String]) -> Option<Reply> {
        let e = &mut self.engine;
        Some(match name {
            "boardsize" => {
                let dims: Vec<Option<usize>> = args.iter().map(|a| a.parse().ok()).collect();
                let (w, h) = match dims.as_slice() {
                    [Some(n)] => (*n, *n),
                    [Some(w), Some(h)] => (*w, *h),
                    _ if args
                        .iter()
                        .all(|a| !a.is_empty() && a.bytes().all(|b| b.is_ascii_digit()))
                        && (1..=2).contains(&args.len()) =>
                    {
                        return Some(Reply::err("unacceptable size"));
                    }
                    _ => return Some(Reply::err("syntax error (expected boardsize W H)")),
                };
                match HexEngine::new(w, h, e.settings.clone()) {
                    Ok(n) => {
                        *e = n;
                        Reply::empty()
                    }
                    Err(_) => Reply::err("unacceptable size"),
                }
            }
            "clear_board" => {
                e.moves.clear();
                e.state = e.hex.initial();
                Reply::empty()
            }
            "play" => {
                let [c, v] = args else {
                    return Some(Reply::err("syntax error (expected play COLOUR CELL)"));
                };
                let Some(c) = colour(c) else {
                    return Some(Reply::err("syntax error (invalid colour)"));
                };
                let mv = match e.hex.parse_move(&e.state, v) {
                    Ok(m) => m,
                    Err(why) => return Some(Reply::err(format!("illegal move ({why})"))),
                };
                match e.play(c, mv) {
                    Ok(()) => Reply::empty(),
                    Err(why) => Reply::err(format!("illegal move ({why})")),
                }
            }
            "genmove" => {
                let [c] = args else {
                    return Some(Reply::err("syntax error (expected genmove COLOUR)"));
                };
                let Some(c) = colour(c) else {
                    return Some(Reply::err("syntax error (invalid colour)"));
                };
                let (mv, how) = e.genmove(c);
                let text = mv.map_or_else(|| "resign".to_string(), |m| m.to_string());
                if !self.quiet {
                    eprintln!("tsumi: genmove {c} {text}: {how}");
                }
                Reply::ok(text)
            }
            "undo" => {
                if e.undo() {
                    Reply::empty()
                } else {
                    Reply::err("cannot undo")
                }
            }
            "showboard" => Reply::ok(e.showboard()),
            "dfpn-solve-state" => match Self::colour_arg(args) {
                Ok(c) => Reply::ok(match e.solve(c) {
                    Some(Player::Black) => "black",
                    Some(Player::White) => "white",
                    None => "empty",
                }),
                Err(r) => r,
            },
            "dfpn-get-pv" => match Self::colour_arg(args) {
                Ok(c) => Reply::ok(
                    e.principal_variation(c)
                        .iter()
                        .map(ToString::to_string)
                        .collect::<Vec<_>>()
                        .join(" "),
                ),
                Err(r) => r,
            },
            _ => return None,
        })
    }
}

/// An HTP colour: `b`, `black`, `w`, `white`, in any case.
fn colour(text: &str) -> Option<Player> {
    match text.to_ascii_lowercase().as_str() {
        "b" | "black" => Some(Player::Black),
        "w" | "white" => Some(Player::White),
        _ => None,
    }
}
