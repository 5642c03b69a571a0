//! Local region games: static wins of Black when its pure-eye chains enclose every region
//! (Sanko paper, Section 4 and Appendix A.4).
//!
//! # When it applies
//! Let X* be Black's pure-eye chains ([`crate::eyes::pure_eyes`]). A *region* is a maximal
//! connected set of points outside X*: empty points, White stones, and Black stones of chains
//! outside X* (*loose* stones). Every region is therefore bordered only by X* chains, its
//! *walls*. [`RegionSolver::black_wins_regions`] answers when X* is not empty: a region inside
//! T* (every point adjacent to the walls, no Black stone) is won already; every other region
//! must have at most [`MAX_REGION`] points and Black must win its local game, which starts
//! from the region's White and loose Black stones. Then Black wins the whole board (every
//! point), provided (C1) no earlier board of the history had a Black stone on a region point
//! that is not Black now and, with White to move, (C2) the last move was not a Black pass.
//! Those two conditions are the caller's to check.
//!
//! The paper states the rule for boards whose Black chains are all in X*. Loose stones change
//! nothing in the argument below: a loose chain is never adjacent to a wall (it would be part
//! of it), so all its neighbours lie in its region; the local game treats it like a Black stone
//! played there earlier, and White capturing it is a White win. Black's stones still only
//! accumulate, so a new Black stone sits on a point that is not Black now and, by (C1), was
//! Black on no earlier board.
//!
//! # The local game in a region R
//! ```text
//!   state   R, Black's stones in R, White's stones in R, side to move (White first)
//!   walls   the Black stones adjacent to R: all in X*, never captured
//!   White   passes, or plays an empty point of R that is not suicide; a move that would
//!           capture Black stones (a Black chain of R not joined to the walls, without an
//!           empty neighbour in R) wins the local game for White at once
//!   Black   never passes; plays an empty point of R that is anchored (adjacent to the walls
//!           or to a Black stone of R joined to the walls), or any empty point when
//!           |R| <= 8 (INTERIOR_MAX); captures White chains without empty neighbours in R;
//!           then a new stone joined to the walls needs R to keep an empty point, any other
//!           new stone an empty neighbour in R for its chain
//!   Black wins on reaching, after its move, a state with no White stone in R, every Black
//!           stone of R joined to the walls, and every empty point of R adjacent to Black
//!           (walls included); Black loses when it has no move
//! ```
//! The paper calls a point anchored when it touches the walls or an earlier anchored stone;
//! here any Black stone joined to the walls anchors. That gives Black more options, never
//! White, so every win is still a win (and the rule depends on the stones alone).
//!
//! Black's liberty rule is stricter than Go's, where a stone joined to the walls may fill R's
//! last empty point (the walls have liberties elsewhere). Here R always keeps an empty point:
//! after a Black move by the rule, after a White move because filling R's last point captures
//! no wall and is suicide. Every point of a pure eye touches its chain, so every X* chain keeps
//! a liberty in each of its two pure eyes whenever White is to move, and no White move
//! anywhere can capture a wall or a Black stone joined to one. Filling R would close one of
//! those eyes and let White capture the wall through the other.
//!
//! # Why it is finite, acyclic and memoisable
//! A White capture ends the game, so within the game Black's stones are never removed. Each
//! Black move adds one, so a game lasts at most 2|R| plies and no state repeats: the state
//! graph is acyclic and the recursion terminates (White passing repeatedly only lets Black
//! fill R). The value depends on the state alone: superko can only remove White options in
//! the real game, and a Black stone on a point never held by Black in the history (C1) can
//! repeat no board. So results are memoised on the exact state
//! (geometry, R, Black in R, White in R, side to move).
//!
//! # Composition (paper, A.4)
//! Black answers a White move in an unfinished region there, a White pass in any unfinished
//! region, and otherwise follows Lemma 1's strategy (capture White stones in won regions,
//! else pass). The won regions meet Lemma 1's territory conditions, so Black ends up owning
//! every point.

use crate::board::{Bitboard, Board, Geometry};
use crate::eyes::PureEyes;

/// Regions with more points than this are not decided (the answer is `None`).
pub const MAX_REGION: u32 = 14;

/// In regions of at most this many points Black may also play non-anchored points.
pub const INTERIOR_MAX: u32 = 8;

/// Default limit on local-game nodes per [`RegionSolver::black_wins_regions`] call.
pub const DEFAULT_NODE_LIMIT: u64 = 200_000;

/// Default memo capacity in entries (32 bytes each, 256 MiB): a two-way set-associative
/// cache that overwrites the older entry of a full set.
pub const DEFAULT_MEMO_ENTRIES: usize = 1 << 23;

/// The memo entries of each search thread for a transposition table of `tt_mib` MiB: half
/// the table's bytes, as a power of two between 2^18 entries (8 MiB) and
/// [`DEFAULT_MEMO_ENTRIES`] (256 MiB). The memo's pages are resident only once written, and
/// region games run only at kill-all komi. On the 5x5 suites (a 512 MiB table) a memo of
/// 2^19 entries cost 1.4 times the time of 2^23 (`docs/results.md`).
#[must_use]
pub fn memo_entries_for_table(tt_mib: usize) -> usize {
    let entries = (tt_mib << 20) / 2 / 32;
    let floor = if entries == 0 {
        1
    } else {
        1usize << entries.ilog2()
    };
    floor.clamp(1 << 18, DEFAULT_MEMO_ENTRIES)
}

/// Counters of a [`RegionSolver`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RegionStats {
    /// Calls of [`RegionSolver::black_wins_regions`].
    pub calls: u64,
    /// Calls that answered `Some` (Black wins every region).
    pub wins: u64,
    /// Local games decided by search (regions outside T*), memo hits included.
    pub games_solved: u64,
    /// Local games left undecided because the node limit ran out.
    pub games_aborted: u64,
    /// Local-game nodes searched (memo misses).
    pub nodes: u64,
    /// Local-game states answered from the memo.
    pub memo_hits: u64,
    /// Exact states now stored in the memo.
    pub memo_size: usize,
    /// Stored states that overwrote an older one (its set was full).
    pub memo_overwrites: u64,
}

impl RegionStats {
    /// Adds another solver's counts.
    pub fn add(&mut self, o: &RegionStats) {
        self.calls += o.calls;
        self.wins += o.wins;
        self.games_solved += o.games_solved;
        self.games_aborted += o.games_aborted;
        self.nodes += o.nodes;
        self.memo_hits += o.memo_hits;
        self.memo_size += o.memo_size;
        self.memo_overwrites += o.memo_overwrites;
    }
}

/// A memo key: the exact local state. `tag` = rows << 16 | cols << 8 | (1 if White to move).
#[derive(Clone, Copy, PartialEq, Eq)]
struct StateKey {
    region: u64,
    black: u64,
    white: u64,
    tag: u32,
}

impl StateKey {
    /// A multiplicative mix of the four words (keys are not adversarial).
    #[inline]
    fn hash(&self) -> u64 {
        let mut h = 0u64;
        for x in [self.region, self.black, self.white, u64::from(self.tag)] {
            h = (h.rotate_left(5) ^ x).wrapping_mul(0x517c_c1b7_2722_0a95);
        }
        h ^ (h >> 29)
    }
}

/// The fewest sets a memo falls back to when a larger one cannot be allocated.
const MIN_FALLBACK_SETS: usize = 1 << 10;

/// `n` zeroed words, or `None` if the allocator refuses them. The allocator's zeroed memory
/// (`calloc`) leaves large blocks as untouched pages until they are written, which
/// `vec![0; n]` also does, but that one aborts the process when the memory is refused.
#[allow(unsafe_code)]
fn zeroed_words(n: usize) -> Option<Vec<u64>> {
    let layout = std::alloc::Layout::array::<u64>(n).ok()?;
    if layout.size() == 0 {
        return Some(Vec::new());
    }
    // SAFETY: the layout has a non-zero size (checked above).
    let ptr = unsafe { std::alloc::alloc_zeroed(layout) }.cast::<u64>();
    if ptr.is_null() {
        return None;
    }
    // SAFETY: `ptr` was allocated by the global allocator with the layout of `n` words
    // (alignment and size as `Vec<u64>` with capacity `n` uses), and its `n` words are
    // initialised (zeroed).
    Some(unsafe { Vec::from_raw_parts(ptr, n, n) })
}

/// The memo: a lossy two-way set-associative cache of exact local states and their values.
///
/// A set is one 64-byte line of two entries of four words: region, Black, White, and
/// `tag << 2 | value` (value 1: White wins, 2: Black wins; a zero word is an empty entry,
/// since every tag is non-zero). A new state goes to the first entry and the one there
/// moves to the second, so a full set forgets its older state. Values are exact, so what
/// the memo forgets changes only the nodes a later call searches, never an answer. The
/// words are allocated on the first store, zeroed by the allocator (pages the memo never
/// touches cost nothing).
struct Memo {
    /// `sets * 8` words from a 64-byte boundary at `offset`, or empty before the first store.
    words: Vec<u64>,
    offset: usize,
    /// `sets - 1` (sets is a power of two).
    mask: usize,
    /// Entries in use.
    len: usize,
    /// Stores that overwrote an older entry.
    overwrites: u64,
}

impl Memo {
    /// A memo of at least `entries` entries (rounded up to a power of two, at least 2).
    fn new(entries: usize) -> Memo {
        let sets = (entries.max(2) / 2).next_power_of_two();
        Memo {
            words: Vec::new(),
            offset: 0,
            mask: sets - 1,
            len: 0,
            overwrites: 0,
        }
    }

    /// The index of the first word of `key`'s set (once the memo is allocated).
    #[inline]
    fn set_index(&self, key: &StateKey) -> usize {
        self.offset + (key.hash() as usize & self.mask) * 8
    }

    /// The eight words of `key`'s set, allocating the memo if needed; `None` when no memo
    /// could be allocated (the memo then stores nothing).
    #[inline]
    fn set_mut(&mut self, key: &StateKey) -> Option<&mut [u64]> {
        if self.words.is_empty() {
            // Under a virtual-memory limit (`ulimit -v`) the memo halves until it fits.
            let mut sets = self.mask + 1;
            self.words = loop {
                if let Some(words) = zeroed_words(sets * 8 + 8) {
                    break words;
                }
                if sets <= MIN_FALLBACK_SETS {
                    return None;
                }
                sets /= 2;
            };
            self.mask = sets - 1;
            // Start the sets at a 64-byte boundary, so that a set is one cache line.
            let misalign = self.words.as_ptr() as usize % 64;
            self.offset = ((64 - misalign) % 64) / 8;
        }
        let i = self.set_index(key);
        Some(&mut self.words[i..i + 8])
    }

    /// The value stored for `key`, if any.
    #[inline]
    fn get(&self, key: &StateKey) -> Option<bool> {
        if self.words.is_empty() {
            return None;
        }
        let i = self.set_index(key);
        let set = &self.words[i..i + 8];
        for e in set.chunks_exact(4) {
            if e[3] >> 2 == u64::from(key.tag)
                && e[0] == key.region
                && e[1] == key.black
                && e[2] == key.white
            {
                return Some(e[3] & 3 == 2);
            }
        }
        None
    }

    /// A cache prefetch hint for `key`'s set (nothing before the first store).
    #[inline]
    fn prefetch(&self, key: &StateKey) {
        if self.words.is_empty() {
            return;
        }
        let i = self.set_index(key);
        crate::table::prefetch_line(&self.words[i]);
    }

    /// Stores `key`'s value in the first entry of its set, moving the entry there to the
    /// second (and forgetting the second's) when the first is in use.
    #[inline]
    fn insert(&mut self, key: &StateKey, black_wins: bool) {
        let word = u64::from(key.tag) << 2 | if black_wins { 2 } else { 1 };
        let Some(set) = self.set_mut(key) else {
            return;
        };
        let (first_used, second_used) = (set[3] != 0, set[7] != 0);
        if first_used {
            set.copy_within(0..4, 4);
        }
        set[..4].copy_from_slice(&[key.region, key.black, key.white, word]);
        match (first_used, second_used) {
            (false, _) | (true, false) => self.len += 1,
            (true, true) => self.overwrites += 1,
        }
    }
}

/// The fixed facts of one region's local game.
struct Local<'a> {
    geo: &'a Geometry,
    region: Bitboard,
    walls: Bitboard,
    interior: bool,
    tag: u32,
}

impl Local<'_> {
    /// Black stones of R joined to the walls.
    #[inline]
    fn joined(&self, black: Bitboard) -> Bitboard {
        self.geo
            .flood(self.walls, self.walls | black)
            .minus(self.walls)
    }

    /// Whether Black has won: no White stone, every Black stone joined to the walls, every
    /// empty point adjacent to Black.
    #[inline]
    fn won(&self, black: Bitboard, white: Bitboard) -> bool {
        if !white.is_empty() || self.joined(black) != black {
            return false;
        }
        let empty = self.region.minus(black);
        empty
            .minus(self.geo.neighbours(self.walls | black))
            .is_empty()
    }

    /// Whether some chain of `stones` (within R) meeting `seed` has no empty neighbour.
    #[inline]
    fn has_liberty(&self, chain: Bitboard, empty: Bitboard) -> bool {
        !(self.geo.neighbours(chain) & empty).is_empty()
    }
}

/// Solves local region games with a memo kept across calls (one solver per search thread).
pub struct RegionSolver {
    memo: Memo,
    node_limit: u64,
    /// Nodes left in the current call.
    budget: u64,
    stats: RegionStats,
}

impl Default for RegionSolver {
    fn default() -> Self {
        Self::new()
    }
}

impl RegionSolver {
    /// A solver with an empty memo, [`DEFAULT_NODE_LIMIT`] nodes per call and
    /// [`DEFAULT_MEMO_ENTRIES`] memo entries.
    #[must_use]
    pub fn new() -> Self {
        RegionSolver {
            memo: Memo::new(DEFAULT_MEMO_ENTRIES),
            node_limit: DEFAULT_NODE_LIMIT,
            budget: 0,
            stats: RegionStats::default(),
        }
    }

    /// Limits the local-game nodes (memo misses) one call may search; a region whose game
    /// is not decided within the limit makes the call answer `None`.
    #[must_use]
    pub fn with_node_limit(mut self, nodes: u64) -> Self {
        self.node_limit = nodes;
        self
    }

    /// A memo of `entries` states (rounded up to a power of two, at least 2; the older state
    /// of a full set is forgotten).
    #[must_use]
    pub fn with_memo_entries(mut self, entries: usize) -> Self {
        self.memo = Memo::new(entries);
        self
    }

    /// The counters so far.
    #[must_use]
    pub fn stats(&self) -> RegionStats {
        RegionStats {
            memo_size: self.memo.len,
            memo_overwrites: self.memo.overwrites,
            ..self.stats
        }
    }

    /// `Some(the points that are not Black)` when X* (`eyes` = `pure_eyes(.., Black)`) is not
    /// empty, no region (connected set of points outside X*, loose Black stones included)
    /// outside `eyes.territory` (or outside T*) has more than [`MAX_REGION`] points, and Black
    /// wins the local game in every such region; `None` otherwise (not decided).
    ///
    /// With `Some`, Black owns every point at the end of the game under the paper's (C1)
    /// (no earlier board had a Black stone on a returned point) and, when White is to move,
    /// (C2) (the last move was not a Black pass). The answer depends on the board alone.
    pub fn black_wins_regions(
        &mut self,
        geo: &Geometry,
        board: &Board,
        eyes: &PureEyes,
    ) -> Option<Bitboard> {
        self.stats.calls += 1;
        if eyes.alive.is_empty() {
            return None;
        }
        let regions = geo.full().minus(eyes.alive);
        let tag = (geo.rows() as u32) << 16 | (geo.cols() as u32) << 8 | 1;
        // Cheap rejections first, so no local game is searched in vain.
        let mut rest = regions;
        let mut todo = [Bitboard::EMPTY; 64];
        let mut n = 0;
        while let Some(p) = rest.lowest() {
            let region = geo.flood(Bitboard::from_point(p), regions);
            rest = rest.minus(region);
            if region.minus(eyes.territory).is_empty() {
                continue;
            }
            let walls = geo.neighbours(region) & eyes.alive;
            if (region & board.black).is_empty() && region.minus(geo.neighbours(walls)).is_empty() {
                continue; // T*: every point touches the walls
            }
            if region.count() > MAX_REGION {
                return None;
            }
            todo[n] = region;
            n += 1;
        }
        for &region in &todo[..n] {
            let local = Local {
                geo,
                region,
                walls: geo.neighbours(region) & eyes.alive,
                interior: region.count() <= INTERIOR_MAX,
                tag,
            };
            let (black, white) = (board.black & region, board.white & region);
            self.budget = self.node_limit;
            let result = if local.won(black, white) {
                Some(true)
            } else {
                self.white_to_move(&local, black, white)
            };
            match result {
                Some(true) => self.stats.games_solved += 1,
                Some(false) => {
                    self.stats.games_solved += 1;
                    return None;
                }
                None => {
                    self.stats.games_aborted += 1;
                    return None;
                }
            }
        }
        self.stats.wins += 1;
        Some(regions.minus(board.black))
    }

    /// Memo lookup.
    #[inline]
    fn probe(&mut self, key: &StateKey) -> Option<bool> {
        let r = self.memo.get(key);
        if r.is_some() {
            self.stats.memo_hits += 1;
        }
        r
    }

    /// Memo store.
    #[inline]
    fn store(&mut self, key: StateKey, black_wins: bool) {
        self.memo.insert(&key, black_wins);
    }

    /// Counts a node; false when the call's budget is spent.
    #[inline]
    fn spend(&mut self) -> bool {
        if self.budget == 0 {
            return false;
        }
        self.budget -= 1;
        self.stats.nodes += 1;
        true
    }

    /// White to move in a state Black has not won yet: `Some(true)` if Black wins whatever
    /// White does, `Some(false)` if White wins, `None` if the budget ran out.
    fn white_to_move(&mut self, l: &Local<'_>, black: Bitboard, white: Bitboard) -> Option<bool> {
        let key = StateKey {
            region: l.region.0,
            black: black.0,
            white: white.0,
            tag: l.tag,
        };
        if let Some(r) = self.probe(&key) {
            return Some(r);
        }
        if !self.spend() {
            return None;
        }
        let geo = l.geo;
        let empty = l.region.minus(black | white);
        // A Black chain of R not joined to the walls with one liberty: White captures it.
        let mut loose = black.minus(l.joined(black));
        while let Some(p) = loose.lowest() {
            let chain = geo.flood(Bitboard::from_point(p), loose);
            loose = loose.minus(chain);
            if (geo.neighbours(chain) & empty).count() <= 1 {
                self.store(key, false);
                return Some(false);
            }
        }
        // White's legal stone moves, their memo sets prefetched so that the cache misses of
        // all replies overlap while the pass is searched. No capture is possible here
        // (checked above): a move is legal iff its chain keeps an empty neighbour in R.
        let black_tag = l.tag & !1;
        let mut replies = [Bitboard::EMPTY; MAX_REGION as usize];
        let mut n = 0;
        let mut moves = empty;
        while let Some(p) = moves.lowest() {
            let pb = Bitboard::from_point(p);
            moves = moves.minus(pb);
            let w2 = white | pb;
            let chain = geo.flood(pb, w2);
            if !l.has_liberty(chain, empty.minus(pb)) {
                continue;
            }
            self.memo.prefetch(&StateKey {
                region: l.region.0,
                black: black.0,
                white: w2.0,
                tag: black_tag,
            });
            replies[n] = w2;
            n += 1;
        }
        let mut aborted = false;
        // The pass first: it is often White's strongest reply (Black must move).
        match self.black_to_move(l, black, white) {
            Some(false) => {
                self.store(key, false);
                return Some(false);
            }
            None => aborted = true,
            Some(true) => {}
        }
        for &w2 in &replies[..n] {
            match self.black_to_move(l, black, w2) {
                Some(false) => {
                    self.store(key, false);
                    return Some(false);
                }
                None => aborted = true,
                Some(true) => {}
            }
        }
        if aborted {
            return None;
        }
        self.store(key, true);
        Some(true)
    }

    /// Black to move: `Some(true)` if some Black move wins, `Some(false)` if none does,
    /// `None` if the budget ran out first.
    fn black_to_move(&mut self, l: &Local<'_>, black: Bitboard, white: Bitboard) -> Option<bool> {
        let key = StateKey {
            region: l.region.0,
            black: black.0,
            white: white.0,
            tag: l.tag & !1,
        };
        if let Some(r) = self.probe(&key) {
            return Some(r);
        }
        if !self.spend() {
            return None;
        }
        let geo = l.geo;
        let empty = l.region.minus(black | white);
        let candidates = if l.interior {
            empty
        } else {
            empty & geo.neighbours(l.walls | l.joined(black))
        };
        // Moves next to White stones first (captures and ataris end games soonest).
        let near_white = candidates & geo.neighbours(white);
        // Black's legal moves in that order, up to the first that wins at once; the memo
        // sets of the others are prefetched so that their cache misses overlap.
        let mut replies = [(Bitboard::EMPTY, Bitboard::EMPTY); MAX_REGION as usize];
        let (mut n, mut wins_at) = (0, None);
        'gather: for set in [near_white, candidates.minus(near_white)] {
            let mut moves = set;
            while let Some(p) = moves.lowest() {
                let pb = Bitboard::from_point(p);
                moves = moves.minus(pb);
                let Some((b2, w2)) = place_black(l, black, white, pb) else {
                    continue;
                };
                replies[n] = (b2, w2);
                n += 1;
                if l.won(b2, w2) {
                    wins_at = Some(n - 1);
                    break 'gather;
                }
                self.memo.prefetch(&StateKey {
                    region: l.region.0,
                    black: b2.0,
                    white: w2.0,
                    tag: l.tag | 1,
                });
            }
        }
        let mut aborted = false;
        for (i, &(b2, w2)) in replies[..n].iter().enumerate() {
            if wins_at == Some(i) {
                self.store(key, true);
                return Some(true);
            }
            match self.white_to_move(l, b2, w2) {
                Some(true) => {
                    self.store(key, true);
                    return Some(true);
                }
                None => aborted = true,
                Some(false) => {}
            }
        }
        if aborted {
            return None;
        }
        self.store(key, false);
        Some(false)
    }
}

/// Black's stone on the empty point `pb` of R: captures White chains left without an empty
/// neighbour in R; then a chain joined to the walls needs R to keep an empty point, any other
/// chain an empty neighbour in R.
#[inline]
fn place_black(
    l: &Local<'_>,
    black: Bitboard,
    white: Bitboard,
    pb: Bitboard,
) -> Option<(Bitboard, Bitboard)> {
    let geo = l.geo;
    let b2 = black | pb;
    let mut empty = l.region.minus(b2 | white);
    let mut w2 = white;
    let mut adj = geo.neighbours(pb) & white;
    while let Some(q) = adj.lowest() {
        let chain = geo.flood(Bitboard::from_point(q), white);
        adj = adj.minus(chain);
        if !l.has_liberty(chain, empty) {
            w2 = w2.minus(chain);
        }
    }
    empty |= white.minus(w2);
    let chain = geo.flood(pb, b2);
    let legal = if (geo.neighbours(chain) & l.walls).is_empty() {
        l.has_liberty(chain, empty)
    } else {
        !empty.is_empty()
    };
    legal.then_some((b2, w2))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn setup(rows: usize, cols: usize, drawing: &str) -> (Geometry, Board, PureEyes) {
        let geo = Geometry::new(rows, cols).unwrap();
        let board = Board::from_drawing(&geo, drawing).unwrap();
        board.check_invariants(&geo);
        // Every Black stone alive; T* left empty so that every region is played out.
        let eyes = PureEyes {
            alive: board.black,
            territory: Bitboard::EMPTY,
        };
        (geo, board, eyes)
    }

    #[test]
    fn lone_intruder_in_a_small_region_dies() {
        // Region: the six points of rows 1–2, columns B–D; White at D1.
        let (geo, board, eyes) = setup(4, 4, ".X.X/XXXX/X.../X..O");
        let mut s = RegionSolver::new();
        let r = s.black_wins_regions(&geo, &board, &eyes);
        assert_eq!(r, Some(geo.full().minus(board.black)));
        assert!(s.stats().games_solved >= 1);
    }

    #[test]
    fn two_eyed_white_group_lives() {
        // White's eyes C1 and C3 are enclosed by White alone: Black has no move.
        let (geo, board, eyes) = setup(6, 5, ".X.X./XXXXX/XOOOX/XO.OX/XOOOX/XO.OX");
        assert_eq!(
            RegionSolver::new().black_wins_regions(&geo, &board, &eyes),
            None
        );
    }

    #[test]
    fn white_eyes_that_touch_the_walls_are_false() {
        // B2 and D2 touch Black's walls: Black fills B2 (legal, the walls keep liberties),
        // White cannot fill D2 and Black captures there.
        let (geo, board, eyes) = setup(5, 5, ".X.X./XXXXX/XOOOX/X.O.X/XOOOX");
        assert!(
            RegionSolver::new()
                .black_wins_regions(&geo, &board, &eyes)
                .is_some()
        );
    }

    #[test]
    fn nine_point_eye_space_kills_a_centre_stone() {
        let (geo, board, eyes) = setup(5, 5, ".X.X./XXXXX/X...X/X.O.X/X...X");
        assert!(
            RegionSolver::new()
                .black_wins_regions(&geo, &board, &eyes)
                .is_some()
        );
    }

    #[test]
    fn empty_territory_regions_are_won_without_search() {
        let (geo, board, eyes) = setup(3, 3, ".X./XXX/.X.");
        let mut s = RegionSolver::new();
        assert!(s.black_wins_regions(&geo, &board, &eyes).is_some());
        assert_eq!(s.stats().nodes, 0);
        // T* regions with White stones are won too (Lemma 1's strategy captures them).
        let (geo, board, eyes) = setup(3, 4, "O.X./XXXX/.X.X");
        assert!(s.black_wins_regions(&geo, &board, &eyes).is_some());
    }

    #[test]
    fn fifteen_point_region_is_not_decided() {
        let (geo, board, eyes) = setup(5, 5, ".X.X./XXXXX/...../...../.....");
        let mut s = RegionSolver::new();
        assert_eq!(s.black_wins_regions(&geo, &board, &eyes), None);
        assert_eq!(s.stats().nodes, 0, "rejected by size, not by search");
    }

    #[test]
    fn loose_black_stones_play_in_their_region() {
        let loose = |drawing: &str| {
            let geo = Geometry::new(4, 4).unwrap();
            let board = Board::from_drawing(&geo, drawing).unwrap();
            let eyes = crate::eyes::pure_eyes(&geo, &board, games::Player::Black);
            assert!(
                !eyes.alive.is_empty() && eyes.alive != board.black,
                "{drawing}"
            );
            RegionSolver::new().black_wins_regions(&geo, &board, &eyes)
        };
        // C1 is loose (outside X*) but safe: White's D1 is in atari, and Black answers a
        // White atari on C1 by joining it to the walls. Black owns every point not Black.
        let geo = Geometry::new(4, 4).unwrap();
        let b = Board::from_drawing(&geo, ".X.X/XXXX/X.../X.XO").unwrap();
        assert_eq!(
            loose(".X.X/XXXX/X.../X.XO"),
            Some(geo.full().minus(b.black))
        );
        // C1 in atari with White to move: White captures it, the region is not decided.
        assert_eq!(loose(".X.X/XXXX/X.O./X.XO"), None);
        // No X*: nothing is decided.
        let empty = PureEyes::default();
        assert_eq!(
            RegionSolver::new().black_wins_regions(&geo, &Board::EMPTY, &empty),
            None
        );
    }

    #[test]
    fn white_capture_of_an_interior_stone_loses_the_region() {
        // 2x4 region (8 points, interior moves allowed) below a wall with two eyes.
        let (geo, board, _) = setup(4, 4, ".X.X/XXXX/..../....");
        let mut s = RegionSolver::new();
        let local = Local {
            geo: &geo,
            region: geo.full().minus(board.black),
            walls: board.black,
            interior: true,
            tag: 0,
        };
        // A Black interior stone at B1 in atari (White at A1, C1): White to move captures.
        let p = |r, c| Bitboard::from_point(geo.point(r, c));
        let black = p(0, 1);
        let white = p(0, 0) | p(0, 2);
        s.budget = u64::MAX;
        assert_eq!(s.white_to_move(&local, black, white), Some(false));
    }

    #[test]
    fn black_liberty_rule_keeps_an_empty_point() {
        // One-point region: Black may not fill it (R would keep no empty point).
        let geo = Geometry::new(1, 3).unwrap();
        let local = Local {
            geo: &geo,
            region: Bitboard::from_point(geo.point(0, 0)),
            walls: Bitboard::from_point(geo.point(0, 1)),
            interior: true,
            tag: 0,
        };
        let pb = Bitboard::from_point(geo.point(0, 0));
        assert!(place_black(&local, Bitboard::EMPTY, Bitboard::EMPTY, pb).is_none());
    }

    #[test]
    fn memo_answers_repeated_calls() {
        let (geo, board, eyes) = setup(4, 4, ".X.X/XXXX/X.../X..O");
        let mut s = RegionSolver::new();
        let first = s.black_wins_regions(&geo, &board, &eyes);
        let nodes = s.stats().nodes;
        assert_eq!(s.black_wins_regions(&geo, &board, &eyes), first);
        assert_eq!(s.stats().nodes, nodes);
        assert!(s.stats().memo_hits >= 1);
        assert!(s.stats().memo_size > 0);
    }

    #[test]
    fn memo_size_follows_the_table() {
        assert_eq!(memo_entries_for_table(1), 1 << 18);
        assert_eq!(memo_entries_for_table(16), 1 << 18);
        assert_eq!(
            memo_entries_for_table(480),
            1 << 22,
            "4x4's automatic table"
        );
        assert_eq!(memo_entries_for_table(512), 1 << 23);
        assert_eq!(memo_entries_for_table(14336), 1 << 23);
        assert_eq!(memo_entries_for_table(1 << 20), DEFAULT_MEMO_ENTRIES);
    }

    #[test]
    fn memo_words_are_zeroed_and_refusals_are_none() {
        let w = zeroed_words(1 << 16).unwrap();
        assert!(w.len() == 1 << 16 && w.iter().all(|&x| x == 0));
        // A size no layout can hold is refused without aborting.
        assert!(zeroed_words(usize::MAX / 8).is_none());
    }

    #[test]
    fn memo_agrees_with_a_hash_map() {
        // Keys drawn from a small space, so that sets fill and entries are overwritten: a
        // hit must return the value stored last for that exact key.
        let mut rng = Mix(36);
        let mut memo = Memo::new(64);
        let mut reference = std::collections::HashMap::new();
        let (mut hits, mut misses) = (0, 0);
        for _ in 0..100_000 {
            let key = StateKey {
                region: rng.below(4),
                black: rng.below(8),
                white: rng.below(8),
                tag: 5 << 16 | 5 << 8 | rng.below(2) as u32,
            };
            if rng.below(2) == 0 {
                let v = rng.below(2) == 0;
                memo.insert(&key, v);
                reference.insert((key.region, key.black, key.white, key.tag), v);
            } else {
                match memo.get(&key) {
                    Some(v) => {
                        hits += 1;
                        assert_eq!(
                            Some(&v),
                            reference.get(&(key.region, key.black, key.white, key.tag))
                        );
                    }
                    None => misses += 1,
                }
            }
        }
        assert!(hits > 1000 && misses > 1000, "{hits} hits, {misses} misses");
        assert!(memo.len <= 64 && memo.overwrites > 1000);
    }

    #[test]
    fn node_limit_leaves_the_game_undecided() {
        let (geo, board, eyes) = setup(5, 5, ".X.X./XXXXX/X...X/X.O.X/X...X");
        let mut s = RegionSolver::new().with_node_limit(3);
        assert_eq!(s.black_wins_regions(&geo, &board, &eyes), None);
        assert_eq!(s.stats().games_aborted, 1);
        // Nothing undecided was stored: a fresh call with a large budget decides.
        let mut s2 = RegionSolver::new();
        let exact = s2.black_wins_regions(&geo, &board, &eyes);
        s.node_limit = DEFAULT_NODE_LIMIT;
        assert_eq!(s.black_wins_regions(&geo, &board, &eyes), exact);
    }

    // ---- Independent brute force of the local game (no memo, array board) ----

    /// A region as explicit point lists: a naive re-implementation of the rules above.
    struct Naive {
        n: usize,
        /// Neighbours inside the region (local indices).
        adj: Vec<Vec<usize>>,
        /// Whether the point touches a wall.
        wall: Vec<bool>,
        interior: bool,
    }

    #[derive(Clone, Copy, PartialEq)]
    enum C {
        E,
        B,
        W,
    }

    impl Naive {
        fn chain(&self, s: &[C], p: usize) -> Vec<usize> {
            let mut seen = vec![false; self.n];
            let mut stack = vec![p];
            let mut out = vec![];
            seen[p] = true;
            while let Some(q) = stack.pop() {
                out.push(q);
                for &r in &self.adj[q] {
                    if !seen[r] && s[r] == s[p] {
                        seen[r] = true;
                        stack.push(r);
                    }
                }
            }
            out
        }
        fn libs(&self, s: &[C], chain: &[usize]) -> usize {
            let mut l: Vec<usize> = chain
                .iter()
                .flat_map(|&q| self.adj[q].iter().copied())
                .filter(|&r| s[r] == C::E)
                .collect();
            l.sort_unstable();
            l.dedup();
            l.len()
        }
        fn joined(&self, s: &[C], p: usize) -> bool {
            self.chain(s, p).iter().any(|&q| self.wall[q])
        }
        fn won(&self, s: &[C]) -> bool {
            (0..self.n).all(|p| match s[p] {
                C::W => false,
                C::B => self.joined(s, p),
                C::E => self.wall[p] || self.adj[p].iter().any(|&r| s[r] == C::B),
            })
        }
        /// White to move: does Black win?
        fn white(&self, s: &mut [C]) -> bool {
            if !self.black(s) {
                return false; // White passes
            }
            for p in 0..self.n {
                if s[p] != C::E {
                    continue;
                }
                s[p] = C::W;
                let captures = self.adj[p].iter().any(|&r| {
                    s[r] == C::B && !self.joined(s, r) && self.libs(s, &self.chain(s, r)) == 0
                });
                if captures {
                    s[p] = C::E;
                    return false;
                }
                let legal = self.libs(s, &self.chain(s, p)) > 0;
                let ok = !legal || self.black(s);
                s[p] = C::E;
                if !ok {
                    return false;
                }
            }
            true
        }
        /// Black to move: does some move win?
        fn black(&self, s: &mut [C]) -> bool {
            for p in 0..self.n {
                if s[p] != C::E {
                    continue;
                }
                let anchored = self.wall[p]
                    || self.adj[p]
                        .iter()
                        .any(|&r| s[r] == C::B && self.joined(s, r));
                if !anchored && !self.interior {
                    continue;
                }
                let mut t = s.to_vec();
                t[p] = C::B;
                for &r in &self.adj[p] {
                    if t[r] == C::W && self.libs(&t, &self.chain(&t, r)) == 0 {
                        for q in self.chain(&t, r) {
                            t[q] = C::E;
                        }
                    }
                }
                let legal = if self.joined(&t, p) {
                    t.contains(&C::E)
                } else {
                    self.libs(&t, &self.chain(&t, p)) > 0
                };
                if !legal {
                    continue;
                }
                if self.won(&t) || self.white(&mut t) {
                    return true;
                }
            }
            false
        }
    }

    /// A tiny deterministic generator (splitmix64).
    struct Mix(u64);
    impl Mix {
        fn next(&mut self) -> u64 {
            self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        }
        fn below(&mut self, n: u64) -> u64 {
            self.next() % n
        }
    }

    #[test]
    fn local_game_agrees_with_naive_brute_force() {
        let mut rng = Mix(2024);
        let mut checked = 0;
        let mut wins = 0;
        let mut solver = RegionSolver::new().with_node_limit(u64::MAX);
        // A memo of four entries forgets nearly everything: its answers must not change.
        let mut forgetful = RegionSolver::new()
            .with_node_limit(u64::MAX)
            .with_memo_entries(4);
        for case in 0..4000 {
            let (rows, cols) = [(3, 3), (3, 4), (4, 4), (2, 5), (4, 3)][case % 5];
            let geo = Geometry::new(rows, cols).unwrap();
            // A random connected region of 3..=7 points grown from a random seed.
            let target = 3 + rng.below(5) as u32;
            let mut region =
                Bitboard::from_point(crate::board::Point(rng.below(geo.points() as u64) as u8));
            while region.count() < target {
                let frontier = geo.neighbours(region).minus(region);
                let pts: Vec<_> = frontier.points().collect();
                region |= Bitboard::from_point(pts[rng.below(pts.len() as u64) as usize]);
            }
            let walls = geo.neighbours(region).minus(region);
            if walls.is_empty() {
                continue;
            }
            // Random White stones with liberties.
            let mut white = Bitboard::EMPTY;
            for p in region.points() {
                if rng.below(3) == 0 {
                    white |= Bitboard::from_point(p);
                }
            }
            let board = Board {
                black: walls,
                white,
            };
            let mut ok = true;
            let mut rest = white;
            while let Some(p) = rest.lowest() {
                let chain = geo.flood(Bitboard::from_point(p), white);
                rest = rest.minus(chain);
                if (geo.neighbours(chain) & region.minus(white)).is_empty() {
                    ok = false;
                }
            }
            if !ok {
                continue;
            }
            let local = Local {
                geo: &geo,
                region,
                walls,
                interior: region.count() <= INTERIOR_MAX,
                tag: (rows as u32) << 16 | (cols as u32) << 8 | 1,
            };
            let fast = local.won(Bitboard::EMPTY, white) || {
                solver.budget = u64::MAX;
                solver
                    .white_to_move(&local, Bitboard::EMPTY, white)
                    .unwrap()
            };
            let small = local.won(Bitboard::EMPTY, white) || {
                forgetful.budget = u64::MAX;
                forgetful
                    .white_to_move(&local, Bitboard::EMPTY, white)
                    .unwrap()
            };
            assert_eq!(fast, small, "a small memo changed an answer");
            let pts: Vec<_> = region.points().collect();
            let idx = |p: crate::board::Point| pts.iter().position(|&q| q == p).unwrap();
            let naive = Naive {
                n: pts.len(),
                adj: pts
                    .iter()
                    .map(|&p| {
                        (geo.neighbours(Bitboard::from_point(p)) & region)
                            .points()
                            .map(idx)
                            .collect()
                    })
                    .collect(),
                wall: pts
                    .iter()
                    .map(|&p| !(geo.neighbours(Bitboard::from_point(p)) & walls).is_empty())
                    .collect(),
                interior: pts.len() <= INTERIOR_MAX as usize,
            };
            let mut s: Vec<C> = pts
                .iter()
                .map(|&p| if white.contains(p) { C::W } else { C::E })
                .collect();
            let slow = naive.won(&s) || naive.white(&mut s);
            assert_eq!(
                fast,
                slow,
                "{rows}x{cols} region {:?} board {}",
                region,
                board.drawing(&geo)
            );
            checked += 1;
            wins += u32::from(fast);
        }
        assert!(forgetful.stats().memo_overwrites > 1000);
        eprintln!("naive brute force: {checked} regions checked, {wins} Black wins");
        assert!(checked > 1000 && wins > 100 && checked - wins > 100);
    }
}
