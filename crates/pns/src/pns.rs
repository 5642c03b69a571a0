//! Proof-number search (Allis, van der Meulen and van den Herik 1994): best-first, with the
//! whole tree in memory.
//!
//! ```text
//! while the root is unsolved and the budget lasts:
//!     walk from the root to the most-proving leaf (least δ child at every node)
//!     expand it (one expansion), evaluate its children (terminal, solved table, or Prior)
//!     update (φ, δ) up to the root (δ by sum, or by the weak rule when `weak`)
//! ```
//!
//! With a [`Prior`] other than [`Uniform`] new leaves start at heuristic numbers (weak PNS /
//! heuristic initialisation); with `weak` the δ of a node is `max φ + (open children − 1)`
//! instead of a sum (Ueda et al. 2008), which limits the over-counting of transpositions. The
//! tree is a tree; see the `tree` module for how transpositions are treated.

use crate::budget::{Budget, Meter};
use crate::prior::{Prior, Uniform};
use crate::question::Question;
use crate::tree::Tree;
use crate::{Proof, Prover};
use games::Game;
use std::collections::HashMap;

/// Plain or weak PNS with an optional heuristic [`Prior`].
#[derive(Clone, Copy, Debug, Default)]
pub struct Pns<P = Uniform> {
    /// Initial numbers of new leaves.
    pub prior: P,
    /// δ by the weak rule instead of the sum.
    pub weak: bool,
}

impl<G: Game, P: Prior<G>> Prover<G> for Pns<P> {
    fn name(&self) -> &'static str {
        if self.weak { "wpns" } else { "pns" }
    }

    fn prove(
        &mut self,
        game: &G,
        root: &G::State,
        question: Question,
        budget: &Budget,
    ) -> Proof<G::Move> {
        let mut meter = Meter::new(budget);
        let mut tree = Tree::new(game, root, question, &self.prior, self.weak, HashMap::new());
        meter.set_nodes(tree.live, tree.bytes());
        while !tree.root_solved() && meter.tick() {
            let (leaf, state) = tree.select();
            tree.expand(leaf, &state);
            tree.update();
            if !meter.set_nodes(tree.live, tree.bytes()) {
                break;
            }
        }
        let (phi, delta) = tree.root_numbers();
        Proof::from_root(
            game,
            root,
            question,
            phi,
            delta,
            tree.best_root_move(),
            &meter,
        )
    }
}
