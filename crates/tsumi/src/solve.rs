//! `tsumi solve go RxC`: the main job (being written).

use clap::Args;

/// Arguments of `tsumi solve`.
#[derive(Args, Debug)]
pub struct SolveArgs {}

/// Runs `tsumi solve`.
pub fn run(_args: &SolveArgs) -> anyhow::Result<()> {
    anyhow::bail!("solve is not implemented yet")
}
