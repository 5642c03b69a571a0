//! The history layer: the earlier boards of a game, for the ko rule. Boards are compared
//! exactly; their hashes only narrow the search.

use super::board::Board;
use super::rules::KoRule;
use crate::Player;
use std::collections::HashMap;
use std::sync::Arc;

/// Earlier positions of the game (start and setup positions included), as the ko rule needs:
/// every board (and side to move) under superko; the last two boards under simple ko.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct History {
    rule: KoRule,
    /// (board, side to move at that board), in game order. Boards are shared between clones,
    /// so copying a history (as a search does at every node) copies pointers, not boards.
    entries: Vec<(Arc<Board>, Player)>,
    /// Board hash → the latest index into `entries` with that hash (superko rules only).
    by_hash: HashMap<u64, u32>,
    /// Per entry: the previous index with the same board hash, or `u32::MAX`.
    same_hash: Vec<u32>,
    /// The board hashes of the last two entries (simple ko only).
    recent: [u64; 2],
    /// What the ko rule can still forbid, as a 64-bit signature (see [`History::signature`]).
    signature: u64,
}

/// A non-linear mixer of one board hash (the splitmix64 finaliser), so that a sum of mixed
/// hashes is a signature of a set of boards.
pub(crate) const fn mix(h: u64) -> u64 {
    let mut z = h.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Salt of a board recorded with White to move, under situational superko.
const WHITE_SALT: u64 = 0x5851_F42D_4C95_7F2D;

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
            same_hash: Vec::new(),
            recent: [0; 2],
            signature: 0,
        }
    }

    /// A 64-bit signature of what the ko rule can still forbid: under positional superko the
    /// set of recorded boards (a sum of mixed board hashes, each board once), under
    /// situational superko the set of (board, side to move) pairs, under simple ko the board
    /// before the current one. Two histories with the same position and the same signature
    /// allow the same moves (but for a 64-bit collision), so a search that keys its nodes by
    /// position hash ^ signature never merges nodes whose legal moves differ.
    #[must_use]
    pub const fn signature(&self) -> u64 {
        self.signature
    }

    /// [`History::signature`] recomputed from the recorded boards, hashed by `hash_of`
    /// (checks the incremental one).
    #[must_use]
    pub fn signature_from_scratch(&self, hash_of: impl Fn(&Board) -> u64) -> u64 {
        match self.rule {
            KoRule::Simple => {
                let n = self.entries.len();
                if n >= 2 {
                    mix(hash_of(&self.entries[n - 2].0))
                } else {
                    0
                }
            }
            KoRule::PositionalSuperko | KoRule::SituationalSuperko => {
                let mut sig = 0u64;
                for (i, (b, side)) in self.entries.iter().enumerate() {
                    let first = self.entries[..i].iter().all(|(b2, s2)| {
                        b2 != b || (self.rule == KoRule::SituationalSuperko && s2 != side)
                    });
                    if first {
                        sig = sig.wrapping_add(mix(self.salted(hash_of(b), *side)));
                    }
                }
                sig
            }
        }
    }

    const fn salted(&self, board_hash: u64, side: Player) -> u64 {
        if matches!(self.rule, KoRule::SituationalSuperko) && matches!(side, Player::White) {
            board_hash ^ WHITE_SALT
        } else {
            board_hash
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
            self.entries.push((Arc::new(board.clone()), to_move));
            self.recent = [self.recent[1], board_hash];
            self.signature = if self.entries.len() == 2 {
                mix(self.recent[0])
            } else {
                0
            };
            return;
        }
        let situational = self.rule == KoRule::SituationalSuperko;
        let seen = self.same_hash_indices(board_hash).any(|i| {
            let (b, side) = &self.entries[i];
            **b == *board && (!situational || *side == to_move)
        });
        if !seen {
            self.signature = self
                .signature
                .wrapping_add(mix(self.salted(board_hash, to_move)));
        }
        let idx = self.entries.len() as u32;
        self.entries.push((Arc::new(board.clone()), to_move));
        let previous = self.by_hash.insert(board_hash, idx).unwrap_or(u32::MAX);
        self.same_hash.push(previous);
    }

    /// The indices of the entries recorded with board hash `h`, latest first.
    fn same_hash_indices(&self, h: u64) -> impl Iterator<Item = usize> + '_ {
        let mut next = self.by_hash.get(&h).copied().unwrap_or(u32::MAX);
        std::iter::from_fn(move || {
            (next != u32::MAX).then(|| {
                let i = next as usize;
                next = self.same_hash[i];
                i
            })
        })
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
                self.entries.len() >= 2 && *self.entries[self.entries.len() - 2].0 == *board
            }
            KoRule::PositionalSuperko | KoRule::SituationalSuperko => {
                self.same_hash_indices(board_hash).any(|i| {
                    let (b, side) = &self.entries[i];
                    **b == *board
                        && (self.rule == KoRule::PositionalSuperko || *side == next_to_move)
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
        self.entries.iter().map(|(b, p)| (&**b, *p))
    }
}
