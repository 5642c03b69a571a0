//! The fast playing board of the Go family (Go for play, NoGo, AtariGo): stones in a padded
//! array, chains as circular linked lists with pseudo-liberty counts, an empty-point list and an
//! incremental Zobrist hash. Every legality test is O(1), a move costs O(stones moved), nothing
//! is allocated after construction, `Clone` is one `memcpy` (about 10 KiB: the per-cell arrays
//! have 512 slots, so that a masked index needs no bounds check) and `clone_from` copies only the
//! cells in use (under 1 KiB on 5×5).
//!
//! # Layout
//! A W×H board (1 ≤ W, H ≤ 19) is stored row by row with stride `S = W + 1`, one border row
//! below and above and one border column that serves as the right edge of a row and the left
//! edge of the next, so the four neighbours of `p` are `p ± 1` and `p ± S` without tests:
//!
//! ```text
//!   index = (row + 1) × S + col          (row 0 at the bottom, GTP row 1)
//!   3×2:   # # # #      row "2"  (indices 8..11)
//!          . . . #      row "1"  (indices 4..7)     # = border, . = point
//!          # # # #
//! ```
//!
//! # Chains and liberties
//! Every stone knows the head of its chain (`head`) and the next stone of the chain in a circular
//! list (`next`). The head keeps the chain's size and its *pseudo-liberties*: the number of
//! (stone, empty neighbour) pairs, their index sum and the sum of the squared indices. A chain
//! has no liberty iff the count is 0, and exactly one (it is in atari) iff
//! `count × Σp² = (Σp)²` (Cauchy–Schwarz is an equality only when all counted points are one
//! point), which is exact with 64-bit products. Merges relabel the smaller chain.

use crate::Player;

/// Largest side supported.
pub const MAX_SIDE: usize = 19;
/// Cells of the largest padded board: 21 rows of stride 20.
const CELLS: usize = (MAX_SIDE + 2) * (MAX_SIDE + 1);
/// Slots of the per-cell arrays: the power of two above [`CELLS`], so that an index masked with
/// `SLOTS - 1` needs no bounds check (every index a board computes is below `CELLS` anyway).
const SLOTS: usize = CELLS.next_power_of_two();
const MAX_POINTS: usize = MAX_SIDE * MAX_SIDE;
/// No point (no ko, no head).
pub const NO_POINT: u16 = u16::MAX;

/// Cell content: empty.
pub const EMPTY: u8 = 0;
/// Cell content: the border.
pub const BORDER: u8 = 3;

/// The cell value of a player's stone: 1 Black, 2 White.
#[must_use]
#[inline]
pub const fn stone(p: Player) -> u8 {
    1 + p.index() as u8
}

/// A per-cell array indexed without bounds checks: the index is masked to the array's
/// power-of-two length (a debug build asserts it is a cell of the largest board).
#[derive(Clone, Copy)]
struct Cells<T>([T; SLOTS]);

impl<T> std::ops::Index<usize> for Cells<T> {
    type Output = T;
    #[inline(always)]
    fn index(&self, i: usize) -> &T {
        debug_assert!(i < CELLS, "cell {i}");
        &self.0[i & (SLOTS - 1)]
    }
}

impl<T> std::ops::IndexMut<usize> for Cells<T> {
    #[inline(always)]
    fn index_mut(&mut self, i: usize) -> &mut T {
        debug_assert!(i < CELLS, "cell {i}");
        &mut self.0[i & (SLOTS - 1)]
    }
}

impl<T> Cells<T> {
    /// The first `n` slots.
    #[inline]
    fn prefix(&self, n: usize) -> &[T] {
        &self.0[..n]
    }

    /// The first `n` slots, mutably.
    #[inline]
    fn prefix_mut(&mut self, n: usize) -> &mut [T] {
        &mut self.0[..n]
    }
}

/// Four flags as the low bits of a byte (flag `i` in bit `i`), with constant shifts.
#[inline(always)]
const fn bits(f: [bool; 4]) -> u8 {
    f[0] as u8 | (f[1] as u8) << 1 | (f[2] as u8) << 2 | (f[3] as u8) << 3
}

/// Zobrist keys indexed by padded cell and player (`keys[cell][player.index()]`).
pub type CellKeys = [[u64; 2]];

/// What a stone of a player on an empty point would do: capture (take the last liberty of an
/// adjacent enemy chain) and breathe (have a liberty without capturing: an empty neighbour or an
/// adjacent own chain with another liberty).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Effects {
    /// Some adjacent enemy chain is in atari.
    pub captures: bool,
    /// The new chain has a liberty even if nothing is captured.
    pub breathes: bool,
}

/// What the head of a chain knows: its size and its pseudo-liberties (count, index sum, sum of
/// squared indices), packed so one cache line holds them.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C)]
struct Chain {
    size: u16,
    lib_n: u16,
    lib_sum: u32,
    lib_sq: u32,
}

const _: () = assert!(std::mem::size_of::<Chain>() == 12);

/// The padded board with incremental chains (see the module documentation).
///
/// `clone_from` copies only the cells in use (and the used part of the empty-point list): a
/// few hundred bytes on small boards instead of the whole 19×19 arrays.
pub struct FastBoard {
    width: u8,
    height: u8,
    stride: u16,
    n_empty: u16,
    hash: u64,
    colour: Cells<u8>,
    next: Cells<u16>,
    head: Cells<u16>,
    chain: Cells<Chain>,
    empty_at: Cells<u16>,
    empties: [u16; MAX_POINTS],
}

impl Clone for FastBoard {
    fn clone(&self) -> Self {
        FastBoard {
            width: self.width,
            height: self.height,
            stride: self.stride,
            n_empty: self.n_empty,
            hash: self.hash,
            colour: self.colour,
            next: self.next,
            head: self.head,
            chain: self.chain,
            empty_at: self.empty_at,
            empties: self.empties,
        }
    }

    /// Copies the cells in use only. Cells past [`FastBoard::cells`] are never read (every
    /// index a board computes is below it), so whatever `self` held there may stay; a board
    /// of other dimensions is copied whole.
    fn clone_from(&mut self, src: &Self) {
        if (self.width, self.height) != (src.width, src.height) {
            *self = src.clone();
            return;
        }
        let cells = src.cells();
        self.n_empty = src.n_empty;
        self.hash = src.hash;
        self.colour
            .prefix_mut(cells)
            .copy_from_slice(src.colour.prefix(cells));
        self.next
            .prefix_mut(cells)
            .copy_from_slice(src.next.prefix(cells));
        self.head
            .prefix_mut(cells)
            .copy_from_slice(src.head.prefix(cells));
        self.chain
            .prefix_mut(cells)
            .copy_from_slice(src.chain.prefix(cells));
        self.empty_at
            .prefix_mut(cells)
            .copy_from_slice(src.empty_at.prefix(cells));
        let n = src.n_empty as usize;
        self.empties[..n].copy_from_slice(&src.empties[..n]);
    }
}

impl FastBoard {
    /// The empty `width` × `height` board.
    ///
    /// # Panics
    /// Unless both sides are in `1..=19` (callers check sizes first).
    #[must_use]
    pub fn new(width: usize, height: usize) -> Self {
        assert!((1..=MAX_SIDE).contains(&width) && (1..=MAX_SIDE).contains(&height));
        let stride = width + 1;
        let mut b = FastBoard {
            width: width as u8,
            height: height as u8,
            stride: stride as u16,
            n_empty: 0,
            hash: 0,
            colour: Cells([BORDER; SLOTS]),
            next: Cells([NO_POINT; SLOTS]),
            head: Cells([NO_POINT; SLOTS]),
            chain: Cells([Chain::default(); SLOTS]),
            empty_at: Cells([NO_POINT; SLOTS]),
            empties: [0; MAX_POINTS],
        };
        for r in 0..height {
            for c in 0..width {
                let p = (r + 1) * stride + c;
                b.colour[p] = EMPTY;
                b.empty_at[p] = b.n_empty;
                b.empties[b.n_empty as usize] = p as u16;
                b.n_empty += 1;
            }
        }
        b
    }

    /// Number of columns.
    #[must_use]
    pub const fn width(&self) -> usize {
        self.width as usize
    }

    /// Number of rows.
    #[must_use]
    pub const fn height(&self) -> usize {
        self.height as usize
    }

    /// Number of padded cells in use (every cell index is below it).
    #[must_use]
    pub const fn cells(&self) -> usize {
        (self.height as usize + 2) * self.stride as usize
    }

    /// The padded cell of (`row`, `col`), row 0 at the bottom.
    #[must_use]
    #[inline]
    pub const fn cell(&self, row: usize, col: usize) -> usize {
        (row + 1) * self.stride as usize + col
    }

    /// The (`row`, `col`) of a padded cell on the board.
    #[must_use]
    #[inline]
    pub const fn row_col(&self, p: usize) -> (usize, usize) {
        let s = self.stride as usize;
        (p / s - 1, p % s)
    }

    /// The compact index `row × W + col` of a padded cell on the board.
    #[must_use]
    #[inline]
    pub const fn compact(&self, p: usize) -> usize {
        let (r, c) = self.row_col(p);
        r * self.width as usize + c
    }

    /// The padded cells of the board's points, in compact order (row by row from the bottom).
    pub fn points(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.height as usize)
            .flat_map(move |r| (0..self.width as usize).map(move |c| self.cell(r, c)))
    }

    /// The content of cell `p`: [`EMPTY`], 1 (Black), 2 (White) or [`BORDER`].
    #[must_use]
    #[inline]
    pub fn colour(&self, p: usize) -> u8 {
        self.colour[p]
    }

    /// The empty points (padded cells), in no particular order.
    #[must_use]
    #[inline]
    pub fn empties(&self) -> &[u16] {
        &self.empties[..self.n_empty as usize]
    }

    /// The Zobrist hash of the stones (XOR of the keys given to [`FastBoard::place`]).
    #[must_use]
    #[inline]
    pub const fn hash(&self) -> u64 {
        self.hash
    }

    /// The four neighbours of `p` (some may be border cells).
    #[must_use]
    #[inline]
    pub const fn neighbours(&self, p: usize) -> [usize; 4] {
        let s = self.stride as usize;
        [p - 1, p + 1, p - s, p + s]
    }

    /// Whether the chain whose head is `h` has exactly one liberty.
    #[inline]
    fn atari(&self, h: usize) -> bool {
        let c = &self.chain[h];
        let n = u64::from(c.lib_n);
        let sum = u64::from(c.lib_sum);
        n > 0 && n * u64::from(c.lib_sq) == sum * sum
    }

    /// Whether the chain through the stone at `p` is in atari (exactly one liberty).
    #[must_use]
    #[inline]
    pub fn in_atari(&self, p: usize) -> bool {
        self.atari(self.head[p] as usize)
    }

    /// Whether the chain through the stone at `p` has no liberty.
    #[must_use]
    #[inline]
    pub fn no_liberty(&self, p: usize) -> bool {
        self.chain[self.head[p] as usize].lib_n == 0
    }

    /// The number of stones of the chain through the stone at `p`.
    #[must_use]
    #[inline]
    pub fn chain_size(&self, p: usize) -> usize {
        self.chain[self.head[p] as usize].size as usize
    }

    /// What a stone of `pl` on the empty point `p` would do (O(1)).
    #[must_use]
    #[inline]
    pub fn effects(&self, p: usize, pl: Player) -> Effects {
        let own = stone(pl);
        let mut e = Effects {
            captures: false,
            breathes: false,
        };
        for n in self.neighbours(p) {
            match self.colour[n] {
                EMPTY => e.breathes = true,
                BORDER => {}
                c if c == own => e.breathes |= !self.atari(self.head[n] as usize),
                _ => e.captures |= self.atari(self.head[n] as usize),
            }
        }
        e
    }

    /// Whether a stone of `pl` on the empty point `p` captures or has a liberty (Go's and
    /// AtariGo's legality before ko): `effects(p, pl)` with `captures || breathes`, stopping
    /// at the first empty neighbour.
    #[must_use]
    #[inline]
    pub fn captures_or_breathes(&self, p: usize, pl: Player) -> bool {
        let own = stone(pl);
        let nb = self.neighbours(p);
        if nb.iter().any(|&n| self.colour[n] == EMPTY) {
            return true;
        }
        nb.iter().any(|&n| {
            let c = self.colour[n];
            c != BORDER && ((c == own) != self.atari(self.head[n] as usize))
        })
    }

    /// Whether a stone of `pl` on the empty point `p` is legal in NoGo: it captures nothing and
    /// has a liberty (`effects` with `!captures && breathes`, stopping at the first capture).
    #[must_use]
    #[inline]
    pub fn breathes_without_capture(&self, p: usize, pl: Player) -> bool {
        let own = stone(pl);
        let mut breathes = false;
        for n in self.neighbours(p) {
            match self.colour[n] {
                EMPTY => breathes = true,
                BORDER => {}
                c => {
                    let atari = self.atari(self.head[n] as usize);
                    if c == own {
                        breathes |= !atari;
                    } else if atari {
                        return false;
                    }
                }
            }
        }
        breathes
    }

    /// Whether a stone of `pl` on the empty point `p` would capture.
    #[must_use]
    #[inline]
    pub fn captures(&self, p: usize, pl: Player) -> bool {
        let enemy = stone(pl.opponent());
        self.neighbours(p)
            .iter()
            .any(|&n| self.colour[n] == enemy && self.atari(self.head[n] as usize))
    }

    /// Whether every on-board neighbour of the empty point `p` is a stone of `pl` (an "eye" in
    /// the sense of Monte Carlo playouts).
    #[must_use]
    #[inline]
    pub fn surrounded_by(&self, p: usize, pl: Player) -> bool {
        let own = stone(pl);
        self.neighbours(p)
            .iter()
            .all(|&n| self.colour[n] == own || self.colour[n] == BORDER)
    }

    /// Whether a stone of `pl` on the empty point `p` is a Monte Carlo playout move before ko:
    /// `!surrounded_by(p, pl) && captures_or_breathes(p, pl)` in one pass over the neighbours
    /// (their colours folded into a 4-bit set first, so the common cases take no chain
    /// lookup).
    #[must_use]
    #[inline(always)]
    pub fn playable_non_eye(&self, p: usize, pl: Player) -> bool {
        let own = stone(pl);
        let nb = self.neighbours(p);
        let c = nb.map(|n| self.colour[n]);
        // One bit per colour (a table, not variable shifts: fewer instructions on x86-64).
        const BIT: [u8; 4] = [1, 2, 4, 8];
        let seen = c.iter().fold(0, |m, &x| m | BIT[usize::from(x & 3)]);
        if seen & (1 << EMPTY) != 0 {
            return true; // a liberty, and not an eye
        }
        if seen & !((1 << own) | (1 << BORDER)) == 0 {
            return false; // own stones and the edge only: an eye
        }
        (0..4).any(|i| c[i] != BORDER && ((c[i] == own) != self.atari(self.head[nb[i]] as usize)))
    }

    #[inline]
    fn add_lib(&mut self, h: usize, lib: usize) {
        let c = &mut self.chain[h];
        c.lib_n += 1;
        c.lib_sum += lib as u32;
        c.lib_sq += (lib * lib) as u32;
    }

    #[inline]
    fn remove_lib(&mut self, h: usize, lib: usize) {
        // Wrapping: the scratch record `chain[0]` takes any number of removals.
        let c = &mut self.chain[h];
        c.lib_n = c.lib_n.wrapping_sub(1);
        c.lib_sum = c.lib_sum.wrapping_sub(lib as u32);
        c.lib_sq = c.lib_sq.wrapping_sub((lib * lib) as u32);
    }

    #[inline]
    fn remove_empty(&mut self, p: usize) {
        let i = self.empty_at[p] as usize;
        self.n_empty -= 1;
        let last = self.empties[self.n_empty as usize];
        self.empties[i] = last;
        self.empty_at[last as usize] = i as u16;
        self.empty_at[p] = NO_POINT;
    }

    #[inline]
    fn add_empty(&mut self, p: usize) {
        self.empty_at[p] = self.n_empty;
        self.empties[self.n_empty as usize] = p as u16;
        self.n_empty += 1;
    }

    fn merge(&mut self, a: usize, b: usize) {
        let (big, small) = if self.chain[a].size >= self.chain[b].size {
            (a, b)
        } else {
            (b, a)
        };
        let mut s = small;
        loop {
            self.head[s] = big as u16;
            s = self.next[s] as usize;
            if s == small {
                break;
            }
        }
        self.next.0.swap(big, small);
        let sm = self.chain[small];
        let c = &mut self.chain[big];
        c.size += sm.size;
        c.lib_n += sm.lib_n;
        c.lib_sum += sm.lib_sum;
        c.lib_sq += sm.lib_sq;
    }

    /// Removes the chain through `p` (its stones' keys taken from `keys`), giving its points as
    /// liberties to the adjacent chains. Returns its size.
    fn remove_chain(&mut self, p: usize, keys: &CellKeys) -> usize {
        let h = self.head[p] as usize;
        let pl = if self.colour[h] == 1 { 0 } else { 1 };
        let mut s = h;
        loop {
            self.colour[s] = EMPTY;
            self.hash ^= keys[s][pl];
            self.add_empty(s);
            s = self.next[s] as usize;
            if s == h {
                break;
            }
        }
        let mut count = 0;
        loop {
            count += 1;
            for n in self.neighbours(s) {
                if self.colour[n] == 1 || self.colour[n] == 2 {
                    self.add_lib(self.head[n] as usize, s);
                }
            }
            s = self.next[s] as usize;
            if s == h {
                break;
            }
        }
        count
    }

    /// The Zobrist hash of the stones after a stone of `pl` on the empty point `p`, with the
    /// adjacent enemy chains in atari captured, and whether anything is captured; the board
    /// is not changed (for superko: the board a move would create). O(1) without a capture,
    /// O(captured stones) with one.
    #[must_use]
    pub fn hash_after(&self, p: usize, pl: Player, keys: &CellKeys) -> (u64, bool) {
        let enemy = stone(pl.opponent());
        let mut h = self.hash ^ keys[p][pl.index()];
        let nb = self.neighbours(p);
        let mut taken = [NO_POINT; 4];
        let mut captured = false;
        for (i, &n) in nb.iter().enumerate() {
            if self.colour[n] != enemy {
                continue;
            }
            let head = self.head[n];
            // A chain met twice is taken once; its only liberty is then `p`.
            if taken[..i].contains(&head) || !self.atari(usize::from(head)) {
                continue;
            }
            taken[i] = head;
            captured = true;
            let start = usize::from(head);
            let mut s = start;
            loop {
                h ^= keys[s][pl.opponent().index()];
                s = self.next[s] as usize;
                if s == start {
                    break;
                }
            }
        }
        (h, captured)
    }

    /// Puts a stone of `pl` on the empty point `p` and merges chains; when `capture` is set,
    /// removes the enemy chains left without liberties. Returns the number of stones removed
    /// and, when that is one, the point it stood on ([`NO_POINT`] otherwise).
    ///
    /// Legality is the caller's business (see [`FastBoard::effects`]): a suicide leaves a chain
    /// without liberties on the board.
    pub fn place(&mut self, p: usize, pl: Player, capture: bool, keys: &CellKeys) -> (u32, u16) {
        debug_assert_eq!(self.colour[p], EMPTY);
        let own = stone(pl);
        self.colour[p] = own;
        self.hash ^= keys[p][pl.index()];
        self.remove_empty(p);
        self.head[p] = p as u16;
        self.next[p] = p as u16;
        let nbrs = self.neighbours(p);
        // The neighbours' colours before the move (the captures below read them again).
        let c = nbrs.map(|n| self.colour[n]);
        let enemy = own ^ 3;
        // The new stone's pseudo-liberties: its empty neighbours, without branches.
        let mut lib = Chain {
            size: 1,
            ..Chain::default()
        };
        for i in 0..4 {
            let e = u32::from(c[i] == EMPTY);
            let q = nbrs[i] as u32;
            lib.lib_n += e as u16;
            lib.lib_sum += e * q;
            lib.lib_sq += e * q * q;
        }
        self.chain[p] = lib;
        // Adjacent chains of either colour lose the liberty `p` (once per adjacency), without
        // branches: an empty or border neighbour updates the scratch record `chain[0]` (cell
        // 0 is a border cell, the head of no chain), which is never read unmasked.
        for i in 0..4 {
            // Black (1) or White (2).
            let is_stone = usize::from(c[i].wrapping_sub(1) < 2);
            self.remove_lib(usize::from(self.head[nbrs[i]]) * is_stone, p);
        }
        let own_mask = bits(c.map(|x| x == own));
        if own_mask != 0 {
            for (i, &n) in nbrs.iter().enumerate() {
                if own_mask >> i & 1 != 0 && self.head[n] != self.head[p] {
                    self.merge(self.head[n] as usize, self.head[p] as usize);
                }
            }
        }
        let (mut removed, mut last) = (0u32, NO_POINT);
        if capture {
            // The enemy neighbours whose chain has no liberty left, without branches (other
            // cells read `chain[0]`, masked). Removing a chain gives liberties to own chains
            // only, so the set stays right while chains are removed.
            let dead = bits(std::array::from_fn(|i| {
                let is_enemy = c[i] == enemy;
                let h = usize::from(self.head[nbrs[i]]) * usize::from(is_enemy);
                is_enemy & (self.chain[h].lib_n == 0)
            }));
            if dead != 0 {
                for (i, &n) in nbrs.iter().enumerate() {
                    // A chain met twice is gone the second time: read the colour again.
                    if dead >> i & 1 != 0 && self.colour[n] == enemy {
                        removed += self.remove_chain(n, keys) as u32;
                        last = n as u16;
                    }
                }
            }
        }
        (removed, if removed == 1 { last } else { NO_POINT })
    }

    /// Area score: each side's stones plus the empty regions bordered only by its stones
    /// (regions touching both colours, or none, are neutral). `[black, white]` in points.
    #[must_use]
    pub fn area(&self) -> [u32; 2] {
        // Stones: one pass over the cells in use.
        let mut score = [0u32; 2];
        for &c in self.colour.prefix(self.cells()) {
            score[0] += u32::from(c == 1);
            score[1] += u32::from(c == 2);
        }
        // Empty regions, from the empty-point list. A point without an empty neighbour is a
        // region by itself (most of them at the end of a playout): no flood fill.
        let mut seen = [0u64; SLOTS / 64];
        let mut stack = [0u16; MAX_POINTS];
        for &p in self.empties() {
            let p = usize::from(p);
            if seen[p / 64] >> (p % 64) & 1 != 0 {
                continue;
            }
            let c = self.neighbours(p).map(|n| self.colour[n]);
            let (size, touches) = if c.iter().all(|&x| x != EMPTY) {
                (
                    1,
                    c.iter()
                        .fold(0, |t, &x| t | if x == BORDER { 0 } else { x }),
                )
            } else {
                let (mut size, mut touches) = (0u32, 0u8);
                seen[p / 64] |= 1 << (p % 64);
                stack[0] = p as u16;
                let mut top = 1;
                while top > 0 {
                    top -= 1;
                    let q = stack[top] as usize;
                    size += 1;
                    for n in self.neighbours(q) {
                        match self.colour[n] {
                            EMPTY if seen[n / 64] >> (n % 64) & 1 == 0 => {
                                seen[n / 64] |= 1 << (n % 64);
                                stack[top] = n as u16;
                                top += 1;
                            }
                            1 | 2 => touches |= self.colour[n],
                            _ => {}
                        }
                    }
                }
                (size, touches)
            };
            match touches {
                1 => score[0] += size,
                2 => score[1] += size,
                _ => {}
            }
        }
        score
    }

    /// [`FastBoard::area`] as first written (one flood fill per region, points in order): the
    /// slow reference of the tests.
    #[cfg(test)]
    pub(crate) fn area_reference(&self) -> [u32; 2] {
        let mut score = [0u32; 2];
        let mut seen = vec![false; CELLS];
        for p in self.points() {
            match self.colour[p] {
                1 => score[0] += 1,
                2 => score[1] += 1,
                _ if seen[p] => {}
                _ => {
                    let (mut size, mut touches) = (0u32, 0u8);
                    seen[p] = true;
                    let mut stack = vec![p];
                    while let Some(q) = stack.pop() {
                        size += 1;
                        for n in self.neighbours(q) {
                            match self.colour[n] {
                                EMPTY if !seen[n] => {
                                    seen[n] = true;
                                    stack.push(n);
                                }
                                1 | 2 => touches |= self.colour[n],
                                _ => {}
                            }
                        }
                    }
                    match touches {
                        1 => score[0] += size,
                        2 => score[1] += size,
                        _ => {}
                    }
                }
            }
        }
        score
    }

    /// The stones in compact order: 0 empty, 1 Black, 2 White per point.
    #[must_use]
    pub fn compact_cells(&self) -> Vec<u8> {
        self.points().map(|p| self.colour[p]).collect()
    }

    /// Whether the stones (and nothing else) are equal.
    #[must_use]
    pub fn same_stones(&self, other: &Self) -> bool {
        self.width == other.width
            && self.height == other.height
            && self.colour.prefix(self.cells()) == other.colour.prefix(other.cells())
    }

    /// Feeds the stones to a hasher.
    pub fn hash_stones<H: std::hash::Hasher>(&self, state: &mut H) {
        use std::hash::Hash;
        self.width.hash(state);
        self.height.hash(state);
        self.colour.prefix(self.cells()).hash(state);
    }

    /// The hash recomputed from the stones.
    #[must_use]
    pub fn hash_from_scratch(&self, keys: &CellKeys) -> u64 {
        self.points()
            .filter(|&p| self.colour[p] == 1 || self.colour[p] == 2)
            .fold(0, |h, p| h ^ keys[p][self.colour[p] as usize - 1])
    }

    /// Checks every incremental structure against a recomputation from the stones (tests).
    ///
    /// # Panics
    /// When an invariant is broken.
    #[cfg(test)]
    pub fn check_invariants(&self, keys: &CellKeys) {
        assert_eq!(self.hash, self.hash_from_scratch(keys), "hash");
        let empties: Vec<usize> = self.points().filter(|&p| self.colour[p] == EMPTY).collect();
        assert_eq!(empties.len(), self.n_empty as usize, "empty count");
        for &p in &empties {
            assert_eq!(
                self.empties[self.empty_at[p] as usize] as usize, p,
                "empty list"
            );
        }
        for p in self.points() {
            let c = self.colour[p];
            if c == EMPTY {
                continue;
            }
            let h = self.head[p] as usize;
            assert_eq!(self.head[h] as usize, h, "head of head");
            // Walk the chain's list from its head; flood fill from p must give the same set.
            let mut listed = Vec::new();
            let mut s = h;
            loop {
                listed.push(s);
                assert_eq!(self.head[s] as usize, h);
                s = self.next[s] as usize;
                if s == h {
                    break;
                }
            }
            listed.sort_unstable();
            let mut filled = vec![p];
            let mut i = 0;
            while i < filled.len() {
                for n in self.neighbours(filled[i]) {
                    if self.colour[n] == c && !filled.contains(&n) {
                        filled.push(n);
                    }
                }
                i += 1;
            }
            filled.sort_unstable();
            assert_eq!(listed, filled, "chain list at {p}");
            assert_eq!(self.chain[h].size as usize, filled.len(), "chain size");
            let (mut n, mut sum, mut sq) = (0u32, 0u32, 0u32);
            for &s in &filled {
                for q in self.neighbours(s) {
                    if self.colour[q] == EMPTY {
                        n += 1;
                        sum += q as u32;
                        sq += (q * q) as u32;
                    }
                }
            }
            assert_eq!(
                (
                    u32::from(self.chain[h].lib_n),
                    self.chain[h].lib_sum,
                    self.chain[h].lib_sq
                ),
                (n, sum, sq),
                "pseudo-liberties of the chain at {p}"
            );
        }
    }
}

impl std::fmt::Debug for FastBoard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut s = String::new();
        for r in (0..self.height()).rev() {
            for c in 0..self.width() {
                s.push(match self.colour[self.cell(r, c)] {
                    1 => 'X',
                    2 => 'O',
                    _ => '.',
                });
            }
            if r > 0 {
                s.push('/');
            }
        }
        write!(f, "FastBoard({s})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dims::zobrist_key;

    fn keys() -> Vec<[u64; 2]> {
        (0..CELLS as u64)
            .map(|p| [zobrist_key(2 * p), zobrist_key(2 * p + 1)])
            .collect()
    }

    #[test]
    fn layout_and_neighbours() {
        let b = FastBoard::new(3, 2);
        assert_eq!(b.cell(0, 0), 4);
        assert_eq!(b.cell(1, 2), 10);
        assert_eq!(b.row_col(10), (1, 2));
        assert_eq!(b.compact(10), 5);
        assert_eq!(b.points().collect::<Vec<_>>(), vec![4, 5, 6, 8, 9, 10]);
        // A1's left and lower neighbours are border cells.
        let n = b.neighbours(4);
        assert_eq!(b.colour(n[0]), BORDER);
        assert_eq!(b.colour(n[2]), BORDER);
        assert_eq!(b.colour(b.neighbours(6)[1]), BORDER, "right of C1");
        assert_eq!(b.colour(b.neighbours(10)[3]), BORDER, "above C2");
        assert_eq!(b.empties().len(), 6);
    }

    #[test]
    fn atari_capture_and_merge() {
        // 3x3: X at A1, B1 (one chain), O at A2, C1; O B2 takes B1's last-but-one liberty.
        let k = keys();
        let mut b = FastBoard::new(3, 3);
        let at = |r, c| b.cell(r, c);
        let (a1, b1, a2, c1, b2) = (at(0, 0), at(0, 1), at(1, 0), at(0, 2), at(1, 1));
        b.place(a1, Player::Black, true, &k);
        b.place(b1, Player::Black, true, &k);
        assert_eq!(b.chain_size(a1), 2);
        b.place(a2, Player::White, true, &k);
        b.place(c1, Player::White, true, &k);
        assert!(b.in_atari(a1), "only B2 is left");
        b.check_invariants(&k);
        let e = b.effects(b2, Player::White);
        assert!(e.captures && e.breathes);
        let e = b.effects(b2, Player::Black);
        assert!(!e.captures && e.breathes);
        assert_eq!(b.place(b2, Player::White, true, &k), (2, NO_POINT));
        assert_eq!(b.colour(a1), EMPTY);
        assert_eq!(b.colour(b1), EMPTY);
        b.check_invariants(&k);
        assert_eq!(b.area(), [0, 9]);
    }
}
