//! The checker's own Go rules: boards of at most 64 points, captures, suicide, area scoring.
//!
//! Written apart from `games::go` and `gosolve::board` on purpose (the checker must not share
//! code with what it checks). A point is an index `row * cols + col`, row 0 at the bottom,
//! column 0 on the left; a board is two 64-bit masks (bit i = point i):
//!
//! ```text
//!   4x4:  row 3 | 12 13 14 15      drawn as "..../..../..../....": rows from the top,
//!         row 2 |  8  9 10 11      'X' Black, 'O' White, '.' empty, rows separated by '/'
//!         row 1 |  4  5  6  7
//!         row 0 |  0  1  2  3      point names: column letter (A..T without I) + row (1-based)
//! ```
//!
//! Chains and regions are found by a plain worklist over per-point neighbour masks, not by
//! shifts, so a shift bug in the solver's bitboards cannot repeat here.

use std::fmt;

/// Column letters of point names (GTP: no 'I').
const LETTERS: &[u8] = b"ABCDEFGHJKLMNOPQRST";

/// A colour (the side to move, the owner of a stone).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    /// Black (moves first).
    Black,
    /// White.
    White,
}

impl Color {
    /// The other colour.
    #[must_use]
    pub const fn other(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// "black" or "white".
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Color::Black => "black",
            Color::White => "white",
        }
    }
}

/// The stones of a board: bit i of `black` (`white`) is a Black (White) stone on point i.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Board {
    /// Black stones.
    pub black: u64,
    /// White stones.
    pub white: u64,
}

impl Board {
    /// The empty board.
    pub const EMPTY: Board = Board { black: 0, white: 0 };

    /// The stones of `c`.
    #[must_use]
    pub const fn stones(&self, c: Color) -> u64 {
        match c {
            Color::Black => self.black,
            Color::White => self.white,
        }
    }

    fn stones_mut(&mut self, c: Color) -> &mut u64 {
        match c {
            Color::Black => &mut self.black,
            Color::White => &mut self.white,
        }
    }

    /// Occupied points.
    #[must_use]
    pub const fn occupied(&self) -> u64 {
        self.black | self.white
    }
}

/// Why a stone move is not legal on the current board (superko is the caller's test).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Illegal {
    /// The point holds a stone.
    Occupied,
    /// The move leaves its own chain without liberties.
    Suicide,
}

/// A rectangular board of `rows` x `cols` points (at most 64).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Geometry {
    rows: usize,
    cols: usize,
    /// Neighbour mask of every point.
    nbr: Vec<u64>,
}

impl Geometry {
    /// A board of `rows` x `cols`, or `None` unless 1 ≤ rows, cols ≤ 19 and rows·cols ≤ 64.
    #[must_use]
    pub fn new(rows: usize, cols: usize) -> Option<Geometry> {
        if rows == 0 || cols == 0 || rows > 19 || cols > 19 || rows * cols > 64 {
            return None;
        }
        let mut nbr = vec![0u64; rows * cols];
        for r in 0..rows {
            for c in 0..cols {
                let mut m = 0u64;
                if r > 0 {
                    m |= 1 << ((r - 1) * cols + c);
                }
                if r + 1 < rows {
                    m |= 1 << ((r + 1) * cols + c);
                }
                if c > 0 {
                    m |= 1 << (r * cols + c - 1);
                }
                if c + 1 < cols {
                    m |= 1 << (r * cols + c + 1);
                }
                nbr[r * cols + c] = m;
            }
        }
        Some(Geometry { rows, cols, nbr })
    }

    /// Rows.
    #[must_use]
    pub const fn rows(&self) -> usize {
        self.rows
    }

    /// Columns.
    #[must_use]
    pub const fn cols(&self) -> usize {
        self.cols
    }

    /// Number of points.
    #[must_use]
    pub const fn points(&self) -> usize {
        self.rows * self.cols
    }

    /// The mask of every point.
    #[must_use]
    pub const fn full(&self) -> u64 {
        if self.rows * self.cols == 64 {
            u64::MAX
        } else {
            (1u64 << (self.rows * self.cols)) - 1
        }
    }

    /// Points adjacent to some point of `set` (may include points of `set`).
    #[must_use]
    pub fn adjacent(&self, set: u64) -> u64 {
        let mut out = 0;
        let mut rest = set;
        while rest != 0 {
            let p = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            out |= self.nbr[p];
        }
        out
    }

    /// The connected component of `within` containing point `p` (which must be in `within`).
    #[must_use]
    pub fn component(&self, p: usize, within: u64) -> u64 {
        let mut comp = 1u64 << p;
        let mut todo = vec![p];
        while let Some(q) = todo.pop() {
            let mut n = self.nbr[q] & within & !comp;
            while n != 0 {
                let r = n.trailing_zeros() as usize;
                n &= n - 1;
                comp |= 1 << r;
                todo.push(r);
            }
        }
        comp
    }

    /// The maximal connected subsets of `set`.
    #[must_use]
    pub fn components(&self, set: u64) -> Vec<u64> {
        let mut out = Vec::new();
        let mut rest = set;
        while rest != 0 {
            let c = self.component(rest.trailing_zeros() as usize, set);
            rest &= !c;
            out.push(c);
        }
        out
    }

    /// The board after `c` plays on point `p`: captures opponent chains left without
    /// liberties.
    ///
    /// # Errors
    /// [`Illegal::Occupied`] or [`Illegal::Suicide`].
    pub fn play(&self, board: &Board, c: Color, p: usize) -> Result<Board, Illegal> {
        let bit = 1u64 << p;
        if board.occupied() & bit != 0 {
            return Err(Illegal::Occupied);
        }
        let mut b = *board;
        *b.stones_mut(c) |= bit;
        let empty = self.full() & !b.occupied();
        let opp = b.stones(c.other());
        let mut cand = self.nbr[p] & opp;
        while cand != 0 {
            let q = cand.trailing_zeros() as usize;
            let chain = self.component(q, opp);
            cand &= !chain;
            if self.adjacent(chain) & empty == 0 {
                *b.stones_mut(c.other()) &= !chain;
            }
        }
        let empty = self.full() & !b.occupied();
        let own = self.component(p, b.stones(c));
        if self.adjacent(own) & empty == 0 {
            return Err(Illegal::Suicide);
        }
        Ok(b)
    }

    /// Area score, Black minus White: stones plus the empty regions that touch only that
    /// colour (komi not included).
    #[must_use]
    pub fn area_score(&self, board: &Board) -> i32 {
        let empty = self.full() & !board.occupied();
        let mut score = board.black.count_ones() as i32 - board.white.count_ones() as i32;
        for region in self.components(empty) {
            let around = self.adjacent(region);
            let b = around & board.black != 0;
            let w = around & board.white != 0;
            let size = region.count_ones() as i32;
            if b && !w {
                score += size;
            } else if w && !b {
                score -= size;
            }
        }
        score
    }

    /// The name of point `p`, e.g. "C3".
    #[must_use]
    pub fn point_name(&self, p: usize) -> String {
        format!("{}{}", LETTERS[p % self.cols] as char, p / self.cols + 1)
    }

    /// Parses a point name ("C3", any letter case) on this board.
    #[must_use]
    pub fn parse_point(&self, text: &str) -> Option<usize> {
        let t = text.to_ascii_uppercase();
        let letter = *t.as_bytes().first()?;
        let c = LETTERS.iter().position(|&l| l == letter)?;
        let digits = t.get(1..)?;
        if digits.is_empty()
            || digits.len() > 2
            || digits.starts_with('0')
            || !digits.bytes().all(|b| b.is_ascii_digit())
        {
            return None;
        }
        let r: usize = digits.parse().ok()?;
        (c < self.cols && r >= 1 && r <= self.rows).then(|| (r - 1) * self.cols + c)
    }

    /// The drawing of a board ("X.O/..X": rows from the top).
    #[must_use]
    pub fn draw(&self, board: &Board) -> String {
        self.draw_with(|p| {
            if board.black >> p & 1 == 1 {
                'X'
            } else if board.white >> p & 1 == 1 {
                'O'
            } else {
                '.'
            }
        })
    }

    /// The drawing of a point set ('#' in the set, '.' not).
    #[must_use]
    pub fn draw_set(&self, set: u64) -> String {
        self.draw_with(|p| if set >> p & 1 == 1 { '#' } else { '.' })
    }

    fn draw_with(&self, f: impl Fn(usize) -> char) -> String {
        let mut s = String::with_capacity(self.points() + self.rows);
        for r in (0..self.rows).rev() {
            for c in 0..self.cols {
                s.push(f(r * self.cols + c));
            }
            if r > 0 {
                s.push('/');
            }
        }
        s
    }

    /// Reads a drawing of `rows` rows of `cols` characters separated by '/': `stone(ch)`
    /// gives a point's value, `None` for an unknown character.
    fn read_with(&self, text: &str, mut put: impl FnMut(usize, char) -> bool) -> Option<()> {
        let rows: Vec<&str> = text.split('/').collect();
        if rows.len() != self.rows {
            return None;
        }
        for (i, row) in rows.iter().enumerate() {
            let r = self.rows - 1 - i;
            if row.chars().count() != self.cols {
                return None;
            }
            for (c, ch) in row.chars().enumerate() {
                if !put(r * self.cols + c, ch) {
                    return None;
                }
            }
        }
        Some(())
    }

    /// Parses a board drawing ("X.O/..X"; see [`Geometry::draw`]).
    #[must_use]
    pub fn parse_board(&self, text: &str) -> Option<Board> {
        let mut b = Board::EMPTY;
        self.read_with(text, |p, ch| {
            match ch {
                'X' => b.black |= 1 << p,
                'O' => b.white |= 1 << p,
                '.' => {}
                _ => return false,
            }
            true
        })?;
        Some(b)
    }

    /// Parses a point-set drawing ("#./.#"; see [`Geometry::draw_set`]).
    #[must_use]
    pub fn parse_set(&self, text: &str) -> Option<u64> {
        let mut s = 0u64;
        self.read_with(text, |p, ch| {
            match ch {
                '#' => s |= 1 << p,
                '.' => {}
                _ => return false,
            }
            true
        })?;
        Some(s)
    }

    /// Whether every chain of `board` has a liberty (a board that can occur in a game).
    #[must_use]
    pub fn all_chains_breathe(&self, board: &Board) -> bool {
        let empty = self.full() & !board.occupied();
        [board.black, board.white].iter().all(|&stones| {
            self.components(stones)
                .iter()
                .all(|&ch| self.adjacent(ch) & empty != 0)
        })
    }
}

impl fmt::Display for Geometry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.rows, self.cols)
    }
}
