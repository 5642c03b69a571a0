//! Winner-side pruning never costs an answer: positions where it hides the only good move
//! are still solved, and a trivial win stays trivial.

use games::Player;
use games::go::Komi;
use gosolve::bitboard::reference::to_fast;
use gosolve::bitboard::{Geometry, Line};
use gosolve::{Answer, Config, Solver, solve_value};

fn line(geo: &Geometry, moves: &str) -> Line {
    let mut l = Line::new();
    for m in moves.split(',').filter(|m| !m.is_empty()) {
        l.play(geo, geo.parse_move(m).unwrap()).unwrap();
    }
    l
}

fn pruned_solver(geo: &Geometry, max_expansions: u64) -> Solver {
    Solver::new(
        geo.clone(),
        16,
        Config {
            limits: gosolve::Limits {
                max_expansions,
                ..gosolve::Limits::default()
            },
            prune: true,
            ..Config::reference()
        },
    )
}

/// 4x4, Black on every point but D1 and D4, White on D3, Black to move at komi 15.5: D4
/// captures and wins the whole board. T* is {D1, D3, D4}; a rule pruning all of T* kept D1
/// (Black's own eye) as the tempo move and pruned D4, and the search ran 10^8 expansions.
const CAPTURE_IN_TERRITORY: &str = "A1,D3,B1,pass,C1,pass,A2,pass,B2,pass,C2,pass,D2,pass,A3,pass,B3,pass,C3,pass,A4,pass,B4,pass,C4,pass";

#[test]
fn pruning_keeps_the_capture_that_realises_the_territory() {
    let geo = Geometry::new(4, 4).unwrap();
    let l = line(&geo, CAPTURE_IN_TERRITORY);
    // A budget far below what the old rule needed: the answer must come at once.
    let mut solver = pruned_solver(&geo, 1_000);
    let p = solver.prove(&l, Player::Black, Komi::from_half_points(31));
    assert_eq!(p.answer, Answer::Proven, "{p:?}");
    assert!(p.pruned);
    assert_eq!(p.best_move.map(|m| to_fast(&geo, m)), geo.parse_move("D4"));
    assert!(p.expansions <= 10, "{} expansions", p.expansions);
}

#[test]
fn pruned_bisection_asks_unpruned_when_pruning_hides_the_move() {
    // 1x6 after D1: value −1 (after D1 E1 F1 B1 Black's only move that keeps −1 fills its
    // own eye to save F1, a move pruning skips); 1x7 after C1 G1 A1 B1: value 0. Both
    // pruned questions at some komi lose, and only the unpruned repeat answers.
    for (r, c, moves, value) in [(1, 6, "D1", -1), (1, 7, "C1,G1,A1,B1", 0)] {
        let geo = Geometry::new(r, c).unwrap();
        let l = line(&geo, moves);
        let mut solver = pruned_solver(&geo, 0);
        let s = solve_value(&mut solver, &l, |_| {});
        assert_eq!(s.value, Some(value), "{r}x{c} {moves}: {:?}", s.proofs);
        assert!(s.pv_checked);
        // Some question needed the unpruned repeat, and every unknown was a pruned loss.
        assert!(s.proofs.iter().any(|p| !p.pruned), "{r}x{c} {moves}");
        assert!(
            s.proofs
                .iter()
                .all(|p| p.answer != Answer::Unknown || p.pruned_loss)
        );
        // The unpruned value agrees.
        let mut plain = Solver::new(geo.clone(), 16, Config::reference());
        assert_eq!(solve_value(&mut plain, &l, |_| {}).value, Some(value));
    }
}

#[test]
fn a_budget_exhausted_pruned_question_is_not_repeated() {
    let geo = Geometry::new(1, 6).unwrap();
    let l = line(&geo, "D1");
    let mut solver = pruned_solver(&geo, 5);
    let s = solve_value(&mut solver, &l, |_| {});
    assert_eq!(s.value, None);
    let last = s.proofs.last().unwrap();
    assert_eq!(last.answer, Answer::Unknown);
    assert!(!last.pruned_loss && last.pruned, "{:?}", s.proofs);
}
