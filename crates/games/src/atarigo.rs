//! AtariGo (Capture Go, "first capture wins") on a W×H board (1 ≤ W, H ≤ 19).
//!
//! # Rules
//! Go's board and stones, Black first, players alternate placing a stone on an empty point.
//! **The first player to capture wins** at once (a move that takes the last liberty of an enemy
//! chain). Suicide (a move leaving its own chain without liberties that captures nothing) is
//! illegal. There is no pass: **the player to move with no legal move loses**. Since the game
//! ends at the first capture, no stone is ever removed (the captured chain stays on the
//! drawing of the final position); a game lasts at most W × H plies and positions never repeat.
//!
//! Source: the capture game used to teach Go (Yasuda Yasutoshi's "first capture" game), as
//! played in the MCPS paper (`../shared/papers/monte-carlo-permutation-search.txt`, section
//! AtariGo), including its move codes with a capture flag.
//!
//! # Coordinates and move codes
//! GTP: columns `A`, `B`, … skipping `I`, row `1` at the bottom; size text **width × height**.
//! Move codes are `(player × W·H + point) × 2 + capture`, where `capture` is 1 for a capturing
//! (winning) move: `4 × W × H` codes, so permutation statistics keep captures apart.

use crate::dims::{SizeError, parse_dims, zobrist_key};
use crate::stones::{GoPoint, Grid};
use crate::{Game, Outcome, Player};

/// The rules value: the grid.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AtariGo {
    grid: Grid,
}

/// An AtariGo position: stones, side to move, result and hash.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct AtariGoState {
    board: Vec<u8>,
    to_move: Player,
    winner: Option<Player>,
    hash: u64,
}

fn key(p: usize, pl: Player) -> u64 {
    zobrist_key(0x4147_0000_0000 + p as u64 * 2 + pl.index() as u64)
}

fn side_key() -> u64 {
    zobrist_key(0x4147_FFFF_FFFF)
}

impl AtariGo {
    /// A board of `width` columns and `height` rows.
    ///
    /// # Errors
    /// [`SizeError::Unsupported`] unless both are in `1..=19`.
    pub fn new(width: usize, height: usize) -> Result<Self, SizeError> {
        Ok(Self {
            grid: Grid::new("atarigo", width, height)?,
        })
    }

    /// Parses `"WxH"` or `"N"` and builds the board.
    ///
    /// # Errors
    /// As [`parse_dims`] and [`AtariGo::new`].
    pub fn from_size(text: &str) -> Result<Self, SizeError> {
        let (w, h) = parse_dims(text)?;
        Self::new(w, h)
    }

    /// Number of columns.
    #[must_use]
    pub const fn width(&self) -> usize {
        self.grid.width
    }

    /// Number of rows.
    #[must_use]
    pub const fn height(&self) -> usize {
        self.grid.height
    }

    /// Whether `mv` by the player to move captures (and so wins).
    #[must_use]
    pub fn is_capture(&self, state: &AtariGoState, mv: GoPoint) -> bool {
        let chains = self.grid.chains(&state.board);
        self.grid
            .move_effects(&state.board, &chains, self.grid.index(mv), state.to_move)
            .0
    }

    /// A position from a drawing (rows from the top, `X` Black, `O` White, `.` empty) with the
    /// given player to move. Chains without liberties are rejected.
    ///
    /// # Errors
    /// A one-line message when the drawing does not fit or a chain has no liberty.
    pub fn setup(&self, text: &str, to_move: Player) -> Result<AtariGoState, String> {
        let board = self.grid.parse_drawing(text)?;
        let chains = self.grid.chains(&board);
        for (p, &b) in board.iter().enumerate() {
            if b != 0 && chains.libs_of(p) == 0 {
                return Err(format!(
                    "setup: the chain at {} has no liberty",
                    self.grid.point(p)
                ));
            }
        }
        let mut s = AtariGoState {
            board,
            to_move,
            winner: None,
            hash: 0,
        };
        s.hash = self.hash_from_scratch(&s);
        if !self.has_legal_move(&s) {
            s.winner = Some(to_move.opponent());
        }
        Ok(s)
    }

    fn has_legal_move(&self, s: &AtariGoState) -> bool {
        let chains = self.grid.chains(&s.board);
        (0..self.grid.points()).any(|p| {
            s.board[p] == 0 && {
                let (c, b) = self.grid.move_effects(&s.board, &chains, p, s.to_move);
                c || b
            }
        })
    }
}

impl Game for AtariGo {
    type State = AtariGoState;
    type Move = GoPoint;

    fn name(&self) -> &'static str {
        "atarigo"
    }

    fn initial(&self) -> AtariGoState {
        let mut s = AtariGoState {
            board: vec![0; self.grid.points()],
            to_move: Player::Black,
            winner: None,
            hash: 0,
        };
        if !self.has_legal_move(&s) {
            s.winner = Some(Player::White);
        }
        s
    }

    fn to_move(&self, state: &AtariGoState) -> Player {
        state.to_move
    }

    fn legal_moves(&self, state: &AtariGoState, out: &mut Vec<GoPoint>) {
        out.clear();
        if state.winner.is_some() {
            return;
        }
        let chains = self.grid.chains(&state.board);
        for p in 0..self.grid.points() {
            if state.board[p] == 0 {
                let (captures, breathes) =
                    self.grid
                        .move_effects(&state.board, &chains, p, state.to_move);
                if captures || breathes {
                    out.push(self.grid.point(p));
                }
            }
        }
    }

    fn play(&self, state: &mut AtariGoState, mv: GoPoint) {
        let p = self.grid.index(mv);
        debug_assert_eq!(state.board[p], 0);
        let pl = state.to_move;
        let captures = self.is_capture(state, mv);
        state.board[p] = 1 + pl.index() as u8;
        state.hash ^= key(p, pl) ^ side_key();
        state.to_move = pl.opponent();
        if captures || !self.has_legal_move(state) {
            state.winner = Some(pl);
        }
    }

    fn outcome(&self, state: &AtariGoState) -> Option<Outcome> {
        state.winner.map(Outcome::Win)
    }

    fn hash(&self, state: &AtariGoState) -> u64 {
        state.hash
    }

    fn hash_from_scratch(&self, state: &AtariGoState) -> u64 {
        let mut h = if state.to_move == Player::White {
            side_key()
        } else {
            0
        };
        for (p, &b) in state.board.iter().enumerate() {
            match b {
                1 => h ^= key(p, Player::Black),
                2 => h ^= key(p, Player::White),
                _ => {}
            }
        }
        h
    }

    fn max_game_length(&self) -> u32 {
        self.grid.points() as u32
    }

    fn num_move_codes(&self) -> usize {
        4 * self.grid.points()
    }

    fn move_code(&self, state: &AtariGoState, mv: GoPoint) -> usize {
        let capture = usize::from(self.is_capture(state, mv));
        (state.to_move.index() * self.grid.points() + self.grid.index(mv)) * 2 + capture
    }

    fn parse_move(&self, state: &AtariGoState, text: &str) -> Result<GoPoint, String> {
        let pt = self.grid.parse_point("atarigo", text)?;
        if state.winner.is_some() {
            return Err(format!("illegal atarigo move '{text}': the game is over"));
        }
        let p = self.grid.index(pt);
        if state.board[p] != 0 {
            return Err(format!(
                "illegal atarigo move '{text}': the point is occupied"
            ));
        }
        let chains = self.grid.chains(&state.board);
        let (captures, breathes) = self
            .grid
            .move_effects(&state.board, &chains, p, state.to_move);
        if !captures && !breathes {
            return Err(format!(
                "illegal atarigo move '{text}': it would be suicide"
            ));
        }
        Ok(pt)
    }

    fn render(&self, state: &AtariGoState) -> String {
        self.grid.render(&state.board)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conformance::check_random_games;

    #[test]
    fn conformance() {
        for (w, h) in [
            (1, 1),
            (2, 1),
            (2, 2),
            (3, 3),
            (4, 4),
            (5, 5),
            (6, 4),
            (9, 9),
        ] {
            let g = AtariGo::new(w, h).unwrap();
            let r = check_random_games(&g, (w * 23 + h) as u64, if w * h > 50 { 50 } else { 300 });
            assert_eq!(r.results[2], 0, "no draws in AtariGo");
        }
        check_random_games(&AtariGo::new(19, 19).unwrap(), 2, 5);
    }

    #[test]
    fn first_capture_wins() {
        let g = AtariGo::new(3, 3).unwrap();
        let s = g.setup(".../X../O..", Player::Black).unwrap();
        let mv = g.parse_move(&s, "B1").unwrap();
        assert!(g.is_capture(&s, mv));
        assert_eq!(g.move_code(&s, mv) % 2, 1, "capture flag set");
        let mut t = s.clone();
        g.play(&mut t, mv);
        assert_eq!(g.outcome(&t), Some(Outcome::Win(Player::Black)));
        let quiet = g.parse_move(&s, "C3").unwrap();
        assert_eq!(g.move_code(&s, quiet) % 2, 0);
        assert_ne!(g.move_code(&s, mv) / 2, g.move_code(&s, quiet) / 2);
    }

    #[test]
    fn suicide_is_illegal_unless_it_captures() {
        let g = AtariGo::new(3, 3).unwrap();
        let s = g.setup(".../X../.X.", Player::White).unwrap();
        assert!(g.parse_move(&s, "A1").unwrap_err().contains("suicide"));
        // Playing into a point without liberties is legal when it captures.
        let s = g.setup(".../OX./X.X", Player::White).unwrap();
        // White B1 has no liberty of its own, but Black C1 (liberty only B1? no: C2) -- use A1:
        // Black A1 has liberty B1 only (A2 is White): White B1 captures A1.
        let mv = g.parse_move(&s, "B1").unwrap();
        assert!(g.is_capture(&s, mv));
    }

    #[test]
    fn no_legal_move_loses() {
        // 1x1: Black's only move is suicide.
        let g = AtariGo::new(1, 1).unwrap();
        assert_eq!(g.outcome(&g.initial()), Some(Outcome::Win(Player::White)));
        // 2x1: Black A1; White B1 captures A1 and wins.
        let g = AtariGo::new(2, 1).unwrap();
        let mut s = g.initial();
        let a1 = g.parse_move(&s, "A1").unwrap();
        g.play(&mut s, a1);
        let mut t = s.clone();
        g.play(&mut t, g.parse_move(&s, "B1").unwrap());
        assert_eq!(g.outcome(&t), Some(Outcome::Win(Player::White)));
    }
}
