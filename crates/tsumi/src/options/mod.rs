//! Option groups shared by several commands, flattened into their arguments with
//! `#[command(flatten)]`.

pub mod checkpoint;
pub mod knowledge;
pub mod output;
