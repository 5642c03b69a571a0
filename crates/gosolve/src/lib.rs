//! Exact Go solver under positional superko (Sanko paper).
//!
//! - [`board`]: the fast bitboard board (`Bitboard(u64)`, up to 64 points), checked move by
//!   move against `games::go`; [`zobrist`]: keys independent over GF(2) up to 30 points and
//!   the non-linear history signatures; [`symmetry`]: the rectangle's symmetries.
//! - [`position`]: positions and superko games ([`Line`]: position + set of earlier boards).
//! - [`search`]: negamax df-pn with the 1+ε rule answering "does w win at komi k?", with
//!   static leaves, proof composition and winner-side pruning; [`prior`]: initial proof
//!   numbers; [`table`]: the fixed-size transposition table (path entries for the identical
//!   superko game, position entries for transferable proofs); `transfer` (crate-internal):
//!   proof attributes and the transfer test of Theorem 1 / Algorithm 1.
//! - [`eyes`]: the pure-eye static analysis (X*, T*, Lemma 1); [`regions`]: local region
//!   games (Appendix A.4); [`prune`]: the moves winner-side pruning may skip.
//! - [`value`]: a board's value from two proofs by bisection over komi, with a principal
//!   variation.
//! - [`oracle`]: the brute-force reference every fast path is checked against.
//! - `faults` (only with `--features fault-injection`): wrong proofs accepted on purpose,
//!   and how often they change a result.
//! - [`certificate`]: writes a proof as a certificate for the independent checker (`check`).

// `search::Solver` links to the private `Path` and `table::Table` to the private `Bucket`
// (search.rs and table.rs are being split into modules): allowed until those links go.
#![allow(rustdoc::private_intra_doc_links)]

pub mod board;
pub mod certificate;
pub mod eyes;
#[cfg(feature = "fault-injection")]
pub mod faults;
pub mod oracle;
pub(crate) mod path;
pub mod position;
pub mod prior;
pub mod prune;
pub mod regions;
pub mod search;
pub mod symmetry;
pub mod table;
pub(crate) mod transfer;
pub mod value;
pub mod zobrist;

pub use board::{Bitboard, Board, BoardError, Geometry, Move, Placed, Point};
pub use position::{Line, MoveError, Position};
pub use search::{Answer, Config, Proof, Solver};
#[cfg(feature = "fault-injection")]
pub use table::FaultKind;
pub use value::{Solved, solve_value, solve_value_from};
