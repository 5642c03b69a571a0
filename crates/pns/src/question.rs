//! The question a proof answers, and the answer.

use crate::numbers::INF;
use games::{Outcome, Player};
use std::fmt;

/// What the attacker must reach.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Goal {
    /// A win.
    Win,
    /// A win or a draw ("avoid a loss").
    WinOrDraw,
}

/// One binary question: "can `player` force `goal` from this position?".
///
/// `player` is the **attacker**; nodes where it moves are OR nodes. In games without draws the
/// two goals coincide. A game's value for the player to move needs at most two questions
/// (see [`crate::solve()`]): "can the mover force a win?" and "can the mover avoid a loss?".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Question {
    /// The attacker.
    pub player: Player,
    /// What it must reach.
    pub goal: Goal,
}

impl Question {
    /// "Can `player` force a win?"
    #[must_use]
    pub const fn win(player: Player) -> Self {
        Self {
            player,
            goal: Goal::Win,
        }
    }

    /// "Can `player` avoid a loss (force a win or a draw)?"
    #[must_use]
    pub const fn avoid_loss(player: Player) -> Self {
        Self {
            player,
            goal: Goal::WinOrDraw,
        }
    }

    /// Whether a finished game with this outcome answers the question with yes.
    #[must_use]
    pub fn satisfied(&self, outcome: Outcome) -> bool {
        match (self.goal, outcome) {
            (_, Outcome::Win(p)) => p == self.player,
            (Goal::Win, Outcome::Draw) => false,
            (Goal::WinOrDraw, Outcome::Draw) => true,
        }
    }

    /// `(φ, δ)` of a terminal node for the player to move there (`mover`).
    #[must_use]
    pub(crate) fn terminal_numbers(&self, outcome: Outcome, mover: Player) -> (u32, u32) {
        if self.satisfied(outcome) == (mover == self.player) {
            (0, INF)
        } else {
            (INF, 0)
        }
    }
}

impl fmt::Display for Question {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.goal {
            Goal::Win => write!(f, "can {} force a win?", self.player),
            Goal::WinOrDraw => write!(f, "can {} avoid a loss?", self.player),
        }
    }
}

/// The answer to a [`Question`]: [`Answer::Proven`] when the attacker can force its goal.
pub use vocab::Answer;

/// The answer from the root's `(φ, δ)` and whether the attacker moves at the root.
pub(crate) const fn answer_from_root(phi: u32, delta: u32, attacker_to_move: bool) -> Answer {
    let mover_wins = phi == 0;
    let mover_loses = delta == 0;
    match (mover_wins, mover_loses, attacker_to_move) {
        (true, _, true) | (_, true, false) => Answer::Proven,
        (true, _, false) | (_, true, true) => Answer::Disproven,
        _ => Answer::Unknown,
    }
}
