//! Question suites of `tsumi bench`: seeded random positions, each asked one fixed question
//! under a node limit, the shape of the Sanko paper's ablation suites (Table 3: "seeded sets
//! of random positions, 12–16 positions, serial, deterministic, node limit").
//!
//! ```text
//!   killall-5x5a, -5x5b  16 positions each: Black's C3, then 8–12 random plies (seeds 1, 2);
//!                      the question of 5x5's deciding proof, Black kills all at komi 24.5
//!   killall-4x5          16 positions: 5–9 random plies from the empty 4x5 board (seed 3);
//!                      Black kills all at komi 19.5 (4x5's whole value)
//!   killall-proofs       the empty 2x6, 3x5, 2x7, 2x8 and 3x6 boards, whose values are the
//!                      full board: each board's one deciding proof (Black kills all at
//!                      komi points − ½), node limit 100 M
//! ```
//!
//! Random positions are mostly lost for Black (White lives), so the random suites weigh
//! disproofs; `killall-proofs` is made of the proofs a kill-all value needs. A prior
//! refitted with samples of killall-4x5 cost 0.68× and 0.80× the built-in weights' expansions
//! on the 5x5 suites but at least 1.8× on 4x5's own proof (docs/results.md): compare a change
//! on both kinds.
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
    /// Where its positions come from.
    pub source: Source,
    /// Default node limit per position (expansions; `--max-expansions` overrides it).
    pub limit: u64,
}

/// Where a suite's positions come from.
#[derive(Clone, Copy, Debug)]
pub enum Source {
    /// `count` distinct positions of a `rows`×`cols` board: `prefix`, then a number of random
    /// plies drawn uniformly from `plies`, all drawn with xoshiro256++ from `seed`.
    Random {
        rows: u32,
        cols: u32,
        /// Moves played before the random plies (GTP points, Black first).
        prefix: &'static [&'static str],
        /// Fewest and most random plies after the prefix.
        plies: (usize, usize),
        count: usize,
        seed: u64,
    },
    /// The empty boards (rows, columns), in order.
    Boards(&'static [(u32, u32)]),
}

/// One position of a suite: the board and the moves played on it (GTP points, Black first).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SuitePosition {
    pub rows: u32,
    pub cols: u32,
    pub moves: Vec<String>,
}

impl SuitePosition {
    /// Black's komi of the position's question in half-points: the whole board less half a
    /// point, so Black wins only by owning every point (a kill-all question).
    #[must_use]
    pub const fn komi2(&self) -> i32 {
        (2 * self.rows * self.cols) as i32 - 1
    }

    /// "RxC" alone for an empty board, else "RxC:M1+M2+…".
    #[must_use]
    pub fn name(&self) -> String {
        if self.moves.is_empty() {
            format!("{}x{}", self.rows, self.cols)
        } else {
            format!("{}x{}:{}", self.rows, self.cols, self.moves.join("+"))
        }
    }
}

/// The named suites.
pub const QUESTION_SUITES: [QuestionSuite; 4] = [
    QuestionSuite {
        name: "killall-5x5a",
        source: Source::Random {
            rows: 5,
            cols: 5,
            prefix: &["C3"],
            plies: (8, 12),
            count: 16,
            seed: 1,
        },
        limit: 1_000_000,
    },
    QuestionSuite {
        name: "killall-5x5b",
        source: Source::Random {
            rows: 5,
            cols: 5,
            prefix: &["C3"],
            plies: (8, 12),
            count: 16,
            seed: 2,
        },
        limit: 1_000_000,
    },
    QuestionSuite {
        name: "killall-4x5",
        source: Source::Random {
            rows: 4,
            cols: 5,
            prefix: &[],
            plies: (5, 9),
            count: 16,
            seed: 3,
        },
        limit: 1_000_000,
    },
    QuestionSuite {
        name: "killall-proofs",
        source: Source::Boards(&[(2, 6), (3, 5), (2, 7), (2, 8), (3, 6)]),
        limit: 100_000_000,
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
    /// The suite's positions, in order.
    ///
    /// # Panics
    /// If a prefix is not legal on its board or a board size is invalid (fixed tables of
    /// this module).
    #[must_use]
    pub fn positions(&self) -> Vec<SuitePosition> {
        match self.source {
            Source::Boards(boards) => boards
                .iter()
                .map(|&(rows, cols)| SuitePosition {
                    rows,
                    cols,
                    moves: Vec::new(),
                })
                .collect(),
            Source::Random {
                rows,
                cols,
                prefix,
                plies,
                count,
                seed,
            } => random_positions(rows, cols, prefix, plies, count, seed),
        }
    }
}

fn random_positions(
    rows: u32,
    cols: u32,
    prefix: &[&str],
    plies: (usize, usize),
    count: usize,
    seed: u64,
) -> Vec<SuitePosition> {
    let size = Size::new(rows, cols).expect("suite board size");
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut out: Vec<SuitePosition> = Vec::with_capacity(count);
    let mut legal = Vec::new();
    while out.len() < count {
        let mut pos = Position::new(size, Rules::default());
        let mut moves: Vec<String> = Vec::new();
        for m in prefix {
            pos.play_text(m).expect("suite prefix is legal");
            moves.push((*m).to_string());
        }
        let n = rng.random_range(plies.0..=plies.1);
        for _ in 0..n {
            pos.legal_moves_into(&mut legal);
            legal.retain(|&m| m != Move::Pass && !pos.fills_own_eye(m));
            if legal.is_empty() {
                break;
            }
            let m = legal[rng.random_range(0..legal.len())];
            pos.play(m).expect("a legal move");
            moves.push(m.to_string());
        }
        let p = SuitePosition { rows, cols, moves };
        if !out.contains(&p) {
            out.push(p);
        }
    }
    out
}

/// One position's result.
struct SuiteRow {
    name: String,
    komi2: i32,
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
            for position in suite.positions() {
                let name = position.name();
                let row = run_position(args, &position, &name, limit, prior, knowledge)?;
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
    position: &SuitePosition,
    name: &str,
    limit: u64,
    prior: gosolve::prior::PriorKind,
    knowledge: KnowledgeArgs,
) -> anyhow::Result<SuiteRow> {
    let size = format!("{}x{}", position.rows, position.cols);
    let moves = &position.moves;
    let pos = crate::go_input::go_position(&size, None, moves, None, 64)
        .with_context(|| format!("suite position {name}"))?;
    let root_moves = crate::cmd::prove::go::root_moves(&pos, true, moves)?;
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
    let mut solver = Solver::for_size(pos.size(), args.tt_mib, cfg)?;
    let p = solver.prove(
        &gosolve::Played {
            position: &pos,
            moves: &root_moves,
        },
        Player::Black,
        Komi::from_half_points(position.komi2()),
    );
    end_progress(p.time_s);
    if let Some(path) = &args.samples {
        crate::prior::write_samples(&mut solver, path)?;
    }
    Ok(SuiteRow {
        name: name.to_string(),
        komi2: position.komi2(),
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
                "question": {"winner": "black", "komi": f64::from(r.komi2) / 2.0},
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
            for (i, p) in a.iter().enumerate() {
                assert!(!a[..i].contains(p), "{}: {p:?} twice", s.name);
                if let Source::Random { prefix, .. } = s.source {
                    assert!(p.moves.len() > prefix.len(), "{}: {p:?}", s.name);
                }
                let size = format!("{}x{}", p.rows, p.cols);
                crate::go_input::go_position(&size, None, &p.moves, None, 64).unwrap();
            }
            if let Source::Random { count, .. } = s.source {
                assert_eq!(a.len(), count);
            }
        }
        assert!(find("KILLALL-5X5A").is_some());
        assert!(find("5x5").is_none());
    }

    #[test]
    fn the_kill_all_komi_is_the_board_less_half_a_point() {
        assert_eq!(find("killall-5x5a").unwrap().positions()[0].komi2(), 49);
        assert_eq!(find("killall-4x5").unwrap().positions()[0].komi2(), 39);
        let proofs = find("killall-proofs").unwrap().positions();
        let komis: Vec<i32> = proofs.iter().map(SuitePosition::komi2).collect();
        assert_eq!(komis, [23, 29, 27, 31, 35]);
        assert_eq!(proofs[4].name(), "3x6");
    }
}
