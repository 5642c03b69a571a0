//! Playout (rollout) policies: how moves are chosen below the tree.

use games::Game;
use games::fastgo::{FastGo, FastGoState};
use games::go::{GoGame, Move as GoMove, Position};
use games::wargame::{WarGame, WarMove, WarState};
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

    /// The move to play in the non-terminal `state` below the tree. The default lists the legal
    /// moves into `moves` (a reused buffer) and asks [`Rollout::choose`]; policies with a
    /// cheaper way to draw the same distribution override it.
    #[inline]
    fn playout_move(
        &mut self,
        game: &G,
        state: &G::State,
        moves: &mut Vec<G::Move>,
        rng: &mut PlayerRng,
    ) -> G::Move {
        game.legal_moves(state, moves);
        let i = self.choose(game, state, moves, rng);
        moves[i]
    }
}

/// Uniformly random playouts (the paper's policy for Hex, NoGo, AtariGo).
#[derive(Clone, Copy, Debug, Default)]
pub struct Uniform;

impl<G: Game> Rollout<G> for Uniform {
    #[inline]
    fn choose(&mut self, _: &G, _: &G::State, moves: &[G::Move], rng: &mut PlayerRng) -> usize {
        rng.random_range(0..moves.len())
    }

    /// [`Game::random_legal_move`]: the default draws the same numbers as `choose`; NoGo,
    /// AtariGo and Go sample empty points instead of listing every legal move.
    #[inline]
    fn playout_move(
        &mut self,
        game: &G,
        state: &G::State,
        moves: &mut Vec<G::Move>,
        rng: &mut PlayerRng,
    ) -> G::Move {
        game.random_legal_move(state, moves, rng)
            .expect("playout_move is called on non-terminal states")
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

    /// [`WarGame::playout_move`]: the same move as `choose` for the same random numbers,
    /// without listing the moves and their weights.
    #[inline]
    fn playout_move(
        &mut self,
        game: &WarGame,
        state: &WarState,
        _: &mut Vec<WarMove>,
        rng: &mut PlayerRng,
    ) -> WarMove {
        game.playout_move(state, rng)
    }
}

/// Go playouts as Monte Carlo Go programs play them: uniformly random among the legal
/// moves that do not fill one of the mover's own eyes (an empty point whose on-board
/// neighbours are all the mover's stones), passing only when no such move is left. Without
/// this rule random games never end before the move limit.
///
/// On [`FastGo`] (the board `tsumi match` and `play` use) a playout move samples empty points
/// without listing the legal moves ([`FastGo::playout_move`]); on the reference
/// [`GoGame`] it filters the legal moves.
#[derive(Clone, Debug, Default)]
pub struct GoRollout {
    candidates: Vec<u32>,
}

impl Rollout<GoGame> for GoRollout {
    fn choose(
        &mut self,
        _: &GoGame,
        state: &Position,
        moves: &[GoMove],
        rng: &mut PlayerRng,
    ) -> usize {
        self.candidates.clear();
        self.candidates.extend(0..moves.len() as u32);
        while !self.candidates.is_empty() {
            let k = rng.random_range(0..self.candidates.len());
            let i = self.candidates[k] as usize;
            // A pass counts as an eye fill here: played only when nothing else is left.
            if moves[i] != GoMove::Pass && !state.fills_own_eye(moves[i]) {
                return i;
            }
            self.candidates.swap_remove(k);
        }
        moves.iter().position(|&m| m == GoMove::Pass).unwrap_or(0)
    }
}

impl Rollout<FastGo> for GoRollout {
    fn choose(
        &mut self,
        _: &FastGo,
        state: &FastGoState,
        moves: &[GoMove],
        rng: &mut PlayerRng,
    ) -> usize {
        let me = state.to_move();
        self.candidates.clear();
        self.candidates.extend(0..moves.len() as u32);
        while !self.candidates.is_empty() {
            let k = rng.random_range(0..self.candidates.len());
            let i = self.candidates[k] as usize;
            if let GoMove::Place(p) = moves[i]
                && !state.surrounded_by(p, me)
            {
                return i;
            }
            self.candidates.swap_remove(k);
        }
        moves.iter().position(|&m| m == GoMove::Pass).unwrap_or(0)
    }

    #[inline]
    fn playout_move(
        &mut self,
        game: &FastGo,
        state: &FastGoState,
        _: &mut Vec<GoMove>,
        rng: &mut PlayerRng,
    ) -> GoMove {
        game.playout_move(state, rng)
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
    fn go_playouts_skip_own_eyes_and_pass_last() {
        use games::go::{Komi, Point};
        let g = FastGo::new(5, 5, Komi::from_half_points(13)).unwrap();
        let mut s = g.initial();
        // Black A2, B1 make an eye at A1 (White plays E5, E4 meanwhile); Black to move.
        for t in ["A2", "E5", "B1", "E4"] {
            let m = g.parse_move(&s, t).unwrap();
            g.play(&mut s, m);
        }
        let mut rng = PlayerRng::seed_from_u64(5);
        let (mut r, mut moves) = (GoRollout::default(), Vec::new());
        let a1 = GoMove::Place(Point::new(0, 0));
        g.legal_moves(&s, &mut moves);
        assert!(moves.contains(&a1));
        for _ in 0..2000 {
            let m = r.playout_move(&g, &s, &mut moves, &mut rng);
            assert!(m != a1 && m != GoMove::Pass);
            g.legal_moves(&s, &mut moves);
            let i = r.choose(&g, &s, &moves, &mut rng);
            assert!(moves[i] != a1 && moves[i] != GoMove::Pass);
        }
        // Random playouts end by two passes (or the move limit) with a result.
        let mut t = g.initial();
        while g.outcome(&t).is_none() {
            let m = r.playout_move(&g, &t, &mut moves, &mut rng);
            g.play(&mut t, m);
        }
        assert!(t.plies() < g.max_game_length(), "playouts end by passing");
    }

    #[test]
    fn wargame_fast_playout_move_matches_listing_and_weights() {
        use games::wargame::WarGame;
        for n in [5u8, 9, 13] {
            let g = WarGame::new(n).unwrap();
            let mut r = WargameRollout::default();
            let mut moves = Vec::new();
            for seed in 0..20 {
                let mut rng = PlayerRng::seed_from_u64(seed);
                let mut s = g.initial();
                while g.outcome(&s).is_none() {
                    let mut slow_rng = rng.clone();
                    g.legal_moves(&s, &mut moves);
                    let slow = moves[r.choose(&g, &s, &moves, &mut slow_rng)];
                    let fast = r.playout_move(&g, &s, &mut moves, &mut rng);
                    assert_eq!(fast, slow, "{}", g.render(&s));
                    assert_eq!(rng, slow_rng, "the same random numbers are drawn");
                    g.play(&mut s, fast);
                }
            }
        }
    }

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
