//! Helpers shared by the differential tests: seeded random superko games on the reference
//! board.
#![allow(dead_code)]

use games::go::{self, KoRule, Rules};
use rand::Rng;
use rand_xoshiro::Xoshiro256PlusPlus;

/// Positional superko, komi ½ (the tests set their own komi per question).
pub fn psk_rules() -> Rules {
    Rules {
        ko: KoRule::PositionalSuperko,
        komi: go::Komi::from_half_points(1),
    }
}

/// The moves of a random game on the reference board played to its end (or to 40 moves a
/// point): uniform over the legal stone moves, a pass with probability `pass` (rare, so that
/// games run into captures and superko situations) or when nothing else is legal.
pub fn random_game(size: go::Size, rng: &mut Xoshiro256PlusPlus, pass: f64) -> Vec<go::Move> {
    let mut pos = go::Position::new(size, psk_rules());
    let mut played = Vec::new();
    while !pos.is_over() && played.len() < 40 * size.points() {
        let moves = pos.legal_moves();
        let m = if moves.len() == 1 || rng.random_bool(pass) {
            go::Move::Pass
        } else {
            moves[rng.random_range(0..moves.len() - 1)]
        };
        pos.play(m).unwrap();
        played.push(m);
    }
    played
}

/// The position after the first `stop` moves of `moves`.
pub fn replay(size: go::Size, moves: &[go::Move]) -> go::Position {
    let mut pos = go::Position::new(size, psk_rules());
    for &m in moves {
        pos.play(m).unwrap();
    }
    pos
}

/// A position late in a random game (`random_game` with passes at 4%, stopped within its
/// last `4 + points / 2` plies, where the brute-force oracle can finish), with the moves
/// that reach it; it may be over.
pub fn late_position(
    size: go::Size,
    rng: &mut Xoshiro256PlusPlus,
) -> (go::Position, Vec<go::Move>) {
    let mut played = random_game(size, rng, 0.04);
    let lo = played.len().saturating_sub(4 + size.points() / 2);
    let stop = rng.random_range(lo..played.len().max(lo + 1));
    played.truncate(stop);
    (replay(size, &played), played)
}
