//! NoGo on a W×H board (1 ≤ W, H ≤ 19).
//!
//! # Rules
//! Go's board and stones, Black first, players alternate placing a stone on an empty point,
//! but **every capture is illegal** (a move may not take the last liberty of an enemy chain)
//! and **suicide is illegal** (the new chain must keep a liberty). There is no pass and no
//! komi: **the player to move with no legal move loses**. Stones are never removed, so a game
//! lasts at most W × H plies and positions never repeat.
//!
//! Source: the NoGo rules of the 2011 Combinatorial Games Workshop tournament (BIRS) as
//! described by M. Müller, *Solving NoGo*, and the MCPS paper
//! (`../shared/papers/monte-carlo-permutation-search.txt`, section NoGo). Known values (3x3 a
//! first-player win, 4x4 a second-player win) are in `data/small-games.tsv`.
//!
//! # Coordinates
//! GTP: columns `A`, `B`, … skipping `I`, row `1` at the bottom; size text **width × height**.
//! Move codes are `player × W·H + point`.

use crate::dims::{SizeError, parse_dims, zobrist_key};
use crate::stones::{GoPoint, Grid};
use crate::{Game, Outcome, Player};

/// The rules value: the grid.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NoGo {
    grid: Grid,
}

/// A NoGo position: stones, side to move, result (decided when the mover has no legal move)
/// and hash.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct NoGoState {
    board: Vec<u8>,
    to_move: Player,
    winner: Option<Player>,
    hash: u64,
}

fn key(p: usize, pl: Player) -> u64 {
    zobrist_key(0x4E47_0000_0000 + p as u64 * 2 + pl.index() as u64)
}

fn side_key() -> u64 {
    zobrist_key(0x4E47_FFFF_FFFF)
}

impl NoGo {
    /// A board of `width` columns and `height` rows.
    ///
    /// # Errors
    /// [`SizeError::Unsupported`] unless both are in `1..=19`.
    pub fn new(width: usize, height: usize) -> Result<Self, SizeError> {
        Ok(Self {
            grid: Grid::new("nogo", width, height)?,
        })
    }

    /// Parses `"WxH"` or `"N"` and builds the board.
    ///
    /// # Errors
    /// As [`parse_dims`] and [`NoGo::new`].
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

    /// A position from a drawing (rows from the top, `X` Black, `O` White, `.` empty) with the
    /// given player to move. Stones without liberties are rejected.
    ///
    /// # Errors
    /// A one-line message when the drawing does not fit or a chain has no liberty.
    pub fn setup(&self, text: &str, to_move: Player) -> Result<NoGoState, String> {
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
        let mut s = NoGoState {
            board,
            to_move,
            winner: None,
            hash: 0,
        };
        s.hash = self.hash_from_scratch(&s);
        s.winner = self.decide(&s);
        Ok(s)
    }

    fn is_legal(&self, board: &[u8], chains: &crate::stones::Chains, p: usize, pl: Player) -> bool {
        if board[p] != 0 {
            return false;
        }
        let (captures, breathes) = self.grid.move_effects(board, chains, p, pl);
        !captures && breathes
    }

    /// The winner when the player to move has no legal move.
    fn decide(&self, s: &NoGoState) -> Option<Player> {
        let chains = self.grid.chains(&s.board);
        let any = (0..self.grid.points()).any(|p| self.is_legal(&s.board, &chains, p, s.to_move));
        if any {
            None
        } else {
            Some(s.to_move.opponent())
        }
    }
}

impl Game for NoGo {
    type State = NoGoState;
    type Move = GoPoint;

    fn name(&self) -> &'static str {
        "nogo"
    }

    fn initial(&self) -> NoGoState {
        let mut s = NoGoState {
            board: vec![0; self.grid.points()],
            to_move: Player::Black,
            winner: None,
            hash: 0,
        };
        s.winner = self.decide(&s);
        s
    }

    fn to_move(&self, state: &NoGoState) -> Player {
        state.to_move
    }

    fn legal_moves(&self, state: &NoGoState, out: &mut Vec<GoPoint>) {
        out.clear();
        if state.winner.is_some() {
            return;
        }
        let chains = self.grid.chains(&state.board);
        for p in 0..self.grid.points() {
            if self.is_legal(&state.board, &chains, p, state.to_move) {
                out.push(self.grid.point(p));
            }
        }
    }

    fn play(&self, state: &mut NoGoState, mv: GoPoint) {
        let p = self.grid.index(mv);
        debug_assert_eq!(state.board[p], 0);
        let pl = state.to_move;
        state.board[p] = 1 + pl.index() as u8;
        state.hash ^= key(p, pl) ^ side_key();
        state.to_move = pl.opponent();
        state.winner = self.decide(state);
    }

    fn outcome(&self, state: &NoGoState) -> Option<Outcome> {
        state.winner.map(Outcome::Win)
    }

    fn hash(&self, state: &NoGoState) -> u64 {
        state.hash
    }

    fn hash_from_scratch(&self, state: &NoGoState) -> u64 {
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
        2 * self.grid.points()
    }

    fn move_code(&self, state: &NoGoState, mv: GoPoint) -> usize {
        state.to_move.index() * self.grid.points() + self.grid.index(mv)
    }

    fn parse_move(&self, state: &NoGoState, text: &str) -> Result<GoPoint, String> {
        let pt = self.grid.parse_point("nogo", text)?;
        if state.winner.is_some() {
            return Err(format!("illegal nogo move '{text}': the game is over"));
        }
        let p = self.grid.index(pt);
        if state.board[p] != 0 {
            return Err(format!("illegal nogo move '{text}': the point is occupied"));
        }
        let chains = self.grid.chains(&state.board);
        let (captures, breathes) = self
            .grid
            .move_effects(&state.board, &chains, p, state.to_move);
        if captures {
            return Err(format!("illegal nogo move '{text}': it would capture"));
        }
        if !breathes {
            return Err(format!("illegal nogo move '{text}': it would be suicide"));
        }
        Ok(pt)
    }

    fn render(&self, state: &NoGoState) -> String {
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
            (1, 3),
            (2, 2),
            (3, 3),
            (4, 4),
            (5, 5),
            (7, 5),
            (9, 9),
        ] {
            let g = NoGo::new(w, h).unwrap();
            let r = check_random_games(&g, (w * 19 + h) as u64, if w * h > 50 { 30 } else { 200 });
            assert_eq!(r.results[2], 0, "no draws in NoGo");
        }
        check_random_games(&NoGo::new(19, 19).unwrap(), 1, 3);
    }

    #[test]
    fn capture_and_suicide_are_illegal() {
        let g = NoGo::new(3, 3).unwrap();
        // White A1 has B1 as its last liberty: Black B1 would capture.
        let s = g.setup(".../X../O..", Player::Black).unwrap();
        assert!(g.parse_move(&s, "B1").unwrap_err().contains("capture"));
        // Suicide: White to move into A1 surrounded by Black A2, B1.
        let s = g.setup(".../X../.X.", Player::White).unwrap();
        assert!(g.parse_move(&s, "A1").unwrap_err().contains("suicide"));
        // Filling one's own eye is legal while the chain keeps another liberty.
        let s = g.setup(".../X../.X.", Player::Black).unwrap();
        assert!(g.parse_move(&s, "A1").is_ok());
    }

    #[test]
    fn no_legal_move_loses() {
        let g = NoGo::new(2, 1).unwrap();
        // 2x1: Black A1, then White B1 is suicide/capture: White has no move and loses.
        let mut s = g.initial();
        let a1 = g.parse_move(&s, "A1").unwrap();
        g.play(&mut s, a1);
        assert_eq!(g.outcome(&s), Some(Outcome::Win(Player::Black)));
        // 1x1: Black's only move is suicide: Black loses at once.
        let g = NoGo::new(1, 1).unwrap();
        assert_eq!(g.outcome(&g.initial()), Some(Outcome::Win(Player::White)));
    }

    #[test]
    fn coordinates_are_gtp() {
        let g = NoGo::new(10, 10).unwrap();
        let s = g.initial();
        assert_eq!(g.parse_move(&s, "J10").unwrap().to_string(), "J10");
        assert_eq!(g.parse_move(&s, "J10").unwrap(), GoPoint { col: 8, row: 9 });
        assert!(g.parse_move(&s, "I5").is_err());
        assert!(g.parse_move(&s, "L1").is_err());
    }
}
