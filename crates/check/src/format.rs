//! The certificate format, version 1: line-oriented text, one line per node of the proof DAG.
//!
//! # Why text
//! A certificate is read by people who doubt a result, so it is plain ASCII that `grep`,
//! `less` and `diff` handle and that a checker can parse with the standard library alone (no
//! compression or serialisation crate the checker would have to trust). Boards are drawn,
//! not hashed, so every node states its exact position. Node lines compress well (`gzip -9`
//! shrinks them about tenfold); the checker reads the plain file.
//!
//! # Grammar
//! ```text
//! tsumi-certificate 1
//! size <rows>x<cols>                    at most 64 points
//! komi <k>                              a half-integer in one spelling: an optional '-',
//!                                       digits without a sign or leading zeros, '.5'
//!                                       (1.5, -0.5, 19.5; never 0.50, +1.5, --8.5 or 7)
//! winner black|white                    the player whose win is proved
//! start moves [<move> ...]              the root: these moves from the empty board,
//!                                       Black first (the history is rebuilt from them)
//!   or
//! start setup <board> <side><passes>    the root position (passes 2: a finished game), with the boards below as the
//! earlier <board>                       rest of its history (zero or more lines)
//! <node lines, in depth-first pre-order; node i is the i-th; the tree's layout
//!  (kinds and child counts) says where it ends>
//! end <n>                               n: the number of node lines
//! ```
//! Lines starting with `#` and empty lines are ignored. The file is printable ASCII (tabs
//! allowed) with LF or CR LF line ends: a byte-order mark, a CR-only line end or another
//! byte is refused with its line. Numbers (`size`, `all`, `ref`, `end`, point rows) are
//! decimal digits without a sign or leading zeros. A reader bounds what it holds
//! ([`Limits`]: line length, node count, the sets kept for references) and refuses more
//! with a one-line error. A node line is
//!
//! ```text
//! <move> <board> <side><passes> <kind> [<arguments>]
//! ```
//! - `move`: the move from the parent that reaches the node (`-` at the root): `pass` or a
//!   point name (column letter A..T without I, then the row from 1 at the bottom: `C3`).
//! - `board`: the stones after the move, rows from the top separated by `/`, `X` Black,
//!   `O` White, `.` empty (`XO./..X`).
//! - `side`: `b` or `w`, the player to move; `passes`: consecutive passes just played
//!   (0, 1, or 2 when two passes ended the game).
//! - `kind`:
//!   - `win`: the winner is to move; the one child that follows is its chosen move.
//!   - `all <k>`: the loser is to move; the k children that follow are its moves, one for
//!     every move legal under the node's history (the pass included). A stone move without a
//!     child must be illegal there: occupied point, suicide, or a board of the history.
//!   - `end`: the game is over (two passes); its area score must win for the winner.
//!   - `eyes <alive> <territory>`: a static leaf (Lemma 1): the winner's X* stones and T*
//!     points, drawn as point sets (`#` in the set, `.` not; same layout as boards).
//!   - `ref <i>`: the proof of node i, an earlier node whose subtree is complete, with the
//!     same position, reused under this node's history (Theorem 1).
//!
//! The layout is self-delimiting: a `win` node has one child and `all k` k children
//! (1 ≤ k ≤ points + 1), each child stating the other side to move. A wrong count shifts
//! lines between parents; the reader names the node whose count is wrong (the first node
//! that does not follow from its parent by its move tells which).
//!
//! # What the checker prints
//! The verdict names the root exactly: from moves, "the empty 4x4 board", "4x4 after B2
//! C3, black to move", "... to move after a pass", "the finished 2x2 game after pass
//! pass"; from a setup, its board, the side to move, the passes (a finished game as such)
//! and the earlier boards, drawn when at most three, else counted with a digest: FNV-1a 64
//! over the distinct earlier drawings other than the root's, sorted, each followed by LF
//! (`check::history_digest`).
//!
//! Node lines say nothing the checker takes on trust: positions are recomputed from the
//! moves, X* and T* by the checker's own analysis, the sets of Theorem 1 from the subtrees.
//!
//! # The compact format, version 2
//! The same header (with `tsumi-certificate 2`), the same tree in the same order and the
//! same trailer, but a node line holds only what the checker cannot recompute:
//!
//! ```text
//! <move> <kind>        move: '-' (root), 'pass' or a point; kind: 'w' (win), 'a<k>' (all k),
//!                      'e' (end), 'y' (eyes: X* and T* are the checker's own), 'r<i>' (ref i)
//! ```
//!
//! e.g. `- w`, `B2 a9`, `pass w`, `C3 e`, `A1 y`, `B1 r40`. The reader derives each node's
//! board, side and passes from its parent's by the move (stone rules only) and the walk then
//! checks everything as for version 1, so both versions of one proof give the same verdict.
//! A node line takes 5 to 9 bytes instead of about 40 (measured in docs/certificates.md),
//! and the reader still streams the file line by line.

use crate::rules::{Board, Color, Geometry};

/// The version of the text format (version 1), which this crate reads.
pub const VERSION: u32 = 1;

/// The version of the compact format (version 2, see the module docs), which this crate
/// reads too.
pub const COMPACT_VERSION: u32 = 2;

/// A move from the parent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// The root (no move).
    Root,
    /// A pass.
    Pass,
    /// A stone on this point.
    Stone(usize),
}

/// What a node claims.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// The winner is to move; one child.
    Win,
    /// The loser is to move; this many children.
    All(u32),
    /// The game is over.
    End,
    /// A static leaf with the winner's X* stones and T* points.
    Eyes {
        /// X* stones.
        alive: u64,
        /// T* points.
        territory: u64,
    },
    /// The proof of an earlier node.
    Ref(u32),
}

/// One node line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    /// 1-based line of the file.
    pub line: usize,
    /// The move from the parent.
    pub step: Step,
    /// The stated board.
    pub board: Board,
    /// The stated player to move.
    pub to_move: Color,
    /// The stated number of consecutive passes (0, 1 or 2).
    pub passes: u8,
    /// The claim.
    pub kind: Kind,
    /// Indices of the children (from the pre-order layout).
    pub children: Vec<u32>,
}

/// How the root's history is given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Start {
    /// Moves from the empty board, Black first.
    Moves(Vec<Step>),
    /// A setup position (board, player to move, passes) and the other boards of its history.
    Setup {
        /// The root board.
        board: Board,
        /// The player to move.
        to_move: Color,
        /// Consecutive passes (0 or 1).
        passes: u8,
        /// The earlier boards.
        earlier: Vec<Board>,
    },
}

/// A parsed certificate (not yet checked).
#[derive(Clone, Debug)]
pub struct Certificate {
    /// The board.
    pub geo: Geometry,
    /// Komi in half-points (odd).
    pub komi2: i32,
    /// The player whose win is proved.
    pub winner: Color,
    /// The root's history.
    pub start: Start,
    /// The nodes, node 0 the root.
    pub nodes: Vec<Node>,
}

/// A certificate that cannot be read, with its 1-based line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// 1-based line (0: the end of the file).
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl std::fmt::Display for ParseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.line == 0 {
            write!(f, "at the end of the certificate: {}", self.message)
        } else {
            write!(f, "line {}: {}", self.line, self.message)
        }
    }
}

impl std::error::Error for ParseError {}

/// Bounds on what [`parse_reader`] reads, so that no input (a huge file, `/dev/zero`, a
/// forged node count) makes the checker allocate without limit.
///
/// The in-memory checker ([`parse_reader`], [`crate::check_reader`]) takes about 190 bytes
/// a node; the streaming one ([`crate::check_stream`]) holds no node after its line and is
/// bounded by the sets that references need (see [`crate::stream`]). Measured in memory (4x4, Black at komi 1.5:
/// 203,456 nodes checked in 39 MB peak resident, either format): the parsed node, its
/// child list, the walk's marks and the Theorem 1 sets kept for referenced nodes, bounded by
/// `max_stored_boards` (16 bytes a board, about 40 with the hash table).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// The longest line, in bytes (its line end not counted).
    pub max_line_bytes: usize,
    /// The most node lines (and `earlier` boards, counted with them).
    pub max_nodes: u32,
    /// The most boards held in the Theorem 1 sets of referenced nodes, all together.
    pub max_stored_boards: u64,
    /// Threads for the checker's rules pass (every node's moves and pure-eye sets by the
    /// stone rules, before the walk); 0: as many as the machine has.
    pub threads: usize,
}

impl Default for Limits {
    /// 1 MiB lines, 50 million nodes, 200 million stored boards, every thread.
    fn default() -> Self {
        Limits {
            max_line_bytes: 1 << 20,
            max_nodes: 50_000_000,
            max_stored_boards: 200_000_000,
            threads: 0,
        }
    }
}

/// A decimal number as the format writes it: digits only, no sign, no leading zero.
fn decimal(text: &str) -> Option<u32> {
    let b = text.as_bytes();
    if b.is_empty() || !b.iter().all(u8::is_ascii_digit) || (b.len() > 1 && b[0] == b'0') {
        return None;
    }
    text.parse().ok()
}

/// Komi in half-points from its one spelling: an optional `-`, an integer without a sign or
/// leading zeros, then `.5` ("1.5", "-0.5", "19.5"). Anything else is refused, so one komi
/// has one spelling: "7" (an integer: draws are possible), "0.50", "+1.5", "--8.5", "1.5e0".
fn parse_komi(text: &str) -> Option<i32> {
    let (neg, t) = match text.strip_prefix('-') {
        Some(t) => (true, t),
        None => (false, text),
    };
    let int = t.strip_suffix(".5")?;
    let i = i32::try_from(decimal(int)?).ok()?;
    let k = i.checked_mul(2)?.checked_add(1)?;
    Some(if neg { -k } else { k })
}

/// Formats komi in half-points as "1.5" or "-0.5".
#[must_use]
pub fn komi_text(komi2: i32) -> String {
    let sign = if komi2 < 0 { "-" } else { "" };
    let a = komi2.unsigned_abs();
    if a.is_multiple_of(2) {
        format!("{sign}{}", a / 2)
    } else {
        format!("{sign}{}.5", a / 2)
    }
}

/// One significant line (not empty, not a comment) with its 1-based number.
pub(crate) struct Line {
    pub(crate) n: usize,
    pub(crate) text: String,
}

impl Line {
    pub(crate) fn words(&self) -> Vec<&str> {
        self.text.split_ascii_whitespace().collect()
    }
}

/// Reads lines with their real numbers, refusing what the format cannot hold before it is
/// stored: lines over the length bound, a byte-order mark, CR-only line ends, bytes that
/// are not printable ASCII.
pub(crate) struct Lines<R> {
    r: R,
    n: usize,
    max: usize,
    buf: Vec<u8>,
}

impl<R: std::io::BufRead> Lines<R> {
    /// A reader of `r`'s lines of at most `max` bytes.
    pub(crate) fn new(r: R, max: usize) -> Self {
        Lines {
            r,
            n: 0,
            max,
            buf: Vec::new(),
        }
    }

    /// The underlying reader.
    pub(crate) fn get_ref(&self) -> &R {
        &self.r
    }

    /// The next physical line, without its end; `None` at the end of the input.
    fn raw(&mut self) -> Result<Option<usize>, ParseError> {
        use std::io::{BufRead, Read};
        self.buf.clear();
        let limit = (self.max as u64).saturating_add(2);
        let got = (&mut self.r)
            .take(limit)
            .read_until(b'\n', &mut self.buf)
            .map_err(|e| ParseError {
                line: self.n + 1,
                message: format!("cannot read: {e}"),
            })?;
        if got == 0 {
            return Ok(None);
        }
        self.n += 1;
        let n = self.n;
        if self.buf.last() == Some(&b'\n') {
            self.buf.pop();
            if self.buf.last() == Some(&b'\r') {
                self.buf.pop();
            }
        }
        if self.buf.len() > self.max {
            return err(
                n,
                format!(
                    "the line is longer than {} bytes (a certificate's lines are short)",
                    self.max
                ),
            );
        }
        if n == 1 && self.buf.starts_with(b"\xEF\xBB\xBF") {
            return err(
                1,
                "the file starts with a UTF-8 byte-order mark; a certificate is ASCII text without one",
            );
        }
        if let Some(col) = self.buf.iter().position(|&b| b == b'\r') {
            return err(
                n,
                format!(
                    "a carriage return at column {} inside the line: line ends are LF or CR LF (CR-only line ends read as one line)",
                    col + 1
                ),
            );
        }
        if let Some(col) = self
            .buf
            .iter()
            .position(|&b| !(b == b'\t' || (b' '..=b'~').contains(&b)))
        {
            return err(
                n,
                format!(
                    "byte 0x{:02x} at column {} is not printable ASCII",
                    self.buf[col],
                    col + 1
                ),
            );
        }
        Ok(Some(n))
    }

    /// The next line that is not empty or a comment; `None` at the end of the input.
    pub(crate) fn next_opt(&mut self) -> Result<Option<Line>, ParseError> {
        while let Some(n) = self.raw()? {
            // Printable ASCII was checked: the bytes are UTF-8.
            let text = std::str::from_utf8(&self.buf).unwrap_or_default().trim();
            if text.is_empty() || text.starts_with('#') {
                continue;
            }
            return Ok(Some(Line {
                n,
                text: text.to_string(),
            }));
        }
        Ok(None)
    }

    /// The next significant line; an error naming `what` at the end of the input.
    pub(crate) fn next(&mut self, what: &str) -> Result<Line, ParseError> {
        match self.next_opt()? {
            Some(l) => Ok(l),
            None => err(0, format!("the file ends where {what} should come")),
        }
    }
}

pub(crate) fn err<T>(line: usize, message: impl Into<String>) -> Result<T, ParseError> {
    Err(ParseError {
        line,
        message: message.into(),
    })
}

pub(crate) fn expect<'a>(l: &'a Line, key: &str, args: usize) -> Result<Vec<&'a str>, ParseError> {
    let w = l.words();
    if w.first() != Some(&key) || (args != usize::MAX && w.len() != args + 1) {
        let first = w.first().copied().unwrap_or("");
        return err(
            l.n,
            format!("expected '{key}' with {args} value(s), found '{first}'"),
        );
    }
    Ok(w[1..].to_vec())
}

pub(crate) fn parse_side(n: usize, text: &str) -> Result<(Color, u8), ParseError> {
    let b = text.as_bytes();
    if b.len() != 2 {
        return err(
            n,
            format!("bad side and passes '{text}' (expected e.g. b0)"),
        );
    }
    let side = match b[0] {
        b'b' => Color::Black,
        b'w' => Color::White,
        _ => return err(n, format!("bad side '{}' (expected b or w)", b[0] as char)),
    };
    let passes = match b[1] {
        b'0' => 0,
        b'1' => 1,
        b'2' => 2,
        _ => return err(n, format!("bad pass count '{}'", b[1] as char)),
    };
    Ok((side, passes))
}

fn parse_step(geo: &Geometry, n: usize, text: &str) -> Result<Step, ParseError> {
    if text == "-" {
        return Ok(Step::Root);
    }
    if text.eq_ignore_ascii_case("pass") {
        return Ok(Step::Pass);
    }
    match geo.parse_point(text) {
        Some(p) => Ok(Step::Stone(p)),
        None => err(n, format!("bad move '{text}' on {geo}")),
    }
}

fn parse_board(geo: &Geometry, n: usize, text: &str) -> Result<Board, ParseError> {
    geo.parse_board(text)
        .map_or_else(|| err(n, format!("bad board '{text}' for {geo}")), Ok)
}

fn parse_set(geo: &Geometry, n: usize, text: &str) -> Result<u64, ParseError> {
    geo.parse_set(text)
        .map_or_else(|| err(n, format!("bad point set '{text}' for {geo}")), Ok)
}

/// Reads a certificate held in memory, with the default [`Limits`].
///
/// # Errors
/// A [`ParseError`] naming the first line that does not follow the grammar (see
/// [`parse_reader`]).
pub fn parse(text: &str) -> Result<Certificate, ParseError> {
    parse_reader(text.as_bytes(), Limits::default())
}

/// What the header says (see the module docs' grammar).
#[derive(Clone, Debug)]
pub(crate) struct Header {
    pub(crate) geo: Geometry,
    pub(crate) komi2: i32,
    pub(crate) winner: Color,
    pub(crate) start: Start,
    /// Version 2 (node lines of a move and a kind).
    pub(crate) compact: bool,
}

/// Reads the header through its `start` (and `earlier`) lines; returns it with the first
/// line after it (the root's node line).
pub(crate) fn read_header<R: std::io::BufRead>(
    lines: &mut Lines<R>,
    limits: Limits,
) -> Result<(Header, Line), ParseError> {
    let Some(first) = lines.next_opt()? else {
        return err(0, "the file is empty (expected 'tsumi-certificate 1')");
    };
    let v = expect(&first, "tsumi-certificate", 1)?;
    let compact = if v[0] == VERSION.to_string() {
        false
    } else if v[0] == COMPACT_VERSION.to_string() {
        true
    } else {
        return err(
            first.n,
            format!(
                "version {} (this checker reads {VERSION} and {COMPACT_VERSION})",
                v[0]
            ),
        );
    };
    let l = lines.next("'size'")?;
    let size = expect(&l, "size", 1)?;
    let geo = size[0]
        .split_once('x')
        .and_then(|(r, c)| Some((decimal(r)? as usize, decimal(c)? as usize)))
        .and_then(|(r, c)| Geometry::new(r, c));
    let Some(geo) = geo else {
        return err(
            l.n,
            format!("bad size '{}' (RxC, at most 64 points)", size[0]),
        );
    };
    let l = lines.next("'komi'")?;
    let k = expect(&l, "komi", 1)?;
    let Some(komi2) = parse_komi(k[0]) else {
        return err(
            l.n,
            format!(
                "bad komi '{}': expected an optional '-', an integer without sign or leading zeros, then '.5' (e.g. 1.5, -0.5)",
                k[0]
            ),
        );
    };
    let l = lines.next("'winner'")?;
    let w = expect(&l, "winner", 1)?;
    let winner = match w[0] {
        "black" => Color::Black,
        "white" => Color::White,
        other => return err(l.n, format!("bad winner '{other}'")),
    };
    let mut l = lines.next("'start'")?;
    let s: Vec<String> = expect(&l, "start", usize::MAX)?
        .iter()
        .map(|s| s.to_string())
        .collect();
    let start = match s.first().map(String::as_str) {
        Some("moves") => {
            let steps = s[1..]
                .iter()
                .map(|m| match parse_step(&geo, l.n, m)? {
                    Step::Root => err(l.n, "'-' is not a move"),
                    st => Ok(st),
                })
                .collect::<Result<Vec<_>, _>>()?;
            l = lines.next("the root's node line")?;
            Start::Moves(steps)
        }
        Some("setup") if s.len() == 3 => {
            let board = parse_board(&geo, l.n, &s[1])?;
            let (to_move, passes) = parse_side(l.n, &s[2])?;
            let mut earlier = Vec::new();
            loop {
                l = lines.next("the root's node line")?;
                if l.words().first() != Some(&"earlier") {
                    break;
                }
                if earlier.len() >= limits.max_nodes as usize {
                    return err(
                        l.n,
                        format!("more than {} earlier boards", limits.max_nodes),
                    );
                }
                let e = expect(&l, "earlier", 1)?;
                earlier.push(parse_board(&geo, l.n, e[0])?);
            }
            Start::Setup {
                board,
                to_move,
                passes,
                earlier,
            }
        }
        _ => {
            return err(
                l.n,
                "expected 'start moves ...' or 'start setup <board> <side>'",
            );
        }
    };
    Ok((
        Header {
            geo,
            komi2,
            winner,
            start,
            compact,
        },
        l,
    ))
}

/// Reads a certificate from a stream, line by line, within `limits`.
///
/// # Errors
/// A [`ParseError`] naming the first line that does not follow the grammar: a wrong
/// version, a bad board or komi, a line over the length bound, a byte-order mark, a CR-only
/// line end, a node whose stated side does not alternate with its parent's (a wrong `all k`
/// count before it), a reference forward, more nodes than the bound, a trailer that does
/// not count the nodes, or a read error.
pub fn parse_reader<R: std::io::BufRead>(r: R, limits: Limits) -> Result<Certificate, ParseError> {
    let mut lines = Lines::new(r, limits.max_line_bytes);
    let (
        Header {
            geo,
            komi2,
            winner,
            start,
            compact,
        },
        l,
    ) = read_header(&mut lines, limits)?;
    // The compact format's root: its position from the start (the walk checks the history).
    let root = if compact {
        Some(start_position(&geo, &start))
    } else {
        None
    };
    let mut nodes: Vec<Node> = Vec::new();
    // Open nodes whose children are still being read: (index, children still to come).
    let mut open: Vec<(u32, u32)> = Vec::new();
    // The last node closed under each open node (its previous child), for messages.
    let mut last_child: Vec<Option<u32>> = Vec::new();
    // The nodes with children that the last leaf closed, innermost first.
    let mut closed_last: Vec<u32> = Vec::new();
    let mut next = Some(l);
    loop {
        let l = match next.take() {
            Some(x) => x,
            None => match lines.next_opt()? {
                Some(x) => x,
                None => {
                    let Some(&(p, left)) = open.last() else {
                        return err(
                            0,
                            format!("the file ends before the trailer 'end {}'", nodes.len()),
                        );
                    };
                    let pn = &nodes[p as usize];
                    return err(
                        0,
                        format!(
                            "the file ends before node {p} (line {}) has all its children ({left} still to come) and the trailer 'end <n>'{}",
                            pn.line,
                            or_too_large(layout_hint(&geo, &nodes), p)
                        ),
                    );
                }
            },
        };
        let n = l.n;
        let w = l.words();
        let i = nodes.len() as u32;
        if i > 0 && open.is_empty() {
            // The root is complete: only the trailer may follow.
            if w.first() != Some(&"end") {
                let hint = layout_hint(&geo, &nodes);
                if !hint.is_empty() {
                    return err(n, format!("a node line after the tree is complete{hint}"));
                }
                // The line that comes too late follows from one of the nodes just closed.
                if w.len() >= 4
                    && let (Ok(step), Ok(board), Ok((to_move, passes))) = (
                        parse_step(&geo, n, w[0]),
                        parse_board(&geo, n, w[1]),
                        parse_side(n, w[2]),
                    )
                {
                    let late = Node {
                        line: n,
                        step,
                        board,
                        to_move,
                        passes,
                        kind: Kind::End,
                        children: Vec::new(),
                    };
                    if let Some(&x) = closed_last
                        .iter()
                        .find(|&&x| follows(&geo, &nodes[x as usize], &late))
                    {
                        return err(
                            n,
                            format!(
                                "a node line after the tree is complete; it follows from node {x} (line {}): the child count of node {x} is too small",
                                nodes[x as usize].line
                            ),
                        );
                    }
                }
                let chain: Vec<String> = closed_last
                    .iter()
                    .take(8)
                    .map(|&c| format!("node {c} (line {})", nodes[c as usize].line))
                    .collect();
                return err(
                    n,
                    format!(
                        "a node line after the tree is complete: a child count is too small at one of the nodes that the previous line closed: {}",
                        chain.join(", ")
                    ),
                );
            }
            let count = expect(&l, "end", 1)?;
            if decimal(count[0]) != Some(i) {
                return err(
                    n,
                    format!("the trailer counts {} nodes, the tree has {i}", count[0]),
                );
            }
            break;
        }
        if w.len() < if compact { 2 } else { 4 } || (compact && w[0] == "end") {
            if w.first() == Some(&"end") {
                let Some(&(p, left)) = open.last() else {
                    return err(n, "the trailer comes before the root's node line");
                };
                return err(
                    n,
                    format!(
                        "the trailer comes while node {p} (line {}) still lacks {left} of its children: the tree is incomplete{}",
                        nodes[p as usize].line,
                        or_too_large(layout_hint(&geo, &nodes), p)
                    ),
                );
            }
            return err(
                n,
                if compact {
                    "a compact node line has a move and a kind"
                } else {
                    "a node line has a move, a board, a side and a kind"
                },
            );
        }
        if i >= limits.max_nodes {
            return err(
                n,
                format!(
                    "more than {} node lines (the bound on what the checker reads)",
                    limits.max_nodes
                ),
            );
        }
        let parent = match (root, open.last()) {
            (Some(r), None) => Some(r),
            (_, Some(&(p, _))) => {
                let pn = &nodes[p as usize];
                Some((pn.board, pn.to_move, pn.passes))
            }
            (None, None) => None,
        };
        let (step, board, to_move, passes, kind) =
            node_fields(&geo, compact, winner, n, &w, i, parent)?;
        if let Some(top) = open.last_mut() {
            let parent = top.0;
            let pn = &nodes[parent as usize];
            if pn.to_move == to_move {
                let before = match last_child.last().copied().flatten() {
                    Some(c) => format!(
                        ", or the count of its previous child node {c} (line {}) is too small",
                        nodes[c as usize].line
                    ),
                    None => String::new(),
                };
                let message = format!(
                    "node {i} states {} to move as its parent node {parent} (line {}) does, but every move passes the turn: node {parent}'s child count is too large{before}",
                    to_move.name(),
                    pn.line
                );
                nodes[parent as usize].children.push(i);
                nodes.push(Node {
                    line: n,
                    step,
                    board,
                    to_move,
                    passes,
                    kind,
                    children: Vec::new(),
                });
                return err(n, format!("{message}{}", layout_hint(&geo, &nodes)));
            }
            top.1 -= 1;
            nodes[parent as usize].children.push(i);
        }
        let want = match kind {
            Kind::Win => 1,
            Kind::All(k) => k,
            _ => 0,
        };
        nodes.push(Node {
            line: n,
            step,
            board,
            to_move,
            passes,
            kind,
            children: Vec::new(),
        });
        if want > 0 {
            open.push((i, want));
            last_child.push(None);
        } else {
            // Close the leaf and every node it completes, each the last child of the next.
            let mut closed = i;
            if let Some(lc) = last_child.last_mut() {
                *lc = Some(closed);
            }
            closed_last.clear();
            while open.last().is_some_and(|t| t.1 == 0) {
                closed = open.pop().expect("checked").0;
                closed_last.push(closed);
                last_child.pop();
                if let Some(lc) = last_child.last_mut() {
                    *lc = Some(closed);
                }
            }
        }
    }
    if let Some(l) = lines.next_opt()? {
        return err(l.n, "text after the trailer 'end <n>'");
    }
    Ok(Certificate {
        geo,
        komi2,
        winner,
        start,
        nodes,
    })
}

/// The fields of node line `i` (1-based file line `n`, its words `w`): its move, its
/// position (stated, or in the compact format derived from `parent`, the parent's stated
/// position, or for the root the start's) and its claim.
pub(crate) fn node_fields(
    geo: &Geometry,
    compact: bool,
    winner: Color,
    n: usize,
    w: &[&str],
    i: u32,
    parent: Option<(Board, Color, u8)>,
) -> Result<(Step, Board, Color, u8, Kind), ParseError> {
    let most_moves = geo.points() as u32 + 1;
    let step = parse_step(geo, n, w[0])?;
    if (step == Step::Root) != (i == 0) {
        return err(n, "only the root (the first node) has the move '-'");
    }
    let num = |t: &str| decimal(t).map_or_else(|| err(n, format!("bad number '{t}'")), Ok);
    let (board, to_move, passes, kind_word, args): (Board, Color, u8, &str, Vec<&str>) = if compact
    {
        if w.len() != 2 {
            return err(n, "a compact node line has a move and a kind");
        }
        let (board, to_move, passes) = match (i, parent) {
            (0, Some(r)) => r,
            (_, Some(p)) => derive(geo, p, step),
            (_, None) => return err(n, "a compact node line needs its parent's position"),
        };
        let (head, rest) = w[1].split_at(w[1].len().min(1));
        let kind_word = match head {
            "w" => "win",
            "a" => "all",
            "e" => "end",
            "y" => "eyes",
            "r" => "ref",
            _ => "",
        };
        let args = if rest.is_empty() { vec![] } else { vec![rest] };
        if kind_word.is_empty() || (args.is_empty() == matches!(head, "a" | "r")) {
            return err(n, format!("bad compact node kind '{}'", w[1]));
        }
        (board, to_move, passes, kind_word, args)
    } else {
        let board = parse_board(geo, n, w[1])?;
        let (to_move, passes) = parse_side(n, w[2])?;
        (board, to_move, passes, w[3], w[4..].to_vec())
    };
    let kind = match (kind_word, args.len()) {
        ("eyes", 0) if compact => {
            let a = crate::eyes::analyse(geo, &board, winner);
            Kind::Eyes {
                alive: a.alive,
                territory: a.territory,
            }
        }
        ("win", 0) => Kind::Win,
        ("all", 1) => {
            let k = num(args[0])?;
            if k == 0 || k > most_moves {
                return err(
                    n,
                    format!(
                        "'all {k}': the loser has between 1 (the pass) and {most_moves} moves on {geo}"
                    ),
                );
            }
            Kind::All(k)
        }
        ("end", 0) => Kind::End,
        ("eyes", 2) => Kind::Eyes {
            alive: parse_set(geo, n, args[0])?,
            territory: parse_set(geo, n, args[1])?,
        },
        ("ref", 1) => {
            let t = num(args[0])?;
            if t >= i {
                return err(
                    n,
                    format!("node {i} refers to node {t}: a reference names an earlier node"),
                );
            }
            Kind::Ref(t)
        }
        (k, _) => {
            return err(
                n,
                format!("bad node kind '{k}' or wrong number of arguments"),
            );
        }
    };
    Ok((step, board, to_move, passes, kind))
}

/// Whether node `n`'s stated position follows from `pn`'s by `n`'s move (stone rules only).
fn follows(geo: &Geometry, pn: &Node, n: &Node) -> bool {
    n.to_move == pn.to_move.other()
        && match n.step {
            Step::Pass => n.board == pn.board && n.passes == pn.passes + 1,
            Step::Stone(p) => n.passes == 0 && geo.play(&pn.board, pn.to_move, p) == Ok(n.board),
            Step::Root => false,
        }
}

/// Where a broken layout (a wrong `win`/`all` child count) first shows, as a sentence to
/// add to the error: the first node whose stated position does not follow from its parent's
/// by its move. A count that is too large takes the next line as one more child, so that
/// node is misplaced under the miscounted node; one that is too small hands the node's last
/// child up, so the miscounted node is on the last branch of the misplaced node's previous
/// sibling, the one the misplaced node follows from. Empty when every node follows.
fn layout_hint(geo: &Geometry, nodes: &[Node]) -> String {
    let mut parent = vec![u32::MAX; nodes.len()];
    for (i, n) in nodes.iter().enumerate() {
        for &c in &n.children {
            if let Some(p) = parent.get_mut(c as usize) {
                *p = i as u32;
            }
        }
    }
    for (i, n) in nodes.iter().enumerate().skip(1) {
        let p = parent[i];
        let Some(pn) = nodes.get(p as usize) else {
            continue;
        };
        if follows(geo, pn, n) {
            continue;
        }
        let siblings = &pn.children;
        let mut x = siblings
            .iter()
            .position(|&c| c as usize == i)
            .and_then(|k| k.checked_sub(1))
            .map(|k| siblings[k]);
        while let Some(b) = x {
            let bn = &nodes[b as usize];
            if follows(geo, bn, n) {
                return format!(
                    "; node {i} (line {}) follows from node {b} (line {}) but is read as a child of node {p} (line {}): the child count of node {b} is too small",
                    n.line, bn.line, pn.line
                );
            }
            x = bn.children.last().copied();
        }
        return format!(
            "; node {i} (line {}) does not follow from node {p} (line {}) by its move: the child count of node {p} is likely too large",
            n.line, pn.line
        );
    }
    String::new()
}

/// The hint of [`layout_hint`], or else that the count of node `p`, the innermost node
/// still lacking children, is too large.
fn or_too_large(hint: String, p: u32) -> String {
    if hint.is_empty() {
        format!(": the child count of node {p} is too large")
    } else {
        hint
    }
}

/// The position after `step` from `(board, to_move, passes)` by the stone rules only (an
/// illegal stone move keeps the board: the walk refuses it at that node).
fn derive(
    geo: &Geometry,
    (board, to_move, passes): (Board, Color, u8),
    step: Step,
) -> (Board, Color, u8) {
    match step {
        Step::Stone(p) => (
            geo.play(&board, to_move, p).unwrap_or(board),
            to_move.other(),
            0,
        ),
        Step::Pass | Step::Root => (board, to_move.other(), (passes + 1).min(2)),
    }
}

/// The root position of `start` by the stone rules only (the walk rebuilds and checks the
/// history).
pub(crate) fn start_position(geo: &Geometry, start: &Start) -> (Board, Color, u8) {
    match start {
        Start::Moves(steps) => steps
            .iter()
            .fold((Board::EMPTY, Color::Black, 0), |pos, &s| {
                derive(geo, pos, s)
            }),
        Start::Setup {
            board,
            to_move,
            passes,
            ..
        } => (*board, *to_move, *passes),
    }
}
