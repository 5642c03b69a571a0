//! The focus of focused df-pn: which children enter the search first ([`MoveOrder::order`])
//! and how wide the window of a node is ([`MoveOrder::widening`]).
//!
//! Both are asked once per expansion, for the node being expanded, with all its moves: an
//! evaluator (a policy network, circuit resistance) evaluates the node once and ranks every
//! child from that one evaluation, and may cache it by position (df-pn re-expands nodes).

use games::Game;

/// Ranks the moves of a position, best first (for the player to move).
///
/// Focused df-pn searches only the first `base + ⌈factor × live⌉` live children in this
/// order; a poor order costs effort, never correctness.
pub trait MoveOrder<G: Game> {
    /// Reorders `moves` (the legal moves of `state`) in place, best first.
    fn order(&self, game: &G, state: &G::State, moves: &mut [G::Move]);

    /// The widening factor of `state`'s window, `base + ⌈factor × live⌉` children, given the
    /// fixed factor µ of the search. The default keeps µ (Henderson's Equation 1); a value
    /// network gives Gao et al.'s `min(µ, (1 + v(s)) / 2)` (Equations 2–3). Any value is
    /// sound (the window only orders effort); negative values count as 0.
    fn widening(&self, _game: &G, _state: &G::State, mu: f64) -> f64 {
        mu
    }
}

/// Keeps the game's own order of legal moves.
#[derive(Clone, Copy, Debug, Default)]
pub struct NaturalOrder;

impl<G: Game> MoveOrder<G> for NaturalOrder {
    fn order(&self, _: &G, _: &G::State, _: &mut [G::Move]) {}
}

impl<G: Game, O: MoveOrder<G> + ?Sized> MoveOrder<G> for Box<O> {
    fn order(&self, game: &G, state: &G::State, moves: &mut [G::Move]) {
        (**self).order(game, state, moves);
    }
    fn widening(&self, game: &G, state: &G::State, mu: f64) -> f64 {
        (**self).widening(game, state, mu)
    }
}

impl<G: Game, O: MoveOrder<G> + ?Sized> MoveOrder<G> for &O {
    fn order(&self, game: &G, state: &G::State, moves: &mut [G::Move]) {
        (**self).order(game, state, moves);
    }
    fn widening(&self, game: &G, state: &G::State, mu: f64) -> f64 {
        (**self).widening(game, state, mu)
    }
}
