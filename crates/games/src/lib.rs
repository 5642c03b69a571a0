//! Rules of the games tsumi solves and plays, and nothing else.
//!
//! - [`Game`]: the trait generic search uses (see `game.rs`).
//! - [`go`]: the reference Go board (any R×C from 1×1 to 19×19), positional superko,
//!   area scoring, SGF input.
//! - [`fastboard`]: the fast Go-family board (O(1) legality, incremental chains) behind
//!   [`fastgo`] (Go for play: simple ko, area scoring, komi, move limit), [`nogo`] and [`atarigo`].
//! - [`hex`]: Hex on W×H boards (1 to 19), union-find winner, benzene/HexGui coordinates.
//! - [`tictactoe`]: tic-tac-toe, 3×3.
//! - [`connect4`]: Connect Four, width × height from 4x4 to 7x6 (any with W·(H+1) ≤ 64).
//! - [`nogo`]: NoGo (captures and suicide illegal, no legal move loses), W×H up to 19×19.
//! - [`atarigo`]: AtariGo (first capture wins; move codes carry a capture flag), W×H up to 19×19.
//! - [`dims`]: the `"WxH"` size text shared by those games, and their Zobrist keys.
//!
//! Rules never depend on a search crate.

pub mod atarigo;
pub mod conformance;
pub mod connect4;
pub mod dims;
pub mod fastboard;
pub mod fastgo;
mod game;
pub mod go;
pub mod hex;
pub mod nogo;
mod stones;
pub mod tictactoe;
pub mod wargame;

pub use game::{Game, Outcome, Player};
pub use stones::GoPoint;
