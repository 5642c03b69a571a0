//! The generic conformance suite on Go under each ko rule, plus reference-board invariants
//! checked after every move of seeded random games.

use games::conformance::check_random_games;
use games::go::*;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

#[test]
fn conformance_on_small_boards_under_every_ko_rule() {
    for (r, c) in [
        (1, 1),
        (1, 5),
        (2, 2),
        (2, 3),
        (3, 3),
        (3, 4),
        (4, 4),
        (5, 5),
    ] {
        for ko in [
            KoRule::PositionalSuperko,
            KoRule::SituationalSuperko,
            KoRule::Simple,
        ] {
            let game = GoGame::new(
                r,
                c,
                Rules {
                    ko,
                    komi: Komi::from_half_points(1),
                },
            )
            .unwrap()
            .with_move_limit(Some(400));
            let report = check_random_games(&game, 7 + u64::from(r * 10 + c), 20);
            assert_eq!(report.games, 20);
        }
    }
    // Go for playing: simple ko, komi 6.5, 9x9 with its default move limit.
    let game = GoGame::new(
        9,
        9,
        Rules {
            ko: KoRule::Simple,
            komi: Komi::from_half_points(13),
        },
    )
    .unwrap();
    let report = check_random_games(&game, 99, 3);
    assert!(report.plies > 100);
}

/// After every move: every chain has a liberty, the history's last board is the current one,
/// and no two boards of a superko game are equal except across passes.
#[test]
fn invariants_after_every_move_of_random_games() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(2024);
    for (r, c) in [(1, 4), (2, 3), (3, 3), (4, 4)] {
        let size = Size::new(r, c).unwrap();
        for _ in 0..50 {
            let mut p = Position::new(size, Rules::default());
            let mut boards = vec![p.board().clone()];
            while !p.is_over() && p.plies() < 300 {
                let moves = p.legal_moves();
                let m = moves[rng.random_range(0..moves.len())];
                p.play(m).unwrap();
                assert!(p.board().all_chains_have_liberties());
                assert_eq!(p.history().positions().last().unwrap().0, p.board());
                assert_eq!(p.hash(), p.hash_from_scratch());
                if let Move::Place(_) = m {
                    assert!(!boards.contains(p.board()), "PSK repetition after {m}");
                }
                boards.push(p.board().clone());
                // Every empty point that is not listed as legal is illegal for a reason.
                for q in size.all_points() {
                    let mv = Move::Place(q);
                    assert_eq!(p.is_legal(mv), moves_contains(&p, mv));
                }
            }
        }
    }
}

fn moves_contains(p: &Position, m: Move) -> bool {
    p.legal_moves().contains(&m)
}

#[test]
fn symmetric_positions_have_symmetric_legal_moves_and_scores() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
    let size = Size::new(3, 3).unwrap();
    for _ in 0..30 {
        let mut p = Position::new(size, Rules::default());
        for _ in 0..rng.random_range(0..12) {
            if p.is_over() {
                break;
            }
            let moves = p.legal_moves();
            p.play(moves[rng.random_range(0..moves.len())]).unwrap();
        }
        for s in Symmetry::all_for(size) {
            let image = s.apply_board(p.board());
            assert_eq!(image.area(), p.board().area());
            let q = Position::from_board(image, p.to_move(), Rules::default()).unwrap();
            // Legality without history is symmetric (occupied/suicide only).
            let fresh =
                Position::from_board(p.board().clone(), p.to_move(), Rules::default()).unwrap();
            for pt in size.all_points() {
                assert_eq!(
                    fresh.is_legal(Move::Place(pt)),
                    q.is_legal(Move::Place(s.apply(size, pt)))
                );
            }
        }
    }
}
