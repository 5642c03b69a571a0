//! `tsumi bench`: the df-pn solver on the standard boards, one thread, each from a fresh
//! table: value (checked against data/go-psk-values.tsv, so a fast wrong answer fails),
//! expansions, distinct nodes, expansions per second, wall time and resident memory.

use crate::prove_go::{config, end_progress, resident_memory};
use anyhow::{Context, bail};
use clap::Args;
use gosolve::{Geometry, Line, Solver, solve_value};
use serde_json::json;

/// The published values the bench checks against (the repository's copy of the oracle table).
const VALUES: &str = include_str!("../../../data/go-psk-values.tsv");

/// Arguments of `tsumi bench`.
#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Boards to solve, comma-separated ("RxC").
    #[arg(long, value_delimiter = ',', default_value = "2x2,3x3,1x7,2x4,3x4,4x4")]
    pub boards: Vec<String>,
    /// Transposition table size in MiB (one table per board).
    #[arg(long, default_value_t = 1024)]
    pub tt_mib: usize,
    /// ε of the 1+ε rule.
    #[arg(long, default_value_t = crate::prove_go::GO_EPSILON)]
    pub epsilon: f64,
    /// Budget per question in expansions (0 = unlimited).
    #[arg(long, default_value_t = 0)]
    pub max_expansions: u64,
    /// Initial numbers of new nodes: "score" (logistic on the area margin, the default),
    /// "uniform" (1, 1), or "score:SLOPE:SCALE".
    #[arg(long, default_value = "score")]
    pub prior: String,
    /// Print one JSON object per board instead of a table.
    #[arg(long)]
    pub json: bool,
}

/// The published value of an empty board, if the table has it.
#[must_use]
pub fn published_value(board: &str) -> Option<i32> {
    VALUES
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| {
            let mut f = l.split('\t');
            Some((f.next()?, f.next()?.trim().parse::<i32>().ok()?))
        })
        .find(|(b, _)| *b == board)
        .map(|(_, v)| v)
}

fn parse_size(text: &str) -> anyhow::Result<(usize, usize)> {
    let (r, c) = text
        .split_once(['x', 'X'])
        .with_context(|| format!("board '{text}' is not RxC"))?;
    Ok((r.trim().parse()?, c.trim().parse()?))
}

/// Runs `tsumi bench`.
///
/// # Errors
/// A malformed board, or a value that disagrees with the published one.
pub fn run(args: &BenchArgs) -> anyhow::Result<()> {
    if !args.json {
        println!(
            "{:<6} {:>5} {:>14} {:>14} {:>8} {:>12} {:>9} {:>9}  proofs (komi: expansions)",
            "board", "value", "expansions", "nodes", "revisit", "exp/s", "time_s", "rss_MiB"
        );
    }
    for b in &args.boards {
        let (r, c) = parse_size(b)?;
        let geo = Geometry::new(r, c)?;
        let label = format!("bench {r}x{c}");
        let mut cfg = config(args.max_expansions, 0.0, args.epsilon, label);
        cfg.prior = crate::prove_go::parse_prior(&args.prior)?;
        crate::go_input::check_tt_mib(args.tt_mib)?;
        let mut solver = Solver::new(geo, args.tt_mib, cfg);
        let start = std::time::Instant::now();
        let res = solve_value(&mut solver, &Line::new(), |p| end_progress(p.time_s));
        let time_s = start.elapsed().as_secs_f64();
        let (rss, peak) = resident_memory();
        let (expansions, nodes) = solver.totals();
        let name = format!("{r}x{c}");
        let Some(v) = res.value else {
            bail!("{name}: no value (budget or interrupt)")
        };
        if let Some(want) = published_value(&name) {
            if want != v {
                bail!("{name}: solved value {v} disagrees with the published value {want}");
            }
        }
        if !res.pv_checked {
            bail!("{name}: the principal variation does not replay to the value");
        }
        let proofs: Vec<String> = res
            .proofs
            .iter()
            .map(|p| {
                format!(
                    "{}{}: {}",
                    p.proven_winner()
                        .map_or("?", |w| if w == games::Player::Black { "B" } else { "W" }),
                    games::go::Komi::from_half_points(p.komi2),
                    p.expansions
                )
            })
            .collect();
        let rate = expansions as f64 / time_s.max(1e-9);
        if args.json {
            println!(
                "{}",
                json!({
                    "board": name,
                    "value": v,
                    "expansions": expansions,
                    "nodes": nodes,
                    "revisit_factor": expansions as f64 / nodes.max(1) as f64,
                    "expansions_per_s": rate,
                    "time_s": time_s,
                    "resident_bytes": rss,
                    "peak_resident_bytes": peak,
                    "tt_mib": args.tt_mib,
                    "proofs": res.proofs.iter().map(crate::prove_go::proof_json).collect::<Vec<_>>(),
                })
            );
        } else {
            println!(
                "{:<6} {:>+5} {:>14} {:>14} {:>8.2} {:>12.0} {:>9.3} {:>9.0}  {}",
                name,
                v,
                expansions,
                nodes,
                expansions as f64 / nodes.max(1) as f64,
                rate,
                time_s,
                rss as f64 / f64::from(1u32 << 20),
                proofs.join(", ")
            );
        }
    }
    Ok(())
}
