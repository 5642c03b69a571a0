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
//! Not here yet: threshold probes, the brute force over all prefixes on one shared table,
//! re-solves in fresh processes, large-board prefixes and fault injection.

use anyhow::bail;
use games::Player;
use games::go::{self, KoRule, Rules};
use gosolve::oracle::Oracle;
use gosolve::position::reference;
use gosolve::search::black_wins;
use gosolve::{Answer, Config, Solver};

/// Arguments of `tsumi selftest`.
#[derive(clap::Args, Debug)]
pub struct SelftestArgs {
    /// The CI mode: small boards, a few hundred questions (well under a minute).
    #[arg(long)]
    pub quick: bool,
    /// The long mode: more boards (3x4, 4x4) and many more questions.
    #[arg(long)]
    pub long: bool,
    /// Seed of the random positions (the same seed repeats the run).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// SplitMix64: a small seeded generator (the runs must repeat for a seed).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
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

fn random_position(size: go::Size, rng: &mut Rng) -> (go::Position, Vec<String>) {
    let rules = Rules {
        ko: KoRule::PositionalSuperko,
        komi: go::Komi::from_half_points(1),
    };
    let mut pos = go::Position::new(size, rules);
    let mut played = Vec::new();
    let stop = rng.below(3 * size.points() + 1);
    for _ in 0..stop {
        if pos.is_over() {
            break;
        }
        let moves = pos.legal_moves();
        let m = if moves.len() == 1 || rng.below(25) == 0 {
            go::Move::Pass
        } else {
            moves[rng.below(moves.len() - 1)]
        };
        if pos.play(m).is_err() {
            break;
        }
        played.push(m.to_string());
    }
    (pos, played)
}

/// Runs `tsumi selftest`.
///
/// # Errors
/// Neither or both modes given (status 2); any disagreement (status 2, after the counts).
pub fn run(args: &SelftestArgs) -> anyhow::Result<()> {
    if args.quick == args.long {
        bail!("give one of --quick or --long");
    }
    let (boards, per_board): (&[(u32, u32)], usize) = if args.quick {
        (
            &[(1, 3), (1, 4), (1, 5), (1, 6), (2, 2), (2, 3), (3, 3)],
            60,
        )
    } else {
        (
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
        )
    };
    let mut rng = Rng(args.seed);
    let mut c = Counts::default();
    let start = std::time::Instant::now();
    for &(r, cols) in boards {
        let size = go::Size::new(r, cols)?;
        let n = size.points() as i32;
        let geo = gosolve::Geometry::new(r as usize, cols as usize)?;
        let mut full = Solver::new(geo.clone(), 16, Config::default());
        let mut reference_mode = Solver::new(geo, 16, Config::default().oracle_mode());
        let mut oracle = Oracle::new().with_max_nodes(2_000_000);
        for _ in 0..per_board {
            let (pos, moves) = random_position(size, &mut rng);
            // Komi: a random half-integer in [−(n + ½), n + ½].
            let k2 = 2 * (rng.below(2 * n as usize + 2) as i32 - n - 1) + 1;
            let Ok(v) = oracle.value(&pos) else {
                c.skipped += 1;
                continue;
            };
            c.cases += 1;
            let truth = black_wins(v, k2);
            let (_, line) = reference::line(&pos)?;
            let answer = |s: &mut Solver| s.prove(&line, Player::Black, k2).answer;
            let a = answer(&mut full);
            let b = answer(&mut reference_mode);
            let want = if truth { Answer::Win } else { Answer::Loss };
            let case = format!(
                "{size} after [{}] at komi {}",
                moves.join(" "),
                go::Komi::from_half_points(k2)
            );
            if a == want {
                c.agree_full += 1;
            } else {
                c.disagreements += 1;
                println!(
                    "DISAGREE full solver: {case}: {} vs oracle value {v}",
                    a.name()
                );
            }
            if b == want {
                c.agree_oracle_mode += 1;
            } else {
                c.disagreements += 1;
                println!(
                    "DISAGREE oracle mode: {case}: {} vs oracle value {v}",
                    b.name()
                );
            }
            // The full solver's proof as a certificate, checked independently.
            let winner = if truth { Player::Black } else { Player::White };
            let mut text = Vec::new();
            let written =
                gosolve::certificate::write_certificate(&mut full, &line, winner, k2, &mut text);
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
        "differential: {} questions ({} skipped: oracle budget) on {} boards, seed {}",
        c.cases,
        c.skipped,
        boards.len(),
        args.seed
    );
    println!(
        "  full solver agrees with the oracle: {}/{}; oracle mode: {}/{}",
        c.agree_full, c.cases, c.agree_oracle_mode, c.cases
    );
    println!(
        "  certificates written and accepted by the independent checker: {}/{} ({} nodes)",
        c.certificates, c.cases, c.certificate_nodes
    );
    println!(
        "disagreements: {}; {:.1} s",
        c.disagreements,
        start.elapsed().as_secs_f64()
    );
    if c.disagreements > 0 {
        bail!("selftest found {} disagreements", c.disagreements);
    }
    Ok(())
}
