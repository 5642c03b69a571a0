#![doc = include_str!("../README.md")]

pub mod eyes;
pub mod format;
pub mod rules;
pub mod verify;

pub use format::{Certificate, Limits, ParseError, VERSION, parse, parse_reader};
pub use rules::{Board, Color, Geometry};
pub use verify::{
    CheckError, Failure, Verdict, check, check_reader, check_text, check_with, history_digest,
};
