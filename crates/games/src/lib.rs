//! Rules of the games tsumi solves and plays, and nothing else.
//!
//! - [`Game`]: the trait generic search uses (see `game.rs`).
//! - [`go`]: the reference Go board (any R×C from 1×1 to 19×19), positional superko,
//!   area scoring, SGF input.
//!
//! Rules never depend on a search crate.

pub mod conformance;
pub mod dims;
mod game;
pub mod go;
/// Hex on W×H boards (1 to 19), union-find winner, benzene coordinates.
pub mod hex;
pub mod wargame;

pub use game::{Game, Outcome, Player};
