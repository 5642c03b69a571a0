//! `tsumi match` and `tsumi play`: the Monte Carlo arena (being written).

use clap::Args;

/// Arguments of `tsumi match`.
#[derive(Args, Debug)]
pub struct MatchArgs {}

/// Arguments of `tsumi play`.
#[derive(Args, Debug)]
pub struct PlayArgs {}

/// Runs `tsumi match`.
pub fn run_match(_args: &MatchArgs) -> anyhow::Result<()> {
    anyhow::bail!("match is not implemented yet")
}

/// Runs `tsumi play`.
pub fn run_play(_args: &PlayArgs) -> anyhow::Result<()> {
    anyhow::bail!("play is not implemented yet")
}
