//! Proof certificates: the proof the search found, written as a DAG that `crates/check`
//! verifies without trusting the solver.
//!
//! # Format
//! Version 1 of the line-oriented text format documented in the `check` crate's `format`
//! module (the checker is its reference): a header with the board, the komi, the winner and
//! the root's history (its moves from the empty board, or the setup and its earlier boards),
//! then one line per node in depth-first pre-order (and a trailer `end <nodes>`): the move reaching it, the exact board,
//! the side to move and the pass count, and the claim: `win` (the winner's chosen move is the
//! one child), `all k` (the loser's k legal moves), `end` (two passes), `eyes X* T*` (a
//! static leaf of Lemma 1), or `ref i` (the proof of an earlier node reused by Theorem 1).
//!
//! [`CertificateFormat::Compact`] writes version 2 of the same module: the same tree with a
//! node line of its move and claim only (`C3 a5`), which the checker expands; on 4x4 (Black
//! at komi 1.5, 203,456 nodes) 1.19 MB instead of 8.57 MB. Either format is written node by
//! node while the proof is extracted.
//!
//! # Memory
//! The writer holds the current line's history and the reference candidates: up to
//! `CANDIDATES` earlier complete loser's nodes per position with their Theorem 1 sets, B_w
//! as 32-bit fingerprints (a collision only declines a reference), within a bound
//! ([`write_certificate_bounded`], [`CANDIDATE_BYTES`] by default): past it the costliest
//! candidates are dropped and their positions written again where they recur.
//!
//! # Extraction (post hoc, through the public solver API)
//! The search itself is untouched, so certificates cost nothing unless asked for. After a
//! proof, [`write_certificate`] walks from the root with the real history of every line:
//!
//! - at a game end (two passes) it writes `end`;
//! - at a position with the same board, side and pass state as an earlier *complete* node
//!   whose sets pass Theorem 1 (i)–(iii) under the current history, it writes `ref`;
//! - at a pure-eye static leaf of the winner ((C1), (C2) and the area checked here on the
//!   history), `eyes`; region leaves (Appendix A.4) are not written as leaves: their
//!   subtrees are expanded into ordinary nodes, so the checker needs no region solver;
//! - at the winner's nodes it asks the solver (`Solver::prove` on the node's line; the
//!   table makes this a lookup for nodes of the proof) for a winning move, falling back to
//!   trying the legal moves one by one when the table has no best move;
//! - at the loser's nodes it writes every legal move's child.
//!
//! The sets of Theorem 1 (B_w, X with the last ply of each board, terr) are computed exactly
//! as the checker computes them (see `check::verify`); a position whose earlier copies all
//! fail the conditions is written again under the new history. If the solver answers anything
//! but a win for the winner at a winner's node, or a loser's move ends the game in the
//! loser's favour, extraction stops with [`CertificateError::Broken`]: the proof was wrong.

use crate::board::{Bitboard, Board, Geometry, Move, Point};
use crate::eyes::pure_eyes;
use crate::position::{Line, reference};
use crate::root::Root;
use crate::search::{Answer, Solver, black_wins};
use games::Player;
use games::go::Komi;
use std::collections::{HashMap, HashSet};
use std::io::Write;

/// The certificate format version of the text format (the `check` crate's `VERSION`).
pub const FORMAT_VERSION: u32 = 1;

/// The version of the compact format (the `check` crate's `COMPACT_VERSION`).
pub const COMPACT_VERSION: u32 = 2;

/// How a certificate is written (both are specified in the `check` crate's `format`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum CertificateFormat {
    /// Version 1: every node line states its board, side and passes (for people).
    #[default]
    Text,
    /// Version 2: a node line is its move and its claim only (`C3 a5`, `pass w`, `B1 e`,
    /// `A2 y`, `D4 r812`); the checker recomputes the rest. About a fifth of the text size.
    Compact,
}

/// Why no certificate was written.
#[derive(Debug, thiserror::Error)]
pub enum CertificateError {
    /// Writing failed.
    #[error("cannot write the certificate: {0}")]
    Io(#[from] std::io::Error),
    /// The solver's claim fails at a node (a bug the certificate exposed).
    #[error("the proof does not hold after moves '{path}': {why}")]
    Broken {
        /// Moves from the root.
        path: String,
        /// What failed.
        why: String,
    },
    /// The solver ran out of budget (or was cancelled) re-proving a node.
    #[error("no answer for the node after moves '{path}' (budget or interrupt)")]
    Unknown {
        /// Moves from the root.
        path: String,
    },
    /// The board is too large for exact certificates.
    #[error("certificates need a board of at most 64 points")]
    TooLarge,
}

/// Counts of a written certificate.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CertificateStats {
    /// Node lines.
    pub nodes: u64,
    /// Of those, references (`ref`).
    pub refs: u64,
    /// Game ends (`end`).
    pub ends: u64,
    /// Static leaves (`eyes`).
    pub eyes: u64,
    /// Bytes written.
    pub bytes: u64,
    /// Questions asked to the solver at the winner's nodes.
    pub questions: u64,
    /// Expansions those questions cost.
    pub expansions: u64,
    /// The most bytes the reference candidates were counted for at once.
    pub candidate_bytes: u64,
    /// Candidates dropped to stay within the bound (their positions are written again
    /// where they recur).
    pub dropped: u64,
}

/// The exact sets of Theorem 1 for one written subtree (see the module docs).
#[derive(Default)]
struct Sets {
    /// B_w as [`fingerprint`]s (see [`Candidate`]).
    bw: HashSet<u32>,
    /// Boards excluding a loser's move, with the smallest last ply at which they occurred.
    x: HashMap<Board, u32>,
    terr: Bitboard,
}

impl Sets {
    fn merge(&mut self, mut other: Sets) {
        if other.bw.len() > self.bw.len() {
            std::mem::swap(&mut self.bw, &mut other.bw);
        }
        self.bw.extend(other.bw);
        for (b, j) in other.x {
            self.add_x(b, j);
        }
        self.terr |= other.terr;
    }

    fn add_x(&mut self, b: Board, j: u32) {
        let e = self.x.entry(b).or_insert(j);
        *e = (*e).min(j);
    }
}

/// A position: board, side to move, consecutive passes.
type PositionKey = (Board, Player, u8);

/// Earlier complete nodes kept as reference candidates per position.
const CANDIDATES: usize = 4;

/// The default bound on the memory of the reference candidates, in bytes (see
/// [`write_certificate_bounded`]): 4 GiB, never reached below 4x5 (4x4 needs about 20 MB).
pub const CANDIDATE_BYTES: u64 = 4 << 30;

/// Bytes a candidate is counted for besides its sets: its slot in the map, its record and
/// the allocator's headers (an estimate; the bound is on this count).
const CANDIDATE_OVERHEAD: u64 = 128;

/// An earlier complete loser's node kept as a reference candidate, with its sets of
/// Theorem 1 held compactly: a candidate is read (by [`Writer::transfers`] and a
/// reference's contribution), never searched by key, and every loser's node of the proof is
/// one, so this is the writer's largest use of memory. B_w is kept as 32-bit fingerprints
/// of the boards: condition (i) asks that no board of the current history be in B_w, and a
/// fingerprint shared by a history board and a B_w board only makes the writer decline the
/// reference (and write the subtree again), never write one that fails; X is kept exactly
/// (its boards are added to the referring node's sets).
struct Candidate {
    /// The node's index in the certificate.
    id: u32,
    /// B_w of its subtree, as [`fingerprint`]s.
    bw: Box<[u32]>,
    /// X of its subtree (the boards only: a reference takes each at its last ply in the
    /// referring line).
    x: Box<[Board]>,
    terr: Bitboard,
}

impl Candidate {
    /// The bytes it is counted for.
    fn cost(&self) -> u64 {
        4 * self.bw.len() as u64 + 16 * self.x.len() as u64 + CANDIDATE_OVERHEAD
    }
}

/// A 32-bit fingerprint of a board (a multiply-xor mix of its two masks).
fn fingerprint(b: &Board) -> u32 {
    let h = b.black.0.wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ b.white
            .0
            .wrapping_mul(0xC2B2_AE3D_27D4_EB4F)
            .rotate_left(31);
    (h.wrapping_mul(0x1656_67B1_9E37_79F9) >> 32) as u32
}

struct Writer<'a, W: Write> {
    solver: &'a mut Solver,
    format: CertificateFormat,
    geo: Geometry,
    winner: Player,
    komi2: i32,
    out: W,
    /// Every board of the current history with the last ply it occurred at.
    last: HashMap<Board, u32>,
    depth: u32,
    /// Union of the boards so far, one entry per ply.
    ever: Vec<Board>,
    moves: Vec<Move>,
    next_id: u32,
    defs: HashMap<PositionKey, Box<[Candidate]>>,
    /// Bytes the candidates are counted for, and their bound.
    kept: u64,
    budget: u64,
    /// Candidates costing more are no longer kept (lowered when the bound is reached).
    max_cost: u64,
    stats: CertificateStats,
}

/// Writes the certificate that `winner` wins from `root` at `komi`, which
/// `solver` has just proved (or can prove: every winner's node is asked again).
///
/// The solver's budget is lifted during extraction and its questions are asked with one
/// thread; the cancel flag still stops it: once raised, the writer stops at the next node
/// with [`CertificateError::Unknown`]. The configuration is restored afterwards.
///
/// # Errors
/// [`CertificateError`]: a write error, a node the solver cannot answer (budget, interrupt),
/// a failing claim, or a board of more than 64 points.
///
/// # Panics
/// If `root` is not a position of the solver's size.
pub fn write_certificate<W: Write>(
    solver: &mut Solver,
    root: &impl Root,
    winner: Player,
    komi: Komi,
    out: W,
) -> Result<CertificateStats, CertificateError> {
    write_certificate_as(solver, root, winner, komi, out, CertificateFormat::Text)
}

/// [`write_certificate`] in the format `format`. Either format is written while the proof
/// is extracted, node by node, through a buffer (the certificate is never held in memory).
///
/// # Errors
/// As [`write_certificate`].
///
/// # Panics
/// As [`write_certificate`].
pub fn write_certificate_as<W: Write>(
    solver: &mut Solver,
    root: &impl Root,
    winner: Player,
    komi: Komi,
    out: W,
    format: CertificateFormat,
) -> Result<CertificateStats, CertificateError> {
    write_certificate_bounded(solver, root, winner, komi, out, format, CANDIDATE_BYTES)
}

/// [`write_certificate_as`] with the reference candidates' memory bounded by about
/// `budget` bytes (each counted by its sets and a fixed overhead). When the bound is
/// reached, the costliest candidates are dropped (those above half the largest cost, again
/// until they take at most half the bound) and no costlier one is kept after: positions
/// that recur are then written again instead of referenced, so the certificate grows but
/// stays valid. Below the bound the output does not depend on it.
///
/// # Errors
/// As [`write_certificate`].
///
/// # Panics
/// As [`write_certificate`].
pub fn write_certificate_bounded<W: Write>(
    solver: &mut Solver,
    root: &impl Root,
    winner: Player,
    komi: Komi,
    out: W,
    format: CertificateFormat,
    budget: u64,
) -> Result<CertificateStats, CertificateError> {
    let geo = solver.geometry().clone();
    let line = &*root.line(&geo);
    if geo.points() > 64 {
        return Err(CertificateError::TooLarge);
    }
    // The writer and the certificate count komi in half-points.
    let komi2 = komi.half_points();
    let saved = solver.config().clone();
    solver.config_mut().limits.max_expansions = 0;
    solver.config_mut().limits.max_time = None;
    solver.config_mut().progress = None;
    // One thread: almost every question is a table lookup or a few expansions, and every
    // `prove` with several threads spawns (and joins) its helper threads with their large
    // stacks, which cost far more than the question (3x4 at komi 1.5: 0.386 s with two threads
    // against 0.060 s with one, 2622 questions).
    solver.config_mut().threads = 1;
    let mut w = Writer {
        solver,
        format,
        geo,
        winner,
        komi2,
        out: std::io::BufWriter::new(CountingWriter {
            inner: out,
            bytes: 0,
        }),
        last: HashMap::new(),
        depth: 0,
        ever: Vec::new(),
        moves: Vec::new(),
        next_id: 0,
        defs: HashMap::new(),
        kept: 0,
        budget,
        max_cost: u64::MAX,
        stats: CertificateStats::default(),
    };
    let result = w.run(line);
    let bytes = w.out.get_ref().bytes;
    w.solver.config_mut().clone_from(&saved);
    let mut stats = result?;
    stats.bytes = bytes;
    Ok(stats)
}

struct CountingWriter<W: Write> {
    inner: W,
    bytes: u64,
}

impl<W: Write> Write for CountingWriter<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.bytes += n as u64;
        Ok(n)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

impl<W: Write> Writer<'_, W> {
    fn run(&mut self, line: &Line) -> Result<CertificateStats, CertificateError> {
        let geo = self.geo.clone();
        let mut header = format!(
            "tsumi-certificate {}\nsize {}x{}\nkomi {}\nwinner {}\n",
            if self.format == CertificateFormat::Compact {
                COMPACT_VERSION
            } else {
                FORMAT_VERSION
            },
            geo.rows(),
            geo.cols(),
            komi_text(self.komi2),
            self.winner.name()
        );
        let mut ever = Board::EMPTY;
        for b in &line.boards {
            self.last.insert(*b, 0);
            ever.black |= b.black;
            ever.white |= b.white;
        }
        self.ever.push(ever);
        if replays_from_empty(&geo, line) {
            header.push_str("start moves");
            for m in &line.moves {
                header.push(' ');
                header.push_str(&geo.move_name(*m));
            }
            header.push('\n');
        } else {
            let pos = line.position;
            header.push_str(&format!(
                "start setup {} {}{}\n",
                pos.board.drawing(&geo),
                side_letter(pos.to_move),
                passes(line)
            ));
            for b in line.boards.iter().filter(|b| **b != pos.board) {
                header.push_str(&format!("earlier {}\n", b.drawing(&geo)));
            }
        }
        self.out.write_all(header.as_bytes())?;
        let pos = line.position;
        let prefix = if self.format == CertificateFormat::Compact {
            "-".to_string()
        } else {
            format!(
                "- {} {}{}",
                pos.board.drawing(&geo),
                side_letter(pos.to_move),
                passes(line)
            )
        };
        self.node(line, prefix)?;
        writeln!(self.out, "end {}", self.stats.nodes)?;
        self.out.flush()?;
        Ok(self.stats)
    }

    fn path_text(&self) -> String {
        let v: Vec<String> = self.moves.iter().map(|m| self.geo.move_name(*m)).collect();
        v.join(" ")
    }

    fn broken(&self, why: impl Into<String>) -> CertificateError {
        CertificateError::Broken {
            path: self.path_text(),
            why: why.into(),
        }
    }

    /// Writes the node at the end of `line` (its line starts with `prefix`: move, board,
    /// side and passes) and its subtree; returns the subtree's sets.
    fn node(&mut self, line: &Line, prefix: String) -> Result<Sets, CertificateError> {
        let geo = self.geo.clone();
        let pos = line.position;
        let w = self.winner;
        // Ctrl-C: most questions are answered from the table without a search that would
        // see the flag, so the writer looks at it itself.
        if self.solver.config().limits.cancelled() {
            return Err(CertificateError::Unknown {
                path: self.path_text(),
            });
        }
        let id = self.next_id;
        self.next_id += 1;
        self.stats.nodes += 1;
        let mut sets = Sets::default();
        if line.over {
            let score = line.score(&geo);
            if black_wins(score, self.komi2) != (w == Player::Black) {
                return Err(self.broken(format!(
                    "the game ends with Black's margin {score}, a loss for {}",
                    w.name()
                )));
            }
            writeln!(self.out, "{prefix} {}", self.kind("end", "e"))?;
            self.stats.ends += 1;
            return Ok(sets);
        }
        let key = (pos.board, pos.to_move, passes(line));
        let hit = self.defs.get(&key).and_then(|list| {
            let history = self.history_prints();
            list.iter().position(|c| self.transfers(c, &history))
        });
        if let Some(k) = hit {
            let t = self.defs[&key][k].id;
            writeln!(self.out, "{prefix} {}{t}", self.kind("ref ", "r"))?;
            let c = &self.defs[&key][k];
            for b in c.x.iter() {
                sets.add_x(*b, self.last[b]);
            }
            sets.bw.extend(c.bw.iter().copied());
            sets.terr = c.terr;
            self.stats.refs += 1;
            return Ok(sets);
        }
        // (C2): not after the winner's own pass with the opponent to move.
        if !(pos.passed && pos.to_move != w) {
            let pe = pure_eyes(&geo, &pos.board, w);
            let ever = self.ever.last().expect("the root's entry").stones(w);
            if area_wins(pe.area(), geo.points(), w, self.komi2) && (pe.territory & ever).is_empty()
            {
                if self.format == CertificateFormat::Compact {
                    writeln!(self.out, "{prefix} y")?;
                } else {
                    writeln!(
                        self.out,
                        "{prefix} eyes {} {}",
                        set_drawing(&geo, pe.alive),
                        set_drawing(&geo, pe.territory)
                    )?;
                }
                self.stats.eyes += 1;
                sets.terr = pe.territory;
                return Ok(sets);
            }
        }
        if pos.to_move == w {
            let m = self.choose(line)?;
            writeln!(self.out, "{prefix} {}", self.kind("win", "w"))?;
            let mut child = line.clone();
            child
                .play(&geo, m)
                .map_err(|e| self.broken(format!("the solver's move: {e}")))?;
            sets = self.descend(&child, m)?;
            if !m.is_pass() {
                sets.bw.insert(fingerprint(&child.position.board));
            }
        } else {
            let moves = line.legal_moves(&geo);
            for p in 0..geo.points() {
                let pt = Point(p as u8);
                if pos.board.at(pt).is_some() {
                    continue;
                }
                if let Some(placed) = pos.board.place(&geo, pos.to_move, pt)
                    && let Some(&j) = self.last.get(&placed.board)
                {
                    sets.add_x(placed.board, j);
                }
            }
            writeln!(
                self.out,
                "{prefix} {}{}",
                self.kind("all ", "a"),
                moves.len()
            )?;
            for m in moves {
                let mut child = line.clone();
                child
                    .play(&geo, m)
                    .map_err(|e| self.broken(e.to_string()))?;
                let s = self.descend(&child, m)?;
                sets.merge(s);
            }
        }
        let d = self.depth;
        sets.x.retain(|_, j| *j <= d);
        if pos.to_move != w && self.defs.get(&key).is_none_or(|l| l.len() < CANDIDATES) {
            let c = Candidate {
                id,
                bw: sets.bw.iter().copied().collect(),
                x: sets.x.keys().copied().collect(),
                terr: sets.terr,
            };
            self.keep(key, c);
        }
        Ok(sets)
    }

    /// Whether the earlier proof of candidate `c` transfers to the current history
    /// (Theorem 1), `history` being the sorted fingerprints of the history's boards.
    fn transfers(&self, c: &Candidate, history: &[u32]) -> bool {
        let ever = self
            .ever
            .last()
            .expect("the root's entry")
            .stones(self.winner);
        c.bw.iter().all(|f| history.binary_search(f).is_err())
            && c.x.iter().all(|b| self.last.contains_key(b))
            && (ever & c.terr).is_empty()
    }

    /// The sorted fingerprints of the current history's boards.
    fn history_prints(&self) -> Vec<u32> {
        let mut v: Vec<u32> = self.last.keys().map(fingerprint).collect();
        v.sort_unstable();
        v
    }

    /// Keeps candidate `c` for position `key` within the bound (see
    /// [`write_certificate_bounded`]).
    fn keep(&mut self, key: PositionKey, c: Candidate) {
        let cost = c.cost();
        if cost > self.max_cost {
            return;
        }
        if self.kept + cost > self.budget {
            self.shrink();
            if cost > self.max_cost || self.kept + cost > self.budget {
                return;
            }
        }
        let list = self.defs.entry(key).or_default();
        let mut v = std::mem::take(list).into_vec();
        v.push(c);
        *list = v.into_boxed_slice();
        self.kept += cost;
        self.stats.candidate_bytes = self.stats.candidate_bytes.max(self.kept);
    }

    /// Drops the costliest candidates until they take at most half the bound: the largest
    /// cost allowed is halved, and the candidates above it dropped, as often as needed.
    fn shrink(&mut self) {
        let largest = self
            .defs
            .values()
            .flat_map(|l| l.iter().map(Candidate::cost))
            .max()
            .unwrap_or(0);
        self.max_cost = self.max_cost.min(largest);
        while self.kept > self.budget / 2 && self.max_cost > CANDIDATE_OVERHEAD {
            self.max_cost /= 2;
            let m = self.max_cost;
            let (mut kept, mut dropped) = (0, 0);
            self.defs.retain(|_, list| {
                if list.iter().any(|c| c.cost() > m) {
                    let mut v = std::mem::take(list).into_vec();
                    let before = v.len();
                    v.retain(|c| c.cost() <= m);
                    dropped += (before - v.len()) as u64;
                    *list = v.into_boxed_slice();
                }
                kept += list.iter().map(Candidate::cost).sum::<u64>();
                !list.is_empty()
            });
            self.kept = kept;
            self.stats.dropped += dropped;
        }
    }

    /// Enters the child `child` reached by `m`, writes it, and leaves.
    fn descend(&mut self, child: &Line, m: Move) -> Result<Sets, CertificateError> {
        let geo = &self.geo;
        let pos = child.position;
        let prefix = if self.format == CertificateFormat::Compact {
            geo.move_name(m)
        } else {
            format!(
                "{} {} {}{}",
                geo.move_name(m),
                pos.board.drawing(geo),
                side_letter(pos.to_move),
                passes(child)
            )
        };
        self.depth += 1;
        let old = self.last.insert(pos.board, self.depth);
        let e = *self.ever.last().expect("the root's entry");
        self.ever.push(Board {
            black: e.black | pos.board.black,
            white: e.white | pos.board.white,
        });
        self.moves.push(m);
        let r = self.node(child, prefix);
        self.moves.pop();
        self.ever.pop();
        match old {
            Some(j) => self.last.insert(pos.board, j),
            None => self.last.remove(&pos.board),
        };
        self.depth -= 1;
        r
    }

    /// A node kind's word in the text format or its letter in the compact one.
    fn kind(&self, text: &'static str, compact: &'static str) -> &'static str {
        if self.format == CertificateFormat::Compact {
            compact
        } else {
            text
        }
    }

    /// A winning move of the winner at the end of `line`, from the solver.
    fn choose(&mut self, line: &Line) -> Result<Move, CertificateError> {
        let geo = self.geo.clone();
        let (w, k) = (self.winner, self.komi2);
        let p = self.ask(line)?;
        if let Some(m) = p
            && line.is_legal(&geo, m)
        {
            return Ok(m);
        }
        // No usable best move in the table: find a winning child.
        for m in line.legal_moves(&geo) {
            let mut child = line.clone();
            child
                .play(&geo, m)
                .map_err(|e| self.broken(e.to_string()))?;
            if child.over {
                if black_wins(child.score(&geo), k) == (w == Player::Black) {
                    return Ok(m);
                }
                continue;
            }
            let q = self.solver.prove(&child, w, Komi::from_half_points(k));
            self.stats.questions += 1;
            self.stats.expansions += q.expansions;
            if q.answer == Answer::Proven {
                return Ok(m);
            }
        }
        Err(self.broken(format!(
            "the solver proves {}'s win here but no move wins",
            w.name()
        )))
    }

    /// Asks the solver whether the winner wins at the end of `line`; its best move if so.
    fn ask(&mut self, line: &Line) -> Result<Option<Move>, CertificateError> {
        let (w, k) = (self.winner, self.komi2);
        let mut p = self.solver.prove(line, w, Komi::from_half_points(k));
        self.stats.questions += 1;
        self.stats.expansions += p.expansions;
        if p.pruned_loss {
            // Pruning is incomplete: ask again unpruned.
            self.solver.config_mut().prune = false;
            p = self.solver.prove(line, w, Komi::from_half_points(k));
            self.stats.questions += 1;
            self.stats.expansions += p.expansions;
        }
        match p.answer {
            Answer::Proven => Ok(p.best_move.map(|m| reference::to_fast(&self.geo, m))),
            Answer::Disproven => {
                Err(self.broken(format!("the solver now finds a loss for {}", w.name())))
            }
            Answer::Unknown => Err(CertificateError::Unknown {
                path: self.path_text(),
            }),
        }
    }
}

/// Whether a final area of `area` points wins for `w` on `points` points at komi `komi2`/2.
fn area_wins(area: u32, points: usize, w: Player, komi2: i32) -> bool {
    let (a, n, k) = (i64::from(area), points as i64, i64::from(komi2));
    if w == Player::Black {
        4 * a - 2 * n > k
    } else {
        2 * n - 4 * a < k
    }
}

/// A point set drawn like a board: '#' in the set, '.' not, rows from the top.
fn set_drawing(geo: &Geometry, set: Bitboard) -> String {
    let mut s = String::new();
    for r in (0..geo.rows()).rev() {
        for c in 0..geo.cols() {
            s.push(if set.contains(geo.point(r, c)) {
                '#'
            } else {
                '.'
            });
        }
        if r > 0 {
            s.push('/');
        }
    }
    s
}

fn side_letter(p: Player) -> char {
    if p == Player::Black { 'b' } else { 'w' }
}

fn passes(line: &Line) -> u8 {
    if line.over {
        2
    } else {
        u8::from(line.position.passed)
    }
}

/// Komi in half-points as "1.5" or "-0.5".
fn komi_text(komi2: i32) -> String {
    let sign = if komi2 < 0 { "-" } else { "" };
    let a = komi2.unsigned_abs();
    if a.is_multiple_of(2) {
        format!("{sign}{}", a / 2)
    } else {
        format!("{sign}{}.5", a / 2)
    }
}

/// Whether `line` is its moves played from the empty board (so the header can name them).
fn replays_from_empty(geo: &Geometry, line: &Line) -> bool {
    let mut l = Line::new();
    for &m in &line.moves {
        if l.play(geo, m).is_err() {
            return false;
        }
    }
    l.position == line.position
        && l.over == line.over
        && l.boards.len() == line.boards.len()
        && l.boards.iter().all(|b| line.boards.contains(b))
}
