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
//! komi <k>                              a half-integer, e.g. 1.5 or -0.5
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
//! Lines starting with `#` and empty lines are ignored. A node line is
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
//! Node lines say nothing the checker takes on trust: positions are recomputed from the
//! moves, X* and T* by the checker's own analysis, the sets of Theorem 1 from the subtrees.

use crate::rules::{Board, Color, Geometry};

/// The format version this crate reads and writes.
pub const VERSION: u32 = 1;

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

/// Komi in half-points from "1.5", "-0.5", "7" (which is even in half-points, refused later).
fn parse_komi(text: &str) -> Option<i32> {
    let (neg, t) = match text.strip_prefix('-') {
        Some(t) => (true, t),
        None => (false, text),
    };
    let (int, frac) = match t.split_once('.') {
        Some((i, f)) => (i, f),
        None => (t, "0"),
    };
    let i: i32 = int.parse().ok()?;
    let half = match frac {
        "0" => 0,
        "5" => 1,
        _ => return None,
    };
    let k = i.checked_mul(2)?.checked_add(half)?;
    Some(if neg { -k } else { k })
}

/// Formats komi in half-points as "1.5" or "-0.5".
#[must_use]
pub fn komi_text(komi2: i32) -> String {
    let sign = if komi2 < 0 { "-" } else { "" };
    let a = komi2.unsigned_abs();
    if a % 2 == 0 {
        format!("{sign}{}", a / 2)
    } else {
        format!("{sign}{}.5", a / 2)
    }
}

struct Lines<'a> {
    it: std::iter::Enumerate<std::str::Lines<'a>>,
}

impl<'a> Lines<'a> {
    /// The next line that is not empty or a comment, with its 1-based number.
    fn next(&mut self) -> Result<(usize, Vec<&'a str>), ParseError> {
        for (i, l) in self.it.by_ref() {
            let t = l.trim();
            if t.is_empty() || t.starts_with('#') {
                continue;
            }
            return Ok((i + 1, t.split_ascii_whitespace().collect()));
        }
        Err(ParseError {
            line: 0,
            message: "the file ends early".into(),
        })
    }
}

fn err<T>(line: usize, message: impl Into<String>) -> Result<T, ParseError> {
    Err(ParseError {
        line,
        message: message.into(),
    })
}

fn expect<'a>(
    (n, w): &(usize, Vec<&'a str>),
    key: &str,
    args: usize,
) -> Result<Vec<&'a str>, ParseError> {
    if w.first() != Some(&key) || (args != usize::MAX && w.len() != args + 1) {
        return err(*n, format!("expected '{key}' with {args} value(s)"));
    }
    Ok(w[1..].to_vec())
}

fn parse_side(n: usize, text: &str) -> Result<(Color, u8), ParseError> {
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

/// Reads a certificate.
///
/// # Errors
/// A [`ParseError`] naming the first line that does not follow the grammar (wrong version,
/// bad board, a node count that does not match the tree's layout, ...).
pub fn parse(text: &str) -> Result<Certificate, ParseError> {
    let mut lines = Lines {
        it: text.lines().enumerate(),
    };
    let first = lines.next()?;
    let v = expect(&first, "tsumi-certificate", 1)?;
    if v[0] != VERSION.to_string() {
        return err(
            first.0,
            format!("version {} (this checker reads {VERSION})", v[0]),
        );
    }
    let l = lines.next()?;
    let size = expect(&l, "size", 1)?;
    let geo = size[0]
        .split_once('x')
        .and_then(|(r, c)| Some((r.parse().ok()?, c.parse().ok()?)))
        .and_then(|(r, c)| Geometry::new(r, c));
    let Some(geo) = geo else {
        return err(
            l.0,
            format!("bad size '{}' (RxC, at most 64 points)", size[0]),
        );
    };
    let l = lines.next()?;
    let k = expect(&l, "komi", 1)?;
    let komi2 = match parse_komi(k[0]) {
        Some(k2) if k2 % 2 != 0 => k2,
        _ => {
            return err(
                l.0,
                format!("bad komi '{}' (a half-integer such as 1.5)", k[0]),
            );
        }
    };
    let l = lines.next()?;
    let w = expect(&l, "winner", 1)?;
    let winner = match w[0] {
        "black" => Color::Black,
        "white" => Color::White,
        other => return err(l.0, format!("bad winner '{other}'")),
    };
    let mut l = lines.next()?;
    let s = expect(&l, "start", usize::MAX)?;
    let start = match s.first() {
        Some(&"moves") => {
            let steps = s[1..]
                .iter()
                .map(|m| match parse_step(&geo, l.0, m)? {
                    Step::Root => err(l.0, "'-' is not a move"),
                    st => Ok(st),
                })
                .collect::<Result<Vec<_>, _>>()?;
            l = lines.next()?;
            Start::Moves(steps)
        }
        Some(&"setup") if s.len() == 3 => {
            let board = parse_board(&geo, l.0, s[1])?;
            let (to_move, passes) = parse_side(l.0, s[2])?;
            let mut earlier = Vec::new();
            loop {
                l = lines.next()?;
                if l.1.first() != Some(&"earlier") {
                    break;
                }
                let e = expect(&l, "earlier", 1)?;
                earlier.push(parse_board(&geo, l.0, e[0])?);
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
                l.0,
                "expected 'start moves ...' or 'start setup <board> <side>'",
            );
        }
    };
    let mut nodes: Vec<Node> = Vec::new();
    // Open nodes whose children are still being read: (index, children still to come).
    let mut open: Vec<(u32, u32)> = Vec::new();
    let mut next = Some(l);
    loop {
        let (n, w) = match next.take() {
            Some(x) => x,
            None => lines.next()?,
        };
        let i = nodes.len() as u32;
        if i > 0 && open.is_empty() {
            // The root is complete: only the trailer may follow.
            let count = expect(&(n, w), "end", 1)?;
            if count[0] != i.to_string() {
                return err(
                    n,
                    format!("the trailer counts {} nodes, the tree has {i}", count[0]),
                );
            }
            break;
        }
        if w.len() < 4 {
            if w.first() == Some(&"end") {
                return err(
                    n,
                    format!("node {} lacks children (the tree is incomplete)", open[0].0),
                );
            }
            return err(n, "a node line has a move, a board, a side and a kind");
        }
        let step = parse_step(&geo, n, w[0])?;
        if (step == Step::Root) != (i == 0) {
            return err(n, "only the root (the first node) has the move '-'");
        }
        let board = parse_board(&geo, n, w[1])?;
        let (to_move, passes) = parse_side(n, w[2])?;
        let args = &w[4..];
        let num = |t: &str| {
            t.parse::<u32>()
                .map_or_else(|_| err(n, format!("bad number '{t}'")), Ok)
        };
        let kind = match (w[3], args.len()) {
            ("win", 0) => Kind::Win,
            ("all", 1) => Kind::All(num(args[0])?),
            ("end", 0) => Kind::End,
            ("eyes", 2) => Kind::Eyes {
                alive: parse_set(&geo, n, args[0])?,
                territory: parse_set(&geo, n, args[1])?,
            },
            ("ref", 1) => Kind::Ref(num(args[0])?),
            (k, _) => {
                return err(
                    n,
                    format!("bad node kind '{k}' or wrong number of arguments"),
                );
            }
        };
        if let Some(top) = open.last_mut() {
            top.1 -= 1;
            let parent = top.0;
            nodes[parent as usize].children.push(i);
        }
        while open.last().is_some_and(|t| t.1 == 0) {
            open.pop();
        }
        let want = match kind {
            Kind::Win => 1,
            Kind::All(k) => k,
            _ => 0,
        };
        if want > 0 {
            open.push((i, want));
        }
        nodes.push(Node {
            line: n,
            step,
            board,
            to_move,
            passes,
            kind,
            children: Vec::new(),
        });
    }
    if let Ok((n, _)) = lines.next() {
        return err(n, "text after 'end'");
    }
    Ok(Certificate {
        geo,
        komi2,
        winner,
        start,
        nodes,
    })
}
