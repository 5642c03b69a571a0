//! Shared mechanics of the two Go variants here, NoGo and AtariGo: a W×H grid, GTP
//! coordinates, drawings, the position on the fast board ([`crate::fastboard`]) and uniform
//! sampling of empty points; for the tests, a slow one-pass chain analysis of a plain array
//! that the fast board is checked against.
//!
//! Coordinates are GTP's: columns `A`, `B`, … skipping `I`, row `1` at the **bottom**. Points
//! are indexed `row × W + col` with row 0 at the bottom.

use crate::Player;
use crate::dims::SizeError;
use crate::fastboard::FastBoard;
use std::fmt;

/// Largest side supported (19, as in Go).
pub const MAX_SIDE: usize = 19;
const MAX_POINTS: usize = MAX_SIDE * MAX_SIDE;
#[cfg(test)]
const NONE: u16 = u16::MAX;

/// A point of a Go-variant board: the one Go point, [`crate::go::Point`] (GTP coordinates,
/// `C3`, row 0 at the bottom).
pub use crate::go::Point;

/// The GTP letter of a column (skipping `I`).
#[must_use]
pub const fn column_letter(col: u8) -> char {
    let c = if col >= 8 { col + 1 } else { col };
    (b'A' + c) as char
}

/// Grid geometry: dimensions and neighbour lists.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Grid {
    pub width: usize,
    pub height: usize,
}

/// The position of NoGo or AtariGo: stones on the fast board, side to move and result.
///
/// Equality and `Hash` look at the stones, the side to move and the result (not at the
/// board's internal chain lists).
#[derive(Clone)]
pub(crate) struct Stones {
    pub board: FastBoard,
    pub to_move: Player,
    pub winner: Option<Player>,
}

impl PartialEq for Stones {
    fn eq(&self, o: &Self) -> bool {
        self.board.same_stones(&o.board) && (self.to_move, self.winner) == (o.to_move, o.winner)
    }
}

impl Eq for Stones {}

impl std::hash::Hash for Stones {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.board.hash_stones(state);
        (self.to_move, self.winner).hash(state);
    }
}

impl fmt::Debug for Stones {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Stones")
            .field("board", &self.board)
            .field("to_move", &self.to_move)
            .field("winner", &self.winner)
            .finish()
    }
}

impl Stones {
    /// The empty position of `grid` with Black to move and no result yet.
    pub fn empty(grid: &Grid) -> Self {
        Self {
            board: grid.fast_board(),
            to_move: Player::Black,
            winner: None,
        }
    }

    /// The position of a drawing (rows from the top, `X` Black, `O` White, `.` empty) with
    /// `to_move` to play and no result yet.
    ///
    /// # Errors
    /// A one-line message when the drawing does not fit or a chain has no liberty.
    pub fn from_drawing(
        grid: &Grid,
        keys: &[[u64; 2]],
        text: &str,
        to_move: Player,
    ) -> Result<Self, String> {
        let cells = grid.parse_drawing(text)?;
        let board = grid
            .board_from_cells(&cells, keys)
            .map_err(|p| format!("setup: the chain at {p} has no liberty"))?;
        Ok(Self {
            board,
            to_move,
            winner: None,
        })
    }

    /// Whether the player to move has a move that `legal` (on a padded empty cell) accepts.
    #[inline]
    pub fn has_move(&self, legal: impl Fn(&Self, usize) -> bool) -> bool {
        self.board
            .empties()
            .iter()
            .any(|&p| legal(self, p as usize))
    }

    /// The moves `legal` accepts, in the board's point order, into `out` (cleared first);
    /// none once the game is decided.
    #[inline]
    pub fn legal_points(&self, out: &mut Vec<Point>, legal: impl Fn(&Self, usize) -> bool) {
        out.clear();
        if self.winner.is_some() {
            return;
        }
        for p in self.board.points() {
            if legal(self, p) {
                out.push(Grid::point_of(&self.board, p));
            }
        }
    }

    /// A uniform draw among the moves `legal` accepts ([`sample_empty`]); `None` once the game
    /// is decided or when there is none.
    #[inline]
    pub fn random_legal(
        &self,
        rng: &mut dyn rand::RngCore,
        legal: impl Fn(&Self, usize) -> bool,
    ) -> Option<Point> {
        if self.winner.is_some() {
            return None;
        }
        sample_empty(&self.board, rng, |p| legal(self, p)).map(|p| Grid::point_of(&self.board, p))
    }

    /// The position's Zobrist key: the board's incremental key, with `side_key` when White is
    /// to move.
    #[inline]
    pub fn key(&self, side_key: u64) -> u64 {
        let side = if self.to_move == Player::White {
            side_key
        } else {
            0
        };
        self.board.hash() ^ side
    }

    /// [`Stones::key`] recomputed from the stones with the point keys `key` (the reference the
    /// incremental key is tested against).
    pub fn key_from_scratch(&self, key: fn(usize, Player) -> u64, side_key: u64) -> u64 {
        let mut h = if self.to_move == Player::White {
            side_key
        } else {
            0
        };
        for (p, &b) in self.board.compact_cells().iter().enumerate() {
            match b {
                1 => h ^= key(p, Player::Black),
                2 => h ^= key(p, Player::White),
                _ => {}
            }
        }
        h
    }

    /// The first checks of a move's text in `game`: a point of the grid, a game not over and an
    /// empty point. Returns the point and its padded cell.
    ///
    /// # Errors
    /// One line naming the game, the text and the reason.
    pub fn parse_empty_point(
        &self,
        grid: &Grid,
        game: &str,
        text: &str,
    ) -> Result<(Point, usize), String> {
        let pt = grid.parse_point(game, text)?;
        if self.winner.is_some() {
            return Err(format!("illegal {game} move '{text}': the game is over"));
        }
        let p = Grid::cell(&self.board, pt);
        if self.board.colour(p) != crate::fastboard::EMPTY {
            return Err(format!(
                "illegal {game} move '{text}': the point is occupied"
            ));
        }
        Ok((pt, p))
    }
}

/// Draws empty points of `board` until `ok` accepts one: a uniform draw among the accepted
/// points, or `None` when there is none. Allocates nothing.
#[inline]
pub(crate) fn sample_empty(
    board: &FastBoard,
    rng: &mut dyn rand::RngCore,
    ok: impl FnMut(usize) -> bool,
) -> Option<usize> {
    sample_points(board.empties(), rng, ok)
}

/// Draws points of `points` (distinct, at most `MAX_POINTS`) until `ok` accepts one: a few
/// draws with replacement first (rejection sampling: uniform over the accepted points), then,
/// if all were rejected, draws without replacement over a copy of the list (uniform too), so
/// the mixture is uniform and always ends. `None` when no point is accepted. Generic over the
/// generator so that a concrete one is inlined; `&mut dyn RngCore` draws the same numbers.
#[inline]
pub(crate) fn sample_points<R: rand::RngCore + ?Sized>(
    points: &[u16],
    rng: &mut R,
    mut ok: impl FnMut(usize) -> bool,
) -> Option<usize> {
    use rand::Rng;
    let n = points.len();
    if n == 0 {
        return None;
    }
    for _ in 0..4 {
        let p = points[rng.random_range(0..n as u32) as usize] as usize;
        if ok(p) {
            return Some(p);
        }
    }
    // In a buffer no larger than needed: a 19×19 one would cost a 722-byte clear per call.
    if n <= 32 {
        draw_without_replacement::<32, R>(points, rng, ok)
    } else {
        draw_without_replacement::<MAX_POINTS, R>(points, rng, ok)
    }
}

/// The second phase of [`sample_points`]: draws among `points` (at most `N`) without
/// replacement until `ok` accepts one.
#[inline(always)]
fn draw_without_replacement<const N: usize, R: rand::RngCore + ?Sized>(
    points: &[u16],
    rng: &mut R,
    mut ok: impl FnMut(usize) -> bool,
) -> Option<usize> {
    use rand::Rng;
    let mut cand = [0u16; N];
    let mut n = points.len();
    cand[..n].copy_from_slice(points);
    while n > 0 {
        let k = rng.random_range(0..n as u32) as usize;
        let p = cand[k] as usize;
        if ok(p) {
            return Some(p);
        }
        n -= 1;
        cand[k] = cand[n];
    }
    None
}

/// The slow reference of the tests: the chains of a compact board, for every stone its chain id, for every chain its liberty count
/// capped at 2 (0, 1 or "2 or more").
#[cfg(test)]
pub(crate) struct Chains {
    chain: [u16; MAX_POINTS],
    libs: [u8; MAX_POINTS],
}

impl Grid {
    pub fn new(game: &'static str, width: usize, height: usize) -> Result<Self, SizeError> {
        if !(1..=MAX_SIDE).contains(&width) || !(1..=MAX_SIDE).contains(&height) {
            return Err(SizeError::Unsupported {
                game,
                width,
                height,
                allowed: "width and height from 1 to 19",
            });
        }
        Ok(Self { width, height })
    }

    pub const fn points(&self) -> usize {
        self.width * self.height
    }

    /// The on-board neighbours of compact point `p` (the slow reference's geometry).
    #[cfg(test)]
    pub fn neighbours(&self, p: usize) -> Vec<u16> {
        let (w, r, c) = (self.width, p / self.width, p % self.width);
        let mut v = Vec::with_capacity(4);
        if c > 0 {
            v.push((p - 1) as u16);
        }
        if c + 1 < w {
            v.push((p + 1) as u16);
        }
        if r > 0 {
            v.push((p - w) as u16);
        }
        if r + 1 < self.height {
            v.push((p + w) as u16);
        }
        v
    }

    pub const fn index(&self, pt: Point) -> usize {
        pt.row as usize * self.width + pt.col as usize
    }

    pub const fn point(&self, i: usize) -> Point {
        Point {
            col: (i % self.width) as u8,
            row: (i / self.width) as u8,
        }
    }

    /// The empty fast board of this grid.
    pub fn fast_board(&self) -> FastBoard {
        FastBoard::new(self.width, self.height)
    }

    /// The padded cell of a point on `board` (a fast board of this grid).
    pub fn cell(board: &FastBoard, pt: Point) -> usize {
        board.cell(usize::from(pt.row), usize::from(pt.col))
    }

    /// The point of a padded cell of `board`.
    pub fn point_of(board: &FastBoard, p: usize) -> Point {
        let (row, col) = board.row_col(p);
        Point {
            col: col as u8,
            row: row as u8,
        }
    }

    /// Zobrist keys by padded cell of this grid's fast board, from `key(compact index, player)`.
    pub fn cell_keys(&self, key: fn(usize, Player) -> u64) -> Vec<[u64; 2]> {
        let b = self.fast_board();
        let mut keys = vec![[0u64; 2]; b.cells()];
        for p in b.points() {
            let i = b.compact(p);
            keys[p] = [key(i, Player::Black), key(i, Player::White)];
        }
        keys
    }

    /// A fast board from a compact drawing (0 empty, 1 Black, 2 White per point), or the first
    /// point whose chain has no liberty.
    pub fn board_from_cells(&self, cells: &[u8], keys: &[[u64; 2]]) -> Result<FastBoard, Point> {
        let mut b = self.fast_board();
        for (i, &c) in cells.iter().enumerate() {
            if c == 1 || c == 2 {
                let pl = if c == 1 { Player::Black } else { Player::White };
                let pt = self.point(i);
                b.place(Self::cell(&b, pt), pl, false, keys);
            }
        }
        for (i, &c) in cells.iter().enumerate() {
            if c != 0 && b.no_liberty(Self::cell(&b, self.point(i))) {
                return Err(self.point(i));
            }
        }
        Ok(b)
    }

    /// Parses a GTP point (`C3`, case-insensitive, no `I`) that lies on the board.
    pub fn parse_point(&self, game: &str, text: &str) -> Result<Point, String> {
        let t = text.trim().to_ascii_uppercase();
        let mut chars = t.chars();
        let bad = || format!("bad {game} move '{text}': expected a point like C3");
        let letter = chars.next().ok_or_else(bad)?;
        if !letter.is_ascii_uppercase() || letter == 'I' {
            return Err(bad());
        }
        let mut col = letter as u8 - b'A';
        if letter > 'I' {
            col -= 1;
        }
        let row: usize = chars.as_str().parse().map_err(|_| bad())?;
        if col as usize >= self.width || row == 0 || row > self.height {
            return Err(format!(
                "{game} move '{text}' is off the {}x{} board",
                self.width, self.height
            ));
        }
        Ok(Point {
            col,
            row: (row - 1) as u8,
        })
    }

    /// Labels chains and counts their liberties (capped at 2) in one pass over the board.
    /// `board` holds 0 empty, 1 Black, 2 White per point.
    #[cfg(test)]
    pub fn chains(&self, board: &[u8]) -> Chains {
        let mut ch = Chains {
            chain: [NONE; MAX_POINTS],
            libs: [0; MAX_POINTS],
        };
        let mut stack = [0u16; MAX_POINTS];
        let mut next_id = 0u16;
        for start in 0..self.points() {
            if board[start] == 0 || ch.chain[start] != NONE {
                continue;
            }
            let colour = board[start];
            let id = next_id;
            next_id += 1;
            let (mut libs, mut first_lib) = (0u8, NONE);
            ch.chain[start] = id;
            stack[0] = start as u16;
            let mut top = 1;
            while top > 0 {
                top -= 1;
                let p = stack[top] as usize;
                for n in self.neighbours(p) {
                    let n = n as usize;
                    if board[n] == 0 {
                        if libs == 0 {
                            libs = 1;
                            first_lib = n as u16;
                        } else if libs == 1 && first_lib != n as u16 {
                            libs = 2;
                        }
                    } else if board[n] == colour && ch.chain[n] == NONE {
                        ch.chain[n] = id;
                        stack[top] = n as u16;
                        top += 1;
                    }
                }
            }
            ch.libs[id as usize] = libs;
        }
        ch
    }

    /// For a stone of `p` on the empty point `at`: whether it captures (an adjacent enemy chain
    /// has `at` as its only liberty) and whether the new chain has a liberty.
    #[cfg(test)]
    pub fn move_effects(
        &self,
        board: &[u8],
        chains: &Chains,
        at: usize,
        p: Player,
    ) -> (bool, bool) {
        let own = 1 + p.index() as u8;
        let (mut captures, mut breathes) = (false, false);
        for n in self.neighbours(at) {
            let n = n as usize;
            let b = board[n];
            if b == 0 {
                breathes = true;
            } else {
                let libs = chains.libs[chains.chain[n] as usize];
                if b == own {
                    breathes |= libs >= 2;
                } else {
                    captures |= libs == 1;
                }
            }
        }
        (captures, breathes)
    }

    /// The slow reference's legal points: empty points whose (captures, breathes) effects `rule`
    /// accepts, in compact order.
    #[cfg(test)]
    pub fn slow_legal(
        &self,
        cells: &[u8],
        to_move: Player,
        rule: fn(bool, bool) -> bool,
    ) -> Vec<Point> {
        let chains = self.chains(cells);
        (0..self.points())
            .filter(|&p| {
                cells[p] == 0 && {
                    let (c, b) = self.move_effects(cells, &chains, p, to_move);
                    rule(c, b)
                }
            })
            .map(|p| self.point(p))
            .collect()
    }

    /// The board drawn with row `H` at the top, `X` Black, `O` White.
    pub fn render(&self, board: &[u8]) -> String {
        let mut s = String::new();
        for r in (0..self.height).rev() {
            s.push_str(&format!("{:>2} ", r + 1));
            for c in 0..self.width {
                s.push(match board[r * self.width + c] {
                    1 => 'X',
                    2 => 'O',
                    _ => '.',
                });
            }
            s.push('\n');
        }
        s.push_str("   ");
        for c in 0..self.width {
            s.push(column_letter(c as u8));
        }
        s.push('\n');
        s
    }

    /// Parses a drawing (rows from the top, `/` or newline separated; `X`/`B` Black, `O`/`W`
    /// White, `.` empty) into a board.
    pub fn parse_drawing(&self, text: &str) -> Result<Vec<u8>, String> {
        let rows: Vec<&str> = text
            .split(['/', '\n'])
            .map(str::trim)
            .filter(|r| !r.is_empty())
            .collect();
        if rows.len() != self.height {
            return Err(format!(
                "setup has {} rows, board has {}",
                rows.len(),
                self.height
            ));
        }
        let mut board = vec![0u8; self.points()];
        for (k, row) in rows.iter().enumerate() {
            let r = self.height - 1 - k;
            let cells: Vec<char> = row.chars().filter(|c| !c.is_whitespace()).collect();
            if cells.len() != self.width {
                return Err(format!(
                    "setup row {} has {} points, board has {}",
                    k + 1,
                    cells.len(),
                    self.width
                ));
            }
            for (c, ch) in cells.into_iter().enumerate() {
                board[r * self.width + c] = match ch {
                    'X' | 'x' | 'B' | 'b' => 1,
                    'O' | 'o' | 'W' | 'w' => 2,
                    '.' => 0,
                    other => return Err(format!("setup: unknown point character '{other}'")),
                };
            }
        }
        Ok(board)
    }
}
