#![doc = include_str!("../README.md")]

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
