#![doc = include_str!("../README.md")]

pub mod eyes;
pub mod format;
pub mod rules;
pub mod stream;
pub mod verify;

pub use format::{Certificate, Limits, ParseError, VERSION, parse, parse_reader};
pub use rules::{Board, Color, Geometry};
pub use stream::{Report, check_stream, check_stream_bytes};
pub use verify::{
    CheckError, Failure, Verdict, check, check_reader, check_text, check_with, history_digest,
};
