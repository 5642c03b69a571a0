//! Playout (rollout) policies: how moves are chosen below the tree.

use games::go::{GoGame, Move as GoMove, Position};
use games::wargame::{WarGame, WarMove, WarState};
use games::{Game, Player};
use rand::Rng;
use rand_xoshiro::Xoshiro256PlusPlus;

/// The random number generator of every player (seeded, one per player).
pub type PlayerRng = Xoshiro256PlusPlus;

/// A playout policy for game `G`.
pub trait Rollout<G: Game> {
    /// The index in `moves` (the non-empty legal moves of `state`) of the move to play.
    fn choose(
        &mut self,
        game: &G,
        state: &G::State,
        moves: &[G::Move],
        rng: &mut PlayerRng,
    ) -> usize;
}

/// Uniformly random playouts (the paper's policy for Hex, NoGo, AtariGo).
#[derive(Clone, Copy, Debug, Default)]
pub struct Uniform;

impl<G: Game> Rollout<G> for Uniform {
    #[inline]
    fn choose(&mut self, _: &G, _: &G::State, moves: &[G::Move], rng: &mut PlayerRng) -> usize {
        rng.random_range(0..moves.len())
    }
}

/// The paper's biased Wargame policy: moves drawn with the weights of
/// [`WarGame::playout_weights`] (Red rushes to the base, Blue chases the nearest Red unit).
#[derive(Clone, Debug, Default)]
pub struct WargameRollout {
    weights: Vec<u32>,
}

impl Rollout<WarGame> for WargameRollout {
    fn choose(
        &mut self,
        game: &WarGame,
        state: &WarState,
        moves: &[WarMove],
        rng: &mut PlayerRng,
    ) -> usize {
        game.playout_weights(state, moves, &mut self.weights);
        sample_weighted(&self.weights, rng)
    }
}

/// Go playouts as Monte Carlo Go programs play them: uniformly random among the legal
/// moves that do not fill one of the mover's own eyes (an empty point whose on-board
/// neighbours are all the mover's stones), passing only when no such move is left. Without
/// this rule random games never end before the move limit.
#[derive(Clone, Debug, Default)]
pub struct GoRollout {
    candidates: Vec<u32>,
}

impl GoRollout {
    fn fills_own_eye(state: &Position, mv: GoMove, me: Player) -> bool {
        match mv {
            GoMove::Pass => true,
            GoMove::Place(p) => {
                let board = state.board();
                state.size().neighbours(p).all(|q| board.get(q) == Some(me))
            }
        }
    }
}

impl Rollout<GoGame> for GoRollout {
    fn choose(
        &mut self,
        _: &GoGame,
        state: &Position,
        moves: &[GoMove],
        rng: &mut PlayerRng,
    ) -> usize {
        let me = state.to_move();
        self.candidates.clear();
        self.candidates.extend(0..moves.len() as u32);
        while !self.candidates.is_empty() {
            let k = rng.random_range(0..self.candidates.len());
            let i = self.candidates[k] as usize;
            if !Self::fills_own_eye(state, moves[i], me) {
                return i;
            }
            self.candidates.swap_remove(k);
        }
        moves.iter().position(|&m| m == GoMove::Pass).unwrap_or(0)
    }
}

/// An index drawn with probability proportional to its (positive) weight.
///
/// # Panics
/// When `weights` is empty.
pub fn sample_weighted(weights: &[u32], rng: &mut PlayerRng) -> usize {
    let total: u64 = weights.iter().map(|&w| u64::from(w)).sum();
    let mut x = rng.random_range(0..total);
    for (i, &w) in weights.iter().enumerate() {
        if x < u64::from(w) {
            return i;
        }
        x -= u64::from(w);
    }
    weights.len() - 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn weighted_sampling_follows_weights() {
        let mut rng = PlayerRng::seed_from_u64(3);
        let w = [1u32, 3, 0, 6];
        let mut counts = [0u32; 4];
        for _ in 0..100_000 {
            counts[sample_weighted(&w, &mut rng)] += 1;
        }
        assert_eq!(counts[2], 0);
        assert!((f64::from(counts[3]) / 100_000.0 - 0.6).abs() < 0.01);
        assert!((f64::from(counts[1]) / 100_000.0 - 0.3).abs() < 0.01);
    }
}
