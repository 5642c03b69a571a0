//! `tsumi prove GAME SIZE --algo ...` for the games of `games` other than Go (being written).

use crate::prove::ProveArgs;

/// Runs `tsumi prove` for a game other than Go.
pub fn run(args: &ProveArgs) -> anyhow::Result<()> {
    anyhow::bail!("unsupported game '{}'", args.game)
}
