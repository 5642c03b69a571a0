#![doc = include_str!("../README.md")]

pub mod analysis;
pub mod go_engine;
pub mod gtp;
pub mod gtp_analyze;
pub mod hex_engine;
pub mod kata_analysis;
pub mod kata_rules;
pub mod playout_guess;
pub mod protocol;

pub use go_engine::{Decision, GoEngine, GoError, GoSettings, Solution, Source};
pub use gtp::GtpEngine;
pub use hex_engine::{HexEngine, HexSettings, HtpEngine};
pub use protocol::{Command, Flow, Handler, Reply, Stream, respond, respond_to, serve};
