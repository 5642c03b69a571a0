//! The engine object of tsumi and the text protocols that drive it.
//!
//! - [`go_engine`]: [`GoEngine`], the Go engine (KataGo's `AsyncBot` shape): the rules
//!   (area scoring, suicide illegal, positional superko, komi), the position with its full
//!   history, and a player that plays a proven optimal move when the position solves within a
//!   budget (gosolve df-pn) and the MCPS player's move otherwise.
//! - [`analysis`]: live analysis of the root moves (playouts, then each move's exact value
//!   in turn), for the GTP analysis commands and KataGo's analysis JSON protocol.
//! - [`gtp`]: the GTP version 2 commands of the Go engine (with GoGui's analyze commands).
//! - [`gtp_analyze`]: the GTP analysis commands (`lz-analyze`, `kata-analyze`, Sabaki's
//!   `analyze`, the `genmove_analyze` variants); [`kata_rules`]: KataGo's rules object.
//! - [`kata_analysis`]: KataGo's analysis JSON protocol (`tsumi analysis`, KaTrain).
//! - [`kata_analysis`]: KataGo's analysis JSON protocol (`tsumi analysis`, KaTrain).
//! - [`hex_engine`]: [`HexEngine`] and its HTP commands (benzene's conventions), with the
//!   `pns` focused df-pn and the Hex knowledge of `pns::hexknow` behind `dfpn-solve-state`.
//! - [`playout_guess`]: a first guess of a Go value from UCT playouts, for the komi
//!   bisection of the solves (where the playouts separate the komis: one-row boards).
//! - [`protocol`]: the framing both protocols share (ids, `=`/`?` replies, empty lines,
//!   comments, end of input).

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
