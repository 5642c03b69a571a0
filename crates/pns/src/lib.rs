#![doc = include_str!("../README.md")]

pub mod algorithm;
pub mod budget;
pub mod dfpn;
pub mod hex_order;
pub mod hexknow;
pub mod lambda;
pub mod lambda_dfpn;
pub mod minimax;
pub mod numbers;
pub mod order;
pub mod pn2;
pub mod pns;
pub mod prior;
pub mod question;
pub mod solve;
pub mod table;
mod tree;
pub mod tsumego;

pub use algorithm::{Algorithm, Settings};
pub use budget::{Budget, Limits, Progress, Stop};
pub use dfpn::{DfPn, FocusedDfPn, Pds};
pub use hex_order::{HexThreats, ResistanceOrder};
pub use hexknow::{HexKnowledge, KnowledgeHex, OnHex};
pub use lambda::LambdaSearch;
pub use lambda_dfpn::LambdaDfPn;
pub use order::{MoveOrder, NaturalOrder};
pub use pn2::Pn2;
pub use pns::Pns;
pub use prior::{Mobility, Prior, Uniform, WithMobility};
pub use question::{Answer, Goal, Question};
pub use solve::{Solution, Value, solve};

use budget::Meter;
use games::Game;
use std::time::Duration;

/// The result of one proof.
#[derive(Clone, Debug, PartialEq)]
pub struct Proof<M> {
    /// The answer to the question.
    pub answer: Answer,
    /// The move for the player to move at the root that keeps the result: a move reaching
    /// the mover's goal when the mover wins, some move when it loses, the most promising one
    /// when unknown; `None` at a finished position.
    pub best_move: Option<M>,
    /// Expansions spent (see [`budget`]).
    pub expansions: u64,
    /// Largest number of nodes held in memory (tree nodes, or filled table entries).
    pub peak_nodes: u64,
    /// Wall-clock time.
    pub time: Duration,
    /// The limit that stopped the search, when the answer is unknown.
    pub stopped: Option<Stop>,
}

impl<M> Proof<M> {
    pub(crate) fn from_root<G: Game<Move = M>>(
        game: &G,
        root: &G::State,
        question: Question,
        phi: u32,
        delta: u32,
        best_move: Option<M>,
        meter: &Meter,
    ) -> Self {
        let answer = question::answer_from_root(phi, delta, game.to_move(root) == question.player);
        Self {
            answer,
            best_move: if game.outcome(root).is_some() {
                None
            } else {
                best_move
            },
            expansions: meter.expansions,
            peak_nodes: meter.peak_nodes.max(1),
            time: meter.elapsed(),
            stopped: if answer == Answer::Unknown {
                meter.stop
            } else {
                None
            },
        }
    }
}

/// A proof algorithm: every one in this crate answers the same call.
pub trait Prover<G: Game> {
    /// Short name, as on the command line: "pns", "pn2", "dfpn", "pds", "fdfpn".
    fn name(&self) -> &'static str;

    /// Answers `question` about `root` within `budget`.
    fn prove(
        &mut self,
        game: &G,
        root: &G::State,
        question: Question,
        budget: &Budget,
    ) -> Proof<G::Move>;
}

impl<G: Game, T: Prover<G> + ?Sized> Prover<G> for Box<T> {
    fn name(&self) -> &'static str {
        (**self).name()
    }

    fn prove(
        &mut self,
        game: &G,
        root: &G::State,
        question: Question,
        budget: &Budget,
    ) -> Proof<G::Move> {
        (**self).prove(game, root, question, budget)
    }
}
