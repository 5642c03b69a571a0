//! Shared board mechanics of the two Go variants here, NoGo and AtariGo: a W×H grid of
//! points with four neighbours each, GTP coordinates, and one-pass chain analysis.
//!
//! Coordinates are GTP's: columns `A`, `B`, … skipping `I`, row `1` at the **bottom**. Points
//! are indexed `row × W + col` with row 0 at the bottom.

use crate::Player;
use crate::dims::SizeError;
use std::fmt;

/// Largest side supported (19, as in Go).
pub const MAX_SIDE: usize = 19;
const MAX_POINTS: usize = MAX_SIDE * MAX_SIDE;
const NONE: u16 = u16::MAX;

/// A point of a Go-variant board, written in GTP coordinates (`C3`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GoPoint {
    /// Column, 0 = `A`.
    pub col: u8,
    /// Row from the bottom, 0 = row `1`.
    pub row: u8,
}

/// The GTP letter of a column (skipping `I`).
#[must_use]
pub const fn column_letter(col: u8) -> char {
    let c = if col >= 8 { col + 1 } else { col };
    (b'A' + c) as char
}

impl fmt::Display for GoPoint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", column_letter(self.col), u32::from(self.row) + 1)
    }
}

/// Grid geometry: dimensions and neighbour lists.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Grid {
    pub width: usize,
    pub height: usize,
    neighbours: Vec<[u16; 4]>,
    degree: Vec<u8>,
}

/// The chains of a board: for every stone its chain id, for every chain its liberty count
/// capped at 2 (0, 1 or "2 or more").
pub(crate) struct Chains {
    chain: [u16; MAX_POINTS],
    libs: [u8; MAX_POINTS],
}

impl Chains {
    /// Liberties (capped at 2) of the chain through the stone at `p`.
    pub fn libs_of(&self, p: usize) -> u8 {
        self.libs[self.chain[p] as usize]
    }
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
        let n = width * height;
        let mut neighbours = vec![[0u16; 4]; n];
        let mut degree = vec![0u8; n];
        for r in 0..height {
            for c in 0..width {
                let i = r * width + c;
                let mut push = |j: usize| {
                    neighbours[i][degree[i] as usize] = j as u16;
                    degree[i] += 1;
                };
                if c > 0 {
                    push(i - 1);
                }
                if c + 1 < width {
                    push(i + 1);
                }
                if r > 0 {
                    push(i - width);
                }
                if r + 1 < height {
                    push(i + width);
                }
            }
        }
        Ok(Self {
            width,
            height,
            neighbours,
            degree,
        })
    }

    pub const fn points(&self) -> usize {
        self.width * self.height
    }

    pub fn neighbours(&self, p: usize) -> &[u16] {
        &self.neighbours[p][..self.degree[p] as usize]
    }

    pub const fn index(&self, pt: GoPoint) -> usize {
        pt.row as usize * self.width + pt.col as usize
    }

    pub const fn point(&self, i: usize) -> GoPoint {
        GoPoint {
            col: (i % self.width) as u8,
            row: (i / self.width) as u8,
        }
    }

    /// Parses a GTP point (`C3`, case-insensitive, no `I`) that lies on the board.
    pub fn parse_point(&self, game: &str, text: &str) -> Result<GoPoint, String> {
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
        Ok(GoPoint {
            col,
            row: (row - 1) as u8,
        })
    }

    /// Labels chains and counts their liberties (capped at 2) in one pass over the board.
    /// `board` holds 0 empty, 1 Black, 2 White per point.
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
                for &n in self.neighbours(p) {
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
    pub fn move_effects(
        &self,
        board: &[u8],
        chains: &Chains,
        at: usize,
        p: Player,
    ) -> (bool, bool) {
        let own = 1 + p.index() as u8;
        let (mut captures, mut breathes) = (false, false);
        for &n in self.neighbours(at) {
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
