//! `tsumi bench`: the df-pn solver on the standard boards, one thread, each from a fresh
//! table: value (checked against data/go-psk-values.tsv where it lists the board, so a fast
//! wrong answer fails), expansions in all and in the deciding proofs (and their ratio, the
//! cost of the komi questions), the deciding questions asked again alone, each from an empty
//! table (and the ratio of the whole solve to them: what the komi search costs over the two
//! proofs a value needs), distinct nodes, expansions per second, wall time and resident
//! memory.
//!
//! Board sets (names usable in `--boards`, mixed with "RxC" boards):
//!
//! ```text
//!   quick     2x2 3x3 1x7 2x4 3x4 4x4                   the default, seconds
//!   standard  2x2 3x3 1x7 2x4 3x4 1x8 1x9 2x6 3x5 4x4   docs/results.md's table, under a minute
//!   large     2x7 3x6 2x8 1x12 1x13                     minutes each (1x13, 3x6 the longest)
//!   all       standard, then large
//!   suite     39 positions: 4x4, 3x5, 3x4, 2x6, 2x7 and 4x5 after 0–4 opening moves
//! ```
//!
//! The question suites `killall-5x5a`, `killall-5x5b` and `killall-4x5` ask one question of
//! seeded random positions under a node limit instead (see `bench_suites.rs`).
//!
//! A position is "RxC:MOVES", its moves (GTP points or "pass", Black first) joined by "+",
//! e.g. `4x4:B2+C3`. One board's count moves by 10–20% under a change that only reorders
//! the search (df-pn is chaotic: a tie broken the other way took 1x12's deciding proof from
//! 18.4 M to 33.8 M expansions), so a change is measured on many positions: after the rows
//! the bench prints, per configuration, the total and the geometric mean of the expansions
//! (and, with `--ablate`, the geometric mean of each run's ratio to the first), as the Sanko
//! paper's Table 3 does over its suites.

use crate::go_config::config;
use crate::interrupt::cancel_flag;
use crate::options::knowledge::KnowledgeArgs;
use crate::progress::end_progress;
use crate::system::resident_memory;
use anyhow::{Context, bail};
use clap::Args;
use games::go::Komi;
use gosolve::{Played, Solver, solve_value_from};
use serde_json::json;

/// Arguments of `tsumi bench`.
#[derive(Args, Debug)]
#[command(after_help = BENCH_AFTER_HELP)]
pub struct BenchArgs {
    /// Boards to solve, comma-separated: "RxC" or a set, "quick" (2x2,3x3,1x7,2x4,3x4,4x4),
    /// "standard" (quick with 1x8,1x9,2x6,3x5), "large" (2x7,3x6,2x8,1x12,1x13: minutes
    /// each, not in the default) or "all" (standard and large).
    #[arg(long, value_delimiter = ',', default_value = "quick")]
    pub boards: Vec<String>,
    /// Transposition table size in MiB (one table per board; at least 1).
    #[arg(long, default_value_t = 1024)]
    pub tt_mib: usize,
    /// ε of the 1+ε rule (a finite number ≥ 0).
    #[arg(long, default_value_t = gosolve::session::EPSILON, allow_hyphen_values = true)]
    pub epsilon: f64,
    /// Budget per question in expansions (0 = unlimited).
    #[arg(long, default_value_t = 0)]
    pub max_expansions: u64,
    /// Initial numbers of new nodes: "score" (logistic on the area margin), "learned" (the
    /// learned logistic model of the Sanko paper, the default, at scales 576/192;
    /// `learned:SCALE`, or `learned:SCALE:FILE` with weights from `tsumi fit-prior --out FILE`,
    /// where SCALE is S for both numbers or S/SD for φ's and δ's), "uniform" (1, 1), or
    /// "score:SLOPE:SCALE".
    #[arg(long, default_value = crate::prior::DEFAULT_PRIOR)]
    pub prior: String,
    /// Print one JSON object per board instead of a table.
    #[arg(long)]
    pub json: bool,
    /// Also solve each board with transfer, static knowledge, region games, shared unproven
    /// numbers and cross-komi numbers switched off in turn, and print each run's expansions as a ratio to the first run's (with
    /// `--max-expansions`, a run that stops at the budget prints lower bounds).
    #[arg(long)]
    pub ablate: bool,
    /// Append training samples of the learned prior (every 8th stored proof: the winner and
    /// the features, tab-separated) to this file.
    #[arg(long)]
    pub samples: Option<std::path::PathBuf>,
    /// Knowledge and ablation flags of the first run.
    #[command(flatten)]
    pub knowledge: KnowledgeArgs,
}

/// The exit statuses, in `tsumi bench --help`.
const BENCH_AFTER_HELP: &str = "Exit status: 0 every board solved with its published value; 2 \
error (a malformed board, a value that disagrees with the published one, an option out of \
range); 3 no answer (--max-expansions stopped a board, or Ctrl-C): the rows so far are \
printed first, a stopped one with lower bounds (\"status\":\"unknown\" in --json).";

/// The named board sets of `--boards`.
const BOARD_SETS: [(&str, &[&str]); 5] = [
    ("quick", &QUICK),
    ("standard", &STANDARD),
    ("large", &LARGE),
    ("all", &ALL),
    ("suite", &SUITE),
];
const QUICK: [&str; 6] = ["2x2", "3x3", "1x7", "2x4", "3x4", "4x4"];
const STANDARD: [&str; 10] = [
    "2x2", "3x3", "1x7", "2x4", "3x4", "1x8", "1x9", "2x6", "3x5", "4x4",
];
const LARGE: [&str; 5] = ["2x7", "3x6", "2x8", "1x12", "1x13"];
const ALL: [&str; 15] = [
    "2x2", "3x3", "1x7", "2x4", "3x4", "1x8", "1x9", "2x6", "3x5", "4x4", "2x7", "3x6", "2x8",
    "1x12", "1x13",
];

/// The suite: every board of two rows and more that `standard` and `large` solve in seconds,
/// empty and after one to four opening moves (the symmetry-distinct first moves of 4x4,
/// 3x5, 3x4 and 2x6, replies to the centre or the side, and two 4x5 openings whose solves
/// take a few seconds), so that a change is judged on positions of every kind: full-board
/// values, small margins and lost openings.
const SUITE: [&str; 39] = [
    "4x4",
    "4x4:A1",
    "4x4:B1",
    "4x4:B2",
    "4x4:B2+C3",
    "4x4:B2+C2",
    "4x4:B2+B3",
    "4x4:B2+A1",
    "4x4:B2+B1",
    "4x4:B2+C1",
    "4x4:B2+D1",
    "4x4:B1+C2",
    "4x4:B1+B2",
    "3x5",
    "3x5:A1",
    "3x5:B1",
    "3x5:C1",
    "3x5:A2",
    "3x5:B2",
    "3x5:B2+C2",
    "3x5:C2+B2",
    "3x5:C2+C3",
    "3x4",
    "3x4:A1",
    "3x4:B1",
    "3x4:A2",
    "3x4:B2",
    "3x4:B2+C2",
    "3x4:B2+B3",
    "2x6",
    "2x6:A1",
    "2x6:B1",
    "2x6:C1",
    "2x6:C1+C2",
    "2x6:C1+D2",
    "2x7",
    "2x7:D1",
    "2x7:C1",
    "4x5:B2+C3+C2+D3",
];

/// One item of `--boards`: a board and the moves played first.
#[derive(Clone, Debug, PartialEq, Eq)]
struct BenchItem {
    rows: usize,
    cols: usize,
    /// GTP points or "pass", Black first (empty: the empty board).
    moves: Vec<String>,
}

impl BenchItem {
    /// "RxC", or "RxC:M1+M2" for a position.
    fn name(&self) -> String {
        if self.moves.is_empty() {
            format!("{}x{}", self.rows, self.cols)
        } else {
            format!("{}x{}:{}", self.rows, self.cols, self.moves.join("+"))
        }
    }
}

/// The boards and positions of `--boards`, set names expanded, in order, each once.
///
/// # Errors
/// An item that is neither a set name nor "RxC" / "RxC:MOVES" (status 2).
fn expand_items(items: &[String]) -> anyhow::Result<Vec<BenchItem>> {
    let mut out = Vec::new();
    for item in items {
        let item = item.trim();
        let set = BOARD_SETS
            .iter()
            .find(|(name, _)| name.eq_ignore_ascii_case(item));
        let list: Vec<&str> = match set {
            Some((_, list)) => list.to_vec(),
            None => vec![item],
        };
        for text in list {
            let (board, moves) = text.split_once(':').unwrap_or((text, ""));
            let (rows, cols) = parse_size(board)?;
            let moves: Vec<String> = moves
                .split('+')
                .map(|m| m.trim().to_string())
                .filter(|m| !m.is_empty())
                .collect();
            let b = BenchItem { rows, cols, moves };
            if !out.contains(&b) {
                out.push(b);
            }
        }
    }
    Ok(out)
}

/// The boards of `--boards` (positions' boards included), in order, each once.
#[cfg(test)]
fn expand_boards(items: &[String]) -> anyhow::Result<Vec<(usize, usize)>> {
    let mut out = Vec::new();
    for b in expand_items(items)? {
        if !out.contains(&(b.rows, b.cols)) {
            out.push((b.rows, b.cols));
        }
    }
    Ok(out)
}

fn parse_size(text: &str) -> anyhow::Result<(usize, usize)> {
    let bad = || {
        format!(
            "board '{text}' is not RxC or a set ({})",
            BOARD_SETS.map(|(n, _)| n).join(", ")
        )
    };
    let (r, c) = text.split_once(['x', 'X']).with_context(bad)?;
    Ok((
        r.trim().parse().with_context(bad)?,
        c.trim().parse().with_context(bad)?,
    ))
}

/// One bench run: a board under one configuration.
struct Row {
    name: String,
    config: String,
    value: Option<i32>,
    /// The value data/go-psk-values.tsv lists for the board (checked), if it lists it.
    published: Option<i32>,
    expansions: u64,
    nodes: u64,
    time_s: f64,
    rss: u64,
    peak: u64,
    proofs: Vec<gosolve::Proof>,
    /// Expansions of the deciding proofs (Black's at v − ½, White's at v + ½).
    deciding: u64,
    /// Expansions of the same deciding questions asked alone, each by a fresh solver with an
    /// empty table of the same size (0 when the value is unknown).
    alone: u64,
    know: gosolve::search::KnowledgeStats,
    /// Where the first question went: the guess and its source, as JSON.
    first_guess: serde_json::Value,
}

fn run_one(args: &BenchArgs, item: &BenchItem, knowledge: KnowledgeArgs) -> anyhow::Result<Row> {
    let (r, c) = (item.rows, item.cols);
    let name = item.name();
    let pos = crate::go_input::go_position(&format!("{r}x{c}"), None, &item.moves, None, 64)
        .with_context(|| format!("bench position {name}"))?;
    let moves = crate::cmd::prove::go::parsed_moves(&pos, &item.moves)?;
    let root = Played {
        position: &pos,
        moves: &moves,
    };
    let label = format!("bench {name} ({})", knowledge.describe());
    let mut cfg = config(args.max_expansions, 0.0, args.epsilon, label);
    cfg.prior = crate::prior::parse_prior(&args.prior)?;
    knowledge.apply(&mut cfg);
    if args.samples.is_some() {
        cfg.sample_every = 8;
    }
    let mut solver = Solver::for_size(pos.size(), args.tt_mib, cfg)?;
    let start = std::time::Instant::now();
    // The first question: the playouts' guess where they separate the komis, else the
    // solver's probes (as `solve` does).
    let playouts = engine::playout_guess::playout_guess(r, c, &moves);
    let res = solve_value_from(&mut solver, &root, playouts.value, |p| {
        end_progress(p.time_s);
    });
    let time_s = start.elapsed().as_secs_f64();
    let (rss, peak) = resident_memory();
    let (expansions, nodes) = solver.totals();
    if let Some(path) = &args.samples {
        crate::prior::write_samples(&mut solver, path)?;
    }
    let published = if item.moves.is_empty() {
        gosolve::published::published_value(r, c)
    } else {
        None
    };
    if let Some(v) = res.value {
        if let Some(want) = published
            && want != v
        {
            bail!("{name}: solved value {v} disagrees with the published value {want}");
        }
        if !res.pv_checked && !knowledge.prune {
            bail!("{name}: the principal variation does not replay to the value");
        }
    }
    let first_guess = crate::cmd::solve::dfpn::first_guess_json(&res, Some(&playouts), None);
    let deciding_proofs = res.deciding_proofs();
    let deciding = deciding_proofs.iter().map(|p| p.expansions).sum();
    // The deciding questions again (Black at v − ½, White at v + ½; a bound at the board's
    // edge needs no proof), each alone from an empty table: the cost a value needs.
    let mut alone = 0;
    if let Some(v) = res.value {
        let mut cfg = config(
            args.max_expansions,
            0.0,
            args.epsilon,
            format!("bench {name} alone"),
        );
        cfg.prior = crate::prior::parse_prior(&args.prior)?;
        knowledge.apply(&mut cfg);
        for p in &deciding_proofs {
            let Some(winner) = p.proven_winner() else {
                continue;
            };
            let k2 = if winner == games::Player::Black {
                2 * v - 1
            } else {
                2 * v + 1
            };
            let mut fresh = Solver::for_size(pos.size(), args.tt_mib, cfg.clone())?;
            let q = fresh.prove(&root, winner, Komi::from_half_points(k2));
            if q.proven_winner() != Some(winner) {
                bail!(
                    "{name}: the deciding question at komi {} asked alone came back {:?}",
                    Komi::from_half_points(k2),
                    q.answer
                );
            }
            alone += q.expansions;
        }
    }
    Ok(Row {
        name,
        config: knowledge.describe(),
        value: res.value,
        published,
        expansions,
        nodes,
        time_s,
        rss,
        peak,
        proofs: res.proofs,
        deciding,
        alone,
        know: solver.knowledge_stats(),
        first_guess,
    })
}

/// The configurations of one board: the given knowledge flags, then with `--ablate` each
/// component switched off in turn.
pub(crate) fn configs(args: &BenchArgs) -> Vec<KnowledgeArgs> {
    let mut configs = vec![args.knowledge];
    if args.ablate {
        for off in 0..5 {
            let mut k = args.knowledge;
            match off {
                0 => k.no_transfer = true,
                1 => k.no_static = true,
                2 => k.no_regions = true,
                3 => k.no_shared_numbers = true,
                _ => k.no_cross_komi = true,
            }
            configs.push(k);
        }
    }
    configs
}

/// Column widths of the table: the config column fits the longest configuration name.
struct Widths {
    board: usize,
    config: usize,
}

/// Runs `tsumi bench`.
///
/// # Errors
/// A malformed board, a value that disagrees with the published one, or a bad option (status
/// 2); a board left without a value by the budget, or Ctrl-C, after printing the rows so far
/// ([`crate::exit::Unknown`], status 3; with `--ablate` the other runs of the board first).
pub fn run(args: &BenchArgs) -> anyhow::Result<()> {
    crate::cmd::prove::go::check_tt_mib(args.tt_mib)?;
    crate::go_config::check_epsilon(Some(args.epsilon))?;
    crate::prior::parse_prior(&args.prior).context("--prior")?;
    // The question suites (bench_suites.rs) run on their own.
    let suites: Vec<_> = args
        .boards
        .iter()
        .filter_map(|b| crate::cmd::bench_suites::find(b))
        .collect();
    if !suites.is_empty() {
        if suites.len() != args.boards.len() {
            bail!("the question suites (killall-…) run alone, without boards or other sets");
        }
        return crate::cmd::bench_suites::run(args, &suites);
    }
    let boards = expand_items(&args.boards)?;
    for b in &boards {
        crate::go_config::check_dfpn_size(b.rows, b.cols)?;
        // Every position's moves are checked before anything is solved.
        crate::go_input::go_position(&format!("{}x{}", b.rows, b.cols), None, &b.moves, None, 64)
            .with_context(|| format!("bench position {}", b.name()))?;
    }
    let widths = Widths {
        board: boards
            .iter()
            .map(|b| b.name().len())
            .max()
            .unwrap_or(0)
            .max(6),
        config: configs(args)
            .iter()
            .map(|k| k.describe().len())
            .max()
            .unwrap_or(0)
            .max("config".len()),
    };
    if !args.json {
        println!(
            "{:<bw$} {:<cw$} {:>5} {:>9} {:>14} {:>12} {:>6} {:>12} {:>6} {:>14} {:>8} {:>12} {:>9} {:>9} {:>8}  proofs (komi: expansions)",
            "board",
            "config",
            "value",
            "published",
            "expansions",
            "deciding",
            "t/d",
            "alone",
            "t/a",
            "nodes",
            "revisit",
            "exp/s",
            "time_s",
            "rss_MiB",
            "ratio",
            bw = widths.board,
            cw = widths.config,
        );
    }
    let mut summary = Summary::new(configs(args).len());
    for item in &boards {
        let mut base: Option<u64> = None;
        let mut stopped: Option<Row> = None;
        for (ci, k) in configs(args).into_iter().enumerate() {
            let row = run_one(args, item, k)?;
            let ratio = base.map(|b| row.expansions as f64 / b.max(1) as f64);
            if base.is_none() {
                base = Some(row.expansions);
            }
            if let Some(v) = row.value {
                // Every configuration is sound: they must agree on the value.
                let first = *summary.values.entry(item.name()).or_insert(v);
                if first != v {
                    bail!(
                        "{}: the value {v:+} of configuration '{}' disagrees with the first configuration's {first:+}",
                        row.name,
                        row.config
                    );
                }
            }
            summary.add(ci, &row, ratio);
            print_row(args, &widths, &row, ratio);
            if cancel_flag().load(std::sync::atomic::Ordering::Relaxed) {
                // A row with a value finished before Ctrl-C: the interrupt stopped what came
                // after it, not that board.
                return Err(crate::exit::unknown(match row.value {
                    Some(_) => format!(
                        "interrupted after {} ({}) finished: the rest was not run",
                        row.name, row.config
                    ),
                    None => format!(
                        "interrupted on {} ({}) after {} expansions",
                        row.name, row.config, row.expansions
                    ),
                }));
            }
            if row.value.is_none() && stopped.is_none() {
                stopped = Some(row);
                if !args.ablate {
                    break;
                }
            }
        }
        if let Some(row) = stopped {
            return Err(crate::exit::unknown(format!(
                "budget exhausted: {} ({}) has no value within {} expansions per question",
                row.name, row.config, args.max_expansions
            )));
        }
    }
    summary.print(args);
    Ok(())
}

/// Per configuration, over the items run: the totals and geometric means the bench prints
/// after its rows.
struct Summary {
    configs: Vec<ConfigTotals>,
    /// Each item's value under the first configuration that found one.
    values: std::collections::HashMap<String, i32>,
}

/// One configuration's sums over the items.
#[derive(Clone, Default)]
struct ConfigTotals {
    name: String,
    items: u64,
    expansions: u64,
    /// Σ ln expansions.
    ln_expansions: f64,
    /// Σ ln (expansions over the first configuration's), and how many ratios were added.
    ln_ratio: f64,
    ratios: u64,
}

impl Summary {
    fn new(n: usize) -> Self {
        Summary {
            configs: vec![ConfigTotals::default(); n],
            values: std::collections::HashMap::new(),
        }
    }

    fn add(&mut self, config: usize, row: &Row, ratio: Option<f64>) {
        let c = &mut self.configs[config];
        c.name.clone_from(&row.config);
        c.items += 1;
        c.expansions += row.expansions;
        c.ln_expansions += (row.expansions.max(1) as f64).ln();
        if let Some(x) = ratio {
            c.ln_ratio += x.max(1e-12).ln();
            c.ratios += 1;
        }
    }

    /// One line per configuration (one JSON object with `--json`).
    fn print(&self, args: &BenchArgs) {
        for c in &self.configs {
            let (name, n, total) = (&c.name, c.items, c.expansions);
            if n == 0 {
                continue;
            }
            let geo_mean = (c.ln_expansions / n as f64).exp();
            let geo_ratio = (c.ratios > 0).then(|| (c.ln_ratio / c.ratios as f64).exp());
            if args.json {
                println!(
                    "{}",
                    json!({
                        "summary": name,
                        "items": n,
                        "total_expansions": total,
                        "geometric_mean_expansions": geo_mean,
                        "geometric_mean_ratio_to_first": geo_ratio,
                    })
                );
            } else {
                println!(
                    "summary {name}: {n} items, {total} expansions in all, geometric mean {geo_mean:.0}{}",
                    geo_ratio.map_or(String::new(), |x| format!(
                        ", geometric mean ratio to the first configuration {x:.3}"
                    ))
                );
            }
        }
    }
}

fn print_row(args: &BenchArgs, widths: &Widths, row: &Row, ratio: Option<f64>) {
    let rate = row.expansions as f64 / row.time_s.max(1e-9);
    // A run without a value stopped at the budget: its effort and ratio are lower bounds.
    let bound = if row.value.is_none() { ">" } else { "" };
    if args.json {
        println!(
            "{}",
            json!({
                "board": row.name,
                "config": row.config,
                "value": row.value,
                "published_value": row.published,
                "complete": row.value.is_some(),
                "status": if row.value.is_some() { "proven" } else { "unknown" },
                "expansions": row.expansions,
                "deciding_expansions": row.deciding,
                "total_over_deciding": (row.deciding > 0).then(|| row.expansions as f64 / row.deciding as f64),
                "deciding_alone_expansions": row.alone,
                "total_over_alone": (row.alone > 0).then(|| row.expansions as f64 / row.alone as f64),
                "nodes": row.nodes,
                "revisit_factor": row.expansions as f64 / row.nodes.max(1) as f64,
                "expansions_per_s": rate,
                "time_s": row.time_s,
                "ratio_to_first": ratio,
                "resident_bytes": row.rss,
                "peak_resident_bytes": row.peak,
                "tt_mib": args.tt_mib,
                "transfers": row.know.transfers,
                "transfer_tests": row.know.transfer_tests,
                "static_leaves": row.know.static_leaves,
                "region_leaves": row.know.region_leaves,
                "pruned_moves": row.know.pruned_moves,
                "proofs": row.proofs.iter().map(crate::report::proof_json).collect::<Vec<_>>(),
                "first_guess": row.first_guess,
            })
        );
    } else {
        let proofs: Vec<String> = row
            .proofs
            .iter()
            .map(|p| {
                format!(
                    "{}{}: {}",
                    p.proven_winner()
                        .map_or("?", |w| if w == games::Player::Black { "B" } else { "W" }),
                    p.komi,
                    p.expansions
                )
            })
            .collect();
        let td = if row.deciding > 0 {
            format!("{bound}{:.2}", row.expansions as f64 / row.deciding as f64)
        } else {
            "-".into()
        };
        let ta = if row.alone > 0 {
            format!("{:.2}", row.expansions as f64 / row.alone as f64)
        } else {
            "-".into()
        };
        println!(
            "{:<bw$} {:<cw$} {:>5} {:>9} {:>14} {:>12} {:>6} {:>12} {:>6} {:>14} {:>8.2} {:>12.0} {:>9.3} {:>9.0} {:>8}  {}",
            row.name,
            row.config,
            row.value.map_or("?".to_string(), |v| format!("{v:+}")),
            row.published.map_or("-".to_string(), |v| format!("{v:+}")),
            format!("{bound}{}", row.expansions),
            row.deciding,
            td,
            row.alone,
            ta,
            row.nodes,
            row.expansions as f64 / row.nodes.max(1) as f64,
            rate,
            row.time_s,
            row.rss as f64 / f64::from(1u32 << 20),
            ratio.map_or("-".to_string(), |x| format!("{bound}{x:.2}")),
            proofs.join(", "),
            bw = widths.board,
            cw = widths.config,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sets_expand_in_order_each_board_once() {
        let items = |s: &str| s.split(',').map(String::from).collect::<Vec<_>>();
        let all = expand_boards(&items("all")).unwrap();
        assert_eq!(all.len(), 15);
        assert_eq!(
            expand_boards(&items("standard,large")).unwrap(),
            all,
            "all is standard, then large"
        );
        let quick = expand_boards(&items("4x4,Quick,2x2")).unwrap();
        assert_eq!(quick, [(4, 4), (2, 2), (3, 3), (1, 7), (2, 4), (3, 4)]);
        for (name, list) in BOARD_SETS {
            for b in list {
                let board = b.split_once(':').map_or(*b, |(board, _)| board);
                assert!(parse_size(board).is_ok(), "{name}: {b}");
            }
        }
        // Positions: "RxC:MOVES", moves joined by "+", named as given.
        let p = expand_items(&items("4x4:B2+C3,4x4,4x4:B2+C3,suite")).unwrap();
        assert_eq!(p[0].moves, ["B2", "C3"]);
        assert_eq!(p[0].name(), "4x4:B2+C3");
        assert_eq!(p[1].name(), "4x4");
        assert_eq!(p.len(), SUITE.len(), "duplicates are dropped: {p:?}");
        assert!(expand_items(&items("4x4:B2+C3+C2+D3+A1")).is_ok());
        assert!(expand_items(&items("4xQ:B2")).is_err());
        // Every suite position is legal (its solves are run by `bench --boards suite`).
        for b in expand_items(&items("suite")).unwrap() {
            let size = format!("{}x{}", b.rows, b.cols);
            assert!(
                crate::go_input::go_position(&size, None, &b.moves, None, 64).is_ok(),
                "{}",
                b.name()
            );
        }
        // Every quick board is a standard one, and large boards are in no quick set.
        let standard = expand_boards(&items("standard")).unwrap();
        assert!(quick.iter().all(|b| standard.contains(b)));
        assert!(
            expand_boards(&items("large"))
                .unwrap()
                .iter()
                .all(|b| !standard.contains(b))
        );
    }
}
