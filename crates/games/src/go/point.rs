//! Board sizes, points and moves in GTP coordinates.

use std::fmt;

/// Largest supported number of rows or columns.
pub const MAX_SIDE: u8 = 19;

/// A rectangular board size: `rows` × `cols`, each from 1 to 19.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Size {
    rows: u8,
    cols: u8,
}

/// An unsupported board size.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SizeError {
    /// The text is not of the form "RxC" or "N".
    #[error("malformed board size '{0}' (expected RxC, e.g. 4x5 for 4 rows and 5 columns)")]
    Malformed(String),
    /// A side is 0 or larger than the maximum.
    #[error("unsupported board size {rows}x{cols} (rows and columns must be 1 to {max})")]
    Unsupported {
        /// Rows asked for.
        rows: u32,
        /// Columns asked for.
        cols: u32,
        /// The largest side supported here.
        max: u32,
    },
}

impl Size {
    /// A size of `rows` rows and `cols` columns.
    ///
    /// # Errors
    /// [`SizeError::Unsupported`] unless both are in 1..=19.
    pub fn new(rows: u32, cols: u32) -> Result<Self, SizeError> {
        Self::with_max(rows, cols, MAX_SIDE as u32)
    }

    /// A size whose sides are at most `max` (used by solvers with smaller limits).
    ///
    /// # Errors
    /// [`SizeError::Unsupported`] unless both sides are in 1..=min(max, 19).
    pub fn with_max(rows: u32, cols: u32, max: u32) -> Result<Self, SizeError> {
        let max = max.min(MAX_SIDE as u32);
        if rows == 0 || cols == 0 || rows > max || cols > max {
            return Err(SizeError::Unsupported { rows, cols, max });
        }
        Ok(Size {
            rows: rows as u8,
            cols: cols as u8,
        })
    }

    /// Parses "RxC" (R rows, C columns), "N" (N×N), or the sides named by letter in either
    /// order ("3rx4c", "4cx3r"), as [`crate::dims::parse_rows_cols`].
    ///
    /// # Errors
    /// [`SizeError`] for malformed text or an unsupported size.
    pub fn parse(text: &str) -> Result<Self, SizeError> {
        let t = text.trim().to_ascii_lowercase();
        let num = |s: &str| s.trim().parse::<u32>().ok();
        // Plain numbers ("3x4", "5", "0x3" refused by `new` for its size), else the sides
        // named by letter.
        let plain = match t.split_once('x') {
            Some((r, c)) => num(r).zip(num(c)),
            None => num(&t).map(|n| (n, n)),
        };
        if let Some((rows, cols)) = plain {
            return Self::new(rows, cols);
        }
        let (rows, cols) = crate::dims::parse_rows_cols(text, false)
            .map_err(|_| SizeError::Malformed(text.to_string()))?;
        let side = |n: usize| u32::try_from(n).map_err(|_| SizeError::Malformed(text.to_string()));
        Self::new(side(rows)?, side(cols)?)
    }

    /// Number of rows.
    #[must_use]
    pub const fn rows(self) -> u32 {
        self.rows as u32
    }

    /// Number of columns.
    #[must_use]
    pub const fn cols(self) -> u32 {
        self.cols as u32
    }

    /// Number of points, rows × columns.
    #[must_use]
    pub const fn points(self) -> usize {
        self.rows as usize * self.cols as usize
    }

    /// The point at `row` (0 = bottom) and `col` (0 = left), if on the board.
    #[must_use]
    pub fn point(self, row: u32, col: u32) -> Option<Point> {
        (row < self.rows() && col < self.cols()).then(|| Point::new(row, col))
    }

    /// The index of an on-board point, `row * cols + col`.
    #[must_use]
    pub const fn index(self, p: Point) -> usize {
        p.row as usize * self.cols as usize + p.col as usize
    }

    /// The point with index `i` (`row * cols + col`).
    #[must_use]
    pub const fn point_at(self, i: usize) -> Point {
        Point {
            row: (i / self.cols as usize) as u8,
            col: (i % self.cols as usize) as u8,
        }
    }

    /// Whether `p` lies on this board.
    #[must_use]
    pub const fn contains(self, p: Point) -> bool {
        p.row < self.rows && p.col < self.cols
    }

    /// All points in index order.
    pub fn all_points(self) -> impl Iterator<Item = Point> {
        (0..self.points()).map(move |i| self.point_at(i))
    }

    /// The on-board orthogonal neighbours of `p` (2 to 4 of them; fewer on 1×n boards).
    pub fn neighbours(self, p: Point) -> impl Iterator<Item = Point> {
        let (r, c) = (p.row as u32, p.col as u32);
        let (rows, cols) = (self.rows(), self.cols());
        [
            (r > 0).then(|| (r - 1, c)),
            (r + 1 < rows).then(|| (r + 1, c)),
            (c > 0).then(|| (r, c - 1)),
            (c + 1 < cols).then(|| (r, c + 1)),
        ]
        .into_iter()
        .flatten()
        .map(|(r, c)| Point::new(r, c))
    }

    /// Parses a GTP point ("D2", case-insensitive) on this board.
    ///
    /// # Errors
    /// A message naming the text when it is not a point of this board.
    pub fn parse_point(self, text: &str) -> Result<Point, String> {
        let t = text.trim().to_ascii_uppercase();
        let mut chars = t.chars();
        let letter = chars.next().ok_or_else(|| "empty move".to_string())?;
        let col = column_index(letter).ok_or_else(|| format!("malformed move '{text}'"))?;
        let row: u32 = chars
            .as_str()
            .parse()
            .map_err(|_| format!("malformed move '{text}'"))?;
        if row == 0 || row > self.rows() || col >= self.cols() {
            return Err(format!(
                "move '{text}' is off the {}x{} board",
                self.rows(),
                self.cols()
            ));
        }
        Ok(Point::new(row - 1, col))
    }

    /// Parses a GTP move: a point or "pass".
    ///
    /// # Errors
    /// As [`Size::parse_point`].
    pub fn parse_move(self, text: &str) -> Result<Move, String> {
        if text.trim().eq_ignore_ascii_case("pass") {
            Ok(Move::Pass)
        } else {
            self.parse_point(text).map(Move::Place)
        }
    }
}

impl fmt::Display for Size {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.rows, self.cols)
    }
}

/// The GTP letter of column `c` (0-based): A..H, J..T.
#[must_use]
pub fn column_letter(c: u32) -> char {
    let c = if c >= 8 { c + 1 } else { c };
    (b'A' + c as u8) as char
}

fn column_index(letter: char) -> Option<u32> {
    if !letter.is_ascii_uppercase() || letter == 'I' {
        return None;
    }
    let c = letter as u32 - 'A' as u32;
    Some(if c > 8 { c - 1 } else { c })
}

/// A point of the board: row (0 = bottom) and column (0 = left). Prints in GTP form ("D2").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point {
    /// Row, 0 at the bottom (GTP row number minus one).
    pub row: u8,
    /// Column, 0 at the left (A = 0, B = 1, ..., skipping the letter I).
    pub col: u8,
}

impl Point {
    /// The point at `row` and `col` (0-based, row 0 at the bottom).
    ///
    /// # Panics
    /// If either is above 255 (never on a supported board).
    #[must_use]
    pub fn new(row: u32, col: u32) -> Self {
        Point {
            row: u8::try_from(row).expect("row fits u8"),
            col: u8::try_from(col).expect("col fits u8"),
        }
    }
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            column_letter(self.col as u32),
            self.row as u32 + 1
        )
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Pass => f.write_str("pass"),
            Move::Place(p) => p.fmt(f),
        }
    }
}

/// A Go move: a pass or a stone on a point (the colour is the side to move).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// A pass.
    Pass,
    /// A stone on this point.
    Place(Point),
}
