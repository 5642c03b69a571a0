//! Tsumego goals and the reference search on hand-drawn problems (boards drawn from the top
//! row down, X Black, O White).

use games::Player;
use games::go::{Board, KoRule, PointSet, Position, Rules, Tsumego, TsumegoGoal};
use pns::tsumego::{ReferenceLimits, Status, reference_status};

fn problem(drawing: &str, to_move: Player, target: &str, goal: TsumegoGoal) -> Tsumego {
    let board = Board::from_ascii(drawing).unwrap();
    let size = board.size();
    let target = size.parse_point(target).unwrap();
    let rules = Rules::default();
    assert_eq!(rules.ko, KoRule::PositionalSuperko);
    let pos = Position::from_board(board, to_move, rules).unwrap();
    Tsumego::new(pos, target, goal, PointSet::all(size)).unwrap()
}

fn status(t: &Tsumego) -> Status {
    reference_status(t, ReferenceLimits::default())
        .0
        .expect("reference within limits")
}

#[test]
fn a_stone_in_atari_is_captured_when_the_attacker_moves() {
    let t = problem(
        "..../.XO./..X./....",
        Player::Black,
        "C3",
        TsumegoGoal::Capture,
    );
    assert_eq!(status(&t), Status::Kill);
}

#[test]
fn straight_three_dies_if_the_attacker_moves_first_and_lives_otherwise() {
    let d = ".....\nXXXXX\nOOOOX\n...OX";
    let kill = problem(d, Player::Black, "D1", TsumegoGoal::LifeAndDeath);
    assert_eq!(status(&kill), Status::Kill);
    let live = problem(d, Player::White, "D1", TsumegoGoal::LifeAndDeath);
    assert_eq!(status(&live), Status::Live);
}

use pns::tsumego::solve;
use pns::{Budget, DfPn, LambdaDfPn, LambdaSearch, Prover};

fn provers() -> Vec<Box<dyn Prover<Tsumego>>> {
    vec![
        Box::new(LambdaSearch::default()),
        Box::new(LambdaDfPn::default()),
        Box::new(DfPn::default()),
    ]
}

fn agree(t: &Tsumego, expected: Status) {
    for mut p in provers() {
        let sol = solve(t, p.as_mut(), &Budget::expansions(2_000_000));
        assert_eq!(sol.verdict.status, Some(expected), "{}: {t}", p.name());
    }
}

#[test]
fn every_prover_agrees_on_the_drawn_problems() {
    let t = problem(
        "..../.XO./..X./....",
        Player::Black,
        "C3",
        TsumegoGoal::Capture,
    );
    agree(&t, Status::Kill);
    let d = ".....\nXXXXX\nOOOOX\n...OX";
    agree(
        &problem(d, Player::Black, "D1", TsumegoGoal::LifeAndDeath),
        Status::Kill,
    );
    agree(
        &problem(d, Player::White, "D1", TsumegoGoal::LifeAndDeath),
        Status::Live,
    );
}

const LADDER: &str =
    "........./........./........./........./........./........./.X......./XOO....../.XX......";

/// A ladder of length 20+ on 9x9: the White block at B2 runs up and to the right, to the
/// edge, and λ¹ (a ladder search) proves the capture alone (about a second), but not within
/// 19 plies.
#[test]
fn a_long_ladder_is_proven_by_lambda_one() {
    let t = problem(LADDER, Player::Black, "B2", TsumegoGoal::Capture);
    let q = pns::Question::win(Player::Black);
    let p = LambdaSearch::order(1).prove(&t, t.start(), q, &Budget::expansions(100_000));
    assert_eq!(p.answer, pns::Answer::Proven);
    eprintln!("ladder: {} expansions, {:?}", p.expansions, p.time);
    assert_eq!(p.best_move.unwrap().to_string(), "D2");
    // λ⁰ alone cannot (the block is not in atari), nor λ¹ within 19 plies.
    let p0 = LambdaSearch::order(0).prove(&t, t.start(), q, &Budget::expansions(100_000));
    assert_ne!(p0.answer, pns::Answer::Proven);
    let short = LambdaSearch {
        max_depth: 19,
        ..LambdaSearch::order(1)
    };
    let p19 = short
        .clone()
        .prove(&t, t.start(), q, &Budget::expansions(100_000));
    eprintln!("depth 19: {} expansions, {:?}", p19.expansions, p19.time);
    assert_ne!(p19.answer, pns::Answer::Proven);
}

/// The ladder's main line, 20 plies and more (about 20 s: every ply is proven again).
#[test]
#[ignore]
fn the_long_ladder_line_runs_to_the_edge() {
    let t = problem(LADDER, Player::Black, "B2", TsumegoGoal::Capture);
    let sol = solve(
        &t,
        &mut LambdaSearch::order(1),
        &Budget::expansions(100_000),
    );
    assert_eq!(sol.verdict.status, Some(Status::Kill));
    let line: Vec<String> = sol.line.iter().map(|m| m.to_string()).collect();
    assert!(line.len() >= 20, "{line:?}");
    assert_eq!(line[..4], ["D2", "C3", "C4", "D3"]);
}

/// Seeded random problems on small boards: every prover gives the reference's result, and
/// every result occurs.
#[test]
fn random_small_problems_agree_with_the_reference() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(34);
    let mut seen = std::collections::HashSet::new();
    let mut checked = 0;
    while checked < 24 {
        let (rows, cols) = (rng.random_range(2..=3u32), rng.random_range(3..=4u32));
        let size = games::go::Size::new(rows, cols).unwrap();
        let mut board = Board::empty(size);
        for p in size.all_points() {
            let r: f64 = rng.random();
            board.set(
                p,
                if r < 0.3 {
                    Some(Player::Black)
                } else if r < 0.6 {
                    Some(Player::White)
                } else {
                    None
                },
            );
        }
        if !board.all_chains_have_liberties() {
            continue;
        }
        let stones: Vec<_> = size
            .all_points()
            .filter(|&p| board.get(p).is_some())
            .collect();
        if stones.is_empty() {
            continue;
        }
        let target = stones[rng.random_range(0..stones.len())];
        let to_move = if rng.random() {
            Player::Black
        } else {
            Player::White
        };
        let goal = if rng.random() {
            TsumegoGoal::Capture
        } else {
            TsumegoGoal::LifeAndDeath
        };
        let pos = Position::from_board(board, to_move, Rules::default()).unwrap();
        let Ok(t) = Tsumego::new(pos, target, goal, PointSet::all(size)) else {
            continue;
        };
        let (Some(want), _) = reference_status(&t, ReferenceLimits::default()) else {
            continue;
        };
        seen.insert(want);
        agree(&t, want);
        checked += 1;
    }
    eprintln!("results seen: {seen:?}");
    assert!(
        seen.contains(&Status::Kill) && seen.contains(&Status::Live),
        "{seen:?}"
    );
}

/// Two eyeless groups sharing liberties: neither side can approach (found by the reference
/// on random 3x4 boards, and checked by every prover).
#[test]
fn shared_liberties_are_seki() {
    let t = problem(
        "O.XX/.OO./XXXX",
        Player::Black,
        "B2",
        TsumegoGoal::LifeAndDeath,
    );
    assert_eq!(status(&t), Status::Seki);
    agree(&t, Status::Seki);
}

/// A ko: Black's retake at C2 is banned by superko, unless Black holds the ko threats.
#[test]
fn unlimited_ko_threats_lift_the_superko_ban_for_one_side() {
    let board = Board::from_ascii(".XO./X.XO/.XO.").unwrap();
    let size = board.size();
    let pos = Position::from_board(board, Player::White, Rules::default()).unwrap();
    let p = |s: &str| size.parse_point(s).unwrap();
    let t = Tsumego::new(pos, p("C3"), TsumegoGoal::Capture, PointSet::all(size)).unwrap();
    let mut s = t.start().clone();
    use games::Game;
    t.play(&mut s, games::go::Move::Place(p("B2")));
    let retake = games::go::Move::Place(p("C2"));
    assert!(!t.is_legal(&s, retake));
    assert!(s.is_legal_ignoring_ko(retake));
    let black = t.clone().with_ko_threats(Some(Player::Black));
    assert!(black.is_legal(&s, retake));
    let white = t.with_ko_threats(Some(Player::White));
    assert!(!white.is_legal(&s, retake));
}

/// λ-search and λ-df-pn are in the algorithm list, by name.
#[test]
fn the_threat_algorithms_are_listed_by_name() {
    use pns::{Algorithm, NaturalOrder, Settings};
    let d = ".....\nXXXXX\nOOOOX\n...OX";
    let t = problem(d, Player::Black, "D1", TsumegoGoal::LifeAndDeath);
    for name in ["lambda", "lambda-dfpn"] {
        let a: Algorithm = name.parse().unwrap();
        assert!(Algorithm::THREATS.contains(&a));
        assert_eq!(a.name(), name);
        let mut p = Settings::new(a).prover::<Tsumego>(Box::new(NaturalOrder));
        assert_eq!(p.name(), name);
        let sol = solve(&t, p.as_mut(), &Budget::expansions(1_000_000));
        assert_eq!(sol.verdict.status, Some(Status::Kill));
        assert_eq!(sol.key_move.unwrap().to_string(), "B1");
    }
}
