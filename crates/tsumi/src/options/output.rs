//! `--json`: the output option group of the commands that print one answer, as one JSON
//! object instead of text.

use clap::Args;

/// The output format of a command's answer.
#[derive(Args, Clone, Copy, Debug, Default)]
pub struct OutputArgs {
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}
