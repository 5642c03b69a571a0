//! The Wargame of the MCPS paper: an asymmetric attacker/defender game on an N×N hex grid.
//!
//! Source: *Monte Carlo Permutation Search* (Cazenave), section "Wargame" and its playout
//! policy. The rules, as implemented here:
//!
//! - **Board.** N×N cells (5 ≤ N ≤ 15), row `r` from 0 (top) to N−1, column `c` from 0
//!   (left) to N−1. Adjacency is hexagonal (see *Layout* below). Blue's **base** is the
//!   cell `(⌊N/2⌋, N−1)`.
//! - **Units.** Each side has N−1 units, each starting with 2 health points (HP). Units are
//!   anonymous: a position is the set of occupied cells with their owner and HP.
//! - **Setup.** Red (the attacker, [`Player::Black`], moves first: our choice, the paper
//!   does not say who starts) and Blue (the defender, [`Player::White`]) alternate placing
//!   one unit on an empty cell of their columns: Red in columns 0 and 1, Blue in columns
//!   N−2 and N−1 (the base included). The phase ends when all 2(N−1) units are placed; the
//!   alternation goes on, so Red moves first. Placing never fights (the columns are never
//!   adjacent).
//! - **Movement.** Players alternate. A turn moves one unit of the player to an adjacent
//!   empty cell. Sole exception: Red may enter Blue's base even when a Blue unit occupies it,
//!   displacing it (the displaced unit leaves the board; the game is over at once).
//! - **Combat.** Immediately after a unit moves (not after a placement), it attacks the
//!   weakest adjacent enemy: lowest HP first; ties broken by the hex distance of the enemy
//!   to Blue's base, the **smaller** first (the paper names the key, not its direction: our
//!   choice); remaining ties by the smaller cell index `r·N + c` (our choice). The attacked
//!   unit loses 1 HP and is removed at 0 HP. Only the unit that moved attacks, once; there
//!   is no counter-attack.
//! - **End.** Red wins as soon as one of its units enters the base, or when all Blue units
//!   are eliminated. Blue wins when all Red units are eliminated, or when 4N² half-moves
//!   (plies, **placements included**: our reading) have been played without a Red win.
//! - **Pass.** The paper does not say what happens to a player with no legal step (every
//!   unit boxed in). Here that player passes (the only legal move then is `pass`), and the
//!   pass counts as a half-move. It never happens in practice but keeps the rules total.
//!
//! ## Layout (the paper's ambiguity, our choice)
//! "An N×N grid with hex adjacency" is laid out as **odd-r offset** rows: odd rows are
//! shifted half a cell to the right, so the board is a rectangle of hexagons (drawn so by
//! [`Game::render`]). The six neighbours of `(r, c)` are `(r, c±1)` and, for an even row,
//! `(r±1, c−1)`, `(r±1, c)`; for an odd row, `(r±1, c)`, `(r±1, c+1)`. Hex distance is
//! computed in cube coordinates (`x = c − (r − (r&1))/2`, `z = r`).
//!
//! ```text
//!  row 0:  a b c d e         (even rows are not shifted)
//!  row 1:   f g h i j        (odd rows are shifted half a cell right)
//!  row 2:  k l m n o         g touches b, c, f, h, l, m
//! ```
//!
//! ## Notation
//! GTP-style cells: columns `A`, `B`, … (skipping `I`) from the left, rows numbered from
//! the **bottom** (row label `N − r`), so on 9×9 the base is `J5`. A placement is a cell
//! (`B3`), a step is `from-to` (`B3-C3`), and `pass`.
//!
//! ## Move codes
//! As in the paper: the player, the destination cell and whether the move triggers an
//! attack, `code = ((player·N² + cell)·2 + attack)`; the two passes take codes `4N²` and
//! `4N² + 1`. Placements and steps to the same cell share a code (the paper abstracts unit
//! identity away).
//!
//! ## Playout policy
//! [`WarGame::playout_weights`] gives the paper's biased weights (placements uniform; Red:
//! `1 + 2·max(0, d(f,g) − d(t,g))`, 100 onto the base `g`; Blue: the same towards the
//! nearest surviving Red unit `r_u` of the moving unit), with `d` the **Manhattan** distance
//! `|Δr| + |Δc|` on the row/column indices, as the paper says. Ties for the nearest Red unit
//! go to the smaller cell index. [`WarGame::playout_move`] draws from the same distribution
//! with the same random numbers without listing the moves or their weights (tables of
//! Manhattan distances and of Red's step weights), for fast playouts.
//!
//! ## Game length (measured against the paper's appendix)
//! Biased playouts from the start last about 36, 107, 205, 345 and 521 plies on 5, 7, 9, 11
//! and 13 (2(N−1) of them placements), hardly ever reaching the move limit; uniform ones
//! reach it in most games from 7×7 up (`wargame_stats` example of `mcts`). The paper's
//! Tables 32–35 average over the searches of its matches under a **time** budget, which
//! weighs the short playouts of late positions more than a playout budget does: GRAVE
//! self-play at 0.05 s per move measures playouts of about 12, 41, 55, 95 and 125 plies and
//! new leaves at depth 16, 11, 14, 10 and 9, against the paper's 9, 19, 28–31, 42–47 and
//! 60–65 plies and 12–16, 12–16, 11–15, 9–13 and 8–12. No other reading of the rules or of
//! the policy closes the remaining factor of about 2: without any combat a 9×9 playout still
//! lasts 190 plies, Red's steps being spread over its N−1 units.

use crate::{Game, Outcome, Player};
use rand::Rng;
use std::fmt;

/// The largest supported side.
pub const MAX_SIZE: u8 = 15;
/// The smallest supported side (smaller boards would let the setup columns touch).
pub const MIN_SIZE: u8 = 5;
const MAX_UNITS: usize = MAX_SIZE as usize - 1;
const NONE: u8 = u8::MAX;
/// The content of the padding cell `NONE` (255) of every state: never empty, no unit. Reading
/// it for a missing neighbour (`NONE`) saves a branch in playouts; a `u8` index never needs a
/// bounds check in the 256-byte board.
const OFF_BOARD: u8 = 0xF0;

/// The Wargame rules for one board size.
#[derive(Clone, Debug)]
pub struct WarGame {
    n: u8,
    cells: usize,
    base: u8,
    /// Neighbours of each cell, `NONE`-padded to 6.
    neighbours: CellTable<[u8; 6]>,
    /// Hex distance of each cell to the base.
    base_dist: CellTable<u8>,
    /// Zobrist keys: `cell * 5 + content` (content 1..=4).
    zobrist: Vec<u64>,
    /// Zobrist keys of the ply counter.
    ply_keys: Vec<u64>,
    /// `back_slot[c][k]`: the bit of `c` in the `free` mask of its `k`-th neighbour (0 for
    /// a missing neighbour, whose `free` entry is the unused padding one).
    back_slot: CellTable<[u8; 6]>,
    /// Bit `k` set for each existing neighbour slot `k` of a cell.
    exists: CellTable<u8>,
    /// The neighbour slot of the base in each cell's list, `NONE` when not adjacent.
    base_slot: CellTable<u8>,
    /// Row and column of each cell (no division in playouts).
    row_col: CellTable<[i16; 2]>,
    /// The playout weights of the Red steps from a cell, byte `k` for its `k`-th neighbour
    /// (100 onto the base, 0 for a missing neighbour).
    red_weights: CellTable<u64>,
    /// The weights of the Blue steps from `f` towards a Red unit `r`, bytes as in
    /// `red_weights`, at `[f][sign_index(r − f)]`: a step's Manhattan gain towards `r` only
    /// depends on the signs of the row and column differences (see `blue_weight_of`).
    blue_weights: CellTable<[u64; 9]>,
    /// Weight 1 in the byte of each existing neighbour of a cell (Blue with no Red unit left).
    uniform_weights: CellTable<u64>,
}

/// Errors of [`WarGame::new`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WarGameError {
    /// The side is outside 5..=15.
    #[error("wargame size {0} is not supported (5 to 15)")]
    BadSize(u8),
}

/// A Wargame move: a placement, a one-step move, or a pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct WarMove {
    /// The moving unit's cell, or `u8::MAX` for a placement or a pass.
    from: u8,
    /// The destination cell, or `u8::MAX` for a pass.
    to: u8,
    /// The board side, for printing.
    n: u8,
}

impl WarMove {
    /// A placement on `cell` (index `r·N + c`).
    #[must_use]
    pub const fn place(n: u8, cell: u8) -> Self {
        WarMove {
            from: NONE,
            to: cell,
            n,
        }
    }
    /// A step from `from` to `to` (cell indices).
    #[must_use]
    pub const fn step(n: u8, from: u8, to: u8) -> Self {
        WarMove { from, to, n }
    }
    /// The pass (only legal when no unit can move).
    #[must_use]
    pub const fn pass(n: u8) -> Self {
        WarMove {
            from: NONE,
            to: NONE,
            n,
        }
    }
    /// Whether this is the pass.
    #[must_use]
    pub const fn is_pass(self) -> bool {
        self.to == NONE
    }
    /// Whether this is a placement.
    #[must_use]
    pub const fn is_placement(self) -> bool {
        self.from == NONE && self.to != NONE
    }
    /// The origin cell of a step.
    #[must_use]
    pub const fn from_cell(self) -> Option<u8> {
        if self.from == NONE {
            None
        } else {
            Some(self.from)
        }
    }
    /// The destination cell (placements and steps).
    #[must_use]
    pub const fn to_cell(self) -> Option<u8> {
        if self.to == NONE { None } else { Some(self.to) }
    }
}

/// Writes a cell in GTP style (column letter without `I`, row counted from the bottom).
fn write_cell(f: &mut fmt::Formatter<'_>, n: u8, cell: u8) -> fmt::Result {
    let (r, c) = (cell / n, cell % n);
    let letter = column_letter(c);
    write!(f, "{}{}", letter, n - r)
}

fn column_letter(c: u8) -> char {
    let c = if c >= 8 { c + 1 } else { c };
    (b'A' + c) as char
}

impl fmt::Display for WarMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_pass() {
            return f.write_str("pass");
        }
        if self.from != NONE {
            write_cell(f, self.n, self.from)?;
            f.write_str("-")?;
        }
        write_cell(f, self.n, self.to)
    }
}

/// A Wargame position: the board, the units, the setup counts, the ply and the result.
///
/// Unit lists are kept sorted by cell, so equal positions compare equal.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct WarState {
    /// 0 empty; 1, 2: a Red unit with that HP; 3, 4: a Blue unit with HP 1, 2. Cells past
    /// `N²` are 0, except the padding cell `NONE`, which holds `OFF_BOARD`.
    cells: [u8; 256],
    /// Bit `k` of `near[p][c]`: the `k`-th neighbour of cell `c` holds a unit of player `p`
    /// (kept by `set_cell`; a function of `cells`, so equality and hashing are unchanged).
    near: [[u8; 256]; 2],
    /// Cells of the alive units of each player, sorted, `NONE` past `alive`.
    units: [[u8; MAX_UNITS]; 2],
    alive: [u8; 2],
    placed: [u8; 2],
    ply: u16,
    /// 0: none; 1: Red; 2: Blue.
    winner: u8,
    hash: u64,
}

impl WarState {
    /// Plies played so far (placements included).
    #[must_use]
    pub const fn ply(&self) -> u16 {
        self.ply
    }
    /// The owner and HP of the unit on `cell`, if any.
    #[must_use]
    pub fn unit_at(&self, cell: u8) -> Option<(Player, u8)> {
        match self.cells[cell as usize] {
            0 => None,
            v @ 1..=2 => Some((Player::Black, v)),
            v => Some((Player::White, v - 2)),
        }
    }
    /// The cells of `player`'s alive units, sorted.
    #[must_use]
    pub fn units(&self, player: Player) -> &[u8] {
        &self.units[player.index()][..self.alive[player.index()] as usize]
    }
    /// Units still to be placed by `player`.
    #[must_use]
    pub fn to_place(&self, player: Player, n: u8) -> u8 {
        n - 1 - self.placed[player.index()]
    }
}

const fn content(player: Player, hp: u8) -> u8 {
    match player {
        Player::Black => hp,
        Player::White => 2 + hp,
    }
}

/// A per-cell table indexed by a `u8` cell (no bounds check), padded past `N²`.
type CellTable<T> = Box<[T; 256]>;

/// `values` (one per cell) padded with `pad` to a [`CellTable`].
fn cell_table<T: Copy>(values: Vec<T>, pad: T) -> CellTable<T> {
    let mut t = Box::new([pad; 256]);
    t[..values.len()].copy_from_slice(&values);
    t
}

/// `SPREAD[m]` has byte `j` set to `0xFF` when bit `j` of the 6-bit mask `m` is set.
const SPREAD: [u64; 64] = {
    let mut t = [0u64; 64];
    let mut m = 0;
    while m < 64 {
        let mut j = 0;
        while j < 6 {
            if m & (1 << j) != 0 {
                t[m] |= 0xFF << (8 * j);
            }
            j += 1;
        }
        m += 1;
    }
    t
};

/// The sum of the bytes of `w` (at most 255 in total here: six weights of at most 100 + 5·5).
#[inline]
const fn byte_sum(w: u64) -> u32 {
    (w.wrapping_mul(0x0101_0101_0101_0101) >> 56) as u32
}

/// The Red units' rows and columns, padded to 16 lanes, for the nearest-Red queries of one
/// Blue playout move (16 independent lanes the compiler can vectorise).
struct NearestRed {
    rows: [i16; 16],
    cols: [i16; 16],
    ids: [i16; 16],
    any: bool,
}

impl NearestRed {
    /// Padding lanes sit at row and column 60, farther than any real unit (distance ≥ 92
    /// against at most 28), and keep keys below `i16::MAX`.
    const PAD: i16 = 60;

    fn new(g: &WarGame, reds: &[u8]) -> Self {
        let mut q = NearestRed {
            rows: [Self::PAD; 16],
            cols: [Self::PAD; 16],
            ids: [0xFF; 16],
            any: !reds.is_empty(),
        };
        for (i, &r) in reds.iter().enumerate() {
            [q.rows[i], q.cols[i]] = g.row_col[r as usize];
            q.ids[i] = i16::from(r);
        }
        q
    }

    /// The Red unit nearest to `f` in Manhattan distance, the smaller cell among equals.
    #[inline]
    fn of(&self, g: &WarGame, f: u8) -> Option<u8> {
        if !self.any {
            return None;
        }
        let [fr, fc] = g.row_col[f as usize];
        let mut best = i16::MAX;
        for i in 0..16 {
            let d = (self.rows[i] - fr).abs() + (self.cols[i] - fc).abs();
            best = best.min(d << 8 | self.ids[i]);
        }
        Some((best & 0xFF) as u8)
    }
}

fn splitmix(x: &mut u64) -> u64 {
    *x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *x;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl WarGame {
    /// The Wargame on an `n`×`n` board.
    ///
    /// # Errors
    /// [`WarGameError::BadSize`] unless `5 <= n <= 15`.
    pub fn new(n: u8) -> Result<Self, WarGameError> {
        if !(MIN_SIZE..=MAX_SIZE).contains(&n) {
            return Err(WarGameError::BadSize(n));
        }
        let cells = n as usize * n as usize;
        let base = (n / 2) * n + (n - 1);
        let mut neighbours = vec![[NONE; 6]; cells];
        for (cell, nb) in neighbours.iter_mut().enumerate() {
            let (r, c) = ((cell / n as usize) as i32, (cell % n as usize) as i32);
            let deltas: [(i32, i32); 6] = if r % 2 == 0 {
                [(0, -1), (0, 1), (-1, -1), (-1, 0), (1, -1), (1, 0)]
            } else {
                [(0, -1), (0, 1), (-1, 0), (-1, 1), (1, 0), (1, 1)]
            };
            let mut k = 0;
            for (dr, dc) in deltas {
                let (rr, cc) = (r + dr, c + dc);
                if (0..n as i32).contains(&rr) && (0..n as i32).contains(&cc) {
                    nb[k] = (rr * n as i32 + cc) as u8;
                    k += 1;
                }
            }
        }
        let mut g = WarGame {
            n,
            cells,
            base,
            neighbours: cell_table(neighbours, [NONE; 6]),
            base_dist: cell_table(Vec::new(), 0),
            zobrist: Vec::new(),
            ply_keys: Vec::new(),
            row_col: cell_table(
                (0..cells)
                    .map(|c| [(c / n as usize) as i16, (c % n as usize) as i16])
                    .collect(),
                [0; 2],
            ),
            back_slot: cell_table(Vec::new(), [0; 6]),
            base_slot: cell_table(Vec::new(), NONE),
            exists: cell_table(Vec::new(), 0),
            red_weights: cell_table(Vec::new(), 0),
            blue_weights: cell_table(Vec::new(), [0; 9]),
            uniform_weights: cell_table(Vec::new(), 0),
        };
        g.base_dist = cell_table(
            (0..cells).map(|c| g.hex_distance(c as u8, base)).collect(),
            0,
        );
        let mut seed = 0x5741_5247_414D_4500 ^ u64::from(n);
        g.zobrist = (0..cells * 5).map(|_| splitmix(&mut seed)).collect();
        g.ply_keys = (0..=4 * cells).map(|_| splitmix(&mut seed)).collect();
        g.back_slot = cell_table(
            (0..cells as u8)
                .map(|c| {
                    let mut back = [0u8; 6];
                    for (k, nb) in g.neighbours(c).enumerate() {
                        let j = g.neighbours(nb).position(|x| x == c).expect("symmetric");
                        back[k] = 1 << j;
                    }
                    back
                })
                .collect(),
            [0; 6],
        );
        g.exists = cell_table(
            (0..cells as u8)
                .map(|c| (1u8 << g.neighbours(c).count()) - 1)
                .collect(),
            0,
        );
        g.base_slot = cell_table(
            (0..cells as u8)
                .map(|c| {
                    g.neighbours(c)
                        .position(|x| x == base)
                        .map_or(NONE, |k| k as u8)
                })
                .collect(),
            NONE,
        );
        // Byte `k`: the weight of the step from `f` to its `k`-th neighbour.
        let packed = |f: u8, weight: &dyn Fn(u8) -> u32| -> u64 {
            g.neighbours(f)
                .enumerate()
                .map(|(k, t)| u64::from(weight(t)) << (8 * k))
                .sum()
        };
        let towards = |f: u8, t: u8, goal: u8| {
            1 + 2 * g.manhattan(f, goal).saturating_sub(g.manhattan(t, goal))
        };
        let red_weights = (0..cells as u8)
            .map(|f| packed(f, &|t| if t == base { 100 } else { towards(f, t, base) }))
            .collect();
        let blue_weights = (0..cells as u8)
            .map(|f| {
                let mut w = [0u64; 9];
                for (i, wi) in w.iter_mut().enumerate() {
                    let signs = [i as i16 / 3 - 1, i as i16 % 3 - 1];
                    *wi = packed(f, &|t| g.blue_weight_of(f, t, signs));
                }
                w
            })
            .collect();
        let uniform_weights = (0..cells as u8).map(|f| packed(f, &|_| 1)).collect();
        g.red_weights = cell_table(red_weights, 0);
        g.blue_weights = cell_table(blue_weights, [0; 9]);
        g.uniform_weights = cell_table(uniform_weights, 0);
        Ok(g)
    }

    /// The side N.
    #[must_use]
    pub const fn size(&self) -> u8 {
        self.n
    }

    /// Blue's base, `(⌊N/2⌋, N−1)` as a cell index.
    #[must_use]
    pub const fn base(&self) -> u8 {
        self.base
    }

    /// The cell index of row `r` (0 at the top) and column `c`.
    #[must_use]
    pub const fn cell(&self, r: u8, c: u8) -> u8 {
        r * self.n + c
    }

    /// The move limit 4N² in plies.
    #[must_use]
    pub const fn move_limit(&self) -> u16 {
        4 * self.n as u16 * self.n as u16
    }

    /// The neighbours of a cell (hex adjacency, odd-r layout).
    pub fn neighbours(&self, cell: u8) -> impl Iterator<Item = u8> + '_ {
        self.neighbours[cell as usize]
            .iter()
            .copied()
            .take_while(|&x| x != NONE)
    }

    /// Hex distance between two cells (odd-r offset → cube coordinates).
    #[must_use]
    pub fn hex_distance(&self, a: u8, b: u8) -> u8 {
        let cube = |cell: u8| {
            let (r, c) = (i32::from(cell / self.n), i32::from(cell % self.n));
            let x = c - (r - (r & 1)) / 2;
            (x, r, -x - r)
        };
        let (x1, z1, y1) = cube(a);
        let (x2, z2, y2) = cube(b);
        (x1 - x2).abs().max((y1 - y2).abs()).max((z1 - z2).abs()) as u8
    }

    /// The weight `1 + 2·max(0, d(f, r) − d(t, r))` of a Blue step from `f` to its neighbour
    /// `t` towards a Red unit `r`, from `signs`, the signs of `r`'s row and column minus
    /// `f`'s: a step by `δ ∈ {−1, 0, 1}` along an axis where `r` lies at `Δ` changes the
    /// distance by `−δ·sign(Δ)` when `Δ ≠ 0` and by `|δ|` when `Δ = 0`.
    fn blue_weight_of(&self, f: u8, t: u8, signs: [i16; 2]) -> u32 {
        let ([fr, fc], [tr, tc]) = (self.row_col[f as usize], self.row_col[t as usize]);
        let gain = |s: i16, d: i16| if s == 0 { -d.abs() } else { s * d };
        let g = gain(signs[0], tr - fr) + gain(signs[1], tc - fc);
        1 + 2 * g.max(0) as u32
    }

    /// The index in `blue_weights[f]` of a Red unit on `r`.
    #[inline]
    fn sign_index(&self, f: u8, r: u8) -> usize {
        let ([fr, fc], [rr, rc]) = (self.row_col[f as usize], self.row_col[r as usize]);
        ((rr - fr).signum() * 3 + (rc - fc).signum() + 4) as usize
    }

    /// Manhattan distance `|Δr| + |Δc|` (used by the playout policy, as in the paper).
    #[must_use]
    pub fn manhattan(&self, a: u8, b: u8) -> u32 {
        let (r1, c1) = (i32::from(a / self.n), i32::from(a % self.n));
        let (r2, c2) = (i32::from(b / self.n), i32::from(b % self.n));
        ((r1 - r2).abs() + (c1 - c2).abs()) as u32
    }

    fn in_setup(&self, s: &WarState) -> bool {
        u32::from(s.placed[0]) + u32::from(s.placed[1]) < 2 * (u32::from(self.n) - 1)
    }

    fn key(&self, cell: u8, content: u8) -> u64 {
        self.zobrist[cell as usize * 5 + content as usize]
    }

    /// Whether a unit of `player` arriving on `to` (coming from `from`, `NONE` for none)
    /// would attack, i.e. has an adjacent enemy there.
    #[inline]
    fn attacks(&self, s: &WarState, player: Player, to: u8) -> bool {
        s.near[player.opponent().index()][usize::from(to)] != 0
    }

    /// Moves `player`'s unit from `from` to `to` in the sorted unit list.
    #[inline]
    fn move_unit(s: &mut WarState, player: Player, from: u8, to: u8) {
        let p = player.index();
        let alive = s.alive[p] as usize;
        let list = &mut s.units[p][..alive];
        let mut i = list.iter().position(|&x| x == from).expect("unit in list");
        list[i] = to;
        while i > 0 && list[i - 1] > to {
            list.swap(i - 1, i);
            i -= 1;
        }
        while i + 1 < alive && list[i + 1] < to {
            list.swap(i, i + 1);
            i += 1;
        }
    }

    fn remove_unit(s: &mut WarState, player: Player, cell: u8) {
        let p = player.index();
        let alive = s.alive[p] as usize;
        let list = &mut s.units[p];
        let i = list[..alive]
            .iter()
            .position(|&x| x == cell)
            .expect("unit in list");
        for k in i..alive - 1 {
            list[k] = list[k + 1];
        }
        list[alive - 1] = NONE;
        s.alive[p] -= 1;
    }

    fn insert_unit(s: &mut WarState, player: Player, cell: u8) {
        let p = player.index();
        let alive = s.alive[p] as usize;
        let list = &mut s.units[p];
        let i = list[..alive]
            .iter()
            .position(|&x| x > cell)
            .unwrap_or(alive);
        for k in (i..alive).rev() {
            list[k + 1] = list[k];
        }
        list[i] = cell;
        s.alive[p] += 1;
    }

    fn set_cell(&self, s: &mut WarState, cell: u8, v: u8) {
        let old = s.cells[cell as usize];
        if old != 0 {
            s.hash ^= self.key(cell, old);
        }
        if v != 0 {
            s.hash ^= self.key(cell, v);
        }
        s.cells[cell as usize] = v;
        // 0 empty, 1 Red, 2 Blue.
        let (was, now) = ((old + 1) >> 1, (v + 1) >> 1);
        if was != now {
            // The owner changes: flip the cell's bit in its neighbours' masks.
            let nbs = &self.neighbours[cell as usize];
            let back = &self.back_slot[cell as usize];
            if was != 0 {
                let near = &mut s.near[usize::from(was - 1)];
                for k in 0..6 {
                    near[usize::from(nbs[k])] ^= back[k];
                }
            }
            if now != 0 {
                let near = &mut s.near[usize::from(now - 1)];
                for k in 0..6 {
                    near[usize::from(nbs[k])] ^= back[k];
                }
            }
        }
    }

    /// `near` of every cell from `cells` (after a direct setup of the board).
    fn near_from_scratch(&self, s: &WarState) -> [[u8; 256]; 2] {
        let mut near = [[0u8; 256]; 2];
        for c in 0..self.cells as u8 {
            for (k, nb) in self.neighbours(c).enumerate() {
                if let Some((p, _)) = s.unit_at(nb) {
                    near[p.index()][usize::from(c)] |= 1 << k;
                }
            }
        }
        near
    }

    /// The unit that a unit of `attacker` standing on `at` attacks: the adjacent enemy with
    /// the lowest HP, then the smallest hex distance to the base, then the smallest index.
    #[must_use]
    pub fn combat_target(&self, s: &WarState, attacker: Player, at: u8) -> Option<u8> {
        // The smallest key `hp · 2^16 + base distance · 2^8 + cell` over the adjacent enemies.
        let mut enemies = s.near[attacker.opponent().index()][usize::from(at)];
        if enemies == 0 {
            return None;
        }
        let mut best = u32::MAX;
        while enemies != 0 {
            let k = enemies.trailing_zeros() as usize;
            enemies &= enemies - 1;
            let nb = self.neighbours[at as usize][k];
            let v = s.cells[usize::from(nb)];
            let hp = if v >= 3 { v - 2 } else { v };
            let key =
                u32::from(hp) << 16 | u32::from(self.base_dist[nb as usize]) << 8 | u32::from(nb);
            best = best.min(key);
        }
        Some((best & 0xFF) as u8)
    }

    /// A movement-phase position with the given units (`(cell, hp)`, hp 1 or 2) and ply
    /// (the player to move is Red on even plies). For tests and analysis.
    ///
    /// # Panics
    /// Panics on a cell off the board, a shared cell, a bad HP, too many units or a ply
    /// at or past the move limit.
    #[must_use]
    pub fn position(&self, red: &[(u8, u8)], blue: &[(u8, u8)], ply: u16) -> WarState {
        assert!(ply < self.move_limit(), "ply past the move limit");
        let mut s = self.initial();
        s.hash = 0;
        for (player, list) in [(Player::Black, red), (Player::White, blue)] {
            assert!(list.len() < self.n as usize, "too many units");
            for &(cell, hp) in list {
                assert!((cell as usize) < self.cells && (1..=2).contains(&hp));
                assert_eq!(s.cells[cell as usize], 0, "cell used twice");
                s.cells[cell as usize] = content(player, hp);
                Self::insert_unit(&mut s, player, cell);
            }
            s.placed[player.index()] = self.n - 1;
        }
        s.ply = ply;
        s.near = self.near_from_scratch(&s);
        if s.alive[1] == 0 {
            s.winner = 1;
        } else if s.alive[0] == 0 {
            s.winner = 2;
        }
        s.hash = self.hash_from_scratch(&s);
        s
    }

    /// The paper's playout weights for `moves` (the legal moves of `state`), into `out`.
    ///
    /// Placements and the pass weigh 1 (uniform). Red: `1 + 2·max(0, d(f,g) − d(t,g))`,
    /// or 100 for a step onto the base `g`. Blue: `1 + 2·max(0, d(f,r_u) − d(t,r_u))` with
    /// `r_u` the surviving Red unit nearest to `f`. `d` is the Manhattan distance.
    pub fn playout_weights(&self, state: &WarState, moves: &[WarMove], out: &mut Vec<u32>) {
        out.clear();
        let player = self.to_move(state);
        let reds = state.units(Player::Black);
        let mut cached_from = NONE;
        let mut cached_target = NONE;
        for &m in moves {
            let w = match (m.from_cell(), m.to_cell()) {
                (Some(f), Some(t)) => match player {
                    Player::Black => {
                        if t == self.base {
                            100
                        } else {
                            let g = self.base;
                            1 + 2 * self.manhattan(f, g).saturating_sub(self.manhattan(t, g))
                        }
                    }
                    Player::White => {
                        if f != cached_from {
                            cached_from = f;
                            cached_target = reds
                                .iter()
                                .copied()
                                .min_by_key(|&r| (self.manhattan(f, r), r))
                                .unwrap_or(NONE);
                        }
                        if cached_target == NONE {
                            1
                        } else {
                            let r = cached_target;
                            1 + 2 * self.manhattan(f, r).saturating_sub(self.manhattan(t, r))
                        }
                    }
                },
                _ => 1,
            };
            out.push(w);
        }
    }
}

/// The empty cells of `player`'s setup columns (Red: 0 and 1, Blue: N−2 and N−1), row by
/// row, the columns in order within a row: the placements, in the order both the move
/// listing and the playout draw use.
/// `n` is the board side.
fn free_setup_cells(n: u8, state: &WarState, player: Player) -> impl Iterator<Item = u8> + '_ {
    let cols: [u8; 2] = match player {
        Player::Black => [0, 1],
        Player::White => [n - 2, n - 1],
    };
    (0..n)
        .flat_map(move |r| cols.map(|c| r * n + c))
        .filter(move |&cell| state.cells[cell as usize] == 0)
}

impl WarGame {
    /// The move of the paper's playout policy in the non-terminal `state`: the same draw as
    /// sampling [`WarGame::playout_weights`] of [`Game::legal_moves`] with one
    /// `rng.random_range(0..total)` (`total` the sum of the weights, as a `u64`) and taking
    /// the move whose cumulative weight range holds it, but without listing anything: the
    /// same random numbers give the same move.
    ///
    /// In the setup the placements are uniform; with no step left it returns the pass (still
    /// drawing one number from `0..1`).
    pub fn playout_move<R: Rng + ?Sized>(&self, state: &WarState, rng: &mut R) -> WarMove {
        debug_assert!(state.winner == 0, "playout move on a finished wargame");
        let player = self.to_move(state);
        let n = self.n;
        if self.in_setup(state) {
            // The player's two columns hold only their own units, all placed there.
            let free = 2 * u64::from(n) - u64::from(state.placed[player.index()]);
            let x = rng.random_range(0..free);
            let cell = free_setup_cells(n, state, player)
                .nth(x as usize)
                .expect("fewer empty setup cells than counted");
            return WarMove::place(n, cell);
        }
        // Pass 1: per unit, its neighbour slots' weights as the bytes of a `u64` (slot `j` in
        // byte `j`, 0 for an illegal or missing step) and their sum.
        let units = state.units(player);
        let mut slots = [0u64; MAX_UNITS];
        let mut sums = [0u32; MAX_UNITS];
        debug_assert!(units.len() <= MAX_UNITS);
        let mut total = 0u32;
        match player {
            Player::Black => {
                for (i, &f) in units.iter().enumerate() {
                    let legal = self.free_slots(state, f, true);
                    let w = self.red_weights[f as usize] & legal;
                    slots[i] = w;
                    sums[i] = byte_sum(w);
                    total += sums[i];
                }
            }
            Player::White => {
                let nearest = NearestRed::new(self, state.units(Player::Black));
                for (i, &f) in units.iter().enumerate() {
                    let legal = self.free_slots(state, f, false);
                    let ws = match nearest.of(self, f) {
                        Some(r) => self.blue_weights[f as usize][self.sign_index(f, r)],
                        None => self.uniform_weights[f as usize],
                    };
                    let w = ws & legal;
                    slots[i] = w;
                    sums[i] = byte_sum(w);
                    total += sums[i];
                }
            }
        }
        if total == 0 {
            rng.random_range(0..1u64);
            return WarMove::pass(n);
        }
        // Pass 2, without branches: the move is the first whose cumulative weight exceeds
        // `x`, so its index is the number of cumulative weights at most `x` (weights are
        // never negative, so the cumulative sums never decrease).
        let x = rng.random_range(0..u64::from(total)) as u32;
        let mut i = 0;
        let mut before = 0;
        let mut cum = 0;
        for &sum in &sums[..units.len()] {
            cum += sum;
            let passed = cum <= x;
            i += usize::from(passed);
            before += if passed { sum } else { 0 };
        }
        let x = x - before;
        // Byte `j` of `prefix`: the unit's weights of slots `0..=j` (all below 256).
        let prefix = slots[i].wrapping_mul(0x0101_0101_0101_0101);
        let mut j = 0;
        for b in 0..6 {
            j += usize::from(((prefix >> (8 * b)) & 0xFF) as u32 <= x);
        }
        let f = units[i];
        WarMove::step(n, f, self.neighbours[f as usize][j])
    }

    /// A `u64` with byte `j` set to `0xFF` when the `j`-th neighbour slot of `f` is a step a
    /// unit on `f` may take: an empty cell, or (`red`) Blue's base held by a Blue unit.
    /// Missing neighbours (`NONE`) read the never-empty padding cell.
    #[inline]
    fn free_slots(&self, state: &WarState, f: u8, red: bool) -> u64 {
        let occupied = state.near[0][usize::from(f)] | state.near[1][usize::from(f)];
        let free = self.exists[usize::from(f)] & !occupied;
        let mut legal = SPREAD[usize::from(free)];
        let bs = self.base_slot[f as usize];
        let held = (3..=4).contains(&state.cells[usize::from(self.base)]);
        let enter = red && bs != NONE && held;
        legal |= (u64::from(enter) * 0xFF) << (8 * (bs & 7));
        legal
    }
}

impl Game for WarGame {
    type State = WarState;
    type Move = WarMove;

    fn name(&self) -> &'static str {
        "wargame"
    }

    fn initial(&self) -> WarState {
        let mut s = WarState {
            cells: [0; 256],
            near: [[0; 256]; 2],
            units: [[NONE; MAX_UNITS]; 2],
            alive: [0; 2],
            placed: [0; 2],
            ply: 0,
            winner: 0,
            hash: 0,
        };
        s.cells[usize::from(NONE)] = OFF_BOARD;
        s.near = self.near_from_scratch(&s);
        s.hash = self.hash_from_scratch(&s);
        s
    }

    fn to_move(&self, state: &WarState) -> Player {
        if state.ply.is_multiple_of(2) {
            Player::Black
        } else {
            Player::White
        }
    }

    fn legal_moves(&self, state: &WarState, out: &mut Vec<WarMove>) {
        out.clear();
        if state.winner != 0 {
            return;
        }
        let player = self.to_move(state);
        let n = self.n;
        if self.in_setup(state) {
            out.extend(free_setup_cells(n, state, player).map(|cell| WarMove::place(n, cell)));
            return;
        }
        for &f in state.units(player) {
            for t in self.neighbours(f) {
                let v = state.cells[t as usize];
                if v == 0 || (player == Player::Black && t == self.base && v >= 3) {
                    out.push(WarMove::step(n, f, t));
                }
            }
        }
        if out.is_empty() {
            out.push(WarMove::pass(n));
        }
    }

    fn play(&self, s: &mut WarState, mv: WarMove) {
        let player = self.to_move(s);
        debug_assert!(s.winner == 0, "play on a finished wargame");
        s.hash ^= self.ply_keys[s.ply as usize];
        match (mv.from_cell(), mv.to_cell()) {
            (None, Some(t)) => {
                self.set_cell(s, t, content(player, 2));
                Self::insert_unit(s, player, t);
                s.placed[player.index()] += 1;
            }
            (Some(f), Some(t)) => {
                let v = s.cells[f as usize];
                let occupant = s.cells[t as usize];
                if occupant != 0 {
                    // Red entering an occupied base: the Blue unit is displaced.
                    debug_assert!(player == Player::Black && t == self.base);
                    Self::remove_unit(s, Player::White, t);
                }
                self.set_cell(s, f, 0);
                self.set_cell(s, t, v);
                Self::move_unit(s, player, f, t);
                if player == Player::Black && t == self.base {
                    s.winner = 1;
                } else if let Some(target) = self.combat_target(s, player, t) {
                    let e = player.opponent();
                    let tv = s.cells[target as usize];
                    if tv == 1 || tv == 3 {
                        self.set_cell(s, target, 0);
                        Self::remove_unit(s, e, target);
                        if s.alive[e.index()] == 0 {
                            s.winner = if player == Player::Black { 1 } else { 2 };
                        }
                    } else {
                        self.set_cell(s, target, tv - 1);
                    }
                }
            }
            _ => {}
        }
        s.ply += 1;
        if s.winner == 0 && s.ply >= self.move_limit() {
            s.winner = 2;
        }
        s.hash ^= self.ply_keys[s.ply as usize];
    }

    fn outcome(&self, state: &WarState) -> Option<Outcome> {
        match state.winner {
            0 => None,
            1 => Some(Outcome::Win(Player::Black)),
            _ => Some(Outcome::Win(Player::White)),
        }
    }

    fn hash(&self, state: &WarState) -> u64 {
        state.hash
    }

    fn hash_from_scratch(&self, state: &WarState) -> u64 {
        let mut h = self.ply_keys[state.ply as usize];
        for cell in 0..self.cells {
            let v = state.cells[cell];
            if v != 0 {
                h ^= self.key(cell as u8, v);
            }
        }
        h
    }

    fn max_game_length(&self) -> u32 {
        u32::from(self.move_limit())
    }

    fn num_move_codes(&self) -> usize {
        4 * self.cells + 2
    }

    fn move_code(&self, state: &WarState, mv: WarMove) -> usize {
        let player = self.to_move(state);
        match (mv.from_cell(), mv.to_cell()) {
            (_, None) => 4 * self.cells + player.index(),
            (from, Some(t)) => {
                let attack = from.is_some()
                    && !(player == Player::Black && t == self.base)
                    && self.attacks(state, player, t);
                (player.index() * self.cells + t as usize) * 2 + usize::from(attack)
            }
        }
    }

    fn parse_move(&self, state: &WarState, text: &str) -> Result<WarMove, String> {
        let t = text.trim();
        let parse_cell = |s: &str| -> Result<u8, String> {
            let s = s.trim().to_ascii_uppercase();
            let mut chars = s.chars();
            let letter = chars
                .next()
                .ok_or_else(|| format!("empty cell in {text:?}"))?;
            if !letter.is_ascii_uppercase() || letter == 'I' {
                return Err(format!("bad column in {text:?}"));
            }
            let mut c = letter as u8 - b'A';
            if letter > 'I' {
                c -= 1;
            }
            let row: u8 = chars
                .as_str()
                .parse()
                .map_err(|_| format!("bad row in {text:?}"))?;
            if c >= self.n || row == 0 || row > self.n {
                return Err(format!("{text:?} is off the {0}x{0} board", self.n));
            }
            Ok((self.n - row) * self.n + c)
        };
        let mv = if t.eq_ignore_ascii_case("pass") {
            WarMove::pass(self.n)
        } else if let Some((a, b)) = t.split_once('-') {
            WarMove::step(self.n, parse_cell(a)?, parse_cell(b)?)
        } else {
            WarMove::place(self.n, parse_cell(t)?)
        };
        let mut legal = Vec::new();
        self.legal_moves(state, &mut legal);
        if legal.contains(&mv) {
            Ok(mv)
        } else {
            Err(format!("{text} is not a legal move here"))
        }
    }

    fn render(&self, state: &WarState) -> String {
        let n = self.n;
        let mut out = String::new();
        out.push_str("    ");
        for c in 0..n {
            out.push(column_letter(c));
            out.push(' ');
        }
        out.push('\n');
        for r in 0..n {
            out.push_str(&format!("{:>2} ", n - r));
            if r % 2 == 1 {
                out.push(' ');
            }
            out.push(' ');
            for c in 0..n {
                let cell = r * n + c;
                let ch = match state.cells[cell as usize] {
                    0 if cell == self.base => '*',
                    0 => '.',
                    1 => 'r',
                    2 => 'R',
                    3 => 'b',
                    _ => 'B',
                };
                out.push(ch);
                out.push(' ');
            }
            out.push('\n');
        }
        let phase = if state.winner != 0 {
            "over"
        } else if self.in_setup(state) {
            "setup"
        } else {
            "movement"
        };
        out.push_str(&format!(
            "ply {}/{} ({phase}); Red (R/r) {} units, Blue (B/b) {} units; base *\n",
            state.ply,
            self.move_limit(),
            state.alive[0],
            state.alive[1]
        ));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conformance::check_random_games;

    fn g9() -> WarGame {
        WarGame::new(9).unwrap()
    }

    /// Cell from GTP-style text.
    fn at(g: &WarGame, text: &str) -> u8 {
        let s = g.position(&[], &[(0, 2)], 0);
        match g.parse_move(&s, text) {
            Ok(m) => m.to_cell().unwrap(),
            // The parse checks legality; fall back to the raw cell parser for tests.
            Err(_) => {
                let t = text.to_ascii_uppercase();
                let letter = t.as_bytes()[0];
                let mut c = letter - b'A';
                if letter > b'I' {
                    c -= 1;
                }
                let row: u8 = t[1..].parse().unwrap();
                (g.n - row) * g.n + c
            }
        }
    }

    #[test]
    fn sizes() {
        assert!(WarGame::new(4).is_err());
        assert!(WarGame::new(16).is_err());
        for n in MIN_SIZE..=MAX_SIZE {
            let g = WarGame::new(n).unwrap();
            assert_eq!(g.base(), g.cell(n / 2, n - 1));
            assert_eq!(g.max_game_length(), 4 * u32::from(n) * u32::from(n));
        }
        assert_eq!(WarMove::place(9, g9().base()).to_string(), "J5");
    }

    #[test]
    fn conformance_all_sizes() {
        for n in [5u8, 6, 7, 9, 11, 13, 15] {
            let g = WarGame::new(n).unwrap();
            let rep = check_random_games(&g, u64::from(n), 20);
            assert_eq!(rep.games, 20);
            assert!(rep.plies > 20 * 2 * (u64::from(n) - 1));
        }
    }

    #[test]
    fn hex_layout_odd_r() {
        let g = WarGame::new(5).unwrap();
        // Even row 2, column 2: neighbours (2,1) (2,3) (1,1) (1,2) (3,1) (3,2).
        let mut nb: Vec<u8> = g.neighbours(g.cell(2, 2)).collect();
        nb.sort_unstable();
        let mut want = vec![
            g.cell(2, 1),
            g.cell(2, 3),
            g.cell(1, 1),
            g.cell(1, 2),
            g.cell(3, 1),
            g.cell(3, 2),
        ];
        want.sort_unstable();
        assert_eq!(nb, want);
        // Odd row 1, column 2: (1,1) (1,3) (0,2) (0,3) (2,2) (2,3).
        let mut nb: Vec<u8> = g.neighbours(g.cell(1, 2)).collect();
        nb.sort_unstable();
        let mut want = vec![
            g.cell(1, 1),
            g.cell(1, 3),
            g.cell(0, 2),
            g.cell(0, 3),
            g.cell(2, 2),
            g.cell(2, 3),
        ];
        want.sort_unstable();
        assert_eq!(nb, want);
        // Corners have 2 or 3 neighbours; adjacency is symmetric and at hex distance 1.
        assert_eq!(g.neighbours(g.cell(0, 0)).count(), 2);
        assert_eq!(g.neighbours(g.cell(1, 4)).count(), 3);
        for a in 0..25u8 {
            for b in 0..25u8 {
                let adj = g.neighbours(a).any(|x| x == b);
                assert_eq!(adj, g.neighbours(b).any(|x| x == a));
                assert_eq!(adj, g.hex_distance(a, b) == 1, "{a} {b}");
            }
        }
        assert_eq!(g.hex_distance(g.cell(0, 0), g.cell(4, 4)), 6);
        assert_eq!(g.hex_distance(g.cell(0, 0), g.cell(4, 0)), 4);
        assert_eq!(g.manhattan(g.cell(0, 0), g.cell(4, 4)), 8);
    }

    #[test]
    fn setup_alternates_in_the_given_columns() {
        let g = WarGame::new(7).unwrap();
        let mut s = g.initial();
        let mut moves = Vec::new();
        for ply in 0..12 {
            g.legal_moves(&s, &mut moves);
            let p = g.to_move(&s);
            assert_eq!(
                p,
                if ply % 2 == 0 {
                    Player::Black
                } else {
                    Player::White
                }
            );
            assert!(moves.iter().all(|m| m.is_placement()));
            let cols: Vec<u8> = moves.iter().map(|m| m.to_cell().unwrap() % 7).collect();
            match p {
                Player::Black => assert!(cols.iter().all(|&c| c <= 1)),
                Player::White => assert!(cols.iter().all(|&c| c >= 5)),
            }
            assert_eq!(moves.len(), 14 - ply / 2);
            g.play(&mut s, moves[moves.len() / 2]);
        }
        // Setup over: 6 units a side with 2 HP, Red to move with steps.
        assert_eq!(s.units(Player::Black).len(), 6);
        assert_eq!(s.units(Player::White).len(), 6);
        g.legal_moves(&s, &mut moves);
        assert!(moves.iter().all(|m| m.from_cell().is_some()));
        assert!(
            s.units(Player::Black)
                .iter()
                .all(|&c| s.unit_at(c) == Some((Player::Black, 2)))
        );
    }

    #[test]
    fn combat_lowest_hp_first() {
        let g = g9();
        let (a, b, c) = (at(&g, "D5"), at(&g, "E6"), at(&g, "E4"));
        // Red steps D5 -> E5 (row 4 is even): neighbours of E5 include E6-ish cells.
        let to = at(&g, "E5");
        assert!(g.neighbours(to).any(|x| x == at(&g, "D6")));
        let s = g.position(
            &[(a, 2)],
            &[(at(&g, "F5"), 2), (at(&g, "D6"), 1), (b, 2), (c, 2)],
            20,
        );
        let mut s2 = s.clone();
        g.play(&mut s2, WarMove::step(9, a, to));
        // D6 had 1 HP: it is the weakest and dies.
        assert_eq!(s2.unit_at(at(&g, "D6")), None);
        assert_eq!(s2.unit_at(at(&g, "F5")), Some((Player::White, 2)));
        assert_eq!(s2.units(Player::White).len(), 3);
    }

    #[test]
    fn combat_tie_broken_by_distance_to_base() {
        let g = g9();
        let base = g.base(); // J5 = (4, 8)
        let to = g.cell(4, 5);
        let from = g.cell(4, 4);
        // Equal HP on (4,6) (distance 2 to the base) and (3,5) (farther): (4,6) is hit.
        let near = g.cell(4, 6);
        let far = g.cell(3, 4);
        assert!(g.neighbours(to).any(|x| x == far));
        assert!(g.hex_distance(near, base) < g.hex_distance(far, base));
        let s = g.position(&[(from, 2)], &[(near, 2), (far, 2)], 30);
        let mut s2 = s.clone();
        g.play(&mut s2, WarMove::step(9, from, to));
        assert_eq!(s2.unit_at(near), Some((Player::White, 1)));
        assert_eq!(s2.unit_at(far), Some((Player::White, 2)));
        // Lowest HP beats distance: a 1-HP unit far from the base is hit first.
        let s = g.position(&[(from, 2)], &[(near, 2), (far, 1)], 30);
        let mut s2 = s.clone();
        g.play(&mut s2, WarMove::step(9, from, to));
        assert_eq!(s2.unit_at(far), None);
        assert_eq!(s2.unit_at(near), Some((Player::White, 2)));
        // Equal HP and equal distance: the smaller cell index.
        let to = g.cell(4, 3);
        let (x, y) = (g.cell(3, 3), g.cell(5, 3));
        assert_eq!(g.hex_distance(x, base), g.hex_distance(y, base));
        assert!(g.neighbours(to).any(|c| c == x) && g.neighbours(to).any(|c| c == y));
        assert_eq!(
            g.combat_target(
                &g.position(&[(to, 2)], &[(x, 2), (y, 2)], 30),
                Player::Black,
                to
            ),
            Some(x)
        );
    }

    #[test]
    fn blue_attacks_too_and_only_one_unit() {
        let g = g9();
        let from = g.cell(2, 6);
        let to = g.cell(2, 5);
        let r1 = g.cell(2, 4);
        let r2 = g.cell(1, 4);
        let s = g.position(&[(r1, 2), (r2, 2), (g.cell(8, 0), 2)], &[(from, 2)], 31);
        assert_eq!(g.to_move(&s), Player::White);
        let mut s2 = s.clone();
        let code_attack = g.move_code(&s, WarMove::step(9, from, to));
        g.play(&mut s2, WarMove::step(9, from, to));
        let hits: usize = [r1, r2]
            .iter()
            .filter(|&&c| s2.unit_at(c) == Some((Player::Black, 1)))
            .count();
        assert_eq!(hits, 1);
        // The attack flag is in the code: the same destination without an adjacent enemy differs.
        let quiet = g.position(&[(g.cell(8, 0), 2)], &[(from, 2)], 31);
        let code_quiet = g.move_code(&quiet, WarMove::step(9, from, to));
        assert_eq!(code_attack, code_quiet + 1);
    }

    #[test]
    fn only_the_unit_that_moved_attacks() {
        let g = g9();
        // Red on E5 and Blue on F5 stand side by side; the other units move far from them.
        let (red, blue) = (g.cell(4, 4), g.cell(4, 5));
        let (red_far, blue_far) = (g.cell(8, 0), g.cell(0, 8));
        let mut s = g.position(&[(red, 2), (red_far, 2)], &[(blue, 2), (blue_far, 2)], 20);
        g.play(&mut s, WarMove::step(9, red_far, g.cell(8, 1)));
        g.play(&mut s, WarMove::step(9, blue_far, g.cell(0, 7)));
        assert_eq!(s.unit_at(red), Some((Player::Black, 2)));
        assert_eq!(s.unit_at(blue), Some((Player::White, 2)));
        // The neighbour attacks when it moves: a step along the enemy keeps them adjacent.
        let to = g.cell(3, 4);
        assert!(g.neighbours(to).any(|c| c == blue));
        g.play(&mut s, WarMove::step(9, red, to));
        assert_eq!(s.unit_at(blue), Some((Player::White, 1)));
    }

    #[test]
    fn red_enters_occupied_base_and_wins() {
        let g = g9();
        let base = g.base();
        let from = g.cell(4, 7);
        let s = g.position(&[(from, 1)], &[(base, 2), (g.cell(0, 8), 2)], 40);
        let mut moves = Vec::new();
        g.legal_moves(&s, &mut moves);
        let enter = WarMove::step(9, from, base);
        assert!(moves.contains(&enter));
        let mut s2 = s.clone();
        g.play(&mut s2, enter);
        assert_eq!(g.outcome(&s2), Some(Outcome::Win(Player::Black)));
        assert_eq!(s2.unit_at(base), Some((Player::Black, 1)));
        assert_eq!(s2.units(Player::White).len(), 1);
        assert_eq!(g.hash(&s2), g.hash_from_scratch(&s2));
        // Blue may not step onto an occupied cell, even its base.
        let s = g.position(
            &[(base - 1, 2), (g.cell(8, 0), 2)],
            &[(g.cell(3, 8), 2), (base, 2)],
            41,
        );
        g.legal_moves(&s, &mut moves);
        assert!(
            moves
                .iter()
                .all(|m| s.unit_at(m.to_cell().unwrap()).is_none())
        );
        // Red entering an empty base wins too.
        let s = g.position(&[(from, 2)], &[(g.cell(0, 8), 2)], 40);
        let mut s2 = s.clone();
        g.play(&mut s2, WarMove::step(9, from, base));
        assert_eq!(g.outcome(&s2), Some(Outcome::Win(Player::Black)));
    }

    #[test]
    fn elimination_ends_the_game() {
        let g = g9();
        let (from, to, blue) = (g.cell(0, 0), g.cell(0, 1), g.cell(0, 2));
        let s = g.position(&[(from, 2)], &[(blue, 1)], 20);
        let mut s2 = s.clone();
        g.play(&mut s2, WarMove::step(9, from, to));
        assert_eq!(g.outcome(&s2), Some(Outcome::Win(Player::Black)));
        let s = g.position(&[(blue, 1)], &[(from, 2)], 21);
        let mut s2 = s.clone();
        g.play(&mut s2, WarMove::step(9, from, to));
        assert_eq!(g.outcome(&s2), Some(Outcome::Win(Player::White)));
        let mut moves = Vec::new();
        g.legal_moves(&s2, &mut moves);
        assert!(moves.is_empty());
    }

    #[test]
    fn move_limit_gives_blue_the_win() {
        let g = WarGame::new(5).unwrap();
        let limit = g.move_limit();
        assert_eq!(limit, 100);
        // Red to move at ply 98: a quiet step, then Blue's quiet step reaches ply 100.
        let s = g.position(&[(g.cell(0, 0), 2)], &[(g.cell(4, 4), 2)], limit - 2);
        let mut s2 = s.clone();
        g.play(&mut s2, WarMove::step(5, g.cell(0, 0), g.cell(0, 1)));
        assert_eq!(g.outcome(&s2), None);
        g.play(&mut s2, WarMove::step(5, g.cell(4, 4), g.cell(4, 3)));
        assert_eq!(s2.ply(), limit);
        assert_eq!(g.outcome(&s2), Some(Outcome::Win(Player::White)));
        // A Red win on the last ply still counts: Red enters the base at ply limit-1.
        let from = g.cell(2, 3);
        let s = g.position(&[(from, 2)], &[(g.cell(0, 0), 2)], limit - 2);
        let mut s3 = s.clone();
        g.play(&mut s3, WarMove::step(5, from, g.base()));
        assert_eq!(g.outcome(&s3), Some(Outcome::Win(Player::Black)));
        // Random games never exceed the limit (also checked by the conformance suite).
        let mut moves = Vec::new();
        let mut st = g.initial();
        let mut i = 0usize;
        while g.outcome(&st).is_none() {
            g.legal_moves(&st, &mut moves);
            g.play(&mut st, moves[i % moves.len()]);
            i += 7;
        }
        assert!(st.ply() <= limit);
    }

    #[test]
    fn pass_when_boxed_in() {
        let g = WarGame::new(5).unwrap();
        // Red's only unit in the corner (0,0), its two neighbours held by Blue units...
        let corner = g.cell(0, 0);
        let nbs: Vec<u8> = g.neighbours(corner).collect();
        let blue: Vec<(u8, u8)> = nbs.iter().map(|&c| (c, 2)).collect();
        let s = g.position(&[(corner, 2)], &blue, 20);
        let mut moves = Vec::new();
        g.legal_moves(&s, &mut moves);
        assert_eq!(moves, vec![WarMove::pass(5)]);
        assert_eq!(g.parse_move(&s, "pass"), Ok(WarMove::pass(5)));
        let mut s2 = s.clone();
        g.play(&mut s2, WarMove::pass(5));
        assert_eq!(g.to_move(&s2), Player::White);
        assert_eq!(g.hash(&s2), g.hash_from_scratch(&s2));
    }

    #[test]
    fn notation_round_trips_and_rejects() {
        let g = g9();
        let s = g.initial();
        assert!(g.parse_move(&s, "A9").is_ok());
        assert!(g.parse_move(&s, "b1").is_ok());
        assert!(g.parse_move(&s, "C1").is_err()); // Red places in columns A and B only
        assert!(g.parse_move(&s, "Z9").is_err());
        assert!(g.parse_move(&s, "I3").is_err());
        assert!(g.parse_move(&s, "").is_err());
        assert!(g.parse_move(&s, "A0").is_err());
        let s = g.position(&[(g.cell(4, 4), 2)], &[(g.cell(0, 8), 2)], 20);
        assert_eq!(
            g.parse_move(&s, "E5-F5"),
            Ok(WarMove::step(9, g.cell(4, 4), g.cell(4, 5)))
        );
        assert!(g.parse_move(&s, "E5-G5").is_err());
        assert!(g.render(&s).contains('R'));
    }

    #[test]
    fn playout_weights_follow_the_paper() {
        let g = g9();
        let base = g.base();
        let f = g.cell(4, 4);
        let red2 = g.cell(4, 7);
        let s = g.position(&[(f, 2), (red2, 2)], &[(g.cell(0, 8), 2)], 20);
        let mut moves = Vec::new();
        g.legal_moves(&s, &mut moves);
        let mut w = Vec::new();
        g.playout_weights(&s, &moves, &mut w);
        for (m, &wt) in moves.iter().zip(&w) {
            let (from, to) = (m.from_cell().unwrap(), m.to_cell().unwrap());
            let want = if to == base {
                100
            } else {
                1 + 2 * g
                    .manhattan(from, base)
                    .saturating_sub(g.manhattan(to, base))
            };
            assert_eq!(wt, want, "{m}");
        }
        assert!(w.contains(&100));
        assert!(w.contains(&3));
        assert!(w.contains(&1));
        // Blue moves towards the nearest Red unit of each moving unit.
        let b = g.cell(0, 8);
        let s = g.position(&[(g.cell(4, 0), 2), (g.cell(0, 5), 2)], &[(b, 2)], 21);
        g.legal_moves(&s, &mut moves);
        g.playout_weights(&s, &moves, &mut w);
        let target = g.cell(0, 5);
        for (m, &wt) in moves.iter().zip(&w) {
            let (from, to) = (m.from_cell().unwrap(), m.to_cell().unwrap());
            let want = 1 + 2 * g
                .manhattan(from, target)
                .saturating_sub(g.manhattan(to, target));
            assert_eq!(wt, want, "{m}");
        }
        // Placements are uniform.
        let s = g.initial();
        g.legal_moves(&s, &mut moves);
        g.playout_weights(&s, &moves, &mut w);
        assert!(w.iter().all(|&x| x == 1));
    }

    /// The unit lists, the padding cell and the hash agree with the board.
    fn check_invariants(g: &WarGame, s: &WarState) {
        for p in [Player::Black, Player::White] {
            let listed = s.units(p);
            assert!(listed.windows(2).all(|w| w[0] < w[1]), "sorted {listed:?}");
            let on_board: Vec<u8> = (0..g.cells as u8)
                .filter(|&c| s.unit_at(c).is_some_and(|(q, _)| q == p))
                .collect();
            assert_eq!(listed, &on_board[..]);
            assert!(
                s.units[p.index()][listed.len()..]
                    .iter()
                    .all(|&c| c == NONE)
            );
        }
        assert_eq!(s.cells[usize::from(NONE)], OFF_BOARD);
        let near = g.near_from_scratch(s);
        for (mine, want) in s.near.iter().zip(&near) {
            assert_eq!(mine[..g.cells], want[..g.cells]);
        }
        assert!(s.cells[g.cells..usize::from(NONE)].iter().all(|&v| v == 0));
        assert_eq!(s.hash, g.hash_from_scratch(s));
        for p in [Player::Black, Player::White] {
            for c in 0..g.cells as u8 {
                let want = reference_combat_target(g, s, p, c);
                assert_eq!(g.combat_target(s, p, c), want, "{p} attacking from {c}");
                assert_eq!(g.attacks(s, p, c), want.is_some());
            }
        }
    }

    /// The first implementation of [`WarGame::combat_target`] (a reference for the fast one).
    fn reference_combat_target(g: &WarGame, s: &WarState, attacker: Player, at: u8) -> Option<u8> {
        let mut best: Option<(u8, u8, u8)> = None;
        for nb in g.neighbours(at) {
            let v = s.cells[nb as usize];
            let enemy = match attacker {
                Player::Black => v >= 3,
                Player::White => (1..=2).contains(&v),
            };
            if !enemy {
                continue;
            }
            let hp = if v >= 3 { v - 2 } else { v };
            let key = (hp, g.base_dist[nb as usize], nb);
            if best.is_none_or(|b| key < b) {
                best = Some(key);
            }
        }
        best.map(|b| b.2)
    }

    /// The slow reference of [`WarGame::playout_move`]: list the legal moves, weigh them with
    /// [`WarGame::playout_weights`] and draw `x` in `0..total`, taking the move whose
    /// cumulative range holds it (as `mcts::rollout::sample_weighted` does).
    fn reference_playout_move<R: Rng>(g: &WarGame, s: &WarState, rng: &mut R) -> WarMove {
        let (mut moves, mut w) = (Vec::new(), Vec::new());
        g.legal_moves(s, &mut moves);
        g.playout_weights(s, &moves, &mut w);
        let total: u64 = w.iter().map(|&x| u64::from(x)).sum();
        let mut x = rng.random_range(0..total);
        for (i, &wi) in w.iter().enumerate() {
            if x < u64::from(wi) {
                return moves[i];
            }
            x -= u64::from(wi);
        }
        moves[moves.len() - 1]
    }

    #[test]
    fn fast_playout_move_matches_the_weighted_listing_move_by_move() {
        use rand::SeedableRng;
        use rand_xoshiro::Xoshiro256PlusPlus;
        let mut plies = 0;
        for n in MIN_SIZE..=MAX_SIZE {
            let g = WarGame::new(n).unwrap();
            let games = if n <= 9 { 60 } else { 15 };
            for seed in 0..games {
                let mut rng = Xoshiro256PlusPlus::seed_from_u64(u64::from(n) * 1000 + seed);
                let mut s = g.initial();
                while g.outcome(&s).is_none() {
                    let mut slow_rng = rng.clone();
                    let slow = reference_playout_move(&g, &s, &mut slow_rng);
                    let fast = g.playout_move(&s, &mut rng);
                    assert_eq!(fast, slow, "ply {}\n{}", s.ply(), g.render(&s));
                    assert_eq!(rng, slow_rng, "the same random numbers are drawn");
                    g.play(&mut s, fast);
                    check_invariants(&g, &s);
                    plies += 1;
                }
            }
        }
        assert!(plies > 50_000, "{plies} plies compared");
        // Boxed in: the pass, drawing one number like the reference.
        let g = WarGame::new(5).unwrap();
        let corner = g.cell(0, 0);
        let blue: Vec<(u8, u8)> = g.neighbours(corner).map(|c| (c, 2)).collect();
        let s = g.position(&[(corner, 2)], &blue, 20);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
        let mut slow_rng = rng.clone();
        assert_eq!(g.playout_move(&s, &mut rng), WarMove::pass(5));
        assert_eq!(
            reference_playout_move(&g, &s, &mut slow_rng),
            WarMove::pass(5)
        );
        assert_eq!(rng, slow_rng);
    }

    #[test]
    fn blue_weights_by_signs_match_the_manhattan_formula() {
        for n in MIN_SIZE..=MAX_SIZE {
            let g = WarGame::new(n).unwrap();
            for f in 0..g.cells as u8 {
                for r in 0..g.cells as u8 {
                    let table = g.blue_weights[f as usize][g.sign_index(f, r)];
                    for (k, t) in g.neighbours(f).enumerate() {
                        let want = 1 + 2 * g.manhattan(f, r).saturating_sub(g.manhattan(t, r));
                        assert_eq!((table >> (8 * k)) & 0xFF, u64::from(want), "{f} {t} {r}");
                    }
                }
            }
        }
    }

    #[test]
    fn playouts_are_deterministic_for_a_seed() {
        use rand::SeedableRng;
        let g = g9();
        let game = |seed| {
            let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
            let (mut s, mut moves) = (g.initial(), Vec::new());
            while g.outcome(&s).is_none() {
                let m = g.playout_move(&s, &mut rng);
                moves.push(m);
                g.play(&mut s, m);
            }
            moves
        };
        assert_eq!(game(5), game(5));
        assert_ne!(game(5), game(6));
    }

    #[test]
    fn positions_with_equal_units_are_equal() {
        let g = g9();
        let a = g.position(&[(3, 2), (1, 2)], &[(8, 2)], 20);
        let b = g.position(&[(1, 2), (3, 2)], &[(8, 2)], 20);
        assert_eq!(a, b);
        assert_eq!(g.hash(&a), g.hash(&b));
        let c = g.position(&[(1, 2), (3, 2)], &[(8, 2)], 22);
        assert_ne!(g.hash(&a), g.hash(&c));
    }
}
