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
//! played in the MCPS paper (T. Cazenave, *Monte Carlo Permutation Search*, section
//! AtariGo), including its move codes with a capture flag.
//!
//! # Coordinates and move codes
//! GTP: columns `A`, `B`, … skipping `I`, row `1` at the bottom; size text **width × height**.
//! Move codes are `(player × W·H + point) × 2 + capture`, where `capture` is 1 for a capturing
//! (winning) move: `4 × W × H` codes, so permutation statistics keep captures apart.

use crate::dims::{SizeError, parse_dims, zobrist_key};
use crate::fastboard::EMPTY;
use crate::stones::{Grid, Point, Stones};
use crate::{Game, Outcome, Player};

/// The rules value: the grid, its Zobrist keys and the empty start position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AtariGo {
    grid: Grid,
    keys: Vec<[u64; 2]>,
    start: AtariGoState,
}

/// An AtariGo position: stones (on the fast board of `crate::fastboard`), side to move and
/// result.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct AtariGoState(Stones);

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
        let grid = Grid::new("atarigo", width, height)?;
        let keys = grid.cell_keys(key);
        let mut start = Stones::empty(&grid);
        if !start.has_move(Self::is_legal) {
            start.winner = Some(Player::White);
        }
        Ok(Self {
            grid,
            keys,
            start: AtariGoState(start),
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
    pub fn is_capture(&self, state: &AtariGoState, mv: Point) -> bool {
        let s = &state.0;
        s.board
            .effects(Grid::cell(&s.board, mv), s.to_move)
            .captures
    }

    /// A position from a drawing (rows from the top, `X` Black, `O` White, `.` empty) with the
    /// given player to move. Chains without liberties are rejected.
    ///
    /// # Errors
    /// A one-line message when the drawing does not fit or a chain has no liberty.
    pub fn setup(&self, text: &str, to_move: Player) -> Result<AtariGoState, String> {
        let mut s = Stones::from_drawing(&self.grid, &self.keys, text, to_move)?;
        if !s.has_move(Self::is_legal) {
            s.winner = Some(to_move.opponent());
        }
        Ok(AtariGoState(s))
    }

    /// Whether a stone of the player to move on `p` (a padded cell) is legal: on an empty
    /// point, capturing or with a liberty.
    #[inline]
    fn is_legal(s: &Stones, p: usize) -> bool {
        if s.board.colour(p) != EMPTY {
            return false;
        }
        s.board.captures_or_breathes(p, s.to_move)
    }
}

impl Game for AtariGo {
    type State = AtariGoState;
    type Move = Point;

    fn name(&self) -> &'static str {
        "atarigo"
    }

    fn initial(&self) -> AtariGoState {
        self.start.clone()
    }

    fn to_move(&self, state: &AtariGoState) -> Player {
        state.0.to_move
    }

    fn legal_moves(&self, state: &AtariGoState, out: &mut Vec<Point>) {
        state.0.legal_points(out, Self::is_legal);
    }

    fn random_legal_move(
        &self,
        state: &AtariGoState,
        _buf: &mut Vec<Point>,
        rng: &mut dyn rand::RngCore,
    ) -> Option<Point> {
        state.0.random_legal(rng, Self::is_legal)
    }

    fn play(&self, state: &mut AtariGoState, mv: Point) {
        let s = &mut state.0;
        let p = Grid::cell(&s.board, mv);
        debug_assert!(Self::is_legal(s, p), "illegal atarigo move {mv}");
        let pl = s.to_move;
        let captures = s.board.captures(p, pl);
        // The game ends at the first capture: the captured chain stays on the board.
        s.board.place(p, pl, false, &self.keys);
        s.to_move = pl.opponent();
        if captures || !s.has_move(Self::is_legal) {
            s.winner = Some(pl);
        }
    }

    fn outcome(&self, state: &AtariGoState) -> Option<Outcome> {
        state.0.winner.map(Outcome::Win)
    }

    fn hash(&self, state: &AtariGoState) -> u64 {
        state.0.key(side_key())
    }

    fn hash_from_scratch(&self, state: &AtariGoState) -> u64 {
        state.0.key_from_scratch(key, side_key())
    }

    fn max_game_length(&self) -> u32 {
        self.grid.points() as u32
    }

    fn num_move_codes(&self) -> usize {
        4 * self.grid.points()
    }

    fn move_code(&self, state: &AtariGoState, mv: Point) -> usize {
        let capture = usize::from(self.is_capture(state, mv));
        (state.0.to_move.index() * self.grid.points() + self.grid.index(mv)) * 2 + capture
    }

    fn parse_move(&self, state: &AtariGoState, text: &str) -> Result<Point, String> {
        let s = &state.0;
        let (pt, p) = s.parse_empty_point(&self.grid, "atarigo", text)?;
        if !Self::is_legal(s, p) {
            return Err(format!(
                "illegal atarigo move '{text}': it would be suicide"
            ));
        }
        Ok(pt)
    }

    fn render(&self, state: &AtariGoState) -> String {
        self.grid.render(&state.0.board.compact_cells())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conformance::check_random_games;
    use rand::{Rng, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    /// The fast board against the slow reference (one-pass chain analysis of a plain array) on
    /// random games: legal moves in order, board invariants, and the sampled move is legal.
    #[test]
    fn agrees_with_the_slow_reference_on_random_games() {
        for (w, h, games) in [
            (5, 5, 600),
            (7, 7, 200),
            (9, 9, 100),
            (4, 2, 200),
            (13, 13, 10),
        ] {
            let g = AtariGo::new(w, h).unwrap();
            let mut rng = Xoshiro256PlusPlus::seed_from_u64((w * 37 + h) as u64);
            let (mut moves, mut plies) = (Vec::new(), 0u64);
            for _ in 0..games {
                let mut s = g.initial();
                loop {
                    s.0.board.check_invariants(&g.keys);
                    g.legal_moves(&s, &mut moves);
                    if g.outcome(&s).is_some() {
                        assert!(moves.is_empty());
                        break;
                    }
                    let cells = s.0.board.compact_cells();
                    assert_eq!(moves, g.grid.slow_legal(&cells, s.0.to_move, |c, b| c || b));
                    let m = g.random_legal_move(&s, &mut Vec::new(), &mut rng).unwrap();
                    assert!(moves.contains(&m));
                    let m = if rng.random_range(0..2) == 0 {
                        m
                    } else {
                        moves[rng.random_range(0..moves.len())]
                    };
                    g.play(&mut s, m);
                    plies += 1;
                }
            }
            assert!(plies > 4 * games, "{w}x{h}: games too short");
        }
    }

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
