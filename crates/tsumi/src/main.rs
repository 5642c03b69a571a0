//! `tsumi`: the command line. Thin: parses arguments and calls the library crates.

mod arena_cmd;
mod bench;
mod fit_prior;
mod generic_prove;
mod go_input;
mod interrupt;
mod prove;
mod prove_go;
mod solve;
mod solve_dfpn;

use clap::{Parser, Subcommand};

/// Solve small board games exactly and play them well.
#[derive(Parser, Debug)]
#[command(name = "tsumi", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Solve a Go board: its value under optimal play, best move and principal variation.
    Solve(solve::SolveArgs),
    /// Answer one question: does a player win (Go at a komi), or the outcome of another game.
    Prove(prove::ProveArgs),
    /// Play games between two Monte Carlo players and report the win rate.
    Match(arena_cmd::MatchArgs),
    /// Play a game against a Monte Carlo player in the terminal.
    Play(arena_cmd::PlayArgs),
    /// Benchmark the Go df-pn solver on standard boards (value checked, effort, time, memory).
    Bench(bench::BenchArgs),
    /// Fit the learned prior's weights to samples written by `bench --samples`.
    FitPrior(fit_prior::FitArgs),
}

fn main() {
    // Output piped into a program that stops reading (`tsumi bench | head -1`): end quietly,
    // as command-line tools do, instead of panicking in `println!`.
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let text = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or("");
        if text.contains("Broken pipe") {
            std::process::exit(141);
        }
        default_hook(info);
    }));
    let cli = Cli::parse();
    let result = match &cli.command {
        Command::Solve(a) => solve::run(a),
        Command::Prove(a) => prove::run(a),
        Command::Match(a) => arena_cmd::run_match(a),
        Command::Play(a) => arena_cmd::run_play(a),
        Command::Bench(a) => bench::run(a),
        Command::FitPrior(a) => fit_prior::run(a),
    };
    if let Err(e) = result {
        eprintln!("error: {e:#}");
        std::process::exit(2);
    }
}
