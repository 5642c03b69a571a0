//! Tic-tac-toe on the 3×3 board.
//!
//! # Rules
//! X ([`Player::Black`]) moves first; players alternately mark an empty cell; the first to own
//! three cells in a row, column or diagonal wins; a full board without such a line is a draw.
//! A game lasts at most 9 plies and positions never repeat. With perfect play the game is a
//! draw (`data/small-games.tsv`).
//!
//! Source: the classical game (noughts and crosses); the value and the count of 255,168 games
//! are from Bottomley 2001 / Schaeffer 2002 as cited in `data/small-games.tsv`.
//!
//! # Coordinates
//! Letters `a`–`c` are columns from the left, numbers `1`–`3` rows from the top (`b2` is the
//! centre). Move codes are `player × 9 + cell`, cell = `row × 3 + col`.

use crate::dims::{SizeError, parse_dims, zobrist_key};
use crate::{Game, Outcome, Player};
use std::fmt;

const LINES: [[usize; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
];

/// The rules value of tic-tac-toe (3×3, three in a row).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TicTacToe;

/// A cell, `row × 3 + col` (0..9).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TicTacToeMove(pub u8);

impl fmt::Display for TicTacToeMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", char::from(b'a' + self.0 % 3), self.0 / 3 + 1)
    }
}

/// A position: the nine cells (0 empty, 1 X, 2 O), side to move, result, hash.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TicTacToeState {
    cells: [u8; 9],
    to_move: Player,
    outcome: Option<Outcome>,
    hash: u64,
}

fn key(cell: usize, p: Player) -> u64 {
    zobrist_key(0x5454_5400_0000 + cell as u64 * 2 + p.index() as u64)
}

fn side_key() -> u64 {
    zobrist_key(0x5454_54FF_FFFF)
}

impl TicTacToe {
    /// The only supported size, `"3x3"` (or `"3"`).
    ///
    /// # Errors
    /// [`SizeError`] for any other size.
    pub fn from_size(text: &str) -> Result<Self, SizeError> {
        match parse_dims(text)? {
            (3, 3) => Ok(Self),
            (width, height) => Err(SizeError::Unsupported {
                game: "tictactoe",
                width,
                height,
                allowed: "only 3x3",
            }),
        }
    }

    /// Builds a position from a drawing like `"X.O/..X/OOX"` (rows from the top). The side to
    /// move is X when the counts are equal.
    ///
    /// # Errors
    /// A one-line message when the drawing is malformed or the counts are impossible.
    pub fn setup(&self, text: &str) -> Result<TicTacToeState, String> {
        let cells: Vec<char> = text
            .chars()
            .filter(|c| !c.is_whitespace() && *c != '/')
            .collect();
        if cells.len() != 9 {
            return Err(format!("setup '{text}' must have 9 cells"));
        }
        let mut s = self.initial();
        let (mut x, mut o) = (0, 0);
        for (i, c) in cells.iter().enumerate() {
            match c {
                'X' | 'x' => {
                    s.cells[i] = 1;
                    s.hash ^= key(i, Player::Black);
                    x += 1;
                }
                'O' | 'o' => {
                    s.cells[i] = 2;
                    s.hash ^= key(i, Player::White);
                    o += 1;
                }
                '.' => {}
                other => return Err(format!("setup: unknown cell character '{other}'")),
            }
        }
        if x != o && x != o + 1 {
            return Err(format!(
                "setup '{text}': X must have as many marks as O or one more"
            ));
        }
        if x == o + 1 {
            s.to_move = Player::White;
            s.hash ^= side_key();
        }
        s.outcome = Self::judge(&s.cells);
        Ok(s)
    }

    fn judge(cells: &[u8; 9]) -> Option<Outcome> {
        for line in LINES {
            let a = cells[line[0]];
            if a != 0 && a == cells[line[1]] && a == cells[line[2]] {
                return Some(Outcome::Win(if a == 1 {
                    Player::Black
                } else {
                    Player::White
                }));
            }
        }
        if cells.iter().all(|&c| c != 0) {
            Some(Outcome::Draw)
        } else {
            None
        }
    }
}

impl Game for TicTacToe {
    type State = TicTacToeState;
    type Move = TicTacToeMove;

    fn name(&self) -> &'static str {
        "tictactoe"
    }

    fn initial(&self) -> TicTacToeState {
        TicTacToeState {
            cells: [0; 9],
            to_move: Player::Black,
            outcome: None,
            hash: 0,
        }
    }

    fn to_move(&self, state: &TicTacToeState) -> Player {
        state.to_move
    }

    fn legal_moves(&self, state: &TicTacToeState, out: &mut Vec<TicTacToeMove>) {
        out.clear();
        if state.outcome.is_none() {
            out.extend(
                (0..9u8)
                    .filter(|&i| state.cells[i as usize] == 0)
                    .map(TicTacToeMove),
            );
        }
    }

    fn play(&self, state: &mut TicTacToeState, mv: TicTacToeMove) {
        let i = mv.0 as usize;
        debug_assert_eq!(state.cells[i], 0);
        let p = state.to_move;
        state.cells[i] = 1 + p.index() as u8;
        state.hash ^= key(i, p) ^ side_key();
        state.to_move = p.opponent();
        state.outcome = Self::judge(&state.cells);
    }

    fn outcome(&self, state: &TicTacToeState) -> Option<Outcome> {
        state.outcome
    }

    fn hash(&self, state: &TicTacToeState) -> u64 {
        state.hash
    }

    fn hash_from_scratch(&self, state: &TicTacToeState) -> u64 {
        let mut h = if state.to_move == Player::White {
            side_key()
        } else {
            0
        };
        for (i, &c) in state.cells.iter().enumerate() {
            match c {
                1 => h ^= key(i, Player::Black),
                2 => h ^= key(i, Player::White),
                _ => {}
            }
        }
        h
    }

    fn max_game_length(&self) -> u32 {
        9
    }

    fn num_move_codes(&self) -> usize {
        18
    }

    fn move_code(&self, state: &TicTacToeState, mv: TicTacToeMove) -> usize {
        state.to_move.index() * 9 + mv.0 as usize
    }

    fn parse_move(&self, state: &TicTacToeState, text: &str) -> Result<TicTacToeMove, String> {
        let t = text.trim().to_ascii_lowercase();
        let b = t.as_bytes();
        if b.len() != 2 || !(b'a'..=b'c').contains(&b[0]) || !(b'1'..=b'3').contains(&b[1]) {
            return Err(format!("bad tictactoe move '{text}': expected a1..c3"));
        }
        let i = (b[1] - b'1') * 3 + (b[0] - b'a');
        if state.outcome.is_some() {
            return Err(format!("illegal tictactoe move '{text}': the game is over"));
        }
        if state.cells[i as usize] != 0 {
            return Err(format!(
                "illegal tictactoe move '{text}': the cell is taken"
            ));
        }
        Ok(TicTacToeMove(i))
    }

    fn render(&self, state: &TicTacToeState) -> String {
        let mut s = String::new();
        for r in 0..3 {
            for c in 0..3 {
                s.push(match state.cells[r * 3 + c] {
                    1 => 'X',
                    2 => 'O',
                    _ => '.',
                });
            }
            s.push('\n');
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conformance::check_random_games;

    #[test]
    fn conformance() {
        let r = check_random_games(&TicTacToe, 1, 2000);
        assert!(
            r.results.iter().all(|&n| n > 0),
            "all three results occur: {r:?}"
        );
    }

    #[test]
    fn lines_win_and_full_board_draws() {
        let g = TicTacToe;
        assert_eq!(
            g.outcome(&g.setup("XXX/OO./...").unwrap()),
            Some(Outcome::Win(Player::Black))
        );
        assert_eq!(
            g.outcome(&g.setup("X.O/XO./O.X").unwrap()),
            Some(Outcome::Win(Player::White))
        );
        assert_eq!(
            g.outcome(&g.setup("X.O/.XO/..X").unwrap()),
            Some(Outcome::Win(Player::Black))
        );
        assert_eq!(
            g.outcome(&g.setup("XOX/XOO/OXX").unwrap()),
            Some(Outcome::Draw)
        );
        assert_eq!(g.outcome(&g.setup("XO./.../...").unwrap()), None);
    }

    #[test]
    fn counts_all_255168_games() {
        fn count(g: &TicTacToe, s: &TicTacToeState, tally: &mut [u64; 3]) {
            if let Some(o) = g.outcome(s) {
                tally[match o {
                    Outcome::Win(Player::Black) => 0,
                    Outcome::Win(Player::White) => 1,
                    Outcome::Draw => 2,
                }] += 1;
                return;
            }
            let mut moves = Vec::new();
            g.legal_moves(s, &mut moves);
            for m in moves {
                let mut c = s.clone();
                g.play(&mut c, m);
                count(g, &c, tally);
            }
        }
        let mut tally = [0; 3];
        count(&TicTacToe, &TicTacToe.initial(), &mut tally);
        assert_eq!(tally, [131_184, 77_904, 46_080]);
    }

    #[test]
    fn parse_errors() {
        let g = TicTacToe;
        let s = g.setup("X../.../...").unwrap();
        assert!(g.parse_move(&s, "a1").unwrap_err().contains("taken"));
        assert!(g.parse_move(&s, "d1").is_err());
        assert_eq!(g.parse_move(&s, "B2"), Ok(TicTacToeMove(4)));
        assert!(TicTacToe::from_size("4x4").is_err());
    }
}
