//! Negamax depth-first proof-number search (df-pn, Nagai 2002) with the 1+ε threshold rule
//! (Pawlewicz & Lew 2007), under positional superko.
//!
//! # Numbers
//! Every node n carries, for its side to move, φ(n) (proof number: effort to show the mover
//! wins) and δ(n) (disproof number). With children c (whose numbers are for *their* mover):
//!
//! ```text
//!   φ(n) = min_c δ(c)        δ(n) = Σ_c φ(c)
//! ```
//!
//! A won node has (0, ∞), a lost one (∞, 0). Numbers are 64-bit and saturate: sums of unproven
//! children stop at ∞−1, so an unproven node never has 0 or ∞. New children start at (1, 1).
//!
//! # The recursive procedure (one call = one *expansion*, the paper's unit of effort)
//! `mid(n, thφ, thδ)` generates n's legal moves and classifies each child: terminal (a pass
//! answering a pass ends the game and is scored at once, the *pass shortcut*), proven in the
//! table, or unproven (stored or initial numbers). It returns at once when a child already
//! proves n. Otherwise, while φ(n) < thφ and δ(n) < thδ, it descends into the child c1 with the
//! smallest δ, δ2 being the second smallest, with
//!
//! ```text
//!   thφ(c1) = thδ − δ(n) + φ(c1)
//!   thδ(c1) = min(thφ, max(δ2 + 1, ⌈δ2 · (1 + ε)⌉))     ε = 0.3 by default
//! ```
//!
//! and stores n's numbers when it leaves. Each call counts once, also on a node expanded
//! before; *distinct nodes* counts calls that found no entry of the node for this question.
//!
//! # Superko and the table
//! The path (the root's set of earlier boards plus the boards along the current line) is kept
//! with exact boards for the superko test. Table entries are keyed by the canonical position
//! and two non-linear signatures of the set of boards (see [`crate::table`]), so a result is
//! reused only in the identical superko game. No cycle is possible: every stone move adds a
//! new board to the set and two passes end the game.
//!
//! # Symmetry
//! Sibling moves m and s(m) are merged (only the one with the smaller point index is searched)
//! only when the symmetry s maps every board of the current history to itself.

use crate::board::{Board, Geometry, Move, Point};
use crate::position::Line;
use crate::table::{INF, NO_MOVE, NodeKey, Probe, Table, TableStats};
use crate::zobrist::{self, mix1, mix2};
use games::Player;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The answer to "does player w win from this node at komi k?".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Answer {
    /// Proven: w wins.
    Win,
    /// Proven: w loses.
    Loss,
    /// The budget ran out (or the search was cancelled) first.
    Unknown,
}

impl Answer {
    /// "win", "loss" or "unknown".
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Answer::Win => "win",
            Answer::Loss => "loss",
            Answer::Unknown => "unknown",
        }
    }
}

/// Budgets and knobs of one search.
#[derive(Clone)]
pub struct Config {
    /// ε of the 1+ε rule.
    pub epsilon: f64,
    /// Maximum expansions per question (0 = unlimited).
    pub max_expansions: u64,
    /// Maximum wall time per question (`None` = unlimited).
    pub max_time: Option<Duration>,
    /// Set to stop the search (Ctrl-C); the answer is then `Unknown`.
    pub cancel: Option<Arc<AtomicBool>>,
    /// Called about every 2^16 expansions with the running counts (progress lines).
    pub progress: Option<ProgressFn>,
    /// Initial proof and disproof numbers of new nodes.
    pub prior: PriorKind,
}

/// A progress callback (see [`Config::progress`]).
pub type ProgressFn = Arc<dyn Fn(&Progress) + Send + Sync>;

/// How new nodes get their initial (φ, δ). The prior only orders the search: nodes are
/// decided by proofs alone, so every prior gives the same answers.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PriorKind {
    /// (1, 1) everywhere.
    Uniform,
    /// From the area margin of the mover against the komi, x = margin / (2·points) in
    /// half-points: p = 1 / (1 + e^(−slope·x)) estimates the mover's chance, and
    /// (φ, δ) = (1 + ⌊scale·(−ln p)⌋, 1 + ⌊scale·(−ln(1 − p))⌋), as in the Sanko paper's
    /// logistic prior with the area margin as its only feature.
    Score {
        /// Slope of the logistic on the normalised margin.
        slope: f64,
        /// Scale S of the numbers.
        scale: f64,
    },
}

impl PriorKind {
    /// The default prior.
    pub const DEFAULT: PriorKind = PriorKind::Score {
        slope: 4.0,
        scale: 16.0,
    };
}

/// The prior's numbers, tabulated by the mover's margin against the komi in half-points.
#[derive(Clone, Debug)]
struct Prior {
    kind: PriorKind,
    table: Vec<(u64, u64)>,
    offset: i32,
}

impl Prior {
    fn new(kind: PriorKind, points: usize, komi2: i32) -> Self {
        let offset = 2 * points as i32 + komi2.abs() + 1;
        let mut table = Vec::with_capacity(2 * offset as usize + 1);
        for i in 0..=2 * offset {
            let xm = i - offset;
            table.push(match kind {
                PriorKind::Uniform => (1, 1),
                PriorKind::Score { slope, scale } => {
                    let x = f64::from(xm) / (2.0 * points as f64);
                    let p = 1.0 / (1.0 + (-slope * x).exp());
                    let num = |q: f64| 1 + (scale * -q.max(1e-12).ln()).min(1e12) as u64;
                    (num(p), num(1.0 - p))
                }
            });
        }
        Prior {
            kind,
            table,
            offset,
        }
    }

    #[inline]
    fn initial(&self, geo: &Geometry, st: &NodeState, komi2: i32) -> (u64, u64) {
        if self.kind == PriorKind::Uniform {
            return (1, 1);
        }
        let m2 = 2 * st.board.area_score(geo) - komi2;
        let xm = if st.to_move == Player::Black { m2 } else { -m2 };
        self.table[(xm + self.offset).clamp(0, 2 * self.offset) as usize]
    }
}

impl Default for Config {
    fn default() -> Self {
        Config {
            epsilon: 0.3,
            max_expansions: 0,
            max_time: None,
            cancel: None,
            progress: None,
            prior: PriorKind::DEFAULT,
        }
    }
}

impl std::fmt::Debug for Config {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Config")
            .field("epsilon", &self.epsilon)
            .field("max_expansions", &self.max_expansions)
            .field("max_time", &self.max_time)
            .finish_non_exhaustive()
    }
}

/// Running counts passed to the progress callback.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    /// Expansions so far in this question.
    pub expansions: u64,
    /// Distinct nodes so far.
    pub nodes: u64,
    /// Seconds so far.
    pub elapsed: f64,
    /// Root φ and δ (for the mover at the root) when last stored.
    pub root: (u64, u64),
}

/// The result of one question.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Proof {
    /// The asked player.
    pub winner: Player,
    /// The komi in half-points (odd).
    pub komi2: i32,
    /// Win, loss or unknown for `winner`.
    pub answer: Answer,
    /// When the player to move wins: a winning move.
    pub best_move: Option<Move>,
    /// Calls of the recursive procedure.
    pub expansions: u64,
    /// Distinct nodes expanded.
    pub nodes: u64,
    /// Wall time.
    pub time_s: f64,
}

impl Proof {
    /// Expansions per distinct node.
    #[must_use]
    pub fn revisit_factor(&self) -> f64 {
        if self.nodes == 0 {
            0.0
        } else {
            self.expansions as f64 / self.nodes as f64
        }
    }
}

/// A node of the search: the position, its per-symmetry hashes and history signatures.
#[derive(Clone, Copy, Debug)]
struct NodeState {
    board: Board,
    to_move: Player,
    passed: bool,
    /// Symmetries (bit s) mapping every board of the history to itself.
    stab: u8,
    /// Primary hash of s(board), per symmetry s.
    h1: [u64; 8],
    /// Second-set hash of s(board).
    h2: [u64; 8],
    /// Σ mix1(h1(s(B))) over the set of boards.
    s1: [u64; 8],
    /// Σ mix2(h2(s(B))).
    s2: [u64; 8],
}

#[derive(Clone, Copy, Debug)]
struct Child {
    mv: Move,
    key: NodeKey,
    pn: u64,
    dn: u64,
    state: NodeState,
}

/// The df-pn solver: a geometry, a table and counters. One question at a time.
pub struct Solver {
    geo: Geometry,
    table: Table,
    cfg: Config,
    komi2: i32,
    prior: Prior,
    /// Boards of the current path (root set, then the line), exact, for superko.
    path: Vec<Board>,
    /// Their primary hashes (h1 under the identity).
    path_hash: Vec<u64>,
    children: Vec<Child>,
    expansions: u64,
    nodes: u64,
    start: Instant,
    aborted: bool,
    root_numbers: (u64, u64),
    depth: u32,
    total_expansions: u64,
    total_nodes: u64,
}

impl std::fmt::Debug for Solver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Solver({:?}, {:?})", self.geo, self.table)
    }
}

/// Looks a child up and appends it; returns `Some(mv)` if it proves the parent.
#[inline]
#[allow(clippy::too_many_arguments)]
fn push_child(
    table: &mut Table,
    children: &mut Vec<Child>,
    komi2: i32,
    prior: &Prior,
    geo: &Geometry,
    probe: bool,
    mv: Move,
    key: NodeKey,
    state: NodeState,
) -> Option<Move> {
    if !probe {
        let (pn, dn) = prior.initial(geo, &state, komi2);
        children.push(Child {
            mv,
            key,
            pn,
            dn,
            state,
        });
        return None;
    }
    let (pn, dn) = match table.probe(&key, state.to_move, komi2) {
        Probe::Proven {
            mover_wins: true, ..
        } => (0, INF),
        Probe::Proven {
            mover_wins: false, ..
        } => return Some(mv),
        Probe::Unproven { pn, dn, .. } => (pn, dn),
        Probe::Miss => prior.initial(geo, &state, komi2),
    };
    children.push(Child {
        mv,
        key,
        pn,
        dn,
        state,
    });
    None
}

#[inline]
fn sat_add(a: u64, b: u64) -> u64 {
    a.saturating_add(b)
}

/// Whether Black wins a game ending with `score` (Black minus White area) at komi `komi2`/2.
#[must_use]
#[inline]
pub const fn black_wins(score: i32, komi2: i32) -> bool {
    2 * score > komi2
}

impl Solver {
    /// A solver for boards of `geo` with a table of `tt_mib` MiB.
    #[must_use]
    pub fn new(geo: Geometry, tt_mib: usize, cfg: Config) -> Self {
        Solver {
            geo,
            table: Table::new(tt_mib),
            cfg,
            komi2: 1,
            prior: Prior::new(PriorKind::Uniform, 1, 1),
            path: Vec::new(),
            path_hash: Vec::new(),
            children: Vec::new(),
            expansions: 0,
            nodes: 0,
            start: Instant::now(),
            aborted: false,
            root_numbers: (1, 1),
            depth: 0,
            total_expansions: 0,
            total_nodes: 0,
        }
    }

    /// The geometry.
    #[must_use]
    pub fn geometry(&self) -> &Geometry {
        &self.geo
    }

    /// The table's counters.
    #[must_use]
    pub fn table_stats(&self) -> TableStats {
        self.table.stats()
    }

    /// Bytes of the table.
    #[must_use]
    pub fn table_bytes(&self) -> usize {
        self.table.bytes()
    }

    /// Slots of the table.
    #[must_use]
    pub fn table_capacity(&self) -> usize {
        self.table.capacity()
    }

    /// Expansions and distinct nodes over all questions asked so far.
    #[must_use]
    pub fn totals(&self) -> (u64, u64) {
        (self.total_expansions, self.total_nodes)
    }

    /// The configuration (budgets can be changed between questions).
    pub fn config_mut(&mut self) -> &mut Config {
        &mut self.cfg
    }

    /// Empties the table.
    pub fn clear_table(&mut self) {
        self.table.clear();
    }

    fn root_state(&self, line: &Line) -> NodeState {
        let geo = &self.geo;
        let n = geo.num_symmetries();
        let pos = line.position;
        let mut st = NodeState {
            board: pos.board,
            to_move: pos.to_move,
            passed: pos.passed,
            stab: 0,
            h1: [0; 8],
            h2: [0; 8],
            s1: [0; 8],
            s2: [0; 8],
        };
        for s in 0..n {
            st.h1[s] = pos.board.sym_hash(geo, s);
            st.h2[s] = pos.board.sym_hash2(geo, s);
            for b in &line.boards {
                st.s1[s] = st.s1[s].wrapping_add(mix1(b.sym_hash(geo, s)));
                st.s2[s] = st.s2[s].wrapping_add(mix2(b.sym_hash2(geo, s)));
            }
            if s > 0 && line.boards.iter().all(|b| geo.map_board(s, b) == *b) {
                st.stab |= 1 << s;
            }
        }
        st
    }

    fn key_of(&self, st: &NodeState) -> NodeKey {
        let sp = if st.to_move == Player::White {
            zobrist::SIDE
        } else {
            0
        } ^ if st.passed { zobrist::PASS } else { 0 };
        let mut best = 0usize;
        let mut bk = st.h1[0] ^ sp;
        for s in 1..self.geo.num_symmetries() {
            let k = st.h1[s] ^ sp;
            if k < bk || (k == bk && st.s1[s] < st.s1[best]) {
                bk = k;
                best = s;
            }
        }
        NodeKey {
            key: bk,
            sig1: st.s1[best],
            sig2: st.s2[best],
            sym: best as u8,
        }
    }

    /// The child after a stone move with result `board` and `captured` stones, given its
    /// identity hash `h0` (already computed for the superko test).
    #[inline]
    fn stone_child(
        &self,
        st: &NodeState,
        p: Point,
        board: Board,
        captured: crate::Bitboard,
        h0: u64,
    ) -> NodeState {
        let geo = &self.geo;
        let mut ch = NodeState {
            board,
            to_move: st.to_move.opponent(),
            passed: false,
            stab: 0,
            h1: [0; 8],
            h2: [0; 8],
            s1: [0; 8],
            s2: [0; 8],
        };
        for s in 0..geo.num_symmetries() {
            let (da, db) = geo.hash_delta(s, st.to_move, p, captured);
            let a = st.h1[s] ^ da;
            let b = st.h2[s] ^ db;
            ch.h1[s] = a;
            ch.h2[s] = b;
            ch.s1[s] = st.s1[s].wrapping_add(mix1(a));
            ch.s2[s] = st.s2[s].wrapping_add(mix2(b));
        }
        debug_assert_eq!(ch.h1[0], h0);
        let mut stab = st.stab;
        let mut bits = stab;
        while bits != 0 {
            let s = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            if ch.h1[s] != h0 || geo.map_board(s, &board) != board {
                stab &= !(1 << s);
            }
        }
        ch.stab = stab;
        ch
    }

    /// The table identity of the end of `line` (canonical position key, the two history
    /// signatures in the canonical frame, and the canonicalising symmetry).
    #[must_use]
    pub fn node_key(&self, line: &Line) -> NodeKey {
        self.key_of(&self.root_state(line))
    }

    /// Answers "does `winner` win from the end of `line` at komi `komi2`/2?" (komi2 odd).
    ///
    /// # Panics
    /// If `komi2` is even (komi must be a half-integer, so that no game is drawn).
    pub fn prove(&mut self, line: &Line, winner: Player, komi2: i32) -> Proof {
        assert!(komi2 % 2 != 0, "komi must be a half-integer");
        self.komi2 = komi2;
        self.prior = Prior::new(self.cfg.prior, self.geo.points(), komi2);
        self.expansions = 0;
        self.nodes = 0;
        self.aborted = false;
        self.start = Instant::now();
        let mover = line.position.to_move;
        let finish = |s: &mut Solver, mover_result: Option<bool>, best: Option<Move>| {
            let answer = match mover_result {
                None => Answer::Unknown,
                Some(w) => {
                    if w == (mover == winner) {
                        Answer::Win
                    } else {
                        Answer::Loss
                    }
                }
            };
            s.total_expansions += s.expansions;
            s.total_nodes += s.nodes;
            Proof {
                winner,
                komi2,
                answer,
                best_move: if mover_result == Some(true) {
                    best
                } else {
                    None
                },
                expansions: s.expansions,
                nodes: s.nodes,
                time_s: s.start.elapsed().as_secs_f64(),
            }
        };
        if line.over {
            let bw = black_wins(line.score(&self.geo), komi2);
            return finish(self, Some(bw == (mover == Player::Black)), None);
        }
        self.path.clear();
        self.path_hash.clear();
        for b in &line.boards {
            self.path.push(*b);
            self.path_hash.push(b.hash(&self.geo));
        }
        self.children.clear();
        self.depth = 0;
        let root = self.root_state(line);
        let key = self.key_of(&root);
        let (pn, dn) = self.mid(&root, &key, INF, INF);
        let result = if pn == 0 {
            Some(true)
        } else if dn == 0 {
            Some(false)
        } else {
            None
        };
        let best = if result == Some(true) {
            self.stored_best(&root, &key)
        } else {
            None
        };
        finish(self, result, best)
    }

    /// The best move the table holds for a node (mapped back from the canonical frame).
    fn stored_best(&mut self, st: &NodeState, key: &NodeKey) -> Option<Move> {
        let best = match self.table.probe(key, st.to_move, self.komi2) {
            Probe::Proven { best, .. } | Probe::Unproven { best, .. } => best,
            Probe::Miss => return None,
        };
        if best == NO_MOVE {
            return None;
        }
        let inv = self.geo.inverse(key.sym as usize);
        Some(self.geo.map_move(inv, Move(best)))
    }

    fn check_budget(&mut self) {
        if self.cfg.max_expansions > 0 && self.expansions >= self.cfg.max_expansions {
            self.aborted = true;
        }
        if self.expansions & 0x3FF == 0 {
            if let Some(c) = &self.cfg.cancel {
                if c.load(Ordering::Relaxed) {
                    self.aborted = true;
                }
            }
            if let Some(t) = self.cfg.max_time {
                if self.start.elapsed() >= t {
                    self.aborted = true;
                }
            }
            if self.expansions & 0xFFFF == 0 {
                if let Some(p) = &self.cfg.progress {
                    p(&Progress {
                        expansions: self.expansions,
                        nodes: self.nodes,
                        elapsed: self.start.elapsed().as_secs_f64(),
                        root: self.root_numbers,
                    });
                }
            }
        }
    }

    /// Whether the mover of a finished game (after two passes on `board`) wins.
    #[inline]
    fn mover_wins_final(&self, board: &Board, mover: Player) -> bool {
        black_wins(board.area_score(&self.geo), self.komi2) == (mover == Player::Black)
    }

    /// Generates and classifies the children of `st` into `self.children[base..]`.
    /// Returns `Some(move)` if a child already proves `st` (the mover wins by it).
    fn generate(&mut self, st: &NodeState, probe: bool) -> Option<Move> {
        let geo = &self.geo;
        let mover = st.to_move;
        // Pass first.
        if st.passed {
            // The pass shortcut: a pass answering a pass ends the game.
            if self.mover_wins_final(&st.board, mover) {
                return Some(Move::PASS);
            }
        } else {
            let mut ch = *st;
            ch.to_move = mover.opponent();
            ch.passed = true;
            let key = self.key_of(&ch);
            if let Some(win) = push_child(
                &mut self.table,
                &mut self.children,
                self.komi2,
                &self.prior,
                &self.geo,
                probe,
                Move::PASS,
                key,
                ch,
            ) {
                return Some(win);
            }
        }
        let empty = st.board.empty(geo);
        let (k1, _) = geo.key_tables();
        let c = mover.index();
        for p in empty.points() {
            // Merge m with s(m) when s fixes every board of the history.
            if st.stab != 0 {
                let mut bits = st.stab;
                let mut dominated = false;
                while bits != 0 {
                    let s = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    if geo.map_point(s, p) < p {
                        dominated = true;
                        break;
                    }
                }
                if dominated {
                    continue;
                }
            }
            let Some(placed) = st.board.place(geo, mover, p) else {
                continue;
            };
            let mut h0 = st.h1[0] ^ k1[0][p.index()][c];
            for q in placed.captured.points() {
                h0 ^= k1[0][q.index()][1 - c];
            }
            if self.repeats(h0, &placed.board) {
                continue;
            }
            let ch = self.stone_child(st, p, placed.board, placed.captured, h0);
            let key = self.key_of(&ch);
            if let Some(win) = push_child(
                &mut self.table,
                &mut self.children,
                self.komi2,
                &self.prior,
                &self.geo,
                probe,
                Move::play(p),
                key,
                ch,
            ) {
                return Some(win);
            }
        }
        None
    }

    #[inline]
    fn repeats(&self, h: u64, board: &Board) -> bool {
        self.path_hash
            .iter()
            .zip(&self.path)
            .any(|(&ph, pb)| ph == h && pb == board)
    }

    fn store(&mut self, st: &NodeState, key: &NodeKey, pn: u64, dn: u64, best: Move, effort: u64) {
        let b = if best == Move(NO_MOVE) {
            NO_MOVE
        } else {
            self.geo.map_move(key.sym as usize, best).0
        };
        self.table
            .store(key, st.to_move, self.komi2, pn, dn, b, effort);
    }

    /// The recursive procedure (one call = one expansion). Returns (φ, δ) of `st`.
    fn mid(&mut self, st: &NodeState, key: &NodeKey, th_pn: u64, th_dn: u64) -> (u64, u64) {
        self.expansions += 1;
        self.check_budget();
        let start_exp = self.expansions;
        let prior_effort = match self.table.probe(key, st.to_move, self.komi2) {
            Probe::Proven { mover_wins, .. } => {
                return if mover_wins { (0, INF) } else { (INF, 0) };
            }
            Probe::Unproven { effort, .. } => effort,
            Probe::Miss => {
                self.nodes += 1;
                0
            }
        };
        // Children of a node never stored before are (but for rare transpositions) not stored
        // either: skip their probes, the search's main cost. Skipping is always sound.
        let probe = self.expansions <= 1 || self.table.seen(key);
        let base = self.children.len();
        if let Some(win) = self.generate(st, probe) {
            self.children.truncate(base);
            self.store(st, key, 0, INF, win, 1 + prior_effort);
            return (0, INF);
        }
        let end = self.children.len();
        let eps = self.cfg.epsilon;
        let (mut pn, mut dn);
        let mut best_i;
        loop {
            // φ(n) = min δ(c), δ(n) = Σ φ(c); c1 = argmin δ, δ2 = second smallest δ.
            pn = INF;
            dn = 0u64;
            let mut d2 = INF;
            best_i = base;
            let mut any_inf = false;
            for i in base..end {
                let c = &self.children[i];
                if c.dn < pn {
                    d2 = pn;
                    pn = c.dn;
                    best_i = i;
                } else if c.dn < d2 {
                    d2 = c.dn;
                }
                if c.pn == INF {
                    any_inf = true;
                } else {
                    dn = sat_add(dn, c.pn);
                }
            }
            if any_inf {
                dn = INF;
            } else if dn == INF {
                dn = INF - 1;
            }
            if self.depth == 0 {
                self.root_numbers = (pn, dn);
            }
            if pn == 0 || dn == 0 || pn >= th_pn || dn >= th_dn || self.aborted {
                break;
            }
            let c = self.children[best_i];
            let c_th_pn = if th_dn == INF {
                INF
            } else {
                sat_add(th_dn - dn, c.pn)
            };
            let grow = if d2 == INF {
                INF
            } else {
                (((d2 as f64) * (1.0 + eps)).ceil() as u64).max(d2 + 1)
            };
            let c_th_dn = th_pn.min(grow);
            // Descend.
            let pushed = !c.mv.is_pass();
            if pushed {
                self.path.push(c.state.board);
                self.path_hash.push(c.state.h1[0]);
            }
            self.depth += 1;
            let (cpn, cdn) = self.mid(&c.state, &c.key, c_th_pn, c_th_dn);
            self.depth -= 1;
            if pushed {
                self.path.pop();
                self.path_hash.pop();
            }
            let cm = &mut self.children[best_i];
            cm.pn = cpn;
            cm.dn = cdn;
        }
        let best = if end > base {
            self.children[best_i].mv
        } else {
            Move(NO_MOVE)
        };
        self.children.truncate(base);
        let effort = prior_effort + (self.expansions - start_exp + 1);
        self.store(st, key, pn, dn, best, effort);
        if self.depth == 0 {
            self.root_numbers = (pn, dn);
        }
        (pn, dn)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn children_of(solver: &mut Solver, line: &Line) -> Vec<Move> {
        // A komi at which the mover cannot win, so that no child (the pass) ends the search.
        let n = solver.geo.points() as i32;
        let k2 = if line.position.to_move == Player::Black {
            2 * n + 1
        } else {
            -2 * n - 1
        };
        solver.komi2 = k2;
        solver.prior = Prior::new(PriorKind::Uniform, solver.geo.points(), k2);
        solver.path = line.boards.clone();
        solver.path_hash = line.boards.iter().map(|b| b.hash(&solver.geo)).collect();
        solver.children.clear();
        let st = solver.root_state(line);
        assert!(solver.generate(&st, false).is_none());
        solver.children.iter().map(|c| c.mv).collect()
    }

    #[test]
    fn siblings_merge_only_under_symmetries_of_the_whole_history() {
        let geo = Geometry::new(4, 4).unwrap();
        let mut solver = Solver::new(geo.clone(), 1, Config::default());
        // Empty 4x4: 3 orbits of points (corner, edge, centre) and the pass.
        assert_eq!(children_of(&mut solver, &Line::new()).len(), 4);
        // After B2 and a White pass, only the transpose (the diagonal through B2) fixes every
        // board of the history.
        let mut line = Line::new();
        line.play(&geo, geo.parse_move("B2").unwrap()).unwrap();
        line.play(&geo, Move::PASS).unwrap();
        let n = children_of(&mut solver, &line).len();
        // 15 empty points, the diagonal (A1 C3 D4) fixed, the other 12 in pairs: 3 + 6 (the
        // pass would end the game with a loss here, so it is no child).
        assert_eq!(n, 3 + 6);
        // A board that is symmetric now but was not throughout the history: no merging.
        let b = |s: &str| Board::from_drawing(&geo, s).unwrap();
        let sym = b("..../..../..../X..X");
        let asym = b("..../..../..../X...");
        let l2 = Line::from_setup(sym, Player::White, &[Board::EMPTY, asym]);
        let l3 = Line::from_setup(sym, Player::White, &[Board::EMPTY]);
        let merged = children_of(&mut solver, &l3).len();
        let unmerged = children_of(&mut solver, &l2).len();
        assert_eq!(unmerged, 14 + 1);
        assert!(merged < unmerged);
    }
}
