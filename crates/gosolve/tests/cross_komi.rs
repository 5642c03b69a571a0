//! Cross-komi numbers (`Config::cross_komi`, the default where numbers are shared): a node
//! with no numbers at the asked komi starts from its position's shared numbers of the komi
//! last searched there. They only steer the search; these tests check that answers stay
//! those of the brute-force oracle when one table is asked many komis in a mixed order,
//! with short probes in between that leave unproven numbers at komis nobody finishes.

mod common;

use games::Player;
use games::go;
use games::go::Komi;
use gosolve::bitboard::reference;
use gosolve::oracle::Oracle;
use gosolve::{Answer, Config, Solver, solve_value};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

#[test]
fn mixed_komis_in_one_table_keep_the_oracle_values() {
    let mut asked = 0;
    let mut cross_hits = 0;
    for (rows, cols, seed, cases) in [(2, 3, 31, 24), (2, 4, 32, 10), (3, 3, 33, 8)] {
        let size = go::Size::new(rows, cols).unwrap();
        let n = size.points() as i32;
        let geo = reference::geometry(size).unwrap();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let cfg = Config {
            limits: gosolve::Limits {
                max_expansions: 2_000_000,
                ..gosolve::Limits::default()
            },
            cross_komi: true,
            ..Config::reference()
        };
        // A small table on purpose: shared entries are evicted and buckets shared.
        let mut solver = Solver::new(geo.clone(), 2, cfg);
        let mut done = 0;
        let mut attempts = 0;
        while done < cases {
            attempts += 1;
            assert!(attempts < 50 * cases, "{rows}x{cols}: too many skipped");
            let (pos, _) = common::late_position(size, &mut rng);
            if pos.is_over() {
                continue;
            }
            let Ok(v) = Oracle::new().with_max_nodes(200_000).value(&pos) else {
                continue;
            };
            done += 1;
            let line = reference::line(&pos).unwrap().1;
            let mut komis: Vec<i32> = (-3..=3)
                .map(|d| (2 * (v + d) + 1).clamp(-2 * n - 1, 2 * n + 1))
                .collect();
            komis.shuffle(&mut rng);
            for komi2 in komis {
                let winner = if rng.random_bool(0.5) {
                    Player::Black
                } else {
                    Player::White
                };
                // A short probe at a neighbouring komi leaves numbers nobody finishes.
                let saved = solver.config().limits.max_expansions;
                solver.config_mut().limits.max_expansions = 20;
                solver.prove(&line, winner.opponent(), Komi::from_half_points(komi2 + 2));
                solver.config_mut().limits.max_expansions = saved;
                let proof = solver.prove(&line, winner, Komi::from_half_points(komi2));
                let expected = if (Komi::from_half_points(komi2).black_wins(v) == Some(true))
                    == (winner == Player::Black)
                {
                    Answer::Proven
                } else {
                    Answer::Disproven
                };
                asked += 1;
                assert_eq!(
                    proof.answer,
                    expected,
                    "{rows}x{cols} seed {seed}: komi2 {komi2}, winner {winner}, value {v}\n{}",
                    pos.board()
                );
            }
            // The whole bisection in the same table gives the value too.
            let res = solve_value(&mut solver, &line, |_| {});
            assert_eq!(
                res.value,
                Some(v),
                "{rows}x{cols} seed {seed}\n{}",
                pos.board()
            );
        }
        cross_hits += solver.table_stats().cross_komi_hits;
    }
    eprintln!("{asked} questions, {cross_hits} cross-komi hits");
    assert!(asked >= 280);
    // The numbers of other komis were used, or this tests nothing.
    assert!(cross_hits > 100, "only {cross_hits} cross-komi hits");
}

/// The empty boards' values with and without cross-komi numbers are the same, and the
/// solves differ in effort somewhere (the option is live).
#[test]
fn empty_board_values_do_not_depend_on_cross_komi_numbers() {
    let mut differ = false;
    for (rows, cols) in [(2, 3), (2, 4), (3, 3), (2, 5)] {
        let geo = gosolve::bitboard::Geometry::new(rows, cols).unwrap();
        let mut effort = Vec::new();
        let mut values = Vec::new();
        for cross in [false, true] {
            let cfg = Config {
                cross_komi: cross,
                ..Config::reference()
            };
            let mut solver = Solver::new(geo.clone(), 16, cfg);
            let res = solve_value(&mut solver, &gosolve::bitboard::Line::new(), |_| {});
            assert!(
                res.pv_checked,
                "{rows}x{cols}: the PV does not replay to the value"
            );
            values.push(res.value);
            effort.push(solver.totals().0);
        }
        assert_eq!(values[0], values[1], "{rows}x{cols}");
        assert!(values[0].is_some());
        eprintln!("{rows}x{cols}: {effort:?} expansions (without, with)");
        differ |= effort[0] != effort[1];
    }
    assert!(differ, "cross-komi numbers changed no solve's effort");
}
