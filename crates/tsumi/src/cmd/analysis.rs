//! `tsumi analysis`: KataGo's analysis engine protocol (one JSON query a line on standard
//! input, one JSON response a line on standard output) over the Go engine, for KaTrain's
//! `altcommand` setting and other tools written for `katago analysis`. The protocol and the
//! meaning of the numbers are in `engine::kata_analysis` and docs/analysis.md.

use anyhow::{Context, bail};
use clap::Args;
use engine::GoSettings;
use engine::kata_analysis::{Perspective, ServerSettings, serve_analysis};
use games::go::Komi;

/// Options of `tsumi analysis`.
#[derive(Args, Debug)]
pub struct AnalysisArgs {
    /// The work of one turn when a query gives no `maxVisits`: playouts plus solver
    /// expansions.
    #[arg(long, default_value_t = 1_000_000)]
    pub max_visits: u64,
    /// Whose win rates and score leads are reported when a query does not say
    /// (`overrideSettings.reportAnalysisWinratesAs`): BLACK, WHITE or SIDETOMOVE.
    #[arg(long, default_value = "BLACK")]
    pub report_as: String,
    /// MCPS playouts a turn before the solver (at most a quarter of the turn's work).
    #[arg(long, default_value_t = 1000)]
    pub playouts: u64,
    /// Solver transposition table in MiB (kept across queries of one board size).
    #[arg(long, default_value_t = 64)]
    pub tt_mib: usize,
    /// Never ask the solver: Monte Carlo statistics only.
    #[arg(long)]
    pub no_solve: bool,
    /// Seed of the playouts.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Accepted and ignored, so that KataGo's command line (`analysis -config FILE -model
    /// FILE`) can be replaced word for word.
    #[arg(long = "config", alias = "model", hide = true)]
    pub ignored: Vec<String>,
}

/// Runs `tsumi analysis`.
///
/// # Errors
/// A bad option (status 2) or a read/write error of the standard streams.
pub fn run(args: &AnalysisArgs) -> anyhow::Result<()> {
    if args.max_visits == 0 {
        bail!("--max-visits must be at least 1");
    }
    if args.tt_mib == 0 {
        bail!("--tt-mib must be at least 1");
    }
    crate::go_input::check_tt_mib(args.tt_mib)?;
    let report_as: Perspective = args
        .report_as
        .parse()
        .map_err(|e: String| anyhow::anyhow!(e))?;
    let settings = ServerSettings {
        go: GoSettings {
            komi: Komi::from_half_points(15),
            solve: !args.no_solve,
            solve_budget: 0,
            solve_seconds: 0.0,
            tt_mib: args.tt_mib,
            playouts: args.playouts,
            seed: args.seed,
            resign: false,
        },
        max_visits: args.max_visits,
        report_as,
    };
    serve_analysis(
        &settings,
        std::io::BufReader::new(std::io::stdin()),
        std::io::stdout(),
    )
    .context("analysis session")
}
