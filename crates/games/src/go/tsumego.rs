//! Tsumego: local goals on a Go position, as a [`Game`] that any search of the proof-number
//! family can solve.
//!
//! A problem is a position (the reference rules: positional superko, suicide illegal), a
//! **target** block (the defender's stones through one point; the attacker is the other
//! colour), an **area of play** (a set of points: stone moves outside it are not considered,
//! a pass is always legal) and a **goal**:
//!
//! - [`TsumegoGoal::Capture`]: the attacker wins when the target block is captured (its point
//!   no longer holds a defender stone); the defender wins when the block is unconditionally
//!   alive by Benson's test ([`super::benson`]) or when two consecutive passes end the game.
//! - [`TsumegoGoal::LifeAndDeath`]: the attacker wins (*kill*) when the target block is
//!   captured; the defender wins (*live*) when the block is unconditionally alive, or when two
//!   passes end the game with the block standing and the defender holding at least one point
//!   of the area as territory (an empty point whose empty region borders only defender
//!   stones); two passes with the block standing and no such point is a draw (*seki*).
//!
//! # Ko
//! A problem may give one side **unlimited ko threats** ([`Tsumego::with_ko_threats`]): that
//! side's stone moves are exempt from the superko ban (as if it first played a ko threat
//! outside the area that the opponent answered outside, so a ko can always be retaken), while
//! its opponent stays bound by positional superko over every board of the game. The game stays
//! finite: each of the opponent's stone moves makes a new board, and between two of them the
//! favoured side only adds stones or ends the game by passing.
//! `pns::tsumego` decides *ko* by searching both ways.
//!
//! Win, loss and draw are the [`Outcome`]s of the game, so df-pn, PNS and the others of
//! `pns` solve it unchanged.

use super::benson::{alive_blocks, may_be_alive};
use super::board::Board;
use super::point::{Move, Point, Size};
use super::position::Position;
use crate::{Game, Outcome, Player};
use std::fmt;

/// A set of points of one board (at most 19×19), as a bitset over point indices.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct PointSet([u64; 6]);

impl PointSet {
    /// The empty set.
    #[must_use]
    pub const fn new() -> Self {
        PointSet([0; 6])
    }

    /// Adds the point of index `i` (`Size::index`).
    pub fn insert(&mut self, i: usize) {
        self.0[i / 64] |= 1 << (i % 64);
    }

    /// Whether the point of index `i` is in the set.
    #[must_use]
    pub const fn contains(&self, i: usize) -> bool {
        self.0[i / 64] >> (i % 64) & 1 == 1
    }

    /// Number of points.
    #[must_use]
    pub fn len(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// Whether the set is empty.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    /// The point indices in increasing order.
    pub fn indices(&self) -> impl Iterator<Item = usize> + '_ {
        (0..384).filter(|&i| self.contains(i))
    }

    /// Every point of a board of `size`.
    #[must_use]
    pub fn all(size: Size) -> Self {
        let mut s = Self::new();
        for i in 0..size.points() {
            s.insert(i);
        }
        s
    }

    /// The points of the rectangle spanned by the points in `points`, grown by `margin` on each
    /// side and clipped to the board.
    #[must_use]
    pub fn rectangle(size: Size, points: &[Point], margin: u32) -> Self {
        let mut s = Self::new();
        let Some(r0) = points.iter().map(|p| p.row).min() else {
            return s;
        };
        let r1 = points.iter().map(|p| p.row).max().unwrap_or(r0);
        let c0 = points.iter().map(|p| p.col).min().unwrap_or(0);
        let c1 = points.iter().map(|p| p.col).max().unwrap_or(0);
        let lo = |v: u8| u32::from(v).saturating_sub(margin);
        for r in lo(r0)..=(u32::from(r1) + margin).min(size.rows() - 1) {
            for c in lo(c0)..=(u32::from(c1) + margin).min(size.cols() - 1) {
                s.insert(size.index(Point::new(r, c)));
            }
        }
        s
    }
}

/// What the attacker is after.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TsumegoGoal {
    /// Capture the target block (see the module documentation).
    Capture,
    /// Kill the target group; the defender tries to live or reach seki.
    LifeAndDeath,
}

impl TsumegoGoal {
    /// "capture" or "life-and-death".
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            TsumegoGoal::Capture => "capture",
            TsumegoGoal::LifeAndDeath => "life-and-death",
        }
    }
}

/// A problem that cannot be posed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TsumegoError {
    /// The target point holds no stone.
    #[error("the target point {0} holds no stone: mark a stone of the group to capture or save")]
    NoStone(String),
    /// The target point is off the board.
    #[error("the target point {0} is off the board")]
    OffBoard(String),
    /// The area of play has no empty point.
    #[error("the area of play has no empty point: nothing to play")]
    NoEmptyPoint,
}

/// A tsumego as a game: see the module documentation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tsumego {
    start: Position,
    target: Point,
    defender: Player,
    goal: TsumegoGoal,
    area: PointSet,
    ko_threats: Option<Player>,
}

impl Tsumego {
    /// The problem of `goal` about the block at `target` in `start`, played in `area`.
    ///
    /// # Errors
    /// [`TsumegoError`] when the target holds no stone or the area has no empty point.
    pub fn new(
        start: Position,
        target: Point,
        goal: TsumegoGoal,
        area: PointSet,
    ) -> Result<Self, TsumegoError> {
        let size = start.size();
        if !size.contains(target) {
            return Err(TsumegoError::OffBoard(target.to_string()));
        }
        let Some(defender) = start.board().get(target) else {
            return Err(TsumegoError::NoStone(target.to_string()));
        };
        let has_empty = area
            .indices()
            .any(|i| i < size.points() && start.board().get(size.point_at(i)).is_none());
        if !has_empty {
            return Err(TsumegoError::NoEmptyPoint);
        }
        Ok(Tsumego {
            start,
            target,
            defender,
            goal,
            area,
            ko_threats: None,
        })
    }

    /// The same problem with `side` (or nobody) given unlimited ko threats.
    #[must_use]
    pub fn with_ko_threats(mut self, side: Option<Player>) -> Self {
        self.ko_threats = side;
        self
    }

    /// The start position.
    #[must_use]
    pub const fn start(&self) -> &Position {
        &self.start
    }

    /// A point of the target block.
    #[must_use]
    pub const fn target(&self) -> Point {
        self.target
    }

    /// The colour of the target block.
    #[must_use]
    pub const fn defender(&self) -> Player {
        self.defender
    }

    /// The other colour.
    #[must_use]
    pub const fn attacker(&self) -> Player {
        self.defender.opponent()
    }

    /// The goal.
    #[must_use]
    pub const fn goal(&self) -> TsumegoGoal {
        self.goal
    }

    /// The area of play.
    #[must_use]
    pub const fn area(&self) -> &PointSet {
        &self.area
    }

    /// The side with unlimited ko threats, if any.
    #[must_use]
    pub const fn ko_threats(&self) -> Option<Player> {
        self.ko_threats
    }

    /// Whether the target block has been captured in `pos`.
    #[must_use]
    pub fn captured(&self, pos: &Position) -> bool {
        pos.board().get(self.target) != Some(self.defender)
    }

    /// Whether `mv` is legal in `pos` for this problem (in the area, ko exemption applied).
    #[must_use]
    pub fn is_legal(&self, pos: &Position, mv: Move) -> bool {
        match mv {
            Move::Pass => !pos.is_over(),
            Move::Place(p) => {
                let size = pos.size();
                size.contains(p)
                    && self.area.contains(size.index(p))
                    && if self.ko_threats == Some(pos.to_move()) {
                        pos.is_legal_ignoring_ko(mv)
                    } else {
                        pos.is_legal(mv)
                    }
            }
        }
    }

    fn defender_territory(&self, board: &Board) -> bool {
        let size = board.size();
        let n = size.points();
        let mut seen = vec![false; n];
        for start in self.area.indices().filter(|&i| i < n) {
            if seen[start] || board.get(size.point_at(start)).is_some() {
                continue;
            }
            let mut touches = [false; 2];
            let mut stack = vec![start];
            seen[start] = true;
            while let Some(i) = stack.pop() {
                for nb in size.neighbours(size.point_at(i)) {
                    let k = size.index(nb);
                    match board.get(nb) {
                        Some(c) => touches[c.index()] = true,
                        None if !seen[k] => {
                            seen[k] = true;
                            stack.push(k);
                        }
                        None => {}
                    }
                }
            }
            if touches[self.defender.index()] && !touches[self.attacker().index()] {
                return true;
            }
        }
        false
    }
}

impl Game for Tsumego {
    type State = Position;
    type Move = Move;

    fn name(&self) -> &'static str {
        "tsumego"
    }

    fn initial(&self) -> Position {
        self.start.clone()
    }

    fn to_move(&self, state: &Position) -> Player {
        state.to_move()
    }

    /// Stone moves in the area in point order, then the pass; none at the end.
    fn legal_moves(&self, state: &Position, out: &mut Vec<Move>) {
        out.clear();
        if self.outcome(state).is_some() {
            return;
        }
        let size = state.size();
        for i in self.area.indices().take_while(|&i| i < size.points()) {
            let m = Move::Place(size.point_at(i));
            if state.board().get(size.point_at(i)).is_none() && self.is_legal(state, m) {
                out.push(m);
            }
        }
        out.push(Move::Pass);
    }

    fn play(&self, state: &mut Position, mv: Move) {
        let r = if self.ko_threats == Some(state.to_move()) {
            state.play_ignoring_ko(mv)
        } else {
            state.play(mv)
        };
        r.unwrap_or_else(|e| panic!("Tsumego::play given an illegal move: {e}"));
    }

    fn outcome(&self, state: &Position) -> Option<Outcome> {
        if self.captured(state) {
            return Some(Outcome::Win(self.attacker()));
        }
        let board = state.board();
        if board.chain(self.target).1 >= 2
            && may_be_alive(board, self.target)
            && alive_blocks(board, self.defender)[state.size().index(self.target)]
        {
            return Some(Outcome::Win(self.defender));
        }
        if !state.is_over() {
            return None;
        }
        Some(match self.goal {
            TsumegoGoal::Capture => Outcome::Win(self.defender),
            TsumegoGoal::LifeAndDeath if self.defender_territory(board) => {
                Outcome::Win(self.defender)
            }
            TsumegoGoal::LifeAndDeath => Outcome::Draw,
        })
    }

    fn hash(&self, state: &Position) -> u64 {
        state.hash() ^ state.history().signature()
    }

    fn hash_from_scratch(&self, state: &Position) -> u64 {
        state.hash_from_scratch() ^ state.history_signature_from_scratch()
    }

    /// A loose bound (see the module documentation for why every game ends).
    fn max_game_length(&self) -> u32 {
        u32::MAX
    }

    fn num_move_codes(&self) -> usize {
        2 * (self.start.size().points() + 1)
    }

    fn move_code(&self, state: &Position, mv: Move) -> usize {
        let points = state.size().points();
        let base = state.to_move().index() * (points + 1);
        match mv {
            Move::Pass => base + points,
            Move::Place(p) => base + state.size().index(p),
        }
    }

    fn parse_move(&self, state: &Position, text: &str) -> Result<Move, String> {
        let m = state.size().parse_move(text)?;
        if self.is_legal(state, m) {
            Ok(m)
        } else {
            Err(format!("illegal move {text} in this problem"))
        }
    }

    fn can_repeat(&self) -> bool {
        true
    }

    fn null_move(&self, state: &Position) -> Option<Move> {
        (!state.is_over()).then_some(Move::Pass)
    }

    fn render(&self, state: &Position) -> String {
        format!("{}{} to move", state.board(), state.to_move())
    }
}

impl fmt::Display for Tsumego {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} of the {} block at {} ({} points in the area)",
            self.goal.name(),
            self.defender,
            self.target,
            self.area.len()
        )
    }
}
