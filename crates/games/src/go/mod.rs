//! The reference Go board: clear, general and slow enough to trust.
//!
//! Rules implemented (the Chinese rules as written, with positional superko, as in Section 2
//! of the Sanko paper, *Solving Go under Positional Superko: Sound Proof Transfer and New
//! Board Values*):
//! - Black moves first on an R×C board, 1×1 up to 19×19 (R rows, C columns);
//! - a move is a pass or a stone on an empty point; opponent chains left without liberties
//!   are captured first, then a move whose own chain has no liberty is suicide, which is illegal;
//! - repetition: [`KoRule::PositionalSuperko`] (default) forbids a stone move that recreates any
//!   earlier board of the game, setup positions included; boards are compared exactly, hashes
//!   only filter; [`KoRule::SituationalSuperko`] compares board and side to move;
//!   [`KoRule::Simple`] forbids only recreating the board from before the opponent's last move;
//! - passes are always legal and two consecutive passes end the game;
//! - area scoring: stones plus empty regions bordered by one colour only; [`Komi`] is an exact
//!   number of half-points added to White.
//!
//! Coordinates are GTP's: columns A, B, … skipping I, row 1 at the bottom. On 3×10, "D2" is
//! column 4 of row 2. Internally a [`Point`] is `row * cols + col` with row 0 at the bottom.

pub mod benson;
mod board;
mod game;
mod history;
mod point;
mod position;
mod rules;
mod sgf;
mod symmetry;
pub mod tsumego;
mod zobrist;

pub use board::{Board, BoardParseError, Score};
pub use game::GoGame;
pub use history::History;
pub(crate) use history::mix as mix_board_hash;
pub use point::{Move, Point, Size, SizeError};
pub use position::{MoveError, Position};
pub use rules::{KoRule, Komi, KomiError, Rules};
pub use sgf::{
    SgfError, SgfLocation, position_from_sgf, position_from_sgf_bytes,
    position_from_sgf_bytes_before, position_to_sgf, root_points_from_sgf_bytes, sgf_escape,
};
pub use symmetry::Symmetry;
pub use tsumego::{PointSet, Tsumego, TsumegoError, TsumegoGoal};
pub use zobrist::Zobrist;
