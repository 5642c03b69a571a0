//! Hex knowledge in the manner of benzene: inferior-cell fill-in, virtual connections by
//! H-search (Anshelevich 2002), the must-play region and capture dominance, checked against
//! minimax.
//!
//! Everything here is **sound**: a claimed winner is the winner under optimal play, the
//! fill-in keeps the winner, and the pruned move set of a won position still holds a winning
//! move. Nothing is complete (a position the knowledge does not decide is simply searched).
//!
//! # The board
//! A [`Board`] is two bitsets (`u128`, cell `row × width + col`, so boards of up to 128 cells:
//! 11x11 and smaller) and the side to move. Black's edges are the top and bottom rows, White's
//! the left and right columns, as in [`games::hex`].
//!
//! # Inferior cells (fill-in)
//! - **Dead cells.** For a player P, the *units* around an empty cell x are its empty
//!   neighbours, the P groups it touches, and P's edges it lies on (a P group touching an edge
//!   is part of that edge's unit). x is **useless for P** when every two of its units are
//!   adjacent (an empty cell is adjacent to its neighbours, to a group it touches and to an
//!   edge whose row it lies on; two distinct groups or edges are never adjacent) — fewer than
//!   two units included. Then any P chain through x stays a chain without x, so x lies in no
//!   minimal winning set of P. A cell useless for **one** player is dead: the winner of a full
//!   board never depends on x's colour (a winning chain of P can skip x, and a winning chain of
//!   the other player with x of P's colour avoids x), so the game on the board with x filled by
//!   either colour has the same value (Björnsson, Hayward et al., dead cells). x is filled with
//!   the colour of the player for whom it is not useless.
//! - **Captured pairs.** Two adjacent empty cells a, b are P-captured when a is dead once b is
//!   P and b is dead once a is P: P answers an intrusion into one by the other, which leaves
//!   the intruding stone dead, so both may be filled for P (Hayward et al.'s captured sets of
//!   size two; dead stays dead when stones are added, so the answer works at any time).
//!
//! Fill-in repeats both rules to a fixpoint; each step keeps the value, so the filled board
//! has the winner of the original.
//!
//! # Virtual connections (H-search)
//! For one player P the *points* are P's two edges (with the groups touching them), its other
//! groups, and the empty cells. A VC between two points is a set of empty cells (the carrier,
//! never holding its ends) within which P connects them even if the opponent moves first; an
//! SC needs P to move first (its carrier holds the key). Base: adjacent points are joined by a
//! VC with an empty carrier. AND: VCs `(x, m, A)` and `(m, y, B)` with `A ∩ B = ∅`, `x ∉ B`,
//! `y ∉ A` give a VC `(x, y, A ∪ B)` when m is a group and an SC `(x, y, A ∪ B ∪ {m})` when m
//! is empty; m is never an edge unless [`HexKnowledge::and_over_edges`] (benzene's
//! `and_over_edge`, off by default: through an edge the rule joins nearly every pair of
//! points near that edge, which multiplied an H-search's work by about 12 on 6x6 for half the
//! expansions saved). OR: SCs between the same two points whose carriers have an empty common
//! intersection give a VC with the union of the carriers (each new SC is combined with up to
//! three others, each shrinking the intersection). Each pair keeps at most
//! [`HexKnowledge::vc_cap`] VCs and [`HexKnowledge::sc_cap`] SCs, the smallest, with no
//! carrier holding another; new VCs are combined with the old until nothing new is found (or
//! [`HexKnowledge::work_cap`] combinations were tried). The edge templates follow from the
//! rules: the bridge to the edge from the second row, the ziggurat (template IIIa) from the
//! third.
//!
//! The carrier lists live in flat per-thread buffers (`LIST_MAX` slots a pair, reused from
//! one search to the next), so an H-search allocates nothing once they have grown to the
//! board; neighbourhoods are bit shifts of the `u128` board.
//!
//! # Verdicts and pruning
//! On the filled board: the mover wins with a VC or an SC between its edges; it loses when the
//! opponent has a VC between its edges. Otherwise every opponent SC between its edges must be
//! intruded (else the opponent plays its key), so the mover's moves are restricted to the
//! intersection of their carriers (**must-play**); when it is empty the mover loses. Within the
//! must-play set, a move x is **capture-dominated** by y when x is dead once the mover has
//! played y: then `board + y ≡ board + y + x ≥ board + x` for the mover (extra own stones never
//! hurt in Hex), so x is dropped if y is kept (chosen so that every dropped cell leads, through
//! its dominators, to a kept one).
//!
//! A winning move of the filled board is a winning move of the original board (the fill stays
//! valid after it), so [`Analysis::moves`] of a won position holds a winning move.
//!
//! # Use in the provers
//! [`HexKnowledge`] is a [`Prior`] whose exact value is the verdict (like
//! [`crate::HexThreats`]), and [`KnowledgeHex`] is Hex seen through the knowledge: a position
//! with a verdict is terminal, and the legal moves are [`Analysis::moves`]. Any prover runs on
//! it unchanged; [`OnHex`] lets a [`MoveOrder`] or [`Prior`] for Hex rank or estimate its
//! positions.

use crate::order::MoveOrder;
use crate::prior::Prior;
use games::hex::{Hex, HexMove, HexState};
use games::{Game, Outcome, Player};
use std::cell::RefCell;
use std::collections::{HashMap, VecDeque};

/// A set of cells, bit `row × width + col`.
pub type Cells = u128;

/// The largest board the knowledge handles (cells).
pub const MAX_CELLS: usize = 128;

/// The most groups of one player, its two edges included.
const MAX_UNITS: usize = MAX_CELLS + 2;

const fn bit(c: usize) -> Cells {
    1u128 << c
}

/// The cells above `c` (higher indices).
fn above(c: usize) -> Cells {
    (!0u128).checked_shl(c as u32 + 1).unwrap_or(0)
}

fn cells_of(mut m: Cells) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if m == 0 {
            None
        } else {
            let c = m.trailing_zeros() as usize;
            m &= m - 1;
            Some(c)
        }
    })
}

/// Why a board cannot be analysed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum KnowledgeError {
    /// More cells than a `u128` holds.
    #[error("hex knowledge handles boards of at most {MAX_CELLS} cells; {width}x{height} has {}", width * height)]
    TooLarge {
        /// Columns.
        width: usize,
        /// Rows.
        height: usize,
    },
    /// A side of one cell (an edge would meet the opposite edge).
    #[error("hex knowledge needs at least two rows and two columns; the board is {width}x{height}")]
    TooNarrow {
        /// Columns.
        width: usize,
        /// Rows.
        height: usize,
    },
}

/// Stones as bitsets and the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    /// Black stones.
    pub black: Cells,
    /// White stones.
    pub white: Cells,
    /// The player to move.
    pub to_move: Player,
}

impl Board {
    /// The stones of `p`.
    #[must_use]
    pub const fn stones(&self, p: Player) -> Cells {
        match p {
            Player::Black => self.black,
            Player::White => self.white,
        }
    }

    /// The board with a stone of `p` on `cell` (the side to move unchanged).
    #[must_use]
    pub const fn with(mut self, cell: usize, p: Player) -> Self {
        match p {
            Player::Black => self.black |= bit(cell),
            Player::White => self.white |= bit(cell),
        }
        self
    }
}

/// Which rules [`HexKnowledge::analyse`] applies (all by default; the tests check each alone).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    /// Fill dead cells.
    pub dead: bool,
    /// Fill captured pairs.
    pub captured: bool,
    /// H-search: verdicts from VCs and SCs between the edges, and the must-play set.
    pub connections: bool,
    /// Drop capture-dominated moves.
    pub dominance: bool,
}

impl Rules {
    /// Every rule.
    pub const ALL: Self = Self {
        dead: true,
        captured: true,
        connections: true,
        dominance: true,
    };
    /// No rule (only the board's own winner).
    pub const NONE: Self = Self {
        dead: false,
        captured: false,
        connections: false,
        dominance: false,
    };
}

impl Default for Rules {
    fn default() -> Self {
        Self::ALL
    }
}

/// What the knowledge says about a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Analysis {
    /// The winner under optimal play, when proven.
    pub winner: Option<Player>,
    /// The board after fill-in (same winner as the position).
    pub filled: Board,
    /// Cells filled as dead.
    pub dead: Cells,
    /// Cells filled as captured (for either player).
    pub captured: Cells,
    /// The empty cells of `filled` inside every opponent SC carrier between its edges.
    pub must_play: Cells,
    /// `must_play` without the capture-dominated cells: the moves to search. When the mover
    /// wins, one of them wins; empty when `winner` is known.
    pub moves: Cells,
}

/// The connections of one player between its two edges.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EdgeConnections {
    /// VC carriers between the edges (at most `vc_cap`).
    pub vcs: Vec<Cells>,
    /// SC carriers between the edges (at most `sc_cap`).
    pub scs: Vec<Cells>,
}

/// Hex knowledge for one board size. See the module documentation for the rules.
#[derive(Clone, Debug)]
pub struct HexKnowledge {
    width: usize,
    height: usize,
    all: Cells,
    nbr: Vec<Cells>,
    /// The cells not in the first column, and not in the last.
    not_left: Cells,
    not_right: Cells,
    /// `edges[player][0 or 1]`: the cells on each of the player's edges.
    edges: [[Cells; 2]; 2],
    /// The rules applied by [`Self::analyse`].
    pub rules: Rules,
    /// VCs kept per pair of points (default 8).
    pub vc_cap: usize,
    /// SCs kept per pair of points (default 12).
    pub sc_cap: usize,
    /// Combinations tried per H-search before it stops (default 400 000; sound either way).
    pub work_cap: usize,
    /// Whether the AND rule may join two VCs through an edge (default false, as benzene's
    /// `and_over_edge`: on 6x6 it multiplied the work of an H-search by about 12 and saved
    /// about half of the expansions; sound either way).
    pub and_over_edges: bool,
    /// A cancel flag (Ctrl-C): once raised, every H-search stops at its next combination
    /// step, as at [`Self::work_cap`] (sound either way). One analysis of a large board
    /// (11x11) takes long enough that the prover's own check, once per expansion, answered
    /// Ctrl-C only after a minute.
    pub cancel: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
}

/// One player's groups: index 0 and 1 are its edges (with the groups touching them).
/// Fixed arrays (at most one group per stone, plus the edges): no allocation per call.
struct Units {
    /// Groups, edges included.
    len: usize,
    stones: [Cells; MAX_UNITS],
    /// Empty cells adjacent to each group (for an edge, also the empty cells on its row).
    adj: [Cells; MAX_UNITS],
    /// Group index + 1 of each stone of the player, 0 elsewhere.
    of_cell: [u8; MAX_CELLS],
}

impl HexKnowledge {
    /// Knowledge for the board of `game`.
    ///
    /// # Errors
    /// [`KnowledgeError::TooLarge`] above 128 cells, [`KnowledgeError::TooNarrow`] for a side
    /// of one cell.
    pub fn new(game: &Hex) -> Result<Self, KnowledgeError> {
        let (width, height) = (game.width(), game.height());
        if width * height > MAX_CELLS {
            return Err(KnowledgeError::TooLarge { width, height });
        }
        if width < 2 || height < 2 {
            return Err(KnowledgeError::TooNarrow { width, height });
        }
        let n = width * height;
        let nbr = (0..n)
            .map(|c| {
                game.neighbours(c)
                    .iter()
                    .fold(0, |m, &x| m | bit(x as usize))
            })
            .collect();
        let mut edges = [[0; 2]; 2];
        for c in 0..n {
            let (col, row) = (c % width, c / width);
            if row == 0 {
                edges[Player::Black.index()][0] |= bit(c);
            }
            if row == height - 1 {
                edges[Player::Black.index()][1] |= bit(c);
            }
            if col == 0 {
                edges[Player::White.index()][0] |= bit(c);
            }
            if col == width - 1 {
                edges[Player::White.index()][1] |= bit(c);
            }
        }
        let all = if n == 128 { !0 } else { bit(n) - 1 };
        let k = Self {
            width,
            height,
            all,
            nbr,
            not_left: all & !edges[Player::White.index()][0],
            not_right: all & !edges[Player::White.index()][1],
            edges,
            rules: Rules::ALL,
            vc_cap: 8,
            sc_cap: 12,
            work_cap: 400_000,
            and_over_edges: false,
            cancel: None,
        };
        for c in 0..n {
            debug_assert_eq!(k.spread(bit(c)), k.nbr[c], "hex neighbours of cell {c}");
        }
        Ok(k)
    }

    /// The same knowledge with other rules.
    #[must_use]
    pub fn with_rules(mut self, rules: Rules) -> Self {
        self.rules = rules;
        self
    }

    /// Columns × rows.
    #[must_use]
    pub const fn dims(&self) -> (usize, usize) {
        (self.width, self.height)
    }

    /// Every cell.
    #[must_use]
    pub const fn all_cells(&self) -> Cells {
        self.all
    }

    /// The bitset board of a Hex state of this size.
    #[must_use]
    pub fn board(&self, game: &Hex, state: &HexState) -> Board {
        let mut b = Board {
            black: 0,
            white: 0,
            to_move: game.to_move(state),
        };
        for c in 0..self.width * self.height {
            if let Some(p) = game.stone(state, c) {
                b = b.with(c, p);
            }
        }
        b
    }

    /// The empty cells of `b`.
    #[must_use]
    pub const fn empty(&self, b: &Board) -> Cells {
        self.all & !(b.black | b.white)
    }

    /// The neighbours of the cells of `m` (cells of `m` included only when adjacent to
    /// another), by shifts: `c ± 1` within the row, `c ± width`, `c − width + 1` and
    /// `c + width − 1` (the rule of [`games::hex`]; checked against its neighbour lists).
    fn spread(&self, m: Cells) -> Cells {
        let w = self.width as u32;
        let (nl, nr) = (self.not_left, self.not_right);
        (((m << 1) & nl)
            | ((m >> 1) & nr)
            | (m << w)
            | (m >> w)
            | ((m >> (w - 1)) & nl)
            | ((m << (w - 1)) & nr))
            & self.all
    }

    fn flood(&self, seed: Cells, within: Cells) -> Cells {
        let mut cur = seed;
        loop {
            let next = cur | (self.spread(cur) & within);
            if next == cur {
                return cur;
            }
            cur = next;
        }
    }

    /// The player whose stones join its edges on `b`, if any.
    #[must_use]
    pub fn winner(&self, b: &Board) -> Option<Player> {
        [Player::Black, Player::White].into_iter().find(|&p| {
            let own = b.stones(p);
            let [e0, e1] = self.edges[p.index()];
            self.flood(own & e0, own) & e1 != 0
        })
    }

    fn units(&self, b: &Board, p: Player) -> Units {
        let own = b.stones(p);
        let empty = self.empty(b);
        let [e0, e1] = self.edges[p.index()];
        let mut u = Units {
            len: 2,
            stones: [0; MAX_UNITS],
            adj: [0; MAX_UNITS],
            of_cell: [0; MAX_CELLS],
        };
        (u.adj[0], u.adj[1]) = (e0 & empty, e1 & empty);
        let mut rest = own;
        while rest != 0 {
            let g = self.flood(bit(rest.trailing_zeros() as usize), own);
            rest &= !g;
            let around = self.spread(g) & empty;
            let (t0, t1) = (g & e0 != 0, g & e1 != 0);
            let id = match (t0, t1) {
                (true, _) => 0,
                (false, true) => 1,
                (false, false) => {
                    u.len += 1;
                    u.len - 1
                }
            };
            u.stones[id] |= g;
            u.adj[id] |= around;
            if t0 && t1 {
                u.stones[1] |= g;
                u.adj[1] |= around;
            }
            for c in cells_of(g) {
                u.of_cell[c] = id as u8 + 1;
            }
        }
        u
    }

    /// Whether empty `x` is useless for `p` (every two of its units adjacent).
    fn useless(&self, b: &Board, p: Player, u: &Units, x: usize) -> bool {
        let empty = self.empty(b);
        let own = b.stones(p);
        // (self, adj) masks of the units.
        let mut units: [(Cells, Cells); 8] = [(0, 0); 8];
        let mut k = 0;
        let mut groups: u128 = 0;
        for (e, &edge) in self.edges[p.index()].iter().enumerate() {
            if edge & bit(x) != 0 && groups & bit(e) == 0 {
                groups |= bit(e);
                units[k] = (u.stones[e], u.adj[e]);
                k += 1;
            }
        }
        for n in cells_of(self.nbr[x]) {
            if empty & bit(n) != 0 {
                units[k] = (bit(n), self.nbr[n]);
                k += 1;
            } else if own & bit(n) != 0 {
                let id = u.of_cell[n] as usize - 1;
                if groups & bit(id) == 0 {
                    groups |= bit(id);
                    units[k] = (u.stones[id], u.adj[id]);
                    k += 1;
                }
            }
        }
        // A unit adjacent only through x does not count: `adj` of a cell holds x, but x is no
        // unit's `self`, so the test below never passes through x.
        for i in 0..k {
            for j in i + 1..k {
                let (si, ai) = units[i];
                let (sj, aj) = units[j];
                if si & aj == 0 && sj & ai == 0 {
                    return false;
                }
            }
        }
        true
    }

    /// Whether empty `x` is useless for `p`: the test of `useless`, with only the units
    /// around `x` built (flood fills from its neighbours and edges, not every group).
    fn useless_near(&self, b: &Board, p: Player, x: usize) -> bool {
        let empty = self.empty(b);
        let own = b.stones(p);
        let rows = self.edges[p.index()];
        let edge_unit = |e: usize| {
            let stones = self.flood(own & rows[e], own);
            (stones, (rows[e] & empty) | (self.spread(stones) & empty))
        };
        let mut units: [(Cells, Cells); 8] = [(0, 0); 8];
        let mut k = 0;
        let mut edges_in = [false; 2];
        let mut covered: Cells = 0;
        for e in 0..2 {
            if rows[e] & bit(x) != 0 {
                edges_in[e] = true;
                units[k] = edge_unit(e);
                k += 1;
            }
        }
        for n in cells_of(self.nbr[x]) {
            if empty & bit(n) != 0 {
                units[k] = (bit(n), self.nbr[n]);
                k += 1;
            } else if own & bit(n) != 0 && covered & bit(n) == 0 {
                let g = self.flood(bit(n), own);
                covered |= g;
                let e = if g & rows[0] != 0 {
                    Some(0)
                } else if g & rows[1] != 0 {
                    Some(1)
                } else {
                    None
                };
                match e {
                    Some(e) if edges_in[e] => continue,
                    Some(e) => {
                        edges_in[e] = true;
                        units[k] = edge_unit(e);
                    }
                    None => units[k] = (g, self.spread(g) & empty),
                }
                k += 1;
            }
        }
        for i in 0..k {
            for j in i + 1..k {
                let (si, ai) = units[i];
                let (sj, aj) = units[j];
                if si & aj == 0 && sj & ai == 0 {
                    return false;
                }
            }
        }
        true
    }

    /// Whether the empty cell `x` is dead on `b` (useless for one of the players).
    #[must_use]
    pub fn is_dead(&self, b: &Board, x: usize) -> bool {
        [Player::Black, Player::White]
            .into_iter()
            .any(|p| self.useless_near(b, p, x))
    }

    /// The dead cells of `b` (by the rule above, before any filling).
    #[must_use]
    pub fn dead_cells(&self, b: &Board) -> Cells {
        let ub = self.units(b, Player::Black);
        let uw = self.units(b, Player::White);
        cells_of(self.empty(b))
            .filter(|&x| {
                self.useless(b, Player::Black, &ub, x) || self.useless(b, Player::White, &uw, x)
            })
            .fold(0, |m, x| m | bit(x))
    }

    /// Whether the adjacent empty cells `a` and `c` are captured by `p` on `b`.
    #[must_use]
    pub fn is_captured_pair(&self, b: &Board, p: Player, a: usize, c: usize) -> bool {
        self.nbr[a] & bit(c) != 0
            && self.empty(b) & bit(a) != 0
            && self.empty(b) & bit(c) != 0
            && self.is_dead(&b.with(c, p), a)
            && self.is_dead(&b.with(a, p), c)
    }

    /// Fill-in to a fixpoint: `(filled board, dead cells filled, captured cells filled)`.
    /// Stops early when the filled board has a winner.
    #[must_use]
    pub fn fill(&self, b: &Board) -> (Board, Cells, Cells) {
        let (mut b, mut dead, mut captured) = (*b, 0, 0);
        'fix: loop {
            if self.winner(&b).is_some() {
                break;
            }
            let empty = self.empty(&b);
            if self.rules.dead {
                let ub = self.units(&b, Player::Black);
                let uw = self.units(&b, Player::White);
                for x in cells_of(empty) {
                    for (p, u) in [(Player::Black, &ub), (Player::White, &uw)] {
                        if self.useless(&b, p, u, x) {
                            b = b.with(x, p.opponent());
                            dead |= bit(x);
                            continue 'fix;
                        }
                    }
                }
            }
            if self.rules.captured {
                for a in cells_of(empty) {
                    for c in cells_of(self.nbr[a] & empty & above(a)) {
                        for p in [Player::Black, Player::White] {
                            if self.is_captured_pair(&b, p, a, c) {
                                b = b.with(a, p).with(c, p);
                                captured |= bit(a) | bit(c);
                                continue 'fix;
                            }
                        }
                    }
                }
            }
            break;
        }
        (b, dead, captured)
    }

    /// H-search for `p` on `b` (no fill-in) to its fixpoint: the VCs and SCs between `p`'s
    /// edges.
    #[must_use]
    pub fn edge_connections(&self, b: &Board, p: Player) -> EdgeConnections {
        HSearch::run(self, b, p, Stop::Never)
    }

    /// The knowledge about `state` (a position of `game`, whose size this was built for).
    #[must_use]
    pub fn analyse(&self, game: &Hex, state: &HexState) -> Analysis {
        self.analyse_board(&self.board(game, state))
    }

    /// Whether [`Self::cancel`] is raised.
    fn cancelled(&self) -> bool {
        self.cancel
            .as_ref()
            .is_some_and(|c| c.load(std::sync::atomic::Ordering::Relaxed))
    }

    /// The knowledge about a bitset board (none once [`Self::cancel`] is raised: every empty
    /// cell is a move).
    #[must_use]
    pub fn analyse_board(&self, b: &Board) -> Analysis {
        let mover = b.to_move;
        let mut a = Analysis {
            winner: self.winner(b),
            filled: *b,
            dead: 0,
            captured: 0,
            must_play: 0,
            moves: 0,
        };
        if a.winner.is_some() {
            return a;
        }
        if self.cancelled() {
            // No knowledge (every empty cell a move): sound, and immediate.
            a.must_play = self.empty(b);
            a.moves = a.must_play;
            return a;
        }
        (a.filled, a.dead, a.captured) = self.fill(b);
        let f = a.filled;
        a.winner = self.winner(&f);
        let empty = self.empty(&f);
        if a.winner.is_none() && empty == 0 {
            // Cannot happen (a full board has a winner); kept for safety.
            a.winner = self.winner(&f);
        }
        if a.winner.is_some() {
            return a;
        }
        a.must_play = empty;
        if self.rules.connections {
            let mine = HSearch::run(self, &f, mover, Stop::AnyConnection);
            if !mine.vcs.is_empty() || !mine.scs.is_empty() {
                a.winner = Some(mover);
                a.must_play = 0;
                return a;
            }
            let theirs = HSearch::run(self, &f, mover.opponent(), Stop::Vc);
            if !theirs.vcs.is_empty() {
                a.winner = Some(mover.opponent());
                a.must_play = 0;
                return a;
            }
            for &c in &theirs.scs {
                a.must_play &= c;
            }
            if a.must_play == 0 {
                a.winner = Some(mover.opponent());
                return a;
            }
        }
        a.moves = a.must_play;
        if self.rules.dominance {
            a.moves = self.undominated(&f, a.must_play);
        }
        a
    }

    /// A winning move for the mover of `b` when the knowledge proves the mover wins: the
    /// first empty cell (those of [`Analysis::must_play`] of the filled board first) after
    /// which the knowledge proves the opponent lost. `None` when the mover is not proven to
    /// win, or no child is proven lost (the knowledge of a child may be weaker than that of
    /// the parent, e.g. under the caps). The verdicts are sound, so a returned move wins.
    #[must_use]
    pub fn winning_move(&self, b: &Board) -> Option<usize> {
        let me = b.to_move;
        if self.winner(b).is_some() || self.analyse_board(b).winner != Some(me) {
            return None;
        }
        let wins = |c: usize| {
            let mut child = b.with(c, me);
            child.to_move = me.opponent();
            self.analyse_board(&child).winner == Some(me)
        };
        let (filled, _, _) = self.fill(b);
        let first = self.empty(&filled) & self.empty(b);
        cells_of(first)
            .chain(cells_of(self.empty(b) & !first))
            .find(|&c| wins(c))
    }

    /// `candidates` without the capture-dominated cells (for the mover of `b`), keeping for
    /// every dropped cell a chain of dominators that ends in a kept one.
    #[must_use]
    pub fn undominated(&self, b: &Board, candidates: Cells) -> Cells {
        let mover = b.to_move;
        let mut kept = candidates;
        let cand: Vec<usize> = cells_of(candidates).collect();
        // Moves near x that may make it dead: its neighbours and theirs.
        for &x in &cand {
            let near = (self.nbr[x] | self.spread(self.nbr[x])) & kept & !bit(x);
            for y in cells_of(near) {
                if self.is_dead(&b.with(y, mover), x) {
                    kept &= !bit(x);
                    break;
                }
            }
        }
        kept
    }

    /// The winner of `b` under optimal play by exhaustive search (memoised; only for small
    /// boards): the reference the tests hold the fill-in against.
    #[must_use]
    pub fn solve_exhaustively(&self, b: &Board) -> Player {
        fn go(k: &HexKnowledge, b: &Board, memo: &mut HashMap<Board, Player>) -> Player {
            if let Some(w) = k.winner(b) {
                return w;
            }
            if let Some(&w) = memo.get(b) {
                return w;
            }
            let me = b.to_move;
            let mut best = me.opponent();
            for c in cells_of(k.empty(b)) {
                let mut child = b.with(c, me);
                child.to_move = me.opponent();
                if go(k, &child, memo) == me {
                    best = me;
                    break;
                }
            }
            memo.insert(*b, best);
            best
        }
        go(self, b, &mut HashMap::new())
    }
}

impl Prior<Hex> for HexKnowledge {
    fn estimate(&self, _: &Hex, _: &HexState, _: &mut Vec<HexMove>) -> (vocab::Pn, vocab::Pn) {
        (vocab::Pn::ONE, vocab::Pn::ONE)
    }

    fn exact(&self, game: &Hex, state: &HexState) -> Option<bool> {
        self.analyse(game, state)
            .winner
            .map(|w| w == game.to_move(state))
    }
}

/// The most SCs the OR rule combines.
const OR_DEPTH: usize = 4;

/// The most carriers one list of H-search holds: [`HexKnowledge::vc_cap`] and
/// [`HexKnowledge::sc_cap`] are clamped to it.
pub const LIST_MAX: usize = 16;

/// When an H-search may stop before its fixpoint.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stop {
    /// Never (every connection between the edges is wanted).
    Never,
    /// At the first VC between the edges.
    Vc,
    /// At the first VC or SC between the edges.
    AnyConnection,
}

/// The reused buffers of H-search (one set per thread, so that a search allocates nothing
/// once they have grown to the board).
///
/// Point pair `(x, y)`, `x < y`, has the index `x × np + y`; its VC carriers are
/// `vc[index × LIST_MAX ..][.. vc_len[index]]`, its SC carriers likewise in `sc`.
#[derive(Default)]
struct Buffers {
    /// The bit of each point's empty cell (0 for a group or an edge).
    mask: Vec<Cells>,
    vc: Vec<Cells>,
    vc_len: Vec<u8>,
    sc: Vec<Cells>,
    sc_len: Vec<u8>,
    /// Points joined to each point by at least one VC.
    vc_nbrs: Vec<Vec<u16>>,
    /// New VCs not yet combined by the AND rule.
    queue: VecDeque<(u16, u16, Cells)>,
    /// Unions found by one OR step.
    found: Vec<Cells>,
}

thread_local! {
    static BUFFERS: RefCell<Buffers> = RefCell::default();
}

/// H-search state for one player.
struct HSearch<'a> {
    np: usize,
    vc_cap: usize,
    sc_cap: usize,
    work_cap: usize,
    over_edges: bool,
    buf: &'a mut Buffers,
    work: usize,
    done: bool,
    stop: Stop,
    cancel: Option<&'a std::sync::atomic::AtomicBool>,
}

/// Inserts `c` into the list `slots[..*len]` of minimal carriers of at most `cap`; false when
/// an existing carrier is a subset of it or the list is full of carriers no larger.
fn insert(slots: &mut [Cells], len: &mut u8, c: Cells, cap: usize) -> bool {
    let n = usize::from(*len);
    if slots[..n].iter().any(|&e| e & !c == 0) {
        return false;
    }
    // Drop the carriers holding `c` (keeping the order of the others).
    let mut j = 0;
    for i in 0..n {
        let e = slots[i];
        if c & !e != 0 {
            slots[j] = e;
            j += 1;
        }
    }
    if j >= cap {
        // The largest carrier (the last of the largest).
        let mut big = 0;
        for i in 1..j {
            if slots[i].count_ones() >= slots[big].count_ones() {
                big = i;
            }
        }
        if slots[big].count_ones() <= c.count_ones() {
            *len = j as u8;
            return false;
        }
        slots[big] = slots[j - 1];
        j -= 1;
    }
    slots[j] = c;
    *len = (j + 1) as u8;
    true
}

impl HSearch<'_> {
    fn run(k: &HexKnowledge, b: &Board, p: Player, stop: Stop) -> EdgeConnections {
        BUFFERS.with(|cell| {
            let mut buf = cell.borrow_mut();
            HSearch::run_in(k, b, p, stop, &mut buf)
        })
    }

    fn run_in(
        k: &HexKnowledge,
        b: &Board,
        p: Player,
        stop: Stop,
        buf: &mut Buffers,
    ) -> EdgeConnections {
        let u = k.units(b, p);
        let empty = k.empty(b);
        let groups = u.len;
        let np = groups + empty.count_ones() as usize;
        let mut point_of_cell = [usize::MAX; MAX_CELLS];
        for (i, c) in cells_of(empty).enumerate() {
            point_of_cell[c] = groups + i;
        }
        buf.mask.clear();
        buf.mask.resize(groups, 0);
        buf.mask.extend(cells_of(empty).map(bit));
        buf.vc_len.clear();
        buf.vc_len.resize(np * np, 0);
        buf.sc_len.clear();
        buf.sc_len.resize(np * np, 0);
        if buf.vc.len() < np * np * LIST_MAX {
            buf.vc.resize(np * np * LIST_MAX, 0);
            buf.sc.resize(np * np * LIST_MAX, 0);
        }
        if buf.vc_nbrs.len() < np {
            buf.vc_nbrs.resize_with(np, Vec::new);
        }
        for n in &mut buf.vc_nbrs[..np] {
            n.clear();
        }
        buf.queue.clear();
        let mut h = HSearch {
            np,
            vc_cap: k.vc_cap.clamp(1, LIST_MAX),
            sc_cap: k.sc_cap.clamp(1, LIST_MAX),
            work_cap: k.work_cap,
            over_edges: k.and_over_edges,
            cancel: k.cancel.as_deref(),
            buf,
            work: 0,
            done: false,
            stop,
        };
        if u.stones[0] & u.stones[1] != 0 {
            // Already joined (not reached by `analyse`, which checks the winner first).
            h.add_vc(0, 1, 0);
        }
        for (g, &adj) in u.adj[..u.len].iter().enumerate() {
            for c in cells_of(adj) {
                h.add_vc(g, point_of_cell[c], 0);
            }
        }
        for c in cells_of(empty) {
            for d in cells_of(k.nbr[c] & empty & above(c)) {
                h.add_vc(point_of_cell[c], point_of_cell[d], 0);
            }
        }
        while let Some((x, y, a)) = h.buf.queue.pop_front() {
            if h.done
                || h.work > h.work_cap
                || h.cancel
                    .is_some_and(|c| c.load(std::sync::atomic::Ordering::Relaxed))
            {
                break;
            }
            let (x, y) = (usize::from(x), usize::from(y));
            if !h.vcs(h.idx(x, y)).contains(&a) {
                continue; // replaced by a smaller one meanwhile
            }
            h.and_rule(x, y, a);
            h.and_rule(y, x, a);
        }
        let e = h.idx(0, 1);
        EdgeConnections {
            vcs: h.vcs(e).to_vec(),
            scs: h.scs(e).to_vec(),
        }
    }

    fn idx(&self, x: usize, y: usize) -> usize {
        if x < y {
            x * self.np + y
        } else {
            y * self.np + x
        }
    }

    fn vcs(&self, i: usize) -> &[Cells] {
        &self.buf.vc[i * LIST_MAX..][..usize::from(self.buf.vc_len[i])]
    }

    fn scs(&self, i: usize) -> &[Cells] {
        &self.buf.sc[i * LIST_MAX..][..usize::from(self.buf.sc_len[i])]
    }

    /// The new VC `(other, mid, a)` combined with every VC `(mid, y, b)`.
    fn and_rule(&mut self, other: usize, mid: usize, a: Cells) {
        if mid < 2 && !self.over_edges {
            return;
        }
        let om = self.buf.mask[other];
        let mid_mask = self.buf.mask[mid];
        for i in 0..self.buf.vc_nbrs[mid].len() {
            let y = usize::from(self.buf.vc_nbrs[mid][i]);
            if y == other {
                continue;
            }
            let ym = self.buf.mask[y];
            if a & ym != 0 {
                continue;
            }
            // The list (mid, y) does not change below: only lists of `other` do.
            let p = self.idx(mid, y);
            let n = usize::from(self.buf.vc_len[p]);
            for j in 0..n {
                let bc = self.buf.vc[p * LIST_MAX + j];
                self.work += 1;
                if a & bc != 0 || bc & om != 0 {
                    continue;
                }
                if mid_mask == 0 {
                    self.add_vc(other, y, a | bc);
                } else {
                    self.add_sc(other, y, a | bc | mid_mask);
                }
                if self.done {
                    return;
                }
            }
        }
    }

    fn add_vc(&mut self, x: usize, y: usize, c: Cells) {
        let i = self.idx(x, y);
        let was_empty = self.buf.vc_len[i] == 0;
        let slots = &mut self.buf.vc[i * LIST_MAX..][..LIST_MAX];
        if !insert(slots, &mut self.buf.vc_len[i], c, self.vc_cap) {
            return;
        }
        if was_empty {
            self.buf.vc_nbrs[x].push(y as u16);
            self.buf.vc_nbrs[y].push(x as u16);
        }
        // SCs holding a VC are dropped.
        let n = usize::from(self.buf.sc_len[i]);
        let slots = &mut self.buf.sc[i * LIST_MAX..][..LIST_MAX];
        let mut j = 0;
        for k in 0..n {
            let s = slots[k];
            if c & !s != 0 {
                slots[j] = s;
                j += 1;
            }
        }
        self.buf.sc_len[i] = j as u8;
        if i == self.idx(0, 1) && self.stop != Stop::Never {
            self.done = true;
        }
        self.buf.queue.push_back((x as u16, y as u16, c));
    }

    fn add_sc(&mut self, x: usize, y: usize, c: Cells) {
        let i = self.idx(x, y);
        if self.vcs(i).iter().any(|&v| v & !c == 0) {
            return;
        }
        let slots = &mut self.buf.sc[i * LIST_MAX..][..LIST_MAX];
        if !insert(slots, &mut self.buf.sc_len[i], c, self.sc_cap) {
            return;
        }
        if i == self.idx(0, 1) && self.stop == Stop::AnyConnection {
            self.done = true;
            return;
        }
        // OR rule: sets of SCs holding the new one whose carriers have an empty common
        // intersection, each SC taken only when it shrinks the intersection (at most
        // `OR_DEPTH` of them, smallest carriers first); every union found is a VC.
        let mut others: [Cells; LIST_MAX] = [0; LIST_MAX];
        let mut m = 0;
        for &s in self.scs(i) {
            if s != c {
                // Insertion sort by size, stable.
                let mut j = m;
                while j > 0 && others[j - 1].count_ones() > s.count_ones() {
                    others[j] = others[j - 1];
                    j -= 1;
                }
                others[j] = s;
                m += 1;
            }
        }
        let mut found = std::mem::take(&mut self.buf.found);
        found.clear();
        Self::or_rule(&others[..m], 0, c, c, 1, &mut found, &mut self.work);
        for &u in &found {
            self.add_vc(x, y, u);
            if self.done {
                break;
            }
        }
        self.buf.found = found;
    }

    fn or_rule(
        others: &[Cells],
        from: usize,
        inter: Cells,
        union: Cells,
        depth: usize,
        found: &mut Vec<Cells>,
        work: &mut usize,
    ) {
        for (j, &s) in others.iter().enumerate().skip(from) {
            *work += 1;
            if inter & s == inter {
                continue;
            }
            let (i2, u2) = (inter & s, union | s);
            if i2 == 0 {
                found.push(u2);
            } else if depth < OR_DEPTH {
                Self::or_rule(others, j + 1, i2, u2, depth + 1, found, work);
            }
        }
    }
}

/// Hex seen through [`HexKnowledge`]: a position with a verdict is terminal (won by the
/// proven winner) and the legal moves are [`Analysis::moves`], so every prover of this crate
/// searches the pruned game unchanged. Its value is that of Hex in every position.
///
/// Analyses are cached per position (the cache is cleared past a million entries). Moves are
/// parsed as in Hex (any empty cell), so a line of play given by a user may leave the pruned
/// set; only the search is restricted.
#[derive(Debug)]
pub struct KnowledgeHex {
    /// The game.
    pub hex: Hex,
    /// The knowledge.
    pub knowledge: HexKnowledge,
    cache: RefCell<HashMap<Board, (Option<Player>, Cells)>>,
}

impl Clone for KnowledgeHex {
    fn clone(&self) -> Self {
        Self::with(self.hex.clone(), self.knowledge.clone())
    }
}

impl KnowledgeHex {
    /// `game` with all the knowledge.
    ///
    /// # Errors
    /// As [`HexKnowledge::new`].
    pub fn new(game: &Hex) -> Result<Self, KnowledgeError> {
        Ok(Self::with(game.clone(), HexKnowledge::new(game)?))
    }

    /// `game` with the given knowledge (built for its size).
    #[must_use]
    pub fn with(hex: Hex, knowledge: HexKnowledge) -> Self {
        Self {
            hex,
            knowledge,
            cache: RefCell::new(HashMap::new()),
        }
    }

    /// The proven winner and the moves to search of `state`.
    fn known(&self, state: &HexState) -> (Option<Player>, Cells) {
        let b = self.knowledge.board(&self.hex, state);
        if let Some(&k) = self.cache.borrow().get(&b) {
            return k;
        }
        let a = self.knowledge.analyse_board(&b);
        let k = (a.winner, a.moves);
        let mut cache = self.cache.borrow_mut();
        if cache.len() >= 1 << 20 {
            cache.clear();
        }
        cache.insert(b, k);
        k
    }
}

impl Game for KnowledgeHex {
    type State = HexState;
    type Move = HexMove;

    fn name(&self) -> &'static str {
        "hex"
    }

    fn initial(&self) -> HexState {
        self.hex.initial()
    }

    fn to_move(&self, state: &HexState) -> Player {
        self.hex.to_move(state)
    }

    fn legal_moves(&self, state: &HexState, out: &mut Vec<HexMove>) {
        out.clear();
        if self.outcome(state).is_some() {
            return;
        }
        let (_, moves) = self.known(state);
        out.extend(cells_of(moves).map(|c| self.hex.move_at(c)));
    }

    fn play(&self, state: &mut HexState, mv: HexMove) {
        self.hex.play(state, mv);
    }

    fn outcome(&self, state: &HexState) -> Option<Outcome> {
        self.hex
            .outcome(state)
            .or_else(|| self.known(state).0.map(Outcome::Win))
    }

    fn hash(&self, state: &HexState) -> u64 {
        self.hex.hash(state)
    }

    fn hash_from_scratch(&self, state: &HexState) -> u64 {
        self.hex.hash_from_scratch(state)
    }

    fn max_game_length(&self) -> u32 {
        self.hex.max_game_length()
    }

    fn num_move_codes(&self) -> usize {
        self.hex.num_move_codes()
    }

    fn move_code(&self, state: &HexState, mv: HexMove) -> usize {
        self.hex.move_code(state, mv)
    }

    fn parse_move(&self, state: &HexState, text: &str) -> Result<HexMove, String> {
        self.hex.parse_move(state, text)
    }

    fn render(&self, state: &HexState) -> String {
        self.hex.render(state)
    }
}

/// A Hex [`MoveOrder`] or [`Prior`] used on [`KnowledgeHex`] positions.
#[derive(Clone, Copy, Debug, Default)]
pub struct OnHex<T>(pub T);

impl<O: MoveOrder<Hex>> MoveOrder<KnowledgeHex> for OnHex<O> {
    fn order(&self, game: &KnowledgeHex, state: &HexState, moves: &mut [HexMove]) {
        self.0.order(&game.hex, state, moves);
    }

    fn widening(&self, game: &KnowledgeHex, state: &HexState, mu: f64) -> f64 {
        self.0.widening(&game.hex, state, mu)
    }
}

impl<P: Prior<Hex>> Prior<KnowledgeHex> for OnHex<P> {
    fn estimate(
        &self,
        game: &KnowledgeHex,
        state: &HexState,
        scratch: &mut Vec<HexMove>,
    ) -> (vocab::Pn, vocab::Pn) {
        self.0.estimate(&game.hex, state, scratch)
    }

    fn exact(&self, game: &KnowledgeHex, state: &HexState) -> Option<bool> {
        self.0.exact(&game.hex, state)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    /// The local test of uselessness (units around the cell only) against the one over the
    /// units of the whole board, on seeded random boards.
    #[test]
    fn useless_near_matches_useless_with_every_unit() {
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(11);
        let mut useless = 0;
        for (w, h) in [(3, 3), (5, 5), (7, 4), (4, 7), (7, 7)] {
            let k = HexKnowledge::new(&Hex::new(w, h).unwrap()).unwrap();
            for _ in 0..300 {
                let mut b = Board {
                    black: 0,
                    white: 0,
                    to_move: Player::Black,
                };
                for c in 0..w * h {
                    match rng.random_range(0..5) {
                        0 => b.black |= bit(c),
                        1 => b.white |= bit(c),
                        _ => {}
                    }
                }
                for p in [Player::Black, Player::White] {
                    let u = k.units(&b, p);
                    for x in cells_of(k.empty(&b)) {
                        let slow = k.useless(&b, p, &u, x);
                        assert_eq!(k.useless_near(&b, p, x), slow, "{w}x{h} {b:?} {p:?} {x}");
                        useless += usize::from(slow);
                    }
                }
            }
        }
        assert!(useless > 1000, "{useless}");
    }
}
