//! `tsumi solve go RxC` with the df-pn engine (the default): the value by two proofs, Black's
//! win at v − ½ and White's at v + ½, found by komi bisection (`gosolve::value`), with each
//! proof's komi, expansions, distinct nodes, revisit factor and time, the table statistics,
//! the first move and a PV that replays legally to a game end scored v.

use crate::cmd::solve::{SolveArgs, SolveReport, Stopper, check_pv, print_report, stop_reason};
use crate::go_config::config;
use crate::interrupt::cancel_flag;
use crate::progress::end_progress;
use crate::report::proof_json;
use crate::report::table_json;
use crate::report::table_text;
use anyhow::{Context, bail};
use games::go::Komi;
use gosolve::{Played, Proof, Solved, Solver, solve_value_from};
use std::sync::atomic::Ordering;

fn proof_line(p: &Proof) -> String {
    let who = p.proven_winner().map_or_else(
        || "no proof".to_string(),
        |w| format!("{:<7} wins", w.name()),
    );
    // The JSON's `winner` is the side proven to win and `asked` the side the question was
    // about; the text names both the same way, the asked side where it lost.
    let asked = match p.proven_winner() {
        Some(w) if w != p.winner => format!(" (asked: does {} win? no)", p.winner.name()),
        None => format!(" (asked: does {} win?)", p.winner.name()),
        Some(_) => String::new(),
    };
    let pruned = if p.pruned_loss {
        " (pruned: no win for the pruned side)"
    } else if p.pruned {
        " (pruned)"
    } else {
        ""
    };
    let holds = if p.answer != gosolve::Answer::Unknown && p.holds != p.komi {
        format!(" (holds to komi {})", p.holds)
    } else {
        String::new()
    };
    format!(
        "{who} at komi {:>5}{holds}{asked}: {} expansions, {} nodes (revisit {:.2}), {:.3} s{pruned}",
        Komi::from_half_points(p.komi.half_points()).to_string(),
        p.expansions,
        p.nodes,
        p.revisit_factor(),
        p.time_s
    )
}

/// Where the first question of `solved`'s komi bisection came from, as JSON: `--guess`
/// (`given`), the playouts' guess (with their win rates), or the solver's probes (with their
/// count and expansions, and the playouts' flat win rates when they were run).
pub(crate) fn first_guess_json(
    solved: &Solved,
    playouts: Option<&engine::playout_guess::PlayoutGuess>,
    given: Option<i32>,
) -> serde_json::Value {
    if given.is_some() {
        return serde_json::json!({"source": "--guess", "value": solved.guess});
    }
    match playouts {
        Some(p) if p.value.is_some() => {
            let mut j = playouts_json(p);
            j["value"] = solved.guess.into();
            j
        }
        _ => {
            let mut j = serde_json::json!({
                "source": "probes",
                "value": solved.guess,
                "probes": solved.probes.len(),
                "expansions": solved.probes.iter().map(|p| p.expansions).sum::<u64>(),
            });
            if let Some(p) = playouts {
                j["playouts"] = playouts_json(p);
            }
            j
        }
    }
}

/// The playouts' guess as JSON: `{"source": "playouts", "value", "playouts", "rates"}`.
#[must_use]
pub(crate) fn playouts_json(g: &engine::playout_guess::PlayoutGuess) -> serde_json::Value {
    serde_json::json!({
        "source": "playouts",
        "value": g.value,
        "playouts": g.playouts,
        "rates": g.rates.iter().map(|&(u, r)| serde_json::json!([u, r])).collect::<Vec<_>>(),
    })
}

/// The table of the short probes of a run with checkpoints, in MiB: the probes take about
/// 50 expansions a point each, a dozen of them.
const PROBE_TT_MIB: usize = 64;

/// Runs the df-pn engine of `tsumi solve`.
///
/// # Errors
/// Bad input, a board over 30 points, an exhausted budget or Ctrl-C (after printing what is
/// known).
pub fn run(args: &SolveArgs) -> anyhow::Result<()> {
    crate::go_config::check_epsilon(args.epsilon)?;
    let prior =
        crate::prior::parse_prior(args.prior.as_deref().unwrap_or(crate::prior::DEFAULT_PRIOR))
            .context("--prior")?;
    let pos = args.position()?;
    crate::go_config::check_dfpn_size(pos.size().rows() as usize, pos.size().cols() as usize)?;
    let root_moves = crate::cmd::prove::go::root_moves(&pos, args.sgf.is_none(), &args.moves)?;
    let root = Played {
        position: &pos,
        moves: &root_moves,
    };
    args.checkpoints.check(&pos, "solve")?;
    let size = pos.size();
    let (tt_mib, tt_why) = crate::cmd::prove::go::table_mib(
        args.tt_mib,
        size.points(),
        size.rows() == 1 || size.cols() == 1,
    );
    crate::cmd::prove::go::check_tt_mib(tt_mib)?;
    if !args.output.json {
        eprintln!("table: {tt_mib} MiB ({tt_why})");
    }
    // The output directories are checked before the search, so that no value is lost to a
    // bad path.
    if let Some(dir) = &args.certificate {
        crate::cmd::check::check_dir(dir, "--certificate")?;
    }
    if let Some(dir) = &args.proof_sgf {
        crate::cmd::check::check_dir(dir, "--proof-sgf")?;
    }
    let mut cfg = config(
        args.max_expansions,
        0.0,
        args.epsilon.unwrap_or(gosolve::session::EPSILON),
        format!("solve {}", pos.size()),
    );
    args.knowledge.apply(&mut cfg);
    cfg.prior = prior;
    // One clock for the whole solve: the watcher raises the search's cancel flag at the
    // deadline, whichever question is running.
    let stopper = Stopper::start(args.seconds);
    cfg.limits.cancel = Some(stopper.flag());
    let json = args.output.json;
    // The first question: `--guess`, else the playouts' guess where they separate the komis
    // (a position given by --moves from the empty board; an SGF may set up stones the
    // playouts do not see), else the solver's short probes.
    let playouts = match (args.guess, &args.sgf) {
        (None, None) => {
            let moves = crate::cmd::prove::go::parsed_moves(&pos, &args.moves)?;
            Some(engine::playout_guess::playout_guess(
                size.rows() as usize,
                size.cols() as usize,
                &moves,
            ))
        }
        _ => None,
    };
    let guess = args
        .guess
        .or_else(|| playouts.as_ref().and_then(|p| p.value));
    if !json && let Some(p) = &playouts {
        match p.value {
            Some(g) => eprintln!(
                "first question from the playouts' guess {g:+} ({} playouts)",
                p.playouts
            ),
            None if p.playouts > 0 => eprintln!(
                "the playouts' win rate hardly moves with the komi ({} playouts): the probes place the first question",
                p.playouts
            ),
            None => {}
        }
    }
    let probing = guess.is_none();
    // A run with checkpoints asks its short probes on a small table of its own, on one
    // thread: on the run's table, the numbers a resumed checkpoint restores steer the probes
    // (5x5 resumed guessed 0 where a fresh table's probes give +19), and so every run of one
    // checkpoint starts from the same first question.
    let mut early_probes = Vec::new();
    let guess = match guess {
        None if args.checkpoints.given().is_some() => {
            let mut probe_cfg = cfg.clone();
            probe_cfg.threads = 1;
            probe_cfg.progress = None;
            let mut prober = Solver::for_size(size, PROBE_TT_MIB, probe_cfg)
                .context("board for the df-pn solver")?;
            let n = size.points() as i32;
            let (mut lower, mut upper) = (-n, n);
            Some(gosolve::value::probe_guess(
                &mut prober,
                &root,
                &mut lower,
                &mut upper,
                &mut early_probes,
            ))
        }
        g => g,
    };
    // The search runs on the command's thread, whose stack `main` made large (long games
    // recurse deeply); a second large stack here cost a gigabyte of virtual memory, and
    // solve failed under `ulimit -v 2500000`.
    let mut solver = Solver::for_size(size, tt_mib, cfg).context("board for the df-pn solver")?;
    args.checkpoints.resume(&mut solver, &root, "solve", json)?;
    let plan = args.checkpoints.plan(&solver, &root, "solve");
    solver.config_mut().checkpoint.clone_from(&plan);
    let mut solved: Solved = solve_value_from(&mut solver, &root, guess, |p| {
        end_progress(p.time_s);
        if !json {
            eprintln!("  question: {}", proof_line(p));
        }
    });
    if !early_probes.is_empty() {
        // Reported as the probes of the solve (their expansions are not in its totals).
        solved.probes = early_probes;
    }
    if !json && probing {
        let e: u64 = solved.probes.iter().map(|p| p.expansions).sum();
        eprintln!(
            "  (first question from {} short probes, {e} expansions: guess {:+})",
            solved.probes.len(),
            solved.guess
        );
    }
    // Saved before anything is printed, so that an answer or an interrupt keeps its proofs;
    // a failed save is reported after the answer (exit status 2).
    let saved = crate::options::checkpoint::save_final(&solver, plan.as_deref(), json);
    if let Err(e) = &saved {
        eprintln!("error: {e:#}");
    }
    let timed_out = stopper.finish();
    let (expansions, nodes) = solver.totals();
    // A fold from +0.0: an empty f64 sum is -0.0, which JSON would print as "-0.0".
    let time_s = solved.proofs.iter().fold(0.0_f64, |t, p| t + p.time_s);
    let interrupted = cancel_flag().load(Ordering::Relaxed);
    let value = match solved.value {
        Some(v) if solved.pv_checked || !interrupted => v,
        _ => {
            let why = stop_reason(timed_out);
            if json {
                // Programs get an object even without a value: the bounds proved so far.
                let partial = serde_json::json!({
                    "board": pos.size().to_string(),
                    "engine": "dfpn",
                    "status": "unknown",
                    "reason": why,
                    "value": null,
                    "lower": solved.lower,
                    "upper": solved.upper,
                    "questions": solved.proofs.len(),
                    "expansions": expansions,
                    "nodes": nodes,
                    "time_s": time_s,
                    "threads": solver.config().threads,
                    "cpu_s": crate::system::cpu_seconds(),
                });
                println!("{partial}");
            } else {
                println!(
                    "{why}: value of {} between {:+} and {:+} after {} questions, {expansions} expansions",
                    pos.size(),
                    solved.lower,
                    solved.upper,
                    solved.proofs.len()
                );
                for p in &solved.proofs {
                    println!("  {}", proof_line(p));
                }
            }
            return Err(crate::exit::unknown(format!(
                "{why}: the value is between {:+} and {:+}",
                solved.lower, solved.upper
            )));
        }
    };
    let mut solver = solver;
    if !solved.pv_checked {
        // The value stands (it rests on proofs), but the line was not found: pruning is
        // incomplete (a position on the line may have a win the pruned search cannot find),
        // or a budget stopped a PV question. The line is searched again unpruned, without
        // the budgets (its questions are mostly answered by the table); Ctrl-C still stops it.
        let c = solver.config_mut();
        c.prune = false;
        c.limits.max_expansions = 0;
        c.limits.cancel = Some(cancel_flag());
        let (pv, ok) = gosolve::value::principal_variation(&mut solver, &root, value);
        solved.best_move = pv.first().copied();
        solved.pv = pv;
        solved.pv_checked = ok;
    }
    if !solved.pv_checked {
        if cancel_flag().load(Ordering::Relaxed) {
            return Err(crate::exit::unknown(format!(
                "interrupted: the value {value:+} is proven but its principal variation is not"
            )));
        }
        bail!("internal error: the principal variation does not replay to the value {value}");
    }
    let komi = (args.komi.is_some() || args.sgf.is_some()).then(|| pos.rules().komi);
    let deciding = solved.deciding_proofs();
    let report = SolveReport {
        board: pos.size().to_string(),
        rules: pos.rules().ko.to_string(),
        to_move: pos.to_move().to_string(),
        value,
        best_move: solved.best_move.map(|m| m.to_string()),
        pv: solved.pv.iter().map(ToString::to_string).collect(),
        expansions,
        time_s,
        engine: "dfpn".into(),
        status: "proven",
        komi: komi.map(crate::report::komi_number),
        black_wins: komi.map(|k| k.black_wins(value)),
        proofs: Some(deciding.iter().map(proof_json).collect()),
        questions: Some(solved.proofs.iter().map(proof_json).collect()),
        nodes: Some(nodes),
        table: Some({
            let mut t = table_json(&solver);
            t["chosen"] = tt_why.clone().into();
            t
        }),
        knowledge: Some({
            let mut k = crate::report::knowledge_json(&solver);
            k["flags"] = args.knowledge.describe().into();
            k
        }),
        threads: Some(solver.config().threads),
        cpu_s: Some(crate::system::cpu_seconds()),
        first_guess: Some(first_guess_json(&solved, playouts.as_ref(), args.guess)),
    };
    check_pv(&pos, &report)?;
    if json {
        print_report(&report, true);
    } else {
        print_report(&report, false);
        for p in &deciding {
            println!("proof      {}", proof_line(p));
        }
        if deciding.len() == 1 {
            println!("           (a full-board value needs only one proof)");
        }
        let q = solved.proofs.len();
        let probes = solved.probes.len();
        println!(
            "total      {probes} probe{} and {q} question{}, {expansions} expansions, {nodes} nodes (revisit {:.2})",
            if probes == 1 { "" } else { "s" },
            if q == 1 { "" } else { "s" },
            expansions as f64 / nodes.max(1) as f64
        );
        println!("{}", table_text(&solver));
        println!("{}", crate::report::knowledge_text(&solver));
    }
    // The proofs' files come after the value is printed, and Ctrl-C stops them (status 3).
    solver.config_mut().limits.cancel = Some(cancel_flag());
    if let Some(dir) = &args.certificate {
        let r = crate::cmd::check::write_solve(&mut solver, &root, value, dir);
        let what = format!("the certificates in {}", dir.display());
        crate::interrupt::unless_interrupted(r, &what)?;
    }
    if let Some(dir) = &args.proof_sgf {
        let r = crate::proof_sgf::write_solve(&mut solver, &root, value, dir);
        let what = format!("the proof SGFs in {}", dir.display());
        crate::interrupt::unless_interrupted(r, &what)?;
    }
    saved
}
