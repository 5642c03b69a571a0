//! `tsumi selftest --quick|--long`: the solver checked against independent references.
//!
//! Differential part (Section 5 of the Sanko paper): seeded random positions with real
//! superko histories (random games on the reference board `games::go`, stopped at a random
//! ply) and random komi. Each question "does Black win at komi k?" is answered by the full
//! solver (transfer, static leaves, region games; one table per board, so proofs cross
//! superko games), by the solver in `--oracle-mode`, and by the brute-force oracle; and the
//! full solver's proof is written as a certificate and checked by the independent checker
//! (`crates/check`), which must accept it for the oracle's winner. Any disagreement is
//! printed and the command exits with status 2.
//!
//! The other parts, each in its own module and each printing its counts:
//! - [`threshold`]: threshold probes, komi exactly where the pure-eye rule declares a winner
//!   (and one point either side), solver against oracle;
//! - [`brute`]: every prefix of random games on one shared table against the exact-state
//!   minimax (the oracle), the exact value by two questions;
//! - [`resolve`]: proofs split at the root into their branches, each proved in a fresh
//!   process (`tsumi prove go --moves ...`), the combination against the root's answer;
//! - [`large`]: long random prefixes on the claimed boards (4x5, 3x6, 2x8, 1x12), against
//!   the oracle where it finishes and against a re-solve otherwise;
//! - `faults` (only in a build with `--features fault-injection`, `--faults`): wrong proofs
//!   accepted on purpose, counted with how many changed a result.

mod brute;
#[cfg(feature = "fault-injection")]
mod faults;
mod large;
mod resolve;
mod threshold;

use anyhow::bail;
use games::Player;
use games::go::Komi;
use games::go::{self, KoRule, Rules};
use gosolve::oracle::Oracle;
use gosolve::{Answer, Config, Solver};

/// Arguments of `tsumi selftest`.
#[derive(clap::Args, Debug)]
pub struct SelftestArgs {
    /// The CI mode: small boards, a few hundred questions (well under a minute).
    #[arg(long)]
    pub quick: bool,
    /// The long mode: more boards (3x4, 4x4), the large boards and many more questions.
    #[arg(long)]
    pub long: bool,
    /// Seed of the random positions (the same seed repeats the run).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Only fault injection (a build with `--features fault-injection`): wrong proofs
    /// accepted on purpose, with the 95% upper bound on the chance that one changes a value.
    #[arg(long)]
    pub faults: bool,
    /// Run only these parts (repeatable; default: all of them).
    #[arg(long = "part", value_enum)]
    pub parts: Vec<Part>,
}

/// One part of the selftest (see the module docs).
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    /// Solver, `--oracle-mode` and certificates against the brute-force oracle.
    Differential,
    /// Komi exactly where a static rule declares a winner.
    Threshold,
    /// Every prefix of random games on one shared table against the exact-state minimax.
    Brute,
    /// Proofs split at the root, each branch proved in a fresh process.
    Resolve,
    /// Long random prefixes on the claimed boards (4x5, 3x6, 2x8, 1x12).
    Large,
}

/// The sizes of one mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mode {
    Quick,
    Long,
}

/// SplitMix64: a small seeded generator (the runs must repeat for a seed).
pub(crate) struct Rng(pub(crate) u64);

impl Rng {
    pub(crate) fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    pub(crate) fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

#[derive(Default)]
struct Counts {
    cases: u64,
    skipped: u64,
    agree_full: u64,
    agree_oracle_mode: u64,
    certificates: u64,
    certificate_nodes: u64,
    disagreements: u64,
}

/// A PSK position with komi 0.5 (the questions give their own komi).
pub(crate) fn empty_position(size: go::Size) -> go::Position {
    let rules = Rules {
        ko: KoRule::PositionalSuperko,
        komi: go::Komi::from_half_points(1),
    };
    go::Position::new(size, rules)
}

/// One random move of a random game: mostly a stone (uniform), a pass one time in 25 or
/// when nothing else is legal.
pub(crate) fn random_move(pos: &go::Position, rng: &mut Rng) -> Option<go::Move> {
    if pos.is_over() {
        return None;
    }
    let moves = pos.legal_moves();
    Some(if moves.len() == 1 || rng.below(25) == 0 {
        go::Move::Pass
    } else {
        moves[rng.below(moves.len() - 1)]
    })
}

/// A random game stopped at a random ply in `0..=max_plies` (or at its end): the position
/// and the moves, as the `--moves` of `tsumi prove go` writes them.
pub(crate) fn random_prefix(
    size: go::Size,
    max_plies: usize,
    rng: &mut Rng,
) -> (go::Position, Vec<String>) {
    let mut pos = empty_position(size);
    let mut played = Vec::new();
    let stop = rng.below(max_plies + 1);
    for _ in 0..stop {
        let Some(m) = random_move(&pos, rng) else {
            break;
        };
        if pos.play(m).is_err() {
            break;
        }
        played.push(m.to_string());
    }
    (pos, played)
}

fn random_position(size: go::Size, rng: &mut Rng) -> (go::Position, Vec<String>) {
    random_prefix(size, 3 * size.points(), rng)
}

/// Whether Ctrl-C was pressed: every part stops asking new questions, prints the counts of
/// the questions it asked, and the selftest ends with status 3 (no verdict on the rest).
pub(crate) fn interrupted() -> bool {
    crate::interrupt::cancel_flag().load(std::sync::atomic::Ordering::Relaxed)
}

/// The question's case as printed on a disagreement.
pub(crate) fn case_name(size: go::Size, moves: &[String], komi2: i32) -> String {
    format!(
        "{size} after [{}] at komi {}",
        moves.join(" "),
        go::Komi::from_half_points(komi2)
    )
}

/// Runs `tsumi selftest`.
///
/// # Errors
/// Neither or both modes given (status 2); `--faults` in a build without fault injection;
/// any disagreement (status 2, after the counts); Ctrl-C before the end (status 3, after the
/// counts so far).
pub fn run(args: &SelftestArgs) -> anyhow::Result<()> {
    if args.quick == args.long {
        bail!("give one of --quick or --long");
    }
    let mode = if args.quick { Mode::Quick } else { Mode::Long };
    let start = std::time::Instant::now();
    let mut disagreements = 0;
    if args.faults {
        #[cfg(feature = "fault-injection")]
        {
            disagreements += faults::run(mode, args.seed)?;
        }
        #[cfg(not(feature = "fault-injection"))]
        bail!(
            "--faults needs a build with fault injection: cargo build --release -p tsumi --features fault-injection"
        );
    } else {
        let on = |p: Part| (args.parts.is_empty() || args.parts.contains(&p)) && !interrupted();
        if on(Part::Differential) {
            disagreements += differential(mode, args.seed)?;
        }
        if on(Part::Threshold) {
            disagreements += threshold::run(mode, args.seed)?;
        }
        if on(Part::Brute) {
            disagreements += brute::run(mode, args.seed)?;
        }
        if on(Part::Resolve) {
            disagreements += resolve::run(mode, args.seed)?;
        }
        if on(Part::Large) {
            disagreements += large::run(mode, args.seed)?;
        }
    }
    println!(
        "disagreements: {disagreements}; {:.1} s",
        start.elapsed().as_secs_f64()
    );
    if disagreements > 0 {
        bail!("selftest found {disagreements} disagreements");
    }
    if interrupted() {
        return Err(crate::exit::unknown(
            "interrupted: the counts above cover the questions asked before Ctrl-C",
        ));
    }
    Ok(())
}

/// The differential part (see the module docs); returns the disagreements.
fn differential(mode: Mode, seed: u64) -> anyhow::Result<u64> {
    // The oracle's budget per question: questions it cannot answer are skipped, so a small
    // budget in the quick mode saves the time of the hopeless ones.
    let (boards, per_board, oracle_nodes): (&[(u32, u32)], usize, u64) = match mode {
        Mode::Quick => (
            &[(1, 3), (1, 4), (1, 5), (1, 6), (2, 2), (2, 3), (3, 3)],
            60,
            200_000,
        ),
        Mode::Long => (
            &[
                (1, 5),
                (1, 6),
                (1, 7),
                (2, 3),
                (2, 4),
                (3, 3),
                (3, 4),
                (4, 4),
            ],
            600,
            2_000_000,
        ),
    };
    let mut rng = Rng(seed);
    let mut c = Counts::default();
    let start = std::time::Instant::now();
    for &(r, cols) in boards {
        let size = go::Size::new(r, cols)?;
        let n = size.points() as i32;
        let mut full = Solver::for_size(size, 16, Config::reference())?;
        let mut reference_mode = Solver::for_size(size, 16, Config::reference().oracle_mode())?;
        let mut oracle = Oracle::new().with_max_nodes(oracle_nodes);
        for _ in 0..per_board {
            if interrupted() {
                break;
            }
            let (pos, moves) = random_position(size, &mut rng);
            // Komi: a random half-integer in [−(n + ½), n + ½].
            let k2 = 2 * (rng.below(2 * n as usize + 2) as i32 - n - 1) + 1;
            let Ok(v) = oracle.value(&pos) else {
                c.skipped += 1;
                continue;
            };
            c.cases += 1;
            let truth = Komi::from_half_points(k2).black_wins(v) == Some(true);
            let answer = |s: &mut Solver| {
                s.prove(&pos, Player::Black, Komi::from_half_points(k2))
                    .answer
            };
            let a = answer(&mut full);
            let b = answer(&mut reference_mode);
            let want = if truth {
                Answer::Proven
            } else {
                Answer::Disproven
            };
            let case = case_name(size, &moves, k2);
            if a == want {
                c.agree_full += 1;
            } else {
                c.disagreements += 1;
                println!(
                    "DISAGREE full solver: {case}: {} vs oracle value {v}",
                    a.outcome_name()
                );
            }
            if b == want {
                c.agree_oracle_mode += 1;
            } else {
                c.disagreements += 1;
                println!(
                    "DISAGREE oracle mode: {case}: {} vs oracle value {v}",
                    b.outcome_name()
                );
            }
            // The full solver's proof as a certificate, checked independently.
            let winner = if truth { Player::Black } else { Player::White };
            let mut text = Vec::new();
            let written = gosolve::certificate::write_certificate(
                &mut full,
                &pos,
                winner,
                Komi::from_half_points(k2),
                &mut text,
            );
            let verdict = written
                .map_err(|e| e.to_string())
                .and_then(|_| String::from_utf8(text).map_err(|e| e.to_string()))
                .and_then(|t| check::check_text(&t).map_err(|e| e.to_string()));
            match verdict {
                Ok(v) if (v.winner == check::Color::Black) == truth => {
                    c.certificates += 1;
                    c.certificate_nodes += v.nodes as u64;
                }
                Ok(v) => {
                    c.disagreements += 1;
                    println!("DISAGREE certificate: {case}: {v}");
                }
                Err(e) => {
                    c.disagreements += 1;
                    println!("DISAGREE certificate: {case}: {e}");
                }
            }
        }
    }
    println!(
        "differential: {} questions ({} skipped: oracle budget of {oracle_nodes} nodes) on {} boards, seed {seed}; {:.1} s",
        c.cases,
        c.skipped,
        boards.len(),
        start.elapsed().as_secs_f64()
    );
    println!(
        "  full solver agrees with the oracle: {}/{}; oracle mode: {}/{}",
        c.agree_full, c.cases, c.agree_oracle_mode, c.cases
    );
    println!(
        "  certificates written and accepted by the independent checker: {}/{} ({} nodes)",
        c.certificates, c.cases, c.certificate_nodes
    );
    Ok(c.disagreements)
}
