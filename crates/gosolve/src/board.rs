//! The fast bitboard Go board for up to 64 points (the bit layout and the rules:
//! [`crate::bitboard`]). Superko is not a property of a board: see
//! [`crate::bitboard::Line`] and the search's path.

use crate::symmetry;
use crate::zobrist;
use games::Player;
use games::go::Symmetry;
use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor};

/// A set of points, one bit per point (see the module documentation for the layout).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Bitboard(pub u64);

impl Bitboard {
    /// The empty set.
    pub const EMPTY: Bitboard = Bitboard(0);

    /// The set holding one point.
    #[must_use]
    pub const fn from_point(p: Point) -> Self {
        Bitboard(1u64 << p.0)
    }

    /// Whether the set holds `p`.
    #[must_use]
    pub const fn contains(self, p: Point) -> bool {
        self.0 >> p.0 & 1 != 0
    }

    /// Whether the set is empty.
    #[must_use]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Number of points in the set.
    #[must_use]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// The set without the points of `other`.
    #[must_use]
    pub const fn minus(self, other: Bitboard) -> Self {
        Bitboard(self.0 & !other.0)
    }

    /// The lowest point of a non-empty set.
    #[must_use]
    pub const fn lowest(self) -> Option<Point> {
        if self.0 == 0 {
            None
        } else {
            Some(Point(self.0.trailing_zeros() as u8))
        }
    }

    /// The points of the set in increasing order.
    pub fn points(self) -> impl Iterator<Item = Point> {
        let mut b = self.0;
        std::iter::from_fn(move || {
            if b == 0 {
                None
            } else {
                let p = b.trailing_zeros() as u8;
                b &= b - 1;
                Some(Point(p))
            }
        })
    }
}

impl fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Bitboard({:#x})", self.0)
    }
}

impl BitOr for Bitboard {
    type Output = Bitboard;
    fn bitor(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 | rhs.0)
    }
}
impl BitAnd for Bitboard {
    type Output = Bitboard;
    fn bitand(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 & rhs.0)
    }
}
impl BitXor for Bitboard {
    type Output = Bitboard;
    fn bitxor(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 ^ rhs.0)
    }
}
impl BitOrAssign for Bitboard {
    fn bitor_assign(&mut self, rhs: Bitboard) {
        self.0 |= rhs.0;
    }
}
impl BitAndAssign for Bitboard {
    fn bitand_assign(&mut self, rhs: Bitboard) {
        self.0 &= rhs.0;
    }
}

/// A point of the board: its bit index (`row * cols + col`, row 0 at the bottom).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Point(pub u8);

impl Point {
    /// The bit index as an array index.
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// A move: a point, or a pass. One byte; `Move::PASS` is 255.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move(pub u8);

impl Move {
    /// The pass.
    pub const PASS: Move = Move(255);

    /// A stone on `p`.
    #[must_use]
    pub const fn play(p: Point) -> Self {
        Move(p.0)
    }

    /// Whether this is a pass.
    #[must_use]
    pub const fn is_pass(self) -> bool {
        self.0 == 255
    }

    /// The point of a stone move.
    #[must_use]
    pub const fn point(self) -> Option<Point> {
        if self.is_pass() {
            None
        } else {
            Some(Point(self.0))
        }
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_pass() {
            f.write_str("pass")
        } else {
            write!(f, "#{}", self.0)
        }
    }
}

/// Errors of board geometry.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BoardError {
    /// The size is not supported by the fast board.
    #[error(
        "unsupported size {rows}x{cols}: the fast board needs 1..=19 rows and columns and at most 64 points"
    )]
    UnsupportedSize {
        /// Rows asked for.
        rows: usize,
        /// Columns asked for.
        cols: usize,
    },
    /// A board drawing could not be read.
    #[error("bad board drawing: {0}")]
    BadDrawing(String),
}

/// Per-symmetry Zobrist keys: `[symmetry][point][colour]`.
pub type KeyTable = [[[u64; 2]; 64]; 8];

/// GTP column letters (no I).
const COLUMN_LETTERS: &[u8] = b"ABCDEFGHJKLMNOPQRST";

/// The static facts of an R×C board: masks, symmetries and per-symmetry Zobrist tables.
#[derive(Clone)]
pub struct Geometry {
    rows: u8,
    cols: u8,
    full: Bitboard,
    not_first_col: Bitboard,
    not_last_col: Bitboard,
    /// The board's symmetries in the solver's order ([`symmetry::symmetries_of`]): index `s`
    /// of every table below names `syms[s]` (only `nsym` used).
    syms: [Symmetry; 8],
    /// `sym_map[s][p]` = the image of point `p` under symmetry `s` (only `nsym` used).
    sym_map: [[u8; 64]; 8],
    /// `inverse[s]` = the symmetry undoing `s`.
    inverse: [u8; 8],
    nsym: u8,
    /// `keys[s][p][c]` = primary Zobrist key of colour `c` on point `sym_map[s][p]`.
    keys: Box<KeyTable>,
    /// The same with the second, independent key set.
    keys2: Box<KeyTable>,
}

impl fmt::Debug for Geometry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Geometry({}x{})", self.rows, self.cols)
    }
}

impl Geometry {
    /// The geometry of a board of `rows` × `cols`.
    ///
    /// # Errors
    /// [`BoardError::UnsupportedSize`] unless both sides are in 1..=19 and there are at most
    /// 64 points.
    #[allow(clippy::needless_range_loop)]
    pub fn new(rows: usize, cols: usize) -> Result<Self, BoardError> {
        if rows == 0 || cols == 0 || rows > 19 || cols > 19 || rows * cols > 64 {
            return Err(BoardError::UnsupportedSize { rows, cols });
        }
        let n = rows * cols;
        let full = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
        let mut first_col = 0u64;
        let mut last_col = 0u64;
        for r in 0..rows {
            first_col |= 1 << (r * cols);
            last_col |= 1 << (r * cols + cols - 1);
        }
        let syms = symmetry::symmetries_of(rows, cols);
        let mut sym_map = [[0u8; 64]; 8];
        for (i, &s) in syms.iter().enumerate() {
            for p in 0..n {
                let (r, c) = (p / cols, p % cols);
                let (r2, c2) = symmetry::apply(s, rows, cols, r, c);
                sym_map[i][p] = (r2 * cols + c2) as u8;
            }
        }
        let nsym = syms.len();
        let mut sym_list = [Symmetry::Identity; 8];
        sym_list[..nsym].copy_from_slice(&syms);
        let mut inverse = [0u8; 8];
        for a in 0..nsym {
            for b in 0..nsym {
                if (0..n).all(|p| sym_map[b][sym_map[a][p] as usize] as usize == p) {
                    inverse[a] = b as u8;
                    break;
                }
            }
        }
        let mut keys = Box::new([[[0u64; 2]; 64]; 8]) as Box<KeyTable>;
        let mut keys2 = Box::new([[[0u64; 2]; 64]; 8]) as Box<KeyTable>;
        for s in 0..nsym {
            for p in 0..n {
                let q = sym_map[s][p] as usize;
                for c in 0..2 {
                    keys[s][p][c] = zobrist::point_key(q, c);
                    keys2[s][p][c] = zobrist::point_key2(q, c);
                }
            }
        }
        Ok(Geometry {
            rows: rows as u8,
            cols: cols as u8,
            full: Bitboard(full),
            not_first_col: Bitboard(full & !first_col),
            not_last_col: Bitboard(full & !last_col),
            syms: sym_list,
            sym_map,
            inverse,
            nsym: nsym as u8,
            keys,
            keys2,
        })
    }

    /// Rows.
    #[must_use]
    pub fn rows(&self) -> usize {
        self.rows as usize
    }

    /// Columns.
    #[must_use]
    pub fn cols(&self) -> usize {
        self.cols as usize
    }

    /// Number of points, R·C.
    #[must_use]
    pub fn points(&self) -> usize {
        self.rows as usize * self.cols as usize
    }

    /// All points of the board.
    #[must_use]
    pub fn full(&self) -> Bitboard {
        self.full
    }

    /// Number of symmetries of the rectangle (8, 4 or 2).
    #[must_use]
    pub fn num_symmetries(&self) -> usize {
        self.nsym as usize
    }

    /// The board's symmetries; the tables of the geometry (and of the search's keys) number
    /// them by their index here, 0 being the identity.
    #[must_use]
    pub fn symmetries(&self) -> &[Symmetry] {
        &self.syms[..self.nsym as usize]
    }

    /// The symmetry number `s` (its index in [`Geometry::symmetries`]).
    ///
    /// # Panics
    /// If `s` is not below [`Geometry::num_symmetries`].
    #[must_use]
    pub fn symmetry(&self, s: usize) -> Symmetry {
        self.symmetries()[s]
    }

    /// The image of `p` under symmetry number `s` (0 is the identity; see
    /// [`Geometry::symmetry`]).
    #[must_use]
    pub fn map_point(&self, s: usize, p: Point) -> Point {
        Point(self.sym_map[s][p.index()])
    }

    /// The image of a move under symmetry `s` (a pass stays a pass).
    #[must_use]
    pub fn map_move(&self, s: usize, m: Move) -> Move {
        match m.point() {
            Some(p) => Move::play(self.map_point(s, p)),
            None => m,
        }
    }

    /// The symmetry undoing `s`.
    #[must_use]
    pub fn inverse(&self, s: usize) -> usize {
        self.inverse[s] as usize
    }

    /// The image of a set of points under symmetry `s`.
    #[must_use]
    pub fn map_bitboard(&self, s: usize, b: Bitboard) -> Bitboard {
        if s == 0 {
            return b;
        }
        let mut out = 0u64;
        for p in b.points() {
            out |= 1 << self.sym_map[s][p.index()];
        }
        Bitboard(out)
    }

    /// The image of a board under symmetry `s`.
    #[must_use]
    pub fn map_board(&self, s: usize, b: &Board) -> Board {
        Board {
            black: self.map_bitboard(s, b.black),
            white: self.map_bitboard(s, b.white),
        }
    }

    /// Primary Zobrist key of colour `c` (0 black, 1 white) at `p`, seen through symmetry `s`.
    #[must_use]
    pub fn sym_key(&self, s: usize, p: Point, c: usize) -> u64 {
        self.keys[s][p.index()][c]
    }

    /// Second-set Zobrist key of colour `c` at `p`, seen through symmetry `s`.
    #[must_use]
    pub fn sym_key2(&self, s: usize, p: Point, c: usize) -> u64 {
        self.keys2[s][p.index()][c]
    }

    /// The change of the (primary, second) hashes of `s(board)` when `colour` places a stone
    /// on `p` and captures the opponent stones `captured` (incremental hashing).
    #[must_use]
    #[inline]
    pub fn hash_delta(&self, s: usize, colour: Player, p: Point, captured: Bitboard) -> (u64, u64) {
        let c = colour.index();
        let mut a = self.keys[s][p.index()][c];
        let mut b = self.keys2[s][p.index()][c];
        for q in captured.points() {
            a ^= self.keys[s][q.index()][1 - c];
            b ^= self.keys2[s][q.index()][1 - c];
        }
        (a, b)
    }

    /// The per-symmetry key tables (primary, second) for the hot loop of the search.
    pub(crate) fn key_tables(&self) -> (&KeyTable, &KeyTable) {
        (&self.keys, &self.keys2)
    }

    /// The neighbours of a set: points adjacent to some point of `b` (may overlap `b`).
    #[must_use]
    #[inline]
    pub fn neighbours(&self, b: Bitboard) -> Bitboard {
        let x = b.0;
        let cols = self.cols as u32;
        Bitboard(
            ((x << 1) & self.not_first_col.0)
                | ((x >> 1) & self.not_last_col.0)
                | (x.checked_shl(cols).unwrap_or(0) & self.full.0)
                | x.checked_shr(cols).unwrap_or(0),
        )
    }

    /// The connected part of `within` that contains the points of `seed` (flood fill).
    #[must_use]
    #[inline]
    pub fn flood(&self, seed: Bitboard, within: Bitboard) -> Bitboard {
        let mut g = seed & within;
        loop {
            let next = (g | self.neighbours(g)) & within;
            if next == g {
                return g;
            }
            g = next;
        }
    }

    /// The point at `row`, `col` (0-based, row 0 at the bottom).
    #[must_use]
    pub fn point(&self, row: usize, col: usize) -> Point {
        debug_assert!(row < self.rows() && col < self.cols());
        Point((row * self.cols as usize + col) as u8)
    }

    /// The GTP name of a point, e.g. "C3".
    #[must_use]
    pub fn point_name(&self, p: Point) -> String {
        let (r, c) = (p.index() / self.cols(), p.index() % self.cols());
        format!("{}{}", COLUMN_LETTERS[c] as char, r + 1)
    }

    /// The GTP name of a move ("pass" or e.g. "C3").
    #[must_use]
    pub fn move_name(&self, m: Move) -> String {
        match m.point() {
            Some(p) => self.point_name(p),
            None => "pass".to_string(),
        }
    }

    /// Parses a GTP move ("pass", "C3", case-insensitive) on this board.
    #[must_use]
    pub fn parse_move(&self, text: &str) -> Option<Move> {
        let t = text.trim().to_ascii_uppercase();
        if t == "PASS" {
            return Some(Move::PASS);
        }
        let mut chars = t.chars();
        let letter = chars.next()? as u8;
        let c = COLUMN_LETTERS.iter().position(|&l| l == letter)?;
        let r: usize = chars.as_str().parse().ok()?;
        if c >= self.cols() || r == 0 || r > self.rows() {
            return None;
        }
        Some(Move::play(self.point(r - 1, c)))
    }
}

/// The stones of a board. Copy, 16 bytes. Positions (side to move, pass state) and histories
/// are [`crate::bitboard::Position`] and [`crate::bitboard::Line`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Board {
    /// Black stones.
    pub black: Bitboard,
    /// White stones.
    pub white: Bitboard,
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board(b={:#x}, w={:#x})", self.black.0, self.white.0)
    }
}

/// The result of placing a stone: the new board and the captured stones.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placed {
    /// The board after the move.
    pub board: Board,
    /// The opponent stones removed by the move.
    pub captured: Bitboard,
}

impl Board {
    /// The empty board.
    pub const EMPTY: Board = Board {
        black: Bitboard::EMPTY,
        white: Bitboard::EMPTY,
    };

    /// The stones of `c`.
    #[must_use]
    #[inline]
    pub fn stones(&self, c: Player) -> Bitboard {
        match c {
            Player::Black => self.black,
            Player::White => self.white,
        }
    }

    /// All stones.
    #[must_use]
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.black | self.white
    }

    /// The empty points.
    #[must_use]
    #[inline]
    pub fn empty(&self, geo: &Geometry) -> Bitboard {
        geo.full.minus(self.occupied())
    }

    /// The colour on `p`, if any.
    #[must_use]
    pub fn at(&self, p: Point) -> Option<Player> {
        if self.black.contains(p) {
            Some(Player::Black)
        } else if self.white.contains(p) {
            Some(Player::White)
        } else {
            None
        }
    }

    /// Places a stone of `c` on `p`: removes opponent chains left without liberties, then
    /// rejects suicide. Returns `None` if `p` is occupied or the move is suicide. Superko is
    /// not checked here.
    #[must_use]
    #[inline]
    pub fn place(&self, geo: &Geometry, c: Player, p: Point) -> Option<Placed> {
        let pb = Bitboard::from_point(p);
        let occ = self.occupied();
        if occ.0 & pb.0 != 0 {
            return None;
        }
        let (own, opp) = match c {
            Player::Black => (self.black, self.white),
            Player::White => (self.white, self.black),
        };
        let own = own | pb;
        let empty = geo.full.minus(occ | pb);
        let mut captured = Bitboard::EMPTY;
        let nb = geo.neighbours(pb);
        let mut adj = nb & opp;
        while let Some(q) = adj.lowest() {
            let chain = geo.flood(Bitboard::from_point(q), opp);
            adj = adj.minus(chain);
            if (geo.neighbours(chain) & empty).is_empty() {
                captured |= chain;
            }
        }
        let opp = opp.minus(captured);
        let empty = empty | captured;
        // Suicide: the new stone's chain must have a liberty (a quick test first).
        if (nb & empty).is_empty() {
            let chain = geo.flood(pb, own);
            if (geo.neighbours(chain) & empty).is_empty() {
                return None;
            }
        }
        let board = match c {
            Player::Black => Board {
                black: own,
                white: opp,
            },
            Player::White => Board {
                black: opp,
                white: own,
            },
        };
        Some(Placed { board, captured })
    }

    /// Area score: Black's stones and empty regions bordered only by Black, minus the same
    /// for White (komi not included).
    #[must_use]
    pub fn area_score(&self, geo: &Geometry) -> i32 {
        let empty = self.empty(geo);
        let reach_b = geo.flood(geo.neighbours(self.black) & empty, empty);
        let reach_w = geo.flood(geo.neighbours(self.white) & empty, empty);
        let black = self.black.count() + reach_b.minus(reach_w).count();
        let white = self.white.count() + reach_w.minus(reach_b).count();
        black as i32 - white as i32
    }

    /// The primary Zobrist hash of the stones (no side to move, no pass state).
    #[must_use]
    pub fn hash(&self, geo: &Geometry) -> u64 {
        self.sym_hash(geo, 0)
    }

    /// The primary Zobrist hash of the image of the stones under symmetry `s`.
    #[must_use]
    pub fn sym_hash(&self, geo: &Geometry, s: usize) -> u64 {
        let mut h = 0;
        for p in self.black.points() {
            h ^= geo.keys[s][p.index()][0];
        }
        for p in self.white.points() {
            h ^= geo.keys[s][p.index()][1];
        }
        h
    }

    /// The second-set Zobrist hash of the image of the stones under symmetry `s`.
    #[must_use]
    pub fn sym_hash2(&self, geo: &Geometry, s: usize) -> u64 {
        let mut h = 0;
        for p in self.black.points() {
            h ^= geo.keys2[s][p.index()][0];
        }
        for p in self.white.points() {
            h ^= geo.keys2[s][p.index()][1];
        }
        h
    }

    /// Reads a drawing like `"X.O/..X/OOX"`: rows from the top, `X` black, `O` white, `.`
    /// empty, rows separated by `/` or newlines.
    ///
    /// # Errors
    /// [`BoardError::BadDrawing`] if the drawing does not fit the geometry.
    pub fn from_drawing(geo: &Geometry, text: &str) -> Result<Board, BoardError> {
        let rows: Vec<&str> = text
            .split(['/', '\n'])
            .map(str::trim)
            .filter(|r| !r.is_empty())
            .collect();
        if rows.len() != geo.rows() {
            return Err(BoardError::BadDrawing(format!(
                "{} rows, expected {}",
                rows.len(),
                geo.rows()
            )));
        }
        let mut b = Board::EMPTY;
        for (i, row) in rows.iter().enumerate() {
            let r = geo.rows() - 1 - i;
            let cells: Vec<char> = row.chars().filter(|c| !c.is_whitespace()).collect();
            if cells.len() != geo.cols() {
                return Err(BoardError::BadDrawing(format!(
                    "row '{row}' has {} points",
                    cells.len()
                )));
            }
            for (c, ch) in cells.iter().enumerate() {
                let p = Bitboard::from_point(geo.point(r, c));
                match ch {
                    'X' | 'x' | 'B' | 'b' => b.black |= p,
                    'O' | 'o' | 'W' | 'w' => b.white |= p,
                    '.' | '+' => {}
                    _ => return Err(BoardError::BadDrawing(format!("unknown point '{ch}'"))),
                }
            }
        }
        Ok(b)
    }

    /// The drawing of the board, rows from the top separated by `/` (see [`Board::from_drawing`]).
    #[must_use]
    pub fn drawing(&self, geo: &Geometry) -> String {
        let mut s = String::new();
        for r in (0..geo.rows()).rev() {
            for c in 0..geo.cols() {
                s.push(match self.at(geo.point(r, c)) {
                    Some(Player::Black) => 'X',
                    Some(Player::White) => 'O',
                    None => '.',
                });
            }
            if r > 0 {
                s.push('/');
            }
        }
        s
    }

    /// Checks internal consistency (test helper): no overlap, stones on the board, every
    /// chain has a liberty.
    ///
    /// # Panics
    /// On a broken invariant.
    pub fn check_invariants(&self, geo: &Geometry) {
        assert!((self.black & self.white).is_empty(), "overlapping stones");
        assert!(
            self.occupied().minus(geo.full).is_empty(),
            "stones off the board"
        );
        let empty = self.empty(geo);
        for stones in [self.black, self.white] {
            let mut rest = stones;
            while let Some(p) = rest.lowest() {
                let chain = geo.flood(Bitboard::from_point(p), stones);
                assert!(
                    !(geo.neighbours(chain) & empty).is_empty(),
                    "chain without liberty"
                );
                rest = rest.minus(chain);
            }
        }
    }
}
