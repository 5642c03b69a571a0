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
//! # How far a proof holds (`Proof::holds`)
//! A proof at komi k is often a proof at a better komi for its winner too. Each proven node
//! carries the strongest komi its proof holds at: a game end scored s holds for Black below
//! s and for White above it; a static leaf whose winner's certified area is A guarantees a
//! margin of at least 2A − n for Black (at most n − 2A for White; a region leaf gives Black
//! the whole board); a table proof holds at the komi it was stored at. A won node takes its
//! winning child's, a lost node the weakest of its children's and of its game-ending pass.
//! Proofs are stored at that komi, so they answer later questions of the bisection, and the
//! bisection moves its bound as far as the root's proof holds.
//!
//! # Symmetry
//! Sibling moves m and s(m) are merged (only the one with the smaller point index is searched)
//! only when the symmetry s maps every board of the current history to itself.

use crate::board::{Bitboard, Board, Geometry, Move, Point};
use crate::eyes::pure_eyes;
use crate::path::{Child, NodeState, Path};
use crate::position::Line;
pub use crate::prior::PriorKind;
use crate::prior::{FEATURES, Prior, features};
use crate::prune::prunable_points;
use crate::table::{INF, NO_MOVE, NodeKey, Probe, StoreKind, Table, TableStats};
use crate::transfer::{self, Attrs, NO_TARGET, PathView};
use crate::zobrist::{self, mix1, mix2};
use games::Player;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
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
    /// Proof transfer (Theorem 1): reuse proofs on other paths that pass the transfer test.
    /// Off: proofs are reused only in the identical superko game.
    pub transfer: bool,
    /// Static leaves from the pure-eye analysis (Lemma 1).
    pub static_leaves: bool,
    /// Static leaves from local region games (Appendix A.4; needs `static_leaves`).
    pub regions: bool,
    /// Winner-side pruning of the side being proven (a loss of that side becomes unknown).
    pub prune: bool,
    /// Keep every n-th stored proof as a training sample of the learned prior (0: none).
    pub sample_every: u32,
    /// Unproven (φ, δ) shared by every path to a position (at one komi) instead of kept per
    /// superko game. Unproven numbers only steer the search, so this cannot change a value;
    /// a transposition reached along another history starts from the numbers found there
    /// instead of the prior. Proofs stay path-specific or transferred exactly as before.
    /// Ignored on one-row boards (see [`Solver::new`]).
    pub share_unproven: bool,
    /// With `share_unproven`: a node with no numbers at the question's komi starts from its
    /// position's shared numbers of the komi last searched there (*cross-komi numbers*), so
    /// each question of a komi bisection resumes where the last one left the search.
    /// Unproven numbers only steer, so this cannot change a value either. Ignored where
    /// numbers are not shared (one-row boards).
    pub cross_komi: bool,
    /// Threads searching each question over the one shared table (1: the serial search,
    /// on the caller's thread; see [`Solver`]).
    pub threads: usize,
    /// With several threads: virtual loss spreads them over different children at the nodes
    /// of the asked winner's opponent (off: every thread follows the same most-proving
    /// path, for the ablation).
    pub virtual_loss: bool,
}

impl Config {
    /// The reference configuration: reuse only in the identical superko game and no static
    /// knowledge (`--oracle-mode`).
    #[must_use]
    pub fn oracle_mode(mut self) -> Self {
        self.transfer = false;
        self.static_leaves = false;
        self.regions = false;
        self.prune = false;
        self.share_unproven = false;
        self.cross_komi = false;
        self
    }
}

/// A progress callback (see [`Config::progress`]).
pub type ProgressFn = Arc<dyn Fn(&Progress) + Send + Sync>;

impl Default for Config {
    fn default() -> Self {
        Config {
            epsilon: 0.3,
            max_expansions: 0,
            max_time: None,
            cancel: None,
            progress: None,
            prior: PriorKind::DEFAULT,
            transfer: true,
            static_leaves: true,
            regions: true,
            prune: false,
            sample_every: 0,
            share_unproven: true,
            cross_komi: true,
            threads: 1,
            virtual_loss: true,
        }
    }
}

impl std::fmt::Debug for Config {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Config")
            .field("epsilon", &self.epsilon)
            .field("max_expansions", &self.max_expansions)
            .field("max_time", &self.max_time)
            .field("transfer", &self.transfer)
            .field("static_leaves", &self.static_leaves)
            .field("regions", &self.regions)
            .field("prune", &self.prune)
            .field("share_unproven", &self.share_unproven)
            .field("cross_komi", &self.cross_komi)
            .field("threads", &self.threads)
            .field("virtual_loss", &self.virtual_loss)
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
    /// The search finished with a loss of the pruned side, reported as unknown.
    pub pruned_loss: bool,
    /// When proven: the strongest komi (half-points) at which the same proof holds for the
    /// proven winner, from the scores of its terminal positions, the areas its static leaves
    /// certify and the komi of the table proofs it reuses (Black's wins hold at every komi
    /// up to it, White's at every komi from it). Equal to `komi2` or better for the winner.
    pub holds: i32,
    /// The question ran with winner-side pruning of `winner`'s moves ([`Config::prune`]).
    pub pruned: bool,
    /// Threads that searched (expansions and nodes are summed over them).
    pub threads: usize,
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

/// How a child was classified.
enum Classified {
    /// Proven: the mover of the child wins (`true`) or loses, with the proof's attributes.
    Proven(bool, Attrs, i32),
    /// Unproven, with numbers.
    Open(u64, u64),
}

/// Counters of the static knowledge and the transfer test.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct KnowledgeStats {
    /// Transferable proofs offered to the transfer test from another superko game.
    pub transfer_tests: u64,
    /// Of those, accepted.
    pub transfers: u64,
    /// Children decided by the pure-eye static rule (Lemma 1).
    pub static_leaves: u64,
    /// Children decided by local region games.
    pub region_leaves: u64,
    /// Moves skipped by winner-side pruning.
    pub pruned_moves: u64,
    /// Proofs stored as transferable (no exclusion target).
    pub transferable_proofs: u64,
    /// Proofs stored path-specifically because of an exclusion target.
    pub targeted_proofs: u64,
    /// Proofs stored path-specifically because of several targets or a symmetry merge.
    pub many_target_proofs: u64,
}

impl KnowledgeStats {
    /// Adds another thread's counts.
    pub fn add(&mut self, o: &KnowledgeStats) {
        self.transfer_tests += o.transfer_tests;
        self.transfers += o.transfers;
        self.static_leaves += o.static_leaves;
        self.region_leaves += o.region_leaves;
        self.pruned_moves += o.pruned_moves;
        self.transferable_proofs += o.transferable_proofs;
        self.targeted_proofs += o.targeted_proofs;
        self.many_target_proofs += o.many_target_proofs;
    }
}

/// The strongest komi (half-points) at which a final margin `score` (Black's area minus
/// White's) is a win for its winner: Black (`black`) wins at every komi below the score,
/// White at every komi above it.
const fn holds_of_score(score: i32, black: bool) -> i32 {
    if black { 2 * score - 1 } else { 2 * score + 1 }
}

/// The weaker of two komis at which proofs for `winner` hold (Black's hold up to their
/// komi, White's from theirs): what a node holds when it needs both.
fn weaker_holds(winner: Player, a: i32, b: i32) -> i32 {
    if winner == Player::Black {
        a.min(b)
    } else {
        a.max(b)
    }
}

fn sat_add(a: u64, b: u64) -> u64 {
    a.saturating_add(b)
}

/// Whether Black wins a game ending with `score` (Black minus White area) at komi `komi2`/2.
#[must_use]
#[inline]
pub const fn black_wins(score: i32, komi2: i32) -> bool {
    2 * score > komi2
}

/// Salts of the keys of pruned searches (Black's moves pruned, White's moves pruned).
const PRUNE_SALT: [u64; 2] = [0x5BD1_E995_3C6E_F372, 0xA54F_F53A_2F1B_7C4D];
/// Constants folded into `pos2` for the side to move and the pass state.
const SIDE2: u64 = 0x243F_6A88_85A3_08D3;
const PASS2: u64 = 0x1319_8A2E_0370_7344;

/// The df-pn solver: a geometry, one table shared by its threads, and one [`Path`] per
/// thread. One question at a time; with [`Config::threads`] above one, every thread runs
/// df-pn from the root over the shared table (Kaneko 2010), spread apart by virtual loss.
///
/// # Soundness with several threads
/// Threads share nothing but the table (and the virtual-loss counters, which only steer).
/// A thread accepts a proof only through its own classification: a path-specific proof
/// only when both history signatures of its entry equal the thread's own (the identity
/// test), a transferable one only in that identical game or after the thread re-applies the
/// transfer test to its own history; a proof it composes itself is built from such
/// classifications and its own move generation. A slot torn by two concurrent writers fails
/// its seal and reads as a miss ([`crate::table`]). So every proof a thread uses is one the
/// serial search could have read at that point; parallel soundness reduces to serial
/// soundness. Values read from other threads' unproven entries only steer the search.
pub struct Solver {
    geo: Geometry,
    table: Table,
    cfg: Config,
    /// One per thread; `paths[0]` runs on the caller's thread.
    paths: Vec<Path>,
    root_numbers: (u64, u64),
    total_expansions: u64,
    total_nodes: u64,
    /// The salt of the last question (pruned questions use their own keys).
    salt: u64,
}

impl std::fmt::Debug for Solver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Solver({:?}, {:?})", self.geo, self.table)
    }
}

/// Counters every thread of one question adds to.
#[derive(Default)]
struct Shared {
    /// Expansions and nodes flushed by the threads (every 1024 expansions).
    expansions: AtomicU64,
    nodes: AtomicU64,
    /// Set when a thread has answered the root: the others stop.
    done: AtomicBool,
}

/// What every thread of one question reads.
struct Query<'a> {
    geo: &'a Geometry,
    table: &'a Table,
    cfg: &'a Config,
    komi2: i32,
    prior: &'a Prior,
    /// Whether proofs may be transferred (Theorem 1); false: reuse only in the identical game.
    transfer: bool,
    /// The side whose moves are pruned (the side being proven), when pruning.
    pruned_side: Option<Player>,
    /// Salt folded into keys so that pruned searches never share entries with others.
    salt: u64,
    /// Virtual-loss counters (parallel search only).
    busy: Option<&'a Busy>,
    shared: &'a Shared,
    start: Instant,
    /// Threads searching this question.
    threads: usize,
    /// The side the question asks about (whether it wins).
    asked: Player,
}

/// Virtual loss: per node (by a hash of its path identity), how many threads are below it
/// now. Collisions are harmless: the counts only steer the selection.
struct Busy {
    counts: Vec<AtomicU32>,
}

/// Entries of the virtual-loss array (2^16 counters, 256 KiB).
const BUSY_BITS: u32 = 16;

impl Busy {
    fn new() -> Self {
        Busy {
            counts: (0..1usize << BUSY_BITS)
                .map(|_| AtomicU32::new(0))
                .collect(),
        }
    }

    #[inline]
    fn slot(&self, k: &NodeKey) -> &AtomicU32 {
        let h = (k.key ^ k.sig1.rotate_left(29)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        &self.counts[(h >> (64 - BUSY_BITS)) as usize]
    }

    #[inline]
    fn enter(&self, k: &NodeKey) {
        self.slot(k).fetch_add(1, Ordering::Relaxed);
    }

    #[inline]
    fn leave(&self, k: &NodeKey) {
        self.slot(k).fetch_sub(1, Ordering::Relaxed);
    }

    /// The child to descend into and the second-smallest selection number: each child's δ
    /// multiplied by one plus the number of threads below it, so that a child another
    /// thread is searching looks as if its disproof were that much harder. Only children
    /// whose own δ is below the node's threshold `limit` are chosen, so that the chosen
    /// child always has room below its thresholds (no thread spins on a child it cannot
    /// expand).
    fn select(
        &self,
        children: &[Child],
        base: usize,
        best: usize,
        d2: u64,
        limit: u64,
    ) -> (usize, u64) {
        let mut any = false;
        let mut sel = None;
        let mut lo = INF;
        for (i, c) in children.iter().enumerate() {
            let b = u64::from(self.slot(&c.key).load(Ordering::Relaxed));
            any |= b > 0;
            let v = c.dn.saturating_mul(1 + b);
            if c.dn < limit && (sel.is_none() || v < lo) {
                lo = v;
                sel = Some(base + i);
            }
        }
        let Some(sel) = sel.filter(|_| any) else {
            return (best, d2);
        };
        let second = children
            .iter()
            .enumerate()
            .filter(|&(i, _)| base + i != sel)
            .map(|(_, c)| {
                let b = u64::from(self.slot(&c.key).load(Ordering::Relaxed));
                c.dn.saturating_mul(1 + b)
            })
            .min()
            .unwrap_or(INF);
        (sel, second.max(lo))
    }
}

/// One thread's view of a question: the shared query and its own path.
struct Worker<'a> {
    q: &'a Query<'a>,
    p: &'a mut Path,
    /// 0 for the caller's thread (the one that reports progress).
    thread: usize,
}

/// What one thread's root search returned.
#[derive(Clone, Copy, Debug)]
struct RootResult {
    /// Whether the root's mover wins (`None`: no answer).
    mover_wins: Option<bool>,
    best: Option<Move>,
    holds: i32,
}

/// The starting node of a line: hashes under every symmetry, the history signatures and
/// the symmetries that fix every board of the history.
fn root_state(geo: &Geometry, line: &Line) -> NodeState {
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

/// The table identity of a node (canonical position key, the two history signatures in the
/// canonical frame, and the canonicalising symmetry), with the question's salt.
fn key_of(geo: &Geometry, salt: u64, st: &NodeState) -> NodeKey {
    let white = st.to_move == Player::White;
    let sp =
        if white { zobrist::SIDE } else { 0 } ^ if st.passed { zobrist::PASS } else { 0 } ^ salt;
    let mut best = 0usize;
    let mut bk = st.h1[0] ^ sp;
    for s in 1..geo.num_symmetries() {
        let k = st.h1[s] ^ sp;
        if k < bk || (k == bk && st.s1[s] < st.s1[best]) {
            bk = k;
            best = s;
        }
    }
    let sp2 = if white { SIDE2 } else { 0 } ^ if st.passed { PASS2 } else { 0 } ^ salt;
    NodeKey {
        key: bk,
        pos2: st.h2[best] ^ sp2,
        sig1: st.s1[best],
        sig2: st.s2[best],
        sym: best as u8,
    }
}

/// Stack of each extra search thread, in bytes (virtual; the recursion is as deep as the
/// longest line).
const WORKER_STACK_BYTES: usize = 256 << 20;

impl Solver {
    /// A solver for boards of `geo` with a table of `tt_mib` MiB.
    #[must_use]
    pub fn new(geo: Geometry, tt_mib: usize, cfg: Config) -> Self {
        // Written by as many threads as will search it.
        let mut table = Table::with_writers(tt_mib, cfg.threads.max(1));
        // Not on one-row boards: there almost every proof is path-specific (capture and
        // recapture), and numbers found along other histories mislead the search into ever
        // longer lines (1x12, Black at komi 1.5 in a 4 GiB table: 18.4 M expansions with
        // per-game numbers; with shared ones no proof after 13 M and falling speed).
        let linear = geo.rows() == 1 || geo.cols() == 1;
        table.set_share_unproven(cfg.share_unproven && !linear);
        table.set_cross_komi(cfg.cross_komi);
        Solver {
            geo,
            table,
            cfg,
            paths: vec![Path::new()],
            root_numbers: (1, 1),
            total_expansions: 0,
            total_nodes: 0,
            salt: 0,
        }
    }

    /// The geometry.
    #[must_use]
    pub fn geometry(&self) -> &Geometry {
        &self.geo
    }

    /// The table's counters, summed over the threads (see [`TableStats::add`]).
    #[must_use]
    pub fn table_stats(&self) -> TableStats {
        let mut t = TableStats::default();
        for p in &self.paths {
            t.add(&p.table);
        }
        t.settled()
    }

    /// Counters of proof transfer, static leaves, region games and pruning, over all
    /// questions so far, summed over the threads.
    #[must_use]
    pub fn knowledge_stats(&self) -> KnowledgeStats {
        let mut k = KnowledgeStats::default();
        for p in &self.paths {
            k.add(&p.know);
        }
        k
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

    /// Expansions and distinct nodes over all questions asked so far (summed over threads).
    #[must_use]
    pub fn totals(&self) -> (u64, u64) {
        (self.total_expansions, self.total_nodes)
    }

    /// The root's (φ, δ) for its mover when last computed (after a question: its final
    /// numbers; (0, ∞) or (∞, 0) when proven).
    #[must_use]
    pub fn root_numbers(&self) -> (u64, u64) {
        self.root_numbers
    }

    /// The configuration (budgets can be changed between questions).
    pub fn config_mut(&mut self) -> &mut Config {
        &mut self.cfg
    }

    /// Takes the training samples collected so far (see [`Config::sample_every`]): the
    /// features of a proven node and whether its mover wins.
    pub fn take_samples(&mut self) -> Vec<([f64; FEATURES], bool)> {
        let mut all = Vec::new();
        for p in &mut self.paths {
            all.append(&mut p.samples);
        }
        all
    }

    /// The configuration.
    #[must_use]
    pub fn config(&self) -> &Config {
        &self.cfg
    }

    /// Empties the table.
    pub fn clear_table(&mut self) {
        self.table.clear();
        for p in &mut self.paths {
            p.table = TableStats::default();
        }
    }

    /// The table, for fault-injection tests.
    #[cfg(feature = "fault-injection")]
    pub fn table_mut(&mut self) -> &mut Table {
        &mut self.table
    }

    /// The table identity of the end of `line` (canonical position key, the two history
    /// signatures in the canonical frame, and the canonicalising symmetry).
    #[must_use]
    pub fn node_key(&self, line: &Line) -> NodeKey {
        key_of(&self.geo, self.salt, &root_state(&self.geo, line))
    }

    /// [`Solver::prove`] as a trial: when the answer comes back unknown, every entry the
    /// question stored, numbers and proofs, is taken out of the table again, so a failed
    /// long shot (the full-board claims of [`crate::value::probe_guess`]) changes no later
    /// question but for the entries it overwrote, which are not restored. The table's journal
    /// holds one record (16 bytes) per store, so a trial is meant for a question with a
    /// budget ([`Config::max_expansions`]).
    ///
    /// # Panics
    /// As [`Solver::prove`]; a panic inside leaves the journal open (a solver that panicked
    /// is not reused).
    pub fn prove_trial(&mut self, line: &Line, winner: Player, komi2: i32) -> Proof {
        self.table.open_journal();
        let p = self.prove(line, winner, komi2);
        self.table
            .close_journal(p.answer == Answer::Unknown, &mut self.paths[0].table);
        p
    }

    /// Answers "does `winner` win from the end of `line` at komi `komi2`/2?" (komi2 odd).
    ///
    /// With winner-side pruning on, the moves of `winner` that fill its own single-point eyes
    /// or play inside its certified territory away from the opponent's stones there are
    /// skipped (the first one at each node is kept as a tempo move; see
    /// [`crate::prune::prunable_points`]). A win is then still a proof, but a loss is
    /// reported as [`Answer::Unknown`] with [`Proof::pruned_loss`] set. [`crate::value`]
    /// asks such a question again unpruned.
    ///
    /// With [`Config::threads`] above one, that many threads search from the root over the
    /// shared table; the answer is the first thread's to prove the root, and the counts are
    /// summed over the threads.
    ///
    /// # Panics
    /// If `komi2` is even (komi must be a half-integer, so that no game is drawn).
    pub fn prove(&mut self, line: &Line, winner: Player, komi2: i32) -> Proof {
        assert!(komi2 % 2 != 0, "komi must be a half-integer");
        let start = Instant::now();
        let prior = Prior::new(self.cfg.prior, self.geo.points(), komi2);
        let transfer = self.cfg.transfer && self.geo.points() <= 32;
        let pruned_side = self.cfg.prune.then_some(winner);
        self.salt = match pruned_side {
            None => 0,
            Some(p) => PRUNE_SALT[p.index()],
        };
        // Read at each question, so a caller may turn it off for one question.
        self.table.set_cross_komi(self.cfg.cross_komi);
        let mover = line.position.to_move;
        let pruned = pruned_side.is_some();
        let threads = self.cfg.threads.max(1);
        while self.paths.len() < threads {
            self.paths.push(Path::new());
        }
        let result;
        let (expansions, nodes);
        if line.over {
            let score = line.score(&self.geo);
            let bw = black_wins(score, komi2);
            result = RootResult {
                mover_wins: Some(bw == (mover == Player::Black)),
                best: None,
                holds: holds_of_score(score, bw),
            };
            (expansions, nodes) = (0, 0);
        } else {
            let shared = Shared::default();
            let busy = (threads > 1 && self.cfg.virtual_loss).then(Busy::new);
            let q = Query {
                geo: &self.geo,
                table: &self.table,
                cfg: &self.cfg,
                komi2,
                prior: &prior,
                transfer,
                pruned_side,
                salt: self.salt,
                busy: busy.as_ref(),
                shared: &shared,
                start,
                threads,
                asked: winner,
            };
            let (first, rest) = self.paths.split_at_mut(1);
            let results: Vec<RootResult> = if threads == 1 {
                vec![Worker::run(&q, &mut first[0], 0, line)]
            } else {
                std::thread::scope(|scope| {
                    let handles: Vec<_> = rest[..threads - 1]
                        .iter_mut()
                        .enumerate()
                        .map(|(i, p)| {
                            let q = &q;
                            std::thread::Builder::new()
                                .name(format!("dfpn-{}", i + 1))
                                .stack_size(WORKER_STACK_BYTES)
                                .spawn_scoped(scope, move || Worker::run(q, p, i + 1, line))
                                .expect("spawn a search thread")
                        })
                        .collect();
                    let mut all = vec![Worker::run(&q, &mut first[0], 0, line)];
                    all.extend(
                        handles
                            .into_iter()
                            .map(|h| h.join().expect("search thread")),
                    );
                    all
                })
            };
            // The first answered thread's result (all proofs are sound, so they agree).
            result = results
                .iter()
                .copied()
                .find(|r| r.mover_wins.is_some())
                .unwrap_or(results[0]);
            debug_assert!(
                results
                    .iter()
                    .all(|r| r.mover_wins.is_none() || r.mover_wins == result.mover_wins)
            );
            expansions = self.paths[..threads].iter().map(|p| p.expansions).sum();
            nodes = self.paths[..threads].iter().map(|p| p.nodes).sum();
            self.root_numbers = match result.mover_wins {
                Some(true) => (0, INF),
                Some(false) => (INF, 0),
                None => self.paths[0].root_numbers,
            };
        }
        let mut answer = match result.mover_wins {
            None => Answer::Unknown,
            Some(w) => {
                if w == (mover == winner) {
                    Answer::Win
                } else {
                    Answer::Loss
                }
            }
        };
        let pruned_loss = pruned && answer == Answer::Loss;
        if pruned_loss {
            answer = Answer::Unknown;
        }
        self.total_expansions += expansions;
        self.total_nodes += nodes;
        Proof {
            winner,
            komi2,
            answer,
            best_move: if result.mover_wins == Some(true) && !pruned_loss {
                result.best
            } else {
                None
            },
            expansions,
            nodes,
            time_s: start.elapsed().as_secs_f64(),
            pruned_loss,
            pruned,
            holds: if result.mover_wins.is_some() {
                result.holds
            } else {
                komi2
            },
            threads,
        }
    }
}

impl<'a> Worker<'a> {
    /// One thread's df-pn from the root of `line` until the root is proven, the budget runs
    /// out, or another thread has answered.
    fn run(q: &'a Query<'a>, p: &'a mut Path, thread: usize, line: &Line) -> RootResult {
        p.expansions = 0;
        p.nodes = 0;
        p.flushed = (0, 0);
        p.aborted = false;
        p.ret_holds = q.komi2;
        p.root_best = None;
        p.clear_line();
        let nsym = q.geo.num_symmetries();
        for b in &line.boards {
            let canon = (0..nsym).map(|s| b.sym_hash(q.geo, s)).min().unwrap_or(0);
            let h = b.hash(q.geo);
            p.push(*b, h, canon);
        }
        let mut w = Worker { q, p, thread };
        let root = root_state(q.geo, line);
        let key = w.key_of(&root);
        let (pn, dn) = w.mid(&root, &key, INF, INF);
        let mover_wins = if pn == 0 {
            Some(true)
        } else if dn == 0 {
            Some(false)
        } else {
            None
        };
        if mover_wins.is_some() {
            q.shared.done.store(true, Ordering::Relaxed);
        }
        RootResult {
            mover_wins,
            // Set only when this thread proved the root a win for the mover.
            best: w.p.root_best,
            holds: w.p.ret_holds,
        }
    }

    #[inline]
    fn key_of(&self, st: &NodeState) -> NodeKey {
        key_of(self.q.geo, self.q.salt, st)
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
        let geo = self.q.geo;
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

    fn check_budget(&mut self) {
        let q = self.q;
        let p = &mut *self.p;
        let exact = q.cfg.max_expansions > 0 && q.threads > 1;
        if exact {
            // Several threads with a budget: every expansion takes a ticket, so that the
            // threads together spend exactly the budget (an expansion past it is not counted).
            let ticket = q.shared.expansions.fetch_add(1, Ordering::Relaxed);
            if ticket >= q.cfg.max_expansions {
                p.expansions -= 1;
                p.aborted = true;
            } else if ticket + 1 >= q.cfg.max_expansions {
                p.aborted = true;
            }
        } else if q.cfg.max_expansions > 0 {
            // With one thread `shared` is this thread's flushed count: the sum is exact.
            let total = q.shared.expansions.load(Ordering::Relaxed) + (p.expansions - p.flushed.0);
            if total >= q.cfg.max_expansions {
                p.aborted = true;
            }
        }
        if p.expansions & 0x3FF == 0 {
            if !exact {
                q.shared
                    .expansions
                    .fetch_add(p.expansions - p.flushed.0, Ordering::Relaxed);
            }
            q.shared
                .nodes
                .fetch_add(p.nodes - p.flushed.1, Ordering::Relaxed);
            p.flushed = (p.expansions, p.nodes);
            if q.shared.done.load(Ordering::Relaxed) {
                p.aborted = true;
            }
            if let Some(c) = &q.cfg.cancel {
                if c.load(Ordering::Relaxed) {
                    p.aborted = true;
                }
            }
            if let Some(t) = q.cfg.max_time {
                if q.start.elapsed() >= t {
                    p.aborted = true;
                }
            }
            if p.expansions & 0xFFFF == 0 && self.thread == 0 {
                if let Some(f) = &q.cfg.progress {
                    f(&Progress {
                        expansions: q.shared.expansions.load(Ordering::Relaxed),
                        nodes: q.shared.nodes.load(Ordering::Relaxed),
                        elapsed: q.start.elapsed().as_secs_f64(),
                        root: p.root_numbers,
                    });
                }
            }
        }
    }

    /// Whether the mover of a finished game (after two passes on `board`) wins.
    #[inline]
    fn mover_wins_final(&self, board: &Board, mover: Player) -> bool {
        black_wins(board.area_score(self.q.geo), self.q.komi2) == (mover == Player::Black)
    }

    /// Probes the table for a node with board `st.board` and history `self.p.boards[..len]`
    /// (plus its own board), applying the transfer test to proofs of other games.
    fn lookup(&mut self, key: &NodeKey, st: &NodeState, len: usize, path: bool) -> Probe {
        let mover = st.to_move;
        let view = PathView {
            geo: self.q.geo,
            boards: &self.p.boards[..len],
            canon: &self.p.canon[..len],
            count: &self.p.count[..len],
            ever: &self.p.ever[..len],
        };
        let mut tests = 0u64;
        let r = self.q.table.probe(
            key,
            mover,
            self.q.komi2,
            path,
            self.q.transfer,
            &mut self.p.table,
            |a, mover_wins| {
                tests += 1;
                let winner = if mover_wins { mover } else { mover.opponent() };
                view.transfer_ok(a, key.sym, winner, &st.board)
            },
        );
        self.p.know.transfer_tests += tests;
        if let Probe::Proven(f) = &r {
            if f.needs_test {
                self.p.know.transfers += 1;
            }
        }
        r
    }

    /// Whether a position is a static win (Lemma 1, or the local region games of Appendix
    /// A.4) for either player at the current komi, given the history `self.p.boards[..len]`
    /// (plus the position's own board). Returns the winner and the certified territory.
    fn static_win(&mut self, ch: &NodeState, len: usize) -> Option<(Player, Bitboard, bool, i32)> {
        let geo = self.q.geo;
        let n = geo.points() as i64;
        let full = geo.full();
        let ever = self.p.ever[len - 1];
        for w in [Player::Black, Player::White] {
            // (C2): the last move was not a pass by w with the opponent to move.
            if ch.passed && w != ch.to_move {
                continue;
            }
            // w wins with a final area A when 4A > need (half-points of komi, both sides).
            let need = if w == Player::Black {
                2 * n + i64::from(self.q.komi2)
            } else {
                2 * n - i64::from(self.q.komi2)
            };
            let stones = ch.board.stones(w);
            let bound = stones.count() + (geo.neighbours(stones) & full).minus(stones).count();
            if 4 * i64::from(bound) <= need {
                continue;
            }
            let pe = pure_eyes(geo, &ch.board, w);
            // (C1): no stone of w was ever captured on T*.
            let c1 = (pe.territory & ever.stones(w)).is_empty();
            if 4 * i64::from(pe.area()) > need && c1 {
                // w's final area is at least A: Black's margin is ≥ 2A − n, or ≤ n − 2A.
                let a = pe.area() as i32;
                let nn = n as i32;
                let margin = if w == Player::Black {
                    2 * a - nn
                } else {
                    nn - 2 * a
                };
                let holds = holds_of_score(margin, w == Player::Black);
                return Some((w, pe.territory, false, holds));
            }
            if w == Player::Black && self.q.cfg.regions && 4 * n > need && !pe.alive.is_empty() {
                if let Some(terr) = self.p.regions.black_wins_regions(geo, &ch.board, &pe) {
                    if (terr & ever.black).is_empty() {
                        // Black owns every point at the end (regions.rs).
                        return Some((w, terr, true, holds_of_score(n as i32, true)));
                    }
                }
            }
        }
        None
    }

    /// Classifies a child whose history is `self.p.boards[..len]` plus its own board: proven in
    /// the table (identical game, or transferred), a static leaf, or unproven.
    fn classify(&mut self, ch: &NodeState, key: &NodeKey, len: usize, probe: bool) -> Classified {
        match self.lookup(key, ch, len, probe) {
            Probe::Proven(f) => {
                let a = transfer::unpack(
                    self.q.geo,
                    &f.attrs,
                    key.sym,
                    &ch.board,
                    &self.p.boards[..len],
                );
                return Classified::Proven(f.mover_wins, a, f.komi2);
            }
            Probe::Unproven { pn, dn, .. } => return Classified::Open(pn, dn),
            Probe::Miss => {}
        }
        if self.q.cfg.static_leaves {
            if let Some((w, terr, region, holds)) = self.static_win(ch, len) {
                if region {
                    self.p.know.region_leaves += 1;
                } else {
                    self.p.know.static_leaves += 1;
                }
                return Classified::Proven(w == ch.to_move, Attrs::static_leaf(terr), holds);
            }
        }
        let (pn, dn) = self
            .q
            .prior
            .initial(self.q.geo, &ch.board, ch.to_move, self.q.komi2);
        Classified::Open(pn, dn)
    }

    /// Generates and classifies the children of `st` into `self.p.children[base..]`.
    /// Returns the winning move and the proof's attributes if a child already proves `st`.
    /// Records in `self.p.own` the exclusion targets of the mover's superko-illegal moves and
    /// whether a symmetry merge skipped a move (both matter only if `st` is lost).
    fn generate(&mut self, st: &NodeState, probe: bool) -> Option<(Move, Attrs, i32)> {
        let len = self.p.boards.len();
        let mover = st.to_move;
        let nsym = self.q.geo.num_symmetries();
        let mut own = Attrs::LEAF;
        let base = self.p.children.len();
        let transfer = self.q.transfer;
        // Pass 1: the legal children, with their table buckets prefetched so that the cache
        // misses of all children overlap. The pass comes first.
        // What the node's own terminal options give its winner when it is lost: the pass
        // that ends the game (checked again in `mid` with the children's proofs).
        self.p.own_holds = None;
        if st.passed {
            // The pass shortcut: a pass answering a pass ends the game.
            let score = st.board.area_score(self.q.geo);
            let black_wins_end = black_wins(score, self.q.komi2);
            if self.mover_wins_final(&st.board, mover) {
                return Some((
                    Move::PASS,
                    Attrs::LEAF,
                    holds_of_score(score, black_wins_end),
                ));
            }
            self.p.own_holds = Some(holds_of_score(score, black_wins_end));
        } else {
            let mut ch = *st;
            ch.to_move = mover.opponent();
            ch.passed = true;
            let key = self.key_of(&ch);
            self.q.table.prefetch(&key, probe, transfer);
            self.p.children.push(Child {
                mv: Move::PASS,
                key,
                pn: 1,
                dn: 1,
                state: ch,
                attrs: Attrs::LEAF,
                holds: 0,
            });
        }
        // Winner-side pruning: the proven side's own single-point eyes and certified territory.
        let prunable = if self.q.pruned_side == Some(mover) {
            prunable_points(self.q.geo, &st.board, mover)
        } else {
            Bitboard::EMPTY
        };
        let mut tempo_kept = false;
        let empty = st.board.empty(self.q.geo);
        let c = mover.index();
        for p in empty.points() {
            // Merge m with s(m) when s fixes every board of the history.
            if st.stab != 0 {
                let mut bits = st.stab;
                let mut dominated = false;
                while bits != 0 {
                    let s = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    if self.q.geo.map_point(s, p) < p {
                        dominated = true;
                        break;
                    }
                }
                if dominated {
                    // A loss relying on the merge is path-specific.
                    own.add_target(0, true);
                    continue;
                }
            }
            let Some(placed) = st.board.place(self.q.geo, mover, p) else {
                continue;
            };
            let (k1, _) = self.q.geo.key_tables();
            let mut h0 = st.h1[0] ^ k1[0][p.index()][c];
            for q in placed.captured.points() {
                h0 ^= k1[0][q.index()][1 - c];
            }
            if let Some(i) = self.p.repeat_index(h0, &placed.board) {
                own.add_target(i as u32, false);
                continue;
            }
            if prunable.contains(p) {
                if tempo_kept {
                    self.p.know.pruned_moves += 1;
                    continue;
                }
                tempo_kept = true;
            }
            let ch = self.stone_child(st, p, placed.board, placed.captured, h0);
            let key = self.key_of(&ch);
            self.q.table.prefetch(&key, probe, transfer);
            self.p.children.push(Child {
                mv: Move::play(p),
                key,
                pn: 1,
                dn: 1,
                state: ch,
                attrs: Attrs::LEAF,
                holds: 0,
            });
        }
        self.p.own = own;
        // Pass 2: classify; stop at a child that proves the node.
        for i in base..self.p.children.len() {
            let Child { mv, key, state, .. } = self.p.children[i];
            match self.classify(&state, &key, len, probe) {
                Classified::Proven(false, a, h) => {
                    let a = if mv.is_pass() {
                        a
                    } else {
                        a.add_board(&state.board, state.canonical_board_hash(nsym))
                    };
                    return Some((mv, a, h));
                }
                Classified::Proven(true, a, h) => {
                    let c = &mut self.p.children[i];
                    (c.pn, c.dn, c.attrs, c.holds) = (0, INF, a, h);
                }
                Classified::Open(pn, dn) => {
                    let c = &mut self.p.children[i];
                    (c.pn, c.dn) = (pn, dn);
                }
            }
        }
        None
    }

    /// Stores a node's numbers, or its proof with attributes `attrs` (already restricted to
    /// the node's history): transferable when it has no exclusion target.
    #[allow(clippy::too_many_arguments)]
    fn store(
        &mut self,
        st: &NodeState,
        key: &NodeKey,
        pn: u64,
        dn: u64,
        best: Move,
        effort: u64,
        attrs: &Attrs,
        holds: i32,
    ) {
        let b = if best == Move(NO_MOVE) {
            NO_MOVE
        } else {
            if pn == 0 && self.p.depth == 0 {
                // The root's proof is also kept by this thread: in the shared table another
                // thread can overwrite it before it is read back.
                self.p.root_best = Some(best);
            }
            self.q.geo.map_move(key.sym as usize, best).0
        };
        if (pn == 0 || dn == 0) && self.q.cfg.sample_every > 0 {
            self.p.stored_proofs += 1;
            if self.p.stored_proofs % u64::from(self.q.cfg.sample_every) == 0 {
                let f = features(self.q.geo, &st.board, st.to_move, self.q.komi2);
                self.p.samples.push((f, pn == 0));
            }
        }
        let what = if pn == 0 || dn == 0 {
            let packed = transfer::pack(self.q.geo, attrs, key.sym, &self.p.boards);
            if attrs.excl_min == NO_TARGET {
                self.p.know.transferable_proofs += 1;
            } else if attrs.excl_many {
                self.p.know.many_target_proofs += 1;
            } else {
                self.p.know.targeted_proofs += 1;
            }
            if self.q.transfer && attrs.excl_min == NO_TARGET {
                StoreKind::PositionProof(pn == 0, packed)
            } else {
                StoreKind::PathProof(pn == 0, packed)
            }
        } else {
            StoreKind::Unproven(pn, dn)
        };
        // A proof is stored at the strongest komi it holds at, so that it also answers the
        // questions of later komis that it settles.
        let komi2 = if pn == 0 || dn == 0 {
            holds
        } else {
            self.q.komi2
        };
        self.q
            .table
            .store(key, st.to_move, komi2, what, b, effort, &mut self.p.table);
    }

    /// The recursive procedure (one call = one expansion). Returns (φ, δ) of `st`; when the
    /// node is proven, its proof's attributes are left in `self.p.ret_attrs`.
    /// The multiple-iterative-deepening step of df-pn (Nagai 2002) in negamax form, 1+ε
    /// (Pawlewicz and Lew 2007): expands the node until its (φ, δ) reach the thresholds or
    /// it is proven, stores it, and returns its numbers. A proven result's attributes and
    /// [`Proof::holds`] komi are left in the path's `ret_attrs`/`ret_holds`.
    fn mid(&mut self, st: &NodeState, key: &NodeKey, th_pn: u64, th_dn: u64) -> (u64, u64) {
        self.p.expansions += 1;
        self.check_budget();
        let start_exp = self.p.expansions;
        let len = self.p.boards.len();
        let prior_effort = match self.enter(st, key, len) {
            Ok(effort) => effort,
            Err(stored) => return stored,
        };
        // Children of a node never stored before are (but for rare transpositions) not stored
        // in its game either: skip their path probes. Skipping is always sound.
        let probe = self.p.expansions <= 1 || self.q.table.seen(key);
        let base = self.p.children.len();
        if let Some((win, attrs, holds)) = self.generate(st, probe) {
            self.p.children.truncate(base);
            let attrs = attrs.restrict(len);
            self.store(st, key, 0, INF, win, 1 + prior_effort, &attrs, holds);
            self.p.ret_attrs = attrs;
            self.p.ret_holds = holds;
            return (0, INF);
        }
        let (own, own_holds) = (self.p.own, self.p.own_holds);
        let end = self.p.children.len();
        let (pn, dn, best_i) = loop {
            let (pn, dn, best_i, d2) = numbers(&self.p.children[base..end]);
            let best_i = base + best_i;
            if self.p.depth == 0 {
                self.p.root_numbers = (pn, dn);
            }
            if pn == 0 || dn == 0 || pn >= th_pn || dn >= th_dn || self.p.aborted {
                break (pn, dn, best_i);
            }
            // Virtual loss (parallel search): children other threads are below look worse,
            // but only at the nodes of the asked winner's opponent. When the asked winner
            // wins, every child there needs its own proof, so threads spread over them share
            // the work; at the winner's own nodes one child is enough, and a thread sent to
            // a second one mostly searches a move no proof needs. Measured on two threads
            // (README, "Threads"): 3x5 92,770 expansions on average against 115,557 with
            // virtual loss at every node; 4x4, 2x8 and 4x5 within noise.
            let (sel, d2) = match self.q.busy {
                Some(busy) if st.to_move != self.q.asked => {
                    busy.select(&self.p.children[base..end], base, best_i, d2, th_pn)
                }
                _ => (best_i, d2),
            };
            let c = &self.p.children[sel];
            let c_th_pn = if th_dn == INF {
                INF
            } else {
                sat_add(th_dn - dn, c.pn)
            };
            let grow = if d2 == INF {
                INF
            } else {
                (((d2 as f64) * (1.0 + self.q.cfg.epsilon)).ceil() as u64).max(d2 + 1)
            };
            self.descend(sel, c_th_pn, th_pn.min(grow));
        };
        let best = if end > base {
            self.p.children[best_i].mv
        } else {
            Move(NO_MOVE)
        };
        let (attrs, holds) = if pn == 0 {
            self.won_attrs(best_i, len)
        } else if dn == 0 {
            self.lost_attrs(st, base..end, own, own_holds, len)
        } else {
            (Attrs::LEAF, self.q.komi2)
        };
        self.p.children.truncate(base);
        let effort = prior_effort + (self.p.expansions - start_exp + 1);
        self.store(st, key, pn, dn, best, effort, &attrs, holds);
        if pn == 0 || dn == 0 {
            self.p.ret_attrs = attrs;
            self.p.ret_holds = holds;
        }
        if self.p.depth == 0 {
            self.p.root_numbers = (pn, dn);
        }
        (pn, dn)
    }

    /// The node's own table entry: `Err` with its numbers (0 or ∞) when a proof applies (its
    /// attributes and holds komi then in `ret_attrs`/`ret_holds`), otherwise `Ok` with the
    /// expansions already spent below it (0 for a node new to the table, counted in `nodes`).
    fn enter(&mut self, st: &NodeState, key: &NodeKey, len: usize) -> Result<u64, (u64, u64)> {
        match self.lookup(key, st, len, true) {
            Probe::Proven(f) => {
                self.p.ret_attrs = transfer::unpack(
                    self.q.geo,
                    &f.attrs,
                    key.sym,
                    &st.board,
                    &self.p.boards[..len],
                );
                self.p.ret_holds = f.komi2;
                if self.p.depth == 0 && f.mover_wins && f.best != NO_MOVE {
                    let inv = self.q.geo.inverse(key.sym as usize);
                    self.p.root_best = Some(self.q.geo.map_move(inv, Move(f.best)));
                }
                Err(if f.mover_wins { (0, INF) } else { (INF, 0) })
            }
            Probe::Unproven { effort, .. } => Ok(effort),
            Probe::Miss => {
                self.p.nodes += 1;
                Ok(0)
            }
        }
    }

    /// Searches child `sel` of the node on top of the path with thresholds (φ, δ) and
    /// writes its new numbers (and, once proven, its attributes) back into the arena.
    fn descend(&mut self, sel: usize, th_pn: u64, th_dn: u64) {
        let c = self.p.children[sel];
        let pushed = !c.mv.is_pass();
        if pushed {
            let canon = c.state.canonical_board_hash(self.q.geo.num_symmetries());
            self.p.push(c.state.board, c.state.h1[0], canon);
        }
        self.p.depth += 1;
        if let Some(busy) = self.q.busy {
            busy.enter(&c.key);
        }
        let (cpn, cdn) = self.mid(&c.state, &c.key, th_pn, th_dn);
        if let Some(busy) = self.q.busy {
            busy.leave(&c.key);
        }
        self.p.depth -= 1;
        if pushed {
            self.p.pop();
        }
        let (ret, ret_holds) = (self.p.ret_attrs, self.p.ret_holds);
        let cm = &mut self.p.children[sel];
        cm.pn = cpn;
        cm.dn = cdn;
        if cpn == 0 || cdn == 0 {
            cm.attrs = ret;
            cm.holds = ret_holds;
        }
    }

    /// A won node's proof: the winning child's, plus the board its stone move creates.
    fn won_attrs(&self, best_i: usize, len: usize) -> (Attrs, i32) {
        let c = &self.p.children[best_i];
        let mut attrs = c.attrs.restrict(len);
        if !c.mv.is_pass() {
            let canon = c.state.canonical_board_hash(self.q.geo.num_symmetries());
            attrs = attrs.add_board(&c.state.board, canon);
        }
        (attrs, c.holds)
    }

    /// A lost node's proof: the join of every child's, plus the node's own exclusions; it
    /// holds at the weakest komi any child's proof holds at.
    fn lost_attrs(
        &self,
        st: &NodeState,
        children: std::ops::Range<usize>,
        own: Attrs,
        own_holds: Option<i32>,
        len: usize,
    ) -> (Attrs, i32) {
        let mut attrs = own;
        let winner = st.to_move.opponent();
        let mut holds = own_holds.unwrap_or(if winner == Player::Black {
            i32::MAX
        } else {
            i32::MIN
        });
        for c in &self.p.children[children] {
            attrs.join(&c.attrs.restrict(len));
            holds = weaker_holds(winner, holds, c.holds);
        }
        if holds == i32::MAX || holds == i32::MIN {
            holds = self.q.komi2;
        }
        (attrs, holds)
    }
}

/// A node's numbers from its children's, in negamax form: φ = min δ(c), δ = Σ φ(c)
/// (saturating; ∞ if any child's φ is, and never ∞ otherwise), with the index of the child of
/// smallest δ (the first of equals) and the second smallest δ.
fn numbers(children: &[Child]) -> (u64, u64, usize, u64) {
    let (mut pn, mut dn, mut d2, mut best) = (INF, 0u64, INF, 0);
    let mut any_inf = false;
    for (i, c) in children.iter().enumerate() {
        if c.dn < pn {
            d2 = pn;
            pn = c.dn;
            best = i;
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
    (pn, dn, best, d2)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::bloom_bits;

    fn children_of(solver: &mut Solver, line: &Line) -> Vec<Move> {
        // A komi at which the mover cannot win, so that no child (the pass) ends the search.
        let n = solver.geo.points() as i32;
        let k2 = if line.position.to_move == Player::Black {
            2 * n + 1
        } else {
            -2 * n - 1
        };
        let prior = Prior::new(PriorKind::Uniform, solver.geo.points(), k2);
        let shared = Shared::default();
        let q = Query {
            geo: &solver.geo,
            table: &solver.table,
            cfg: &solver.cfg,
            komi2: k2,
            prior: &prior,
            transfer: false,
            pruned_side: None,
            salt: 0,
            busy: None,
            shared: &shared,
            start: Instant::now(),
            threads: 1,
            asked: line.position.to_move,
        };
        let p = &mut solver.paths[0];
        p.clear_line();
        for b in &line.boards {
            let h = b.hash(q.geo);
            p.push(*b, h, h);
        }
        let mut w = Worker {
            q: &q,
            p,
            thread: 0,
        };
        let st = root_state(q.geo, line);
        assert!(w.generate(&st, false).is_none());
        w.p.children.iter().map(|c| c.mv).collect()
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

    fn board(geo: &Geometry, s: &str) -> Board {
        Board::from_drawing(geo, s).unwrap()
    }

    fn canon(geo: &Geometry, b: &Board) -> u64 {
        (0..geo.num_symmetries())
            .map(|s| b.sym_hash(geo, s))
            .min()
            .unwrap()
    }

    /// The attributes of a proof whose winner's boards are `boards`, with `territory`.
    fn proof_of(geo: &Geometry, boards: &[Board], territory: Bitboard) -> Attrs {
        let mut a = Attrs::static_leaf(territory);
        for b in boards {
            a = a.add_board(b, canon(geo, b));
        }
        a
    }

    struct TestPath {
        boards: Vec<Board>,
        canon: Vec<u64>,
        count: Vec<u32>,
        ever: Vec<Board>,
    }

    impl TestPath {
        fn new(geo: &Geometry, boards: &[Board]) -> Self {
            let mut ever = Vec::new();
            let mut acc = Board::EMPTY;
            for b in boards {
                acc = Board {
                    black: acc.black | b.black,
                    white: acc.white | b.white,
                };
                ever.push(acc);
            }
            TestPath {
                boards: boards.to_vec(),
                canon: boards.iter().map(|b| canon(geo, b)).collect(),
                count: boards.iter().map(|b| b.occupied().count()).collect(),
                ever,
            }
        }

        fn ok(&self, geo: &Geometry, a: &Attrs, winner: Player, current: &Board) -> bool {
            let key = NodeKey {
                key: 0,
                pos2: 0,
                sig1: 0,
                sig2: 0,
                sym: 0,
            };
            let packed = transfer::pack(geo, a, key.sym, &self.boards);
            PathView {
                geo,
                boards: &self.boards,
                canon: &self.canon,
                count: &self.count,
                ever: &self.ever,
            }
            .transfer_ok(&packed, 0, winner, current)
        }
    }

    #[test]
    fn a_won_node_adds_the_board_of_its_stone_move() {
        let geo = Geometry::new(3, 3).unwrap();
        let b1 = board(&geo, "X../.O./...");
        let b2 = board(&geo, "XX./.O./..O");
        let a = proof_of(&geo, &[b1, b2], Bitboard::EMPTY);
        assert_eq!(a.common_b, b1.black & b2.black);
        assert_eq!(a.common_w, b1.white & b2.white);
        assert_eq!(a.min_stones, 2);
        for b in [b1, b2] {
            let bits = bloom_bits(canon(&geo, &b));
            assert_eq!(a.bloom & bits, bits);
        }
        // A leaf has no boards: nothing can be one of its winner's boards.
        assert_eq!(Attrs::LEAF.bloom, 0);
        assert_eq!(Attrs::LEAF.min_stones, u32::MAX);
    }

    #[test]
    fn a_lost_node_joins_its_children() {
        let geo = Geometry::new(3, 3).unwrap();
        let b1 = board(&geo, "X../.O./...");
        let b2 = board(&geo, ".X./.O./..O");
        let t1 = Bitboard::from_point(Point(0));
        let t2 = Bitboard::from_point(Point(8));
        let c1 = proof_of(&geo, &[b1], t1);
        let mut c2 = proof_of(&geo, &[b2], t2);
        c2.add_target(3, false);
        let mut lost = Attrs::LEAF;
        lost.add_target(5, false); // the node's own exclusion
        lost.join(&c1);
        lost.join(&c2);
        assert_eq!(lost.bloom, c1.bloom | c2.bloom);
        assert_eq!(lost.common_b, b1.black & b2.black);
        assert_eq!(lost.common_w, b1.white & b2.white);
        assert_eq!(lost.min_stones, 2);
        assert_eq!(lost.territory, t1 | t2);
        assert_eq!((lost.excl_min, lost.excl_many), (3, true));
        // One target, seen twice, stays one; targets on the node's own line are dropped.
        let mut one = Attrs::LEAF;
        one.add_target(4, false);
        one.add_target(4, false);
        assert_eq!((one.excl_min, one.excl_many), (4, false));
        assert_eq!(one.restrict(4).excl_min, NO_TARGET);
        assert_eq!(one.restrict(5).excl_min, 4);
    }

    #[test]
    fn transfer_is_rejected_when_a_winners_board_is_in_the_new_history() {
        let geo = Geometry::new(3, 3).unwrap();
        let empty = Board::EMPTY;
        let b1 = board(&geo, "X../.O./...");
        let b2 = board(&geo, "XX./.O./...");
        let cur = board(&geo, "X../.O./..X");
        let proof = proof_of(&geo, &[b2], Bitboard::EMPTY);
        // b2 was created by the winner (Black) in the proof: a history holding it kills the
        // proof (the winning move would now be illegal).
        let bad = TestPath::new(&geo, &[empty, b1, b2, cur]);
        assert!(!bad.ok(&geo, &proof, Player::Black, &cur));
        // Its mirror image shares the canonical hash (the Bloom filter is frame-free) but is
        // a different board of this frame: the common-stone test tells them apart.
        let mirrored = geo.map_board(1, &b2);
        assert_ne!(mirrored, b2);
        let fine = TestPath::new(&geo, &[empty, b1, mirrored, cur]);
        assert!(fine.ok(&geo, &proof, Player::Black, &cur));
        // Without it the proof transfers.
        let good = TestPath::new(&geo, &[empty, b1, cur]);
        assert!(good.ok(&geo, &proof, Player::Black, &cur));
    }

    #[test]
    fn transfer_is_accepted_when_only_a_losers_board_repeats() {
        let geo = Geometry::new(3, 3).unwrap();
        let empty = Board::EMPTY;
        // Black (the winner) created w1 and w2 in the proof; White's board l is on the new
        // history: White merely loses an option there.
        let w1 = board(&geo, "XX./.OO/...");
        let w2 = board(&geo, "XXX/.OO/...");
        let l = board(&geo, "X../.OO/...");
        let cur = board(&geo, "X../.O./...");
        let proof = proof_of(&geo, &[w1, w2], Bitboard::EMPTY);
        let path = TestPath::new(&geo, &[empty, l, cur]);
        assert!(path.ok(&geo, &proof, Player::Black, &cur));
    }

    #[test]
    fn transfer_is_rejected_when_a_winners_stone_was_captured_on_its_territory() {
        let geo = Geometry::new(3, 3).unwrap();
        let empty = Board::EMPTY;
        let territory = board(&geo, "..X/.../...").black; // the point C3
        let proof = proof_of(&geo, &[], territory);
        let cur = board(&geo, "X.O/.../...");
        // Black once stood on C3 and was captured there: Lemma 1's (C1) fails on this path.
        let captured = TestPath::new(&geo, &[empty, board(&geo, "X.X/.../..."), cur]);
        assert!(!captured.ok(&geo, &proof, Player::Black, &cur));
        // A White stone there before is no obstacle to a Black proof.
        let other = TestPath::new(&geo, &[empty, board(&geo, "..O/.../..."), cur]);
        assert!(other.ok(&geo, &proof, Player::Black, &cur));
        // Proofs with an exclusion target never transfer.
        let mut targeted = proof;
        targeted.add_target(0, false);
        assert!(!other.ok(&geo, &targeted, Player::Black, &cur));
    }
}
