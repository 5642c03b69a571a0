//! PN² (Allis 1994; Breuker 1998): PNS whose leaves are evaluated by a second PNS.
//!
//! When the first-level search selects its most-proving leaf, a second-level PNS runs from
//! that leaf until it solves it or its tree holds `max(1, ⌈fraction × N⌉)` nodes, where N is
//! the size of the first-level tree (Breuker's size limit, a fraction of the first-level
//! tree). The leaf then gets its children with the numbers the second level found for them,
//! the rest of the second-level tree is discarded, and the first level updates its ancestors.
//! Both levels count expansions; both share the table of solved positions.

use crate::budget::{Budget, Meter};
use crate::prior::{Prior, Uniform};
use crate::question::Question;
use crate::tree::Tree;
use crate::{Proof, Prover};
use games::Game;
use std::collections::HashMap;

/// PN² with a second-level size limit of `fraction` × the first-level tree.
#[derive(Clone, Copy, Debug)]
pub struct Pn2<P = Uniform> {
    /// Initial numbers of new leaves (both levels).
    pub prior: P,
    /// δ by the weak rule instead of the sum (both levels).
    pub weak: bool,
    /// Second-level node limit as a fraction of the first-level tree (default 1.0).
    pub fraction: f64,
}

impl Default for Pn2 {
    fn default() -> Self {
        Self {
            prior: Uniform,
            weak: false,
            fraction: 1.0,
        }
    }
}

impl<G: Game, P: Prior<G>> Prover<G> for Pn2<P> {
    fn name(&self) -> &'static str {
        "pn2"
    }

    fn prove(
        &mut self,
        game: &G,
        root: &G::State,
        question: Question,
        budget: &Budget,
    ) -> Proof<G::Move> {
        let mut meter = Meter::new(budget);
        let mut first = Tree::new(game, root, question, &self.prior, self.weak, HashMap::new());
        meter.set_nodes(first.live, first.bytes());
        while !first.root_solved() && !meter.stopped() {
            let (leaf, state) = first.select();
            let limit = ((self.fraction * first.live as f64).ceil() as u64).max(1);
            let solved = std::mem::take(&mut first.solved);
            let mut second = Tree::new(game, &state, question, &self.prior, self.weak, solved);
            while !second.root_solved() && second.live <= limit && meter.tick() {
                let (l2, s2) = second.select();
                second.expand(l2, &s2);
                second.update();
                if !meter.set_nodes(first.live + second.live, first.bytes() + second.bytes()) {
                    break;
                }
            }
            let values = second.children_numbers(0);
            let expanded = !values.is_empty() || second.root_solved();
            first.solved = second.into_solved();
            if !expanded {
                break;
            }
            // The children solved at the second level are in the shared table, so they start
            // solved here; the others take the second level's numbers.
            first.expand(leaf, &state);
            first.set_children_numbers(leaf, &values);
            first.update();
            if !meter.set_nodes(first.live, first.bytes()) {
                break;
            }
        }
        let (phi, delta) = first.root_numbers();
        Proof::from_root(
            game,
            root,
            question,
            phi,
            delta,
            first.best_root_move(),
            &meter,
        )
    }
}
