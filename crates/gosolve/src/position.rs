//! Positions and superko games on the fast board.
//!
//! A [`Position`] is a board, the side to move and the pass state (whether the last move was a
//! pass). A [`Line`] is a whole superko game: the current position plus the *set* of boards that
//! occurred in it (the start position, setup positions and the current board included), and
//! whether two consecutive passes have ended it. A stone move is legal when its point is
//! empty, it is not suicide, and its result board is not in the set (positional superko).

use crate::board::{Board, Geometry, Move, Point};
use games::Player;

/// A board with the side to move and the pass state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// The stones.
    pub board: Board,
    /// The player to move.
    pub to_move: Player,
    /// Whether the last move was a pass (a second pass ends the game).
    pub passed: bool,
}

impl Position {
    /// The primary Zobrist key of the position (exact on boards of up to 30 points).
    #[must_use]
    pub fn hash(&self, geo: &Geometry) -> u64 {
        self.board.hash(geo)
            ^ if self.to_move == Player::White {
                crate::zobrist::SIDE
            } else {
                0
            }
            ^ if self.passed { crate::zobrist::PASS } else { 0 }
    }
}

/// Why a move was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// The game has ended with two passes.
    #[error("the game is over")]
    GameOver,
    /// The point is not empty.
    #[error("point {0} is occupied")]
    Occupied(String),
    /// The move would leave its own chain without liberties.
    #[error("move {0} is suicide")]
    Suicide(String),
    /// The move recreates an earlier board.
    #[error("move {0} repeats an earlier board (positional superko)")]
    Superko(String),
    /// The point is off the board.
    #[error("move {0} is off the board")]
    OffBoard(String),
}

/// A superko game: the current position and the set of boards so far.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The current position.
    pub position: Position,
    /// Every distinct board of the game so far, in order of first appearance, the current
    /// board included.
    pub boards: Vec<Board>,
    /// Whether two consecutive passes ended the game.
    pub over: bool,
    /// The moves played since the start (for printing and PVs).
    pub moves: Vec<Move>,
}

impl Line {
    /// The empty board with Black to move.
    #[must_use]
    pub fn new() -> Self {
        Line::from_setup(Board::EMPTY, Player::Black, &[])
    }

    /// A game starting at `board` with `to_move` to play, whose earlier boards are `earlier`
    /// (for example the boards of an SGF before the setup).
    #[must_use]
    pub fn from_setup(board: Board, to_move: Player, earlier: &[Board]) -> Self {
        let mut boards = Vec::new();
        for &b in earlier.iter().chain(std::iter::once(&board)) {
            if !boards.contains(&b) {
                boards.push(b);
            }
        }
        Line {
            position: Position {
                board,
                to_move,
                passed: false,
            },
            boards,
            over: false,
            moves: Vec::new(),
        }
    }

    /// Checks a move; returns the new board for a stone move.
    ///
    /// # Errors
    /// A [`MoveError`] naming the move.
    pub fn check(&self, geo: &Geometry, m: Move) -> Result<Option<Board>, MoveError> {
        if self.over {
            return Err(MoveError::GameOver);
        }
        let Some(p) = m.point() else { return Ok(None) };
        let name = geo.move_name(m);
        if p.index() >= geo.points() {
            return Err(MoveError::OffBoard(name));
        }
        if self.position.board.at(p).is_some() {
            return Err(MoveError::Occupied(name));
        }
        let placed = self
            .position
            .board
            .place(geo, self.position.to_move, p)
            .ok_or_else(|| MoveError::Suicide(name.clone()))?;
        if self.boards.contains(&placed.board) {
            return Err(MoveError::Superko(name));
        }
        Ok(Some(placed.board))
    }

    /// Whether `m` is legal.
    #[must_use]
    pub fn is_legal(&self, geo: &Geometry, m: Move) -> bool {
        self.check(geo, m).is_ok()
    }

    /// Plays a move.
    ///
    /// # Errors
    /// A [`MoveError`] if the move is illegal; the game is then unchanged.
    pub fn play(&mut self, geo: &Geometry, m: Move) -> Result<(), MoveError> {
        match self.check(geo, m)? {
            Some(board) => {
                self.position.board = board;
                self.position.passed = false;
                self.boards.push(board);
            }
            None => {
                if self.position.passed {
                    self.over = true;
                }
                self.position.passed = true;
            }
        }
        self.position.to_move = self.position.to_move.opponent();
        self.moves.push(m);
        Ok(())
    }

    /// The legal moves: stone moves in point order, then the pass. Empty once the game is over.
    #[must_use]
    pub fn legal_moves(&self, geo: &Geometry) -> Vec<Move> {
        if self.over {
            return Vec::new();
        }
        let mut v: Vec<Move> = (0..geo.points())
            .map(|p| Move::play(Point(p as u8)))
            .filter(|&m| self.is_legal(geo, m))
            .collect();
        v.push(Move::PASS);
        v
    }

    /// Area score of the current board (Black minus White, komi not included).
    #[must_use]
    pub fn score(&self, geo: &Geometry) -> i32 {
        self.position.board.area_score(geo)
    }
}

impl Default for Line {
    fn default() -> Self {
        Line::new()
    }
}

/// Conversions from and to the reference board `games::go`.
pub mod reference {
    use super::Line;
    use crate::board::{Bitboard, Board, BoardError, Geometry, Move, Point};
    use games::Player;
    use games::go;

    /// The fast geometry of a reference size.
    ///
    /// # Errors
    /// [`BoardError::UnsupportedSize`] above 64 points.
    pub fn geometry(size: go::Size) -> Result<Geometry, BoardError> {
        Geometry::new(size.rows() as usize, size.cols() as usize)
    }

    /// The fast board of a reference board (same geometry).
    #[must_use]
    pub fn board(geo: &Geometry, b: &go::Board) -> Board {
        let mut out = Board::EMPTY;
        for r in 0..geo.rows() {
            for c in 0..geo.cols() {
                let p = Bitboard::from_point(geo.point(r, c));
                match b.get(go::Point::new(r as u32, c as u32)) {
                    Some(Player::Black) => out.black |= p,
                    Some(Player::White) => out.white |= p,
                    None => {}
                }
            }
        }
        out
    }

    /// The superko game of a reference position: its board, side to move, pass state and
    /// the set of its history's boards.
    ///
    /// # Errors
    /// [`BoardError::UnsupportedSize`] above 64 points.
    pub fn line(pos: &go::Position) -> Result<(Geometry, Line), BoardError> {
        let geo = geometry(pos.size())?;
        let earlier: Vec<Board> = pos
            .history()
            .positions()
            .map(|(b, _)| board(&geo, b))
            .collect();
        let mut line = Line::from_setup(board(&geo, pos.board()), pos.to_move(), &earlier);
        line.position.passed = pos.passes() >= 1;
        line.over = pos.is_over();
        Ok((geo, line))
    }

    /// [`line()`] of `pos`, with its moves kept when `moves` (reference moves from the empty
    /// board) replay to exactly `pos` and its history: a certificate of the line then names
    /// its root by those moves rather than by a setup with earlier boards.
    ///
    /// # Errors
    /// As [`line()`].
    pub fn line_with_moves(
        pos: &go::Position,
        moves: &[go::Move],
    ) -> Result<(Geometry, Line), BoardError> {
        let (geo, line) = line(pos)?;
        let mut replay = Line::new();
        for &m in moves {
            if replay.play(&geo, to_fast(&geo, m)).is_err() {
                return Ok((geo, line));
            }
        }
        let same = replay.position == line.position
            && replay.over == line.over
            && replay.boards.len() == line.boards.len()
            && replay.boards.iter().all(|b| line.boards.contains(b));
        Ok(if same { (geo, replay) } else { (geo, line) })
    }

    /// The fast move of a reference move.
    #[must_use]
    pub fn to_fast(geo: &Geometry, m: go::Move) -> Move {
        match m {
            go::Move::Pass => Move::PASS,
            go::Move::Place(p) => Move::play(geo.point(p.row as usize, p.col as usize)),
        }
    }

    /// The reference move of a fast move.
    #[must_use]
    pub fn to_reference(geo: &Geometry, m: Move) -> go::Move {
        match m.point() {
            None => go::Move::Pass,
            Some(Point(i)) => {
                let i = i as usize;
                go::Move::Place(go::Point::new(
                    (i / geo.cols()) as u32,
                    (i % geo.cols()) as u32,
                ))
            }
        }
    }
}
