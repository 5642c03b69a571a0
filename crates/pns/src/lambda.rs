//! λ-search (T. Thomsen, "Lambda-search in game trees — with application to Go", ICGA
//! Journal 23(4), 2000): threat sequences of increasing order, with null moves.
//!
//! The attacker A (the question's player) wants its goal; the defender may answer with the
//! **null move** ([`games::Game::null_move`], Go's pass).
//!
//! - A **λ⁰-tree** proves A's goal when A, to move, reaches it in one move.
//! - A move `a` of A is a **λⁿ-move** when, after `a` and a defender null move, A proves its
//!   goal with a λⁿ⁻¹-tree: `a` threatens to win by a threat sequence of order n−1.
//! - A **λⁿ-tree** is a search in which A plays only λⁿ-moves and the defender plays every
//!   legal move; a node of A is won if a λⁿ-move leads to a won defender node, a defender node
//!   is won if every move leads to a won node of A.
//!
//! λ¹ is a ladder (every A move is an atari, for the capture goal), λ² a net or loose ladder.
//! A λⁿ proof is a proof in the game, since the defender's every move is refuted. The search
//! runs by iterative deepening on the depth `d` in plies (1, 3, 7, 15, …, doubling) and,
//! within each depth,
//! on the order (λ⁰, λ¹, … up to ⌈d/2⌉, since a λⁿ-tree is at least 2n−1 plies deep), and stops
//! at the first proof. A node at depth 0 fails. The question and its dual take turns by
//! effort: the one that has spent fewer expansions runs its next iteration.
//!
//! A λⁿ failure is not a disproof (A may win at a higher order). To prove that A fails, the
//! same search is run on the **dual question** ([`Question`] for the defender: avoid A's
//! goal), order by order, alternating with A's: whichever proves first answers. For a game
//! without a null move every move is taken as a λⁿ-move and the search is a plain AND/OR
//! search. Since a game's pass is always legal for the defender, a win of A in `d` plies is a
//! λᵈ proof, so the alternation ends on every finite game within its budget.
//!
//! Results are kept per node and order, keyed by the whole state for games that repeat
//! positions ([`crate::table`]): a proof at order n holds at every higher order, a failure at
//! order n at every lower one. Effort is counted in expansions: one per node searched.

use crate::budget::{Budget, Meter};
use crate::question::{Answer, Goal, Question};
use crate::table::position_key;
use crate::{Proof, Prover};
use games::Game;
use std::collections::HashMap;

/// λ-search, as a [`Prover`].
#[derive(Clone, Copy, Debug)]
pub struct LambdaSearch {
    /// Highest order tried (each question).
    pub max_order: u32,
    /// Deepest iteration, in plies; the search stops with an unknown answer there.
    pub max_depth: u32,
    /// Also search the dual question, so that a failure can be proven (Thomsen's search
    /// alone proves only the attacker's wins).
    pub dual: bool,
}

impl Default for LambdaSearch {
    /// Orders up to 64, depth up to 1,000 plies.
    fn default() -> Self {
        Self {
            max_order: 64,
            max_depth: 1000,
            dual: true,
        }
    }
}

impl LambdaSearch {
    /// Thomsen's λ-search up to order `n` only (λ¹: ladders), for any depth, without the
    /// dual: it proves the attacker's wins and answers unknown otherwise.
    #[must_use]
    pub const fn order(n: u32) -> Self {
        Self {
            max_order: n,
            max_depth: 1000,
            dual: false,
        }
    }
}

/// The question whose proof disproves `q`: the other player avoids `q`'s goal.
#[must_use]
pub const fn dual(q: Question) -> Question {
    Question {
        player: q.player.opponent(),
        goal: match q.goal {
            Goal::Win => Goal::WinOrDraw,
            Goal::WinOrDraw => Goal::Win,
        },
    }
}

/// What is known of a node for one question: the least order proven, and the order and
/// depth of the deepest failure (a failure holds at every lower order and depth).
#[derive(Clone, Copy, Debug)]
struct Known {
    proven: u32,
    failed: Option<(u32, u32)>,
}

/// λ-searches over a question and its dual, with one memo each and one meter (shared with
/// λ-df-pn's threat tests, which use the question only).
pub(crate) struct Lambda<'a, G: Game> {
    game: &'a G,
    /// The question being searched: `questions[side]`.
    q: Question,
    questions: [Question; 2],
    memos: [HashMap<u64, Known>; 2],
    side: usize,
    memo: HashMap<u64, Known>,
    pub(crate) meter: Meter,
}

impl<'a, G: Game> Lambda<'a, G> {
    pub(crate) fn new(game: &'a G, q: Question, budget: &Budget) -> Self {
        Self {
            game,
            q,
            questions: [q, dual(q)],
            memos: [HashMap::new(), HashMap::new()],
            side: 0,
            memo: HashMap::new(),
            meter: Meter::new(budget),
        }
    }

    /// Searches the question (side 0) or its dual (side 1) from now on.
    fn switch(&mut self, side: usize) {
        if side != self.side {
            std::mem::swap(&mut self.memo, &mut self.memos[self.side]);
            std::mem::swap(&mut self.memo, &mut self.memos[side]);
            self.side = side;
            self.q = self.questions[side];
        }
    }

    fn won(&self, s: &G::State) -> Option<bool> {
        self.game.outcome(s).map(|o| self.q.satisfied(o))
    }

    /// Whether the question's player wins `s` with a λⁿ-tree; `None` when the budget ran out.
    pub(crate) fn search(&mut self, s: &G::State, n: u32, d: u32) -> Option<bool> {
        if let Some(w) = self.won(s) {
            return Some(w);
        }
        let key = position_key(self.game, s);
        if let Some(k) = self.memo.get(&key) {
            if k.proven <= n {
                return Some(true);
            }
            if k.failed.is_some_and(|(fn_, fd)| fn_ >= n && fd >= d) {
                return Some(false);
            }
        }
        if d == 0 {
            return Some(false);
        }
        if !self.meter.tick() {
            return None;
        }
        let result = if self.game.to_move(s) == self.q.player {
            self.attacker_node(s, n, d)?.is_some()
        } else {
            self.defender_node(s, n, d)?
        };
        let k = self.memo.entry(key).or_insert(Known {
            proven: u32::MAX,
            failed: None,
        });
        if result {
            k.proven = k.proven.min(n);
        } else if k.failed.is_none_or(|(fn_, fd)| fn_ <= n && fd <= d) {
            k.failed = Some((n, d));
        }
        self.meter.nodes = (self.memo.len() + self.memos[1 - self.side].len()) as u64;
        self.meter.peak_nodes = self.meter.nodes;
        Some(result)
    }

    /// The winning λⁿ-move of the question's player at `s`, if any.
    pub(crate) fn attacker_node(
        &mut self,
        s: &G::State,
        n: u32,
        d: u32,
    ) -> Option<Option<G::Move>> {
        let mut moves = Vec::new();
        self.game.legal_moves(s, &mut moves);
        let mut children = Vec::with_capacity(moves.len());
        for &m in &moves {
            let mut c = s.clone();
            self.game.play(&mut c, m);
            match self.won(&c) {
                Some(true) => return Some(Some(m)),
                Some(false) => {}
                None => children.push((m, c)),
            }
        }
        if n == 0 {
            return Some(None);
        }
        for (m, c) in children {
            if !self.threatens(&c, n - 1, d.saturating_sub(2))? {
                continue;
            }
            if self.search(&c, n, d - 1)? {
                return Some(Some(m));
            }
        }
        Some(None)
    }

    /// Whether, at `c` (the defender to move), a null move lets the attacker win with a
    /// λᵏ-tree. Without a null move every move counts as a threat.
    pub(crate) fn threatens(&mut self, c: &G::State, k: u32, d: u32) -> Option<bool> {
        let Some(null) = self.game.null_move(c) else {
            return Some(true);
        };
        let mut c2 = c.clone();
        self.game.play(&mut c2, null);
        self.search(&c2, k, d)
    }

    fn defender_node(&mut self, s: &G::State, n: u32, d: u32) -> Option<bool> {
        let mut moves = Vec::new();
        self.game.legal_moves(s, &mut moves);
        for &m in &moves {
            let mut c = s.clone();
            self.game.play(&mut c, m);
            if !self.search(&c, n, d - 1)? {
                return Some(false);
            }
        }
        Some(true)
    }
}

impl<G: Game> Prover<G> for LambdaSearch {
    fn name(&self) -> &'static str {
        "lambda"
    }

    fn prove(
        &mut self,
        game: &G,
        root: &G::State,
        question: Question,
        budget: &Budget,
    ) -> Proof<G::Move> {
        let mut lam = Lambda::new(game, question, budget);
        let mut answer = Answer::Unknown;
        let mut best = None;
        let max_depth = game.max_game_length().min(self.max_depth);
        // The next (order, depth) of each side, and the expansions each has spent: the side
        // that has spent less goes next, so a hopeless dual costs at most what the attack does.
        let mut next = [Some((0, 1)), self.dual.then_some((0, 1))];
        let mut spent = [0u64; 2];
        let step = |(n, d): (u32, u32)| {
            if n < self.max_order.min(d.div_ceil(2)) {
                Some((n + 1, d))
            } else if d < max_depth {
                Some((0, (2 * d + 1).min(max_depth)))
            } else {
                None
            }
        };
        loop {
            let side = match (next[0], next[1]) {
                (None, None) => break,
                (Some(_), None) => 0,
                (None, Some(_)) => 1,
                (Some(_), Some(_)) => usize::from(spent[1] < spent[0]),
            };
            let Some((n, d)) = next[side] else { break };
            next[side] = step((n, d));
            lam.switch(side);
            let before = lam.meter.expansions;
            let r = lam.search(root, n, d);
            spent[side] += lam.meter.expansions - before;
            match r {
                None => break,
                Some(false) => {}
                Some(true) => {
                    answer = [Answer::Proven, Answer::Disproven][side];
                    if game.outcome(root).is_none() && game.to_move(root) == lam.q.player {
                        best = lam.attacker_node(root, n, d).flatten();
                    }
                    break;
                }
            }
        }
        if best.is_none() && game.outcome(root).is_none() {
            let mut moves = Vec::new();
            game.legal_moves(root, &mut moves);
            best = moves.first().copied();
        }
        let stopped = if answer == Answer::Unknown {
            lam.meter.stop
        } else {
            None
        };
        Proof {
            answer,
            best_move: best,
            expansions: lam.meter.expansions,
            peak_nodes: lam.meter.peak_nodes.max(1),
            time: lam.meter.elapsed(),
            stopped,
        }
    }
}
