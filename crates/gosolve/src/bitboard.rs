//! The back end: the padded bitboard the search runs on, behind an API in `games::go`'s
//! terms.
//!
//! Callers pose questions from a [`games::go::Position`] (or a [`crate::Played`] one, with
//! its moves) and get `games::go::Move`s back in proofs and principal variations; the solver
//! turns a root into a [`Line`] once per question ([`crate::Root`]). These types are public
//! for gosolve's own analyses ([`crate::eyes`], [`crate::regions`], [`crate::prune`],
//! [`crate::prior`]), tests and benches; [`mod@reference`] converts to and from `games::go`.
//!
//! - [`Bitboard`] (`u64`, one bit a point, up to 64 points), [`Point`] (a bit index) and
//!   [`Move`] (a point or the pass, one byte); [`Board`] (two bitboards) and [`Placed`] (a
//!   stone placed with its captures); [`Geometry`] (the masks, symmetry maps and
//!   per-symmetry Zobrist tables of one size).
//! - [`Position`] (a board, the side to move and the pass state) and [`Line`] (a superko
//!   game: the position and the set of its boards).
//!
//! # Bit layout
//! Point index = `row * cols + col`, row 0 at the bottom (GTP row 1), column 0 at the left
//! (GTP column A). On 3×4:
//!
//! ```text
//!   row 2 (GTP 3):   8  9 10 11
//!   row 1 (GTP 2):   4  5  6  7
//!   row 0 (GTP 1):   0  1  2  3
//!                    A  B  C  D
//! ```
//!
//! Neighbours come from shifts: east `<< 1` and west `>> 1` masked by the first/last column,
//! north `<< cols` masked by the board, south `>> cols`. Chains are grown by repeated
//! neighbour shifts (flood fill). Rules as in `games::go` under positional superko: captures of
//! opponent chains first, then suicide is illegal; area scoring (stones plus empty regions
//! bordered by one colour only). Every move is checked against `games::go` on random games
//! (`tests/board_vs_reference.rs`).

pub use crate::board::{Bitboard, Board, BoardError, Geometry, KeyTable, Move, Placed, Point};
pub use crate::position::{Line, MoveError, Position, reference};
