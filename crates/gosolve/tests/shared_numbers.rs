//! Unproven numbers shared by position (`Config::share_unproven`, the default on boards of
//! two rows or more): pairs of nodes with the same board but different superko histories,
//! asked in one table.
//!
//! For each random position P (a seeded random game stopped at a random point, so with a
//! real history) the twin T is the same board set up on an empty history. The two can have
//! different values (a move legal in T may recreate a board of P's history), and a shared
//! unproven entry steers the search of one with numbers found in the other. Every question
//! is asked of both in one solver, interleaved, and each answer is checked against the
//! brute-force oracle run on that node's own history.

mod common;

use games::Player;
use games::go;
use games::go::Komi;
use gosolve::bitboard::reference;
use gosolve::oracle::Oracle;
use gosolve::{Answer, Config, Solver};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

fn twin(pos: &go::Position) -> go::Position {
    let mut t = go::Position::new(pos.size(), pos.rules());
    t.setup(pos.board().clone(), pos.to_move())
        .expect("a board reached in play is a legal setup");
    t
}

#[test]
fn equal_boards_with_different_histories_keep_their_own_values() {
    let mut asked = 0;
    let mut differing = 0;
    for (rows, cols, seed, cases) in [(2, 2, 13, 80), (2, 3, 14, 40)] {
        let size = go::Size::new(rows, cols).unwrap();
        let n = size.points() as i32;
        let geo = reference::geometry(size).unwrap();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let cfg = Config {
            limits: gosolve::Limits {
                max_expansions: 2_000_000,
                ..gosolve::Limits::default()
            },
            share_unproven: true,
            ..Config::reference()
        };
        let mut solver = Solver::new(geo.clone(), 64, cfg);
        let mut done = 0;
        let mut attempts = 0;
        while done < cases {
            attempts += 1;
            assert!(
                attempts < 50 * cases,
                "{rows}x{cols}: too many positions skipped"
            );
            let (pos, played) = common::late_position(size, &mut rng);
            if pos.is_over() {
                continue;
            }
            let t = twin(&pos);
            let mut values = Vec::new();
            for p in [&pos, &t] {
                match Oracle::new().with_max_nodes(200_000).value(p) {
                    Ok(v) => values.push(v),
                    Err(_) => break,
                }
            }
            if values.len() < 2 {
                continue;
            }
            done += 1;
            differing += usize::from(values[0] != values[1]);
            let lines = [
                reference::line(&pos).unwrap().1,
                reference::line(&t).unwrap().1,
            ];
            for _ in 0..2 {
                let k = rng.random_range(0..2);
                let komi2 = 2 * values[k] + if rng.random_bool(0.5) { 1 } else { -1 };
                let komi2 = komi2.clamp(-2 * n - 1, 2 * n + 1);
                let winner = if rng.random_bool(0.5) {
                    Player::Black
                } else {
                    Player::White
                };
                // Both nodes, in a random order, at the same komi: the second one starts
                // from whatever numbers the first left in the shared entries.
                let first = rng.random_range(0..2);
                for j in [first, 1 - first] {
                    let proof = solver.prove(&lines[j], winner, Komi::from_half_points(komi2));
                    let expected = if (Komi::from_half_points(komi2).black_wins(values[j])
                        == Some(true))
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
                        "{rows}x{cols} seed {seed}: {} node, komi2 {komi2}, winner {winner}, \
                         values {values:?}\n{}\nmoves {:?}",
                        if j == 0 { "played" } else { "set-up" },
                        pos.board(),
                        played.iter().map(ToString::to_string).collect::<Vec<_>>()
                    );
                }
            }
        }
    }
    eprintln!("{asked} questions, {differing} twin pairs with different values");
    assert!(asked >= 450);
    // The suite must contain pairs whose histories change the value, or it tests nothing.
    assert!(differing > 0, "no twin pair had different values");
}
