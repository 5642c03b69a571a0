//! `tsumi prove go RxC --komi K [--winner black|white] [--moves ...] [--json]`: one question
//! to the df-pn solver of `gosolve` — does the player win from this position at this komi?
//!
//! Also the pieces `solve` and `bench` share with it: the Ctrl-C flag, the progress line on
//! stderr (after one second), table statistics, and resident memory.

use crate::interrupt::cancel_flag;
pub use crate::knowledge_args::KnowledgeArgs;
use crate::prove::ProveArgs;
use anyhow::{Context, bail};
use games::Player;
use games::go::Komi;
use gosolve::position::reference;
use gosolve::search::{PriorKind, Progress};
use gosolve::{Answer, Config, Proof, Solver};
use serde_json::json;
use std::io::IsTerminal;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

/// The prior of `solve`, `prove` and `bench` when `--prior` is not given: the learned
/// logistic model (fewer expansions than the area-margin prior on every bench board measured
/// but 1x7; docs/log/2026-12-06-bench-boards.md).
pub const DEFAULT_PRIOR: &str = "learned";

/// The base of the tables `solve` and `prove` choose by themselves, in MiB (the smallest
/// they choose is 15/16 of it, see [`table_mib`]).
pub const MIN_AUTO_TT_MIB: usize = 16;

/// The table size in MiB: `requested` if given, else chosen from the board and the memory
/// available: 15/16 of 16 MiB × 2^(points − 11) (15 MiB up to 11 points, 480 MiB on 4x4,
/// 7.5 GiB on 4x5; on one-row boards of 64 MiB × 2^(points − 7)), at most three quarters of
/// the available memory (a power of two). The sixteenth left over keeps the whole process
/// (paths, the prior's tables, the allocator) inside the power of two: 4x5 within 8 GiB
/// resident. The second value
/// says how it was chosen, for the progress line and the JSON.
#[must_use]
pub fn table_mib(requested: Option<usize>, points: usize, linear: bool) -> (usize, String) {
    let avail_mib = available_memory_bytes().map(|b| (b >> 20) as usize);
    table_mib_within(requested, points, linear, avail_mib)
}

/// [`table_mib`] with the memory available given: `avail_mib` MiB (`None`: unknown, no
/// cap). `campaign plan` passes the share of one job on a node.
#[must_use]
pub fn table_mib_within(
    requested: Option<usize>,
    points: usize,
    linear: bool,
    avail_mib: Option<usize>,
) -> (usize, String) {
    if let Some(m) = requested {
        return (m, "--tt-mib".into());
    }
    // One-row boards have far more distinct nodes per point (capture-recapture lines):
    // 64 MiB × 2^(points − 7) there (1x12: 2 GiB, of which 15/16 is 1,920 MiB).
    let power = if linear {
        (4 * MIN_AUTO_TT_MIB) << points.saturating_sub(7).min(20)
    } else {
        MIN_AUTO_TT_MIB << points.saturating_sub(11).min(20)
    };
    let want = power - power / 16;
    let cap = avail_mib.map_or(usize::MAX, |a| {
        let c = a / 4 * 3;
        if c == 0 { 1 } else { 1usize << c.ilog2() }
    });
    let mib = want.min(cap).max(1);
    let why = match avail_mib {
        Some(a) if mib < want => {
            format!("auto: {points} points want {want} MiB, capped to 3/4 of {a} MiB available")
        }
        Some(a) => format!("auto: {points} points ({a} MiB available)"),
        None => format!("auto: {points} points"),
    };
    (mib, why)
}

/// The memory a table may take, in bytes: `MemAvailable` of /proc/meminfo (Linux), and
/// under a virtual-memory limit (`ulimit -v`, as clusters set) at most half of the limit
/// (the rest is for the thread stacks, reserved whole, and the program); `None` if neither
/// is known.
#[must_use]
pub fn available_memory_bytes() -> Option<u64> {
    let free = proc_kib_field("/proc/meminfo", "MemAvailable:");
    match (free, address_space_limit_bytes()) {
        (Some(f), Some(l)) => Some(f.min(l / 2)),
        (f, l) => f.or(l.map(|l| l / 2)),
    }
}

/// The soft limit of the process's virtual memory (`ulimit -v`, `RLIMIT_AS`) in bytes, from
/// /proc/self/limits; `None` when unlimited or unknown.
#[must_use]
pub fn address_space_limit_bytes() -> Option<u64> {
    std::fs::read_to_string("/proc/self/limits")
        .ok()?
        .lines()
        .find_map(|l| l.strip_prefix("Max address space"))
        .and_then(|v| v.split_whitespace().next()?.parse::<u64>().ok())
}

/// Budgets in seconds above this (about 31 years) mean "no practical limit" (a `Duration`
/// cannot hold every finite f64).
pub const MAX_SECONDS: f64 = 1e9;

/// The largest board the df-pn engine accepts, in points.
pub const DFPN_MAX_POINTS: usize = 30;

/// Refuses boards on which the df-pn solver would not be exact.
///
/// # Errors
/// A board above [`DFPN_MAX_POINTS`] points: its 64-bit Zobrist position keys are linearly
/// independent (so exact) only up to 30 points, and proof attributes are packed for at most
/// 32, so larger boards are refused rather than solved with hash identity.
pub fn check_dfpn_size(rows: usize, cols: usize) -> anyhow::Result<()> {
    let points = rows * cols;
    if points > DFPN_MAX_POINTS {
        bail!(
            "{rows}x{cols} has {points} points: the df-pn solver is exact only up to {DFPN_MAX_POINTS} points (its 64-bit position keys are independent only that far); `solve --engine oracle` answers positions of larger boards that have few empty points"
        );
    }
    Ok(())
}

/// ε of the 1+ε rule for Go when the command line does not set one (the Sanko paper's).
pub const GO_EPSILON: f64 = 0.3;

/// Seconds between plain progress lines when stderr is not a terminal (a log file, a pipe).
pub const LOG_PROGRESS_EVERY_S: f64 = 10.0;

/// Paces progress lines: on a terminal every call rewrites one line in place (`\r`); when
/// stderr is not a terminal, a plain line at most every [`LOG_PROGRESS_EVERY_S`] seconds
/// (of wall time since the pacer was made), so logs stay readable.
pub struct ProgressPacer {
    tty: bool,
    start: std::time::Instant,
    /// Wall seconds since `start` of the last plain line (non-terminal only).
    last: std::sync::Mutex<f64>,
}

impl ProgressPacer {
    /// A pacer for stderr as it is now.
    #[must_use]
    pub fn new() -> Self {
        Self {
            tty: std::io::stderr().is_terminal(),
            start: std::time::Instant::now(),
            last: std::sync::Mutex::new(0.0),
        }
    }

    /// Whether stderr is a terminal (lines are rewritten in place).
    #[must_use]
    pub const fn is_terminal(&self) -> bool {
        self.tty
    }

    /// Shows `line`: rewritten in place on a terminal, else printed if the last plain line is
    /// at least [`LOG_PROGRESS_EVERY_S`] seconds old.
    pub fn show(&self, line: &str) {
        if self.tty {
            eprint!("\r{line}      ");
            return;
        }
        let now = self.start.elapsed().as_secs_f64();
        let mut last = self
            .last
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if now - *last >= LOG_PROGRESS_EVERY_S {
            *last = now;
            eprintln!("{line}");
        }
    }
}

impl Default for ProgressPacer {
    fn default() -> Self {
        Self::new()
    }
}

/// A progress callback printing one line on stderr once a search has run for more than a
/// second: overwritten in place on a terminal, else a plain line every ten seconds at most
/// ([`ProgressPacer`]). `label` names the question.
pub fn progress_line(label: String) -> Arc<dyn Fn(&Progress) + Send + Sync> {
    let pacer = ProgressPacer::new();
    Arc::new(move |p: &Progress| {
        if p.elapsed >= 1.0 {
            let mut line = format!(
                "{label}: {} expansions, {} nodes, {:.0} exp/s, {:.1}s, root φ {} δ {}, table {:.0}% full, {:.0} evictions/s",
                p.expansions,
                p.nodes,
                p.expansions as f64 / p.elapsed,
                p.elapsed,
                short(p.root.0),
                short(p.root.1),
                100.0 * p.table_fill,
                p.evictions as f64 / p.elapsed,
            );
            if let Some(s) = p.since_shallow_proof {
                line.push_str(&format!(", proof at depth ≤ 2 {s:.0}s ago"));
            }
            match &p.checkpoint {
                Some((age, Some(Ok(_)))) => line.push_str(&format!(", checkpoint {age:.0}s ago")),
                Some((_, Some(Err(e)))) => line.push_str(&format!(", checkpoint FAILED: {e}")),
                Some((_, None)) => line.push_str(", no checkpoint yet"),
                None => {}
            }
            pacer.show(&line);
        }
    })
}

/// Ends a progress line (if one was rewritten in place on a terminal).
pub fn end_progress(time_s: f64) {
    if time_s >= 1.0 && std::io::stderr().is_terminal() {
        eprintln!();
    }
}

/// The smallest `--tt-mib` accepted: a 1 MiB table holds tens of thousands of entries;
/// below it the table rounds down to a few slots and the search thrashes.
pub const MIN_TT_MIB: usize = 1;

/// Checks a `--tt-mib` value: at least [`MIN_TT_MIB`], and allocatable
/// ([`crate::go_input::check_tt_mib`]).
///
/// # Errors
/// A one-line message naming `--tt-mib`.
pub fn check_tt_mib(mib: usize) -> anyhow::Result<()> {
    if mib < MIN_TT_MIB {
        bail!("--tt-mib {mib} is below the minimum table size of {MIN_TT_MIB} MiB");
    }
    crate::go_input::check_tt_mib(mib)
}

/// Checks an `--epsilon` value: a finite number ≥ 0 (ε of the 1+ε threshold rule).
///
/// # Errors
/// A one-line message naming `--epsilon`.
pub fn check_epsilon(epsilon: Option<f64>) -> anyhow::Result<()> {
    match epsilon {
        Some(e) if !(e.is_finite() && e >= 0.0) => {
            bail!("--epsilon {e} is not a finite number ≥ 0")
        }
        _ => Ok(()),
    }
}

fn short(x: u64) -> String {
    if x == u64::MAX {
        "inf".into()
    } else {
        x.to_string()
    }
}

/// Resident set size of this process and its peak, in bytes (Linux; zeros elsewhere).
#[must_use]
pub fn resident_memory() -> (u64, u64) {
    let field = |name| proc_kib_field("/proc/self/status", name).unwrap_or(0);
    (field("VmRSS:"), field("VmHWM:"))
}

/// CPU time of this process (user and system, all threads), in seconds (Linux; 0 elsewhere).
#[must_use]
pub fn cpu_seconds() -> f64 {
    // Fields 14 and 15 of /proc/self/stat, in clock ticks of 1/100 s (USER_HZ); the command
    // name (field 2) may hold spaces, so count from its closing parenthesis.
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return 0.0;
    };
    let Some(rest) = stat.rfind(')').map(|i| &stat[i + 1..]) else {
        return 0.0;
    };
    let f: Vec<&str> = rest.split_whitespace().collect();
    let tick = |i: usize| f.get(i).and_then(|v| v.parse::<u64>().ok()).unwrap_or(0);
    (tick(11) + tick(12)) as f64 / 100.0
}

/// A "Name: N kB" line of a /proc file, in bytes (Linux), or `None`.
fn proc_kib_field(path: &str, name: &str) -> Option<u64> {
    std::fs::read_to_string(path)
        .ok()?
        .lines()
        .find_map(|l| l.strip_prefix(name))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .map(|kb| kb * 1024)
}

/// The solver's table statistics as JSON.
#[must_use]
pub fn table_json(solver: &Solver) -> serde_json::Value {
    let t = solver.table_stats();
    json!({
        "mib": solver.table_bytes() as f64 / f64::from(1u32 << 20),
        "slots": solver.table_capacity(),
        "used": t.used,
        "proven": t.proven_used,
        "probes": t.probes,
        "proven_hits": t.proven_hits,
        "unproven_hits": t.unproven_hits,
        "cross_komi_hits": t.cross_komi_hits,
        "stores": t.stores,
        "evictions": t.evictions,
    })
}

/// One line of table statistics for people.
#[must_use]
pub fn table_text(solver: &Solver) -> String {
    let t = solver.table_stats();
    format!(
        "table: {:.0} MiB, {} of {} slots used ({} proofs), {} probes, {} proof hits, {} number hits ({} of another komi), {} evictions",
        solver.table_bytes() as f64 / f64::from(1u32 << 20),
        t.used,
        solver.table_capacity(),
        t.proven_used,
        t.probes,
        t.proven_hits,
        t.unproven_hits,
        t.cross_komi_hits,
        t.evictions
    )
}

/// A proof as JSON (the `proofs` items of `solve --json`).
#[must_use]
pub fn proof_json(p: &Proof) -> serde_json::Value {
    json!({
        "winner": p.proven_winner().map_or("unknown", Player::name),
        "asked": p.winner.name(),
        "komi": komi_number(Komi::from_half_points(p.komi2)),
        "result": p.answer.name(),
        "expansions": p.expansions,
        "nodes": p.nodes,
        "revisit_factor": p.revisit_factor(),
        "time_s": p.time_s,
        "threads": p.threads,
        "pruned": p.pruned,
        // The strongest komi the proof holds at for its winner (its scores and areas).
        "holds_komi": (p.answer != Answer::Unknown)
            .then(|| Komi::from_half_points(p.holds).to_string().parse::<f64>().unwrap_or(0.0)),
    })
}

/// The largest scale of the learned prior that `--prior learned:S/SD` accepts: the numbers
/// 1 + S·(−ln p) stay below their cap of 2^40 (p ≥ 10⁻¹², so −ln p ≤ 27.7). Above it one
/// number can saturate while the other does not, and the search runs away (measured:
/// `learned:1/1e14` took 1x7 58.3 M expansions against 2,128 at the default).
pub const MAX_LEARNED_SCALE: f64 = 1_000_000.0;

/// Parses a prior: "score", "learned" (the default, [`DEFAULT_PRIOR`]), "uniform", "score:SLOPE:SCALE",
/// "learned:SCALE" or "learned:SCALE:FILE" (weights written by `tsumi fit-prior --out FILE`),
/// where SCALE is one scale S for both numbers or "S/SD" (φ's scale S, δ's scale SD; the
/// default "learned" is 576/192), each scale a positive number at most [`MAX_LEARNED_SCALE`].
///
/// # Errors
/// A one-line message for anything else, or for a weights file that cannot be read.
pub fn parse_prior(text: &str) -> anyhow::Result<PriorKind> {
    let positive = |name: &str, v: &str| -> anyhow::Result<f64> {
        match v.parse::<f64>() {
            Ok(x) if x.is_finite() && x > 0.0 => Ok(x),
            _ => bail!("{name} '{v}' in prior '{text}' is not a positive finite number"),
        }
    };
    // "S" (one scale for both numbers) or "S/SD" (φ's scale, then δ's), each at most
    // MAX_LEARNED_SCALE.
    let bounded = |name: &str, v: &str| -> anyhow::Result<f64> {
        let x = positive(name, v)?;
        if x > MAX_LEARNED_SCALE {
            bail!("{name} '{v}' in prior '{text}' is above {MAX_LEARNED_SCALE}");
        }
        Ok(x)
    };
    let scales = |v: &str| -> anyhow::Result<(f64, f64)> {
        match v.split_once('/') {
            Some((a, b)) => Ok((bounded("scale", a)?, bounded("disproof scale", b)?)),
            None => {
                let s = bounded("scale", v)?;
                Ok((s, s))
            }
        }
    };
    let f: Vec<&str> = text.splitn(3, ':').collect();
    match f.as_slice() {
        ["learned", _, ""] => bail!("prior '{text}' names an empty weights file"),
        ["learned", scale, path] => {
            let (scale, disproof_scale) = scales(scale)?;
            Ok(PriorKind::Learned {
                scale,
                disproof_scale,
                weights: read_weights(std::path::Path::new(path))?,
            })
        }
        ["uniform"] => Ok(PriorKind::Uniform),
        ["score"] => Ok(PriorKind::SCORE),
        ["learned"] => Ok(PriorKind::LEARNED),
        ["learned", scale] => {
            let (scale, disproof_scale) = scales(scale)?;
            Ok(PriorKind::Learned {
                weights: gosolve::prior::LEARNED_WEIGHTS,
                scale,
                disproof_scale,
            })
        }
        ["score", slope, scale] => Ok(PriorKind::Score {
            slope: positive("slope", slope)?,
            scale: positive("scale", scale)?,
        }),
        _ => bail!(
            "unknown prior '{text}' (expected uniform, score, learned, score:SLOPE:SCALE, learned:SCALE or learned:SCALE:FILE, where SCALE is S or S/SD)"
        ),
    }
}

/// Reads the weights of the learned prior from a file: numbers separated by commas, spaces,
/// tabs or newlines (brackets and a leading `weights:` are ignored), as many as
/// [`gosolve::prior::FEATURES`].
///
/// # Errors
/// A missing file, a bad number or a wrong count: a one-line message naming the file.
pub fn read_weights(path: &std::path::Path) -> anyhow::Result<[f64; gosolve::prior::FEATURES]> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read prior weights {}", path.display()))?;
    let text = text.trim().trim_start_matches("weights:");
    let vals: Vec<f64> = text
        .split(|c: char| c == ',' || c == '[' || c == ']' || c.is_whitespace())
        .filter(|t| !t.is_empty())
        .map(|t| {
            t.parse::<f64>()
                .with_context(|| format!("{}: bad weight '{t}'", path.display()))
        })
        .collect::<anyhow::Result<_>>()?;
    let n = gosolve::prior::FEATURES;
    let Ok(w) = <[f64; gosolve::prior::FEATURES]>::try_from(vals.as_slice()) else {
        bail!(
            "{}: expected {n} weights, found {}",
            path.display(),
            vals.len()
        );
    };
    if w.iter().any(|v| !v.is_finite() || v.abs() > MAX_WEIGHT) {
        bail!(
            "{}: weights must be finite numbers of magnitude at most {MAX_WEIGHT}",
            path.display()
        );
    }
    Ok(w)
}

/// The largest weight magnitude `read_weights` accepts: features lie in [−1, 1] (the margin
/// in [−2, 2]), so larger weights only saturate the logistic.
pub const MAX_WEIGHT: f64 = 1000.0;

/// Appends the solver's training samples of the learned prior to `path` (one line each:
/// 1 or 0 for "the mover won", then the features, tab-separated).
///
/// # Errors
/// The file cannot be opened or written: a one-line message naming it.
pub fn write_samples(solver: &mut Solver, path: &std::path::Path) -> anyhow::Result<()> {
    use std::io::Write;
    let mut out = String::new();
    // A file that does not end its last line gets one first, so no sample is glued to it.
    if let Ok(mut f) = std::fs::File::open(path) {
        use std::io::{Read, Seek, SeekFrom};
        let mut last = [0u8; 1];
        if f.seek(SeekFrom::End(-1)).is_ok() && f.read_exact(&mut last).is_ok() && last[0] != b'\n'
        {
            out.push('\n');
        }
    }
    for (f, y) in solver.take_samples() {
        out.push_str(if y { "1" } else { "0" });
        for v in f {
            out.push('\t');
            out.push_str(&format!("{v}"));
        }
        out.push('\n');
    }
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .and_then(|mut f| f.write_all(out.as_bytes()))
        .with_context(|| format!("cannot write samples to {}", path.display()))
}

/// The solver configuration from the budget flags.
#[must_use]
pub fn config(max_expansions: u64, seconds: f64, epsilon: f64, label: String) -> Config {
    Config {
        epsilon,
        max_expansions,
        max_time: (seconds > 0.0).then(|| Duration::from_secs_f64(seconds.min(MAX_SECONDS))),
        cancel: Some(cancel_flag()),
        progress: Some(progress_line(label)),
        prior: PriorKind::DEFAULT,
        ..Config::default()
    }
}

fn parse_winner(text: Option<&str>, to_move: Player) -> anyhow::Result<Player> {
    match text.map(str::to_ascii_lowercase).as_deref() {
        None => Ok(to_move),
        Some("black" | "b") => Ok(Player::Black),
        Some("white" | "w") => Ok(Player::White),
        Some(other) => bail!("unknown --winner '{other}' (expected black or white)"),
    }
}

/// The options of `prove` for the other games, refused for Go by name (the first given).
fn generic_option_given(args: &ProveArgs) -> Option<&'static str> {
    [
        ("--mobility", args.mobility),
        ("--threats", args.threats),
        ("--weak", args.weak),
        ("--base", args.base.is_some()),
        ("--factor", args.factor.is_some()),
        ("--pn2-fraction", args.pn2_fraction.is_some()),
    ]
    .into_iter()
    .find_map(|(flag, given)| given.then_some(flag))
}

/// Runs `tsumi prove go ...`.
///
/// # Errors
/// Bad size, SGF, moves, komi or winner, or an option of the other games: a one-line message
/// (status 2). No answer (budget, Ctrl-C, or a pruned side that found no win): after the
/// report, a [`crate::exit::Unknown`] (status 3).
pub fn run(args: &ProveArgs) -> anyhow::Result<()> {
    if let Some(flag) = generic_option_given(args) {
        bail!("{flag} applies to the games other than Go, not to go");
    }
    // The network options are Hex's: refused by name, never ignored.
    crate::hex_nets::check(&args.nets, "go", pns::Algorithm::DfPn)?;
    if let Some(algo) = args.algo.as_deref()
        && algo != "dfpn"
    {
        bail!("--algo {algo} does not apply to go: Go is proved by df-pn only");
    }
    let epsilon = args.epsilon.unwrap_or(GO_EPSILON);
    let pos = crate::go_input::go_position(
        &args.size,
        args.sgf.as_deref(),
        &args.moves,
        args.komi.as_deref(),
        64,
    )?;
    if args.komi.is_none() && args.sgf.is_none() {
        bail!("prove go needs --komi (a half-integer such as 2.5)");
    }
    let komi = pos.rules().komi;
    if komi.half_points() % 2 == 0 {
        if args.komi.is_none() {
            bail!(
                "the SGF file's komi {komi} (KM) is not a half-integer: a drawn game would answer neither question; give --komi, e.g. --komi {}",
                Komi::from_half_points(komi.half_points() + 1)
            );
        }
        bail!("komi {komi} is not a half-integer: a drawn game would answer neither question");
    }
    check_dfpn_size(pos.size().rows() as usize, pos.size().cols() as usize)?;
    let (geo, line) = line_of(&pos, args.sgf.is_none(), &args.moves)?;
    let winner = parse_winner(args.winner.as_deref(), pos.to_move())?;
    let asked = format!("prove {} at komi {komi}", winner.name());
    args.checkpoints.check(&geo, &line, &asked)?;
    let question = json!({
        "board": pos.size().to_string(),
        "sgf": args.sgf.as_ref().map(|p| p.display().to_string()),
        "moves": normalized_moves(&pos, &args.moves),
        "komi": komi_number(komi),
        "winner": winner.name(),
    });
    // Every output is checked before the search, so that no answer is lost to a bad path.
    for (path, what) in [
        (&args.out, "result file"),
        (&args.certificate, "certificate"),
        (&args.proof_sgf, "proof SGF"),
    ] {
        if let Some(p) = path {
            crate::result_file::check_target(p, what)?;
        }
    }
    let _marker = match &args.out {
        Some(out) => {
            if args.skip_if_done && skip_done(out, &question, args.json) {
                return Ok(());
            }
            crate::result_file::start_marker(out)?;
            Some(crate::result_file::MarkerGuard(out.clone()))
        }
        None => None,
    };
    let label = format!("prove {} at komi {komi}", winner.name());
    let mut cfg = config(args.max_expansions, args.seconds, epsilon, label);
    args.knowledge.apply(&mut cfg);
    cfg.prior = parse_prior(args.prior.as_deref().unwrap_or(DEFAULT_PRIOR)).context("--prior")?;
    if args.samples.is_some() {
        cfg.sample_every = 8;
    }
    let (tt_mib, tt_why) = table_mib(
        args.tt_mib,
        geo.points(),
        geo.rows() == 1 || geo.cols() == 1,
    );
    check_tt_mib(tt_mib)?;
    if !args.json {
        eprintln!("table: {tt_mib} MiB ({tt_why})");
    }
    let mut solver = Solver::new(geo.clone(), tt_mib, cfg);
    args.checkpoints
        .resume(&mut solver, &line, &asked, args.json)?;
    let plan = args.checkpoints.plan(&solver, &line, &asked);
    solver.config_mut().checkpoint.clone_from(&plan);
    let mut p = solver.prove(&line, winner, komi.half_points());
    end_progress(p.time_s);
    let mut pruned_first = None;
    if p.pruned_loss {
        // Pruning is incomplete (it can hide the only good move): ask again unpruned, so
        // that `--prune` never turns a solvable question into an unknown one.
        if !args.json {
            eprintln!(
                "the pruned search found no win for {}: asking again unpruned",
                winner.name()
            );
        }
        pruned_first = Some(p);
        solver.config_mut().prune = false;
        p = solver.prove(&line, winner, komi.half_points());
        end_progress(p.time_s);
    }
    // Saved before anything else is written, so that an answer or an interrupt keeps its
    // proofs; a failed save is reported after the answer (exit status 2).
    let saved = crate::checkpoint_args::save_final(&solver, plan.as_deref(), args.json);
    if let Some(path) = &args.samples {
        write_samples(&mut solver, path)?;
    }
    let interrupted = cancel_flag().load(Ordering::Relaxed);
    let best = p.best_move.map(|m| geo.move_name(m));
    let proven = p.answer != Answer::Unknown;
    // Why there is no answer (None when there is one).
    let why = (!proven).then(|| {
        if p.pruned_loss {
            format!(
                "no answer: the search with the moves of {} pruned found no win (try without --prune)",
                winner.name()
            )
        } else if interrupted {
            format!("interrupted after {} expansions", p.expansions)
        } else if args.max_expansions > 0 && p.expansions >= args.max_expansions {
            format!("budget exhausted: {} expansions", args.max_expansions)
        } else {
            format!("time limit reached: {} s", args.seconds)
        }
    });
    if args.json || args.out.is_some() {
        let mut table = table_json(&solver);
        table["chosen"] = tt_why.clone().into();
        let mut v = json!({
            "game": "go",
            "board": format!("{}x{}", geo.rows(), geo.cols()),
            "komi": komi_number(komi),
            "to_move": pos.to_move().name(),
            "winner": winner.name(),
            "status": if proven { "proven" } else { "unknown" },
            "result": p.answer.name(),
            "best_move": best,
            "expansions": p.expansions,
            "nodes": p.nodes,
            "revisit_factor": p.revisit_factor(),
            "time_s": p.time_s,
            "threads": p.threads,
            "cpu_s": cpu_seconds(),
            "interrupted": interrupted,
            "table": table,
            "knowledge": knowledge_json(&solver),
            "pruned_loss": p.pruned_loss,
            "pruned": p.pruned,
            "pruned_first": pruned_first.map(|q| proof_json(&q)),
        });
        if let Some(w) = &why {
            v["reason"] = json!(w);
        }
        let (rss, peak) = resident_memory();
        v["resident_bytes"] = json!(rss);
        v["peak_resident_bytes"] = json!(peak);
        for (k, x) in question.as_object().into_iter().flatten() {
            v[k] = x.clone();
        }
        if let Some(out) = &args.out {
            let argv: Vec<String> = std::env::args().collect();
            v["command"] = json!(crate::result_file::shell_line(&argv));
            v["version"] = json!(env!("CARGO_PKG_VERSION"));
            crate::result_file::write_atomic(out, &format!("{v}\n"))?;
        }
        if args.json {
            println!("{v}");
        }
    }
    if !args.json {
        let verdict = match p.answer {
            Answer::Win => format!("{} wins", winner.name()),
            Answer::Loss => format!("{} loses", winner.name()),
            Answer::Unknown if p.pruned_loss => format!(
                "unknown whether {} wins (the search with its moves pruned found no win)",
                winner.name()
            ),
            Answer::Unknown => format!(
                "unknown whether {} wins (budget or interrupt)",
                winner.name()
            ),
        };
        println!(
            "{}x{} at komi {komi}, {} to move: {verdict}",
            geo.rows(),
            geo.cols(),
            pos.to_move().name()
        );
        if let Some(b) = best {
            println!("winning move for {}: {b}", pos.to_move().name());
        }
        println!(
            "result: {}\nexpansions: {}\nnodes: {} (revisit factor {:.2})\ntime_s: {:.3}",
            p.answer.name(),
            p.expansions,
            p.nodes,
            p.revisit_factor(),
            p.time_s
        );
        println!("threads: {} (cpu_s {:.3})", p.threads, cpu_seconds());
        println!("{}", table_text(&solver));
        println!("{}", knowledge_text(&solver));
    }
    if let Some(mut w) = why {
        if let Err(e) = &saved {
            eprintln!("error: {e:#}");
        }
        // No proof: the files asked for are not written, and the message says so.
        for (flag, asked) in [
            ("--certificate", args.certificate.is_some()),
            ("--proof-sgf", args.proof_sgf.is_some()),
        ] {
            if asked {
                w.push_str(&format!(
                    "; {flag}: no proof to write (the answer is unknown)"
                ));
            }
        }
        return Err(crate::exit::unknown(w));
    }
    // The proof's files come after the answer is printed: a Ctrl-C while they are written
    // (status 3) or a write error (status 2) leaves the answer on the screen.
    if let Some(path) = &args.certificate {
        let format = if args.certificate_format == "compact" {
            gosolve::certificate::CertificateFormat::Compact
        } else {
            gosolve::certificate::CertificateFormat::Text
        };
        let r = crate::check_cmd::write_go(&mut solver, &line, &p, path, format);
        let what = format!("the certificate {}", path.display());
        crate::interrupt::unless_interrupted(r, &what)?;
    }
    if let Some(path) = &args.proof_sgf {
        let r = crate::proof_sgf::write_go(&mut solver, &line, &p, path);
        let what = format!("the proof SGF {}", path.display());
        crate::interrupt::unless_interrupted(r, &what)?;
    }
    saved?;
    Ok(())
}

/// The solver's line of `pos`; when it was given by `--moves` alone, with those moves kept
/// (certificates then name the root by its moves).
///
/// # Errors
/// A move that does not parse on this board (already rejected when `pos` was built, so
/// never silently dropped here), or a board the df-pn solver does not take.
pub(crate) fn line_of(
    pos: &games::go::Position,
    by_moves: bool,
    moves: &[String],
) -> anyhow::Result<(gosolve::Geometry, gosolve::Line)> {
    let parsed = if by_moves {
        parsed_moves(pos, moves)?
    } else {
        Vec::new()
    };
    reference::line_with_moves(pos, &parsed).context("board for the df-pn solver")
}

/// The `--moves` list parsed on `pos`'s board (empty items dropped; legality is checked
/// where the moves are played).
///
/// # Errors
/// An item that is not a point of the board or "pass": one line naming it.
pub(crate) fn parsed_moves(
    pos: &games::go::Position,
    moves: &[String],
) -> anyhow::Result<Vec<games::go::Move>> {
    move_items(moves)
        .map(|m| {
            pos.size()
                .parse_move(m)
                .map_err(|e| anyhow::anyhow!("--moves: {m}: {e}"))
        })
        .collect()
}

/// The non-empty items of a `--moves` list, trimmed.
fn move_items(moves: &[String]) -> impl Iterator<Item = &str> {
    moves.iter().map(|m| m.trim()).filter(|m| !m.is_empty())
}

/// The `--moves` list as the board names them ("b2" → "B2", "PASS" → "pass"), empty items
/// dropped: the form a campaign's plan and a result file compare.
fn normalized_moves(pos: &games::go::Position, moves: &[String]) -> Vec<String> {
    move_items(moves)
        .map(|m| {
            pos.size()
                .parse_move(m)
                .map_or_else(|_| m.to_string(), |mv| mv.to_string())
        })
        .collect()
}

/// With `--skip-if-done`: whether `out` already holds a proven answer to `question`; if so
/// says so (the stored JSON on stdout with `--json`, a line on stderr otherwise).
fn skip_done(out: &std::path::Path, question: &serde_json::Value, json: bool) -> bool {
    let Some(done) = crate::result_file::read(out) else {
        return false;
    };
    if !crate::result_file::proves(&done, question) {
        return false;
    }
    eprintln!(
        "skipped: {} already holds a proven answer ({} {}s)",
        out.display(),
        done["winner"].as_str().unwrap_or("?"),
        if done["result"] == "win" {
            "win"
        } else {
            "lose"
        }
    );
    if json {
        println!("{done}");
    }
    true
}

/// A komi as a JSON number of points (e.g. 2.5).
#[must_use]
pub fn komi_number(komi: Komi) -> f64 {
    f64::from(komi.half_points()) / 2.0
}

/// The counters of proof transfer and static knowledge as JSON.
#[must_use]
pub fn knowledge_json(solver: &Solver) -> serde_json::Value {
    let k = solver.knowledge_stats();
    json!({
        "transfer_tests": k.transfer_tests,
        "transfers": k.transfers,
        "static_leaves": k.static_leaves,
        "region_leaves": k.region_leaves,
        "pruned_moves": k.pruned_moves,
        "transferable_proofs": k.transferable_proofs,
        "targeted_proofs": k.targeted_proofs,
        "many_target_proofs": k.many_target_proofs,
    })
}

/// One line of proof-transfer and static-knowledge counters for people.
#[must_use]
pub fn knowledge_text(solver: &Solver) -> String {
    let k = solver.knowledge_stats();
    format!(
        "knowledge: {} transfers of {} transfer tests, {} static leaves, {} region leaves, {} pruned moves; proofs stored: {} transferable, {} with one exclusion target, {} with several or a symmetry merge",
        k.transfers,
        k.transfer_tests,
        k.static_leaves,
        k.region_leaves,
        k.pruned_moves,
        k.transferable_proofs,
        k.targeted_proofs,
        k.many_target_proofs
    )
}
