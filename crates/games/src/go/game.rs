//! Go as a [`Game`]: the rules value is the board size, the [`Rules`] and a move limit.

use super::point::{Move, Size, SizeError};
use super::position::Position;
use super::rules::{KoRule, Rules};
use crate::{Game, Outcome, Player};

/// Go on an R×C board under the given rules, as a [`Game`] for generic search and play.
///
/// Under superko every game is finite, but random games can still be long, and under simple ko
/// they can cycle; so a game also ends, and is scored as it stands, after `move_limit` plies
/// (by default unlimited under superko and 4 × points under simple ko, as Monte Carlo Go
/// programs do). The outcome compares Black's area margin with the komi; an integer komi can
/// give a draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GoGame {
    size: Size,
    rules: Rules,
    move_limit: Option<u32>,
}

impl GoGame {
    /// Go on `rows` × `cols` (1 to 19 each) under `rules`, with the default move limit.
    ///
    /// # Errors
    /// [`SizeError`] for an unsupported size.
    pub fn new(rows: u8, cols: u8, rules: Rules) -> Result<Self, SizeError> {
        let size = Size::new(u32::from(rows), u32::from(cols))?;
        let move_limit = match rules.ko {
            KoRule::Simple => Some(4 * size.points() as u32),
            _ => None,
        };
        Ok(GoGame {
            size,
            rules,
            move_limit,
        })
    }

    /// The same game with a different move limit (plies; `None` for none).
    #[must_use]
    pub const fn with_move_limit(mut self, limit: Option<u32>) -> Self {
        self.move_limit = limit;
        self
    }

    /// The board size.
    #[must_use]
    pub const fn size(&self) -> Size {
        self.size
    }

    /// The rules.
    #[must_use]
    pub const fn rules(&self) -> Rules {
        self.rules
    }

    fn limit_reached(&self, state: &Position) -> bool {
        self.move_limit.is_some_and(|l| state.plies() >= l)
    }
}

impl Game for GoGame {
    type State = Position;
    type Move = Move;

    fn name(&self) -> &'static str {
        "go"
    }

    fn initial(&self) -> Position {
        Position::new(self.size, self.rules)
    }

    fn to_move(&self, state: &Position) -> Player {
        state.to_move()
    }

    fn legal_moves(&self, state: &Position, out: &mut Vec<Move>) {
        if self.limit_reached(state) {
            out.clear();
        } else {
            state.legal_moves_into(out);
        }
    }

    fn play(&self, state: &mut Position, mv: Move) {
        state
            .play(mv)
            .unwrap_or_else(|e| panic!("GoGame::play given an illegal move: {e}"));
    }

    fn outcome(&self, state: &Position) -> Option<Outcome> {
        if !state.is_over() && !self.limit_reached(state) {
            return None;
        }
        Some(match self.rules.komi.black_wins(state.score().margin()) {
            Some(true) => Outcome::Win(Player::Black),
            Some(false) => Outcome::Win(Player::White),
            None => Outcome::Draw,
        })
    }

    /// The position's hash (board, side to move, passes) xor its history's signature
    /// ([`super::History::signature`]: what the ko rule can still forbid), so that a tree
    /// keyed by this hash (the Monte Carlo players') never merges two nodes whose legal moves
    /// differ: under superko the same board reached along two histories is two states.
    fn hash(&self, state: &Position) -> u64 {
        state.hash() ^ state.history().signature()
    }

    fn hash_from_scratch(&self, state: &Position) -> u64 {
        state.hash_from_scratch() ^ state.history_signature_from_scratch()
    }

    /// Under superko: every stone move creates a new board and at most one pass separates two
    /// of them, so a game has fewer than 2 × 3^points + 2 plies (saturated to `u32::MAX`).
    fn max_game_length(&self) -> u32 {
        match self.move_limit {
            Some(l) => l,
            None => {
                let boards = 3f64.powi(self.size.points() as i32);
                (2.0 * boards + 2.0).min(f64::from(u32::MAX)) as u32
            }
        }
    }

    /// Codes: `player × (points + 1) + point`, the pass being code `points`.
    fn num_move_codes(&self) -> usize {
        2 * (self.size.points() + 1)
    }

    fn move_code(&self, state: &Position, mv: Move) -> usize {
        let per = self.size.points() + 1;
        let base = state.to_move().index() * per;
        match mv {
            Move::Pass => base + self.size.points(),
            Move::Place(p) => base + self.size.index(p),
        }
    }

    fn parse_move(&self, state: &Position, text: &str) -> Result<Move, String> {
        let m = self.size.parse_move(text)?;
        let mut s = state.clone();
        s.play(m).map_err(|e| e.to_string())?;
        Ok(m)
    }

    fn null_move(&self, state: &Position) -> Option<Move> {
        (!state.is_over() && !self.limit_reached(state)).then_some(Move::Pass)
    }

    fn can_repeat(&self) -> bool {
        // Passes repeat boards under every rule; simple ko also repeats positions.
        true
    }

    fn render(&self, state: &Position) -> String {
        format!(
            "{}{} to move, komi {}",
            state.board(),
            state.to_move(),
            self.rules.komi
        )
    }
}
