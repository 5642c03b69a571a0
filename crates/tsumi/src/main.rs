#![doc = include_str!("../README.md")]

mod cmd;
mod exit;
mod go_config;
mod go_input;
mod interrupt;
mod options;
mod prior;
mod progress;
mod proof_sgf;
mod registry;
mod report;
mod result_file;
mod system;

use clap::{Parser, Subcommand};
use cmd::{
    analysis, arena, bench, campaign, check, engine, fit_prior, prove, referee, selftest, solve,
    train_hexnet, tsumego,
};
use gosolve::stack::StackThreadError;

/// Solve small board games exactly and play them well.
#[derive(Parser, Debug)]
#[command(
    name = "tsumi",
    version,
    about,
    after_help = "Exit status: 0 answered; 2 error (bad input, an option that does not apply, \
a file or write error); 3 no answer (budget exhausted or interrupted; what is known is \
printed); 130 a second Ctrl-C; 141 standard output closed (a pipe)."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

// Parsed once per run: the size of the largest arguments does not matter.
#[allow(clippy::large_enum_variant)]
#[derive(Subcommand, Debug)]
enum Command {
    /// Solve a Go board: its value under optimal play, best move and principal variation.
    Solve(solve::SolveArgs),
    /// Answer one question: does a player win (Go at a komi), or the outcome of another game.
    Prove(prove::ProveArgs),
    /// Play games between two Monte Carlo players and report the win rate.
    Match(arena::MatchArgs),
    /// Play a game against a Monte Carlo player in the terminal.
    Play(arena::PlayArgs),
    /// Benchmark the Go df-pn solver on standard boards (value checked, effort, time, memory).
    Bench(bench::BenchArgs),
    /// Fit the learned prior's weights to samples written by `bench --samples`.
    FitPrior(fit_prior::FitArgs),
    /// Train the Hex policy and value networks from MCTS self-play (seeded, repeatable).
    TrainHexnet(train_hexnet::TrainHexnetArgs),
    /// Check a Go proof certificate with the independent checker (no solver code).
    Check(check::CheckArgs),
    /// Check the solver against the oracle, the oracle mode and the certificate checker.
    Selftest(selftest::SelftestArgs),
    /// Play Go over GTP version 2 on stdin/stdout (Sabaki, GoGui, GNU Go, referees).
    Gtp(engine::GtpArgs),
    /// Answer KataGo's analysis JSON protocol on stdin/stdout (KaTrain, analysis tools).
    Analysis(analysis::AnalysisArgs),
    /// Play Hex over HTP (benzene's GTP dialect) on stdin/stdout (HexGui).
    Htp(engine::HtpArgs),
    /// Split one Go question into `prove` jobs for GNU parallel or Slurm, and merge them.
    Campaign(campaign::CampaignArgs),
    /// Play two GTP engines against each other (Go, the solver's rules), with SGF records.
    Referee(referee::RefereeArgs),
    /// Solve a capture or life-and-death problem from SGF (λ-search, λ-df-pn or df-pn).
    Tsumego(tsumego::TsumegoArgs),
}

/// Stack of the thread that runs a command, in bytes (virtual; pages are touched on use),
/// when the virtual memory is not limited.
const COMMAND_STACK_BYTES: usize = 1 << 30;

/// The command thread's stack: [`COMMAND_STACK_BYTES`], or under a virtual-memory limit
/// (`ulimit -v`) an eighth of it (at least 64 MiB), so that the table and the search threads'
/// stacks still fit: a stack is reserved whole, however little of it is used.
fn command_stack_bytes() -> usize {
    match system::address_space_limit_bytes() {
        Some(limit) => {
            let eighth = usize::try_from(limit / 8).unwrap_or(usize::MAX);
            eighth.clamp(64 << 20, COMMAND_STACK_BYTES)
        }
        None => COMMAND_STACK_BYTES,
    }
}

fn run(command: &Command) -> anyhow::Result<()> {
    match command {
        Command::Solve(a) => solve::run(a),
        Command::Prove(a) => prove::run(a),
        Command::Match(a) => arena::run_match(a),
        Command::Play(a) => arena::run_play(a),
        Command::Bench(a) => bench::run(a),
        Command::FitPrior(a) => fit_prior::run(a),
        Command::TrainHexnet(a) => train_hexnet::run(a),
        Command::Check(a) => check::run(a),
        Command::Selftest(a) => selftest::run(a),
        Command::Gtp(a) => engine::run_gtp(a),
        Command::Analysis(a) => analysis::run(a),
        Command::Htp(a) => engine::run_htp(a),
        Command::Campaign(a) => campaign::run(a),
        Command::Referee(a) => referee::run(a),
        Command::Tsumego(a) => tsumego::run(a),
    }
}

fn main() {
    exit::install_write_error_hook();
    let cli = Cli::parse();
    // Ctrl-C: the flag's handler for every command; the commands that do not poll it end
    // with status 3 at the first Ctrl-C (`interrupt.rs`).
    match &cli.command {
        Command::Gtp(_) => interrupt::exit_on_first("gtp"),
        Command::Htp(_) => interrupt::exit_on_first("htp"),
        Command::Check(_) => interrupt::exit_on_first("check"),
        Command::FitPrior(_) => interrupt::exit_on_first("fit-prior"),
        Command::TrainHexnet(_) => interrupt::exit_on_first("train-hexnet"),
        Command::Campaign(_) => interrupt::exit_on_first("campaign"),
        Command::Play(_) => interrupt::exit_on_first("play"),
        _ => drop(interrupt::cancel_flag()),
    }
    // Every command runs on a thread with a large stack: the searches recurse once per ply,
    // and games on linear boards run to thousands of plies (only the pages used are
    // resident).
    let stack = command_stack_bytes();
    let result = gosolve::stack::run_with_stack("tsumi", stack, || run(&cli.command))
        .map_err(|e| match e {
            StackThreadError::Spawn { source, .. } => anyhow::Error::new(source).context(format!(
                "cannot start the command's thread with a {} MiB stack (virtual memory: ulimit -v)",
                stack >> 20
            )),
            StackThreadError::Panicked => anyhow::anyhow!("internal error: the command panicked"),
        })
        .and_then(|r| r)
        .and_then(|()| exit::flush_stdout());
    if let Err(e) = result {
        let status = exit::status_of(&e);
        if status != exit::BROKEN_PIPE {
            eprintln!("error: {e:#}");
        }
        std::process::exit(status);
    }
}
