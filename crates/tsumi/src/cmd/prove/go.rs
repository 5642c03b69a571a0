//! `tsumi prove go RxC --komi K [--winner black|white] [--moves ...] [--json]`: one question
//! to the df-pn solver of `gosolve` — does the player win from this position at this komi?
//!
//! Also the table's size from the board and the memory (`solve` and `campaign` share it), and
//! the question's position from `--moves` (`solve` and `bench`).

use crate::cmd::prove::ProveArgs;
use crate::go_config::{check_dfpn_size, config};
use crate::interrupt::cancel_flag;
use crate::prior::{DEFAULT_PRIOR, parse_prior, write_samples};
use crate::progress::end_progress;
use crate::report::{
    ProveRecord, knowledge_json, knowledge_text, komi_number, proof_json, table_json, table_text,
};
use crate::system::{available_memory_bytes, cpu_seconds, resident_memory};
use anyhow::{Context, bail};
use games::Player;
use games::go::Komi;
use gosolve::{Answer, Played, Solver};
use serde_json::json;
use std::sync::atomic::Ordering;

/// The base of the tables `solve` and `prove` choose by themselves, in MiB (the smallest
/// they choose is 15/16 of it, see [`table_mib`]).
pub const MIN_AUTO_TT_MIB: usize = 16;

/// The table size in MiB: `requested` if given, else chosen from the board and the memory
/// available: 15/16 of 16 MiB × 2^(points − 11) (15 MiB up to 11 points, 480 MiB on 4x4,
/// 7.5 GiB on 4x5; on one-row boards of 64 MiB × 2^(points − 7)), at most three quarters of
/// the available memory (a power of two). The sixteenth left over is for the rest of the
/// process (paths, the prior's tables, each thread's region-game memo of up to 256 MiB,
/// the allocator): 4x5 with two threads peaks at 8.0 GiB resident (8,397,728 kB at
/// 1235383). The second value says how it was chosen, for the progress line and the JSON.
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
    crate::cmd::prove::hex_nets::check(&args.nets, "go", pns::Algorithm::DfPn)?;
    if let Some(algo) = args.algo.as_deref()
        && algo != "dfpn"
    {
        bail!("--algo {algo} does not apply to go: Go is proved by df-pn only");
    }
    let epsilon = args.epsilon.unwrap_or(gosolve::session::EPSILON);
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
    let root_moves = root_moves(&pos, args.sgf.is_none(), &args.moves)?;
    let root = Played {
        position: &pos,
        moves: &root_moves,
    };
    let winner = parse_winner(args.winner.as_deref(), pos.to_move())?;
    let asked = format!("prove {} at komi {komi}", winner.name());
    args.checkpoints.check(&pos, &asked)?;
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
            if args.skip_if_done && skip_done(out, &question, args.output.json) {
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
    let size = pos.size();
    let (tt_mib, tt_why) = table_mib(
        args.tt_mib,
        size.points(),
        size.rows() == 1 || size.cols() == 1,
    );
    check_tt_mib(tt_mib)?;
    if !args.output.json {
        eprintln!("table: {tt_mib} MiB ({tt_why})");
    }
    let mut solver = Solver::for_size(size, tt_mib, cfg).context("board for the df-pn solver")?;
    args.checkpoints
        .resume(&mut solver, &root, &asked, args.output.json)?;
    let plan = args.checkpoints.plan(&solver, &root, &asked);
    solver.config_mut().checkpoint.clone_from(&plan);
    let mut p = solver.prove(&root, winner, komi);
    end_progress(p.time_s);
    let mut pruned_first = None;
    if p.pruned_loss {
        // Pruning is incomplete (it can hide the only good move): ask again unpruned, so
        // that `--prune` never turns a solvable question into an unknown one.
        if !args.output.json {
            eprintln!(
                "the pruned search found no win for {}: asking again unpruned",
                winner.name()
            );
        }
        pruned_first = Some(p);
        solver.config_mut().prune = false;
        p = solver.prove(&root, winner, komi);
        end_progress(p.time_s);
    }
    // Saved before anything else is written, so that an answer or an interrupt keeps its
    // proofs; a failed save is reported after the answer (exit status 2).
    let saved = crate::options::checkpoint::save_final(&solver, plan.as_deref(), args.output.json);
    if let Some(path) = &args.samples {
        write_samples(&mut solver, path)?;
    }
    let interrupted = cancel_flag().load(Ordering::Relaxed);
    let best = p.best_move.map(|m| m.to_string());
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
    if args.output.json || args.out.is_some() {
        let mut table = table_json(&solver);
        table["chosen"] = tt_why.clone().into();
        let (rss, peak) = resident_memory();
        let mut record = ProveRecord {
            game: "go".into(),
            board: pos.size().to_string(),
            sgf: args.sgf.as_ref().map(|p| p.display().to_string()),
            moves: normalized_moves(&pos, &args.moves),
            komi: komi_number(komi),
            to_move: pos.to_move().name().into(),
            winner: winner.name().into(),
            status: if proven { "proven" } else { "unknown" }.into(),
            result: p.answer.outcome_name().into(),
            best_move: best.clone(),
            expansions: p.expansions,
            nodes: p.nodes,
            revisit_factor: p.revisit_factor(),
            time_s: p.time_s,
            threads: p.threads,
            cpu_s: cpu_seconds(),
            interrupted,
            table,
            knowledge: knowledge_json(&solver),
            pruned_loss: p.pruned_loss,
            pruned: p.pruned,
            pruned_first: pruned_first.map(|q| proof_json(&q)),
            reason: why.clone(),
            resident_bytes: rss,
            peak_resident_bytes: peak,
            command: None,
            version: None,
        };
        if let Some(out) = &args.out {
            let argv: Vec<String> = std::env::args().collect();
            record.command = Some(crate::result_file::shell_line(&argv));
            record.version = Some(env!("CARGO_PKG_VERSION").into());
            crate::result_file::write_atomic(out, &format!("{}\n", record.to_value()))?;
        }
        if args.output.json {
            println!("{}", record.to_value());
        }
    }
    if !args.output.json {
        let verdict = match p.answer {
            Answer::Proven => format!("{} wins", winner.name()),
            Answer::Disproven => format!("{} loses", winner.name()),
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
            size.rows(),
            size.cols(),
            pos.to_move().name()
        );
        if let Some(b) = best {
            println!("winning move for {}: {b}", pos.to_move().name());
        }
        println!(
            "result: {}\nexpansions: {}\nnodes: {} (revisit factor {:.2})\ntime_s: {:.3}",
            p.answer.outcome_name(),
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
        let r = crate::cmd::check::write_go(&mut solver, &root, &p, path, format);
        let what = format!("the certificate {}", path.display());
        crate::interrupt::unless_interrupted(r, &what)?;
    }
    if let Some(path) = &args.proof_sgf {
        let r = crate::proof_sgf::write_go(&mut solver, &root, &p, path);
        let what = format!("the proof SGF {}", path.display());
        crate::interrupt::unless_interrupted(r, &what)?;
    }
    saved?;
    Ok(())
}

/// The moves that name `pos` as a question's root ([`gosolve::Played`]): its `--moves` when
/// it was given by them alone (certificates then name the root by its moves), else none.
///
/// # Errors
/// A move that does not parse on this board (already rejected when `pos` was built, so
/// never silently dropped here).
pub(crate) fn root_moves(
    pos: &games::go::Position,
    by_moves: bool,
    moves: &[String],
) -> anyhow::Result<Vec<games::go::Move>> {
    if by_moves {
        parsed_moves(pos, moves)
    } else {
        Ok(Vec::new())
    }
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
    let record = ProveRecord::from_value(&done).unwrap_or_default();
    eprintln!(
        "skipped: {} already holds a proven answer ({} {}s)",
        out.display(),
        if record.winner.is_empty() {
            "?"
        } else {
            &record.winner
        },
        if record.result == "win" {
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
