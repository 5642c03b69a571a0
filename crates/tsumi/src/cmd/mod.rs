//! One module per subcommand, named after it: the command line's map. A module holds the
//! command's arguments (clap's `Args`) and its `run`; a folder holds a command with parts
//! (`prove`: the Go and the proof-number back ends; `solve`: the oracle and df-pn; `campaign`;
//! `referee` with its GTP client; `selftest`'s checks). `arena` serves `match` and `play`,
//! `engine` serves `gtp` and `htp`.

pub mod analysis;
pub mod arena;
pub mod bench;
pub mod bench_suites;
pub mod campaign;
pub mod check;
pub mod engine;
pub mod fit_prior;
pub mod prove;
pub mod referee;
pub mod selftest;
pub mod solve;
pub mod train_hexnet;
pub mod tsumego;
