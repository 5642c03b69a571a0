//! Checking a certificate: every history rebuilt, every claim recomputed.
//!
//! The walk follows the certificate's tree (each node's *defining* occurrence, in the file's
//! pre-order) from the root, keeping the real history of the line: the set of boards, the
//! last ply at which each board occurred, and every point where each colour ever had a stone.
//! At each node it recomputes the position from the parent's move and checks the claim:
//!
//! - `win`: the winner's move is legal under positional superko (point empty, not suicide,
//!   result board not in the history).
//! - `all`: a child for every legal move of the loser, the pass included; no child for an
//!   illegal one. A stone move left out must be superko-illegal (or occupied, or suicide).
//! - `end`: two passes, and the area score wins for the winner at the komi.
//! - `eyes`: the checker's own pure-eye analysis equals the stated X* and T*, (C1) no winner
//!   stone ever stood on T* in the history, (C2) the last move was not the winner's pass
//!   with the opponent to move, and |X*| + |T*| wins at the komi (Lemma 1).
//! - `ref i`: node i is complete, has the same position, and its proof T transfers to this
//!   history H' by Theorem 1: (i) B_w(T) ∩ H' = ∅, (ii) X(T) ⊆ H', (iii) cap_w(H') ∩
//!   terr(T) = ∅.
//!
//! # The sets of Theorem 1, exactly
//! For the subtree T of a node u at ply d (references inlined), computed bottom-up:
//! - B_w(T): the boards created by the winner's stone moves in T.
//! - X(T): the boards that make a loser's stone move at some node v of T illegal and do not
//!   lie on the line from u to v (u's own board excluded): the boards of u's history that the
//!   proof relies on. A board's occurrences on a line are consecutive (only passes repeat a
//!   board), so X keeps each board with the last ply it occurred at and u keeps those at
//!   plies ≤ d.
//! - terr(T): the union of the T* of T's static leaves.
//! - cap_w(H'): a winner stone was captured on a point p of T* (which holds no winner stone)
//!   exactly when some board of the history has a winner stone on p, so the checker uses the
//!   union of the winner's stones over H'.
//!
//! A reference contributes its target's B_w and terr and those boards of X(T) that lie in
//! H' (each at its last ply in the current line). These are the invariants (a)–(c) of the
//! paper's Appendix A.2, so a proof that inlines a reference is checked again, exactly, when
//! it is itself referenced. References must point to earlier, complete nodes: the DAG has no
//! cycles and every subtree is checked once, under the history of its defining occurrence.
//!
//! # The walk is iterative
//! The checker keeps its own stack of open nodes (one frame a ply, a few dozen bytes), so a
//! line of any length is checked on a small thread stack: no call recursion per ply.
//!
//! # The verdict names the root exactly
//! The position a certificate proves is its board, the side to move, the passes just played
//! (a finished game after two) and the boards of its history: the verdict prints all of it
//! (see [`Verdict::position`]), so two valid certificates of different positions never print
//! the same text.

use crate::eyes::{Analysis, analyse, area_wins};
use crate::format::{Certificate, Kind, Limits, ParseError, Start, Step, komi_text, parse_reader};
use crate::rules::{Board, Color, Geometry, Illegal};
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

/// What a valid certificate proves, with counts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// The player proved to win.
    pub winner: Color,
    /// Komi in half-points.
    pub komi2: i32,
    /// The root, exactly: "the empty 4x4 board", "4x4 after B2 C3, black to move", "the
    /// finished 2x2 game after pass pass", or for a setup its board, side to move, passes
    /// and earlier boards (drawn when at most three, else counted with the digest of
    /// [`history_digest`]).
    pub position: String,
    /// Node lines checked.
    pub nodes: usize,
    /// Of those, references checked by Theorem 1.
    pub refs: usize,
    /// Terminal leaves.
    pub ends: usize,
    /// Static (pure-eye) leaves.
    pub eyes: usize,
    /// The deepest node's ply below the root.
    pub depth: u32,
    /// Rows of the certificate's board.
    pub rows: usize,
    /// Columns of the certificate's board.
    pub cols: usize,
}

impl std::fmt::Display for Verdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "valid: {} wins at komi {} from {}",
            self.winner.name(),
            komi_text(self.komi2),
            self.position
        )
    }
}

/// The first node at which a certificate fails.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// The node's index (0 the root).
    pub node: u32,
    /// Its 1-based line in the file.
    pub line: usize,
    /// The moves from the root to it.
    pub path: Vec<String>,
    /// Why it fails.
    pub reason: String,
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let path = match self.path.len() {
            0 => "the root".to_string(),
            n if n <= 40 => self.path.join(" "),
            n => format!(
                "{} ... {} ({n} plies)",
                self.path[..8].join(" "),
                self.path[n - 8..].join(" ")
            ),
        };
        write!(
            f,
            "invalid: node {} (line {}), path {}: {}",
            self.node, self.line, path, self.reason
        )
    }
}

/// A certificate that is unreadable, does not prove its claim, or exceeds a bound.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CheckError {
    /// The text does not follow the format (or a read bound of [`Limits`] was passed).
    Parse(ParseError),
    /// A node's claim fails.
    Invalid(Failure),
    /// Checking would hold more than [`Limits::max_stored_boards`] boards (the message says
    /// at which node); the certificate is neither accepted nor refuted.
    Limit(String),
}

impl std::fmt::Display for CheckError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CheckError::Parse(e) => write!(f, "unreadable certificate: {e}"),
            CheckError::Invalid(e) => e.fmt(f),
            CheckError::Limit(e) => write!(f, "not checked: {e}"),
        }
    }
}

impl std::error::Error for CheckError {}

/// Parses and checks a certificate held in memory, with the default [`Limits`].
///
/// # Errors
/// [`CheckError::Parse`] for a file that does not follow the format, [`CheckError::Invalid`]
/// with the first failing node otherwise, [`CheckError::Limit`] past a bound.
pub fn check_text(text: &str) -> Result<Verdict, CheckError> {
    check_reader(text.as_bytes(), Limits::default())
}

/// Parses a certificate from a stream within `limits` and checks it.
///
/// # Errors
/// As [`check_text`]; a read error is a [`CheckError::Parse`] naming the line.
pub fn check_reader<R: std::io::BufRead>(r: R, limits: Limits) -> Result<Verdict, CheckError> {
    let cert = parse_reader(r, limits).map_err(CheckError::Parse)?;
    check_with(&cert, limits)
}

/// The digest of a setup's earlier boards that a verdict prints: FNV-1a (64 bits, offset
/// basis 0xcbf29ce484222325, prime 0x100000001b3) over the distinct earlier boards other than
/// the root's own, drawn as in the file, sorted as strings, each followed by `\n`; printed as
/// 16 hex digits. It identifies the history as a set, whatever order the file lists it in.
#[must_use]
pub fn history_digest(geo: &Geometry, root: &Board, earlier: &[Board]) -> u64 {
    let mut drawn: Vec<String> = earlier
        .iter()
        .filter(|b| *b != root)
        .map(|b| geo.draw(b))
        .collect();
    drawn.sort_unstable();
    drawn.dedup();
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for d in &drawn {
        for &b in d.as_bytes().iter().chain(b"\n") {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    h
}

/// A position: board, player to move, consecutive passes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Pos {
    pub(crate) board: Board,
    pub(crate) to_move: Color,
    pub(crate) passes: u8,
}

/// The sets of Theorem 1 for one subtree (see the module docs).
#[derive(Default)]
pub(crate) struct Summary {
    pub(crate) bw: HashSet<Board>,
    /// X(T): each board with the smallest "last ply" at which it excluded a move.
    pub(crate) x: HashMap<Board, u32>,
    pub(crate) terr: u64,
}

impl Summary {
    pub(crate) fn merge(&mut self, mut other: Summary) {
        if other.bw.len() > self.bw.len() {
            std::mem::swap(&mut self.bw, &mut other.bw);
        }
        self.bw.extend(other.bw);
        if other.x.len() > self.x.len() {
            std::mem::swap(&mut self.x, &mut other.x);
        }
        for (b, j) in other.x {
            self.add_x(b, j);
        }
        self.terr |= other.terr;
    }

    pub(crate) fn add_x(&mut self, b: Board, j: u32) {
        let e = self.x.entry(b).or_insert(j);
        *e = (*e).min(j);
    }
}

/// An open node of the walk: entered, its children not all checked.
struct Frame {
    id: u32,
    pos: Pos,
    /// The sets of the children checked so far (and the node's own contribution).
    sum: Summary,
    /// The position in the node's child list of the next child to enter.
    next: usize,
    /// The ply at which the board last occurred before this node (restored on leaving).
    old_last: Option<u32>,
}

/// What entering a node found.
enum Entered {
    /// A leaf (`end`, `eyes`, `ref`): its sets are complete.
    Leaf(Summary),
    /// A node with children (`win`, `all`): its own contribution so far.
    Inner(Summary),
}

/// What a node's stated position gives by the stone rules alone (no history), computed
/// before the walk on several threads. The walk uses it only at a node whose parent's stated
/// position it has verified (and, for `legal` and `eyes`, the node's own), so it equals what
/// the walk would compute there.
#[derive(Clone, Copy, Default)]
struct Pre {
    /// A stone move's board from the parent's stated position, or why it is illegal.
    made: Option<Result<Board, Illegal>>,
    /// `all` nodes: the points where the side to move may place a stone (superko aside).
    legal: u64,
    /// `eyes` nodes: the pure-eye analysis of the stated board for the winner.
    eyes: Analysis,
}

/// The [`Pre`] of every node, on `threads` threads (0: as many as the machine has).
fn prepass(cert: &Certificate, threads: usize) -> Vec<Pre> {
    let nodes = &cert.nodes;
    let geo = &cert.geo;
    let mut parent = vec![u32::MAX; nodes.len()];
    for (i, n) in nodes.iter().enumerate() {
        for &c in &n.children {
            parent[c as usize] = i as u32;
        }
    }
    let threads = match threads {
        // Small certificates are not worth a thread's start.
        0 if nodes.len() < 1 << 14 => 1,
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        t => t,
    };
    let mut pre = vec![Pre::default(); nodes.len()];
    let chunk = nodes.len().div_ceil(threads.max(1)).max(1);
    let one = |i: usize| {
        let n = &nodes[i];
        let mut out = Pre::default();
        if let (Step::Stone(p), Some(pn)) = (n.step, nodes.get(parent[i] as usize)) {
            out.made = Some(geo.play(&pn.board, pn.to_move, p));
        }
        match n.kind {
            Kind::All(_) => {
                out.legal = (0..geo.points())
                    .filter(|&p| geo.play(&n.board, n.to_move, p).is_ok())
                    .fold(0, |m, p| m | 1 << p);
            }
            Kind::Eyes { .. } => out.eyes = analyse(geo, &n.board, cert.winner),
            _ => {}
        }
        out
    };
    if threads <= 1 {
        for (i, slot) in pre.iter_mut().enumerate() {
            *slot = one(i);
        }
        return pre;
    }
    std::thread::scope(|scope| {
        for (k, part) in pre.chunks_mut(chunk).enumerate() {
            let one = &one;
            scope.spawn(move || {
                for (j, slot) in part.iter_mut().enumerate() {
                    *slot = one(k * chunk + j);
                }
            });
        }
    });
    pre
}

struct Walker<'a> {
    cert: &'a Certificate,
    pre: Vec<Pre>,
    geo: &'a Geometry,
    w: Color,
    limits: Limits,
    /// Every board of the current history with the last ply it occurred at.
    last: HashMap<Board, u32>,
    depth: u32,
    /// Union of the boards of the history so far (stack, one per ply).
    ever: Vec<Board>,
    path: Vec<String>,
    done: Vec<bool>,
    referenced: Vec<bool>,
    stored: HashMap<u32, Rc<Summary>>,
    stored_boards: u64,
    verdict: Verdict,
}

/// Checks a parsed certificate with the default [`Limits`].
///
/// # Errors
/// [`CheckError::Invalid`] with the first failing node (in the checker's walk, which is the
/// file's order), or [`CheckError::Limit`].
pub fn check(cert: &Certificate) -> Result<Verdict, CheckError> {
    check_with(cert, Limits::default())
}

/// Checks a parsed certificate within `limits` (only `max_stored_boards` applies here).
///
/// # Errors
/// As [`check`].
pub fn check_with(cert: &Certificate, limits: Limits) -> Result<Verdict, CheckError> {
    let geo = &cert.geo;
    let mut referenced = vec![false; cert.nodes.len()];
    for n in &cert.nodes {
        if let Kind::Ref(t) = n.kind
            && let Some(r) = referenced.get_mut(t as usize)
        {
            *r = true;
        }
    }
    let mut wk = Walker {
        cert,
        pre: prepass(cert, limits.threads),
        geo,
        w: cert.winner,
        limits,
        last: HashMap::new(),
        depth: 0,
        ever: Vec::new(),
        path: Vec::new(),
        done: vec![false; cert.nodes.len()],
        referenced,
        stored: HashMap::new(),
        stored_boards: 0,
        verdict: Verdict {
            winner: cert.winner,
            komi2: cert.komi2,
            position: String::new(),
            nodes: 0,
            refs: 0,
            ends: 0,
            eyes: 0,
            depth: 0,
            rows: geo.rows(),
            cols: geo.cols(),
        },
    };
    if cert.nodes.is_empty() {
        return Err(CheckError::Invalid(Failure {
            node: 0,
            line: 0,
            path: Vec::new(),
            reason: "the certificate has no nodes".into(),
        }));
    }
    let root = wk.start()?;
    wk.walk(root)?;
    Ok(wk.verdict)
}

impl Walker<'_> {
    fn fail<T>(&self, node: u32, reason: impl Into<String>) -> Result<T, CheckError> {
        Err(CheckError::Invalid(Failure {
            node,
            line: self.cert.nodes.get(node as usize).map_or(0, |n| n.line),
            path: self.path.clone(),
            reason: reason.into(),
        }))
    }

    fn step_name(&self, s: Step) -> String {
        step_name(self.geo, s)
    }

    /// Rebuilds the root's history and names the root exactly; returns the root position.
    fn start(&mut self) -> Result<Pos, CheckError> {
        match root_history(self.geo, &self.cert.start, &mut self.last) {
            Ok((pos, ever, position)) => {
                self.verdict.position = position;
                self.ever.push(ever);
                Ok(pos)
            }
            Err(reason) => self.fail(0, reason),
        }
    }

    /// Enters a child reached by `step` at `pos` one ply deeper: the history grows.
    fn push_history(&mut self, pos: Pos, step: Step) -> Option<u32> {
        self.depth += 1;
        self.verdict.depth = self.verdict.depth.max(self.depth);
        let old = self.last.insert(pos.board, self.depth);
        let e = *self.ever.last().expect("the root's entry");
        self.ever.push(Board {
            black: e.black | pos.board.black,
            white: e.white | pos.board.white,
        });
        self.path.push(self.step_name(step));
        old
    }

    /// Leaves a child entered by [`Walker::push_history`].
    fn pop_history(&mut self, board: Board, old: Option<u32>) {
        self.path.pop();
        self.ever.pop();
        match old {
            Some(j) => self.last.insert(board, j),
            None => self.last.remove(&board),
        };
        self.depth -= 1;
    }

    /// The position after child `c`'s move from `pos` (its parent's position), or why the
    /// move is illegal here.
    fn after(&self, pos: Pos, c: u32) -> Result<Pos, String> {
        let step = self.cert.nodes[c as usize].step;
        match step {
            Step::Root => Err("'-' is not a move".into()),
            Step::Pass => Ok(Pos {
                board: pos.board,
                to_move: pos.to_move.other(),
                passes: pos.passes + 1,
            }),
            Step::Stone(p) => {
                let name = self.geo.point_name(p);
                let made = self.pre[c as usize]
                    .made
                    .unwrap_or_else(|| self.geo.play(&pos.board, pos.to_move, p));
                let b = made.map_err(|why| format!("move {name} is {}", illegal_name(why)))?;
                if self.last.contains_key(&b) {
                    return Err(format!(
                        "move {name} repeats an earlier board (positional superko)"
                    ));
                }
                Ok(Pos {
                    board: b,
                    to_move: pos.to_move.other(),
                    passes: 0,
                })
            }
        }
    }

    /// The walk over the certificate's tree in pre-order, with an explicit stack of open
    /// nodes: a node is entered (its own claim checked), its children are checked one by
    /// one under the grown history, and on leaving its sets go to its parent.
    fn walk(&mut self, root: Pos) -> Result<(), CheckError> {
        let cert = self.cert;
        let mut stack: Vec<Frame> = Vec::new();
        match self.enter(0, root)? {
            Entered::Leaf(sum) => {
                self.finish(0, sum)?;
                return Ok(());
            }
            Entered::Inner(sum) => stack.push(Frame {
                id: 0,
                pos: root,
                sum,
                next: 0,
                old_last: None,
            }),
        }
        loop {
            let top = stack
                .last_mut()
                .expect("the walk ends when the root is left");
            let node = &cert.nodes[top.id as usize];
            if let Some(&c) = node.children.get(top.next) {
                top.next += 1;
                let step = cert.nodes[c as usize].step;
                let child = match self.after(top.pos, c) {
                    Ok(child) => child,
                    Err(why) if node.kind == Kind::Win => {
                        return self.fail(c, format!("the winner's {why}"));
                    }
                    Err(why) => return self.fail(c, format!("a child for an illegal move: {why}")),
                };
                let old = self.push_history(child, step);
                match self.enter(c, child)? {
                    Entered::Leaf(sum) => {
                        let sum = self.finish(c, sum)?;
                        self.pop_history(child.board, old);
                        let top = stack.last_mut().expect("the parent");
                        fold(cert, top, c, child, sum);
                    }
                    Entered::Inner(sum) => stack.push(Frame {
                        id: c,
                        pos: child,
                        sum,
                        next: 0,
                        old_last: old,
                    }),
                }
            } else {
                let f = stack.pop().expect("the top");
                let sum = self.finish(f.id, f.sum)?;
                let Some(top) = stack.last_mut() else {
                    return Ok(());
                };
                self.pop_history(f.pos.board, f.old_last);
                fold(cert, top, f.id, f.pos, sum);
            }
        }
    }

    /// Checks the claim of node `id` at `pos` (the position the moves give) before its
    /// children.
    fn enter(&mut self, id: u32, pos: Pos) -> Result<Entered, CheckError> {
        let cert = self.cert;
        let geo = self.geo;
        let node = &cert.nodes[id as usize];
        self.verdict.nodes += 1;
        let stated = Pos {
            board: node.board,
            to_move: node.to_move,
            passes: node.passes,
        };
        if stated != pos {
            return self.fail(
                id,
                format!(
                    "the node states {} {}{} but the moves give {} {}{}",
                    geo.draw(&stated.board),
                    side_letter(stated.to_move),
                    stated.passes,
                    geo.draw(&pos.board),
                    side_letter(pos.to_move),
                    pos.passes
                ),
            );
        }
        if pos.passes == 2 && node.kind != Kind::End {
            return self.fail(id, "two passes ended the game here: the node must be 'end'");
        }
        let w = self.w;
        let mut sum = Summary::default();
        match node.kind {
            Kind::End => {
                if pos.passes != 2 {
                    return self.fail(id, "'end' but the game is not over (two passes end it)");
                }
                let score = geo.area_score(&pos.board);
                let black = 2 * score > cert.komi2;
                if black != (w == Color::Black) {
                    return self.fail(
                        id,
                        format!(
                            "the game ends with Black's area margin {score}, a loss for {} at komi {}",
                            w.name(),
                            komi_text(cert.komi2)
                        ),
                    );
                }
                self.verdict.ends += 1;
                Ok(Entered::Leaf(sum))
            }
            Kind::Eyes { alive, territory } => {
                if pos.passes == 1 && pos.to_move != w {
                    return self.fail(
                        id,
                        format!(
                            "static leaf after {}'s own pass with {} to move: (C2) fails",
                            w.name(),
                            w.other().name()
                        ),
                    );
                }
                let a = self.pre[id as usize].eyes;
                if a.alive != alive || a.territory != territory {
                    return self.fail(
                        id,
                        format!(
                            "the pure-eye analysis gives X* {} and T* {}, the node states {} and {}",
                            geo.draw_set(a.alive),
                            geo.draw_set(a.territory),
                            geo.draw_set(alive),
                            geo.draw_set(territory)
                        ),
                    );
                }
                let ever = self.ever.last().expect("root entry").stones(w);
                if ever & a.territory != 0 {
                    return self.fail(
                        id,
                        format!(
                            "(C1) fails: a {} stone stood on T* point(s) {} earlier in the history",
                            w.name(),
                            geo.draw_set(ever & a.territory)
                        ),
                    );
                }
                if !area_wins(a.area(), geo.points(), w, cert.komi2) {
                    return self.fail(
                        id,
                        format!(
                            "the certified area {} does not win for {} at komi {}",
                            a.area(),
                            w.name(),
                            komi_text(cert.komi2)
                        ),
                    );
                }
                sum.terr = a.territory;
                self.verdict.eyes += 1;
                Ok(Entered::Leaf(sum))
            }
            Kind::Ref(t) => {
                if t >= id || !self.done[t as usize] {
                    return self.fail(
                        id,
                        format!("reference to node {t}, which is not an earlier complete node"),
                    );
                }
                let tn = &cert.nodes[t as usize];
                if (tn.board, tn.to_move, tn.passes) != (pos.board, pos.to_move, pos.passes) {
                    return self.fail(
                        id,
                        format!("reference to node {t}, which has another position"),
                    );
                }
                let target = Rc::clone(&self.stored[&t]);
                self.theorem1(id, t, &target, &mut sum)?;
                self.verdict.refs += 1;
                Ok(Entered::Leaf(sum))
            }
            Kind::Win => {
                if pos.to_move != w {
                    return self.fail(
                        id,
                        format!(
                            "'win' at a node where {} (the loser) is to move",
                            pos.to_move.name()
                        ),
                    );
                }
                Ok(Entered::Inner(sum))
            }
            Kind::All(_) => {
                if pos.to_move == w {
                    return self.fail(
                        id,
                        format!("'all' at a node where {} (the winner) is to move", w.name()),
                    );
                }
                self.loser_moves(id, pos, &mut sum)?;
                Ok(Entered::Inner(sum))
            }
        }
    }

    /// Leaves node `id` whose subtree is checked: keeps the excluding boards of its history
    /// (plies ≤ its own), marks it complete and keeps its sets if it is referenced.
    fn finish(&mut self, id: u32, mut sum: Summary) -> Result<Summary, CheckError> {
        let d = self.depth;
        sum.x.retain(|_, j| *j <= d);
        self.done[id as usize] = true;
        if self.referenced[id as usize] {
            self.stored_boards += (sum.bw.len() + sum.x.len()) as u64;
            if self.stored_boards > self.limits.max_stored_boards {
                return Err(CheckError::Limit(format!(
                    "at node {id} (line {}), the Theorem 1 sets of referenced nodes hold more than {} boards (the bound on what the checker keeps)",
                    self.cert.nodes[id as usize].line, self.limits.max_stored_boards
                )));
            }
            let copy = Summary {
                bw: sum.bw.clone(),
                x: sum.x.clone(),
                terr: sum.terr,
            };
            self.stored.insert(id, Rc::new(copy));
        }
        Ok(sum)
    }

    /// A loser's node: a child for every legal move, none for an illegal one (the children
    /// themselves are checked by the walk); the boards excluding a move go into `sum`.
    fn loser_moves(&self, id: u32, pos: Pos, sum: &mut Summary) -> Result<(), CheckError> {
        let cert = self.cert;
        let geo = self.geo;
        let node = &cert.nodes[id as usize];
        let mut seen_pass = false;
        let mut seen = 0u64;
        for &c in &node.children {
            match cert.nodes[c as usize].step {
                Step::Pass if !seen_pass => seen_pass = true,
                Step::Stone(p) if seen >> p & 1 == 0 => seen |= 1 << p,
                s => {
                    return self.fail(
                        c,
                        format!("a second child for the loser's move {}", self.step_name(s)),
                    );
                }
            }
        }
        if !seen_pass {
            return self.fail(
                id,
                format!(
                    "the loser's pass (always legal) has no child; {} is to move",
                    pos.to_move.name()
                ),
            );
        }
        let mut missing = self.pre[id as usize].legal & !seen;
        while missing != 0 {
            let p = missing.trailing_zeros() as usize;
            missing &= missing - 1;
            match geo.play(&pos.board, pos.to_move, p) {
                Err(_) => {}
                Ok(b) => match self.last.get(&b) {
                    Some(&j) => sum.add_x(b, j),
                    None => {
                        return self.fail(
                            id,
                            format!("the loser's legal move {} has no child", geo.point_name(p)),
                        );
                    }
                },
            }
        }
        Ok(())
    }

    /// Theorem 1 (i)–(iii) for reusing node `t`'s proof (sets `target`) at node `id` under
    /// the current history; adds the reference's contribution to `sum`.
    fn theorem1(
        &self,
        id: u32,
        t: u32,
        target: &Summary,
        sum: &mut Summary,
    ) -> Result<(), CheckError> {
        let geo = self.geo;
        // (i) by the smaller side: the history or the proof's winner boards.
        let hit = if target.bw.len() <= self.last.len() {
            target.bw.iter().find(|b| self.last.contains_key(b))
        } else {
            self.last.keys().find(|b| target.bw.contains(b))
        };
        if let Some(b) = hit {
            return self.fail(
                id,
                format!(
                    "reference to node {t} violates Theorem 1 (i): the winner's board {} of that proof is in this history",
                    geo.draw(b)
                ),
            );
        }
        // (ii): X(T) ⊆ H'; more boards than the history holds cannot all lie in it.
        let missing = if target.x.len() > self.last.len() {
            target.x.keys().find(|b| !self.last.contains_key(b))
        } else {
            None
        };
        for b in missing.into_iter().chain(target.x.keys()) {
            match self.last.get(b) {
                Some(&j) => sum.add_x(*b, j),
                None => {
                    return self.fail(
                        id,
                        format!(
                            "reference to node {t} violates Theorem 1 (ii): its proof relies on board {} excluding a loser's move, and that board is not in this history",
                            geo.draw(b)
                        ),
                    );
                }
            }
        }
        let ever = self.ever.last().expect("root entry").stones(self.w);
        if ever & target.terr != 0 {
            return self.fail(
                id,
                format!(
                    "reference to node {t} violates Theorem 1 (iii): a {} stone stood on certified territory {} in this history",
                    self.w.name(),
                    geo.draw_set(ever & target.terr)
                ),
            );
        }
        sum.bw.extend(target.bw.iter().copied());
        sum.terr |= target.terr;
        Ok(())
    }
}

/// Rebuilds the history of `start` into `last` (every board at ply 0); returns the root
/// position, the union of the history's boards and the root's exact name, or why the start
/// is not a position.
pub(crate) fn root_history(
    geo: &Geometry,
    start: &Start,
    last: &mut HashMap<Board, u32>,
) -> Result<(Pos, Board, String), String> {
    let mut ever = Board::EMPTY;
    let position;
    let pos = match start {
        Start::Moves(steps) => {
            let mut pos = Pos {
                board: Board::EMPTY,
                to_move: Color::Black,
                passes: 0,
            };
            last.insert(pos.board, 0);
            for (i, &s) in steps.iter().enumerate() {
                if pos.passes == 2 {
                    return Err(format!("start move {} follows the end of the game", i + 1));
                }
                pos = match s {
                    Step::Pass => Pos {
                        passes: pos.passes + 1,
                        to_move: pos.to_move.other(),
                        ..pos
                    },
                    Step::Stone(p) => {
                        let name = geo.point_name(p);
                        let b = match geo.play(&pos.board, pos.to_move, p) {
                            Ok(b) => b,
                            Err(why) => {
                                return Err(format!(
                                    "start move {} ({name}) is {}",
                                    i + 1,
                                    illegal_name(why)
                                ));
                            }
                        };
                        if last.contains_key(&b) {
                            return Err(format!(
                                "start move {} ({name}) repeats an earlier board",
                                i + 1
                            ));
                        }
                        last.insert(b, 0);
                        ever.black |= b.black;
                        ever.white |= b.white;
                        Pos {
                            board: b,
                            to_move: pos.to_move.other(),
                            passes: 0,
                        }
                    }
                    Step::Root => unreachable!("the parser refuses '-' as a start move"),
                };
            }
            let names: Vec<String> = steps.iter().map(|&s| step_name(geo, s)).collect();
            let names = names.join(" ");
            position = match pos.passes {
                _ if steps.is_empty() => format!("the empty {geo} board"),
                2 => format!("the finished {geo} game after {names}"),
                1 => format!(
                    "{geo} after {names}, {} to move after a pass",
                    pos.to_move.name()
                ),
                _ => format!("{geo} after {names}, {} to move", pos.to_move.name()),
            };
            pos
        }
        Start::Setup {
            board,
            to_move,
            passes,
            earlier,
        } => {
            for b in earlier.iter().chain(std::iter::once(board)) {
                if !geo.all_chains_breathe(b) {
                    return Err(format!(
                        "history board {} has a chain without liberties",
                        geo.draw(b)
                    ));
                }
                last.insert(*b, 0);
                ever.black |= b.black;
                ever.white |= b.white;
            }
            position = setup_text(geo, board, *to_move, *passes, earlier);
            Pos {
                board: *board,
                to_move: *to_move,
                passes: *passes,
            }
        }
    };
    Ok((pos, ever, position))
}

/// A move's name: `-` (the root), `pass` or the point.
pub(crate) fn step_name(geo: &Geometry, s: Step) -> String {
    match s {
        Step::Root => "-".into(),
        Step::Pass => "pass".into(),
        Step::Stone(p) => geo.point_name(p),
    }
}

/// Adds the sets of a checked child `c` (at `pos`) to its parent's frame; a winner's stone
/// move adds the board it made to B_w.
fn fold(cert: &Certificate, parent: &mut Frame, c: u32, pos: Pos, sum: Summary) {
    let made = cert.nodes[parent.id as usize].kind == Kind::Win
        && matches!(cert.nodes[c as usize].step, Step::Stone(_));
    parent.sum.merge(sum);
    if made {
        parent.sum.bw.insert(pos.board);
    }
}

/// The exact name of a setup root: board, side to move, passes, earlier boards.
fn setup_text(
    geo: &Geometry,
    board: &Board,
    to_move: Color,
    passes: u8,
    earlier: &[Board],
) -> String {
    let mut distinct: Vec<String> = earlier
        .iter()
        .filter(|b| *b != board)
        .map(|b| geo.draw(b))
        .collect();
    distinct.sort_unstable();
    distinct.dedup();
    let history = match distinct.len() {
        0 => "no earlier boards".to_string(),
        1..=3 => format!("earlier boards {}", distinct.join(" ")),
        n => format!(
            "{n} earlier boards (digest {:016x})",
            history_digest(geo, board, earlier)
        ),
    };
    let drawn = geo.draw(board);
    match passes {
        2 => format!("the finished {geo} game at setup {drawn} after two passes, {history}"),
        1 => format!(
            "{geo} setup {drawn}, {} to move after a pass, {history}",
            to_move.name()
        ),
        _ => format!("{geo} setup {drawn}, {} to move, {history}", to_move.name()),
    }
}

pub(crate) fn side_letter(c: Color) -> char {
    match c {
        Color::Black => 'b',
        Color::White => 'w',
    }
}

pub(crate) fn illegal_name(why: Illegal) -> &'static str {
    match why {
        Illegal::Occupied => "on an occupied point",
        Illegal::Suicide => "suicide",
    }
}
