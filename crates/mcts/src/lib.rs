//! Monte Carlo players over [`games::Game`]: UCT, RAVE, GRAVE and Monte Carlo Permutation
//! Search (MCPS), and an arena that measures them.
//!
//! Source: T. Cazenave, *Monte Carlo Permutation Search* (the MCPS paper; Equation 1,
//! Algorithms 1 and 2), and *Generalized Rapid Action Value Estimation* (GRAVE, 2015).
//!
//! - [`Searcher`]: one player (one tree design for all four algorithms, see [`search`]);
//! - [`Params`], [`Algorithm`], [`Budget`]: its parameters, with the paper's defaults
//!   (ρ = 30, W = 10,000);
//! - [`Rollout`]: playout policies ([`Uniform`], the Wargame's biased [`WargameRollout`]);
//! - [`PlayoutWindow`]: MCPS's cyclic window of playout bitsets;
//! - [`arena`]: games between two players with colours alternated, in parallel.
//!
//! With a playout budget and a seed, a search, and so a whole game, is bit-for-bit
//! repeatable: each player owns its RNG, the table's hasher is fixed, and rewards are
//! summed as integers.

pub mod arena;
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
