//! `tsumi prove GAME SIZE --algo pns|wpns|pn2|dfpn|pds|fdfpn` for the games of `games` other
//! than Go: hex, tictactoe, connect4, nogo, atarigo.
//!
//! SIZE is **width × height** for these games (`connect4 5x4` is 5 columns, 4 rows; `hex 6`
//! is 6×6). The answer is the value for the player to move after `--moves`: "win", "draw",
//! "loss", or "unknown" when the budget ran out. Games with draws (tic-tac-toe, Connect Four)
//! take two binary proofs: "can the mover force a win?" and, if not, "can the mover avoid a
//! loss?". Focused df-pn orders Hex moves by circuit resistance and other games' moves in
//! their natural order. `--threats` (Hex only) starts new nodes from Hex knowledge: a winning
//! cell or a bridge chain wins, two winning cells or a bridge chain of the opponent lose
//! ([`pns::HexThreats`]); `wpns` keeps it next to its mobility initialisation.

use crate::prove::ProveArgs;
use anyhow::{Context, anyhow, bail};
use games::Game;
use games::atarigo::AtariGo;
use games::connect4::Connect4;
use games::hex::Hex;
use games::nogo::NoGo;
use games::tictactoe::TicTacToe;
use pns::{
    Algorithm, Budget, HexThreats, NaturalOrder, Prover, ResistanceOrder, Settings, Solution, solve,
};
use std::io::IsTerminal;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// The Go options of `prove`, refused for the other games by name (the first given).
fn go_option_given(args: &ProveArgs) -> Option<&'static str> {
    [
        ("--komi", args.komi.is_some()),
        ("--winner", args.winner.is_some()),
        ("--sgf", args.sgf.is_some()),
        ("--samples", args.samples.is_some()),
        ("--prior", args.prior.is_some()),
    ]
    .into_iter()
    .find_map(|(flag, given)| given.then_some(flag))
    .or_else(|| args.knowledge.given())
}

/// Runs `tsumi prove` for a game other than Go; `game` is the lowercase game name.
///
/// # Errors
/// Bad input or an option that does not apply (status 2); no answer within the budget
/// ([`crate::exit::Unknown`], status 3, after the report).
pub fn run(args: &ProveArgs, game: &str) -> anyhow::Result<()> {
    if let Some(flag) = go_option_given(args) {
        bail!("{flag} applies to Go only, not to {game}");
    }
    let algorithm: Algorithm = args.algo.as_deref().unwrap_or("dfpn").parse()?;
    use Algorithm::{DfPn, FocusedDfPn, Pds, Pn2, Pns};
    // Each algorithm's own parameters, refused by name for the others.
    let applies = [
        (
            "--epsilon",
            args.epsilon.is_some(),
            matches!(algorithm, DfPn | FocusedDfPn),
            "dfpn and fdfpn",
        ),
        (
            "--base",
            args.base.is_some(),
            algorithm == FocusedDfPn,
            "fdfpn",
        ),
        (
            "--factor",
            args.factor.is_some(),
            algorithm == FocusedDfPn,
            "fdfpn",
        ),
        (
            "--pn2-fraction",
            args.pn2_fraction.is_some(),
            algorithm == Pn2,
            "pn2",
        ),
        (
            "--weak",
            args.weak,
            matches!(algorithm, Pns | Pn2 | DfPn | Pds),
            "pns, pn2, dfpn and pds",
        ),
    ];
    if let Some((flag, _, _, to)) = applies.iter().find(|(_, given, ok, _)| *given && !*ok) {
        bail!("{flag} does not apply to --algo {algorithm} (only to {to})");
    }
    let factor = args.factor.unwrap_or(0.2);
    if !(factor.is_finite() && factor >= 0.0) {
        bail!("--factor {factor} is not a finite number ≥ 0");
    }
    if args.base == Some(0) {
        bail!("--base 0: focused df-pn must search at least one child (--base 1 or more)");
    }
    let pn2_fraction = args.pn2_fraction.unwrap_or(1.0);
    if !(pn2_fraction.is_finite() && pn2_fraction > 0.0) {
        bail!("--pn2-fraction {pn2_fraction} is not a finite positive number");
    }
    let settings = Settings {
        algorithm,
        mobility: args.mobility,
        weak: args.weak,
        epsilon: args.epsilon.unwrap_or(0.25),
        base: args.base.unwrap_or(1),
        factor,
        pn2_fraction,
    };
    let budget = Budget {
        max_expansions: args.max_expansions,
        max_time: (args.seconds > 0.0).then(|| Duration::from_secs_f64(args.seconds)),
        max_mib: args.tt_mib.unwrap_or(256),
        progress: Some(progress_line()),
        cancel: Some(crate::interrupt::cancel_flag()),
    };
    if args.threats && game != "hex" {
        bail!("--threats is Hex knowledge: it applies to hex only");
    }
    let s = &settings;
    let natural = NaturalOrder;
    match game {
        "hex" => {
            let prover = if args.threats {
                s.prover_with::<Hex>(Box::new(ResistanceOrder), Box::new(HexThreats))
            } else {
                s.prover::<Hex>(Box::new(ResistanceOrder))
            };
            run_game(
                &Hex::from_size(&args.size)?,
                args,
                s,
                prover,
                &budget,
                false,
            )
        }
        "tictactoe" => {
            let game = TicTacToe::from_size(&args.size)?;
            run_game(&game, args, s, s.prover(Box::new(natural)), &budget, true)
        }
        "connect4" => {
            let game = Connect4::from_size(&args.size)?;
            run_game(&game, args, s, s.prover(Box::new(natural)), &budget, true)
        }
        "nogo" => {
            let game = NoGo::from_size(&args.size)?;
            run_game(&game, args, s, s.prover(Box::new(natural)), &budget, false)
        }
        "atarigo" => {
            let game = AtariGo::from_size(&args.size)?;
            run_game(&game, args, s, s.prover(Box::new(natural)), &budget, false)
        }
        other => {
            bail!("unknown game '{other}': expected go, hex, tictactoe, connect4, nogo or atarigo")
        }
    }
}

/// A progress callback: on a terminal one line rewritten every second, otherwise one line
/// every ten seconds.
fn progress_line() -> pns::budget::ProgressFn {
    let tty = std::io::stderr().is_terminal();
    let calls = Arc::new(AtomicU64::new(0));
    Arc::new(move |p: &pns::Progress| {
        let n = calls.fetch_add(1, Ordering::Relaxed);
        let secs = p.elapsed.as_secs_f64();
        let line = format!(
            "prove: {secs:.0} s, {} expansions ({:.0}/s), {} nodes",
            p.expansions,
            p.expansions as f64 / secs.max(1e-9),
            p.nodes
        );
        if tty {
            eprint!("\r{line}   ");
        } else if n % 10 == 9 {
            eprintln!("{line}");
        }
    })
}

fn run_game<G: Game>(
    game: &G,
    args: &ProveArgs,
    settings: &Settings,
    mut prover: Box<dyn Prover<G> + '_>,
    budget: &Budget,
    draws: bool,
) -> anyhow::Result<()> {
    let mut state = game.initial();
    for text in args.moves.iter().filter(|m| !m.trim().is_empty()) {
        let mv = game.parse_move(&state, text).map_err(|e| anyhow!(e))?;
        game.play(&mut state, mv);
    }
    let solution = solve(prover.as_mut(), game, &state, budget, draws);
    if solution.time() >= Duration::from_secs(1) && std::io::stderr().is_terminal() {
        eprintln!();
    }
    let mover = game.to_move(&state);
    if args.json {
        println!(
            "{}",
            serde_json::to_string(&report_json(game, args, settings, &state, &solution))
                .context("json")?
        );
        return no_answer(&solution);
    }
    let result = solution.value.map_or("unknown", |v| v.name());
    println!(
        "{} {}: {result} for {mover} (the player to move), by {}",
        game.name(),
        args.size,
        settings.algorithm
    );
    if let Some(m) = solution.best_move {
        println!("best move: {m}");
    }
    let time = solution.time().as_secs_f64();
    println!(
        "expansions: {}, peak nodes: {}, time: {time:.3} s ({:.0} expansions/s)",
        solution.expansions(),
        solution.peak_nodes(),
        solution.expansions() as f64 / time.max(1e-9)
    );
    for (q, p) in &solution.proofs {
        let stop = p
            .stopped
            .map(|s| format!(", stopped by the {} limit", s.name()))
            .unwrap_or_default();
        println!(
            "  {q} {} ({} expansions{stop})",
            p.answer.name(),
            p.expansions
        );
    }
    no_answer(&solution)
}

/// `Ok` for an answer; for none, the [`crate::exit::Unknown`] naming the limit that stopped
/// the search (status 3).
fn no_answer<M>(solution: &Solution<M>) -> anyhow::Result<()> {
    if solution.value.is_some() {
        return Ok(());
    }
    let stop = solution.proofs.iter().find_map(|(_, p)| p.stopped);
    if stop == Some(pns::budget::Stop::Interrupted) {
        return Err(crate::exit::unknown(
            "interrupted: Ctrl-C stopped the search before an answer",
        ));
    }
    let limit = stop.map_or("a", pns::budget::Stop::name);
    Err(crate::exit::unknown(format!(
        "budget exhausted: the {limit} limit stopped the search before an answer"
    )))
}

fn report_json<G: Game>(
    game: &G,
    args: &ProveArgs,
    settings: &Settings,
    state: &G::State,
    solution: &Solution<G::Move>,
) -> serde_json::Value {
    let proofs: Vec<serde_json::Value> = solution
        .proofs
        .iter()
        .map(|(q, p)| {
            serde_json::json!({
                "question": match q.goal { pns::Goal::Win => "win", pns::Goal::WinOrDraw => "avoid_loss" },
                "player": q.player.name(),
                "answer": p.answer.name(),
                "best_move": p.best_move.map(|m| m.to_string()),
                "expansions": p.expansions,
                "peak_nodes": p.peak_nodes,
                "time_s": p.time.as_secs_f64(),
                "stopped": p.stopped.map(|s| s.name()),
            })
        })
        .collect();
    serde_json::json!({
        "game": game.name(),
        "size": args.size,
        "moves": args.moves,
        "to_move": game.to_move(state).name(),
        "algo": settings.algorithm.name(),
        "status": if solution.value.is_some() { "proven" } else { "unknown" },
        "result": solution.value.map_or("unknown", |v| v.name()),
        "best_move": solution.best_move.map(|m| m.to_string()),
        "expansions": solution.expansions(),
        "peak_nodes": solution.peak_nodes(),
        "time_s": solution.time().as_secs_f64(),
        "proofs": proofs,
    })
}
