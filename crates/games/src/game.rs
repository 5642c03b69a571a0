//! The `Game` trait: the only view of a game that generic search (`pns`, `mcts`) has.
//!
//! A game is a *rules value* (`&self`: board size, komi, ko rule, ...) plus a `State`.
//! Two players alternate; [`Player::Black`] always moves first (X in tic-tac-toe,
//! the first player in Connect Four, Hex, NoGo, AtariGo; Red in the Wargame).
//! Search crates use only this trait, so every game here can be solved by the
//! proof-number family and played by the Monte Carlo players.

use std::fmt::{Debug, Display};
use std::hash::Hash;

/// One of the two players. Black is the first player of every game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Player {
    /// The first player (Black in Go and Hex, X in tic-tac-toe, Red in the Wargame).
    Black,
    /// The second player.
    White,
}

impl Player {
    /// The other player.
    #[must_use]
    pub const fn opponent(self) -> Self {
        match self {
            Player::Black => Player::White,
            Player::White => Player::Black,
        }
    }

    /// 0 for Black, 1 for White: an index for per-player arrays.
    #[must_use]
    pub const fn index(self) -> usize {
        match self {
            Player::Black => 0,
            Player::White => 1,
        }
    }

    /// Lowercase name, "black" or "white".
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Player::Black => "black",
            Player::White => "white",
        }
    }
}

impl Display for Player {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The result of a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The given player won.
    Win(Player),
    /// Neither player won.
    Draw,
}

impl Outcome {
    /// The winner, if any.
    #[must_use]
    pub const fn winner(self) -> Option<Player> {
        match self {
            Outcome::Win(p) => Some(p),
            Outcome::Draw => None,
        }
    }
}

/// A two-player, alternating, deterministic, perfect-information game.
///
/// Contract (checked for every implementation by [`crate::conformance`]):
/// - `legal_moves` of a non-terminal state is non-empty and has no duplicates; of a
///   terminal state it is empty;
/// - `play` of a legal move never panics; `hash` after `play` equals the hash
///   recomputed from scratch ([`Game::hash_from_scratch`]);
/// - every game ends within [`Game::max_game_length`] plies.
pub trait Game {
    /// A game state (board, side to move, and whatever else the rules need).
    type State: Clone + Eq + Hash + Debug;
    /// A move. `Display` prints it in the game's usual notation.
    type Move: Copy + Eq + Hash + Debug + Display;

    /// Short lowercase name used on the command line, e.g. "hex", "connect4".
    fn name(&self) -> &'static str;

    /// The start position.
    fn initial(&self) -> Self::State;

    /// The player to move in `state`.
    fn to_move(&self, state: &Self::State) -> Player;

    /// Appends the legal moves of `state` to `out` after clearing it.
    ///
    /// Callers reuse `out`, so a search allocates nothing once the buffer has grown.
    fn legal_moves(&self, state: &Self::State, out: &mut Vec<Self::Move>);

    /// A legal move drawn uniformly at random, `None` in a terminal state.
    ///
    /// The default lists the legal moves into `buf` (reused, so nothing is allocated once it
    /// has grown) and draws an index with `rng.random_range(0..len)`. Games with a faster way
    /// (sampling empty points until a legal one comes up) override it, keeping the draw uniform
    /// over the legal moves; the random numbers drawn then differ from the default's.
    fn random_legal_move(
        &self,
        state: &Self::State,
        buf: &mut Vec<Self::Move>,
        rng: &mut dyn rand::RngCore,
    ) -> Option<Self::Move> {
        use rand::Rng;
        self.legal_moves(state, buf);
        if buf.is_empty() {
            None
        } else {
            Some(buf[rng.random_range(0..buf.len())])
        }
    }

    /// Plays a move that [`Game::legal_moves`] returned.
    ///
    /// # Panics
    /// May panic (or leave the state inconsistent) if `mv` is not legal in `state`.
    fn play(&self, state: &mut Self::State, mv: Self::Move);

    /// The result if the game is over, `None` otherwise.
    fn outcome(&self, state: &Self::State) -> Option<Outcome>;

    /// Incremental 64-bit Zobrist hash of the position (not of the path to it).
    fn hash(&self, state: &Self::State) -> u64;

    /// The same hash computed from scratch (slow; used by the conformance suite).
    fn hash_from_scratch(&self, state: &Self::State) -> u64;

    /// An upper bound on the length of any game, in plies.
    fn max_game_length(&self) -> u32;

    /// The number of distinct move codes: every [`Game::move_code`] is below it.
    fn num_move_codes(&self) -> usize;

    /// A dense code for a move *by the player to move in `state`*, in `0..num_move_codes()`.
    ///
    /// Codes identify a move for AMAF statistics (player and cell, plus a capture flag
    /// in AtariGo and an attack flag in the Wargame, as in the MCPS paper).
    fn move_code(&self, state: &Self::State, mv: Self::Move) -> usize;

    /// Parses a move in the game's notation for `state`.
    ///
    /// # Errors
    /// A one-line message naming the text when it is not a move of this game, or not legal.
    fn parse_move(&self, state: &Self::State, text: &str) -> Result<Self::Move, String>;

    /// The null move of the player to move, for threat-based searches (λ-search): a legal move
    /// that changes nothing but the side to move, Go's pass. `None` (the default) for games
    /// without one.
    fn null_move(&self, _state: &Self::State) -> Option<Self::Move> {
        None
    }

    /// Whether a position can repeat within one game (Go with passes can; Hex cannot).
    ///
    /// Searches that reuse results across transpositions must treat repeating games
    /// specially: see the documentation of each search crate.
    fn can_repeat(&self) -> bool {
        false
    }

    /// A human-readable drawing of the state (one line per row), for terminals and tests.
    fn render(&self, state: &Self::State) -> String;
}
