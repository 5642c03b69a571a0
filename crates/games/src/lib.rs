#![doc = include_str!("../README.md")]

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
