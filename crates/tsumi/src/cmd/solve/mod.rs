//! `tsumi solve go RxC`: the main job. A position's value (Black's area minus White's area
//! under optimal play, positional superko, Chinese area scoring, suicide illegal), a best
//! move, a principal variation that replays legally to the end of the game, and the effort.

pub mod dfpn;

use crate::go_input::go_position;
use anyhow::bail;
use clap::Args;
use games::go::Position;
use gosolve::oracle::{Oracle, OracleError};
use serde::Serialize;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

/// Arguments of `tsumi solve`. The dfpn-only options are `Option`s with their defaults
/// applied by the dfpn engine, so that the oracle can refuse them by name.
#[derive(Args, Debug)]
#[command(after_help = SOLVE_AFTER_HELP)]
pub struct SolveArgs {
    /// The game (only "go", any letter case).
    pub game: String,
    /// Board size: "RxC" (R rows, C columns; GTP coordinates) or "N" for N×N.
    pub size: String,
    /// Komi (a multiple of 0.5, added to White): also answer whether Black wins at it.
    #[arg(long, allow_hyphen_values = true)]
    pub komi: Option<String>,
    /// Start from the position of this SGF file (its main line).
    #[arg(long)]
    pub sgf: Option<PathBuf>,
    /// Moves to play first, comma-separated GTP points or "pass", e.g. C3,D3,pass.
    #[arg(long, value_delimiter = ',')]
    pub moves: Vec<String>,
    /// Search engine: "dfpn" (df-pn under positional superko, value by two proofs) or
    /// "oracle" (exact brute-force minimax, the slow reference). dfpn takes boards up to 30
    /// points, the oracle up to 64.
    #[arg(long, default_value = "dfpn")]
    pub engine: String,
    /// Budget: for dfpn, expansions per question (0 = no limit); for the oracle, nodes in all
    /// (0 = its default of 50,000,000, which keeps its memo within memory).
    #[arg(long = "max-expansions", alias = "max-nodes", default_value_t = 0)]
    pub max_expansions: u64,
    /// Budget: seconds of wall time for the whole solve, all questions together (0 = no
    /// limit).
    #[arg(long, default_value_t = 0.0, allow_hyphen_values = true)]
    pub seconds: f64,
    /// dfpn: transposition table size in MiB, allocated at once (at least 1). Default: chosen
    /// from the board and the free memory (15/16 of 16 MiB × 2^(points − 11), at most 3/4 of the
    /// available memory), printed on stderr and in the JSON's table.
    #[arg(long)]
    pub tt_mib: Option<usize>,
    /// dfpn: ε of the 1+ε threshold rule, a finite number ≥ 0 [default: 0.3].
    #[arg(long, allow_hyphen_values = true)]
    pub epsilon: Option<f64>,
    /// The output format (`--json`).
    #[command(flatten)]
    pub output: crate::options::output::OutputArgs,
    /// dfpn: initial numbers of new nodes: "score", "learned", "uniform",
    /// "score:SLOPE:SCALE", "learned:SCALE" or "learned:SCALE:FILE", SCALE being S or S/SD
    /// (φ's and δ's scales) [default: learned, 576/192].
    #[arg(long)]
    pub prior: Option<String>,
    /// dfpn: a guess of the value (points for Black): the first question asks whether Black
    /// wins at komi GUESS − ½, then the bisection goes on. It orders the questions only; a
    /// full-board guess (e.g. 20 on 4x5) needs no White proof when it is right.
    #[arg(long, allow_hyphen_values = true)]
    pub guess: Option<i32>,
    /// dfpn: write a certificate of each deciding proof (Black at v − ½, White at v + ½)
    /// into this directory (created if needed), for `tsumi check`.
    #[arg(long)]
    pub certificate: Option<std::path::PathBuf>,
    /// dfpn: write each deciding proof as SGF into this directory (created if needed):
    /// `black-<v − ½>.sgf` and `white-<v + ½>.sgf`, as `prove go --proof-sgf` writes them.
    #[arg(long)]
    pub proof_sgf: Option<std::path::PathBuf>,
    /// dfpn: checkpoints of long runs.
    #[command(flatten)]
    pub checkpoints: crate::options::checkpoint::CheckpointArgs,
    /// dfpn: knowledge and ablation flags.
    #[command(flatten)]
    pub knowledge: crate::options::knowledge::KnowledgeArgs,
}

/// The exit statuses, in `tsumi solve --help`.
const SOLVE_AFTER_HELP: &str = "Exit status: 0 the value is known (printed with its proofs \
and PV); 2 error (bad input, an option that does not apply to the engine); 3 no answer (the \
budget or --seconds ran out, or Ctrl-C): the bounds proved so far are printed first, with \
\"status\":\"unknown\" in --json.";

/// The answer of `tsumi solve`, as printed with `--json`.
#[derive(Serialize, Debug)]
pub struct SolveReport {
    /// Board size, "RxC".
    pub board: String,
    /// Ko rule ("psk").
    pub rules: String,
    /// Side to move at the position solved.
    pub to_move: String,
    /// Black's area minus White's area under optimal play, in points.
    pub value: i32,
    /// Best move of the side to move (GTP or "pass"); null if the game is over.
    pub best_move: Option<String>,
    /// Principal variation to the end of the game.
    pub pv: Vec<String>,
    /// Total effort: nodes (calls of the recursive procedure).
    pub expansions: u64,
    /// Wall time in seconds.
    pub time_s: f64,
    /// The engine that produced the value.
    pub engine: String,
    /// "proven": the value is known (a run without one prints a partial object with
    /// "status": "unknown" and exits with status 3).
    pub status: &'static str,
    /// The komi asked about, if any, in points.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub komi: Option<f64>,
    /// Whether Black wins at that komi (value > komi); null for a draw at an integer komi.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub black_wins: Option<Option<bool>>,
    /// dfpn: the two proofs that establish the value (Black's at v − ½, White's at v + ½;
    /// only Black's for a full-board value), each with winner, komi, expansions, nodes, time.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub proofs: Option<Vec<serde_json::Value>>,
    /// dfpn: every question the komi bisection asked, in order.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub questions: Option<Vec<serde_json::Value>>,
    /// dfpn: distinct nodes expanded (all questions).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nodes: Option<u64>,
    /// dfpn: table statistics.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub table: Option<serde_json::Value>,
    /// dfpn: proof-transfer and static-knowledge counters, and the flags used.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub knowledge: Option<serde_json::Value>,
    /// dfpn: search threads per question (expansions and nodes are summed over them).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub threads: Option<usize>,
    /// dfpn: CPU time of the process (all threads), in seconds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cpu_s: Option<f64>,
    /// dfpn: where the first question of the komi bisection went: `{"source": "--guess" |
    /// "playouts" | "probes", "value", ...}` with the playouts' win rates or the probes' count
    /// and expansions.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first_guess: Option<serde_json::Value>,
}

/// Checks what every engine of `tsumi solve` needs: the game is Go, `--seconds` is a finite
/// number ≥ 0. The engine is chosen in [`run`].
///
/// # Errors
/// Unsupported game or a bad `--seconds` (status 2).
pub fn check(args: &SolveArgs) -> anyhow::Result<()> {
    if !args.game.eq_ignore_ascii_case("go") {
        bail!(
            "unsupported game '{}' for solve (only go; see `tsumi prove` for others)",
            args.game
        );
    }
    if !(args.seconds >= 0.0 && args.seconds.is_finite()) {
        bail!(
            "--seconds {} is not a finite non-negative number of seconds",
            args.seconds
        );
    }
    Ok(())
}

/// The stop flag of one solve: raised by Ctrl-C, or once `seconds` (> 0) of wall time have
/// passed since [`Stopper::start`]. A watcher thread polls both every few milliseconds, so
/// the time budget covers every question of the solve together.
pub struct Stopper {
    flag: Arc<AtomicBool>,
    timed_out: Arc<AtomicBool>,
    done: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Stopper {
    /// Starts the clock; `seconds` 0 means no time limit (Ctrl-C only).
    #[must_use]
    pub fn start(seconds: f64) -> Self {
        let flag = Arc::new(AtomicBool::new(false));
        let timed_out = Arc::new(AtomicBool::new(false));
        let done = Arc::new(AtomicBool::new(false));
        let deadline = (seconds > 0.0).then(|| {
            std::time::Instant::now()
                + Duration::from_secs_f64(seconds.min(crate::go_config::MAX_SECONDS))
        });
        let (f, t, d) = (flag.clone(), timed_out.clone(), done.clone());
        let ctrl_c = crate::interrupt::cancel_flag();
        let thread = std::thread::spawn(move || {
            while !d.load(Ordering::Relaxed) {
                if ctrl_c.load(Ordering::Relaxed) {
                    f.store(true, Ordering::Relaxed);
                }
                if deadline.is_some_and(|end| std::time::Instant::now() >= end) {
                    t.store(true, Ordering::Relaxed);
                    f.store(true, Ordering::Relaxed);
                }
                std::thread::sleep(Duration::from_millis(5));
            }
        });
        Self {
            flag,
            timed_out,
            done,
            thread: Some(thread),
        }
    }

    /// The flag for the search's cancel option.
    #[must_use]
    pub fn flag(&self) -> Arc<AtomicBool> {
        self.flag.clone()
    }

    /// Stops the watcher; whether the time limit was reached.
    #[must_use]
    pub fn finish(mut self) -> bool {
        self.join();
        self.timed_out.load(Ordering::Relaxed)
    }

    fn join(&mut self) {
        self.done.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Drop for Stopper {
    fn drop(&mut self) {
        self.join();
    }
}

/// Why a solve has no answer: "interrupted" (Ctrl-C), "time limit" (`--seconds`) or "budget
/// exhausted" (`--max-expansions`).
#[must_use]
pub fn stop_reason(timed_out: bool) -> &'static str {
    if crate::interrupt::cancel_flag().load(Ordering::Relaxed) {
        "interrupted"
    } else if timed_out {
        "time limit"
    } else {
        "budget exhausted"
    }
}

impl SolveArgs {
    /// The position to solve, from the size, SGF, moves and komi flags.
    ///
    /// # Errors
    /// Bad size, SGF, moves or komi: a one-line message.
    pub fn position(&self) -> anyhow::Result<Position> {
        go_position(
            &self.size,
            self.sgf.as_deref(),
            &self.moves,
            self.komi.as_deref(),
            64,
        )
    }
}

/// The dfpn-only options of `solve`, refused by the oracle by name (the first given).
fn dfpn_option_given(args: &SolveArgs) -> Option<&'static str> {
    [
        ("--tt-mib", args.tt_mib.is_some()),
        ("--epsilon", args.epsilon.is_some()),
        ("--prior", args.prior.is_some()),
        ("--guess", args.guess.is_some()),
    ]
    .into_iter()
    .find_map(|(flag, given)| given.then_some(flag))
    .or_else(|| args.knowledge.given())
    .or_else(|| args.checkpoints.given())
}

/// Runs the oracle engine of `tsumi solve` (exact brute-force minimax).
///
/// # Errors
/// A dfpn-only option, bad input, an exhausted budget or Ctrl-C (after printing what is
/// known).
pub fn run_oracle(args: &SolveArgs) -> anyhow::Result<()> {
    if let Some(flag) = dfpn_option_given(args) {
        bail!("{flag} applies to the dfpn engine, not to the oracle");
    }
    let pos = args.position()?;
    let counter = Arc::new(AtomicU64::new(0));
    let done = Arc::new(AtomicBool::new(false));
    let spinner = crate::progress::progress_spinner(counter.clone(), done.clone(), "oracle");
    let stopper = Stopper::start(args.seconds);
    let mut oracle = Oracle::new()
        .with_cancel(stopper.flag())
        .with_progress(counter);
    if args.max_expansions > 0 {
        oracle = oracle.with_max_nodes(args.max_expansions);
    }
    let p2 = pos.clone();
    let start = std::time::Instant::now();
    // On the command's thread, whose stack `main` made large (deep games recurse deeply).
    let result = {
        let r = oracle.solve(&p2);
        (r, oracle.nodes())
    };
    let timed_out = stopper.finish();
    done.store(true, Ordering::Relaxed);
    let _ = spinner.join();
    let (result, nodes) = result;
    let r = match result {
        Ok(r) => r,
        Err(ref e @ (OracleError::Interrupted(_) | OracleError::Budget(_))) => {
            // Advice that never sends the user back and forth: dfpn only where it applies.
            let points = pos.size().points();
            let detail = match e {
                OracleError::Budget(_) if points <= crate::go_config::DFPN_MAX_POINTS => {
                    format!(" ({e}; the dfpn engine, the default, solves this board faster)")
                }
                OracleError::Budget(_) => format!(
                    " ({e}; the dfpn engine takes boards up to {} points only: on this {points}-point board the oracle answers positions with few empty points)",
                    crate::go_config::DFPN_MAX_POINTS
                ),
                _ => String::new(),
            };
            let why = stop_reason(timed_out);
            let time_s = start.elapsed().as_secs_f64();
            if args.output.json {
                let partial = serde_json::json!({
                    "board": pos.size().to_string(),
                    "engine": "oracle",
                    "status": "unknown",
                    "reason": why,
                    "value": null,
                    "expansions": nodes,
                    "time_s": time_s,
                });
                println!("{partial}");
            } else {
                println!(
                    "{why}: no value known for {} after {nodes} nodes in {time_s:.3} s (oracle)",
                    pos.size()
                );
            }
            return Err(crate::exit::unknown(format!(
                "{why}: no value known after {nodes} nodes{detail}"
            )));
        }
        Err(e) => bail!(e),
    };
    let komi = (args.komi.is_some() || args.sgf.is_some()).then(|| pos.rules().komi);
    let report = SolveReport {
        board: pos.size().to_string(),
        rules: pos.rules().ko.to_string(),
        to_move: pos.to_move().to_string(),
        value: r.value,
        best_move: r.best_move.map(|m| m.to_string()),
        pv: r.pv.iter().map(ToString::to_string).collect(),
        expansions: r.nodes,
        time_s: r.time_s,
        engine: "oracle".into(),
        status: "proven",
        komi: komi.map(crate::report::komi_number),
        black_wins: komi.map(|k| k.black_wins(r.value)),
        proofs: None,
        questions: None,
        nodes: None,
        table: None,
        knowledge: None,
        threads: None,
        cpu_s: None,
        first_guess: None,
    };
    check_pv(&pos, &report)?;
    print_report(&report, args.output.json);
    Ok(())
}

/// Replays the principal variation from `pos` and checks it ends the game with the value.
///
/// # Errors
/// If a PV move is illegal or the final score differs (a solver bug, never expected).
pub fn check_pv(pos: &Position, report: &SolveReport) -> anyhow::Result<()> {
    let mut p = pos.clone();
    for m in &report.pv {
        p.play_text(m)
            .map_err(|e| anyhow::anyhow!("internal error: PV move {m} does not replay: {e}"))?;
    }
    if !p.is_over() || p.score().margin() != report.value {
        bail!(
            "internal error: the PV ends with margin {} (over: {}), not the value {}",
            p.score().margin(),
            p.is_over(),
            report.value
        );
    }
    Ok(())
}

/// Prints a report as text or JSON.
pub fn print_report(r: &SolveReport, json: bool) {
    if json {
        println!("{}", serde_json::to_string(r).expect("report serialises"));
        return;
    }
    println!(
        "board      {} ({}, area scoring, {} to move)",
        r.board, r.rules, r.to_move
    );
    let who = match r.value.signum() {
        1 => format!("Black wins by {}", r.value),
        -1 => format!("White wins by {}", -r.value),
        _ => "jigo".to_string(),
    };
    println!("value      {:+} ({who}, komi 0)", r.value);
    if let (Some(k), Some(bw)) = (r.komi, r.black_wins) {
        let verdict = match bw {
            Some(true) => "Black wins",
            Some(false) => "White wins",
            None => "draw",
        };
        println!("komi {:<5} {verdict}", k.to_string());
    }
    println!(
        "best move  {}",
        r.best_move.as_deref().unwrap_or("(game over)")
    );
    println!("pv         {}", r.pv.join(" "));
    let unit = if r.engine == "dfpn" {
        "expansions"
    } else {
        "nodes"
    };
    let threads = match (r.threads, r.cpu_s) {
        (Some(t), Some(c)) => format!(
            ", {t} thread{}, {c:.3} s CPU",
            if t == 1 { "" } else { "s" }
        ),
        _ => String::new(),
    };
    println!(
        "effort     {} {unit} in {:.3} s ({}{threads})",
        r.expansions, r.time_s, r.engine
    );
}

/// Runs `tsumi solve`.
///
/// # Errors
/// Unsupported game or size, bad input (SGF, moves, komi), an option that does not apply to
/// the engine (status 2); an exhausted budget or Ctrl-C, after printing what is known
/// ([`crate::exit::Unknown`], status 3).
pub fn run(args: &SolveArgs) -> anyhow::Result<()> {
    check(args)?;
    match args.engine.as_str() {
        "oracle" if args.certificate.is_some() => {
            bail!("--certificate applies to the dfpn engine, not to the oracle")
        }
        "oracle" if args.proof_sgf.is_some() => {
            bail!("--proof-sgf applies to the dfpn engine, not to the oracle")
        }
        "oracle" => run_oracle(args),
        "dfpn" => dfpn::run(args),
        other => bail!("unknown engine '{other}' (expected dfpn or oracle)"),
    }
}
