//! Initial proof and disproof numbers of unexpanded nodes (weak PNS / heuristic initialisation).
//!
//! A [`Prior`] gives `(φ, δ)` for a **non-terminal** node from the point of view of its mover
//! (see [`crate::numbers`]). The algorithms clamp every estimate into `1..MAX_FINITE`, so an
//! unknown node is never counted as solved (never 0, never infinite), whatever the heuristic
//! says.

use games::Game;
use vocab::Pn;

/// A heuristic for the numbers of a new, non-terminal node.
pub trait Prior<G: Game> {
    /// `(φ, δ)` for the player to move in `state`. `scratch` is a reusable move buffer. The
    /// algorithms keep their numbers in 32 bits ([`crate::numbers`]) and clamp an estimate
    /// into `1..MAX_FINITE` there.
    fn estimate(&self, game: &G, state: &G::State, scratch: &mut Vec<G::Move>) -> (Pn, Pn);

    /// The exact value of a non-terminal node for its mover when the heuristic *knows* it
    /// (`Some(true)`: the mover wins, e.g. it has a winning move; `Some(false)`: it loses).
    /// Must be sound; the default knows nothing.
    fn exact(&self, _game: &G, _state: &G::State) -> Option<bool> {
        None
    }
}

/// Every new node is `(1, 1)`: Allis's plain proof-number search.
#[derive(Clone, Copy, Debug, Default)]
pub struct Uniform;

impl<G: Game> Prior<G> for Uniform {
    fn estimate(&self, _: &G, _: &G::State, _: &mut Vec<G::Move>) -> (Pn, Pn) {
        (Pn::ONE, Pn::ONE)
    }
}

/// Mobility initialisation (Allis 1994; Winands et al. 2004): the mover needs one good move
/// (φ = 1) but refuting it takes all its moves (δ = number of legal moves). In OR/AND terms:
/// an OR node starts at (pn 1, dn moves), an AND node at (pn moves, dn 1).
#[derive(Clone, Copy, Debug, Default)]
pub struct Mobility;

impl<G: Game> Prior<G> for Mobility {
    fn estimate(&self, game: &G, state: &G::State, scratch: &mut Vec<G::Move>) -> (Pn, Pn) {
        game.legal_moves(state, scratch);
        (Pn::ONE, Pn::new(scratch.len().max(1) as u64))
    }
}

/// Mobility estimates with the exact knowledge of another prior: weak PNS's initialisation
/// when a game also has sound knowledge (`WithMobility(HexThreats)`), so that asking for both
/// never silently drops one of them.
#[derive(Clone, Copy, Debug, Default)]
pub struct WithMobility<P>(pub P);

impl<G: Game, P: Prior<G>> Prior<G> for WithMobility<P> {
    fn estimate(&self, game: &G, state: &G::State, scratch: &mut Vec<G::Move>) -> (Pn, Pn) {
        Mobility.estimate(game, state, scratch)
    }

    fn exact(&self, game: &G, state: &G::State) -> Option<bool> {
        self.0.exact(game, state)
    }
}

impl<G: Game, P: Prior<G> + ?Sized> Prior<G> for Box<P> {
    fn estimate(&self, game: &G, state: &G::State, scratch: &mut Vec<G::Move>) -> (Pn, Pn) {
        (**self).estimate(game, state, scratch)
    }

    fn exact(&self, game: &G, state: &G::State) -> Option<bool> {
        (**self).exact(game, state)
    }
}

impl<G: Game, P: Prior<G> + ?Sized> Prior<G> for &P {
    fn estimate(&self, game: &G, state: &G::State, scratch: &mut Vec<G::Move>) -> (Pn, Pn) {
        (**self).estimate(game, state, scratch)
    }

    fn exact(&self, game: &G, state: &G::State) -> Option<bool> {
        (**self).exact(game, state)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use games::tictactoe::TicTacToe;

    /// Knows every position is won for its mover (not sound; only to see it pass through).
    struct AlwaysWins;

    impl Prior<TicTacToe> for AlwaysWins {
        fn estimate(
            &self,
            _: &TicTacToe,
            _: &<TicTacToe as Game>::State,
            _: &mut Vec<<TicTacToe as Game>::Move>,
        ) -> (Pn, Pn) {
            (Pn::new(7), Pn::new(7))
        }

        fn exact(&self, _: &TicTacToe, _: &<TicTacToe as Game>::State) -> Option<bool> {
            Some(true)
        }
    }

    #[test]
    fn with_mobility_estimates_by_mobility_and_keeps_the_exact_knowledge() {
        let g = TicTacToe;
        let s = g.initial();
        let mut scratch = Vec::new();
        let p = WithMobility(AlwaysWins);
        assert_eq!(p.estimate(&g, &s, &mut scratch), (Pn::new(1), Pn::new(9)));
        assert_eq!(p.exact(&g, &s), Some(true));
        assert_eq!(WithMobility(Uniform).exact(&g, &s), None);
    }
}
