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
//! (T. Cazenave, *Monte Carlo Permutation Search*, section NoGo). Known values (3x3 a
//! first-player win, 4x4 a second-player win) are in `data/small-games.tsv`.
//!
//! # Coordinates
//! GTP: columns `A`, `B`, … skipping `I`, row `1` at the bottom; size text **width × height**.
//! Move codes are `player × W·H + point`.

use crate::dims::{SizeError, parse_dims, zobrist_key};
use crate::fastboard::EMPTY;
use crate::stones::{Grid, Point, Stones};
use crate::{Game, Outcome, Player};

/// The rules value: the grid, its Zobrist keys and the empty start position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NoGo {
    grid: Grid,
    keys: Vec<[u64; 2]>,
    start: NoGoState,
}

/// A NoGo position: stones (on the fast board of `crate::fastboard`), side to move and result
/// (decided when the mover has no legal move).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct NoGoState(Stones);

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
        let grid = Grid::new("nogo", width, height)?;
        let keys = grid.cell_keys(key);
        let mut start = NoGoState(Stones::empty(&grid));
        start.0.winner = Self::decide(&start.0);
        Ok(Self { grid, keys, start })
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
        let mut s = Stones::from_drawing(&self.grid, &self.keys, text, to_move)?;
        s.winner = Self::decide(&s);
        Ok(NoGoState(s))
    }

    /// Whether a stone of the player to move on `p` (a padded cell) is legal: on an empty
    /// point, capturing nothing, with a liberty.
    #[inline]
    fn is_legal(s: &Stones, p: usize) -> bool {
        if s.board.colour(p) != EMPTY {
            return false;
        }
        s.board.breathes_without_capture(p, s.to_move)
    }

    /// The winner when the player to move has no legal move.
    fn decide(s: &Stones) -> Option<Player> {
        if s.has_move(Self::is_legal) {
            None
        } else {
            Some(s.to_move.opponent())
        }
    }
}

impl Game for NoGo {
    type State = NoGoState;
    type Move = Point;

    fn name(&self) -> &'static str {
        "nogo"
    }

    fn initial(&self) -> NoGoState {
        self.start.clone()
    }

    fn to_move(&self, state: &NoGoState) -> Player {
        state.0.to_move
    }

    fn legal_moves(&self, state: &NoGoState, out: &mut Vec<Point>) {
        state.0.legal_points(out, Self::is_legal);
    }

    fn random_legal_move(
        &self,
        state: &NoGoState,
        _buf: &mut Vec<Point>,
        rng: &mut dyn rand::RngCore,
    ) -> Option<Point> {
        state.0.random_legal(rng, Self::is_legal)
    }

    fn play(&self, state: &mut NoGoState, mv: Point) {
        let s = &mut state.0;
        let p = Grid::cell(&s.board, mv);
        debug_assert!(Self::is_legal(s, p), "illegal nogo move {mv}");
        let pl = s.to_move;
        s.board.place(p, pl, false, &self.keys);
        s.to_move = pl.opponent();
        s.winner = Self::decide(s);
    }

    fn outcome(&self, state: &NoGoState) -> Option<Outcome> {
        state.0.winner.map(Outcome::Win)
    }

    fn hash(&self, state: &NoGoState) -> u64 {
        state.0.key(side_key())
    }

    fn hash_from_scratch(&self, state: &NoGoState) -> u64 {
        state.0.key_from_scratch(key, side_key())
    }

    fn max_game_length(&self) -> u32 {
        self.grid.points() as u32
    }

    fn num_move_codes(&self) -> usize {
        2 * self.grid.points()
    }

    fn move_code(&self, state: &NoGoState, mv: Point) -> usize {
        state.0.to_move.index() * self.grid.points() + self.grid.index(mv)
    }

    fn parse_move(&self, state: &NoGoState, text: &str) -> Result<Point, String> {
        let s = &state.0;
        let (pt, p) = s.parse_empty_point(&self.grid, "nogo", text)?;
        let e = s.board.effects(p, s.to_move);
        if e.captures {
            return Err(format!("illegal nogo move '{text}': it would capture"));
        }
        if !e.breathes {
            return Err(format!("illegal nogo move '{text}': it would be suicide"));
        }
        Ok(pt)
    }

    fn render(&self, state: &NoGoState) -> String {
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
            let g = NoGo::new(w, h).unwrap();
            let mut rng = Xoshiro256PlusPlus::seed_from_u64((w * 31 + h) as u64);
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
                    assert_eq!(
                        moves,
                        g.grid.slow_legal(&cells, s.0.to_move, |c, b| !c && b)
                    );
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
        assert_eq!(g.parse_move(&s, "J10").unwrap(), Point { col: 8, row: 9 });
        assert!(g.parse_move(&s, "I5").is_err());
        assert!(g.parse_move(&s, "L1").is_err());
    }
}
