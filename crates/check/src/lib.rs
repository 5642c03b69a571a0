//! An independent checker of tsumi's proof certificates for Go under positional superko.
//!
//! A certificate (format in [`format`]) is a proof DAG that a player wins a Go position at a
//! komi. This crate shares no code with the solver or the rules crate and uses only the
//! standard library: its own rules ([`rules`]: captures, suicide, area scoring, positional
//! superko against the real history of every line), its own pure-eye analysis with Lemma 1's
//! conditions (C1) and (C2) ([`eyes`]), and the exact conditions (i)–(iii) of Theorem 1 of
//! the Sanko paper for every reused node ([`verify`]), computed from the certificate itself.
//!
//! ```
//! // 1x1: a stone there is suicide, so both players can only pass; at komi 0.5 the empty
//! // board's 0-0 is White's. Black (the loser) passes, White (the winner) passes back.
//! let cert = "tsumi-certificate 1\nsize 1x1\nkomi 0.5\nwinner white\nstart moves\n\
//!             - . b0 all 1\npass . w1 win\npass . b2 end\nend 3\n";
//! let verdict = check::check_text(cert).unwrap();
//! assert_eq!(verdict.to_string(), "valid: white wins at komi 0.5 from the empty 1x1 board");
//! ```

pub mod eyes;
pub mod format;
pub mod rules;
pub mod verify;

pub use format::{Certificate, Limits, ParseError, VERSION, parse, parse_reader};
pub use rules::{Board, Color, Geometry};
pub use verify::{
    CheckError, Failure, Verdict, check, check_reader, check_text, check_with, history_digest,
};
