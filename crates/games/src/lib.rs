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

/// `n` and the noun in the number it takes, for messages: `count(1, "move", "moves")` is
/// "1 move", `count(3, "move", "moves")` is "3 moves" (and 0 takes the plural).
///
/// # Examples
/// ```
/// assert_eq!(games::count(1, "game", "games"), "1 game");
/// assert_eq!(games::count(0, "game", "games"), "0 games");
/// ```
#[must_use]
pub fn count(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}
