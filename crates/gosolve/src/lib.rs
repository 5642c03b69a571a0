#![doc = include_str!("../README.md")]
// `search::Solver` links to the private `Path` and `table::Table` to the private `Bucket`
// (search.rs and table.rs are being split into modules): allowed until those links go.

pub mod bitboard;
mod board;
pub mod certificate;
pub mod eyes;
#[cfg(feature = "fault-injection")]
pub mod faults;
pub mod oracle;
mod position;
pub mod prior;
pub mod prune;
pub mod published;
pub mod regions;
mod root;
pub mod search;
pub mod session;
pub mod stack;
pub mod symmetry;
pub mod table;
pub(crate) mod transfer;
pub mod value;
pub mod zobrist;

pub use board::BoardError;
pub use root::{Played, Root};
pub use search::{Answer, Config, Progress, Proof, SearchDetail, Solver};
#[cfg(feature = "fault-injection")]
pub use table::FaultKind;
pub use value::{Solved, solve_value, solve_value_from};
pub use vocab::{Limits, Pn};
