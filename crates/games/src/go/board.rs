//! The board: stones on points, chains, liberties, captures and area score. No history here.

use super::point::{Point, Size, column_letter};
use crate::Player;
use std::fmt;

/// Stones on an R×C board. Compared exactly (this is what positional superko compares).
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Board {
    size: Size,
    cells: Vec<Option<Player>>,
}

/// Area of each side: stones plus empty regions bordered only by that side, in points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Score {
    /// Black's area in points.
    pub black: u32,
    /// White's area in points.
    pub white: u32,
}

impl Score {
    /// Black's area minus White's area, in points (komi not included).
    #[must_use]
    pub const fn margin(self) -> i32 {
        self.black as i32 - self.white as i32
    }
}

/// Why a stone cannot be placed (history-independent reasons only).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum PlaceError {
    Occupied,
    Suicide,
}

/// A board drawing that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BoardParseError {
    /// Rows of different lengths, or no rows.
    #[error("board drawing has rows of different lengths or no rows: '{0}'")]
    Ragged(String),
    /// A character other than X, O, '.'.
    #[error(
        "unexpected character '{0}' in board drawing (use X for Black, O for White, . for empty)"
    )]
    BadChar(char),
    /// The drawing's size is not supported.
    #[error(transparent)]
    Size(#[from] super::point::SizeError),
}

impl Board {
    /// The empty board of the given size.
    #[must_use]
    pub fn empty(size: Size) -> Self {
        Board {
            size,
            cells: vec![None; size.points()],
        }
    }

    /// Reads a drawing such as `"X.O/..X/OOX"`: rows from the TOP row down, separated by '/'
    /// or newlines; X = Black, O = White, '.' = empty. Whitespace inside a row is ignored.
    ///
    /// # Errors
    /// [`BoardParseError`] for ragged rows, unknown characters or unsupported sizes.
    pub fn from_ascii(text: &str) -> Result<Self, BoardParseError> {
        let rows: Vec<Vec<char>> = text
            .split(['/', '\n'])
            .map(|r| r.chars().filter(|c| !c.is_whitespace()).collect::<Vec<_>>())
            .filter(|r| !r.is_empty())
            .collect();
        let cols = rows.first().map_or(0, Vec::len);
        if rows.is_empty() || rows.iter().any(|r| r.len() != cols) {
            return Err(BoardParseError::Ragged(text.to_string()));
        }
        let size = Size::new(rows.len() as u32, cols as u32)?;
        let mut board = Board::empty(size);
        for (i, row) in rows.iter().enumerate() {
            let r = (rows.len() - 1 - i) as u32;
            for (c, &ch) in row.iter().enumerate() {
                let stone = match ch {
                    'X' | 'x' | 'B' | 'b' => Some(Player::Black),
                    'O' | 'o' | 'W' | 'w' => Some(Player::White),
                    '.' | '+' => None,
                    other => return Err(BoardParseError::BadChar(other)),
                };
                board.set(Point::new(r, c as u32), stone);
            }
        }
        Ok(board)
    }

    /// The drawing read by [`Board::from_ascii`], rows from the top joined by '/'.
    #[must_use]
    pub fn to_ascii(&self) -> String {
        let mut rows = Vec::new();
        for r in (0..self.size.rows()).rev() {
            let row: String = (0..self.size.cols())
                .map(|c| match self.get(Point::new(r, c)) {
                    Some(Player::Black) => 'X',
                    Some(Player::White) => 'O',
                    None => '.',
                })
                .collect();
            rows.push(row);
        }
        rows.join("/")
    }

    /// The board size.
    #[must_use]
    pub const fn size(&self) -> Size {
        self.size
    }

    /// The stone on `p`, if any.
    ///
    /// # Panics
    /// If `p` is off the board.
    #[must_use]
    pub fn get(&self, p: Point) -> Option<Player> {
        self.cells[self.size.index(p)]
    }

    /// Puts a stone on `p` or empties it, without captures (setup, as SGF's AB/AW/AE).
    ///
    /// # Panics
    /// If `p` is off the board.
    pub fn set(&mut self, p: Point, stone: Option<Player>) {
        let i = self.size.index(p);
        self.cells[i] = stone;
    }

    /// Number of stones of `colour` on the board.
    #[must_use]
    pub fn count(&self, colour: Player) -> u32 {
        self.cells.iter().filter(|&&c| c == Some(colour)).count() as u32
    }

    /// The chain through the stone at `p` and its number of liberties.
    ///
    /// # Panics
    /// If `p` is empty or off the board.
    #[must_use]
    pub fn chain(&self, p: Point) -> (Vec<Point>, usize) {
        let colour = self.get(p).expect("chain of an empty point");
        let n = self.size.points();
        let mut seen = vec![false; n];
        let mut liberty = vec![false; n];
        let mut stack = vec![p];
        let mut chain = Vec::new();
        seen[self.size.index(p)] = true;
        while let Some(q) = stack.pop() {
            chain.push(q);
            for nb in self.size.neighbours(q) {
                let i = self.size.index(nb);
                match self.cells[i] {
                    None => liberty[i] = true,
                    Some(c) if c == colour && !seen[i] => {
                        seen[i] = true;
                        stack.push(nb);
                    }
                    Some(_) => {}
                }
            }
        }
        (chain, liberty.iter().filter(|&&l| l).count())
    }

    /// Whether every chain on the board has at least one liberty.
    #[must_use]
    pub fn all_chains_have_liberties(&self) -> bool {
        self.size
            .all_points()
            .all(|p| self.get(p).is_none() || self.chain(p).1 > 0)
    }

    /// Places a stone of `colour` on `p`: captures opponent chains left without liberties,
    /// then rejects suicide. Returns the captured points. On error the board is unchanged.
    pub(crate) fn place(&mut self, p: Point, colour: Player) -> Result<Vec<Point>, PlaceError> {
        if self.get(p).is_some() {
            return Err(PlaceError::Occupied);
        }
        self.set(p, Some(colour));
        let mut captured = Vec::new();
        for nb in self.size.neighbours(p) {
            if self.get(nb) == Some(colour.opponent()) {
                let (chain, libs) = self.chain(nb);
                if libs == 0 {
                    for q in chain {
                        self.set(q, None);
                        captured.push(q);
                    }
                }
            }
        }
        if captured.is_empty() && self.chain(p).1 == 0 {
            self.set(p, None);
            return Err(PlaceError::Suicide);
        }
        Ok(captured)
    }

    /// Area score: each side's stones plus the empty regions bordered only by its stones.
    /// Regions touching both colours, or no stone at all, are neutral.
    #[must_use]
    pub fn area(&self) -> Score {
        let mut score = Score {
            black: self.count(Player::Black),
            white: self.count(Player::White),
        };
        let n = self.size.points();
        let mut seen = vec![false; n];
        for start in self.size.all_points() {
            let si = self.size.index(start);
            if seen[si] || self.cells[si].is_some() {
                continue;
            }
            let (mut size, mut touches) = (0u32, [false; 2]);
            let mut stack = vec![start];
            seen[si] = true;
            while let Some(q) = stack.pop() {
                size += 1;
                for nb in self.size.neighbours(q) {
                    let i = self.size.index(nb);
                    match self.cells[i] {
                        Some(c) => touches[c.index()] = true,
                        None if !seen[i] => {
                            seen[i] = true;
                            stack.push(nb);
                        }
                        None => {}
                    }
                }
            }
            match touches {
                [true, false] => score.black += size,
                [false, true] => score.white += size,
                _ => {}
            }
        }
        score
    }
}

impl fmt::Display for Board {
    /// Draws the board with GTP coordinates, the top row first.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (rows, cols) = (self.size.rows(), self.size.cols());
        for r in (0..rows).rev() {
            write!(f, "{:>2} ", r + 1)?;
            for c in 0..cols {
                let ch = match self.get(Point::new(r, c)) {
                    Some(Player::Black) => 'X',
                    Some(Player::White) => 'O',
                    None => '.',
                };
                write!(f, " {ch}")?;
            }
            writeln!(f)?;
        }
        write!(f, "   ")?;
        for c in 0..cols {
            write!(f, " {}", column_letter(c))?;
        }
        writeln!(f)
    }
}
