//! Checking a certificate as a stream, in two passes, with memory bounded by what the
//! references need rather than by the file's size.
//!
//! [`crate::check_reader`] reads every node into memory (about 190 bytes a node) and then
//! walks the tree. That is simple and gives the best messages for a broken layout, but a
//! certificate of 50 million nodes would need about 10 GB. [`check_stream`] checks the same
//! format with the same rules and verdicts while holding no node it no longer needs:
//!
//! 1. **Index pass.** The file is read once, line by line, only to find which nodes are
//!    referenced (`ref i`) and the last node that refers to each: a map from target to last
//!    use, 2 × 4 bytes and the hash table's overhead per distinct target.
//! 2. **Check pass.** The file is read again (from its start: the reader must seek) and each
//!    node line is checked as it arrives, in the file's pre-order, which is the walk's order.
//!    The checker holds the open nodes of the current line (one frame per ply, with the
//!    history's boards), and the Theorem 1 sets (B_w, X, terr) of a referenced node from
//!    the moment its subtree is complete until its last reference has been checked; then
//!    they are dropped. A node's sets are accumulated only when it or one of its open
//!    ancestors is referenced (otherwise no reference can ever ask for them).
//!
//! # The bound
//! Memory is O(depth) for the walk, plus 8 bytes (and the hash overhead) per distinct
//! referenced node, plus the boards of the Theorem 1 sets alive at once: those of the
//! referenced nodes complete and still to be referenced, counted against
//! [`Limits::max_stored_boards`] (16 bytes a board, about 40 with the hash table; a
//! certificate that needs more is refused with [`CheckError::Limit`]), and those being
//! gathered under open referenced nodes, at most the boards of their subtrees.
//! [`Report::peak_boards`] says how many boards both held at most. None of it grows with
//! the nodes that nobody refers to.
//!
//! # Threads
//! With `Limits::threads` other than 1 (and a machine with two cores or more), the check
//! pass is a pipeline of two threads: one reads and parses the lines and computes what each
//! node's stated position gives by the stone rules alone (a stone move's board from the
//! parent's stated position, a loser's placeable points, a static leaf's pure-eye sets), in
//! batches, and the caller's thread walks the history (superko, (C1), Theorem 1). As in
//! [`crate::verify`], the walk uses such a result only where it has verified the stated
//! positions it came from.
//!
//! # What differs from the in-memory checker
//! The verdict of a valid certificate is the same. An invalid one is refused by both, but
//! the stream checks a loser's node's children as they come, so it may name another first
//! failure (a missing loser's move is found when the node's last child has been read), and
//! a broken layout is named by its line and node without the in-memory checker's hint of
//! which earlier count is wrong.

use crate::eyes::{Analysis, analyse, area_wins};
use crate::format::{
    Kind, Limits, Lines, ParseError, Step, err, expect, komi_text, node_fields, read_header,
    start_position,
};
use crate::rules::{Board, Color, Geometry, Illegal};
use crate::verify::{
    CheckError, Failure, Pos, Summary, Verdict, illegal_name, root_history, side_letter, step_name,
};
use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Seek, SeekFrom};

/// The node bound a streamed check is given by `tsumi check` (node indices are 32-bit): the
/// stream's memory does not grow with the nodes, so [`Limits::max_nodes`]'s default of 50
/// million (set for the in-memory checker's 190 bytes a node) would only refuse large
/// certificates; this one bounds the time.
pub const MAX_NODES: u32 = 4_000_000_000;

/// What a streamed check found, with the figures of its memory bound.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// The verdict (the same as [`crate::check_reader`] gives for the same file).
    pub verdict: Verdict,
    /// Bytes read by the check pass.
    pub bytes: u64,
    /// Distinct referenced nodes (the index pass's map).
    pub targets: u64,
    /// The most referenced nodes whose sets were kept at once.
    pub peak_targets: u64,
    /// The most boards in the Theorem 1 sets kept at once (kept targets and the sets being
    /// accumulated under open referenced nodes).
    pub peak_boards: u64,
    /// Threads used by the check pass (1 or 2).
    pub threads: usize,
}

/// Checks a certificate read twice from `r` (see the module docs), within `limits`.
///
/// # Errors
/// [`CheckError::Parse`] for a file that does not follow the format or a read or seek
/// error, [`CheckError::Invalid`] with the first failing node, [`CheckError::Limit`] past
/// a bound.
pub fn check_stream<R: Read + Seek + Send>(mut r: R, limits: Limits) -> Result<Report, CheckError> {
    let uses = index(BufReader::with_capacity(1 << 16, &mut r), limits)?;
    r.seek(SeekFrom::Start(0)).map_err(|e| {
        CheckError::Parse(ParseError {
            line: 0,
            message: format!("cannot read the certificate again: {e}"),
        })
    })?;
    let counted = Counted { r, bytes: 0 };
    let mut lines = Lines::new(
        BufReader::with_capacity(1 << 16, counted),
        limits.max_line_bytes,
    );
    let (h, first) = read_header(&mut lines, limits).map_err(CheckError::Parse)?;
    let root = start_position(&h.geo, &h.start);
    let mut reader = Reader {
        lines,
        geo: h.geo.clone(),
        compact: h.compact,
        winner: h.winner,
        limits,
        next: Some(first),
        open: Vec::new(),
        count: 0,
        done: false,
        root,
    };
    let threads = match limits.threads {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get().min(2)),
        t => t.min(2),
    };
    let mut last = HashMap::new();
    let (pos, ever, position) = match root_history(&h.geo, &h.start, &mut last) {
        Ok(x) => x,
        Err(reason) => {
            return Err(CheckError::Invalid(Failure {
                node: 0,
                line: 0,
                path: Vec::new(),
                reason,
            }));
        }
    };
    let targets = uses.len() as u64;
    let mut wk = Walker {
        geo: &h.geo,
        w: h.winner,
        komi2: h.komi2,
        limits,
        uses,
        kept: HashMap::new(),
        kept_boards: 0,
        open_boards: 0,
        peak_boards: 0,
        peak_targets: 0,
        last,
        depth: 0,
        ever: vec![ever],
        path: Vec::new(),
        stack: Vec::new(),
        root: pos,
        finished: false,
        verdict: Verdict {
            winner: h.winner,
            komi2: h.komi2,
            position,
            nodes: 0,
            refs: 0,
            ends: 0,
            eyes: 0,
            depth: 0,
            rows: h.geo.rows(),
            cols: h.geo.cols(),
        },
    };
    if threads <= 1 {
        while let Some(rec) = reader.next_rec().map_err(CheckError::Parse)? {
            wk.node(rec)?;
        }
    } else {
        std::thread::scope(|scope| -> Result<(), CheckError> {
            let (tx, rx) = std::sync::mpsc::sync_channel::<Vec<Result<Rec, ParseError>>>(16);
            let reader = &mut reader;
            scope.spawn(move || {
                loop {
                    let mut batch = Vec::with_capacity(BATCH);
                    let mut end = false;
                    while batch.len() < BATCH {
                        match reader.next_rec() {
                            Ok(Some(rec)) => batch.push(Ok(rec)),
                            Ok(None) => {
                                end = true;
                                break;
                            }
                            Err(e) => {
                                batch.push(Err(e));
                                end = true;
                                break;
                            }
                        }
                    }
                    // A send fails when the walker has stopped at a failure.
                    if tx.send(batch).is_err() || end {
                        return;
                    }
                }
            });
            for batch in rx {
                for rec in batch {
                    wk.node(rec.map_err(CheckError::Parse)?)?;
                }
            }
            Ok(())
        })?;
    }
    if !wk.finished {
        // The reader ends only after the trailer, which comes only when the tree is complete.
        return Err(CheckError::Parse(ParseError {
            line: 0,
            message: "the file ends before the tree is complete".into(),
        }));
    }
    Ok(Report {
        verdict: wk.verdict,
        bytes: reader.lines.get_ref().get_ref().bytes,
        targets,
        peak_targets: wk.peak_targets,
        peak_boards: wk.peak_boards,
        threads,
    })
}

/// Checks a certificate held in memory as a stream (both passes over `bytes`), within
/// `limits`: the same verdicts as [`check_stream`] on a file of these bytes.
///
/// # Errors
/// As [`check_stream`].
pub fn check_stream_bytes(bytes: &[u8], limits: Limits) -> Result<Report, CheckError> {
    check_stream(std::io::Cursor::new(bytes), limits)
}

/// Nodes a batch of the pipeline carries.
const BATCH: usize = 4096;

/// The index pass: every referenced node with the last node that refers to it. Lenient:
/// what it cannot read is left to the check pass, which refuses it; the check pass never
/// trusts this map (a reference is accepted only to sets it has computed itself).
fn index<R: BufRead>(r: R, limits: Limits) -> Result<HashMap<u32, u32>, CheckError> {
    let mut lines = Lines::new(r, limits.max_line_bytes);
    let (h, first) = read_header(&mut lines, limits).map_err(CheckError::Parse)?;
    let mut uses = HashMap::new();
    let mut i: u32 = 0;
    let mut next = Some(first);
    loop {
        let l = match next.take() {
            Some(l) => l,
            None => match lines.next_opt().map_err(CheckError::Parse)? {
                Some(l) => l,
                None => break,
            },
        };
        let w = l.words();
        if w.first() == Some(&"end") || i >= limits.max_nodes {
            break;
        }
        let target = if h.compact {
            w.get(1).and_then(|k| k.strip_prefix('r'))
        } else if w.get(3) == Some(&"ref") {
            w.get(4).copied()
        } else {
            None
        };
        if let Some(t) = target.and_then(|t| t.parse::<u32>().ok())
            && t < i
        {
            uses.insert(t, i);
        }
        i += 1;
    }
    Ok(uses)
}

/// A reader that counts the bytes it passes on.
struct Counted<R> {
    r: R,
    bytes: u64,
}

impl<R: Read> Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.r.read(buf)?;
        self.bytes += n as u64;
        Ok(n)
    }
}

/// One node line, parsed, with what its stated position gives by the stone rules alone.
struct Rec {
    id: u32,
    line: usize,
    step: Step,
    stated: Pos,
    kind: Kind,
    /// A stone move's board from the parent's stated position, or why it is illegal.
    made: Option<Result<Board, Illegal>>,
    /// `all` nodes: the points where the side to move may place a stone (superko aside).
    legal: u64,
    /// `eyes` nodes: the pure-eye analysis of the stated board for the winner.
    eyes: Analysis,
}

/// The check pass's parser: node lines in order, the layout (child counts), the trailer.
struct Reader<R> {
    lines: Lines<BufReader<Counted<R>>>,
    geo: Geometry,
    compact: bool,
    winner: Color,
    limits: Limits,
    /// The root's node line, read with the header.
    next: Option<crate::format::Line>,
    /// Open nodes: index, children still to come, stated position.
    open: Vec<(u32, u32, Pos)>,
    count: u32,
    /// The trailer has been read.
    done: bool,
    /// The root's position from the start (compact format).
    root: (Board, Color, u8),
}

impl<R: Read> Reader<R> {
    /// The next node, or `None` after the trailer (checked, and nothing after it).
    fn next_rec(&mut self) -> Result<Option<Rec>, ParseError> {
        if self.done {
            return Ok(None);
        }
        let l = match self.next.take() {
            Some(l) => l,
            None => match self.lines.next_opt()? {
                Some(l) => l,
                None => {
                    return match self.open.last() {
                        Some(&(p, left, _)) => err(
                            0,
                            format!(
                                "the file ends before node {p} has all its children ({left} still to come) and the trailer 'end <n>'"
                            ),
                        ),
                        None => err(
                            0,
                            format!("the file ends before the trailer 'end {}'", self.count),
                        ),
                    };
                }
            },
        };
        let n = l.n;
        let w = l.words();
        let i = self.count;
        if i > 0 && self.open.is_empty() {
            if w.first() != Some(&"end") {
                return err(
                    n,
                    "a node line after the tree is complete: a child count is too small at one of the nodes the previous line closed",
                );
            }
            let c = expect(&l, "end", 1)?;
            if c[0] != i.to_string() {
                return err(
                    n,
                    format!("the trailer counts {} nodes, the tree has {i}", c[0]),
                );
            }
            if let Some(l) = self.lines.next_opt()? {
                return err(l.n, "text after the trailer 'end <n>'");
            }
            self.done = true;
            return Ok(None);
        }
        if w.first() == Some(&"end") {
            return match self.open.last() {
                Some(&(p, left, _)) => err(
                    n,
                    format!(
                        "the trailer comes while node {p} still lacks {left} of its children: the tree is incomplete"
                    ),
                ),
                None => err(n, "the trailer comes before the root's node line"),
            };
        }
        if w.len() < if self.compact { 2 } else { 4 } {
            return err(
                n,
                if self.compact {
                    "a compact node line has a move and a kind"
                } else {
                    "a node line has a move, a board, a side and a kind"
                },
            );
        }
        if i >= self.limits.max_nodes {
            return err(
                n,
                format!(
                    "more than {} node lines (the bound on what the checker reads)",
                    self.limits.max_nodes
                ),
            );
        }
        let parent = match self.open.last() {
            Some(&(_, _, p)) => Some((p.board, p.to_move, p.passes)),
            None if self.compact => Some(self.root),
            None => None,
        };
        let (step, board, to_move, passes, kind) =
            node_fields(&self.geo, self.compact, self.winner, n, &w, i, parent)?;
        let stated = Pos {
            board,
            to_move,
            passes,
        };
        let mut made = None;
        if let Some(top) = self.open.last_mut() {
            let (p, _, pp) = *top;
            if pp.to_move == to_move {
                return err(
                    n,
                    format!(
                        "node {i} states {} to move as its parent node {p} does, but every move passes the turn: node {p}'s child count is too large, or its previous child's too small",
                        to_move.name()
                    ),
                );
            }
            top.1 -= 1;
            if let Step::Stone(q) = step {
                made = Some(self.geo.play(&pp.board, pp.to_move, q));
            }
        }
        let geo = &self.geo;
        let mut legal = 0;
        let mut eyes = Analysis::default();
        let want = match kind {
            Kind::Win => 1,
            Kind::All(k) => {
                legal = (0..geo.points())
                    .filter(|&q| geo.play(&board, to_move, q).is_ok())
                    .fold(0, |m, q| m | 1 << q);
                k
            }
            Kind::Eyes { alive, territory } if self.compact => {
                // The compact reader states the checker's own analysis.
                eyes = Analysis { alive, territory };
                0
            }
            Kind::Eyes { .. } => {
                eyes = analyse(geo, &board, self.winner);
                0
            }
            _ => 0,
        };
        if want > 0 {
            self.open.push((i, want, stated));
        } else {
            while self.open.last().is_some_and(|t| t.1 == 0) {
                self.open.pop();
            }
        }
        self.count += 1;
        Ok(Some(Rec {
            id: i,
            line: n,
            step,
            stated,
            kind,
            made,
            legal,
            eyes,
        }))
    }
}

/// An open node of the walk.
struct Frame {
    id: u32,
    line: usize,
    /// The move that reached it.
    step: Step,
    pos: Pos,
    kind: Kind,
    /// Children still to come.
    left: u32,
    /// Its sets so far (accumulated only when `keep`).
    sum: Summary,
    /// It or an open ancestor is referenced: its sets are needed.
    keep: bool,
    /// The ply at which its board last occurred before it (restored on leaving).
    old_last: Option<u32>,
    /// `all` nodes: the children's moves so far.
    seen_pass: bool,
    seen: u64,
    legal: u64,
}

/// The sets of a complete referenced node, kept until its last reference.
struct Target {
    pos: Pos,
    sum: Summary,
}

struct Walker<'a> {
    geo: &'a Geometry,
    w: Color,
    komi2: i32,
    limits: Limits,
    /// Referenced nodes and their last reference (the index pass).
    uses: HashMap<u32, u32>,
    kept: HashMap<u32, Target>,
    /// Boards in `kept`.
    kept_boards: u64,
    /// Boards in the sets of open frames that keep them (updated when a frame closes).
    open_boards: u64,
    peak_boards: u64,
    peak_targets: u64,
    /// Every board of the current history with the last ply it occurred at.
    last: HashMap<Board, u32>,
    depth: u32,
    /// Union of the boards of the history so far (one entry a ply).
    ever: Vec<Board>,
    path: Vec<Step>,
    stack: Vec<Frame>,
    root: Pos,
    /// The root is complete.
    finished: bool,
    verdict: Verdict,
}

impl Walker<'_> {
    fn fail<T>(&self, node: u32, line: usize, reason: impl Into<String>) -> Result<T, CheckError> {
        Err(CheckError::Invalid(Failure {
            node,
            line,
            path: self.path.iter().map(|&s| step_name(self.geo, s)).collect(),
            reason: reason.into(),
        }))
    }

    /// Checks node `r` (the next in pre-order): its move from the open parent, its claim,
    /// and, when it completes subtrees, their sets.
    fn node(&mut self, r: Rec) -> Result<(), CheckError> {
        let geo = self.geo;
        self.verdict.nodes += 1;
        let (pos, old, parent_keep) = match self.stack.last_mut() {
            None if r.id == 0 => (self.root, None, false),
            None => return self.fail(r.id, r.line, "a node after the tree is complete"),
            Some(top) => {
                top.left -= 1;
                let top_kind = top.kind;
                let keep = top.keep;
                if matches!(top_kind, Kind::All(_)) {
                    let dup = match r.step {
                        Step::Pass => std::mem::replace(&mut top.seen_pass, true),
                        Step::Stone(p) => {
                            let d = top.seen >> p & 1 == 1;
                            top.seen |= 1 << p;
                            d
                        }
                        Step::Root => false,
                    };
                    if dup {
                        return self.fail(
                            r.id,
                            r.line,
                            format!(
                                "a second child for the loser's move {}",
                                step_name(geo, r.step)
                            ),
                        );
                    }
                }
                let ppos = top.pos;
                let child = match self.after(ppos, &r) {
                    Ok(c) => c,
                    Err(why) if top_kind == Kind::Win => {
                        return self.fail(r.id, r.line, format!("the winner's {why}"));
                    }
                    Err(why) => {
                        return self.fail(
                            r.id,
                            r.line,
                            format!("a child for an illegal move: {why}"),
                        );
                    }
                };
                let old = self.push_history(child, r.step);
                (child, old, keep)
            }
        };
        let keep = parent_keep || self.uses.contains_key(&r.id);
        match self.enter(&r, pos, keep)? {
            Some(sum) => {
                let sum = self.finish(r.id, r.line, pos, sum)?;
                if r.id == 0 {
                    self.finished = true;
                    return Ok(());
                }
                self.pop_history(pos.board, old);
                self.fold(r.step, pos, sum);
                self.close()
            }
            None => {
                self.stack.push(Frame {
                    id: r.id,
                    line: r.line,
                    step: r.step,
                    pos,
                    kind: r.kind,
                    left: match r.kind {
                        Kind::Win => 1,
                        Kind::All(k) => k,
                        _ => 0,
                    },
                    sum: Summary::default(),
                    keep,
                    old_last: old,
                    seen_pass: false,
                    seen: 0,
                    legal: r.legal,
                });
                Ok(())
            }
        }
    }

    /// Closes every open node whose children are all checked.
    fn close(&mut self) -> Result<(), CheckError> {
        while self.stack.last().is_some_and(|f| f.left == 0) {
            let mut f = self.stack.pop().expect("checked");
            if matches!(f.kind, Kind::All(_)) {
                self.loser_complete(&mut f)?;
            }
            let size = (f.sum.bw.len() + f.sum.x.len()) as u64;
            self.open_boards = self.open_boards.saturating_sub(size);
            let sum = self.finish(f.id, f.line, f.pos, f.sum)?;
            if self.stack.is_empty() {
                self.finished = true;
                return Ok(());
            }
            self.pop_history(f.pos.board, f.old_last);
            self.fold(f.step, f.pos, sum);
        }
        Ok(())
    }

    /// Adds a checked child's sets to its open parent (if the parent keeps them); a
    /// winner's stone move adds the board it made to B_w.
    fn fold(&mut self, step: Step, pos: Pos, sum: Summary) {
        let top = self.stack.last_mut().expect("the parent");
        if !top.keep {
            return;
        }
        let before = (top.sum.bw.len() + top.sum.x.len()) as u64;
        top.sum.merge(sum);
        if top.kind == Kind::Win && matches!(step, Step::Stone(_)) {
            top.sum.bw.insert(pos.board);
        }
        let after = (top.sum.bw.len() + top.sum.x.len()) as u64;
        self.open_boards += after - before.min(after);
        self.peak_boards = self.peak_boards.max(self.open_boards + self.kept_boards);
    }

    /// A loser's node whose children are all read: the pass has a child, and every legal
    /// stone move without one is superko-illegal (its board joins X).
    fn loser_complete(&self, f: &mut Frame) -> Result<(), CheckError> {
        let geo = self.geo;
        if !f.seen_pass {
            return self.fail(
                f.id,
                f.line,
                format!(
                    "the loser's pass (always legal) has no child; {} is to move",
                    f.pos.to_move.name()
                ),
            );
        }
        let mut missing = f.legal & !f.seen;
        while missing != 0 {
            let p = missing.trailing_zeros() as usize;
            missing &= missing - 1;
            if let Ok(b) = geo.play(&f.pos.board, f.pos.to_move, p) {
                match self.last.get(&b) {
                    Some(&j) => {
                        if f.keep {
                            f.sum.add_x(b, j);
                        }
                    }
                    None => {
                        return self.fail(
                            f.id,
                            f.line,
                            format!("the loser's legal move {} has no child", geo.point_name(p)),
                        );
                    }
                }
            }
        }
        Ok(())
    }

    /// Leaves node `id` whose subtree is checked: keeps the excluding boards of its
    /// history (plies ≤ its own) and, if it is referenced, its sets until its last use.
    fn finish(
        &mut self,
        id: u32,
        line: usize,
        pos: Pos,
        mut sum: Summary,
    ) -> Result<Summary, CheckError> {
        let d = self.depth;
        sum.x.retain(|_, j| *j <= d);
        if self.uses.contains_key(&id) {
            let size = (sum.bw.len() + sum.x.len()) as u64;
            self.kept_boards += size;
            if self.kept_boards > self.limits.max_stored_boards {
                return Err(CheckError::Limit(format!(
                    "at node {id} (line {line}), the Theorem 1 sets of referenced nodes hold more than {} boards (the bound on what the checker keeps)",
                    self.limits.max_stored_boards
                )));
            }
            let copy = Summary {
                bw: sum.bw.clone(),
                x: sum.x.clone(),
                terr: sum.terr,
            };
            self.kept.insert(id, Target { pos, sum: copy });
            self.peak_targets = self.peak_targets.max(self.kept.len() as u64);
            self.peak_boards = self.peak_boards.max(self.open_boards + self.kept_boards);
        }
        Ok(sum)
    }

    /// Checks node `r`'s claim at `pos` (the position the moves give); its sets if it is a
    /// leaf, `None` if its children follow.
    fn enter(&mut self, r: &Rec, pos: Pos, keep: bool) -> Result<Option<Summary>, CheckError> {
        let geo = self.geo;
        let (id, line) = (r.id, r.line);
        let stated = r.stated;
        if stated != pos {
            return self.fail(
                id,
                line,
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
        if pos.passes == 2 && r.kind != Kind::End {
            return self.fail(
                id,
                line,
                "two passes ended the game here: the node must be 'end'",
            );
        }
        let w = self.w;
        let mut sum = Summary::default();
        match r.kind {
            Kind::End => {
                if pos.passes != 2 {
                    return self.fail(
                        id,
                        line,
                        "'end' but the game is not over (two passes end it)",
                    );
                }
                let score = geo.area_score(&pos.board);
                if (2 * score > self.komi2) != (w == Color::Black) {
                    return self.fail(
                        id,
                        line,
                        format!(
                            "the game ends with Black's area margin {score}, a loss for {} at komi {}",
                            w.name(),
                            komi_text(self.komi2)
                        ),
                    );
                }
                self.verdict.ends += 1;
                Ok(Some(sum))
            }
            Kind::Eyes { alive, territory } => {
                if pos.passes == 1 && pos.to_move != w {
                    return self.fail(
                        id,
                        line,
                        format!(
                            "static leaf after {}'s own pass with {} to move: (C2) fails",
                            w.name(),
                            w.other().name()
                        ),
                    );
                }
                let a = r.eyes;
                if a.alive != alive || a.territory != territory {
                    return self.fail(
                        id,
                        line,
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
                        line,
                        format!(
                            "(C1) fails: a {} stone stood on T* point(s) {} earlier in the history",
                            w.name(),
                            geo.draw_set(ever & a.territory)
                        ),
                    );
                }
                if !area_wins(a.area(), geo.points(), w, self.komi2) {
                    return self.fail(
                        id,
                        line,
                        format!(
                            "the certified area {} does not win for {} at komi {}",
                            a.area(),
                            w.name(),
                            komi_text(self.komi2)
                        ),
                    );
                }
                sum.terr = a.territory;
                self.verdict.eyes += 1;
                Ok(Some(sum))
            }
            Kind::Ref(t) => {
                let Some(target) = self.kept.get(&t) else {
                    return self.fail(
                        id,
                        line,
                        format!("reference to node {t}, which is not an earlier complete node"),
                    );
                };
                if target.pos != pos {
                    return self.fail(
                        id,
                        line,
                        format!("reference to node {t}, which has another position"),
                    );
                }
                self.theorem1(id, line, t, &target.sum, &mut sum, keep)?;
                if self.uses.get(&t) == Some(&id)
                    && let Some(gone) = self.kept.remove(&t)
                {
                    self.kept_boards -= (gone.sum.bw.len() + gone.sum.x.len()) as u64;
                }
                self.verdict.refs += 1;
                Ok(Some(sum))
            }
            Kind::Win => {
                if pos.to_move != w {
                    return self.fail(
                        id,
                        line,
                        format!(
                            "'win' at a node where {} (the loser) is to move",
                            pos.to_move.name()
                        ),
                    );
                }
                Ok(None)
            }
            Kind::All(_) => {
                if pos.to_move == w {
                    return self.fail(
                        id,
                        line,
                        format!("'all' at a node where {} (the winner) is to move", w.name()),
                    );
                }
                Ok(None)
            }
        }
    }

    /// Theorem 1 (i)–(iii) for reusing node `t`'s proof (sets `target`) at node `id` under
    /// the current history; adds the reference's contribution to `sum` when `keep`.
    fn theorem1(
        &self,
        id: u32,
        line: usize,
        t: u32,
        target: &Summary,
        sum: &mut Summary,
        keep: bool,
    ) -> Result<(), CheckError> {
        let geo = self.geo;
        let hit = if target.bw.len() <= self.last.len() {
            target.bw.iter().find(|b| self.last.contains_key(b))
        } else {
            self.last.keys().find(|b| target.bw.contains(b))
        };
        if let Some(b) = hit {
            return self.fail(
                id,
                line,
                format!(
                    "reference to node {t} violates Theorem 1 (i): the winner's board {} of that proof is in this history",
                    geo.draw(b)
                ),
            );
        }
        for b in target.x.keys() {
            match self.last.get(b) {
                Some(&j) => {
                    if keep {
                        sum.add_x(*b, j);
                    }
                }
                None => {
                    return self.fail(
                        id,
                        line,
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
                line,
                format!(
                    "reference to node {t} violates Theorem 1 (iii): a {} stone stood on certified territory {} in this history",
                    self.w.name(),
                    geo.draw_set(ever & target.terr)
                ),
            );
        }
        if keep {
            sum.bw.extend(target.bw.iter().copied());
            sum.terr |= target.terr;
        }
        Ok(())
    }

    /// The position after `r`'s move from `pos` (its parent's position), or why the move is
    /// illegal here.
    fn after(&self, pos: Pos, r: &Rec) -> Result<Pos, String> {
        match r.step {
            Step::Root => Err("'-' is not a move".into()),
            Step::Pass => Ok(Pos {
                board: pos.board,
                to_move: pos.to_move.other(),
                passes: pos.passes + 1,
            }),
            Step::Stone(p) => {
                let name = self.geo.point_name(p);
                let made = r
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
        self.path.push(step);
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
}
