//! The explicit proof-number tree shared by PNS and PN².
//!
//! Nodes live in one arena; the children of a node are one contiguous block, so a node is 24
//! bytes plus its move. Blocks of solved subtrees go to free lists (one per block size) and
//! are reused, so memory follows the unsolved part of the tree.
//!
//! # Tree, not DAG
//! A position reached by two move orders is two nodes, and its numbers are counted once per
//! path (the over-counting of DAGs, Kishimoto et al. 2012). What *is* shared is the table of
//! **solved** positions (keyed as in [`crate::table`], so it is sound for repeating games
//! too): a new node whose position was solved elsewhere starts solved.

use crate::numbers::{DeltaAcc, INF, unknown_pn};
use crate::prior::Prior;
use crate::question::Question;
use crate::table::position_key;
use games::Game;
use std::collections::HashMap;

const NIL: u32 = u32::MAX;

#[derive(Clone, Copy, Debug)]
struct Node<M> {
    mv: Option<M>,
    first: u32,
    count: u32,
    phi: u32,
    delta: u32,
}

pub(crate) struct Tree<'a, G: Game, P> {
    game: &'a G,
    q: Question,
    prior: &'a P,
    weak: bool,
    root_state: G::State,
    nodes: Vec<Node<G::Move>>,
    free: Vec<Vec<u32>>,
    /// Nodes in use (allocated minus freed).
    pub live: u64,
    /// Solved positions: key → whether the player to move there wins.
    pub solved: HashMap<u64, bool>,
    moves: Vec<G::Move>,
    scratch: Vec<G::Move>,
    path: Vec<(u32, u64)>,
}

impl<'a, G: Game, P: Prior<G>> Tree<'a, G, P> {
    pub fn new(
        game: &'a G,
        root: &G::State,
        q: Question,
        prior: &'a P,
        weak: bool,
        solved: HashMap<u64, bool>,
    ) -> Self {
        let mut t = Self {
            game,
            q,
            prior,
            weak,
            root_state: root.clone(),
            nodes: Vec::new(),
            free: Vec::new(),
            live: 1,
            solved,
            moves: Vec::new(),
            scratch: Vec::new(),
            path: Vec::new(),
        };
        let (phi, delta) = t.evaluate(root, false);
        t.nodes.push(Node {
            mv: None,
            first: NIL,
            count: 0,
            phi,
            delta,
        });
        t
    }

    /// The root's `(φ, δ)`.
    pub fn root_numbers(&self) -> (u32, u32) {
        (self.nodes[0].phi, self.nodes[0].delta)
    }

    pub fn root_solved(&self) -> bool {
        let (p, d) = self.root_numbers();
        p == 0 || d == 0
    }

    /// Memory held: the arena and the solved table (about 32 bytes an entry).
    pub fn bytes(&self) -> usize {
        self.nodes.capacity() * std::mem::size_of::<Node<G::Move>>() + self.solved.capacity() * 32
    }

    /// Numbers of a new node: terminal, solved elsewhere, the prior's exact value (not at the
    /// root, which must be expanded to name a best move), or its estimate.
    fn evaluate(&mut self, s: &G::State, allow_exact: bool) -> (u32, u32) {
        if let Some(o) = self.game.outcome(s) {
            return self.q.terminal_numbers(o, self.game.to_move(s));
        }
        if let Some(&wins) = self.solved.get(&position_key(self.game, s)) {
            return if wins { (0, INF) } else { (INF, 0) };
        }
        if allow_exact && let Some(wins) = self.prior.exact(self.game, s) {
            return if wins { (0, INF) } else { (INF, 0) };
        }
        let (phi, delta) = self.prior.estimate(self.game, s, &mut self.scratch);
        (unknown_pn(phi), unknown_pn(delta))
    }

    /// Walks from the root to the most-proving leaf (at each node the child of least δ, which
    /// realises φ = min δ) and returns it with its state; remembers the path for
    /// [`Tree::update`].
    pub fn select(&mut self) -> (u32, G::State) {
        let mut s = self.root_state.clone();
        let mut n = 0u32;
        self.path.clear();
        self.path.push((0, position_key(self.game, &s)));
        while self.nodes[n as usize].first != NIL {
            let node = self.nodes[n as usize];
            let mut best = node.first;
            for c in node.first..node.first + node.count {
                if self.nodes[c as usize].delta < self.nodes[best as usize].delta {
                    best = c;
                }
            }
            let mv = self.nodes[best as usize]
                .mv
                .expect("non-root nodes have a move");
            self.game.play(&mut s, mv);
            self.path.push((best, position_key(self.game, &s)));
            n = best;
        }
        (n, s)
    }

    fn alloc(&mut self, k: usize) -> u32 {
        if let Some(b) = self.free.get_mut(k).and_then(Vec::pop) {
            return b;
        }
        let b = self.nodes.len() as u32;
        let blank = Node {
            mv: None,
            first: NIL,
            count: 0,
            phi: 1,
            delta: 1,
        };
        self.nodes.resize(self.nodes.len() + k, blank);
        b
    }

    /// Generates the children of the leaf `n` whose state is `state` (one expansion; the
    /// caller counts it).
    pub fn expand(&mut self, n: u32, state: &G::State) {
        let mut moves = std::mem::take(&mut self.moves);
        self.game.legal_moves(state, &mut moves);
        let k = moves.len();
        let first = self.alloc(k);
        for (i, &m) in moves.iter().enumerate() {
            let mut child = state.clone();
            self.game.play(&mut child, m);
            let (phi, delta) = self.evaluate(&child, true);
            self.nodes[first as usize + i] = Node {
                mv: Some(m),
                first: NIL,
                count: 0,
                phi,
                delta,
            };
        }
        self.moves = moves;
        let node = &mut self.nodes[n as usize];
        node.first = first;
        node.count = k as u32;
        self.live += k as u64;
    }

    /// The `(φ, δ)` of the children of `n`, in move order (empty if `n` is unexpanded).
    pub fn children_numbers(&self, n: u32) -> Vec<(u32, u32)> {
        let node = self.nodes[n as usize];
        if node.first == NIL {
            return Vec::new();
        }
        (node.first..node.first + node.count)
            .map(|c| (self.nodes[c as usize].phi, self.nodes[c as usize].delta))
            .collect()
    }

    /// Overwrites the numbers of the unsolved children of `n` (PN²: from the second level).
    pub fn set_children_numbers(&mut self, n: u32, values: &[(u32, u32)]) {
        let node = self.nodes[n as usize];
        if node.first == NIL || values.len() != node.count as usize {
            return;
        }
        for (i, &(phi, delta)) in values.iter().enumerate() {
            let c = &mut self.nodes[node.first as usize + i];
            if c.phi != 0 && c.delta != 0 {
                (c.phi, c.delta) = (phi, delta);
            }
        }
    }

    fn recompute(&self, n: u32) -> (u32, u32) {
        let node = self.nodes[n as usize];
        if node.first == NIL {
            return (node.phi, node.delta);
        }
        let mut phi = INF;
        let mut acc = DeltaAcc::new(self.weak);
        for c in node.first..node.first + node.count {
            let c = &self.nodes[c as usize];
            phi = phi.min(c.delta);
            acc.push(c.phi);
        }
        (phi, acc.value())
    }

    /// Recomputes the numbers along the last selected path, leaf first, stopping where nothing
    /// changes; records and frees newly solved nodes (the root's children are kept).
    pub fn update(&mut self) {
        for i in (0..self.path.len()).rev() {
            let (n, key) = self.path[i];
            let (phi, delta) = self.recompute(n);
            let node = &mut self.nodes[n as usize];
            let unchanged = (node.phi, node.delta) == (phi, delta);
            (node.phi, node.delta) = (phi, delta);
            if phi == 0 || delta == 0 {
                self.solved.insert(key, phi == 0);
                if n != 0 {
                    self.free_below(n);
                }
            }
            if unchanged {
                break;
            }
        }
    }

    fn free_below(&mut self, n: u32) {
        let mut stack = vec![n];
        while let Some(x) = stack.pop() {
            let node = self.nodes[x as usize];
            if node.first == NIL {
                continue;
            }
            stack.extend(node.first..node.first + node.count);
            let k = node.count as usize;
            if self.free.len() <= k {
                self.free.resize_with(k + 1, Vec::new);
            }
            self.free[k].push(node.first);
            self.live -= node.count as u64;
            let node = &mut self.nodes[x as usize];
            node.first = NIL;
            node.count = 0;
        }
    }

    /// The best move at the root for the player to move: a winning one if the root is won,
    /// any if it is lost, the most promising (least δ) otherwise.
    pub fn best_root_move(&self) -> Option<G::Move> {
        let root = self.nodes[0];
        if root.first == NIL {
            return None;
        }
        let kids = &self.nodes[root.first as usize..(root.first + root.count) as usize];
        kids.iter().min_by_key(|c| c.delta).and_then(|c| c.mv)
    }

    /// Gives back the table of solved positions.
    pub fn into_solved(self) -> HashMap<u64, bool> {
        self.solved
    }
}
