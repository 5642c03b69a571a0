#![doc = include_str!("../README.md")]

pub mod arena;
pub mod campaign;
pub mod params;
pub mod rollout;
pub mod search;
pub mod stat;
pub mod window;

pub use arena::{
    GameResult, MatchSummary, PlayerTotals, play_game, play_game_until, run_match, run_match_until,
};
pub use params::{Algorithm, Budget, Params};
pub use rollout::{GoRollout, PlayerRng, Rollout, Uniform, WargameRollout};
pub use search::{SearchStats, Searcher};
pub use stat::{Stat, equation1_weights};
pub use window::PlayoutWindow;
