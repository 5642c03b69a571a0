//! The depth-first family: df-pn, PDS and focused df-pn, on one engine with one fixed-size
//! transposition table ([`crate::table`]).
//!
//! # df-pn (Nagai 2002) with the 1+ε rule (Pawlewicz and Lew 2007)
//! `MID(n, thφ, thδ)` expands `n` (one expansion), then repeats: compute
//! `φ = min δ(c)`, `δ = Σ φ(c)`; return when `φ ≥ thφ` or `δ ≥ thδ`; otherwise descend into
//! the child `c₁` of least δ with
//!
//! ```text
//! thφ(c₁) = thδ − δ + φ(c₁)
//! thδ(c₁) = min(thφ, max(δ₂ + 1, ⌈δ₂ · (1 + ε)⌉))      δ₂ = second least δ
//! ```
//!
//! and store `(φ, δ)` in the table on return. The root is called with `(∞, ∞)`. ε = 0.25 by
//! default; ε = 0 is Nagai's `δ₂ + 1`.
//!
//! # PDS (Nagai 1998): proof-and-disproof-number search
//! The same recursion, but a call returns only when **both** thresholds are reached
//! (`φ ≥ thφ` **and** `δ ≥ thδ`) or the node is solved, and the root deepens its thresholds
//! one at a time, on the smaller of its two numbers (`thφ = φ + 1` when `φ ≤ δ`, else
//! `thδ = δ + 1`): multiple iterative deepening in both directions. A child's threshold on a
//! side already reached by the parent stays at the child's current number.
//!
//! # Focused df-pn (Henderson 2010; Gao et al., *Focused depth-first proof number search
//! using convolutional neural networks for the game of Hex*, Section 3.2)
//! Children are ranked by a [`MoveOrder`]; children proven winning for the opponent are
//! pruned; of the `live` others only the first `base + ⌈factor × live⌉` take part in φ and δ.
//! When a child in that window is pruned, the window keeps its size or takes in the next
//! child, so the search widens as children are proven; a child proven losing for the opponent
//! (a winning move) solves the node wherever it stands. A node is lost only when no live child
//! is left, so the focus can cost effort but never soundness. Defaults: base 1, factor 0.2.
//!
//! The factor of a node comes from [`MoveOrder::widening`]: the fixed µ by default
//! (Henderson's Equation 1), or Gao et al.'s Equations 2–3 with a value network,
//! `base + ⌈f(s) × live⌉` with `f(s) = min(µ, (1 + v(s)) / 2)` for the value `v(s) ∈ [−1, 1]`
//! of the node for its mover (a node that looks lost gets a narrower window, so its parent
//! sees a small proof number through it sooner).
//!
//! **Lazy children.** Focused df-pn evaluates a child (terminal test, table, prior: on
//! [`crate::KnowledgeHex`] the whole H-search of the child) only when it enters the window;
//! until then it counts as live with numbers (1, 1). Children outside the window play no part
//! in φ and δ, so this changes no number the search uses except that a winning move outside
//! the window is found only when the window reaches it; it saves the knowledge of most
//! children (on 6x6 Hex a window of about 7 of 30).

use crate::budget::{Budget, Meter};
use crate::numbers::{DeltaAcc, INF, add, one_plus_epsilon, unknown_pn};
use crate::order::{MoveOrder, NaturalOrder};
use crate::prior::{Prior, Uniform};
use crate::question::Question;
use crate::table::{Table, position_key};
use crate::{Proof, Prover};
use games::Game;

/// How thresholds are passed down.
#[derive(Clone, Copy, Debug)]
enum Mode {
    DfPn { epsilon: f64 },
    Pds,
}

/// The focus window: `base + ⌈factor × live⌉` children.
#[derive(Clone, Copy, Debug)]
struct Focus {
    base: usize,
    factor: f64,
}

struct Child<G: Game> {
    state: G::State,
    key: u64,
    phi: u32,
    delta: u32,
    /// The numbers are computed (else (1, 1) placeholders: lazy children of focused df-pn).
    known: bool,
}

struct Engine<'a, G: Game, P, O> {
    game: &'a G,
    q: Question,
    prior: &'a P,
    order: &'a O,
    focus: Option<Focus>,
    mode: Mode,
    weak: bool,
    tt: Table,
    meter: Meter,
    kids_pool: Vec<Vec<Child<G>>>,
    moves_pool: Vec<Vec<G::Move>>,
    scratch: Vec<G::Move>,
}

/// `(φ, δ, index of the chosen child, second least δ)` of a node from its children.
struct Summary {
    phi: u32,
    delta: u32,
    best: usize,
    delta2: u32,
}

impl<'a, G: Game, P: Prior<G>, O: MoveOrder<G>> Engine<'a, G, P, O> {
    fn new(game: &'a G, q: Question, prior: &'a P, order: &'a O, budget: &Budget) -> Self {
        Self {
            game,
            q,
            prior,
            order,
            focus: None,
            mode: Mode::DfPn { epsilon: 0.25 },
            weak: false,
            tt: Table::new(budget.max_mib),
            meter: Meter::new(budget),
            kids_pool: Vec::new(),
            moves_pool: Vec::new(),
            scratch: Vec::new(),
        }
    }

    /// Numbers of a child not yet searched here: exact if terminal, else the table's, else the
    /// prior's exact value, else its estimate.
    fn numbers(&mut self, s: &G::State, key: u64) -> (u32, u32) {
        if let Some(o) = self.game.outcome(s) {
            return self.q.terminal_numbers(o, self.game.to_move(s));
        }
        if let Some(e) = self.tt.lookup(key) {
            return (e.phi, e.delta);
        }
        if let Some(wins) = self.prior.exact(self.game, s) {
            return if wins { (0, INF) } else { (INF, 0) };
        }
        let (phi, delta) = self.prior.estimate(self.game, s, &mut self.scratch);
        (unknown_pn(phi), unknown_pn(delta))
    }

    /// The window size for `live` children under `factor`.
    fn window(&self, live: usize, factor: f64) -> usize {
        match self.focus {
            None => usize::MAX,
            Some(f) => (f.base + (factor * live as f64).ceil() as usize).min(live),
        }
    }

    /// Evaluates the children not yet known that the window reaches (in order), until the
    /// window holds only known children or a winning move is found.
    fn evaluate_window(&mut self, kids: &mut [Child<G>], factor: f64) {
        let mut live = kids.iter().filter(|k| k.phi != 0).count();
        let mut taken = 0;
        for k in kids.iter_mut() {
            if taken >= self.window(live, factor) {
                return;
            }
            if !k.known {
                (k.phi, k.delta) = self.numbers(&k.state, k.key);
                k.known = true;
                if k.delta == 0 {
                    return;
                }
                if k.phi == 0 {
                    live -= 1;
                    continue;
                }
            }
            if k.phi != 0 {
                taken += 1;
            }
        }
    }

    fn summarize(&self, kids: &[Child<G>], factor: f64) -> Summary {
        let live = kids.iter().filter(|k| k.phi != 0).count();
        let window = self.window(live, factor);
        let mut s = Summary {
            phi: INF,
            delta: 0,
            best: usize::MAX,
            delta2: INF,
        };
        let mut acc = DeltaAcc::new(self.weak);
        let mut taken = 0;
        for (i, k) in kids.iter().enumerate() {
            if k.delta == 0 {
                return Summary {
                    phi: 0,
                    delta: INF,
                    best: i,
                    delta2: INF,
                };
            }
            if k.phi == 0 || taken >= window {
                continue;
            }
            taken += 1;
            acc.push(k.phi);
            if k.delta < s.phi {
                s.delta2 = s.phi;
                s.phi = k.delta;
                s.best = i;
            } else if k.delta < s.delta2 {
                s.delta2 = k.delta;
            }
        }
        if s.best == usize::MAX {
            // No live child: every move loses.
            return Summary {
                phi: INF,
                delta: 0,
                best: 0,
                delta2: INF,
            };
        }
        s.delta = acc.value();
        s
    }

    fn done(&self, phi: u32, delta: u32, th_phi: u32, th_delta: u32) -> bool {
        phi == 0
            || delta == 0
            || self.meter.stopped()
            || match self.mode {
                Mode::DfPn { .. } => phi >= th_phi || delta >= th_delta,
                Mode::Pds => phi >= th_phi && delta >= th_delta,
            }
    }

    /// The recursive procedure on a non-terminal node; `known` is what the caller knew of it,
    /// returned unchanged if the budget is already spent.
    fn mid(
        &mut self,
        state: &G::State,
        key: u64,
        th_phi: u32,
        th_delta: u32,
        known: (u32, u32),
        depth: usize,
    ) -> (u32, u32, usize) {
        if !self.meter.tick() {
            return (known.0, known.1, 0);
        }
        let start = self.meter.expansions;
        if self.kids_pool.len() <= depth {
            self.kids_pool.resize_with(depth + 1, Vec::new);
            self.moves_pool.resize_with(depth + 1, Vec::new);
        }
        let mut kids = std::mem::take(&mut self.kids_pool[depth]);
        let mut moves = std::mem::take(&mut self.moves_pool[depth]);
        self.game.legal_moves(state, &mut moves);
        let mut factor = 1.0;
        if let Some(f) = self.focus {
            self.order.order(self.game, state, &mut moves);
            factor = self.order.widening(self.game, state, f.factor).max(0.0);
        }
        let lazy = self.focus.is_some();
        kids.clear();
        for &mv in &moves {
            let mut s = state.clone();
            self.game.play(&mut s, mv);
            let key = position_key(self.game, &s);
            let (phi, delta) = if lazy { (1, 1) } else { self.numbers(&s, key) };
            kids.push(Child {
                state: s,
                key,
                phi,
                delta,
                known: !lazy,
            });
        }
        let sum = loop {
            if lazy {
                self.evaluate_window(&mut kids, factor);
            }
            let sum = self.summarize(&kids, factor);
            if self.done(sum.phi, sum.delta, th_phi, th_delta) {
                break sum;
            }
            let c = &kids[sum.best];
            let (cth_phi, cth_delta) = match self.mode {
                Mode::DfPn { epsilon } => {
                    let p = if th_delta == INF {
                        INF
                    } else {
                        add(th_delta - sum.delta, c.phi)
                    };
                    (p, th_phi.min(one_plus_epsilon(sum.delta2, epsilon)))
                }
                Mode::Pds => {
                    let p = if th_delta == INF {
                        INF
                    } else if sum.delta < th_delta {
                        add(th_delta - sum.delta, c.phi)
                    } else {
                        c.phi
                    };
                    let d = if sum.phi < th_phi {
                        th_phi.min(add(sum.delta2, 1))
                    } else {
                        c.delta
                    };
                    (p, d)
                }
            };
            let (phi, delta, _) = self.mid(
                &c.state,
                c.key,
                cth_phi,
                cth_delta,
                (c.phi, c.delta),
                depth + 1,
            );
            let c = &mut kids[sum.best];
            (c.phi, c.delta) = (phi, delta);
        };
        self.tt
            .store(key, sum.phi, sum.delta, self.meter.expansions - start);
        self.meter.nodes = self.tt.used;
        self.kids_pool[depth] = kids;
        self.moves_pool[depth] = moves;
        (sum.phi, sum.delta, sum.best)
    }

    fn run(&mut self, root: &G::State) -> (u32, u32, Option<G::Move>) {
        if let Some(o) = self.game.outcome(root) {
            let (p, d) = self.q.terminal_numbers(o, self.game.to_move(root));
            return (p, d, None);
        }
        let key = position_key(self.game, root);
        let (mut phi, mut delta, mut best) = (1, 1, 0);
        match self.mode {
            Mode::DfPn { .. } => (phi, delta, best) = self.mid(root, key, INF, INF, (1, 1), 0),
            Mode::Pds => {
                while phi != 0 && delta != 0 && !self.meter.stopped() {
                    let (tp, td) = if phi <= delta {
                        (add(phi, 1), delta)
                    } else {
                        (phi, add(delta, 1))
                    };
                    (phi, delta, best) = self.mid(root, key, tp, td, (phi, delta), 0);
                }
            }
        }
        self.meter.peak_nodes = self.meter.peak_nodes.max(self.tt.used);
        let mv = self.moves_pool.first().and_then(|m| m.get(best).copied());
        (phi, delta, mv)
    }
}

/// Depth-first proof-number search with a transposition table and the 1+ε rule.
#[derive(Clone, Copy, Debug)]
pub struct DfPn<P = Uniform> {
    /// Initial numbers of nodes not in the table.
    pub prior: P,
    /// δ by the weak rule instead of the sum.
    pub weak: bool,
    /// The ε of the 1+ε rule (0 = Nagai's original thresholds).
    pub epsilon: f64,
}

impl Default for DfPn {
    fn default() -> Self {
        Self {
            prior: Uniform,
            weak: false,
            epsilon: 0.25,
        }
    }
}

impl<G: Game, P: Prior<G>> Prover<G> for DfPn<P> {
    fn name(&self) -> &'static str {
        "dfpn"
    }

    fn prove(
        &mut self,
        game: &G,
        root: &G::State,
        question: Question,
        budget: &Budget,
    ) -> Proof<G::Move> {
        let mut e = Engine::new(game, question, &self.prior, &NaturalOrder, budget);
        e.mode = Mode::DfPn {
            epsilon: self.epsilon,
        };
        e.weak = self.weak;
        let (phi, delta, mv) = e.run(root);
        Proof::from_root(game, root, question, phi, delta, mv, &e.meter)
    }
}

/// Proof-and-disproof-number search (Nagai's PDS) on the same table.
#[derive(Clone, Copy, Debug, Default)]
pub struct Pds<P = Uniform> {
    /// Initial numbers of nodes not in the table.
    pub prior: P,
    /// δ by the weak rule instead of the sum.
    pub weak: bool,
}

impl<G: Game, P: Prior<G>> Prover<G> for Pds<P> {
    fn name(&self) -> &'static str {
        "pds"
    }

    fn prove(
        &mut self,
        game: &G,
        root: &G::State,
        question: Question,
        budget: &Budget,
    ) -> Proof<G::Move> {
        let mut e = Engine::new(game, question, &self.prior, &NaturalOrder, budget);
        e.mode = Mode::Pds;
        e.weak = self.weak;
        let (phi, delta, mv) = e.run(root);
        Proof::from_root(game, root, question, phi, delta, mv, &e.meter)
    }
}

/// Focused df-pn: df-pn over a window of the best `base + ⌈factor × live⌉` children.
#[derive(Clone, Copy, Debug)]
pub struct FocusedDfPn<O, P = Uniform> {
    /// Ranks the children.
    pub order: O,
    /// Children always in the window (default 1).
    pub base: usize,
    /// Widening factor µ (default 0.2).
    pub factor: f64,
    /// The ε of the 1+ε rule.
    pub epsilon: f64,
    /// Initial numbers of nodes not in the table.
    pub prior: P,
}

impl<O> FocusedDfPn<O> {
    /// The paper's settings (base 1, factor 0.2) with the given ordering.
    pub const fn new(order: O) -> Self {
        Self {
            order,
            base: 1,
            factor: 0.2,
            epsilon: 0.25,
            prior: Uniform,
        }
    }
}

impl<G: Game, O: MoveOrder<G>, P: Prior<G>> Prover<G> for FocusedDfPn<O, P> {
    fn name(&self) -> &'static str {
        "fdfpn"
    }

    fn prove(
        &mut self,
        game: &G,
        root: &G::State,
        question: Question,
        budget: &Budget,
    ) -> Proof<G::Move> {
        let mut e = Engine::new(game, question, &self.prior, &self.order, budget);
        e.mode = Mode::DfPn {
            epsilon: self.epsilon,
        };
        e.focus = Some(Focus {
            base: self.base.max(1),
            factor: self.factor.max(0.0),
        });
        let (phi, delta, mv) = e.run(root);
        Proof::from_root(game, root, question, phi, delta, mv, &e.meter)
    }
}
