//! Hex on a board of W columns and H rows (1 ≤ W, H ≤ 19; usually W = H).
//!
//! # Rules
//! Two players alternately place a stone of their colour on an empty cell; **Black moves
//! first** and there is **no swap rule**. Black wins by connecting the top edge (row 1) to the
//! bottom edge (row H) with a chain of black stones; White wins by connecting the left edge
//! (column a) to the right edge (the last column). A full board always has exactly one winner
//! (the Hex theorem, which also holds on rectangles), so there are no draws and a game lasts at
//! most W × H plies. Positions never repeat.
//!
//! Source: the rules of Piet Hein (1942) and John Nash (1948) as played by benzene/HexGui, the
//! convention of `data/hex-6x6-openings.tsv`.
//!
//! # Coordinates
//! benzene/HexGui: letters `a`, `b`, … name columns from the left, numbers name rows **from
//! the top**. The neighbours of `(c, r)` are `(c±1, r)`, `(c, r±1)`, `(c+1, r−1)` and
//! `(c−1, r+1)`, so `a1` and the opposite corner are acute (two neighbours) and the two other
//! corners obtuse (three). Drawn with each row shifted half a cell right of the one above:
//!
//! ```text
//!   a b c
//!  1 . . .        a1 touches b1, a2;  b1 touches a1, c1, a2, b2;
//!   2 . . .       b2 touches a2, c2, b1, c1, a3, b3.
//!    3 . . .
//! ```
//!
//! The size text is **width × height**: `"6x5"` is 6 columns and 5 rows, `"6"` is 6×6.
//!
//! # Implementation
//! The winner is found incrementally with a union-find over the cells whose roots carry the
//! set of board edges (top, bottom, left, right bits) their chain touches: placing a stone
//! unites it with its same-coloured neighbours and ORs their edge sets with the edges of its
//! own cell; Black wins when the chain's set holds top and bottom, White when it holds left
//! and right. A one-column board has column `a` as both White edges, so any White stone there
//! touches both and wins.
//!
//! Move codes are `player × cells + cell` (`2 × W × H` codes).
//!
//! For random playouts a state also keeps its empty cells in an unordered list with each
//! cell's slot in it (removal by swapping with the last), so [`Game::random_legal_move`] draws a
//! uniform empty cell in O(1) without listing the legal moves; [`Game::legal_moves`] still
//! lists them in row-major order.

use crate::dims::{SizeError, parse_dims, zobrist_key};
use crate::{Game, Outcome, Player};
use std::fmt;

/// The largest width or height supported.
pub const MAX_SIDE: usize = 19;

const EMPTY: u8 = 0;

/// The rules value: board dimensions and the precomputed neighbour lists.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hex {
    width: usize,
    height: usize,
    /// Up to six neighbours of each cell; `degree[c]` of them are valid.
    neighbours: Vec<[u16; 6]>,
    degree: Vec<u8>,
    /// The edges each cell touches: [`TOP`], [`BOTTOM`], [`LEFT`], [`RIGHT`] bits.
    edges: Vec<u8>,
    /// The move on each cell index (avoids a division per playout move).
    moves: Vec<HexMove>,
}

const TOP: u8 = 1;
const BOTTOM: u8 = 2;
const LEFT: u8 = 4;
const RIGHT: u8 = 8;

/// A Hex move: the cell `(col, row)`, both counted from 0 (`a1` is `(0, 0)`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct HexMove {
    /// Column, 0 = `a`.
    pub col: u8,
    /// Row from the top, 0 = row `1`.
    pub row: u8,
}

impl fmt::Display for HexMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            char::from(b'a' + self.col),
            u32::from(self.row) + 1
        )
    }
}

/// A Hex position: stones, side to move, the union-find of the chains, and the cached result.
///
/// Equality and hashing look at the stones and the side to move only (the union-find forest
/// depends on the move order, the position does not).
#[derive(Clone, Debug)]
pub struct HexState {
    /// 0 empty, 1 Black, 2 White, one byte per cell, row-major from `a1`.
    board: Vec<u8>,
    /// Union-find parents over the cells (a root is its own parent).
    parent: Vec<u16>,
    /// At a root of a stone chain: the mover's edges ([`TOP`]/[`BOTTOM`] for Black,
    /// [`LEFT`]/[`RIGHT`] for White) that the chain touches. Meaningless elsewhere.
    chain_edges: Vec<u8>,
    to_move: Player,
    empty: u16,
    /// The empty cells in no particular order (`empty` of them).
    empties: Vec<u16>,
    /// `slot[c]` is the index of the empty cell `c` in `empties` (stale for occupied cells).
    slot: Vec<u16>,
    winner: Option<Player>,
    hash: u64,
}

impl PartialEq for HexState {
    fn eq(&self, other: &Self) -> bool {
        self.board == other.board && self.to_move == other.to_move
    }
}

impl Eq for HexState {}

impl std::hash::Hash for HexState {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.board.hash(h);
        self.to_move.hash(h);
    }
}

const fn stone_code(p: Player) -> u8 {
    match p {
        Player::Black => 1,
        Player::White => 2,
    }
}

fn stone_key(cell: usize, p: Player) -> u64 {
    zobrist_key(0x4845_5800_0000 + (cell as u64) * 2 + p.index() as u64)
}

fn white_to_move_key() -> u64 {
    zobrist_key(0x4845_58FF_FFFF)
}

impl Hex {
    /// An `width` × `height` board.
    ///
    /// # Errors
    /// [`SizeError::Unsupported`] unless both are in `1..=19`.
    pub fn new(width: usize, height: usize) -> Result<Self, SizeError> {
        if !(1..=MAX_SIDE).contains(&width) || !(1..=MAX_SIDE).contains(&height) {
            return Err(SizeError::Unsupported {
                game: "hex",
                width,
                height,
                allowed: "width and height from 1 to 19",
            });
        }
        let cells = width * height;
        let mut neighbours = vec![[0u16; 6]; cells];
        let mut degree = vec![0u8; cells];
        for r in 0..height as isize {
            for c in 0..width as isize {
                let i = (r as usize) * width + c as usize;
                for (dc, dr) in [(-1, 0), (1, 0), (0, -1), (0, 1), (1, -1), (-1, 1)] {
                    let (nc, nr) = (c + dc, r + dr);
                    if nc >= 0 && nr >= 0 && (nc as usize) < width && (nr as usize) < height {
                        neighbours[i][degree[i] as usize] =
                            (nr as usize * width + nc as usize) as u16;
                        degree[i] += 1;
                    }
                }
            }
        }
        let edges = (0..cells)
            .map(|i| {
                let (c, r) = (i % width, i / width);
                let mut e = 0;
                if r == 0 {
                    e |= TOP;
                }
                if r == height - 1 {
                    e |= BOTTOM;
                }
                if c == 0 {
                    e |= LEFT;
                }
                if c == width - 1 {
                    e |= RIGHT;
                }
                e
            })
            .collect();
        let moves = (0..cells)
            .map(|i| HexMove {
                col: (i % width) as u8,
                row: (i / width) as u8,
            })
            .collect();
        Ok(Self {
            width,
            height,
            neighbours,
            degree,
            edges,
            moves,
        })
    }

    /// Parses `"WxH"` or `"N"` (width × height) and builds the board.
    ///
    /// # Errors
    /// As [`parse_dims`] and [`Hex::new`].
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

    /// Number of cells, `width × height`.
    #[must_use]
    pub const fn cells(&self) -> usize {
        self.width * self.height
    }

    /// The dense index of a move's cell, `row × width + col`.
    #[must_use]
    pub const fn cell_index(&self, mv: HexMove) -> usize {
        mv.row as usize * self.width + mv.col as usize
    }

    /// The move on cell index `cell` (`row × width + col`).
    #[must_use]
    pub const fn move_at(&self, cell: usize) -> HexMove {
        HexMove {
            col: (cell % self.width) as u8,
            row: (cell / self.width) as u8,
        }
    }

    /// The neighbours of a cell index.
    #[must_use]
    pub fn neighbours(&self, cell: usize) -> &[u16] {
        &self.neighbours[cell][..self.degree[cell] as usize]
    }

    /// The stone on a cell index, if any.
    #[must_use]
    pub fn stone(&self, state: &HexState, cell: usize) -> Option<Player> {
        match state.board[cell] {
            1 => Some(Player::Black),
            2 => Some(Player::White),
            _ => None,
        }
    }

    /// Places stones without alternation checks (for tests and setups): `text` has one line
    /// (or `/`-separated row) per board row, `X`/`B` Black, `O`/`W` White, `.` empty; the side
    /// to move is Black when the counts are equal, White otherwise.
    ///
    /// # Errors
    /// A one-line message when the drawing does not fit the board or uses another character.
    pub fn setup(&self, text: &str) -> Result<HexState, String> {
        let rows: Vec<&str> = text
            .split(['/', '\n'])
            .map(str::trim)
            .filter(|r| !r.is_empty())
            .collect();
        if rows.len() != self.height {
            return Err(format!(
                "setup has {} rows, board has {}",
                rows.len(),
                self.height
            ));
        }
        let mut state = self.initial();
        let mut blacks = Vec::new();
        let mut whites = Vec::new();
        for (r, row) in rows.iter().enumerate() {
            let cells: Vec<char> = row.chars().filter(|c| !c.is_whitespace()).collect();
            if cells.len() != self.width {
                return Err(format!(
                    "setup row {} has {} cells, board has {}",
                    r + 1,
                    cells.len(),
                    self.width
                ));
            }
            for (c, ch) in cells.into_iter().enumerate() {
                let i = r * self.width + c;
                match ch {
                    'X' | 'x' | 'B' | 'b' => blacks.push(i),
                    'O' | 'o' | 'W' | 'w' => whites.push(i),
                    '.' => {}
                    other => return Err(format!("setup: unknown cell character '{other}'")),
                }
            }
        }
        for &i in &blacks {
            self.place(&mut state, i, Player::Black);
        }
        for &i in &whites {
            self.place(&mut state, i, Player::White);
        }
        let to_move = if blacks.len() == whites.len() {
            Player::Black
        } else {
            Player::White
        };
        if state.to_move != to_move {
            state.hash ^= white_to_move_key();
        }
        state.to_move = to_move;
        Ok(state)
    }

    /// Makes `p` the side to move (benzene's and HexGui's `play` of either colour at any time):
    /// the stones stay, the hash follows.
    pub fn set_to_move(&self, state: &mut HexState, p: Player) {
        if state.to_move != p {
            state.to_move = p;
            state.hash ^= white_to_move_key();
        }
    }

    /// The root of `x`, halving the path on the way.
    #[inline]
    fn find(parent: &mut [u16], mut x: usize) -> usize {
        while parent[x] as usize != x {
            let grand = parent[parent[x] as usize];
            parent[x] = grand;
            x = grand as usize;
        }
        x
    }

    /// The edges a chain of `p` must touch to win (both bits).
    const fn goal(p: Player) -> u8 {
        match p {
            Player::Black => TOP | BOTTOM,
            Player::White => LEFT | RIGHT,
        }
    }

    /// Places a stone of `p` on `cell` and updates chains, winner, hash and the empty cells.
    #[inline]
    fn place(&self, state: &mut HexState, cell: usize, p: Player) {
        debug_assert_eq!(state.board[cell], EMPTY);
        let code = stone_code(p);
        state.board[cell] = code;
        state.hash ^= stone_key(cell, p);
        state.empty -= 1;
        // Take the cell out of the empty list: the last empty cell moves into its slot.
        let i = state.slot[cell];
        let last = state.empties[state.empty as usize];
        state.empties[i as usize] = last;
        state.slot[last as usize] = i;
        let goal = Self::goal(p);
        // `cell` is a new root; merge each neighbouring chain into the smaller-index root.
        let mut root = cell;
        let mut edges = self.edges[cell] & goal;
        for &n in self.neighbours(cell) {
            if state.board[n as usize] == code {
                let r = Self::find(&mut state.parent, n as usize);
                if r != root {
                    edges |= state.chain_edges[r];
                    let (lo, hi) = if r < root { (r, root) } else { (root, r) };
                    state.parent[hi] = lo as u16;
                    root = lo;
                }
            }
        }
        state.chain_edges[root] = edges;
        if edges == goal {
            state.winner = Some(p);
        }
    }

    /// Checks the incremental parts of `state` against the board (test-only): the empty
    /// count and list, the slots, the hash and the winner.
    ///
    /// # Panics
    /// When one of them is wrong.
    #[cfg(test)]
    pub(crate) fn check_invariants(&self, state: &HexState) {
        let empty: Vec<usize> = (0..self.cells())
            .filter(|&c| state.board[c] == EMPTY)
            .collect();
        assert_eq!(state.empty as usize, empty.len());
        let mut listed: Vec<usize> = state.empties[..empty.len()]
            .iter()
            .map(|&c| c as usize)
            .collect();
        for (i, &c) in listed.iter().enumerate() {
            assert_eq!(state.slot[c] as usize, i, "slot of cell {c}");
        }
        listed.sort_unstable();
        assert_eq!(
            listed, empty,
            "the empty list holds exactly the empty cells"
        );
        assert_eq!(state.hash, self.hash_from_scratch(state));
        assert_eq!(state.winner, self.winner_from_scratch(state));
    }

    /// The root of `x` in the union-find forest, without path compression.
    fn root(parent: &[u16], mut x: usize) -> usize {
        while parent[x] as usize != x {
            x = parent[x] as usize;
        }
        x
    }

    /// The number of empty cells where a stone of `p` would win at once, counting at most
    /// `limit` (a query on the rules, used by solvers: one winning cell means a forced reply,
    /// two mean the opponent cannot stop `p`).
    #[must_use]
    pub fn winning_cells(&self, state: &HexState, p: Player, limit: usize) -> usize {
        if state.winner.is_some() {
            return 0;
        }
        let goal = Self::goal(p);
        let code = stone_code(p);
        let mut count = 0;
        for (c, &b) in state.board.iter().enumerate() {
            if b != EMPTY {
                continue;
            }
            let mut edges = self.edges[c] & goal;
            for &n in self.neighbours(c) {
                if state.board[n as usize] == code {
                    edges |= state.chain_edges[Self::root(&state.parent, n as usize)];
                }
            }
            if edges == goal {
                count += 1;
                if count >= limit {
                    break;
                }
            }
        }
        count
    }

    /// The winner recomputed by a flood fill from scratch (slow; for tests).
    #[must_use]
    pub fn winner_from_scratch(&self, state: &HexState) -> Option<Player> {
        for p in [Player::Black, Player::White] {
            let code = stone_code(p);
            let mut seen = vec![false; self.cells()];
            let mut stack: Vec<usize> = (0..self.cells())
                .filter(|&i| {
                    state.board[i] == code
                        && match p {
                            Player::Black => i / self.width == 0,
                            Player::White => i % self.width == 0,
                        }
                })
                .collect();
            for &i in &stack {
                seen[i] = true;
            }
            while let Some(i) = stack.pop() {
                let reached = match p {
                    Player::Black => i / self.width == self.height - 1,
                    Player::White => i % self.width == self.width - 1,
                };
                if reached {
                    return Some(p);
                }
                for &n in self.neighbours(i) {
                    let n = n as usize;
                    if !seen[n] && state.board[n] == code {
                        seen[n] = true;
                        stack.push(n);
                    }
                }
            }
        }
        None
    }
}

impl Game for Hex {
    type State = HexState;
    type Move = HexMove;

    fn name(&self) -> &'static str {
        "hex"
    }

    fn initial(&self) -> HexState {
        let n = self.cells();
        HexState {
            board: vec![EMPTY; n],
            parent: (0..n as u16).collect(),
            chain_edges: vec![0; n],
            to_move: Player::Black,
            empty: n as u16,
            empties: (0..n as u16).collect(),
            slot: (0..n as u16).collect(),
            winner: None,
            hash: 0,
        }
    }

    fn to_move(&self, state: &HexState) -> Player {
        state.to_move
    }

    fn legal_moves(&self, state: &HexState, out: &mut Vec<HexMove>) {
        out.clear();
        if state.winner.is_some() {
            return;
        }
        for (i, &b) in state.board.iter().enumerate() {
            if b == EMPTY {
                out.push(self.move_at(i));
            }
        }
    }

    /// Draws uniformly from the list of empty cells (one random number, no listing).
    #[inline]
    fn random_legal_move(
        &self,
        state: &HexState,
        _buf: &mut Vec<HexMove>,
        rng: &mut dyn rand::RngCore,
    ) -> Option<HexMove> {
        use rand::Rng;
        if state.winner.is_some() || state.empty == 0 {
            return None;
        }
        let i = rng.random_range(0..u32::from(state.empty)) as usize;
        Some(self.moves[state.empties[i] as usize])
    }

    #[inline]
    fn play(&self, state: &mut HexState, mv: HexMove) {
        let p = state.to_move;
        self.place(state, self.cell_index(mv), p);
        state.to_move = p.opponent();
        state.hash ^= white_to_move_key();
    }

    fn outcome(&self, state: &HexState) -> Option<Outcome> {
        state.winner.map(Outcome::Win)
    }

    fn hash(&self, state: &HexState) -> u64 {
        state.hash
    }

    fn hash_from_scratch(&self, state: &HexState) -> u64 {
        let mut h = 0;
        for (i, &b) in state.board.iter().enumerate() {
            match b {
                1 => h ^= stone_key(i, Player::Black),
                2 => h ^= stone_key(i, Player::White),
                _ => {}
            }
        }
        if state.to_move == Player::White {
            h ^= white_to_move_key();
        }
        h
    }

    fn max_game_length(&self) -> u32 {
        self.cells() as u32
    }

    fn num_move_codes(&self) -> usize {
        2 * self.cells()
    }

    fn move_code(&self, state: &HexState, mv: HexMove) -> usize {
        state.to_move.index() * self.cells() + self.cell_index(mv)
    }

    fn parse_move(&self, state: &HexState, text: &str) -> Result<HexMove, String> {
        let t = text.trim().to_ascii_lowercase();
        let mut chars = t.chars();
        let col = match chars.next() {
            Some(c @ 'a'..='z') => c as usize - 'a' as usize,
            _ => return Err(format!("bad hex move '{text}': expected a cell like c3")),
        };
        let row: usize = chars
            .as_str()
            .parse()
            .map_err(|_| format!("bad hex move '{text}': expected a cell like c3"))?;
        if col >= self.width || row == 0 || row > self.height {
            return Err(format!(
                "hex move '{text}' is off the {}x{} board",
                self.width, self.height
            ));
        }
        let mv = HexMove {
            col: col as u8,
            row: (row - 1) as u8,
        };
        if state.winner.is_some() {
            return Err(format!("illegal hex move '{text}': the game is over"));
        }
        if state.board[self.cell_index(mv)] != EMPTY {
            return Err(format!("illegal hex move '{text}': the cell is occupied"));
        }
        Ok(mv)
    }

    /// The board, rows shifted as the cells lie, then which edges each player connects.
    fn render(&self, state: &HexState) -> String {
        let mut s = String::from("  ");
        for c in 0..self.width {
            s.push(char::from(b'a' + c as u8));
            s.push(' ');
        }
        s.push('\n');
        for r in 0..self.height {
            s.push_str(&" ".repeat(r));
            s.push_str(&format!("{:>2} ", r + 1));
            for c in 0..self.width {
                s.push(match state.board[r * self.width + c] {
                    1 => 'X',
                    2 => 'O',
                    _ => '.',
                });
                s.push(' ');
            }
            s.pop();
            s.push('\n');
        }
        let last_col = char::from(b'a' + (self.width - 1) as u8);
        s.push_str(&format!(
            "Black (X) connects top and bottom (rows 1 and {}), White (O) left and right \
             (columns a and {last_col}).",
            self.height
        ));
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conformance::check_random_games;

    fn play_all(g: &Hex, moves: &str) -> HexState {
        let mut s = g.initial();
        for m in moves.split_whitespace() {
            let mv = g.parse_move(&s, m).unwrap();
            g.play(&mut s, mv);
        }
        s
    }

    #[test]
    fn set_to_move_keeps_the_stones_and_the_hash_exact() {
        // Two black stones in a row (HTP `play b a1`, `play b b1`): White is to move after
        // the second one, and the hash is that of the same drawing with White to move.
        let g = Hex::new(3, 3).unwrap();
        let mut s = g.initial();
        g.play(&mut s, HexMove { col: 0, row: 0 });
        g.set_to_move(&mut s, Player::Black);
        assert_eq!(g.to_move(&s), Player::Black);
        g.check_invariants(&s);
        g.play(&mut s, HexMove { col: 1, row: 0 });
        assert_eq!(g.to_move(&s), Player::White);
        g.check_invariants(&s);
        g.set_to_move(&mut s, Player::White);
        assert_eq!(
            g.to_move(&s),
            Player::White,
            "setting the side to move twice is a no-op"
        );
        g.check_invariants(&s);
        assert_eq!(g.stone(&s, 0), Some(Player::Black));
        assert_eq!(g.stone(&s, 1), Some(Player::Black));
    }

    #[test]
    fn conformance_on_many_sizes_including_thin_boards() {
        for (w, h) in [
            (1, 1),
            (1, 5),
            (5, 1),
            (2, 2),
            (2, 7),
            (7, 2),
            (3, 3),
            (4, 4),
            (5, 5),
            (6, 6),
            (8, 5),
            (11, 11),
            (19, 19),
        ] {
            let g = Hex::new(w, h).unwrap();
            let games = if w * h > 100 { 20 } else { 200 };
            let r = check_random_games(&g, 7 + w as u64 * 31 + h as u64, games);
            assert_eq!(r.results[2], 0, "hex has no draws");
            assert_eq!(r.games, games);
        }
    }

    #[test]
    fn incremental_winner_matches_flood_fill_after_every_move() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(5);
        for (w, h) in [
            (1, 1),
            (1, 4),
            (4, 1),
            (2, 2),
            (2, 5),
            (5, 2),
            (3, 4),
            (6, 6),
            (9, 9),
        ] {
            let g = Hex::new(w, h).unwrap();
            for _ in 0..300 {
                let mut s = g.initial();
                let mut moves = Vec::new();
                loop {
                    assert_eq!(
                        g.outcome(&s).and_then(Outcome::winner),
                        g.winner_from_scratch(&s),
                        "{}",
                        g.render(&s)
                    );
                    g.legal_moves(&s, &mut moves);
                    if moves.is_empty() {
                        break;
                    }
                    let m = moves[rng.random_range(0..moves.len())];
                    g.play(&mut s, m);
                    g.check_invariants(&s);
                }
                // A game only stops with a winner: Hex has no draw.
                assert!(g.outcome(&s).is_some());
            }
        }
    }

    #[test]
    fn random_playout_moves_are_legal_and_keep_the_invariants() {
        use rand::SeedableRng;
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(17);
        let mut buf = Vec::new();
        let mut legal = Vec::new();
        for (w, h) in [
            (1, 1),
            (1, 4),
            (4, 1),
            (2, 3),
            (5, 5),
            (7, 4),
            (11, 11),
            (13, 13),
        ] {
            let g = Hex::new(w, h).unwrap();
            for _ in 0..100 {
                let mut s = g.initial();
                g.check_invariants(&s);
                while let Some(m) = g.random_legal_move(&s, &mut buf, &mut rng) {
                    g.legal_moves(&s, &mut legal);
                    assert!(legal.contains(&m), "{m} is legal in\n{}", g.render(&s));
                    g.play(&mut s, m);
                    g.check_invariants(&s);
                }
                assert!(g.outcome(&s).is_some(), "a playout only stops at a win");
            }
        }
    }

    #[test]
    fn random_playout_moves_are_uniform_over_the_legal_moves() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(23);
        let g = Hex::new(5, 5).unwrap();
        let mut buf = Vec::new();
        for game in 0..4 {
            // A position after a few random moves (so the empty list is shuffled).
            let mut s = g.initial();
            for _ in 0..3 + 2 * game {
                g.legal_moves(&s, &mut buf);
                g.play(&mut s, buf[rng.random_range(0..buf.len())]);
            }
            if g.outcome(&s).is_some() {
                continue;
            }
            let mut legal = Vec::new();
            g.legal_moves(&s, &mut legal);
            let draws = 40_000 * legal.len();
            let mut counts = vec![0usize; g.cells()];
            for _ in 0..draws {
                let m = g.random_legal_move(&s, &mut buf, &mut rng).unwrap();
                counts[g.cell_index(m)] += 1;
            }
            for (c, &count) in counts.iter().enumerate() {
                if legal.contains(&g.move_at(c)) {
                    let f = count as f64 / 40_000.0;
                    assert!((f - 1.0).abs() < 0.03, "cell {c}: {f} of the uniform share");
                } else {
                    assert_eq!(count, 0);
                }
            }
        }
    }

    #[test]
    fn random_playouts_are_deterministic_for_a_seed() {
        use rand::SeedableRng;
        let g = Hex::new(9, 9).unwrap();
        let game = |seed| {
            let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
            let (mut s, mut buf, mut moves) = (g.initial(), Vec::new(), Vec::new());
            while let Some(m) = g.random_legal_move(&s, &mut buf, &mut rng) {
                moves.push(m);
                g.play(&mut s, m);
            }
            moves
        };
        assert_eq!(game(3), game(3));
        assert_ne!(game(3), game(4));
    }

    #[test]
    fn full_boards_have_exactly_one_winner() {
        use rand::{SeedableRng, seq::SliceRandom};
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(11);
        for (w, h) in [(1, 3), (3, 1), (2, 3), (4, 4), (5, 3)] {
            let g = Hex::new(w, h).unwrap();
            for _ in 0..200 {
                let mut cells: Vec<usize> = (0..w * h).collect();
                cells.shuffle(&mut rng);
                let mut s = g.initial();
                for (k, &c) in cells.iter().enumerate() {
                    g.place(
                        &mut s,
                        c,
                        if k % 2 == 0 {
                            Player::Black
                        } else {
                            Player::White
                        },
                    );
                }
                let b = {
                    let mut t = s.clone();
                    t.board.iter_mut().for_each(|x| {
                        if *x == 2 {
                            *x = 0
                        }
                    });
                    g.winner_from_scratch(&t) == Some(Player::Black)
                };
                let wh = {
                    let mut t = s.clone();
                    t.board.iter_mut().for_each(|x| {
                        if *x == 1 {
                            *x = 0
                        }
                    });
                    g.winner_from_scratch(&t) == Some(Player::White)
                };
                assert!(
                    b != wh,
                    "exactly one player connects on a full board:\n{}",
                    g.render(&s)
                );
            }
        }
    }

    #[test]
    fn neighbours_follow_benzene_geometry() {
        let g = Hex::new(3, 3).unwrap();
        let names = |cell: usize| {
            let mut v: Vec<String> = g
                .neighbours(cell)
                .iter()
                .map(|&n| g.move_at(n as usize).to_string())
                .collect();
            v.sort();
            v.join(" ")
        };
        assert_eq!(names(0), "a2 b1", "a1 is an acute corner");
        assert_eq!(names(2), "b1 b2 c2", "c1 is an obtuse corner");
        assert_eq!(names(6), "a2 b2 b3", "a3 is an obtuse corner");
        assert_eq!(names(8), "b3 c2", "c3 is an acute corner");
        assert_eq!(names(4), "a2 a3 b1 b3 c1 c2");
    }

    #[test]
    fn black_connects_top_to_bottom_white_left_to_right() {
        let g = Hex::new(3, 3).unwrap();
        // Black's column b, White elsewhere: Black wins on the third stone.
        let s = play_all(&g, "b1 a1 b2 a2 b3");
        assert_eq!(g.outcome(&s), Some(Outcome::Win(Player::Black)));
        // White row 2 a2-b2-c2 connects left to right.
        let s = play_all(&g, "a1 a2 c3 b2 a3 c2");
        assert_eq!(g.outcome(&s), Some(Outcome::Win(Player::White)));
        // A black chain along the anti-diagonal c1-b2-a3 connects top and bottom.
        let s = play_all(&g, "c1 a1 b2 a2 a3");
        assert_eq!(g.outcome(&s), Some(Outcome::Win(Player::Black)));
        // a1-b1 bend: b1 is not adjacent to a2's lower neighbour... a chain a1 a2 a3 is a win too.
        let s = play_all(&g, "a1 c1 a2 c2 a3");
        assert_eq!(g.outcome(&s), Some(Outcome::Win(Player::Black)));
        // a1 and b2 do not touch (the diagonal a1-b2 is not an edge): no win yet.
        let s = g.setup("X../.X./...").unwrap();
        assert_eq!(g.outcome(&s), None);
    }

    #[test]
    fn the_display_names_each_players_edges() {
        let g = Hex::from_size("4x2").unwrap();
        let r = g.render(&g.initial());
        assert!(
            r.ends_with(
                "Black (X) connects top and bottom (rows 1 and 2), White (O) left and right \
                 (columns a and d)."
            ),
            "{r}"
        );
    }

    #[test]
    fn every_edge_cell_counts_for_its_edges() {
        // On 4x4, a straight black column at every x wins; a straight white row at every y wins.
        let g = Hex::new(4, 4).unwrap();
        for c in 0..4 {
            let rows: Vec<String> = (0..4)
                .map(|_| (0..4).map(|x| if x == c { 'X' } else { '.' }).collect())
                .collect();
            let s = g.setup(&rows.join("/")).unwrap();
            assert_eq!(g.winner_from_scratch(&s), Some(Player::Black));
            assert_eq!(
                g.outcome(&s),
                Some(Outcome::Win(Player::Black)),
                "column {c}"
            );
        }
        for r in 0..4 {
            let rows: Vec<String> = (0..4)
                .map(|y| if y == r { "OOOO".into() } else { "....".into() })
                .collect();
            let s = g.setup(&rows.join("/")).unwrap();
            assert_eq!(g.outcome(&s), Some(Outcome::Win(Player::White)), "row {r}");
        }
        // Touching only one edge is not enough.
        let s = g.setup("XXXX/..../..../....").unwrap();
        assert_eq!(g.outcome(&s), None);
        let s = g.setup("O.../O.../O.../O...").unwrap();
        assert_eq!(g.outcome(&s), None);
    }

    #[test]
    fn winning_cells_are_the_moves_that_win_at_once() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(21);
        for (w, h) in [(1, 3), (3, 1), (2, 2), (3, 3), (4, 4), (5, 3)] {
            let g = Hex::new(w, h).unwrap();
            for _ in 0..200 {
                let mut s = g.initial();
                let mut moves = Vec::new();
                loop {
                    g.legal_moves(&s, &mut moves);
                    if moves.is_empty() {
                        break;
                    }
                    for p in [Player::Black, Player::White] {
                        let brute = moves
                            .iter()
                            .filter(|&&m| {
                                let mut t = s.clone();
                                g.place(&mut t, g.cell_index(m), p);
                                t.winner == Some(p)
                            })
                            .count();
                        assert_eq!(
                            g.winning_cells(&s, p, usize::MAX),
                            brute,
                            "{}",
                            g.render(&s)
                        );
                        assert_eq!(g.winning_cells(&s, p, 1), brute.min(1));
                    }
                    g.play(&mut s, moves[rng.random_range(0..moves.len())]);
                }
            }
        }
    }

    #[test]
    fn thin_boards() {
        // 1x1: Black's first stone touches top and bottom.
        let g = Hex::new(1, 1).unwrap();
        let s = play_all(&g, "a1");
        assert_eq!(g.outcome(&s), Some(Outcome::Win(Player::Black)));
        // 1 column, 3 rows: any White stone touches both White edges.
        let g = Hex::new(1, 3).unwrap();
        let s = play_all(&g, "a2 a1");
        assert_eq!(g.outcome(&s), Some(Outcome::Win(Player::White)));
        // 3 columns, 1 row: any Black stone touches both Black edges.
        let g = Hex::new(3, 1).unwrap();
        let s = play_all(&g, "b1");
        assert_eq!(g.outcome(&s), Some(Outcome::Win(Player::Black)));
        // 2 columns x 3 rows: a2 b1 ... Black a1-a2-a3 wins down column a.
        let g = Hex::new(2, 3).unwrap();
        let s = play_all(&g, "a1 b1 a2 b2 a3");
        assert_eq!(g.outcome(&s), Some(Outcome::Win(Player::Black)));
        let s = play_all(&g, "a1 a2 b3 b2");
        assert_eq!(g.outcome(&s), Some(Outcome::Win(Player::White)));
    }

    #[test]
    fn parse_and_errors() {
        let g = Hex::new(6, 6).unwrap();
        let s = g.initial();
        assert_eq!(g.parse_move(&s, "f6"), Ok(HexMove { col: 5, row: 5 }));
        assert_eq!(g.parse_move(&s, "C2"), Ok(HexMove { col: 2, row: 1 }));
        assert!(g.parse_move(&s, "g1").is_err());
        assert!(g.parse_move(&s, "a0").is_err());
        assert!(g.parse_move(&s, "a7").is_err());
        assert!(g.parse_move(&s, "zz").is_err());
        let s = play_all(&g, "c3");
        assert!(g.parse_move(&s, "c3").unwrap_err().contains("occupied"));
        assert!(Hex::from_size("0x3").is_err());
        assert!(Hex::from_size("20").is_err());
        assert_eq!(Hex::from_size("6x5").unwrap().width(), 6);
        let g = Hex::new(19, 19).unwrap();
        assert_eq!(
            g.parse_move(&g.initial(), "s19"),
            Ok(HexMove { col: 18, row: 18 })
        );
    }

    #[test]
    fn transposed_positions_are_equal_with_equal_hash() {
        let g = Hex::new(4, 4).unwrap();
        let a = play_all(&g, "a1 b2 c3 d4");
        let b = play_all(&g, "c3 d4 a1 b2");
        assert_eq!(a, b);
        assert_eq!(g.hash(&a), g.hash(&b));
        assert_ne!(g.hash(&a), g.hash(&play_all(&g, "a1 b2 c3")));
    }
}
