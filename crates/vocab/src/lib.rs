#![doc = include_str!("../README.md")]

pub mod answer;
pub mod limits;
pub mod numbers;
pub mod progress;

pub use answer::Answer;
pub use limits::{Limits, Stop};
pub use numbers::Pn;
pub use progress::{Progress, ProgressFn};
