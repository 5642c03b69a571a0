//! The history layer: the earlier boards of a game, for the ko rule. Boards are compared
//! exactly; their hashes only narrow the search.

use super::board::Board;
use super::rules::KoRule;
use crate::Player;
use std::collections::HashMap;

/// Earlier positions of the game (start and setup positions included), as the ko rule needs:
/// every board (and side to move) under superko; the last two boards under simple ko.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct History {
    rule: KoRule,
    /// (board, side to move at that board), in game order.
    entries: Vec<(Board, Player)>,
    /// Board hash → indices into `entries` (superko rules only).
    by_hash: HashMap<u64, Vec<u32>>,
}

impl std::hash::Hash for History {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.rule.hash(state);
        self.entries.hash(state);
    }
}

impl History {
    /// An empty history under `rule`.
    #[must_use]
    pub fn new(rule: KoRule) -> Self {
        History {
            rule,
            entries: Vec::new(),
            by_hash: HashMap::new(),
        }
    }

    /// The ko rule.
    #[must_use]
    pub const fn rule(&self) -> KoRule {
        self.rule
    }

    /// Records a position: its board (with Zobrist board hash `board_hash`) and the side to move.
    pub fn push(&mut self, board: &Board, board_hash: u64, to_move: Player) {
        if self.rule == KoRule::Simple {
            if self.entries.len() == 2 {
                self.entries.remove(0);
            }
            self.entries.push((board.clone(), to_move));
            return;
        }
        let idx = self.entries.len() as u32;
        self.entries.push((board.clone(), to_move));
        self.by_hash.entry(board_hash).or_default().push(idx);
    }

    /// Whether a stone move that creates `board` (hash `board_hash`), after which
    /// `next_to_move` is to move, is forbidden by the ko rule.
    ///
    /// The current position must already be recorded (the last entry).
    #[must_use]
    pub fn forbids(&self, board: &Board, board_hash: u64, next_to_move: Player) -> bool {
        match self.rule {
            KoRule::Simple => {
                // The board from before the opponent's last move: the entry before the current one.
                self.entries.len() >= 2 && self.entries[self.entries.len() - 2].0 == *board
            }
            KoRule::PositionalSuperko | KoRule::SituationalSuperko => {
                let Some(indices) = self.by_hash.get(&board_hash) else {
                    return false;
                };
                indices.iter().any(|&i| {
                    let (b, side) = &self.entries[i as usize];
                    b == board && (self.rule == KoRule::PositionalSuperko || *side == next_to_move)
                })
            }
        }
    }

    /// Number of recorded positions (at most 2 under simple ko).
    #[must_use]
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether nothing is recorded.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The recorded boards in game order (with the side to move at each).
    pub fn positions(&self) -> impl Iterator<Item = (&Board, Player)> {
        self.entries.iter().map(|(b, p)| (b, *p))
    }
}
