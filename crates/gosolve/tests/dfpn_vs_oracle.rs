//! Differential test: df-pn against the brute-force oracle on random positions with real
//! superko histories (seeded random games stopped at random points) and random komi.
//!
//! One solver (one table) serves every case of a board size, so the cases also check that
//! proofs transferred between different superko games (Theorem 1) never answer a question
//! wrongly. Each question is asked of three solvers: the full one (transfer, pure-eye static
//! leaves, region games), the reference mode (`Config::oracle_mode`: reuse only in the
//! identical game, no static knowledge) and the full one with winner-side pruning (whose wins
//! must be right and whose losses must come back unknown). Each proven win of the side to
//! move comes with a best move, which the oracle confirms. The suite checks that transfers,
//! static leaves and region leaves actually happened.

mod common;

use games::Player;
use games::go;
use games::go::Komi;
use gosolve::bitboard::reference;
use gosolve::oracle::Oracle;
use gosolve::{Answer, Config, Solver};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// Boards of the differential test and their share of the cases.
const BOARDS: &[(u32, u32)] = &[
    (1, 1),
    (1, 2),
    (1, 3),
    (1, 4),
    (1, 5),
    (1, 6),
    (1, 7),
    (2, 2),
    (2, 3),
    (2, 4),
    (3, 3),
    (3, 4),
    (4, 4),
];

#[derive(Default, Debug)]
struct Tally {
    cases: u64,
    skipped: u64,
    wins: u64,
    losses: u64,
    best_moves: u64,
    expansions: u64,
    oracle_mode_expansions: u64,
    /// Questions the reference mode left unknown at its expansion budget.
    oracle_mode_budget: u64,
    pruned_wins: u64,
    /// Proofs whose scores carry them past the komi asked.
    strengthened: u64,
    pruned_unknown: u64,
    transfers: u64,
    static_leaves: u64,
    region_leaves: u64,
}

/// A random game on the reference board, played to its end, then replayed to a random stop
/// (never the final position: that one is decided by the score alone).
fn random_position(
    size: go::Size,
    rng: &mut Xoshiro256PlusPlus,
    late: bool,
) -> (go::Position, Vec<go::Move>) {
    let mut played = common::random_game(size, rng, 0.04);
    let len = played.len();
    // Larger boards stop within the last plies of the game (after its captures and repeated
    // threats), where the oracle can finish; small boards anywhere.
    let lo = if late {
        len.saturating_sub(4 + size.points() / 2)
    } else {
        0
    };
    let stop = rng.random_range(lo..len.max(lo + 1));
    let pos = common::replay(size, &played[..stop]);
    played.truncate(stop);
    (pos, played)
}

fn run(rows: u32, cols: u32, seed: u64, cases: u64, oracle_budget: u64, tt_mib: usize) -> Tally {
    let size = go::Size::new(rows, cols).unwrap();
    let n = size.points() as i32;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let geo = reference::geometry(size).unwrap();
    let cfg = Config {
        limits: gosolve::Limits {
            max_expansions: 2_000_000,
            ..gosolve::Limits::default()
        },
        ..Config::reference()
    };
    let mut solver = Solver::new(geo.clone(), tt_mib, cfg.clone());
    let mut reference_solver = Solver::new(geo.clone(), tt_mib, cfg.clone().oracle_mode());
    let mut pruned = Solver::new(
        geo.clone(),
        tt_mib,
        Config {
            prune: true,
            ..cfg.clone()
        },
    );
    let mut t = Tally::default();
    // Large boards stop in the second half of the game so that the oracle can finish.
    let late = n >= 6;
    let mut attempts = 0;
    while t.cases < cases {
        attempts += 1;
        assert!(
            attempts < cases * 20 + 100,
            "{rows}x{cols}: too many positions skipped ({t:?})"
        );
        let (pos, played) = random_position(size, &mut rng, late);
        let t0 = std::time::Instant::now();
        let mut oracle = Oracle::new().with_max_nodes(oracle_budget);
        let ov = oracle.value(&pos);
        if std::env::var("DIFF_TRACE").is_ok() {
            eprintln!(
                "oracle {:?} {:.3}s {} nodes",
                ov,
                t0.elapsed().as_secs_f64(),
                oracle.nodes()
            );
        }
        let Ok(value) = ov else {
            t.skipped += 1;
            continue;
        };
        let (_, line) = reference::line(&pos).unwrap();
        for _ in 0..3 {
            let komi2 = if rng.random_bool(0.7) {
                2 * value + if rng.random_bool(0.5) { 1 } else { -1 }
            } else {
                2 * rng.random_range(-n - 1..=n) + 1
            };
            let winner = if rng.random_bool(0.5) {
                Player::Black
            } else {
                Player::White
            };
            if std::env::var("DIFF_TRACE").is_ok() {
                eprintln!(
                    "prove {winner} komi2 {komi2} value {value} moves {:?}",
                    played.iter().map(ToString::to_string).collect::<Vec<_>>()
                );
            }
            let proof = solver.prove(&line, winner, Komi::from_half_points(komi2));
            if std::env::var("DIFF_TRACE").is_ok() {
                eprintln!("  -> {:?} {} exp", proof.answer, proof.expansions);
            }
            let expected = if (Komi::from_half_points(komi2).black_wins(value) == Some(true))
                == (winner == Player::Black)
            {
                Answer::Proven
            } else {
                Answer::Disproven
            };
            let ctx = format!(
                "{rows}x{cols} seed {seed} case {}: komi2 {komi2} winner {winner} value {value}\n{}\nmoves {}",
                t.cases,
                pos.board(),
                played
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join(",")
            );
            if proof.expansions > 100_000 {
                eprintln!(
                    "slow case: {} expansions, {:?}\n{ctx}",
                    proof.expansions, proof.answer
                );
            }
            assert_eq!(proof.answer, expected, "{ctx}");
            // The bound the proof's scores carry it to (`Proof::holds`) is a true bound.
            match proof.bound() {
                Some((Player::Black, b)) => {
                    assert!(value >= b, "holds {}: {ctx}", proof.holds.half_points())
                }
                Some((Player::White, b)) => {
                    assert!(value <= b, "holds {}: {ctx}", proof.holds.half_points())
                }
                None => unreachable!("a proven answer has a bound"),
            }
            t.strengthened += u64::from(proof.holds != proof.komi);
            t.expansions += proof.expansions;
            let r = reference_solver.prove(&line, winner, Komi::from_half_points(komi2));
            if r.answer == Answer::Unknown {
                // The reference mode has no static knowledge and no transfer: early positions
                // (which the oracle solves since its MTD(f) search) can exceed its budget.
                assert!(
                    r.expansions >= cfg.limits.max_expansions,
                    "oracle mode unknown within its budget: {ctx}"
                );
                t.oracle_mode_budget += 1;
            } else {
                assert_eq!(r.answer, expected, "oracle mode: {ctx}");
            }
            t.oracle_mode_expansions += r.expansions;
            let pr = pruned.prove(&line, winner, Komi::from_half_points(komi2));
            match pr.answer {
                Answer::Proven => {
                    assert_eq!(expected, Answer::Proven, "pruned: {ctx}");
                    t.pruned_wins += 1;
                }
                Answer::Unknown => {
                    assert!(pr.pruned_loss, "pruned search ran out of budget: {ctx}");
                    t.pruned_unknown += 1;
                }
                Answer::Disproven => {
                    panic!("a pruned search reported a loss of its own side: {ctx}")
                }
            }
            if proof.answer == Answer::Proven {
                t.wins += 1
            } else {
                t.losses += 1
            }
            // A win of the side to move comes with a move that keeps the win.
            let mover = pos.to_move();
            let mover_wins = (proof.answer == Answer::Proven) == (winner == mover);
            if mover_wins && !pos.is_over() {
                let m = proof
                    .best_move
                    .unwrap_or_else(|| panic!("{ctx}: no best move"));
                let mut child = pos.clone();
                child.play(m).unwrap_or_else(|e| panic!("{ctx}: {e}"));
                // The child's full value can be far harder for the oracle than the parent's
                // (a cutoff at the parent), so it is checked within the same budget.
                if let Ok(cv) = oracle.value(&child) {
                    assert_eq!(
                        (Komi::from_half_points(komi2).black_wins(cv) == Some(true)),
                        mover == Player::Black,
                        "{ctx}: best move {m:?} does not win"
                    );
                    t.best_moves += 1;
                }
            }
            t.cases += 1;
        }
    }
    let k = solver.knowledge_stats();
    t.transfers = k.transfers;
    t.static_leaves = k.static_leaves;
    t.region_leaves = k.region_leaves;
    t
}

fn suite(per_board: u64, seed: u64) {
    let small = |r: u32, c: u32| r * c <= 6;
    let only = std::env::var("DIFF_BOARD").ok();
    let mut total = Tally::default();
    for (i, &(r, c)) in BOARDS.iter().enumerate() {
        if only.as_ref().is_some_and(|o| *o != format!("{r}x{c}")) {
            continue;
        }
        let t0 = std::time::Instant::now();
        let budget = std::env::var("ORACLE_BUDGET")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(5_000);
        // Small tables on purpose: entries are evicted and buckets shared across games.
        let cases = if small(r, c) {
            per_board
        } else {
            per_board / 5
        };
        let t = run(r, c, seed + i as u64, cases, budget, 8);
        eprintln!("{r}x{c}: {t:?} {:.1}s", t0.elapsed().as_secs_f64());
        assert!(t.wins > 0 && t.losses > 0, "{r}x{c}: one-sided cases {t:?}");
        total.transfers += t.transfers;
        total.static_leaves += t.static_leaves;
        total.region_leaves += t.region_leaves;
        total.pruned_wins += t.pruned_wins;
        total.pruned_unknown += t.pruned_unknown;
        total.strengthened += t.strengthened;
    }
    eprintln!("total: {total:?}");
    if only.is_none() {
        // The knowledge under test was exercised.
        assert!(total.transfers > 0, "no proof was transferred: {total:?}");
        assert!(total.static_leaves > 0, "no static leaf: {total:?}");
        assert!(
            total.strengthened > 0,
            "no proof held past its komi: {total:?}"
        );
        // Region leaves need Black walls around every region, which random late positions
        // rarely have: tests/regions.rs checks them against the oracle on built positions.
        assert!(
            total.pruned_wins > 0 && total.pruned_unknown > 0,
            "{total:?}"
        );
    }
}

#[test]
fn dfpn_agrees_with_oracle() {
    // 7 small boards × 300 questions + 6 larger ones × 60 ≈ 2,500 cases.
    suite(300, 42);
}

#[test]
#[ignore = "soak: 10^5 cases, minutes"]
fn dfpn_agrees_with_oracle_soak() {
    let per_board = std::env::var("SOAK_PER_BOARD")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(12_000); // 7 × 12,000 + 6 × 2,400 ≈ 10^5 cases
    suite(per_board, 7_000);
}

/// Counts of the pruned-value differential test.
#[derive(Default, Debug)]
struct PrunedTally {
    positions: u64,
    skipped: u64,
    /// Questions asked again unpruned after both pruned searches lost.
    unpruned_repeats: u64,
    pruned_expansions: u64,
    unpruned_expansions: u64,
    /// The largest ratio of pruned to unpruned expansions of one position's value.
    worst_ratio: f64,
}

/// The value of random positions by bisection with winner-side pruning equals the oracle's:
/// pruning may hide a good move (own-eye fills, moves in one's own territory), but the
/// bisection then asks unpruned, so no pruned value is wrong or missing.
#[test]
fn pruned_values_agree_with_oracle() {
    let mut total = PrunedTally::default();
    for (i, &(r, c, positions)) in [(1, 4, 20), (1, 5, 40), (1, 6, 60), (2, 2, 30), (2, 3, 20)]
        .iter()
        .enumerate()
    {
        let size = go::Size::new(r, c).unwrap();
        let geo = reference::geometry(size).unwrap();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(90 + i as u64);
        let cfg = Config {
            limits: gosolve::Limits {
                max_expansions: 2_000_000,
                ..gosolve::Limits::default()
            },
            ..Config::reference()
        };
        let mut pruned = Solver::new(
            geo.clone(),
            8,
            Config {
                prune: true,
                ..cfg.clone()
            },
        );
        let mut plain = Solver::new(geo.clone(), 8, cfg);
        let mut t = PrunedTally::default();
        while t.positions < positions {
            assert!(t.skipped < 20 * positions, "{r}x{c}: too many skipped");
            // Positions anywhere in the game: the early ones are where pruning hides moves.
            let (pos, played) = random_position(size, &mut rng, false);
            let Ok(value) = Oracle::new().with_max_nodes(50_000).value(&pos) else {
                t.skipped += 1;
                continue;
            };
            let (_, line) = reference::line(&pos).unwrap();
            let ctx = format!(
                "{r}x{c} moves {}",
                played
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join(",")
            );
            let s = gosolve::solve_value(&mut pruned, &line, |_| {});
            assert_eq!(s.value, Some(value), "pruned value: {ctx}\n{:?}", s.proofs);
            assert!(s.pv_checked || line.over, "pruned PV: {ctx}");
            t.unpruned_repeats += s.proofs.iter().filter(|p| !p.pruned).count() as u64;
            let pe: u64 = s.proofs.iter().map(|p| p.expansions).sum();
            let u = gosolve::solve_value(&mut plain, &line, |_| {});
            assert_eq!(u.value, Some(value), "unpruned value: {ctx}");
            let ue: u64 = u.proofs.iter().map(|p| p.expansions).sum();
            t.pruned_expansions += pe;
            t.unpruned_expansions += ue;
            t.worst_ratio = t.worst_ratio.max(pe as f64 / ue.max(1) as f64);
            t.positions += 1;
        }
        eprintln!("{r}x{c}: {t:?}");
        total.positions += t.positions;
        total.unpruned_repeats += t.unpruned_repeats;
        total.pruned_expansions += t.pruned_expansions;
        total.unpruned_expansions += t.unpruned_expansions;
        total.worst_ratio = total.worst_ratio.max(t.worst_ratio);
    }
    eprintln!("total: {total:?}");
    // The repeat was exercised: some positions need a move that pruning hides.
    assert!(total.unpruned_repeats > 0, "{total:?}");
}
