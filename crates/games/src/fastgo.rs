//! Go for play: the rules of the Monte Carlo players' Go (Chinese area scoring, simple ko or
//! superko, komi, a move limit) on the fast [`FastBoard`], as a [`Game`].
//!
//! # Rules
//! The rules of [`crate::go::GoGame`] under [`KoRule::Simple`] (the default) or, with
//! [`FastGo::with_ko_rule`], positional or situational superko, move for move (tested against
//! it on random games, with the same move limit): Black first on an N×N board (5 to 19 for play; any R×C up to 19×19
//! works); a move is a pass or a stone on an empty point; enemy chains left without liberties
//! are captured, then suicide is illegal; **simple ko**: a stone may not recreate the board from
//! before the opponent's last move, which is exactly "a move that captured one stone with a
//! single stone left in atari makes the captured point illegal for the reply" (the *ko point*;
//! a pass lifts it); **positional superko** (PSK, [`KoRule::PositionalSuperko`]): a stone may
//! not recreate any earlier board of the game, the empty start board included (**situational
//! superko**: any earlier board with the same side to move); two consecutive passes end the game, and so does the **move limit** (4 ×
//! points plies by default, as in [`crate::go::GoGame`] under simple ko, and kept under superko
//! so that playouts stay short); the result compares Black's area
//! (stones plus empty regions bordered only by Black) minus White's with the komi (6.5 by
//! default).
//!
//! # Moves, codes and hash
//! Moves are [`Move`]s in GTP coordinates, listed in point order (row by row from the bottom)
//! then the pass. Codes: `player × (points + 1) + point`, the pass being code `points`, as for
//! [`crate::go::GoGame`]. The hash is the reference board's ([`Zobrist`]: stones, side to move,
//! passes) with one more key for the ko point when there is one, so positions that differ in
//! their legal moves never share a hash under simple ko. Under superko, legality also depends
//! on the earlier boards, which the hash (like the reference's) does not include.
//!
//! # Superko
//! A state under superko keeps the Zobrist hashes of the earlier boards (64 bits each; a
//! collision, with probability about n²/2⁶⁴ over n boards, would forbid a legal move). The
//! hash of the board a stone move would create is computed without playing it
//! ([`FastBoard::hash_after`]). A move that captures nothing adds a stone, and the number of
//! stones never falls between captures, so such a move can only recreate a board from before
//! the last capture: only those are searched. The ko point stays a fast test: retaking a ko at
//! once recreates the board before the opponent's move under every rule.

use crate::fastboard::{EMPTY, FastBoard, NO_POINT};
use crate::go::{
    Board, KoRule, Komi, Move, MoveError, Point, Score, Size, SizeError, Zobrist, mix_board_hash,
};
use crate::{Game, Outcome, Player};
use rand::{Rng, RngCore};

/// Go for play on the fast board (see the module documentation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FastGo {
    size: Size,
    komi: Komi,
    ko_rule: KoRule,
    move_limit: u32,
    keys: Vec<[u64; 2]>,
    ko_keys: Vec<u64>,
    points: Vec<Point>,
    template: FastGoState,
}

/// A position of [`FastGo`]: stones, side to move, ko point, consecutive passes, plies and,
/// under superko, the hashes of the earlier boards.
///
/// Equality and `Hash` look at the stones, not at the board's internal chain lists.
/// `clone_from` copies only the board's cells in use (see [`FastBoard`]).
pub struct FastGoState {
    board: FastBoard,
    to_move: Player,
    ko: u16,
    passes: u8,
    plies: u32,
    /// Under superko: the keys of the boards of the game so far, the current one last (the
    /// board's Zobrist hash; under situational superko with the side-to-move key too). Empty
    /// under simple ko.
    history: Vec<u64>,
    /// Under superko: `history[..capture_mark]` are the boards from before the last capture,
    /// the only ones a move that captures nothing can recreate.
    capture_mark: u32,
    /// Under superko: the sum of the mixed keys of `history` (a signature of the set of
    /// earlier boards, xored into [`Game::hash`] so that a tree keyed by it never merges two
    /// nodes whose legal moves differ). 0 under simple ko, whose ko point is in the hash.
    sig: u64,
}

impl Clone for FastGoState {
    fn clone(&self) -> Self {
        FastGoState {
            board: self.board.clone(),
            to_move: self.to_move,
            ko: self.ko,
            passes: self.passes,
            plies: self.plies,
            history: self.history.clone(),
            capture_mark: self.capture_mark,
            sig: self.sig,
        }
    }

    fn clone_from(&mut self, src: &Self) {
        self.board.clone_from(&src.board);
        self.to_move = src.to_move;
        self.ko = src.ko;
        self.passes = src.passes;
        self.plies = src.plies;
        self.history.clone_from(&src.history);
        self.capture_mark = src.capture_mark;
        self.sig = src.sig;
    }
}

impl PartialEq for FastGoState {
    fn eq(&self, o: &Self) -> bool {
        self.board.same_stones(&o.board)
            && (self.to_move, self.ko, self.passes, self.plies)
                == (o.to_move, o.ko, o.passes, o.plies)
            && (&self.history, self.capture_mark) == (&o.history, o.capture_mark)
    }
}

impl Eq for FastGoState {}

impl std::hash::Hash for FastGoState {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.board.hash_stones(state);
        (self.to_move, self.ko, self.passes, self.plies).hash(state);
        (&self.history, self.capture_mark).hash(state);
    }
}

impl std::fmt::Debug for FastGoState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FastGoState")
            .field("board", &self.board)
            .field("to_move", &self.to_move)
            .field("ko", &self.ko)
            .field("passes", &self.passes)
            .field("plies", &self.plies)
            .field("history", &self.history.len())
            .finish()
    }
}

impl FastGoState {
    /// The side to move.
    #[must_use]
    pub const fn to_move(&self) -> Player {
        self.to_move
    }

    /// Consecutive passes just played.
    #[must_use]
    pub const fn passes(&self) -> u8 {
        self.passes
    }

    /// Plies played since the start.
    #[must_use]
    pub const fn plies(&self) -> u32 {
        self.plies
    }

    /// Whether every on-board neighbour of the point `p` holds a stone of `pl` (an "eye" of
    /// `pl` for Monte Carlo playouts).
    #[must_use]
    pub fn surrounded_by(&self, p: Point, pl: Player) -> bool {
        let cell = self.board.cell(usize::from(p.row), usize::from(p.col));
        self.board.surrounded_by(cell, pl)
    }
}

impl FastGo {
    /// Go on `rows` × `cols` (1 to 19 each) with this komi and the default move limit
    /// (4 × points plies).
    ///
    /// # Errors
    /// [`SizeError`] for an unsupported size.
    pub fn new(rows: u8, cols: u8, komi: Komi) -> Result<Self, SizeError> {
        let size = Size::new(u32::from(rows), u32::from(cols))?;
        let board = FastBoard::new(usize::from(cols), usize::from(rows));
        let z = Zobrist::get();
        let mut keys = vec![[0u64; 2]; board.cells()];
        let mut ko_keys = vec![0u64; board.cells()];
        let mut points = vec![Point::new(0, 0); board.cells()];
        for p in board.points() {
            let (r, c) = board.row_col(p);
            let pt = Point::new(r as u32, c as u32);
            points[p] = pt;
            keys[p] = [
                z.stone(size, pt, Player::Black),
                z.stone(size, pt, Player::White),
            ];
            ko_keys[p] = crate::dims::zobrist_key(0x4B4F_0000_0000 + p as u64);
        }
        Ok(FastGo {
            size,
            komi,
            ko_rule: KoRule::Simple,
            move_limit: 4 * size.points() as u32,
            keys,
            ko_keys,
            points,
            template: FastGoState {
                board,
                to_move: Player::Black,
                ko: NO_POINT,
                passes: 0,
                plies: 0,
                history: Vec::new(),
                capture_mark: 0,
                sig: 0,
            },
        })
    }

    /// The same game under another ko rule (simple ko by default; see the module
    /// documentation). The move limit stays.
    #[must_use]
    pub fn with_ko_rule(mut self, rule: KoRule) -> Self {
        self.ko_rule = rule;
        let key = self.board_key(&self.template.board, self.template.to_move);
        let t = &mut self.template;
        t.history.clear();
        t.capture_mark = 0;
        t.sig = 0;
        if rule != KoRule::Simple {
            t.history.push(key);
            t.sig = mix_board_hash(key);
        }
        self
    }

    /// The ko rule.
    #[must_use]
    pub const fn ko_rule(&self) -> KoRule {
        self.ko_rule
    }

    /// The move limit in plies.
    #[must_use]
    pub const fn move_limit(&self) -> u32 {
        self.move_limit
    }

    /// The key of a board under the superko rules: its hash, with the side to move under
    /// situational superko.
    #[inline]
    fn key_of(&self, board_hash: u64, to_move: Player) -> u64 {
        if self.ko_rule == KoRule::SituationalSuperko {
            board_hash ^ Zobrist::get().side(to_move)
        } else {
            board_hash
        }
    }

    fn board_key(&self, board: &FastBoard, to_move: Player) -> u64 {
        self.key_of(board.hash(), to_move)
    }

    /// Under superko: whether a stone of the side to move on the empty point `p` would
    /// recreate an earlier board (false under simple ko, whose test is the ko point).
    #[inline]
    fn repeats(&self, s: &FastGoState, p: usize) -> bool {
        if self.ko_rule == KoRule::Simple {
            return false;
        }
        let (h, captured) = s.board.hash_after(p, s.to_move, &self.keys);
        let key = self.key_of(h, s.to_move.opponent());
        let earlier = if captured {
            &s.history[..]
        } else {
            &s.history[..s.capture_mark as usize]
        };
        earlier.contains(&key)
    }

    /// The same game with another move limit in plies (at least 1).
    #[must_use]
    pub fn with_move_limit(mut self, limit: u32) -> Self {
        self.move_limit = limit.max(1);
        self
    }

    /// The board size.
    #[must_use]
    pub const fn size(&self) -> Size {
        self.size
    }

    /// The komi.
    #[must_use]
    pub const fn komi(&self) -> Komi {
        self.komi
    }

    /// The rules in the reference's terms: the ko rule and the komi.
    #[must_use]
    pub const fn rules(&self) -> crate::go::Rules {
        crate::go::Rules {
            ko: self.ko_rule,
            komi: self.komi,
        }
    }

    fn cell(&self, state: &FastGoState, p: Point) -> usize {
        state.board.cell(usize::from(p.row), usize::from(p.col))
    }

    /// The point of a padded cell (a table lookup: no division on the hot path).
    #[inline]
    fn point(&self, p: usize) -> Point {
        self.points[p]
    }

    fn is_over(&self, s: &FastGoState) -> bool {
        s.passes >= 2 || s.plies >= self.move_limit
    }

    #[inline]
    fn legal_at(&self, s: &FastGoState, p: usize) -> bool {
        if s.board.colour(p) != EMPTY || p == s.ko as usize {
            return false;
        }
        s.board.captures_or_breathes(p, s.to_move) && !self.repeats(s, p)
    }

    /// Area score of the stones as they stand.
    #[must_use]
    pub fn score(&self, state: &FastGoState) -> Score {
        let [black, white] = state.board.area();
        Score { black, white }
    }

    /// The stones as a reference [`Board`] (for drawing and tests; allocates).
    #[must_use]
    pub fn board(&self, state: &FastGoState) -> Board {
        let mut b = Board::empty(self.size);
        for p in state.board.points() {
            let c = state.board.colour(p);
            if c == 1 || c == 2 {
                let pl = if c == 1 { Player::Black } else { Player::White };
                b.set(self.point(p), Some(pl));
            }
        }
        b
    }

    /// The position after `moves` from the empty board, Black first and the colours
    /// alternating (passes included), as [`Game::play`] plays them; under superko with the
    /// history of the game, so the players see the ko rule a reference
    /// [`crate::go::Position`] given the same moves sees.
    ///
    /// # Errors
    /// The first illegal move (occupied, suicide, after the game's end, off the board, or a
    /// repetition the ko rule forbids), with the error [`crate::go::Position::play`] gives.
    pub fn replay(&self, moves: &[Move]) -> Result<FastGoState, MoveError> {
        let mut state = self.initial();
        for &m in moves {
            self.check(&state, m)?;
            self.play(&mut state, m);
        }
        Ok(state)
    }

    /// Why `m` is illegal in `state`, if it is (the move limit aside: see [`Game::play`]).
    fn check(&self, state: &FastGoState, m: Move) -> Result<(), MoveError> {
        if state.passes >= 2 {
            return Err(MoveError::GameOver(m.to_string()));
        }
        let Move::Place(pt) = m else {
            return Ok(());
        };
        if !self.size.contains(pt) {
            return Err(MoveError::Unreadable(format!("move {pt} is off the board")));
        }
        let p = self.cell(state, pt);
        if state.board.colour(p) != EMPTY {
            return Err(MoveError::Occupied(pt.to_string()));
        }
        let e = state.board.effects(p, state.to_move);
        if !e.captures && !e.breathes {
            return Err(MoveError::Suicide(pt.to_string()));
        }
        if p == state.ko as usize || self.repeats(state, p) {
            return Err(MoveError::Repetition(
                pt.to_string(),
                self.ko_rule.to_string(),
            ));
        }
        Ok(())
    }

    /// The move a Monte Carlo Go playout plays: uniformly random among the legal stone moves
    /// that do not fill one of the mover's own eyes (an empty point whose on-board neighbours
    /// are all the mover's stones), the pass only when there is none. Allocates nothing: empty
    /// points are drawn until one qualifies, with the draws of `stones::sample_empty` (four
    /// with replacement, then without), so a seed gives the same move as there.
    ///
    /// Generic over the generator so that a concrete one is inlined; `&mut dyn RngCore` works
    /// too and draws the same numbers. The state must not be terminal (the pass is then
    /// returned).
    #[inline]
    pub fn playout_move<R: RngCore + ?Sized>(&self, state: &FastGoState, rng: &mut R) -> Move {
        let me = state.to_move;
        let ko = state.ko as usize;
        let ok =
            |p: usize| p != ko && state.board.playable_non_eye(p, me) && !self.repeats(state, p);
        match crate::stones::sample_points(state.board.empties(), rng, ok) {
            Some(p) => Move::Place(self.point(p)),
            None => Move::Pass,
        }
    }

    /// [`FastGo::playout_move`] as it was first written, with `stones::sample_empty` and the
    /// two separate tests: the slow reference of the tests.
    #[cfg(test)]
    fn playout_move_reference(&self, state: &FastGoState, rng: &mut dyn RngCore) -> Move {
        let me = state.to_move;
        crate::stones::sample_empty(&state.board, rng, |p| {
            !state.board.surrounded_by(p, me) && self.legal_at(state, p)
        })
        .map_or(Move::Pass, |p| Move::Place(self.point(p)))
    }
}

/// The ko rule in words, e.g. "positional superko".
#[must_use]
pub const fn ko_rule_words(rule: KoRule) -> &'static str {
    match rule {
        KoRule::Simple => "simple ko",
        KoRule::PositionalSuperko => "positional superko",
        KoRule::SituationalSuperko => "situational superko",
    }
}

impl Game for FastGo {
    type State = FastGoState;
    type Move = Move;

    fn name(&self) -> &'static str {
        "go"
    }

    fn initial(&self) -> FastGoState {
        self.template.clone()
    }

    fn to_move(&self, state: &FastGoState) -> Player {
        state.to_move
    }

    fn null_move(&self, state: &FastGoState) -> Option<Move> {
        // Go's pass, as `GoGame::null_move`: none once the game is over.
        self.outcome(state).is_none().then_some(Move::Pass)
    }

    fn legal_moves(&self, state: &FastGoState, out: &mut Vec<Move>) {
        out.clear();
        if self.is_over(state) {
            return;
        }
        for p in state.board.points() {
            if self.legal_at(state, p) {
                out.push(Move::Place(self.point(p)));
            }
        }
        out.push(Move::Pass);
    }

    fn random_legal_move(
        &self,
        state: &FastGoState,
        _buf: &mut Vec<Move>,
        rng: &mut dyn RngCore,
    ) -> Option<Move> {
        if self.is_over(state) {
            return None;
        }
        // Uniform over the legal stone moves and the pass: the pass is drawn as one more
        // candidate among the empty points.
        let empties = state.board.empties();
        let mut cand = [0u16; 19 * 19 + 1];
        let mut n = empties.len();
        cand[..n].copy_from_slice(empties);
        cand[n] = NO_POINT;
        n += 1;
        loop {
            let k = rng.random_range(0..n as u32) as usize;
            let p = cand[k];
            if p == NO_POINT {
                return Some(Move::Pass);
            }
            if self.legal_at(state, p as usize) {
                return Some(Move::Place(self.point(p as usize)));
            }
            n -= 1;
            cand[k] = cand[n];
        }
    }

    /// Plays `mv`. A move past the move limit is still played: the hash does not count plies,
    /// so a search may reach a position both before and at the limit through transpositions.
    fn play(&self, state: &mut FastGoState, mv: Move) {
        debug_assert!(self.check(state, mv).is_ok(), "illegal move {mv}");
        match mv {
            Move::Pass => {
                state.passes += 1;
                state.ko = NO_POINT;
                if self.ko_rule == KoRule::SituationalSuperko {
                    // The same board with the other side to move: a new position.
                    let key = self.board_key(&state.board, state.to_move.opponent());
                    state.history.push(key);
                    state.sig = state.sig.wrapping_add(mix_board_hash(key));
                }
            }
            Move::Place(pt) => {
                let p = self.cell(state, pt);
                let (removed, last) = state.board.place(p, state.to_move, true, &self.keys);
                state.ko =
                    if removed == 1 && state.board.chain_size(p) == 1 && state.board.in_atari(p) {
                        last
                    } else {
                        NO_POINT
                    };
                state.passes = 0;
                if self.ko_rule != KoRule::Simple {
                    if removed > 0 {
                        state.capture_mark = state.history.len() as u32;
                    }
                    let key = self.board_key(&state.board, state.to_move.opponent());
                    state.history.push(key);
                    state.sig = state.sig.wrapping_add(mix_board_hash(key));
                }
            }
        }
        state.to_move = state.to_move.opponent();
        state.plies += 1;
    }

    fn outcome(&self, state: &FastGoState) -> Option<Outcome> {
        if !self.is_over(state) {
            return None;
        }
        Some(match self.komi.black_wins(self.score(state).margin()) {
            Some(true) => Outcome::Win(Player::Black),
            Some(false) => Outcome::Win(Player::White),
            None => Outcome::Draw,
        })
    }

    fn hash(&self, state: &FastGoState) -> u64 {
        let z = Zobrist::get();
        let ko = if state.ko == NO_POINT {
            0
        } else {
            self.ko_keys[state.ko as usize]
        };
        state.board.hash() ^ z.side(state.to_move) ^ z.passes(state.passes) ^ ko ^ state.sig
    }

    fn hash_from_scratch(&self, state: &FastGoState) -> u64 {
        let z = Zobrist::get();
        let ko = if state.ko == NO_POINT {
            0
        } else {
            self.ko_keys[state.ko as usize]
        };
        let sig = state
            .history
            .iter()
            .fold(0u64, |s, &k| s.wrapping_add(mix_board_hash(k)));
        state.board.hash_from_scratch(&self.keys)
            ^ z.side(state.to_move)
            ^ z.passes(state.passes)
            ^ ko
            ^ sig
    }

    fn max_game_length(&self) -> u32 {
        self.move_limit
    }

    fn num_move_codes(&self) -> usize {
        2 * (self.size.points() + 1)
    }

    fn move_code(&self, state: &FastGoState, mv: Move) -> usize {
        let per = self.size.points() + 1;
        let base = state.to_move.index() * per;
        match mv {
            Move::Pass => base + self.size.points(),
            Move::Place(p) => base + self.size.index(p),
        }
    }

    fn parse_move(&self, state: &FastGoState, text: &str) -> Result<Move, String> {
        let m = self.size.parse_move(text)?;
        if state.plies >= self.move_limit {
            return Err(format!("illegal move {m}: the game is over (move limit)"));
        }
        self.check(state, m).map_err(|e| e.to_string())?;
        Ok(m)
    }

    fn can_repeat(&self) -> bool {
        true
    }

    /// The board, then the side to move and the rules; at the end of a game, the area score
    /// and the result instead of the side to move.
    fn render(&self, state: &FastGoState) -> String {
        let rules = format!(
            "komi {}, {}, area scoring",
            self.komi,
            ko_rule_words(self.ko_rule)
        );
        let Some(outcome) = self.outcome(state) else {
            return format!("{}{} to move, {rules}", self.board(state), state.to_move);
        };
        let score = self.score(state);
        let why = if state.passes >= 2 {
            "two passes".to_string()
        } else {
            format!("the move limit of {} plies", self.move_limit)
        };
        // Twice the margin with the komi, in half-points (exact).
        let m2 = 2 * score.margin() - self.komi.half_points();
        let by = Komi::from_half_points(m2.abs());
        let result = match outcome {
            Outcome::Win(Player::Black) => format!("Black wins by {by}"),
            Outcome::Win(Player::White) => format!("White wins by {by}"),
            Outcome::Draw => "a draw".to_string(),
        };
        format!(
            "{}Game over after {why}: area Black {}, White {}, komi {}: {result} ({rules}).",
            self.board(state),
            score.black,
            score.white,
            self.komi
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conformance::check_random_games;
    use crate::go::{GoGame, Position};
    use rand::SeedableRng;
    use rand_xoshiro::Xoshiro256PlusPlus;

    fn komi() -> Komi {
        Komi::from_half_points(13)
    }

    fn play_all(g: &FastGo, moves: &str) -> FastGoState {
        let mut s = g.initial();
        for t in moves.split_whitespace() {
            let m = g.parse_move(&s, t).unwrap_or_else(|e| panic!("{t}: {e}"));
            g.play(&mut s, m);
        }
        s
    }

    /// Plays random games on both boards and compares them after every move: legal moves (in
    /// order), stones, captures, outcome, score, and the hash where no ko point is set.
    /// Returns (games, plies, ko-forbidden replies seen, captures seen, stone moves forbidden
    /// by superko only).
    fn against_reference_under(
        rule: KoRule,
        rows: u8,
        cols: u8,
        seed: u64,
        games: u32,
    ) -> (u32, u64, u64, u64, u64) {
        let fast = FastGo::new(rows, cols, komi()).unwrap().with_ko_rule(rule);
        let slow = GoGame::new(rows, cols, fast.rules())
            .unwrap()
            .with_move_limit(Some(fast.move_limit()));
        assert_eq!(fast.rules().ko, rule);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let (mut plies, mut kos, mut captures, mut bans) = (0u64, 0u64, 0u64, 0u64);
        let (mut mf, mut ms) = (Vec::new(), Vec::new());
        for g in 0..games {
            let (mut f, mut s): (FastGoState, Position) = (fast.initial(), slow.initial());
            loop {
                let at = || format!("{rows}x{cols} seed {seed} game {g} ply {}", f.plies);
                f.board.check_invariants(&fast.keys);
                assert_eq!(fast.board(&f), *s.board(), "{}: stones", at());
                fast.legal_moves(&f, &mut mf);
                slow.legal_moves(&s, &mut ms);
                assert_eq!(mf, ms, "{}: legal moves", at());
                for &p in f.board.empties() {
                    let p = usize::from(p);
                    if p != f.ko as usize
                        && f.board.captures_or_breathes(p, f.to_move)
                        && fast.repeats(&f, p)
                    {
                        bans += 1;
                        let m = Move::Place(fast.point(p));
                        assert!(fast.parse_move(&f, &m.to_string()).is_err());
                    }
                }
                assert_eq!(fast.outcome(&f), slow.outcome(&s), "{}: outcome", at());
                assert_eq!(fast.hash(&f), fast.hash_from_scratch(&f));
                if f.ko == NO_POINT {
                    // The position's hashes agree; each game adds its own history signature.
                    assert_eq!(fast.hash(&f) ^ f.sig, s.hash(), "{}: hash", at());
                } else {
                    kos += 1;
                    let ko = fast.point(f.ko as usize);
                    assert!(s.board().get(ko).is_none() && !mf.contains(&Move::Place(ko)));
                }
                if fast.outcome(&f).is_some() {
                    assert_eq!(fast.score(&f), s.score(), "{}: score", at());
                    break;
                }
                // Mostly playout moves (long games with captures and kos), sometimes any move.
                let m = if rng.random_range(0..10) < 8 {
                    fast.playout_move(&f, &mut rng)
                } else {
                    mf[rng.random_range(0..mf.len())]
                };
                let before = f.board.empties().len();
                fast.play(&mut f, m);
                slow.play(&mut s, m);
                if matches!(m, Move::Place(_)) && f.board.empties().len() >= before {
                    captures += 1;
                }
                plies += 1;
            }
        }
        (games, plies, kos, captures, bans)
    }

    fn against_reference(rows: u8, cols: u8, seed: u64, games: u32) -> (u32, u64, u64, u64) {
        let (g, plies, kos, captures, bans) =
            against_reference_under(KoRule::Simple, rows, cols, seed, games);
        assert_eq!(bans, 0, "no superko test under simple ko");
        (g, plies, kos, captures)
    }

    /// Positional and situational superko against the reference `Position`, with its
    /// history of exact boards, on random games: the same legal moves after every move.
    #[test]
    fn superko_agrees_with_the_reference_board_on_random_games() {
        for rule in [KoRule::PositionalSuperko, KoRule::SituationalSuperko] {
            let mut all_bans = 0;
            for (rows, cols, seed, games) in [
                (2, 2, 21, 300),
                (1, 5, 22, 200),
                (3, 3, 23, 300),
                (2, 4, 24, 200),
                (5, 5, 25, 150),
                (4, 6, 26, 40),
                (7, 7, 27, 15),
            ] {
                let (_, plies, _, captures, bans) =
                    against_reference_under(rule, rows, cols, seed, games);
                assert!(
                    plies > u64::from(games) && captures > 0,
                    "{rule} {rows}x{cols}"
                );
                all_bans += bans;
            }
            assert!(all_bans > 0, "{rule}: superko never forbade a move");
        }
    }

    #[test]
    fn positional_superko_names_its_rule_and_allows_a_retake_on_a_new_board() {
        // The ko of `simple_ko_forbids_the_immediate_recapture_only`, under PSK.
        let g = FastGo::new(5, 5, komi())
            .unwrap()
            .with_ko_rule(KoRule::PositionalSuperko);
        let mut t = play_all(&g, "B1 C1 A2 B2 B3 C3 E5 D2");
        step(&g, &mut t, "C2");
        let err = g.parse_move(&t, "B2").unwrap_err();
        assert!(err.contains("repeats an earlier board (psk)"), "{err}");
        // After an exchange elsewhere the retake makes a new board: legal.
        step(&g, &mut t, "E1");
        step(&g, &mut t, "E4");
        assert!(g.parse_move(&t, "B2").is_ok());
        let r = g.render(&t);
        assert!(r.contains("positional superko"), "{r}");
    }

    #[test]
    fn replay_reaches_the_played_position_and_refuses_a_superko_retake() {
        let g = FastGo::new(5, 5, komi())
            .unwrap()
            .with_ko_rule(KoRule::PositionalSuperko);
        let text = "B1 C1 A2 B2 B3 C3 E5 D2 C2";
        let moves: Vec<Move> = text
            .split_whitespace()
            .map(|t| g.size().parse_move(t).unwrap())
            .collect();
        let s = g.replay(&moves).unwrap();
        assert!(s == play_all(&g, text));
        assert_eq!(g.hash(&s), g.hash(&play_all(&g, text)));
        let mut retake = moves.clone();
        retake.push(g.size().parse_move("B2").unwrap());
        let err = g.replay(&retake).unwrap_err().to_string();
        assert!(err.contains("repeats an earlier board"), "{err}");
        retake.pop();
        retake.push(g.size().parse_move("C2").unwrap());
        assert!(matches!(g.replay(&retake), Err(MoveError::Occupied(_))));
    }

    #[test]
    fn the_final_display_gives_the_area_score_and_the_winner() {
        let g = FastGo::new(5, 5, komi()).unwrap();
        let s = play_all(&g, "C1 D1 C2 D2 C3 D3 C4 D4 C5 D5");
        let live = g.render(&s);
        assert!(
            live.contains("black to move, komi 6.5, simple ko, area scoring"),
            "{live}"
        );
        let s = play_all(&g, "C1 D1 C2 D2 C3 D3 C4 D4 C5 D5 pass pass");
        let end = g.render(&s);
        assert!(
            end.contains(
                "Game over after two passes: area Black 15, White 10, komi 6.5: White wins by 1.5"
            ),
            "{end}"
        );
        let g = FastGo::new(5, 5, komi()).unwrap().with_move_limit(3);
        let end = g.render(&play_all(&g, "C3 D4 pass"));
        assert!(
            end.contains("the move limit of 3 plies") && end.contains("White wins by 6.5"),
            "{end}"
        );
        let g = FastGo::new(5, 5, Komi::from_half_points(10)).unwrap();
        let end = g.render(&play_all(&g, "C1 D1 C2 D2 C3 D3 C4 D4 C5 D5 pass pass"));
        assert!(end.contains("komi 5: a draw"), "{end}");
    }

    #[test]
    fn agrees_with_the_reference_board_on_random_games() {
        for (rows, cols, seed, games) in [
            (5, 5, 1, 1200),
            (4, 6, 2, 300),
            (7, 7, 3, 200),
            (9, 9, 4, 40),
            (1, 5, 5, 100),
            (2, 2, 6, 200),
        ] {
            let (_, plies, kos, captures) = against_reference(rows, cols, seed, games);
            if rows >= 4 {
                assert!(
                    plies > 20 * u64::from(games),
                    "{rows}x{cols}: games too short"
                );
                assert!(
                    kos > 0 && captures > 0,
                    "{rows}x{cols}: no ko or capture seen"
                );
            }
        }
    }

    #[test]
    fn conformance() {
        for n in [5u8, 9, 13] {
            let g = FastGo::new(n, n, komi()).unwrap();
            check_random_games(&g, u64::from(n), if n == 5 { 20 } else { 3 });
        }
        check_random_games(&FastGo::new(3, 4, komi()).unwrap(), 7, 50);
        check_random_games(&FastGo::new(19, 19, komi()).unwrap(), 8, 1);
    }

    fn step(g: &FastGo, s: &mut FastGoState, t: &str) {
        let m = g.parse_move(s, t).unwrap_or_else(|e| panic!("{t}: {e}"));
        g.play(s, m);
    }

    #[test]
    fn simple_ko_forbids_the_immediate_recapture_only() {
        // 5x5, Black to move (rows 3 to 1):
        //   . X O . .
        //   X O . O .     Black C2 takes White B2, a single stone left in atari:
        //   . X O . .     White may not retake at B2 at once.
        let g = FastGo::new(5, 5, komi()).unwrap();
        let mut t = play_all(&g, "B1 C1 A2 B2 B3 C3 E5 D2");
        step(&g, &mut t, "C2");
        assert_eq!(g.board(&t).get(Point::new(1, 1)), None, "B2 captured");
        let err = g.parse_move(&t, "B2").unwrap_err();
        assert!(err.contains("repeats an earlier board"), "{err}");
        // After an exchange elsewhere White may take back.
        let mut u = t.clone();
        step(&g, &mut u, "E1");
        step(&g, &mut u, "E4");
        assert!(g.parse_move(&u, "B2").is_ok());
        // So may White after a pass.
        let mut w = t.clone();
        step(&g, &mut w, "E1");
        step(&g, &mut w, "pass");
        assert!(
            g.parse_move(&w, "B2").is_ok(),
            "the ko was for the previous move only"
        );
        // Two passes end the game.
        step(&g, &mut t, "pass");
        step(&g, &mut t, "pass");
        assert!(g.outcome(&t).is_some());
    }

    #[test]
    fn suicide_is_illegal_and_capture_is_not_suicide() {
        let g = FastGo::new(5, 5, komi()).unwrap();
        // White A1 would have no liberty next to Black A2, B1.
        let s = play_all(&g, "A2 E5 B1");
        assert!(g.parse_move(&s, "A1").unwrap_err().contains("suicide"));
        // With White B2 and A3 around Black A2, White A1 captures A2 and is legal.
        let s = play_all(&g, "A2 B2 B1 A3 E5");
        let mut t = s.clone();
        g.play(
            &mut t,
            g.parse_move(&s, "A1").unwrap_or_else(|e| panic!("{e}")),
        );
        assert_eq!(g.board(&t).get(Point::new(1, 0)), None);
    }

    #[test]
    fn area_scoring_with_komi_and_the_move_limit() {
        let g = FastGo::new(5, 5, komi()).unwrap();
        // A black wall on column C: Black owns A–C (15), White D–E (10): margin 5 < 6.5.
        let s = play_all(&g, "C1 D1 C2 D2 C3 D3 C4 D4 C5 D5 pass pass");
        assert_eq!(
            g.score(&s),
            Score {
                black: 15,
                white: 10
            }
        );
        assert_eq!(g.outcome(&s), Some(Outcome::Win(Player::White)));
        let g = FastGo::new(5, 5, Komi::from_half_points(8)).unwrap();
        let s = play_all(&g, "C1 D1 C2 D2 C3 D3 C4 D4 C5 D5 pass pass");
        assert_eq!(g.outcome(&s), Some(Outcome::Win(Player::Black)));
        let g = FastGo::new(5, 5, Komi::from_half_points(10)).unwrap();
        let s = play_all(&g, "C1 D1 C2 D2 C3 D3 C4 D4 C5 D5 pass pass");
        assert_eq!(g.outcome(&s), Some(Outcome::Draw));
        // The move limit ends the game as it stands.
        let g = FastGo::new(5, 5, komi()).unwrap().with_move_limit(3);
        let s = play_all(&g, "C3 D4 pass");
        let mut v = Vec::new();
        g.legal_moves(&s, &mut v);
        assert!(v.is_empty());
        assert_eq!(
            g.outcome(&s),
            Some(Outcome::Win(Player::White)),
            "1 point each, komi"
        );
    }

    /// On random games: the fused playout move draws the same numbers and returns the same
    /// move as the reference (`stones::sample_empty` with the two separate tests); the area
    /// score equals the flood-fill reference; a state copied with `clone_from` plays on alike.
    #[test]
    fn playout_move_area_and_clone_from_agree_with_their_references() {
        for (n, seed, games) in [(5u8, 11u64, 400u32), (9, 12, 40), (13, 13, 8), (2, 14, 100)] {
            let g = FastGo::new(n, n, komi()).unwrap();
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            let mut moves = Vec::new();
            let mut scratch = g.initial();
            for _ in 0..games {
                let mut s = g.initial();
                while g.outcome(&s).is_none() {
                    for &p in s.board.empties() {
                        for pl in [Player::Black, Player::White] {
                            let p = usize::from(p);
                            assert_eq!(
                                s.board.playable_non_eye(p, pl),
                                !s.board.surrounded_by(p, pl)
                                    && s.board.captures_or_breathes(p, pl)
                            );
                        }
                    }
                    assert_eq!(s.board.area(), s.board.area_reference());
                    let (mut a, mut b) = (rng.clone(), rng.clone());
                    let fast = g.playout_move(&s, &mut a);
                    let slow = g.playout_move_reference(&s, &mut b);
                    assert_eq!(fast, slow, "{n}x{n} ply {}", s.plies);
                    assert_eq!(a, b, "{n}x{n} ply {}: the same draws", s.plies);
                    // Mostly playout moves, sometimes any legal move (eye fills, kos).
                    let m = if rng.random_range(0..8) == 0 {
                        g.legal_moves(&s, &mut moves);
                        moves[rng.random_range(0..moves.len())]
                    } else {
                        fast
                    };
                    // A reused state copied with `clone_from` plays on exactly as the original
                    // (same empty-point order, chains and hash).
                    scratch.clone_from(&s);
                    g.play(&mut s, m);
                    g.play(&mut scratch, m);
                    scratch.board.check_invariants(&g.keys);
                    assert!(scratch == s && scratch.board.empties() == s.board.empties());
                    assert_eq!(g.hash(&scratch), g.hash(&s));
                }
                assert_eq!(s.board.area(), s.board.area_reference(), "final position");
            }
            // From a board of another size too.
            let other = FastGo::new(n % 7 + 3, n % 5 + 2, komi()).unwrap();
            let mut t = other.initial();
            t.clone_from(&g.initial());
            assert!(t == g.initial());
            t.board.check_invariants(&g.keys);
        }
    }

    #[test]
    fn sampled_moves_are_uniform_and_seeded() {
        let g = FastGo::new(5, 5, komi()).unwrap();
        // Black's own eye at A1 is skipped by the playout move, not by the uniform draw.
        let s = play_all(&g, "A2 E5 B1 E4");
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(9);
        let mut legal = Vec::new();
        g.legal_moves(&s, &mut legal);
        let mut counts = std::collections::HashMap::new();
        let draws = 40_000;
        for _ in 0..draws {
            let m = g.random_legal_move(&s, &mut Vec::new(), &mut rng).unwrap();
            *counts.entry(m).or_insert(0u32) += 1;
            assert_ne!(g.playout_move(&s, &mut rng), Move::Place(Point::new(0, 0)));
        }
        assert_eq!(counts.len(), legal.len(), "every legal move drawn");
        let expect = f64::from(draws) / legal.len() as f64;
        for (m, c) in counts {
            assert!(
                (f64::from(c) - expect).abs() < 0.15 * expect,
                "{m}: {c} vs {expect}"
            );
        }
        let a = g.playout_move(&s, &mut Xoshiro256PlusPlus::seed_from_u64(3));
        let b = g.playout_move(&s, &mut Xoshiro256PlusPlus::seed_from_u64(3));
        assert_eq!(a, b);
    }
}
