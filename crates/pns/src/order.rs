//! Move ordering for focused df-pn: which children enter the search first.

use games::Game;

/// Ranks the moves of a position, best first (for the player to move).
///
/// Focused df-pn searches only the first `base + ⌈factor × live⌉` live children in this
/// order; a poor order costs effort, never correctness.
pub trait MoveOrder<G: Game> {
    /// Reorders `moves` (the legal moves of `state`) in place, best first.
    fn order(&self, game: &G, state: &G::State, moves: &mut [G::Move]);
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
}

impl<G: Game, O: MoveOrder<G> + ?Sized> MoveOrder<G> for &O {
    fn order(&self, game: &G, state: &G::State, moves: &mut [G::Move]) {
        (**self).order(game, state, moves);
    }
}
