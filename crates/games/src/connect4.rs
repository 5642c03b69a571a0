//! Connect Four on a board of W columns and H rows (sizes `"WxH"`, **width × height**: `"5x4"`
//! is 5 columns and 4 rows; 7x6 is the standard board).
//!
//! # Rules
//! The first player ([`Player::Black`]) and the second alternately drop a disc into a column
//! that is not full; it falls to the lowest empty cell. The first to own four cells in a row
//! horizontally, vertically or diagonally wins; a full board without one is a draw. A game
//! lasts at most W × H plies and positions never repeat.
//!
//! Source: Milton Bradley's Connect Four (1974); solved by Allis and Allen (1988). Values of
//! small boards are Tromp's, as listed in `data/small-games.tsv`.
//!
//! Supported sizes: 1 ≤ W, H and W × (H + 1) ≤ 64 (all boards from 4x4 to 7x6 and 8x7).
//!
//! # Representation
//! Tromp's bitboard: column `c` uses bits `c·(H+1) .. c·(H+1)+H−1`, bottom first, and bit
//! `c·(H+1)+H` stays empty as a separator, so a four is found with three shift-and-mask tests
//! per direction. For H = 4:
//!
//! ```text
//!  .  .  .  .      (separators: 4 9 14 ...)
//!  3  8 13 18 ...
//!  2  7 12 17
//!  1  6 11 16
//!  0  5 10 15      (bottom row)
//! ```
//!
//! Moves are columns, written `a`, `b`, … from the left. Move codes are
//! `player × W·H + row × W + col` for the cell where the disc lands.

use crate::dims::{SizeError, parse_dims, zobrist_key};
use crate::{Game, Outcome, Player};
use std::fmt;

/// The rules value: width and height.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Connect4 {
    width: usize,
    height: usize,
}

/// A move: the column (0 = `a`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Connect4Move(pub u8);

impl fmt::Display for Connect4Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", char::from(b'a' + self.0))
    }
}

/// A position: one bitboard per player, the column heights, side to move, result and hash.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Connect4State {
    stones: [u64; 2],
    heights: [u8; 16],
    to_move: Player,
    plies: u16,
    outcome: Option<Outcome>,
    hash: u64,
}

fn key(bit: usize, p: Player) -> u64 {
    zobrist_key(0x4334_0000_0000 + bit as u64 * 2 + p.index() as u64)
}

fn side_key() -> u64 {
    zobrist_key(0x4334_FFFF_FFFF)
}

impl Connect4 {
    /// A board of `width` columns and `height` rows.
    ///
    /// # Errors
    /// [`SizeError::Unsupported`] unless `width × (height + 1) ≤ 64`.
    pub fn new(width: usize, height: usize) -> Result<Self, SizeError> {
        if width == 0 || height == 0 || width > 16 || width * (height + 1) > 64 {
            return Err(SizeError::Unsupported {
                game: "connect4",
                width,
                height,
                allowed: "width x height with width*(height+1) <= 64, e.g. 4x4 to 7x6",
            });
        }
        Ok(Self { width, height })
    }

    /// Parses `"WxH"` (width × height) and builds the board.
    ///
    /// # Errors
    /// As [`parse_dims`] and [`Connect4::new`].
    pub fn from_size(text: &str) -> Result<Self, SizeError> {
        let (w, h) = parse_dims(text)?;
        Self::new(w, h)
    }

    /// Number of columns.
    #[must_use]
    pub const fn width(&self) -> usize {
        self.width
    }

    /// Number of rows.
    #[must_use]
    pub const fn height(&self) -> usize {
        self.height
    }

    const fn bit(&self, col: usize, row: usize) -> usize {
        col * (self.height + 1) + row
    }

    /// Whether the bitboard `b` contains four in a line.
    #[must_use]
    pub const fn has_four(&self, b: u64) -> bool {
        let h = self.height as u32;
        let shifts = [1, h + 1, h, h + 2];
        let mut i = 0;
        while i < 4 {
            let s = shifts[i];
            let m = b & (b >> s);
            if m & (m >> (2 * s)) != 0 {
                return true;
            }
            i += 1;
        }
        false
    }

    /// The disc on `(col, row)`, row 0 at the bottom.
    #[must_use]
    pub const fn disc(&self, state: &Connect4State, col: usize, row: usize) -> Option<Player> {
        let m = 1u64 << self.bit(col, row);
        if state.stones[0] & m != 0 {
            Some(Player::Black)
        } else if state.stones[1] & m != 0 {
            Some(Player::White)
        } else {
            None
        }
    }
}

impl Game for Connect4 {
    type State = Connect4State;
    type Move = Connect4Move;

    fn name(&self) -> &'static str {
        "connect4"
    }

    fn initial(&self) -> Connect4State {
        Connect4State {
            stones: [0; 2],
            heights: [0; 16],
            to_move: Player::Black,
            plies: 0,
            outcome: None,
            hash: 0,
        }
    }

    fn to_move(&self, state: &Connect4State) -> Player {
        state.to_move
    }

    fn legal_moves(&self, state: &Connect4State, out: &mut Vec<Connect4Move>) {
        out.clear();
        if state.outcome.is_none() {
            out.extend(
                (0..self.width)
                    .filter(|&c| (state.heights[c] as usize) < self.height)
                    .map(|c| Connect4Move(c as u8)),
            );
        }
    }

    fn play(&self, state: &mut Connect4State, mv: Connect4Move) {
        let c = mv.0 as usize;
        let row = state.heights[c] as usize;
        debug_assert!(row < self.height);
        let p = state.to_move;
        let bit = self.bit(c, row);
        state.stones[p.index()] |= 1 << bit;
        state.heights[c] += 1;
        state.plies += 1;
        state.hash ^= key(bit, p) ^ side_key();
        state.to_move = p.opponent();
        if self.has_four(state.stones[p.index()]) {
            state.outcome = Some(Outcome::Win(p));
        } else if state.plies as usize == self.width * self.height {
            state.outcome = Some(Outcome::Draw);
        }
    }

    fn outcome(&self, state: &Connect4State) -> Option<Outcome> {
        state.outcome
    }

    fn hash(&self, state: &Connect4State) -> u64 {
        state.hash
    }

    fn hash_from_scratch(&self, state: &Connect4State) -> u64 {
        let mut h = if state.to_move == Player::White {
            side_key()
        } else {
            0
        };
        for p in [Player::Black, Player::White] {
            let mut b = state.stones[p.index()];
            while b != 0 {
                h ^= key(b.trailing_zeros() as usize, p);
                b &= b - 1;
            }
        }
        h
    }

    fn max_game_length(&self) -> u32 {
        (self.width * self.height) as u32
    }

    fn num_move_codes(&self) -> usize {
        2 * self.width * self.height
    }

    fn move_code(&self, state: &Connect4State, mv: Connect4Move) -> usize {
        let c = mv.0 as usize;
        state.to_move.index() * self.width * self.height
            + state.heights[c] as usize * self.width
            + c
    }

    fn parse_move(&self, state: &Connect4State, text: &str) -> Result<Connect4Move, String> {
        let t = text.trim().to_ascii_lowercase();
        let b = t.as_bytes();
        let col = match b {
            [c @ b'a'..=b'z'] => (c - b'a') as usize,
            _ => match t.parse::<usize>() {
                Ok(n) if n >= 1 => n - 1,
                _ => {
                    return Err(format!(
                        "bad connect4 move '{text}': expected a column letter a.."
                    ));
                }
            },
        };
        if col >= self.width {
            return Err(format!(
                "connect4 move '{text}' is off the {}-column board",
                self.width
            ));
        }
        if state.outcome.is_some() {
            return Err(format!("illegal connect4 move '{text}': the game is over"));
        }
        if state.heights[col] as usize >= self.height {
            return Err(format!(
                "illegal connect4 move '{text}': the column is full"
            ));
        }
        Ok(Connect4Move(col as u8))
    }

    fn render(&self, state: &Connect4State) -> String {
        let mut s = String::new();
        for row in (0..self.height).rev() {
            for col in 0..self.width {
                s.push(match self.disc(state, col, row) {
                    Some(Player::Black) => 'X',
                    Some(Player::White) => 'O',
                    None => '.',
                });
            }
            s.push('\n');
        }
        for col in 0..self.width {
            s.push(char::from(b'a' + col as u8));
        }
        s.push('\n');
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conformance::check_random_games;

    fn play_all(g: &Connect4, moves: &str) -> Connect4State {
        let mut s = g.initial();
        for m in moves.split_whitespace() {
            let mv = g.parse_move(&s, m).unwrap();
            g.play(&mut s, mv);
        }
        s
    }

    #[test]
    fn conformance_on_all_sizes_from_4x4_to_7x6() {
        for w in 4..=7 {
            for h in 4..=6 {
                let g = Connect4::new(w, h).unwrap();
                let r = check_random_games(&g, (w * 10 + h) as u64, 100);
                assert!(r.results[0] > 0 && r.results[1] > 0);
            }
        }
        check_random_games(&Connect4::new(8, 7).unwrap(), 3, 50);
        check_random_games(&Connect4::new(1, 1).unwrap(), 3, 5);
    }

    /// Slow reference: scan every cell for four in every direction.
    fn four_by_scan(g: &Connect4, s: &Connect4State, p: Player) -> bool {
        let at = |c: i32, r: i32| {
            c >= 0
                && r >= 0
                && (c as usize) < g.width
                && (r as usize) < g.height
                && g.disc(s, c as usize, r as usize) == Some(p)
        };
        for c in 0..g.width as i32 {
            for r in 0..g.height as i32 {
                for (dc, dr) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
                    if (0..4).all(|k| at(c + k * dc, r + k * dr)) {
                        return true;
                    }
                }
            }
        }
        false
    }

    #[test]
    fn bitboard_wins_match_a_cell_scan() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(9);
        for (w, h) in [(4, 4), (5, 4), (7, 6), (6, 5), (8, 7)] {
            let g = Connect4::new(w, h).unwrap();
            for _ in 0..300 {
                let mut s = g.initial();
                let mut moves = Vec::new();
                loop {
                    let expect = if four_by_scan(&g, &s, Player::Black) {
                        Some(Outcome::Win(Player::Black))
                    } else if four_by_scan(&g, &s, Player::White) {
                        Some(Outcome::Win(Player::White))
                    } else if s.plies as usize == w * h {
                        Some(Outcome::Draw)
                    } else {
                        None
                    };
                    assert_eq!(g.outcome(&s), expect, "\n{}", g.render(&s));
                    g.legal_moves(&s, &mut moves);
                    if moves.is_empty() {
                        break;
                    }
                    g.play(&mut s, moves[rng.random_range(0..moves.len())]);
                }
            }
        }
    }

    #[test]
    fn each_direction_wins() {
        let g = Connect4::new(7, 6).unwrap();
        // Horizontal along the bottom.
        assert_eq!(
            g.outcome(&play_all(&g, "a a b b c c d")),
            Some(Outcome::Win(Player::Black))
        );
        // Vertical.
        assert_eq!(
            g.outcome(&play_all(&g, "a b a b a b a")),
            Some(Outcome::Win(Player::Black))
        );
        // Rising diagonal a1 b2 c3 d4.
        assert_eq!(
            g.outcome(&play_all(&g, "a b b c c d c d d g d")),
            Some(Outcome::Win(Player::Black))
        );
        // Falling diagonal d1 c2 b3 a4 by White.
        assert_eq!(
            g.outcome(&play_all(&g, "g d c c b b a b g a a a")),
            Some(Outcome::Win(Player::White))
        );
        // No wrap-around between the top of one column and the bottom of the next (4 high).
        let g = Connect4::new(4, 4).unwrap();
        let s = play_all(&g, "a b a b a c b");
        assert_eq!(g.outcome(&s), None, "\n{}", g.render(&s));
    }

    #[test]
    fn full_columns_and_errors() {
        let g = Connect4::new(5, 4).unwrap();
        let s = play_all(&g, "a a a a");
        assert!(g.parse_move(&s, "a").unwrap_err().contains("full"));
        assert!(g.parse_move(&s, "f").is_err());
        assert_eq!(g.parse_move(&s, "2"), Ok(Connect4Move(1)));
        let mut moves = Vec::new();
        g.legal_moves(&s, &mut moves);
        assert_eq!(moves.len(), 4);
        assert!(Connect4::from_size("9x9").is_err());
        assert_eq!(Connect4::from_size("5x4").unwrap().width(), 5);
    }
}
