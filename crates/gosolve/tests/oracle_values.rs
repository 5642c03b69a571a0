//! The brute-force oracle reproduces the published values of empty boards under positional
//! superko that it can solve in seconds, read from data/go-psk-values.tsv (never retyped).

use games::go::{Position, Rules, Size};
use gosolve::oracle::Oracle;

/// (board, value) rows of the published table (`gosolve::published`).
fn published_values() -> Vec<(Size, i32)> {
    gosolve::published::published_values()
        .into_iter()
        .map(|p| (p.size, p.value))
        .collect()
}

/// Boards the oracle solves in well under a second: 1x1 to 1x5 and 2x2.
fn oracle_boards() -> Vec<(Size, i32)> {
    published_values()
        .into_iter()
        .filter(|(s, _)| (s.rows() == 1 && s.cols() <= 5) || (s.rows() == 2 && s.cols() == 2))
        .collect()
}

#[test]
fn oracle_reproduces_published_small_board_values() {
    let boards = oracle_boards();
    assert_eq!(boards.len(), 6, "1x1-1x5 and 2x2 must all be in the table");
    for (size, value) in boards {
        let pos = Position::new(size, Rules::default());
        let result = Oracle::new().solve(&pos).unwrap();
        assert_eq!(result.value, value, "{size}");
        // The PV replays legally to a finished game whose score is the value.
        let mut p = pos.clone();
        for &m in &result.pv {
            p.play(m).unwrap();
        }
        assert!(p.is_over());
        assert_eq!(p.score().margin(), value, "{size}: PV score");
    }
}

#[test]
fn two_by_two_needs_about_1500_nodes_with_pass_first() {
    let pos = Position::new(Size::new(2, 2).unwrap(), Rules::default());
    let r = Oracle::new().solve(&pos).unwrap();
    // The literature's figure is about 1,500 nodes; a search without the pass-first ordering
    // or without the memo is an order of magnitude larger.
    assert!(
        (1000..3000).contains(&r.nodes),
        "2x2 took {} nodes",
        r.nodes
    );
}

/// Plain minimax on the game tree: no memo, no pruning. `None` if it exceeds `budget` nodes.
fn plain_minimax(pos: &Position, budget: &mut u64) -> Option<i32> {
    if pos.is_over() {
        return Some(pos.score().margin());
    }
    *budget = budget.checked_sub(1)?;
    let black = pos.to_move() == games::Player::Black;
    let mut best: Option<i32> = None;
    for m in pos.legal_moves() {
        let mut child = pos.clone();
        child.play(m).unwrap();
        let v = plain_minimax(&child, budget)?;
        best = Some(match best {
            None => v,
            Some(b) if black => b.max(v),
            Some(b) => b.min(v),
        });
    }
    best
}

#[test]
fn oracle_equals_plain_minimax_on_random_positions_with_histories() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(11);
    let mut checked = 0;
    for (r, c) in [(1, 3), (1, 4), (1, 5), (2, 2)] {
        let size = Size::new(r, c).unwrap();
        for _ in 0..40 {
            let mut pos = Position::new(size, Rules::default());
            for _ in 0..rng.random_range(2..14) {
                if pos.is_over() {
                    break;
                }
                let moves = pos.legal_moves();
                pos.play(moves[rng.random_range(0..moves.len())]).unwrap();
            }
            let mut budget = 10_000;
            let Some(expected) = plain_minimax(&pos, &mut budget) else {
                continue;
            };
            // One oracle for all positions of a board: its memo must not leak between games.
            assert_eq!(
                Oracle::new().value(&pos).unwrap(),
                expected,
                "{}",
                pos.board().to_ascii()
            );
            checked += 1;
        }
    }
    assert!(checked >= 60, "only {checked} positions were small enough");
}

#[ignore = "minutes: 2x3 and 1x6 with the brute-force oracle"]
#[test]
fn oracle_reproduces_2x3_and_1x6() {
    for (size, value) in published_values()
        .into_iter()
        .filter(|(s, _)| (s.rows(), s.cols()) == (2, 3) || (s.rows(), s.cols()) == (1, 6))
    {
        let pos = Position::new(size, Rules::default());
        assert_eq!(Oracle::new().value(&pos).unwrap(), value, "{size}");
    }
}
