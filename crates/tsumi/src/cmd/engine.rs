//! `tsumi gtp` (Go, GTP version 2) and `tsumi htp` (Hex, benzene's HTP): the engines of the
//! `engine` crate on standard input and output, for GUIs (Sabaki, GoGui, HexGui), GNU Go and
//! referees. Each reads commands until `quit` or the end of its input (both exit 0).

use anyhow::{Context, bail};
use clap::Args;
use engine::{GoEngine, GoSettings, GtpEngine, HexEngine, HexSettings, HtpEngine};
use games::go::{Komi, Size};

/// Options of `tsumi gtp`.
#[derive(Args, Debug)]
pub struct GtpArgs {
    /// Board size at the start ("N" or "RxC", R rows and C columns; GTP `boardsize` changes
    /// it).
    #[arg(long, default_value = "5")]
    pub size: String,
    /// Komi at the start (a multiple of 0.5; GTP `komi` changes it).
    #[arg(long, default_value = "7.5", allow_hyphen_values = true)]
    pub komi: String,
    /// Expansions per solver question for `genmove` and the analyze commands (0: no limit).
    #[arg(long, default_value_t = 1_000_000)]
    pub solve_budget: u64,
    /// Never ask the solver: `genmove` plays the MCPS player's move.
    #[arg(long)]
    pub no_solve: bool,
    /// Seconds for the whole solve of one position (0: no time limit).
    #[arg(long, default_value_t = 10.0)]
    pub solve_seconds: f64,
    /// Solver transposition table in MiB (allocated at the first solve, kept across moves).
    #[arg(long, default_value_t = 64)]
    pub tt_mib: usize,
    /// MCPS playouts per move when the position does not solve within the budget.
    #[arg(long, default_value_t = 1000)]
    pub playouts: u64,
    /// Seed of the MCPS player.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Resign when the solver proves the side to move loses at the komi.
    #[arg(long)]
    pub resign: bool,
}

/// Options of `tsumi htp`.
#[derive(Args, Debug)]
pub struct HtpArgs {
    /// Board size at the start ("N", or a rectangle with its sides named, "4rx5c" for 4
    /// rows and 5 columns; HTP `boardsize W H` changes it).
    #[arg(long, default_value = "5")]
    pub size: String,
    /// Expansions per proof of `dfpn-solve-state`, `dfpn-get-pv` and `genmove` (0: no limit).
    #[arg(long, default_value_t = 200_000)]
    pub solve_budget: u64,
    /// Seconds per proof (0: no limit).
    #[arg(long, default_value_t = 10.0)]
    pub solve_seconds: f64,
    /// Memory of the prover's table in MiB.
    #[arg(long, default_value_t = 64)]
    pub tt_mib: usize,
    /// MCPS playouts per move when no winning move is proven.
    #[arg(long, default_value_t = 1000)]
    pub playouts: u64,
    /// Seed of the MCPS player.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

fn check_common(solve_seconds: f64, tt_mib: usize, playouts: u64) -> anyhow::Result<()> {
    if !(solve_seconds.is_finite() && solve_seconds >= 0.0) {
        bail!("--solve-seconds {solve_seconds} is not a finite number ≥ 0");
    }
    if tt_mib == 0 {
        bail!("--tt-mib must be at least 1");
    }
    crate::go_input::check_tt_mib(tt_mib)?;
    if playouts == 0 {
        bail!("--playouts must be at least 1");
    }
    Ok(())
}

/// Runs `tsumi gtp`.
///
/// # Errors
/// A bad option (status 2) or a read/write error of the standard streams.
pub fn run_gtp(args: &GtpArgs) -> anyhow::Result<()> {
    check_common(args.solve_seconds, args.tt_mib, args.playouts)?;
    let size = Size::parse(&args.size)?;
    let komi: Komi = args.komi.parse()?;
    let settings = GoSettings {
        komi,
        solve: !args.no_solve,
        solve_budget: args.solve_budget,
        solve_seconds: args.solve_seconds,
        tt_mib: args.tt_mib,
        playouts: args.playouts,
        seed: args.seed,
        resign: args.resign,
    };
    // `printsgf FILE` through the atomic writer of every other output file.
    let mut gtp = GtpEngine::new(GoEngine::new(size, settings)).with_file_writer(|path, text| {
        crate::result_file::write_text(path, "SGF file", text).map_err(|e| format!("{e:#}"))
    });
    engine::serve(
        &mut gtp,
        std::io::BufReader::new(std::io::stdin()),
        std::io::stdout().lock(),
    )
    .context("gtp session")
}

/// Runs `tsumi htp`.
///
/// # Errors
/// A bad option (status 2) or a read/write error of the standard streams.
pub fn run_htp(args: &HtpArgs) -> anyhow::Result<()> {
    check_common(args.solve_seconds, args.tt_mib, args.playouts)?;
    // Rows x columns, as every size option; "WxH" was read the other way round before.
    let (h, w) =
        games::dims::parse_rows_cols(&args.size, true).map_err(|e| anyhow::anyhow!("{e}"))?;
    let settings = HexSettings {
        solve_budget: args.solve_budget,
        solve_seconds: args.solve_seconds,
        tt_mib: args.tt_mib,
        playouts: args.playouts,
        seed: args.seed,
    };
    let hex = HexEngine::new(w, h, settings).map_err(|e| anyhow::anyhow!("{e}"))?;
    let mut htp = HtpEngine::new(hex);
    engine::serve(
        &mut htp,
        std::io::BufReader::new(std::io::stdin()),
        std::io::stdout().lock(),
    )
    .context("htp session")
}
