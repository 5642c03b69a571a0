//! A position with its history: what the rules need to decide legality and the result.

use super::board::{Board, PlaceError, Score};
use super::history::History;
use super::point::{Move, Point, Size};
use super::rules::Rules;
use super::zobrist::Zobrist;
use crate::Player;

/// A Go game state: board, side to move, consecutive passes, the history the ko rule needs,
/// and incremental Zobrist hashes.
///
/// Invariant: the current board is the last entry of the history; every chain has a liberty.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    rules: Rules,
    board: Board,
    to_move: Player,
    passes: u8,
    plies: u32,
    board_hash: u64,
    history: History,
}

/// Why a move or a setup cannot be applied.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// The game has ended (two consecutive passes).
    #[error("illegal move {0}: the game is over (two consecutive passes)")]
    GameOver(String),
    /// The point already holds a stone.
    #[error("illegal move {0}: the point is occupied")]
    Occupied(String),
    /// The move would leave its own chain without liberties and captures nothing.
    #[error("illegal move {0}: suicide")]
    Suicide(String),
    /// The move recreates an earlier board (or position, under situational superko).
    #[error("illegal move {0}: it repeats an earlier board ({1})")]
    Repetition(String, String),
    /// Text that is not a move on this board.
    #[error("{0}")]
    Unreadable(String),
    /// A setup leaves a chain without liberties.
    #[error("invalid setup: the chain at {0} has no liberties")]
    DeadSetup(String),
}

impl Position {
    /// The empty board of `size` with Black to move.
    #[must_use]
    pub fn new(size: Size, rules: Rules) -> Self {
        Self::from_board(Board::empty(size), Player::Black, rules)
            .expect("the empty board is legal")
    }

    /// A start position from a board (e.g. a setup). The board enters the history.
    ///
    /// # Errors
    /// [`MoveError::DeadSetup`] if a chain has no liberties.
    pub fn from_board(board: Board, to_move: Player, rules: Rules) -> Result<Self, MoveError> {
        check_setup(&board)?;
        let board_hash = board_hash(&board);
        let mut history = History::new(rules.ko);
        history.push(&board, board_hash, to_move);
        Ok(Position {
            rules,
            board,
            to_move,
            passes: 0,
            plies: 0,
            board_hash,
            history,
        })
    }

    /// Replaces the board by a setup (SGF `AB`/`AW`/`AE` in a later node) and records it in
    /// the history, so positional superko also forbids recreating it. Resets the pass count.
    ///
    /// # Errors
    /// [`MoveError::DeadSetup`] if a chain has no liberties; the position is then unchanged.
    pub fn setup(&mut self, board: Board, to_move: Player) -> Result<(), MoveError> {
        check_setup(&board)?;
        self.board_hash = board_hash(&board);
        self.board = board;
        self.to_move = to_move;
        self.passes = 0;
        self.history
            .push(&self.board, self.board_hash, self.to_move);
        Ok(())
    }

    /// Sets the side to move (SGF `PL`), without changing the history.
    pub fn set_to_move(&mut self, to_move: Player) {
        self.to_move = to_move;
    }

    /// The rules.
    #[must_use]
    pub const fn rules(&self) -> Rules {
        self.rules
    }

    /// Replaces the komi (e.g. from the command line).
    pub fn set_komi(&mut self, komi: super::rules::Komi) {
        self.rules.komi = komi;
    }

    /// The board.
    #[must_use]
    pub const fn board(&self) -> &Board {
        &self.board
    }

    /// The board size.
    #[must_use]
    pub const fn size(&self) -> Size {
        self.board.size()
    }

    /// The side to move.
    #[must_use]
    pub const fn to_move(&self) -> Player {
        self.to_move
    }

    /// Whether `m` fills one of the side to move's own eyes: an empty point whose on-board
    /// neighbours are all its stones (the move Monte Carlo playouts never play). A pass
    /// fills none.
    #[must_use]
    pub fn fills_own_eye(&self, m: super::Move) -> bool {
        match m {
            super::Move::Pass => false,
            super::Move::Place(p) => self
                .size()
                .neighbours(p)
                .all(|q| self.board.get(q) == Some(self.to_move)),
        }
    }

    /// Consecutive passes just played (0, 1, or 2 when the game is over).
    #[must_use]
    pub const fn passes(&self) -> u8 {
        self.passes
    }

    /// Moves played since the start position (plies).
    #[must_use]
    pub const fn plies(&self) -> u32 {
        self.plies
    }

    /// The history of earlier boards.
    #[must_use]
    pub const fn history(&self) -> &History {
        &self.history
    }

    /// Whether two consecutive passes have ended the game.
    #[must_use]
    pub const fn is_over(&self) -> bool {
        self.passes >= 2
    }

    /// Zobrist hash of the board only.
    #[must_use]
    pub const fn board_hash(&self) -> u64 {
        self.board_hash
    }

    /// Zobrist hash of board, side to move and pass state (incremental).
    #[must_use]
    pub fn hash(&self) -> u64 {
        let z = Zobrist::get();
        self.board_hash ^ z.side(self.to_move) ^ z.passes(self.passes)
    }

    /// [`History::signature`] recomputed from the recorded boards.
    #[must_use]
    pub fn history_signature_from_scratch(&self) -> u64 {
        self.history.signature_from_scratch(board_hash)
    }

    /// The same hash recomputed from scratch.
    #[must_use]
    pub fn hash_from_scratch(&self) -> u64 {
        let z = Zobrist::get();
        board_hash(&self.board) ^ z.side(self.to_move) ^ z.passes(self.passes)
    }

    /// Area score of the current board.
    #[must_use]
    pub fn score(&self) -> Score {
        self.board.area()
    }

    /// The board after `to_move` places a stone on `p`, with its hash, or why it is illegal.
    fn try_place(&self, p: Point) -> Result<(Board, u64), MoveError> {
        self.try_place_with(p, true)
    }

    /// [`Position::try_place`], with the ko rule's ban checked only when `ko_ban` is set.
    fn try_place_with(&self, p: Point, ko_ban: bool) -> Result<(Board, u64), MoveError> {
        let name = || p.to_string();
        if self.is_over() {
            return Err(MoveError::GameOver(name()));
        }
        if !self.size().contains(p) {
            return Err(MoveError::Unreadable(format!("move {p} is off the board")));
        }
        let mut board = self.board.clone();
        let captured = board.place(p, self.to_move).map_err(|e| match e {
            PlaceError::Occupied => MoveError::Occupied(name()),
            PlaceError::Suicide => MoveError::Suicide(name()),
        })?;
        let z = Zobrist::get();
        let size = self.size();
        let mut h = self.board_hash ^ z.stone(size, p, self.to_move);
        for q in captured {
            h ^= z.stone(size, q, self.to_move.opponent());
        }
        if ko_ban && self.history.forbids(&board, h, self.to_move.opponent()) {
            return Err(MoveError::Repetition(
                name(),
                self.history.rule().to_string(),
            ));
        }
        Ok((board, h))
    }

    /// Whether `m` is legal for the side to move.
    #[must_use]
    pub fn is_legal(&self, m: Move) -> bool {
        match m {
            Move::Pass => !self.is_over(),
            Move::Place(p) => self.try_place(p).is_ok(),
        }
    }

    /// Plays `m` for the side to move.
    ///
    /// # Errors
    /// [`MoveError`] naming the move if it is illegal; the position is then unchanged.
    pub fn play(&mut self, m: Move) -> Result<(), MoveError> {
        match m {
            Move::Pass => {
                if self.is_over() {
                    return Err(MoveError::GameOver("pass".into()));
                }
                self.passes += 1;
            }
            Move::Place(p) => {
                let (board, h) = self.try_place(p)?;
                self.board = board;
                self.board_hash = h;
                self.passes = 0;
            }
        }
        self.to_move = self.to_move.opponent();
        self.plies += 1;
        // After a pass the current board is pushed again: under simple ko this lifts the ban,
        // since no stone move can recreate the current board.
        self.history
            .push(&self.board, self.board_hash, self.to_move);
        Ok(())
    }

    /// Whether `m` is legal for the side to move when the ko rule's ban is lifted for it
    /// (occupied points and suicide stay illegal).
    #[must_use]
    pub fn is_legal_ignoring_ko(&self, m: Move) -> bool {
        match m {
            Move::Pass => !self.is_over(),
            Move::Place(p) => self.try_place_with(p, false).is_ok(),
        }
    }

    /// Plays `m` with the ko rule's ban lifted for this one move: as if the mover had first
    /// played a ko threat elsewhere that the opponent answered elsewhere (tsumego's
    /// "unlimited ko threats", see `go::tsumego`). The new board enters the history as usual,
    /// so the opponent stays bound by the ban.
    ///
    /// # Errors
    /// [`MoveError`] for an occupied point, suicide or a finished game.
    pub fn play_ignoring_ko(&mut self, m: Move) -> Result<(), MoveError> {
        match m {
            Move::Pass => self.play(m),
            Move::Place(p) => {
                let (board, h) = self.try_place_with(p, false)?;
                self.board = board;
                self.board_hash = h;
                self.passes = 0;
                self.to_move = self.to_move.opponent();
                self.plies += 1;
                self.history
                    .push(&self.board, self.board_hash, self.to_move);
                Ok(())
            }
        }
    }

    /// Parses and plays a GTP move ("D2", "pass").
    ///
    /// # Errors
    /// [`MoveError`] for unreadable, off-board or illegal moves.
    pub fn play_text(&mut self, text: &str) -> Result<Move, MoveError> {
        let m = self
            .size()
            .parse_move(text)
            .map_err(MoveError::Unreadable)?;
        self.play(m)?;
        Ok(m)
    }

    /// All legal moves, stone moves in point order then the pass (empty when the game is over).
    #[must_use]
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut out = Vec::new();
        self.legal_moves_into(&mut out);
        out
    }

    /// Like [`Position::legal_moves`], into a reused buffer (cleared first).
    pub fn legal_moves_into(&self, out: &mut Vec<Move>) {
        out.clear();
        if self.is_over() {
            return;
        }
        for p in self.size().all_points() {
            if self.board.get(p).is_none() && self.try_place(p).is_ok() {
                out.push(Move::Place(p));
            }
        }
        out.push(Move::Pass);
    }
}

fn board_hash(board: &Board) -> u64 {
    let z = Zobrist::get();
    let size = board.size();
    size.all_points()
        .filter_map(|p| board.get(p).map(|c| z.stone(size, p, c)))
        .fold(0, |h, k| h ^ k)
}

fn check_setup(board: &Board) -> Result<(), MoveError> {
    for p in board.size().all_points() {
        if board.get(p).is_some() && board.chain(p).1 == 0 {
            return Err(MoveError::DeadSetup(p.to_string()));
        }
    }
    Ok(())
}
