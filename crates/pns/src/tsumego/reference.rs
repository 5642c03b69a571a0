//! The reference solver of tsumego: plain AND/OR minimax on the reference board, sharing no
//! code with λ-search or df-pn. It labels the problem set and is what the tests compare the
//! fast searches with.
//!
//! One binary question at a time, "can the attacker force an outcome of at least `t`?"
//! (`t` = win, or win-or-draw), searched depth-first by iterative deepening on the depth in
//! plies. A node answers **won**, **lost**, or **cut** (the depth ran out where it mattered):
//! an OR node is won if a child is won, cut if none is won and one is cut, else lost; an AND
//! node dually. Only won and lost are exact and kept in the memo, keyed by the whole state
//! (board, side to move, passes and the history superko reads), so no result depends on the
//! path. A deeper iteration follows while the root is cut, up to `max_depth`.
//!
//! For the question "capture (kill)" an OR node also answers cut when the target block has
//! more liberties than the attacker has moves left before the horizon: the defender could
//! pass every move, and an attacker stone removes at most one liberty of the block. This only
//! moves the horizon, never an exact answer.
//!
//! Moves are tried liberties of the target first (the one that leaves the other liberties
//! with the fewest empty neighbours first, as a ladder is played), then their neighbours, then
//! the rest, the pass last: an ordering, which changes the work but never the answer.

use crate::question::Question;
use games::Game;
use games::go::{Move, Point, Position, Tsumego};
use std::collections::HashMap;

/// Limits of a reference search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReferenceLimits {
    /// Deepest iteration, in plies.
    pub max_depth: u32,
    /// Nodes visited at most, over all iterations.
    pub max_nodes: u64,
}

impl Default for ReferenceLimits {
    /// 60 plies, 2,000,000 nodes.
    fn default() -> Self {
        Self {
            max_depth: 60,
            max_nodes: 2_000_000,
        }
    }
}

/// A reference answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReferenceAnswer {
    /// Whether the attacker of the question reaches its goal; `None` if a limit was hit.
    pub proven: Option<bool>,
    /// Nodes visited.
    pub nodes: u64,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum R {
    Won,
    Lost,
    Cut,
}

struct Search<'a> {
    game: &'a Tsumego,
    q: Question,
    memo: HashMap<Position, bool>,
    nodes: u64,
    max_nodes: u64,
    capture: bool,
}

/// Answers `q` (whose player must be the problem's attacker or defender) about `state`.
#[must_use]
pub fn reference(
    game: &Tsumego,
    state: &Position,
    q: Question,
    limits: ReferenceLimits,
) -> ReferenceAnswer {
    let capture = q.player == game.attacker() && q.goal == crate::question::Goal::Win;
    let mut s = Search {
        game,
        q,
        memo: HashMap::new(),
        nodes: 0,
        max_nodes: limits.max_nodes,
        capture,
    };
    let mut depth = 1;
    loop {
        match s.node(state, depth) {
            Some(R::Won) => return s.answer(Some(true)),
            Some(R::Lost) => return s.answer(Some(false)),
            None => return s.answer(None),
            Some(R::Cut) if depth >= limits.max_depth => return s.answer(None),
            Some(R::Cut) => depth = (depth + 2).min(limits.max_depth),
        }
    }
}

impl Search<'_> {
    fn answer(&self, proven: Option<bool>) -> ReferenceAnswer {
        ReferenceAnswer {
            proven,
            nodes: self.nodes,
        }
    }

    /// `None` when the node limit is hit.
    fn node(&mut self, s: &Position, depth: u32) -> Option<R> {
        if let Some(o) = self.game.outcome(s) {
            return Some(if self.q.satisfied(o) { R::Won } else { R::Lost });
        }
        if let Some(&won) = self.memo.get(s) {
            return Some(if won { R::Won } else { R::Lost });
        }
        if depth == 0 {
            return Some(R::Cut);
        }
        let or = s.to_move() == self.q.player;
        if or && self.capture {
            let libs = s.board().chain(self.game.target()).1 as u32;
            if libs > depth.div_ceil(2) {
                return Some(R::Cut);
            }
        }
        self.nodes += 1;
        if self.nodes > self.max_nodes {
            return None;
        }
        let mut cut = false;
        for m in self.ordered_moves(s) {
            let mut child = s.clone();
            self.game.play(&mut child, m);
            match self.node(&child, depth - 1)? {
                R::Won if or => return Some(self.store(s, true)),
                R::Lost if !or => return Some(self.store(s, false)),
                R::Cut => cut = true,
                _ => {}
            }
        }
        Some(if cut { R::Cut } else { self.store(s, !or) })
    }

    fn store(&mut self, s: &Position, won: bool) -> R {
        self.memo.insert(s.clone(), won);
        if won { R::Won } else { R::Lost }
    }

    fn ordered_moves(&self, s: &Position) -> Vec<Move> {
        let size = s.size();
        let board = s.board();
        let target = self.game.target();
        let (chain, _) = board.chain(target);
        let mut rank = vec![3u8; size.points()];
        for &p in &chain {
            for nb in size.neighbours(p) {
                if board.get(nb).is_none() {
                    rank[size.index(nb)] = 0;
                    for nb2 in size.neighbours(nb) {
                        let r = &mut rank[size.index(nb2)];
                        *r = (*r).min(1);
                    }
                }
            }
        }
        let mut moves = Vec::new();
        self.game.legal_moves(s, &mut moves);
        // Among the liberties: the one whose play leaves the other liberties with the fewest
        // empty neighbours first (the atari that drives a ladder).
        let libs: Vec<usize> = (0..size.points()).filter(|&i| rank[i] == 0).collect();
        let confined = |p: Point| -> usize {
            libs.iter()
                .filter(|&&l| l != size.index(p))
                .map(|&l| {
                    size.neighbours(size.point_at(l))
                        .filter(|&nb| nb != p && board.get(nb).is_none())
                        .count()
                })
                .sum()
        };
        let key = |m: &Move| match m {
            Move::Place(p) if rank[size.index(*p)] == 0 => {
                (0, confined(*p) * 1000 + size.index(*p))
            }
            Move::Place(p) => (rank[size.index(*p)], size.index(*p)),
            Move::Pass => (
                if s.passes() > 0 && s.to_move() != self.q.player {
                    0
                } else {
                    4
                },
                0,
            ),
        };
        moves.sort_by_key(key);
        moves
    }
}
