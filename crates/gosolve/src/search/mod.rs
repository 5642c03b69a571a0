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

mod children;
mod node;
mod numbers;
mod path;
mod question;
#[cfg(test)]
mod tests;
mod virtual_loss;
mod worker;

use crate::board::{BoardError, Geometry};
use crate::position::{Line, reference};
pub use crate::prior::PriorKind;
use crate::prior::{FEATURES, Prior};
use crate::root::Root;
use crate::table::{CheckpointError, CheckpointInfo, NodeKey, Table, TableStats};
use games::Player;
use games::go::{self, Komi, Move};
use node::{key_of, root_state};
use numbers::holds_of_score;
use path::Path;
use question::{Query, Shared};
use std::sync::Arc;
use std::time::{Duration, Instant};
use virtual_loss::Busy;
use vocab::{Limits, Pn};
use worker::{RootResult, Worker};

/// The answer to "does player w win from this node at komi k?": [`Answer::Proven`] when w
/// wins, [`Answer::Disproven`] when w loses ([`Answer::outcome_name`]: "win", "loss").
pub use vocab::Answer;

/// Budgets and knobs of one search.
#[derive(Clone)]
pub struct Config {
    /// ε of the 1+ε rule.
    pub epsilon: f64,
    /// Expansions and wall time per question (0 and `None`: unlimited), and the cancel flag
    /// (Ctrl-C; the answer is then `Unknown`), looked at every 1,024 expansions.
    pub limits: Limits,
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
    /// Where and how often the table is saved while a question runs (`None`: never; see
    /// [`Checkpoint`]). The first thread saves, between two expansions, once
    /// [`Checkpoint::every`] has passed since the last save.
    pub checkpoint: Option<Arc<Checkpoint>>,
}

/// A checkpoint plan: the file, the identity of the run it belongs to, and how often to
/// write it ([`crate::table::Table::save_checkpoint`] has the format and the guarantees).
#[derive(Debug)]
pub struct Checkpoint {
    /// The checkpoint file (replaced atomically at each save).
    pub path: std::path::PathBuf,
    /// The run's identity ([`Solver::checkpoint_identity`]).
    pub identity: String,
    /// Wall time between two saves while searching.
    pub every: Duration,
    /// Unproven entries with at least this many expansions below them are saved too (their
    /// numbers steer a resumed search back to where it was); proofs are always saved.
    pub min_effort: u32,
    /// When the last save finished and what it wrote, or why it failed.
    last: std::sync::Mutex<(Instant, Option<Result<CheckpointInfo, String>>)>,
}

impl Checkpoint {
    /// A plan to save to `path` every `every` under `identity`, with unproven entries of at
    /// least [`Checkpoint::DEFAULT_MIN_EFFORT`] expansions. The clock starts now.
    #[must_use]
    pub fn new(path: std::path::PathBuf, identity: String, every: Duration) -> Self {
        Checkpoint {
            path,
            identity,
            every,
            min_effort: Self::DEFAULT_MIN_EFFORT,
            last: std::sync::Mutex::new((Instant::now(), None)),
        }
    }

    /// Unproven entries saved by default: those with at least 64 expansions below them.
    pub const DEFAULT_MIN_EFFORT: u32 = 64;

    /// Seconds since the last save finished (or since the plan was made), and the last
    /// save's result (`None` before the first).
    #[must_use]
    pub fn last(&self) -> (f64, Option<Result<CheckpointInfo, String>>) {
        let g = self
            .last
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        (g.0.elapsed().as_secs_f64(), g.1.clone())
    }

    /// Whether [`Checkpoint::every`] has passed since the last save.
    #[must_use]
    pub fn due(&self) -> bool {
        self.last().0 >= self.every.as_secs_f64()
    }

    /// Saves `table` now and records the result.
    ///
    /// # Errors
    /// As [`Table::save_checkpoint`]; the failure is also recorded, and an earlier
    /// checkpoint file stays as it was.
    pub fn save(&self, table: &Table) -> Result<CheckpointInfo, CheckpointError> {
        let r = table.save_checkpoint(&self.path, &self.identity, self.min_effort);
        let mut g = self
            .last
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        *g = (
            Instant::now(),
            Some(r.as_ref().map(|i| *i).map_err(ToString::to_string)),
        );
        r
    }
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
pub type ProgressFn = vocab::ProgressFn<SearchDetail>;

/// The value session's configuration ([`crate::session::config`]): the learned prior, ε 0.3,
/// every piece of knowledge, no limits.
impl Default for Config {
    fn default() -> Self {
        crate::session::config()
    }
}

impl Config {
    /// The reference configuration: the area-margin prior ([`PriorKind::SCORE`]), ε 0.3, every
    /// piece of knowledge, no limits. The solver's own tests pin their expansion counts under
    /// it and the selftests compare it with the oracle; commands and engines search with
    /// [`Config::default`], the value session's.
    #[must_use]
    pub fn reference() -> Self {
        Config {
            epsilon: 0.3,
            limits: Limits::default(),
            progress: None,
            prior: PriorKind::SCORE,
            transfer: true,
            static_leaves: true,
            regions: true,
            prune: false,
            sample_every: 0,
            share_unproven: true,
            cross_komi: true,
            threads: 1,
            virtual_loss: true,
            checkpoint: None,
        }
    }
}

impl std::fmt::Debug for Config {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Config")
            .field("epsilon", &self.epsilon)
            .field("limits", &self.limits)
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

/// Running counts passed to the progress callback: expansions and distinct nodes so far in
/// this question (summed over the threads), its wall time, and [`SearchDetail`].
pub type Progress = vocab::Progress<SearchDetail>;

/// What gosolve's progress events report beside the counts of [`Progress`].
#[derive(Clone, Debug)]
pub struct SearchDetail {
    /// Root φ and δ (for the mover at the root) when last stored.
    pub root: (Pn, Pn),
    /// The side the question asks about, and the proof and disproof numbers of its claim
    /// ("`asked` wins") at the root: `root` when `asked` moves there, else swapped. The
    /// claim is proven when its proof number reaches 0.
    pub claim: (Player, Pn, Pn),
    /// The komi of the question.
    pub komi: Komi,
    /// Table slots in use, as a fraction (from a sample of the table's buckets).
    pub table_fill: f64,
    /// Stores so far in this question that evicted another node (summed over the threads,
    /// flushed every 1024 expansions).
    pub evictions: u64,
    /// Seconds since a node at depth 2 or less was last proven in this question (`None`:
    /// none yet).
    pub since_shallow_proof: Option<f64>,
    /// Seconds since the last checkpoint, and its result (`None` without checkpoints or
    /// before the first save).
    pub checkpoint: Option<(f64, Option<Result<CheckpointInfo, String>>)>,
}

/// The result of one question.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Proof {
    /// The asked player.
    pub winner: Player,
    /// The komi asked (a half-integer).
    pub komi: Komi,
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
    /// up to it, White's at every komi from it). Equal to `komi` or better for the winner.
    pub holds: Komi,
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
    /// Expansions by depth below the question's root (the last entry: that depth and more).
    pub depth_expansions: [u64; DEPTHS],
    /// Distinct nodes (table misses) by depth, as `depth_expansions`.
    pub depth_nodes: [u64; DEPTHS],
    /// The local region games' own counters ([`crate::regions::RegionStats`], summed over
    /// the threads; `memo_size` is the entries held now).
    pub regions: crate::regions::RegionStats,
}

/// Depths told apart by [`KnowledgeStats::depth_expansions`].
pub const DEPTHS: usize = 32;

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
        for d in 0..DEPTHS {
            self.depth_expansions[d] += o.depth_expansions[d];
            self.depth_nodes[d] += o.depth_nodes[d];
        }
        self.regions.add(&o.regions);
    }
}

/// Whether Black wins a game ending with `score` (Black minus White area) at komi `komi2`/2
/// (the search's half-point komi; callers outside the search use [`Komi::black_wins`]).
#[must_use]
#[inline]
pub(crate) const fn black_wins(score: i32, komi2: i32) -> bool {
    2 * score > komi2
}

/// The region-game memo entries of each thread searching `table`.
fn memo_entries(table: &Table) -> usize {
    crate::regions::memo_entries_for_table(table.bytes() >> 20)
}

/// Salts of the keys of pruned searches (Black's moves pruned, White's moves pruned).
const PRUNE_SALT: [u64; 2] = [0x5BD1_E995_3C6E_F372, 0xA54F_F53A_2F1B_7C4D];

/// The identity of a checkpoint of questions about `pos` (see
/// [`Solver::checkpoint_identity`]), without a solver.
///
/// # Errors
/// [`BoardError::UnsupportedSize`] above 64 points.
pub fn checkpoint_identity(pos: &go::Position, question: &str) -> Result<String, BoardError> {
    let (geo, line) = reference::line(pos)?;
    Ok(identity_of(&geo, &line, question))
}

/// The checkpoint identity of questions about the end of `line` on boards of `geo`.
fn identity_of(geo: &Geometry, line: &Line, question: &str) -> String {
    let k = key_of(geo, 0, &root_state(geo, line));
    format!(
        "go {}x{} root {:016x}.{:016x}.{:016x} {question}",
        geo.rows(),
        geo.cols(),
        k.key,
        k.sig1,
        k.sig2
    )
}

/// The df-pn solver: a geometry, one table shared by its threads, and one `Path` per
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
    root_numbers: (Pn, Pn),
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

/// Stack of each extra search thread, in bytes (virtual; the recursion is as deep as the
/// longest line).
const WORKER_STACK_BYTES: usize = 256 << 20;

impl Solver {
    /// A solver for boards of `size` with a table of `tt_mib` MiB.
    ///
    /// # Errors
    /// [`BoardError::UnsupportedSize`] above 64 points (the position keys are exact only up
    /// to 30).
    pub fn for_size(size: go::Size, tt_mib: usize, cfg: Config) -> Result<Self, BoardError> {
        Ok(Solver::new(reference::geometry(size)?, tt_mib, cfg))
    }

    /// A solver for boards of `geo` (the back end's geometry; see [`Solver::for_size`]) with
    /// a table of `tt_mib` MiB.
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
        let paths = vec![Path::new(memo_entries(&table))];
        Solver {
            geo,
            table,
            cfg,
            paths,
            root_numbers: (Pn::ONE, Pn::ONE),
            total_expansions: 0,
            total_nodes: 0,
            salt: 0,
        }
    }

    /// The back end's geometry.
    #[must_use]
    pub fn geometry(&self) -> &Geometry {
        &self.geo
    }

    /// The size of the boards the solver answers questions about.
    #[must_use]
    pub fn size(&self) -> go::Size {
        go::Size::new(self.geo.rows() as u32, self.geo.cols() as u32)
            .expect("the geometry's sides are 1..=19")
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
            k.add(&KnowledgeStats {
                regions: p.regions.stats(),
                ..p.know
            });
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
    pub fn root_numbers(&self) -> (Pn, Pn) {
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

    /// The identity under which a checkpoint of questions about `root` is saved
    /// and accepted: the board, the root node's table identity (canonical position and
    /// history signatures, so the position and its earlier boards) and `question` (the
    /// caller's words for what is asked, such as "solve" or "prove black 24.5").
    #[must_use]
    pub fn checkpoint_identity(&self, root: &impl Root, question: &str) -> String {
        identity_of(&self.geo, &root.line(&self.geo), question)
    }

    /// Writes a checkpoint of the table now (see [`Checkpoint`]).
    ///
    /// # Errors
    /// As [`Table::save_checkpoint`].
    pub fn save_checkpoint(&self, plan: &Checkpoint) -> Result<CheckpointInfo, CheckpointError> {
        plan.save(&self.table)
    }

    /// Reads a checkpoint saved under `identity` into the table (the table's counters
    /// include what it stored).
    ///
    /// # Errors
    /// As [`Table::load_checkpoint`]: a missing, damaged or foreign file; the table is then
    /// unchanged.
    pub fn load_checkpoint(
        &mut self,
        path: &std::path::Path,
        identity: &str,
    ) -> Result<CheckpointInfo, CheckpointError> {
        self.table
            .load_checkpoint(path, identity, &mut self.paths[0].table)
    }

    /// The table, for fault-injection tests.
    #[cfg(feature = "fault-injection")]
    pub fn table_mut(&mut self) -> &mut Table {
        &mut self.table
    }

    /// The table identity of `root` (canonical position key, the two history signatures in
    /// the canonical frame, and the canonicalising symmetry).
    #[must_use]
    pub fn node_key(&self, root: &impl Root) -> NodeKey {
        key_of(
            &self.geo,
            self.salt,
            &root_state(&self.geo, &root.line(&self.geo)),
        )
    }

    /// [`Solver::prove`] as a trial: when the answer comes back unknown, every entry the
    /// question stored, numbers and proofs, is taken out of the table again, so a failed
    /// long shot (the full-board claims of [`crate::value::probe_guess`]) changes no later
    /// question but for the entries it overwrote, which are not restored. The table's journal
    /// holds one record (16 bytes) per store, so a trial is meant for a question with a
    /// budget ([`Limits::max_expansions`]).
    ///
    /// # Panics
    /// As [`Solver::prove`]; a panic inside leaves the journal open (a solver that panicked
    /// is not reused).
    pub fn prove_trial(&mut self, root: &impl Root, winner: Player, komi: Komi) -> Proof {
        self.table.open_journal();
        let p = self.prove(root, winner, komi);
        self.table
            .close_journal(p.answer == Answer::Unknown, &mut self.paths[0].table);
        p
    }

    /// Answers "does `winner` win from `root` at `komi`?" (a half-integer komi)
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
    /// If `komi` is a whole number (komi must be a half-integer, so that no game is drawn),
    /// or `root` is not a position of the solver's size.
    pub fn prove(&mut self, root: &impl Root, winner: Player, komi: Komi) -> Proof {
        self.prove_line(&root.line(&self.geo), winner, komi)
    }

    /// [`Solver::prove`] on the back end's superko game.
    fn prove_line(&mut self, line: &Line, winner: Player, komi: Komi) -> Proof {
        // The search, its table and its prior count komi in half-points.
        let komi2 = komi.half_points();
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
            self.paths.push(Path::new(memo_entries(&self.table)));
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
                root_mover: mover,
            };
            // A thread that cannot start (a virtual-memory limit) leaves its counts at 0.
            for p in &mut self.paths[..threads] {
                (p.expansions, p.nodes) = (0, 0);
            }
            let (first, rest) = self.paths.split_at_mut(1);
            let results: Vec<RootResult> = if threads == 1 {
                vec![Worker::run(&q, &mut first[0], 0, line)]
            } else {
                std::thread::scope(|scope| {
                    // A helper thread the system refuses (its stack is reserved memory, and
                    // clusters limit virtual memory) is left out: the others, at least the
                    // caller's, search the question; every thread's proofs are sound alone.
                    let handles: Vec<_> = rest[..threads - 1]
                        .iter_mut()
                        .enumerate()
                        .filter_map(|(i, p)| {
                            let q = &q;
                            std::thread::Builder::new()
                                .name(format!("dfpn-{}", i + 1))
                                .stack_size(WORKER_STACK_BYTES)
                                .spawn_scoped(scope, move || Worker::run(q, p, i + 1, line))
                                .ok()
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
                Some(true) => (Pn::ZERO, Pn::INF),
                Some(false) => (Pn::INF, Pn::ZERO),
                None => (
                    Pn::new(self.paths[0].root_numbers.0),
                    Pn::new(self.paths[0].root_numbers.1),
                ),
            };
        }
        let mut answer = match result.mover_wins {
            None => Answer::Unknown,
            Some(w) => {
                if w == (mover == winner) {
                    Answer::Proven
                } else {
                    Answer::Disproven
                }
            }
        };
        let pruned_loss = pruned && answer == Answer::Disproven;
        if pruned_loss {
            answer = Answer::Unknown;
        }
        self.total_expansions += expansions;
        self.total_nodes += nodes;
        Proof {
            winner,
            komi,
            answer,
            best_move: if result.mover_wins == Some(true) && !pruned_loss {
                result.best.map(|m| reference::to_reference(&self.geo, m))
            } else {
                None
            },
            expansions,
            nodes,
            time_s: start.elapsed().as_secs_f64(),
            pruned_loss,
            pruned,
            holds: Komi::from_half_points(if result.mover_wins.is_some() {
                result.holds
            } else {
                komi2
            }),
            threads,
        }
    }
}
