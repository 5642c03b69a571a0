//! The generic conformance suite every [`Game`] must pass.
//!
//! Plays seeded random games and checks, after every move: clone equality, incremental
//! hash equals the hash recomputed from scratch, legal moves are unique and playable,
//! terminal states have no legal moves and non-terminal states have some, and every game
//! ends within [`Game::max_game_length`] plies. Used by the tests of every game.

use crate::Game;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::collections::HashSet;

/// What the suite measured, for tests that want to assert the games were not trivial.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ConformanceReport {
    /// Games played to the end.
    pub games: u64,
    /// Moves played in all games (plies).
    pub plies: u64,
    /// Games won by the first player, the second player, and drawn.
    pub results: [u64; 3],
}

/// Plays `games` random games from the initial state with the given seed and checks the
/// [`Game`] contract after every move.
///
/// # Panics
/// Panics with a message naming the game, the seed, the ply and the broken rule when the
/// contract is violated (this is a test helper).
pub fn check_random_games<G: Game>(game: &G, seed: u64, games: u64) -> ConformanceReport {
    let start = game.initial();
    check_random_games_from(game, &start, seed, games)
}

/// Like [`check_random_games`], from a given state.
///
/// # Panics
/// As [`check_random_games`].
pub fn check_random_games_from<G: Game>(
    game: &G,
    start: &G::State,
    seed: u64,
    games: u64,
) -> ConformanceReport {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut report = ConformanceReport::default();
    let mut moves = Vec::new();
    let max = game.max_game_length();
    let name = game.name();
    for g in 0..games {
        let mut state = start.clone();
        let mut ply = 0u32;
        loop {
            assert_eq!(
                game.hash(&state),
                game.hash_from_scratch(&state),
                "{name}: seed {seed} game {g} ply {ply}: incremental hash differs from recomputed hash"
            );
            let copy = state.clone();
            assert_eq!(copy, state, "{name}: clone differs");
            game.legal_moves(&state, &mut moves);
            let outcome = game.outcome(&state);
            if let Some(o) = outcome {
                assert!(
                    moves.is_empty(),
                    "{name}: seed {seed} game {g} ply {ply}: terminal state has legal moves"
                );
                report.results[match o {
                    crate::Outcome::Win(crate::Player::Black) => 0,
                    crate::Outcome::Win(crate::Player::White) => 1,
                    crate::Outcome::Draw => 2,
                }] += 1;
                break;
            }
            assert!(
                !moves.is_empty(),
                "{name}: seed {seed} game {g} ply {ply}: non-terminal state has no legal move"
            );
            let unique: HashSet<_> = moves.iter().collect();
            assert_eq!(unique.len(), moves.len(), "{name}: duplicate legal moves");
            for &m in &moves {
                let code = game.move_code(&state, m);
                assert!(
                    code < game.num_move_codes(),
                    "{name}: move code out of range"
                );
                let text = m.to_string();
                let parsed = game.parse_move(&state, &text);
                assert_eq!(parsed, Ok(m), "{name}: move {text} does not parse back");
            }
            // Every legal move is playable (checked on a copy), then one is played.
            for &m in &moves {
                let mut s2 = state.clone();
                game.play(&mut s2, m);
                assert_eq!(game.hash(&s2), game.hash_from_scratch(&s2));
            }
            let m = moves[rng.random_range(0..moves.len())];
            game.play(&mut state, m);
            ply += 1;
            report.plies += 1;
            assert!(
                ply <= max,
                "{name}: seed {seed} game {g}: game longer than max_game_length {max}"
            );
        }
        report.games += 1;
    }
    report
}
