//! The value of a position for the player to move, from one or two binary proofs.
//!
//! 1. "Can the mover force a win?" — proven: **win**.
//! 2. If disproven and the game has draws: "can the mover avoid a loss?" — proven: **draw**,
//!    disproven: **loss**. Without draws a disproof of (1) is a **loss**.
//!
//! The second proof gets what the first left of the budget.

use crate::budget::Budget;
use crate::question::{Answer, Question};
use crate::{Proof, Prover};
use games::Game;
use std::time::Duration;

/// A game-theoretic value for the player to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// The mover can force a win.
    Win,
    /// Neither side can force a win.
    Draw,
    /// The opponent can force a win.
    Loss,
}

impl Value {
    /// "win", "draw" or "loss".
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Value::Win => "win",
            Value::Draw => "draw",
            Value::Loss => "loss",
        }
    }

    /// The value for the other player.
    #[must_use]
    pub const fn negate(self) -> Self {
        match self {
            Value::Win => Value::Loss,
            Value::Draw => Value::Draw,
            Value::Loss => Value::Win,
        }
    }

    /// 0 loss, 1 draw, 2 win.
    #[must_use]
    pub const fn rank(self) -> u8 {
        match self {
            Value::Loss => 0,
            Value::Draw => 1,
            Value::Win => 2,
        }
    }
}

/// A value with the proofs behind it.
#[derive(Clone, Debug)]
pub struct Solution<M> {
    /// The value, `None` when the budget ran out.
    pub value: Option<Value>,
    /// A move keeping the value (from the proof that decided it).
    pub best_move: Option<M>,
    /// The questions asked and their proofs, in order.
    pub proofs: Vec<(Question, Proof<M>)>,
}

impl<M> Solution<M> {
    /// Expansions of all proofs.
    #[must_use]
    pub fn expansions(&self) -> u64 {
        self.proofs.iter().map(|(_, p)| p.expansions).sum()
    }

    /// Time of all proofs.
    #[must_use]
    pub fn time(&self) -> Duration {
        self.proofs.iter().map(|(_, p)| p.time).sum()
    }

    /// The largest peak of the proofs.
    #[must_use]
    pub fn peak_nodes(&self) -> u64 {
        self.proofs
            .iter()
            .map(|(_, p)| p.peak_nodes)
            .max()
            .unwrap_or(0)
    }
}

/// Solves `state` for the player to move; `draws` says whether the game can end in a draw.
pub fn solve<G: Game>(
    prover: &mut dyn Prover<G>,
    game: &G,
    state: &G::State,
    budget: &Budget,
    draws: bool,
) -> Solution<G::Move> {
    let mover = game.to_move(state);
    let q1 = Question::win(mover);
    let p1 = prover.prove(game, state, q1, budget);
    let (answer, best) = (p1.answer, p1.best_move);
    let mut sol = Solution {
        value: None,
        best_move: best,
        proofs: vec![(q1, p1)],
    };
    match answer {
        Answer::Proven => sol.value = Some(Value::Win),
        Answer::Unknown => {}
        Answer::Disproven if !draws => sol.value = Some(Value::Loss),
        Answer::Disproven => {
            let mut rest = budget.clone();
            let spent = sol.expansions();
            if rest.limits.max_expansions != 0 {
                if spent >= rest.limits.max_expansions {
                    return sol;
                }
                rest.limits.max_expansions -= spent;
            }
            if let Some(t) = rest.limits.max_time {
                rest.limits.max_time = Some(t.saturating_sub(sol.time()));
            }
            let q2 = Question::avoid_loss(mover);
            let p2 = prover.prove(game, state, q2, &rest);
            sol.value = match p2.answer {
                Answer::Proven => Some(Value::Draw),
                Answer::Disproven => Some(Value::Loss),
                Answer::Unknown => None,
            };
            sol.best_move = p2.best_move;
            sol.proofs.push((q2, p2));
        }
    }
    sol
}
