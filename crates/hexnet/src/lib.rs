//! # hexnet: policy and value networks for Hex, guiding focused df-pn
//!
//! Gao, Müller and Hayward, *Focused depth-first proof number search using convolutional
//! neural networks for the game of Hex* (IJCAI 2017): a policy network orders the children of
//! focused df-pn (FDFPN-policy) and a value network sets each node's window (FDFPN-CNN,
//! Equations 2–3). This crate holds the input planes ([`features`]: padded board, own and
//! opponent stones, empty cells, bridges), the networks of the paper's shape scaled down
//! ([`net`]: 3×3 convolutions, a 1×1 head with per-cell biases for the policy, a fully
//! connected layer and tanh for the value), their training ([`mod@train`]: cross-entropy and
//! squared error with Adam, seeded and bit-for-bit repeatable), the weight file ([`io`]) and
//! the [`pns::MoveOrder`] implementations ([`order`]).
//!
//! **Why not candle.** The networks are small (about 8 k parameters, 0.3 M multiply-adds per
//! 6x6 position), and a plain-Rust forward and backward pass is a few hundred lines, checked
//! against finite differences. Writing it ourselves keeps the build light on the two-core
//! machine (no candle-core with its matrix-product and numeric dependencies to compile) and
//! makes the training exactly repeatable from a seed by construction (one seeded generator,
//! single-threaded arithmetic in a fixed order), which `tsumi train-hexnet` promises. candle
//! was not tried here; this is a choice of build time and determinism, not a measured failure.
//!
//! Data: positions from self-play of our MCTS players with values averaged over the games
//! through them, made and trained by `tsumi train-hexnet`; the shipped weights are under
//! `data/hexnet/`.

pub mod features;
pub mod io;
pub mod net;
pub mod order;
pub mod train;

pub use features::{PLANES, encode, to_image};
pub use io::{NetError, Weights};
pub use net::{Kind, Net, Shape};
pub use order::{Evaluations, PolicyOrder, ValueWidening, widening_factor};
pub use train::{
    EpochReport, Example, SplitMix64, TrainConfig, constant_policy_accuracy, constant_value_mse,
    for_mover, policy_accuracy, train, value_mse,
};
