//! The search: one tree design for UCT, RAVE, GRAVE and MCPS.
//!
//! ## Tree
//! Nodes live in a vector and are found through a **transposition table keyed by the
//! position hash** ([`games::Game::hash`]), as in UCD (Saffidine et al. 2011): a position
//! reached by two move orders is one node. A node holds its visit count `n(s)` (playouts
//! through it, from any parent), its edges (move, code, `n(s,a)`, `w(s,a)`), and, for
//! RAVE/GRAVE/MCPS, dense AMAF counters `(ñ_c, w̃_c)` for **every** move code `c` (a
//! reference node is asked about codes that are not its own legal moves). The tree is
//! rebuilt for every move.
//!
//! ## One iteration (Algorithm 1 of the MCPS paper)
//! 1. **Descent.** From the root, while the node is in the table and not terminal: under
//!    MCPS, a non-root node with `n(s) ≥ ρ` and no frozen statistics freezes them now (below);
//!    the AMAF reference `s_r` becomes the node when `n(s) > ρ` (GRAVE, MCPS; RAVE: always);
//!    the permutation reference becomes the node when it holds frozen statistics; a move is
//!    selected (below) and played.
//! 2. **Expansion.** The first position not in the table is added: the **new leaf**. Its
//!    depth (moves from the root) is averaged in [`SearchStats::mean_leaf_depth`].
//! 3. **Playout.** From the new leaf to the end with the [`Rollout`] policy; its length
//!    (moves from the new leaf to the end) is averaged in [`SearchStats::mean_playout_length`].
//! 4. **Backup.** Every node on the path (the new leaf included) gets `n(s) += 1`, every
//!    edge `n(s,a) += 1, w(s,a) += r`. The AMAF counters of the node at depth `k` are
//!    updated once for every **distinct** code among the moves played from it to the end
//!    (tree moves and playout moves: the first occurrence of each code counts, later ones
//!    do not). Under MCPS the whole game from the root (path and playout codes) enters the
//!    cyclic window ([`PlayoutWindow`]) with its reward.
//!
//! Rewards are half-points for Black (see [`crate::stat`]); each node judges its moves from
//! the point of view of its player to move ("negated for the opponent's turn").
//!
//! ## Selection
//! - UCT: `Q + c·sqrt(ln n(s)/n(s,a))`; unvisited moves first.
//! - RAVE/GRAVE: `(1−β)·Q + β·Q̃(s_r, a)`, `β = ñ/(ñ + n + bias·ñ·n)`, `Q = 1` when `n = 0`.
//! - MCPS (Equation 1): `(n·Q + ñ·Q̃(s_r,a) + n̂·Q̂(s_p,a)) / (n + ñ + n̂)` where `s_p` is the
//!   nearest node on the path holding frozen permutation statistics (`n̂ = 0` while there
//!   is none: the root never freezes, as the paper says "a non-root node").
//! - RAVE/GRAVE/MCPS: a move whose AMAF count at the reference is zero is tried first.
//! - Ties among "first" moves are broken uniformly at random with the player's RNG; ties
//!   among values go to the first move in legal-move order.
//!
//! ## Permutation statistics (MCPS)
//! When a non-root node first has `n(s) ≥ ρ` visits on the way down, `n̂_c, ŵ_c` are computed
//! for every code `c` from the bitsets of the window and the codes of the path that reached
//! it ([`PlayoutWindow::permutation_stats`], Algorithm 2), and **frozen**: never updated
//! again. The node then serves as the permutation reference of its subtree until a deeper
//! node freezes its own. The window holds the `W` most recent playouts **of the current
//! search** (it is emptied at the start of each move: the statistics are over `P(root)`).
//!
//! The two thresholds differ by one visit, as in the paper: a node is a GRAVE reference
//! with more than ρ visits, and freezes its permutation statistics on reaching ρ.

use crate::params::{Algorithm, Budget, Params};
use crate::rollout::{PlayerRng, Rollout};
use crate::stat::{Ratio, Stat, grave_value, mcps_ratio, uct_value};
use crate::window::PlayoutWindow;
use games::{Game, Outcome, Player};
use rand::{Rng, SeedableRng};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::time::Instant;

const NONE: u32 = u32::MAX;
const NOT_TERMINAL: u8 = u8::MAX;

/// What one search (one move) did: the quantities of the paper's appendix tables.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SearchStats {
    /// Playouts (tree descents) run.
    pub playouts: u64,
    /// New leaves added (one per descent that left the tree).
    pub new_leaves: u64,
    /// Sum of the depths of the new leaves (moves from the root).
    pub leaf_depth_sum: u64,
    /// Sum of the playout lengths (moves from the new leaf to the end).
    pub playout_length_sum: u64,
    /// Wall-clock seconds spent.
    pub seconds: f64,
}

impl SearchStats {
    /// Adds another search's numbers.
    pub fn add(&mut self, o: &SearchStats) {
        self.playouts += o.playouts;
        self.new_leaves += o.new_leaves;
        self.leaf_depth_sum += o.leaf_depth_sum;
        self.playout_length_sum += o.playout_length_sum;
        self.seconds += o.seconds;
    }
    /// Playouts per second.
    #[must_use]
    pub fn playouts_per_second(&self) -> f64 {
        if self.seconds > 0.0 {
            self.playouts as f64 / self.seconds
        } else {
            0.0
        }
    }
    /// Mean depth of a new leaf.
    #[must_use]
    pub fn mean_leaf_depth(&self) -> f64 {
        if self.new_leaves > 0 {
            self.leaf_depth_sum as f64 / self.new_leaves as f64
        } else {
            0.0
        }
    }
    /// Mean number of moves from a new leaf to the end of the game.
    #[must_use]
    pub fn mean_playout_length(&self) -> f64 {
        if self.new_leaves > 0 {
            self.playout_length_sum as f64 / self.new_leaves as f64
        } else {
            0.0
        }
    }
}

/// The identity hasher: table keys are already Zobrist hashes.
#[derive(Default)]
struct IdHasher(u64);

impl Hasher for IdHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = x;
    }
}

#[derive(Clone, Copy, Debug)]
struct Node {
    visits: u32,
    first_edge: u32,
    num_edges: u32,
    /// Slot of the frozen permutation statistics, or `NONE`.
    perm: u32,
    to_move: Player,
    /// The reward of a terminal node, `NOT_TERMINAL` otherwise.
    terminal: u8,
}

#[derive(Clone, Copy, Debug)]
struct Edge<M> {
    mv: M,
    code: u32,
    stat: Stat,
}

/// The reward of an outcome in half-points for Black.
#[must_use]
pub const fn reward(o: Outcome) -> u32 {
    match o {
        Outcome::Win(Player::Black) => 2,
        Outcome::Draw => 1,
        Outcome::Win(Player::White) => 0,
    }
}

/// The AMAF backup: the node at depth `k` (`nodes[k]`) counts each distinct code of
/// `seq[k..]` once. `stamp` (one entry per code) and `distinct` are scratch.
///
/// Walks the sequence backwards once, so the cost is the sum over nodes of the number of
/// distinct codes below them.
#[allow(clippy::too_many_arguments)]
pub(crate) fn update_amaf(
    amaf: &mut [Stat],
    codes: usize,
    nodes: &[u32],
    seq: &[u32],
    reward: u32,
    stamp: &mut [u32],
    generation: &mut u32,
    distinct: &mut Vec<u32>,
) {
    *generation = generation.wrapping_add(1);
    if *generation == 0 {
        stamp.fill(0);
        *generation = 1;
    }
    let gen_now = *generation;
    // `distinct[..len]` are the distinct codes seen so far, appended without a branch: each
    // code is written at `len`, which only moves on for a code not seen before.
    if distinct.len() <= stamp.len() {
        distinct.resize(stamp.len() + 1, 0);
    }
    let mut len = 0;
    let mut i = seq.len();
    for k in (0..nodes.len()).rev() {
        while i > k {
            i -= 1;
            let c = seq[i];
            let stamped = &mut stamp[c as usize];
            distinct[len] = c;
            len += usize::from(*stamped != gen_now);
            *stamped = gen_now;
        }
        let row = &mut amaf[nodes[k] as usize * codes..][..codes];
        for &c in &distinct[..len] {
            row[c as usize].add(reward);
        }
    }
}

/// The selection rule shared by the four players: the index in `edges` of a move whose value
/// is `None` ("try first": uniformly at random among them with `rng`, by reservoir sampling in
/// edge order), or else of the first move of greatest value (`greater(v, best)`: `v` beats the
/// best so far).
#[inline(always)]
fn pick<M, V>(
    edges: &[Edge<M>],
    rng: &mut PlayerRng,
    mut value: impl FnMut(&Edge<M>) -> Option<V>,
    greater: impl Fn(&V, &V) -> bool,
) -> usize {
    let mut best = 0;
    let mut best_val: Option<V> = None;
    let mut first_count = 0u32;
    let mut first_pick = 0;
    for (i, e) in edges.iter().enumerate() {
        match value(e) {
            None => {
                first_count += 1;
                if first_count == 1 || rng.random_range(0..first_count) == 0 {
                    first_pick = i;
                }
            }
            Some(v) => {
                if best_val.as_ref().is_none_or(|b| greater(&v, b)) {
                    best_val = Some(v);
                    best = i;
                }
            }
        }
    }
    if first_count > 0 { first_pick } else { best }
}

/// `a > b` for the (finite) values of UCT, RAVE and GRAVE.
#[inline(always)]
fn float_greater(a: &f64, b: &f64) -> bool {
    a > b
}

/// A Monte Carlo player: parameters, its own seeded RNG, a playout policy and the reusable
/// search structures.
pub struct Searcher<G: Game, R: Rollout<G>> {
    params: Params,
    rng: PlayerRng,
    rollout: R,
    codes: usize,
    nodes: Vec<Node>,
    edges: Vec<Edge<G::Move>>,
    table: HashMap<u64, u32, BuildHasherDefault<IdHasher>>,
    amaf: Vec<Stat>,
    perm: Vec<Stat>,
    window: PlayoutWindow,
    path: Vec<(u32, u32)>,
    seq: Vec<u32>,
    moves: Vec<G::Move>,
    depth_nodes: Vec<u32>,
    stamp: Vec<u32>,
    generation: u32,
    distinct: Vec<u32>,
    /// `(node, amaf reference, permutation reference)` at each step of the last descent.
    trace: Vec<(u32, u32, u32)>,
    /// The reward of the last playout (half-points for Black).
    last_reward: u32,
    /// The state of the current descent and playout, reset from the root with `clone_from`
    /// (boxed so that taking it out of `self` moves a pointer, not the state).
    scratch: Option<Box<G::State>>,
}

impl<G: Game, R: Rollout<G>> Searcher<G, R> {
    /// A player for `game` with its parameters, playout policy and RNG seed.
    pub fn new(game: &G, params: Params, rollout: R, seed: u64) -> Self {
        let codes = game.num_move_codes();
        let window_cap = if params.algorithm == Algorithm::Mcps {
            params.window
        } else {
            1
        };
        Searcher {
            params,
            rng: PlayerRng::seed_from_u64(seed),
            rollout,
            codes,
            nodes: Vec::new(),
            edges: Vec::new(),
            table: HashMap::default(),
            amaf: Vec::new(),
            perm: Vec::new(),
            window: PlayoutWindow::new(
                if params.algorithm == Algorithm::Mcps {
                    codes
                } else {
                    0
                },
                window_cap,
            ),
            path: Vec::new(),
            seq: Vec::new(),
            moves: Vec::new(),
            depth_nodes: Vec::new(),
            stamp: vec![0; codes],
            generation: 0,
            distinct: Vec::new(),
            trace: Vec::new(),
            last_reward: 0,
            scratch: None,
        }
    }

    /// The parameters.
    #[must_use]
    pub const fn params(&self) -> &Params {
        &self.params
    }

    /// Searches `state` within the budget and returns the most visited move with the
    /// search's statistics, or `None` when the game is over. A position with a single
    /// legal move is answered at once (no playouts).
    pub fn search(&mut self, game: &G, state: &G::State) -> Option<(G::Move, SearchStats)> {
        let t0 = Instant::now();
        self.begin(game, state);
        let root = self.nodes[0];
        if root.terminal != NOT_TERMINAL {
            return None;
        }
        if root.num_edges == 1 {
            let mv = self.edges[root.first_edge as usize].mv;
            return Some((
                mv,
                SearchStats {
                    seconds: t0.elapsed().as_secs_f64(),
                    ..SearchStats::default()
                },
            ));
        }
        let mut stats = SearchStats::default();
        match self.params.budget {
            Budget::Playouts(n) => {
                for _ in 0..n.max(1) {
                    self.iterate(game, state, &mut stats);
                }
            }
            Budget::Seconds(s) => loop {
                self.iterate(game, state, &mut stats);
                if t0.elapsed().as_secs_f64() >= s {
                    break;
                }
            },
        }
        stats.seconds = t0.elapsed().as_secs_f64();
        Some((self.best_move(), stats))
    }

    /// The root's moves with their statistics `(move, n(s,a), mean reward for the player
    /// to move)` after a search.
    #[must_use]
    pub fn root_moves(&self) -> Vec<(G::Move, u32, f64)> {
        let Some(root) = self.nodes.first() else {
            return Vec::new();
        };
        let p = root.to_move;
        let f = root.first_edge as usize;
        self.edges[f..f + root.num_edges as usize]
            .iter()
            .map(|e| (e.mv, e.stat.n, e.stat.mean_for(p, 0.0)))
            .collect()
    }

    /// Number of nodes in the tree of the last search.
    #[must_use]
    pub fn tree_size(&self) -> usize {
        self.nodes.len()
    }

    fn best_move(&self) -> G::Move {
        let root = self.nodes[0];
        let p = root.to_move;
        let f = root.first_edge as usize;
        let mut best = f;
        for i in f..f + root.num_edges as usize {
            let (a, b) = (self.edges[i].stat, self.edges[best].stat);
            if (a.n, a.wins_for(p)) > (b.n, b.wins_for(p)) {
                best = i;
            }
        }
        self.edges[best].mv
    }

    /// Empties the tree and the window and adds the root.
    pub(crate) fn begin(&mut self, game: &G, state: &G::State) {
        if self.codes != game.num_move_codes() {
            // Another size of the game: resize what depends on the number of codes.
            self.codes = game.num_move_codes();
            let mcps = self.params.algorithm == Algorithm::Mcps;
            self.window = PlayoutWindow::new(
                if mcps { self.codes } else { 0 },
                if mcps { self.params.window } else { 1 },
            );
            self.stamp = vec![0; self.codes];
        }
        self.nodes.clear();
        self.edges.clear();
        self.table.clear();
        self.amaf.clear();
        self.perm.clear();
        self.window.clear();
        if self.params.algorithm == Algorithm::Mcps && !self.params.window_passes {
            // The diagnostic variant: both players' null-move codes stay out of the window.
            let mut excluded = Vec::new();
            if let Some(m) = game.null_move(state) {
                excluded.push(game.move_code(state, m) as u32);
                let mut next = state.clone();
                game.play(&mut next, m);
                if let Some(m2) = game.null_move(&next) {
                    excluded.push(game.move_code(&next, m2) as u32);
                }
            }
            self.window.set_excluded(&excluded);
        }
        if let Budget::Playouts(n) = self.params.budget {
            // At most one node per playout: no reallocation (and copy) while searching, up to
            // 64 MiB of AMAF counters reserved ahead (beyond that the vectors grow as needed).
            let cap = (64 << 20) / (self.codes.max(1) * std::mem::size_of::<Stat>());
            let nodes = usize::try_from(n)
                .unwrap_or(usize::MAX)
                .saturating_add(1)
                .min(cap);
            self.nodes.reserve(nodes);
            self.table.reserve(nodes);
            if self.params.algorithm.uses_amaf() {
                self.amaf.reserve(nodes * self.codes);
            }
        }
        self.add_node(game, state, game.hash(state));
    }

    fn add_node(&mut self, game: &G, state: &G::State, hash: u64) -> u32 {
        let idx = self.nodes.len() as u32;
        let first_edge = self.edges.len() as u32;
        let terminal = match game.outcome(state) {
            Some(o) => reward(o) as u8,
            None => {
                game.legal_moves(state, &mut self.moves);
                for &mv in &self.moves {
                    let code = game.move_code(state, mv) as u32;
                    self.edges.push(Edge {
                        mv,
                        code,
                        stat: Stat::default(),
                    });
                }
                NOT_TERMINAL
            }
        };
        self.nodes.push(Node {
            visits: 0,
            first_edge,
            num_edges: self.edges.len() as u32 - first_edge,
            perm: NONE,
            to_move: game.to_move(state),
            terminal,
        });
        self.table.insert(hash, idx);
        if self.params.algorithm.uses_amaf() {
            self.amaf
                .resize(self.amaf.len() + self.codes, Stat::default());
        }
        idx
    }

    fn freeze(&mut self, node: u32) {
        let slot = (self.perm.len() / self.codes) as u32;
        self.perm
            .resize(self.perm.len() + self.codes, Stat::default());
        let start = slot as usize * self.codes;
        self.window
            .permutation_stats(&self.seq, &mut self.perm[start..start + self.codes]);
        self.nodes[node as usize].perm = slot;
    }

    fn select(&mut self, node: u32, amaf_ref: u32, perm_ref: u32) -> u32 {
        let nd = self.nodes[node as usize];
        let p = nd.to_move;
        let edges = &self.edges[nd.first_edge as usize..][..nd.num_edges as usize];
        let rng = &mut self.rng;
        // One loop per algorithm, so that none computes another's terms (UCT's logarithm).
        let i = match self.params.algorithm {
            Algorithm::Uct => {
                let (visits, c) = (nd.visits, self.params.uct_c);
                pick(
                    edges,
                    rng,
                    |e| (e.stat.n != 0).then(|| uct_value(p, e.stat, visits, c)),
                    float_greater,
                )
            }
            Algorithm::Rave | Algorithm::Grave => {
                let amaf = &self.amaf[amaf_ref as usize * self.codes..][..self.codes];
                let bias = self.params.bias;
                pick(
                    edges,
                    rng,
                    |e| {
                        let a = amaf[e.code as usize];
                        (a.n != 0).then(|| grave_value(p, e.stat, a, bias))
                    },
                    float_greater,
                )
            }
            Algorithm::Mcps => {
                let amaf = &self.amaf[amaf_ref as usize * self.codes..][..self.codes];
                let perm = if perm_ref == NONE {
                    None
                } else {
                    let b = self.nodes[perm_ref as usize].perm as usize * self.codes;
                    Some(&self.perm[b..b + self.codes])
                };
                // Equation 1 as a fraction, compared without dividing (`Ratio::greater`).
                pick(
                    edges,
                    rng,
                    |e| {
                        let a = amaf[e.code as usize];
                        (a.n != 0).then(|| {
                            let h = perm.map_or(Stat::default(), |h| h[e.code as usize]);
                            mcps_ratio(p, e.stat, a, h)
                        })
                    },
                    Ratio::greater,
                )
            }
        };
        nd.first_edge + i as u32
    }

    /// One descent, expansion, playout and backup.
    pub(crate) fn iterate(&mut self, game: &G, root_state: &G::State, stats: &mut SearchStats) {
        let mut state = match self.scratch.take() {
            Some(mut s) => {
                (*s).clone_from(root_state);
                s
            }
            None => Box::new(root_state.clone()),
        };
        self.path.clear();
        self.seq.clear();
        self.trace.clear();
        let algo = self.params.algorithm;
        let rho = self.params.rho;
        let max_len = game.max_game_length() as usize;
        let mut node = 0u32;
        let (mut amaf_ref, mut perm_ref) = (0u32, NONE);
        let mut new_leaf = false;
        loop {
            let nd = self.nodes[node as usize];
            if nd.terminal != NOT_TERMINAL || self.path.len() > max_len {
                break;
            }
            if algo == Algorithm::Mcps && node != 0 && nd.visits >= rho && nd.perm == NONE {
                self.freeze(node);
            }
            match algo {
                Algorithm::Rave => amaf_ref = node,
                Algorithm::Grave | Algorithm::Mcps if nd.visits > rho => amaf_ref = node,
                _ => {}
            }
            if self.nodes[node as usize].perm != NONE {
                perm_ref = node;
            }
            self.trace.push((node, amaf_ref, perm_ref));
            let e = self.select(node, amaf_ref, perm_ref);
            let edge = self.edges[e as usize];
            self.path.push((node, e));
            self.seq.push(edge.code);
            game.play(&mut state, edge.mv);
            let h = game.hash(&state);
            if let Some(&child) = self.table.get(&h) {
                node = child;
            } else {
                node = self.add_node(game, &state, h);
                new_leaf = true;
                break;
            }
        }
        // Playout from the leaf.
        let start = self.seq.len();
        let cap = start + 4 * max_len + 16;
        let r = if self.nodes[node as usize].terminal != NOT_TERMINAL {
            u32::from(self.nodes[node as usize].terminal)
        } else {
            loop {
                if let Some(o) = game.outcome(&state) {
                    break reward(o);
                }
                if self.seq.len() >= cap {
                    break 1;
                }
                let m = self
                    .rollout
                    .playout_move(game, &state, &mut self.moves, &mut self.rng);
                self.seq.push(game.move_code(&state, m) as u32);
                game.play(&mut state, m);
            }
        };
        stats.playouts += 1;
        self.last_reward = r;
        if new_leaf {
            stats.new_leaves += 1;
            stats.leaf_depth_sum += self.path.len() as u64;
            stats.playout_length_sum += (self.seq.len() - start) as u64;
        }
        // Backup.
        self.nodes[node as usize].visits += 1;
        for &(n, e) in &self.path {
            self.nodes[n as usize].visits += 1;
            self.edges[e as usize].stat.add(r);
        }
        if algo.uses_amaf() {
            self.depth_nodes.clear();
            self.depth_nodes.extend(self.path.iter().map(|&(n, _)| n));
            self.depth_nodes.push(node);
            update_amaf(
                &mut self.amaf,
                self.codes,
                &self.depth_nodes,
                &self.seq,
                r,
                &mut self.stamp,
                &mut self.generation,
                &mut self.distinct,
            );
        }
        if algo == Algorithm::Mcps {
            self.window.push(&self.seq, r);
        }
        self.scratch = Some(state);
    }
}

#[cfg(test)]
mod paper_rules;
#[cfg(test)]
mod tests;
