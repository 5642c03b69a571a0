//! The commands that answer for several games or engines, dispatched in one place: `prove`
//! through the game registry ([`crate::registry::GameId`]) to the Go solver (`prove_go.rs`)
//! or the proof-number family (`generic_prove.rs`), and `solve` to its engine (`solve.rs`'s
//! oracle or `solve_dfpn.rs`). The argument modules (`prove.rs`, `solve.rs`) sit below the
//! back ends, and this module above them, so no two modules import each other.

use crate::prove::{ProveArgs, no_knowledge_refusal};
use crate::registry::{GameId, Use};
use crate::solve::SolveArgs;
use anyhow::bail;

/// Runs `tsumi prove`.
///
/// # Errors
/// An unknown game, bad input or an option that does not apply (status 2); no answer within
/// the budget ([`crate::exit::Unknown`], status 3).
pub fn prove(args: &ProveArgs) -> anyhow::Result<()> {
    let game = GameId::parse_for(&args.game, Use::Prove)?;
    if let Some(m) = args.tt_mib {
        crate::prove_go::check_tt_mib(m)?;
    }
    crate::prove_go::check_epsilon(args.epsilon)?;
    if !(args.seconds >= 0.0 && args.seconds.is_finite()) {
        bail!(
            "--seconds {} is not a finite non-negative number of seconds",
            args.seconds
        );
    }
    if args.no_knowledge && game == GameId::Go {
        bail!("{}", no_knowledge_refusal(game.name()));
    }
    if args.certificate.is_some() && game != GameId::Go {
        bail!("--certificate applies to go only, not to {}", game.name());
    }
    if args.out.is_some() && game != GameId::Go {
        bail!("--out applies to go only, not to {}", game.name());
    }
    if args.proof_sgf.is_some() && game != GameId::Go {
        bail!("--proof-sgf applies to go only, not to {}", game.name());
    }
    match game {
        GameId::Go => crate::prove_go::run(args),
        other => crate::generic_prove::run(args, other),
    }
}

/// Runs `tsumi solve`.
///
/// # Errors
/// Unsupported game or size, bad input (SGF, moves, komi), an option that does not apply to
/// the engine (status 2); an exhausted budget or Ctrl-C, after printing what is known
/// ([`crate::exit::Unknown`], status 3).
pub fn solve(args: &SolveArgs) -> anyhow::Result<()> {
    crate::solve::check(args)?;
    match args.engine.as_str() {
        "oracle" if args.certificate.is_some() => {
            bail!("--certificate applies to the dfpn engine, not to the oracle")
        }
        "oracle" if args.proof_sgf.is_some() => {
            bail!("--proof-sgf applies to the dfpn engine, not to the oracle")
        }
        "oracle" => crate::solve::run_oracle(args),
        "dfpn" => crate::solve_dfpn::run(args),
        other => bail!("unknown engine '{other}' (expected dfpn or oracle)"),
    }
}
