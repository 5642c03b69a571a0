#![doc = include_str!("../README.md")]
// `search::Solver` links to the private `Path` and `table::Table` to the private `Bucket`
// (search.rs and table.rs are being split into modules): allowed until those links go.

pub mod board;
pub mod certificate;
pub mod eyes;
#[cfg(feature = "fault-injection")]
pub mod faults;
pub mod oracle;
pub mod position;
pub mod prior;
pub mod prune;
pub mod published;
pub mod regions;
pub mod search;
pub mod session;
pub mod stack;
pub mod symmetry;
pub mod table;
pub(crate) mod transfer;
pub mod value;
pub mod zobrist;

pub use board::{Bitboard, Board, BoardError, Geometry, Move, Placed, Point};
pub use position::{Line, MoveError, Position};
pub use search::{Answer, Config, Progress, Proof, SearchDetail, Solver};
#[cfg(feature = "fault-injection")]
pub use table::FaultKind;
pub use value::{Solved, solve_value, solve_value_from};
pub use vocab::{Limits, Pn};
