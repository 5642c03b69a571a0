//! Question suites of `tsumi bench`: seeded random positions, each asked one fixed question
//! under a node limit, the shape of the Sanko paper's ablation suites (Table 3: "seeded sets
//! of random positions, 12–16 positions, serial, deterministic, node limit").
//!
//! ```text
//!   killall-5x5a, -5x5b  16 positions each: Black's C3, then 8–12 random plies (seeds 1, 2);
//!                      the question of 5x5's deciding proof, Black kills all at komi 24.5
//!   killall-4x5          16 positions: 5–9 random plies from the empty 4x5 board (seed 3);
//!                      Black kills all at komi 19.5 (4x5's whole value)
//! ```
//!
//! A random ply is uniform over the legal moves of the side to move other than a pass and
//! other than filling its own single-point eye (an empty point whose neighbours are all its
//! stones), drawn with xoshiro256++ from the suite's seed; the positions are a function of
//! the seed and the rules alone, so every run of one commit asks the same questions. Each
//! position is solved alone from an empty table with one thread; a question the limit stops
//! counts its expansions at the stop (a lower bound), as the paper's suites do. The summary
//! line gives the geometric mean of the expansions: compare two configurations by the ratio
//! of their geometric means.

use crate::go_config::config;
use crate::options::knowledge::KnowledgeArgs;
use crate::progress::end_progress;
use anyhow::Context;
use games::Player;
use games::go::Komi;
use games::go::{Move, Position, Rules, Size};
use gosolve::Answer;
use gosolve::Solver;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use serde_json::json;

/// One named question suite.
#[derive(Clone, Copy, Debug)]
pub struct QuestionSuite {
    /// The name used in `--boards`.
    pub name: &'static str,
    /// Rows and columns.
    pub rows: u32,
    pub cols: u32,
    /// Moves played before the random plies (GTP points, Black first).
    pub prefix: &'static [&'static str],
    /// Fewest and most random plies after the prefix.
    pub plies: (usize, usize),
    /// Positions in the suite.
    pub count: usize,
    /// Seed of the xoshiro256++ generator.
    pub seed: u64,
    /// Default node limit per position (expansions; `--max-expansions` overrides it).
    pub limit: u64,
}

/// The named suites.
pub const QUESTION_SUITES: [QuestionSuite; 3] = [
    QuestionSuite {
        name: "killall-5x5a",
        rows: 5,
        cols: 5,
        prefix: &["C3"],
        plies: (8, 12),
        count: 16,
        seed: 1,
        limit: 1_000_000,
    },
    QuestionSuite {
        name: "killall-5x5b",
        rows: 5,
        cols: 5,
        prefix: &["C3"],
        plies: (8, 12),
        count: 16,
        seed: 2,
        limit: 1_000_000,
    },
    QuestionSuite {
        name: "killall-4x5",
        rows: 4,
        cols: 5,
        prefix: &[],
        plies: (5, 9),
        count: 16,
        seed: 3,
        limit: 1_000_000,
    },
];

/// The suite named `name` (case-insensitive), if there is one.
#[must_use]
pub fn find(name: &str) -> Option<&'static QuestionSuite> {
    QUESTION_SUITES
        .iter()
        .find(|s| s.name.eq_ignore_ascii_case(name.trim()))
}

impl QuestionSuite {
    /// Black's komi of the question in half-points: the whole board less half a point, so
    /// Black wins only by owning every point (the deciding question of a kill-all board).
    #[must_use]
    pub const fn komi2(&self) -> i32 {
        (2 * self.rows * self.cols) as i32 - 1
    }

    /// The suite's positions as move lists (GTP points, Black first), in order.
    ///
    /// # Panics
    /// If the prefix is not legal on the board (a fixed table of this module).
    #[must_use]
    pub fn positions(&self) -> Vec<Vec<String>> {
        let size = Size::new(self.rows, self.cols).expect("suite board size");
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(self.seed);
        let mut out = Vec::with_capacity(self.count);
        let mut legal = Vec::new();
        while out.len() < self.count {
            let mut pos = Position::new(size, Rules::default());
            let mut moves: Vec<String> = Vec::new();
            for m in self.prefix {
                pos.play_text(m).expect("suite prefix is legal");
                moves.push((*m).to_string());
            }
            let plies = rng.random_range(self.plies.0..=self.plies.1);
            for _ in 0..plies {
                pos.legal_moves_into(&mut legal);
                legal.retain(|&m| m != Move::Pass && !pos.fills_own_eye(m));
                if legal.is_empty() {
                    break;
                }
                let m = legal[rng.random_range(0..legal.len())];
                pos.play(m).expect("a legal move");
                moves.push(m.to_string());
            }
            if !out.contains(&moves) {
                out.push(moves);
            }
        }
        out
    }
}

/// One position's result.
struct SuiteRow {
    name: String,
    answer: Answer,
    expansions: u64,
    nodes: u64,
    time_s: f64,
}

/// Runs the question suites named in `names` with the bench's options (table size, ε,
/// prior, knowledge flags; `--max-expansions` replaces each suite's node limit), printing
/// one row per position and a summary line per suite and configuration.
///
/// # Errors
/// A bad option (status 2), or Ctrl-C ([`crate::exit::Unknown`], status 3) after the rows so
/// far.
pub fn run(args: &crate::cmd::bench::BenchArgs, suites: &[&QuestionSuite]) -> anyhow::Result<()> {
    let prior = crate::prior::parse_prior(&args.prior).context("--prior")?;
    for suite in suites {
        for knowledge in crate::cmd::bench::configs(args) {
            let mut rows = Vec::new();
            let limit = if args.max_expansions > 0 {
                args.max_expansions
            } else {
                suite.limit
            };
            for moves in suite.positions() {
                let name = format!("{}x{}:{}", suite.rows, suite.cols, moves.join("+"));
                let row = run_position(args, suite, &moves, &name, limit, prior, knowledge)?;
                print_row(args.json, suite, &knowledge, &row);
                if crate::interrupt::cancel_flag().load(std::sync::atomic::Ordering::Relaxed) {
                    return Err(crate::exit::unknown(format!("interrupted at {name}")));
                }
                rows.push(row);
            }
            print_summary(args.json, suite, &knowledge, limit, &rows);
        }
    }
    Ok(())
}

fn run_position(
    args: &crate::cmd::bench::BenchArgs,
    suite: &QuestionSuite,
    moves: &[String],
    name: &str,
    limit: u64,
    prior: gosolve::prior::PriorKind,
    knowledge: KnowledgeArgs,
) -> anyhow::Result<SuiteRow> {
    let size = format!("{}x{}", suite.rows, suite.cols);
    let pos = crate::go_input::go_position(&size, None, moves, None, 64)
        .with_context(|| format!("suite position {name}"))?;
    let (geo, line) = crate::cmd::prove::go::line_of(&pos, true, moves)?;
    let mut cfg = config(
        limit,
        0.0,
        args.epsilon,
        format!("bench {name} ({})", knowledge.describe()),
    );
    cfg.prior = prior;
    knowledge.apply(&mut cfg);
    if args.samples.is_some() {
        cfg.sample_every = 8;
    }
    let mut solver = Solver::new(geo, args.tt_mib, cfg);
    let p = solver.prove(&line, Player::Black, Komi::from_half_points(suite.komi2()));
    end_progress(p.time_s);
    if let Some(path) = &args.samples {
        crate::prior::write_samples(&mut solver, path)?;
    }
    Ok(SuiteRow {
        name: name.to_string(),
        answer: p.answer,
        expansions: p.expansions,
        nodes: p.nodes,
        time_s: p.time_s,
    })
}

const fn answer_word(a: Answer) -> &'static str {
    match a {
        Answer::Proven => "proven",
        Answer::Disproven => "disproven",
        Answer::Unknown => "unknown",
    }
}

fn print_row(json: bool, suite: &QuestionSuite, knowledge: &KnowledgeArgs, r: &SuiteRow) {
    if json {
        println!(
            "{}",
            json!({
                "suite": suite.name,
                "position": r.name,
                "config": knowledge.describe(),
                "question": {"winner": "black", "komi": f64::from(suite.komi2()) / 2.0},
                "answer": answer_word(r.answer),
                "expansions": r.expansions,
                "nodes": r.nodes,
                "time_s": r.time_s,
            })
        );
    } else {
        println!(
            "{:<40} {:<10} {:>12} {:>12} {:>9.2}s",
            r.name,
            answer_word(r.answer),
            r.expansions,
            r.nodes,
            r.time_s
        );
    }
}

fn print_summary(
    json: bool,
    suite: &QuestionSuite,
    knowledge: &KnowledgeArgs,
    limit: u64,
    rows: &[SuiteRow],
) {
    let total: u64 = rows.iter().map(|r| r.expansions).sum();
    let geo_mean = geometric_mean(rows.iter().map(|r| r.expansions));
    let count = |a| rows.iter().filter(|r| r.answer == a).count();
    let time_s: f64 = rows.iter().map(|r| r.time_s).sum();
    if json {
        println!(
            "{}",
            json!({
                "summary": suite.name,
                "config": knowledge.describe(),
                "positions": rows.len(),
                "proven": count(Answer::Proven),
                "disproven": count(Answer::Disproven),
                "unknown": count(Answer::Unknown),
                "node_limit": limit,
                "expansions": total,
                "geometric_mean": geo_mean,
                "time_s": time_s,
            })
        );
    } else {
        println!(
            "suite {} ({}): {} positions, {} proven, {} disproven, {} at the limit of {}; \
             {} expansions, geometric mean {:.0}, {:.1} s",
            suite.name,
            knowledge.describe(),
            rows.len(),
            count(Answer::Proven),
            count(Answer::Disproven),
            count(Answer::Unknown),
            limit,
            total,
            geo_mean,
            time_s
        );
    }
}

/// The geometric mean of positive counts (a 0 counts as 1).
fn geometric_mean(xs: impl Iterator<Item = u64>) -> f64 {
    let (sum, n) = xs.fold((0.0, 0u32), |(s, n), x| (s + (x.max(1) as f64).ln(), n + 1));
    if n == 0 {
        0.0
    } else {
        (sum / f64::from(n)).exp()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suites_are_deterministic_distinct_and_legal() {
        for s in &QUESTION_SUITES {
            let a = s.positions();
            assert_eq!(a, s.positions(), "{}", s.name);
            assert_eq!(a.len(), s.count);
            for moves in &a {
                assert!(moves.len() > s.prefix.len(), "{}: {moves:?}", s.name);
                let size = format!("{}x{}", s.rows, s.cols);
                crate::go_input::go_position(&size, None, moves, None, 64).unwrap();
            }
        }
        assert!(find("KILLALL-5X5A").is_some());
        assert!(find("5x5").is_none());
    }

    #[test]
    fn the_kill_all_komi_is_the_board_less_half_a_point() {
        assert_eq!(find("killall-5x5a").unwrap().komi2(), 49);
        assert_eq!(find("killall-4x5").unwrap().komi2(), 39);
    }
}
