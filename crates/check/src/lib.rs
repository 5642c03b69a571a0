#![doc = include_str!("../README.md")]

pub mod eyes;
pub mod format;
pub mod rules;
pub mod verify;

pub use format::{Certificate, ParseError, VERSION, parse};
pub use rules::{Board, Color, Geometry};
pub use verify::{CheckError, Failure, Verdict, check, check_text};
