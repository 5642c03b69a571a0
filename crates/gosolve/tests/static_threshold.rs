//! Static knowledge at its thresholds, and the counterexamples of the Sanko paper's Section 4.
//!
//! - Threshold probes: on random positions with real superko histories, the komi is set
//!   exactly where the pure-eye rule (Lemma 1) starts to declare a winner, and one half-point
//!   past it; the full solver (transfer, static leaves, region games) must answer both
//!   questions as `Config::oracle_mode` does (reuse only in the identical game, no static
//!   knowledge).
//! - Condition (C2): Black has just passed on a 3x3 board whose pure-eye analysis gives Black
//!   all nine points; White passes back and the area count 3–3 decides for White at komi 4.5.

mod common;

use games::Player;
use games::go;
use games::go::Komi;
use gosolve::bitboard::reference;
use gosolve::bitboard::{Board, Geometry, Line};
use gosolve::eyes::pure_eyes;
use gosolve::{Answer, Config, Solver};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// A random game on the reference board stopped in its second half.
fn random_line(size: go::Size, rng: &mut Xoshiro256PlusPlus) -> Option<(Geometry, Line)> {
    let played = common::random_game(size, rng, 0.03);
    let len = played.len();
    let stop = rng.random_range(len / 2..len.max(len / 2 + 1));
    let pos = common::replay(size, &played[..stop]);
    if pos.is_over() {
        return None;
    }
    reference::line(&pos).ok()
}

#[test]
fn static_thresholds_agree_with_oracle_mode() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(2026);
    let budget = 300_000;
    // The area-margin prior: these extreme komi values are far from the positions the learned
    // prior was fitted on, and the prior only orders the search.
    let cfg = Config {
        limits: gosolve::Limits {
            max_expansions: budget,
            ..gosolve::Limits::default()
        },
        prior: gosolve::search::PriorKind::SCORE,
        ..Config::reference()
    };
    let (mut probes, mut skipped, mut decided_statically) = (0u32, 0u32, 0u64);
    for &(r, c, cases) in &[(3u32, 3u32, 60u32), (2, 5, 40), (3, 4, 40), (4, 4, 30)] {
        let size = go::Size::new(r, c).unwrap();
        let n = size.points() as i32;
        let mut done = 0;
        let mut attempts = 0;
        while done < cases && attempts < cases * 40 {
            attempts += 1;
            let Some((geo, line)) = random_line(size, &mut rng) else {
                continue;
            };
            let board = line.position.board;
            for w in [Player::Black, Player::White] {
                let a = pure_eyes(&geo, &board, w).area() as i32;
                if a == 0 {
                    continue;
                }
                // The largest komi at which the area A still wins for w (Black: 2(2A−N) > k),
                // then one half-point past it.
                let edge = if w == Player::Black {
                    4 * a - 2 * n - 1
                } else {
                    2 * n - 4 * a + 1
                };
                let past = if w == Player::Black {
                    edge + 2
                } else {
                    edge - 2
                };
                for komi2 in [edge, past] {
                    for asked in [Player::Black, Player::White] {
                        let mut full = Solver::new(geo.clone(), 16, cfg.clone());
                        let mut reference = Solver::new(geo.clone(), 16, cfg.clone().oracle_mode());
                        let f = full.prove(&line, asked, Komi::from_half_points(komi2));
                        let o = reference.prove(&line, asked, Komi::from_half_points(komi2));
                        decided_statically += full.knowledge_stats().static_leaves;
                        if o.answer == Answer::Unknown {
                            skipped += 1;
                            continue;
                        }
                        assert_eq!(
                            f.answer,
                            o.answer,
                            "{r}x{c} komi2 {komi2} asked {asked} (static side {w}, area {a})\n{}\n{:?}",
                            board.drawing(&geo),
                            line.moves
                        );
                        probes += 1;
                    }
                }
                done += 1;
            }
        }
    }
    eprintln!("{probes} threshold probes, {skipped} skipped, {decided_statically} static leaves");
    assert!(probes > 300, "too few probes: {probes}");
    assert!(decided_statically > 0);
}

#[test]
fn no_static_win_right_after_the_winners_own_pass() {
    // Black's chain on the middle row has two pure eyes (rows 3 and 1): the pure-eye analysis
    // gives Black all nine points. The board as it stands counts 3–3.
    let geo = Geometry::new(3, 3).unwrap();
    let board = Board::from_drawing(&geo, "O.O/XXX/..O").unwrap();
    let pe = pure_eyes(&geo, &board, Player::Black);
    assert_eq!(pe.area(), 9);
    assert_eq!(board.area_score(&geo), 0);
    // Black has just passed; White to move at komi 4.5 passes back and wins 3–3.
    let mut line = Line::from_setup(board, Player::White, &[Board::EMPTY]);
    line.position.passed = true;
    for cfg in [Config::reference(), Config::reference().oracle_mode()] {
        let mut solver = Solver::new(geo.clone(), 4, cfg);
        let p = solver.prove(&line, Player::White, Komi::from_half_points(9));
        assert_eq!(p.answer, Answer::Proven);
        assert_eq!(p.best_move, Some(games::go::Move::Pass));
    }
    // Without the pass, White to move cannot stop Black from taking the board: White's pass
    // is answered by Black's capture, not by a pass.
    let fresh = Line::from_setup(board, Player::White, &[Board::EMPTY]);
    let mut full = Solver::new(geo.clone(), 4, Config::reference());
    let mut reference = Solver::new(geo, 4, Config::reference().oracle_mode());
    let a = full.prove(&fresh, Player::Black, Komi::from_half_points(9));
    let b = reference.prove(&fresh, Player::Black, Komi::from_half_points(9));
    assert_eq!(a.answer, b.answer);
    assert_eq!(a.answer, Answer::Proven);
}
