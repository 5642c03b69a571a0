#![doc = include_str!("../README.md")]

pub mod go_engine;
pub mod gtp;
pub mod hex_engine;
pub mod playout_guess;
pub mod protocol;

pub use go_engine::{Decision, GoEngine, GoError, GoSettings, Solution, Source};
pub use gtp::GtpEngine;
pub use hex_engine::{HexEngine, HexSettings, HtpEngine};
pub use protocol::{Command, Flow, Handler, Reply, respond, serve};
