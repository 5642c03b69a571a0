//! Threshold probes: the komi exactly where the pure-eye rule (Lemma 1) declares a winner.
//!
//! For a random position and each player w with a non-empty X*, the static rule declares w
//! the winner once w's certified area A (|X*| + |T*|) wins: for Black when 4A − 2n > k2,
//! for White when 2n − 4A < k2 (k2: komi in half-points, n points). The probes ask at the
//! last komi the rule still declares (k2 = 4A − 2n − 1 for Black, 2n − 4A + 1 for White) and
//! one point either side of it (k2 ± 2), where an off-by-one in the rule, in (C1)/(C2) or in
//! the komi a static proof is stored at would show. The full solver's answer is compared with
//! the brute-force oracle's value at each of those komi.

use super::{Mode, Rng, case_name, random_prefix};
use games::Player;
use games::go;
use games::go::Komi;
use gosolve::eyes::certified_area;
use gosolve::oracle::Oracle;
use gosolve::{Answer, Config, Solver};

/// Runs the probes; returns the disagreements.
pub(super) fn run(mode: Mode, seed: u64) -> anyhow::Result<u64> {
    let (boards, per_board, oracle_nodes): (&[(u32, u32)], usize, u64) = match mode {
        Mode::Quick => (&[(1, 5), (1, 6), (2, 3), (2, 4), (3, 3)], 150, 500_000),
        Mode::Long => (
            &[(1, 6), (1, 7), (2, 4), (2, 5), (3, 3), (3, 4), (4, 4)],
            300,
            2_000_000,
        ),
    };
    let start = std::time::Instant::now();
    let mut rng = Rng(seed ^ 0x7468_7265_7368);
    let (mut positions, mut probes, mut agree, mut skipped, mut decided_statically) =
        (0u64, 0u64, 0u64, 0u64, 0u64);
    let mut disagreements = 0;
    for &(r, c) in boards {
        let size = go::Size::new(r, c)?;
        let n = size.points() as i32;
        let mut solver = Solver::for_size(size, 16, Config::reference())?;
        let mut oracle = Oracle::new().with_max_nodes(oracle_nodes);
        for _ in 0..per_board {
            if super::interrupted() {
                break;
            }
            // Late positions, where eyes exist.
            let (pos, moves) = random_prefix(size, 3 * size.points(), &mut rng);
            if pos.is_over() {
                continue;
            }
            let mut thresholds = Vec::new();
            for w in [Player::Black, Player::White] {
                let Some(a) = certified_area(pos.board(), w)? else {
                    continue;
                };
                let a = a as i32;
                thresholds.push(if w == Player::Black {
                    4 * a - 2 * n - 1
                } else {
                    2 * n - 4 * a + 1
                });
            }
            if thresholds.is_empty() {
                continue;
            }
            let Ok(v) = oracle.value(&pos) else {
                skipped += 1;
                continue;
            };
            positions += 1;
            for t in thresholds {
                for k2 in [t - 2, t, t + 2] {
                    probes += 1;
                    let before = solver.knowledge_stats().static_leaves;
                    let a = solver
                        .prove(&pos, Player::Black, Komi::from_half_points(k2))
                        .answer;
                    if solver.knowledge_stats().static_leaves > before {
                        decided_statically += 1;
                    }
                    let want = if Komi::from_half_points(k2).black_wins(v) == Some(true) {
                        Answer::Proven
                    } else {
                        Answer::Disproven
                    };
                    if a == want {
                        agree += 1;
                    } else {
                        disagreements += 1;
                        println!(
                            "DISAGREE threshold probe: {}: {} vs oracle value {v}",
                            case_name(size, &moves, k2),
                            a.outcome_name()
                        );
                    }
                }
            }
        }
    }
    println!(
        "threshold probes: {probes} komi at or one point beside a static threshold, in {positions} positions ({skipped} skipped: oracle budget) on {} boards; {:.1} s",
        boards.len(),
        start.elapsed().as_secs_f64()
    );
    println!(
        "  solver agrees with the oracle: {agree}/{probes}; {decided_statically} of the questions used a new static leaf"
    );
    Ok(disagreements)
}
