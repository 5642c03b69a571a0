//! λ-df-pn: df-pn whose attacker moves are ordered and filtered by threat order, after
//! K. Yoshizoe, A. Kishimoto and M. Müller, "Lambda depth-first proof number search and its
//! application to Go" (IJCAI-07).
//!
//! Each move `a` of the attacker (the question's player) gets a **λ-order** when its node is
//! first expanded:
//!
//! ```text
//! 0  a reaches the goal
//! 1  after a and a defender null move, the attacker reaches the goal in one move (λ⁰)
//! 2  after a and a null move, a λ¹-search (a ladder, see crate::lambda) proves the goal
//!    within `threat_budget` expansions
//! 3  any other move (and every move of a game without a null move)
//! ```
//!
//! At an attacker node only the live children (not yet refuted) of the **least λ-order
//! present** take part in `φ = min δ(c)` and `δ = Σ φ(c)`, least order first; when they are
//! all refuted, the next order joins. A child proven winning counts wherever it stands, and a
//! node is lost only when no live child of any order is left, so the filter changes the work,
//! never the answer. Defender nodes use every move, as in plain df-pn. The recursion,
//! thresholds and the 1+ε rule are df-pn's ([`crate::dfpn`]); the table is a map keyed like
//! [`crate::table`] (the whole state for games that repeat positions, so no graph-history
//! interaction), and every node's orders are kept, so each threat test runs once.

use crate::budget::{Budget, Meter};
use crate::lambda::Lambda;
use crate::numbers::{INF, add, one_plus_epsilon};
use crate::question::{Answer, Question};
use crate::table::position_key;
use crate::{Proof, Prover};
use games::Game;
use std::collections::HashMap;

/// λ-df-pn, as a [`Prover`].
#[derive(Clone, Copy, Debug)]
pub struct LambdaDfPn {
    /// ε of the 1+ε rule.
    pub epsilon: f64,
    /// Expansions allowed to each λ¹ threat test.
    pub threat_budget: u64,
}

impl Default for LambdaDfPn {
    /// ε 0.25, 200 expansions per threat test.
    fn default() -> Self {
        Self {
            epsilon: 0.25,
            threat_budget: 200,
        }
    }
}

/// Depth of the λ¹ threat tests, in plies.
const LADDER_DEPTH: u32 = 61;

struct Child<S> {
    state: S,
    key: u64,
    order: u8,
    phi: u32,
    delta: u32,
}

struct Engine<'a, G: Game> {
    game: &'a G,
    q: Question,
    epsilon: f64,
    threat_budget: u64,
    table: HashMap<u64, (u32, u32)>,
    orders: HashMap<u64, Vec<(G::Move, u8)>>,
    meter: Meter,
}

impl<G: Game> Engine<'_, G> {
    fn numbers(&self, s: &G::State, key: u64) -> (u32, u32) {
        if let Some(o) = self.game.outcome(s) {
            return self.q.terminal_numbers(o, self.game.to_move(s));
        }
        self.table.get(&key).copied().unwrap_or((1, 1))
    }

    /// The λ-order of each legal move of the attacker at `s`, computed once per node.
    fn ordered(&mut self, s: &G::State, key: u64) -> Vec<(G::Move, u8)> {
        if let Some(v) = self.orders.get(&key) {
            return v.clone();
        }
        let mut moves = Vec::new();
        self.game.legal_moves(s, &mut moves);
        let test = Budget::expansions(self.threat_budget);
        let mut v = Vec::with_capacity(moves.len());
        for m in moves {
            let mut c = s.clone();
            self.game.play(&mut c, m);
            let order = match self.game.outcome(&c) {
                Some(o) if self.q.satisfied(o) => 0,
                Some(_) => 3,
                None => {
                    let mut lam = Lambda::new(self.game, self.q, &test);
                    let order = if lam.threatens(&c, 0, 1) == Some(true)
                        && self.game.null_move(&c).is_some()
                    {
                        1
                    } else if self.game.null_move(&c).is_some()
                        && lam.threatens(&c, 1, LADDER_DEPTH) == Some(true)
                    {
                        2
                    } else {
                        3
                    };
                    self.meter.expansions += lam.meter.expansions;
                    order
                }
            };
            v.push((m, order));
        }
        v.sort_by_key(|&(_, o)| o);
        self.orders.insert(key, v.clone());
        v
    }

    /// `(φ, δ, best child, second least δ)` over the children in play.
    fn summarize(&self, kids: &[Child<G::State>], attacker: bool) -> (u32, u32, usize, u32) {
        if let Some(i) = kids.iter().position(|k| k.delta == 0) {
            return (0, INF, i, INF);
        }
        let level = if attacker {
            kids.iter().filter(|k| k.phi != 0).map(|k| k.order).min()
        } else {
            Some(0)
        };
        let Some(level) = level else {
            return (INF, 0, 0, INF);
        };
        let (mut phi, mut delta, mut best, mut delta2) = (INF, 0u32, usize::MAX, INF);
        for (i, k) in kids.iter().enumerate() {
            if k.phi == 0 || (attacker && k.order != level) {
                continue;
            }
            delta = add(delta, k.phi);
            if k.delta < phi {
                delta2 = phi;
                phi = k.delta;
                best = i;
            } else if k.delta < delta2 {
                delta2 = k.delta;
            }
        }
        if best == usize::MAX {
            return (INF, 0, 0, INF);
        }
        (phi, delta, best, delta2)
    }

    fn mid(&mut self, s: &G::State, key: u64, th_phi: u32, th_delta: u32) -> (u32, u32) {
        if !self.meter.tick() {
            return self.numbers(s, key);
        }
        let attacker = self.game.to_move(s) == self.q.player;
        let moves: Vec<(G::Move, u8)> = if attacker {
            self.ordered(s, key)
        } else {
            let mut m = Vec::new();
            self.game.legal_moves(s, &mut m);
            m.into_iter().map(|m| (m, 0)).collect()
        };
        let mut kids: Vec<Child<G::State>> = moves
            .into_iter()
            .map(|(m, order)| {
                let mut c = s.clone();
                self.game.play(&mut c, m);
                let key = position_key(self.game, &c);
                let (phi, delta) = self.numbers(&c, key);
                Child {
                    state: c,
                    key,
                    order,
                    phi,
                    delta,
                }
            })
            .collect();
        loop {
            let (phi, delta, best, delta2) = self.summarize(&kids, attacker);
            if phi == 0 || delta == 0 || phi >= th_phi || delta >= th_delta || self.meter.stopped()
            {
                self.table.insert(key, (phi, delta));
                self.meter.nodes = self.table.len() as u64;
                self.meter.peak_nodes = self.meter.nodes;
                return (phi, delta);
            }
            let c = &kids[best];
            let c_phi = if th_delta == INF {
                INF
            } else {
                add(th_delta - delta, c.phi)
            };
            let c_delta = th_phi.min(one_plus_epsilon(delta2, self.epsilon));
            let (state, ckey) = (c.state.clone(), c.key);
            let r = self.mid(&state, ckey, c_phi, c_delta);
            (kids[best].phi, kids[best].delta) = r;
        }
    }

    fn best_move(&mut self, root: &G::State) -> Option<G::Move> {
        let mut moves = Vec::new();
        self.game.legal_moves(root, &mut moves);
        let mut best: Option<(G::Move, u32)> = None;
        for m in moves {
            let mut c = root.clone();
            self.game.play(&mut c, m);
            let (_, delta) = self.numbers(&c, position_key(self.game, &c));
            if best.is_none_or(|(_, d)| delta < d) {
                best = Some((m, delta));
            }
        }
        best.map(|(m, _)| m)
    }
}

impl<G: Game> Prover<G> for LambdaDfPn {
    fn name(&self) -> &'static str {
        "lambda-dfpn"
    }

    fn prove(
        &mut self,
        game: &G,
        root: &G::State,
        question: Question,
        budget: &Budget,
    ) -> Proof<G::Move> {
        let mut e = Engine {
            game,
            q: question,
            epsilon: self.epsilon,
            threat_budget: self.threat_budget,
            table: HashMap::new(),
            orders: HashMap::new(),
            meter: Meter::new(budget),
        };
        let key = position_key(game, root);
        let (phi, delta) = match game.outcome(root) {
            Some(o) => question.terminal_numbers(o, game.to_move(root)),
            None => e.mid(root, key, INF, INF),
        };
        let answer =
            crate::question::answer_from_root(phi, delta, game.to_move(root) == question.player);
        let best_move = if game.outcome(root).is_some() {
            None
        } else {
            e.best_move(root)
        };
        Proof {
            answer,
            best_move,
            expansions: e.meter.expansions,
            peak_nodes: e.meter.peak_nodes.max(1),
            time: e.meter.elapsed(),
            stopped: if answer == Answer::Unknown {
                e.meter.stop
            } else {
                None
            },
        }
    }
}
