//! Exact Go solver under positional superko (being written).

pub mod board;
pub mod oracle;
pub mod position;
pub mod search;
pub mod symmetry;
pub mod table;
pub mod value;
pub mod zobrist;

pub use board::{Bitboard, Board, BoardError, Geometry, Move, Placed, Point};
pub use position::{Line, MoveError, Position};
pub use search::{Answer, Config, Proof, Solver};
pub use value::{Solved, solve_value};
