//! Parallel df-pn against the serial search and the brute-force oracle.
//!
//! Random positions with real superko histories (seeded random games stopped at random
//! points) and random komi are asked of solvers with 1, 2, 3 and 8 threads over one shared
//! table each (on a 2-core machine the extra threads interleave, which is the point), with
//! and without virtual loss. Every answer must equal the oracle's; every proven win of the
//! side to move comes with a move the oracle confirms. Whole boards are solved with several
//! threads and must give the published values, run after run.

mod common;

use games::Player;
use games::go;
use games::go::Komi;
use gosolve::bitboard::Line;
use gosolve::bitboard::reference;
use gosolve::oracle::Oracle;
use gosolve::{Answer, Config, Solver, solve_value};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

fn config(threads: usize, virtual_loss: bool) -> Config {
    Config {
        limits: gosolve::Limits {
            max_expansions: 2_000_000,
            ..gosolve::Limits::default()
        },
        threads,
        virtual_loss,
        ..Config::reference()
    }
}

/// Asks `cases` random questions on `rows`x`cols` of every solver; returns the questions
/// asked and the expansions each thread count spent.
fn differential(rows: u32, cols: u32, seed: u64, cases: u64) -> (u64, Vec<u64>) {
    let size = go::Size::new(rows, cols).unwrap();
    let n = size.points() as i32;
    let geo = reference::geometry(size).unwrap();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let kinds = [(1, true), (2, true), (3, true), (8, true), (2, false)];
    // Small tables on purpose: threads evict each other's entries and race for slots.
    let mut solvers: Vec<Solver> = kinds
        .iter()
        .map(|&(t, vl)| Solver::new(geo.clone(), 2, config(t, vl)))
        .collect();
    let mut spent = vec![0u64; kinds.len()];
    let mut asked = 0;
    let mut attempts = 0;
    while asked < cases {
        attempts += 1;
        assert!(attempts < cases * 20 + 100, "too many positions skipped");
        let played = common::random_game(size, &mut rng, 0.04);
        let lo = if n >= 6 {
            played.len().saturating_sub(4 + n as usize / 2)
        } else {
            0
        };
        let stop = rng.random_range(lo..played.len().max(lo + 1));
        let pos = common::replay(size, &played[..stop]);
        let mut oracle = Oracle::new().with_max_nodes(5_000);
        let Ok(value) = oracle.value(&pos) else {
            continue;
        };
        let (_, line) = reference::line(&pos).unwrap();
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
        let expected = if (Komi::from_half_points(komi2).black_wins(value) == Some(true))
            == (winner == Player::Black)
        {
            Answer::Proven
        } else {
            Answer::Disproven
        };
        for (i, s) in solvers.iter_mut().enumerate() {
            let (threads, vl) = kinds[i];
            let ctx = format!(
                "{rows}x{cols} seed {seed}: {threads} threads (virtual loss {vl}), \
                 {winner} at komi2 {komi2}, value {value}, moves {}",
                played[..stop]
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join(",")
            );
            let p = s.prove(&line, winner, Komi::from_half_points(komi2));
            assert_eq!(p.answer, expected, "{ctx}");
            assert_eq!(p.threads, threads);
            spent[i] += p.expansions;
            let mover_wins = (p.answer == Answer::Proven) == (winner == pos.to_move());
            if mover_wins && !pos.is_over() {
                let m = p.best_move.unwrap_or_else(|| panic!("no best move: {ctx}"));
                let mut child = pos.clone();
                child.play(m).unwrap();
                if let Ok(cv) = oracle.value(&child) {
                    assert_eq!(
                        (Komi::from_half_points(komi2).black_wins(cv) == Some(true)),
                        pos.to_move() == Player::Black,
                        "best move {m:?} does not win: {ctx}"
                    );
                }
            }
        }
        asked += 1;
    }
    (asked, spent)
}

#[test]
fn parallel_answers_equal_the_oracle_on_random_superko_positions() {
    let mut total = 0;
    for (i, &(r, c)) in [(1, 5), (2, 2), (2, 3), (1, 7), (2, 4), (3, 3), (3, 4)]
        .iter()
        .enumerate()
    {
        let cases = if r * c <= 6 { 40 } else { 12 };
        let (asked, spent) = differential(r, c, 0x9A7A_11E1 + i as u64, cases);
        eprintln!("{r}x{c}: {asked} questions, expansions by threads 1/2/3/8/2-no-vl: {spent:?}");
        total += asked;
    }
    assert!(total >= 150);
}

#[test]
fn whole_boards_with_threads_have_the_published_values_run_after_run() {
    // (rows, cols, value) from data/go-psk-values.tsv.
    for &(r, c, v) in &[(2, 2, 1), (3, 3, 9), (2, 4, 8), (1, 7, 2), (3, 4, 4)] {
        let geo = gosolve::bitboard::Geometry::new(r, c).unwrap();
        for threads in [2, 3] {
            for run in 0..2 {
                let mut s = Solver::new(geo.clone(), 16, config(threads, true));
                let solved = solve_value(&mut s, &Line::new(), |_| {});
                assert_eq!(
                    solved.value,
                    Some(v),
                    "{r}x{c} with {threads} threads, run {run}"
                );
                assert!(solved.proofs.iter().all(|p| p.threads == threads));
            }
        }
    }
}

#[test]
fn a_root_proven_by_the_table_on_entry_still_names_its_winning_move() {
    // 2x4 (value +8, a full-board win for Black): the second time the question is asked the
    // root's proof is found in the table at once; its move must come back with it.
    let geo = gosolve::bitboard::Geometry::new(2, 4).unwrap();
    for threads in [1, 2, 3] {
        let mut s = Solver::new(geo.clone(), 16, config(threads, true));
        let first = s.prove(&Line::new(), Player::Black, Komi::from_half_points(15));
        let again = s.prove(&Line::new(), Player::Black, Komi::from_half_points(15));
        assert_eq!(first.answer, Answer::Proven, "{threads} threads");
        assert_eq!(again.answer, Answer::Proven, "{threads} threads");
        // One expansion a thread: the root entry itself.
        assert!(
            again.expansions <= threads as u64,
            "{threads} threads: {}",
            again.expansions
        );
        let m = again.best_move.expect("a best move from the table's proof");
        let mut line = Line::new();
        line.play(&geo, reference::to_fast(&geo, m)).unwrap();
        let reply = s.prove(&line, Player::Black, Komi::from_half_points(15));
        assert_eq!(
            reply.answer,
            Answer::Proven,
            "{threads} threads: {m:?} keeps the win"
        );
    }
}
