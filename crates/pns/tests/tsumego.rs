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
