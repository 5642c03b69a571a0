//! Move ordering for Hex without neural networks: circuit resistance (Anshelevich 2002;
//! the ordering of benzene's focused df-pn, Henderson 2010).
//!
//! For each player the board is an electric circuit: an empty cell has resistance 1, a cell
//! of the player's own colour `0.01`, an opponent's stone is cut out; adjacent cells are joined
//! by a resistor `r(a) + r(b)`, and the two edges the player must join are the terminals,
//! each joined to its edge cells by `r(cell)`. With 1 volt across the terminals, Kirchhoff's
//! equations (a dense linear system, one unknown per cell) give every cell's potential; the
//! current through a cell is half the sum of the currents on its resistors. A cell's score is
//! its share of Black's total current plus its share of White's: cells that matter to both
//! connections come first. Ties go to the cell nearer the centre.

use crate::order::MoveOrder;
use crate::prior::Prior;
use games::hex::{Hex, HexMove, HexState};
use games::{Game, Player};

const OWN: f64 = 0.01;
/// A tiny conductance to ground that keeps cells cut off from both terminals solvable.
const LEAK: f64 = 1e-9;

/// Ranks Hex moves by the current they carry in both players' circuits.
#[derive(Clone, Copy, Debug, Default)]
pub struct ResistanceOrder;

impl MoveOrder<Hex> for ResistanceOrder {
    fn order(&self, game: &Hex, state: &HexState, moves: &mut [HexMove]) {
        let scores = cell_scores(game, state);
        let (w, h) = (game.width() as f64, game.height() as f64);
        let centre = |m: &HexMove| {
            let (x, y) = (
                f64::from(m.col) - (w - 1.0) / 2.0,
                f64::from(m.row) - (h - 1.0) / 2.0,
            );
            x * x + y * y + x * y
        };
        moves.sort_by(|a, b| {
            let (sa, sb) = (scores[game.cell_index(*a)], scores[game.cell_index(*b)]);
            sb.total_cmp(&sa).then(centre(a).total_cmp(&centre(b)))
        });
    }
}

/// Hex knowledge for new nodes (a [`Prior`]), all of it sound:
///
/// - the mover wins if it has a winning cell, or a **bridge chain** with at most one one-cell
///   link (it plays that cell first);
/// - the mover loses if the opponent has a bridge chain, or two winning cells while the mover
///   has none (one stone blocks at most one of them, and a stone elsewhere cuts no chain).
///
/// A bridge chain of player P joins P's two edges through P's groups, each link either direct
/// (a group touching an edge), or a **bridge**: two empty cells each adjacent to both ends (an
/// edge counts as adjacent to its row of cells), the carriers of all links pairwise disjoint.
/// Whenever the opponent plays in a carrier, P answers in the other cell of that carrier, so
/// the chain holds whoever moves: a virtual connection made of bridges and second-row edge
/// templates (Anshelevich 2002). The search is a depth-first walk over the groups, greedy in
/// the carrier cells it takes and capped at [`CHAIN_STEPS`] steps, so it may miss a chain but
/// never claims a false one. Boards of more than 128 cells get only the winning-cell rules.
/// Other nodes start at (1, 1).
#[derive(Clone, Copy, Debug, Default)]
pub struct HexThreats;

impl Prior<Hex> for HexThreats {
    fn estimate(&self, _: &Hex, _: &HexState, _: &mut Vec<HexMove>) -> (vocab::Pn, vocab::Pn) {
        (vocab::Pn::ONE, vocab::Pn::ONE)
    }

    fn exact(&self, game: &Hex, state: &HexState) -> Option<bool> {
        let me = game.to_move(state);
        let opp = me.opponent();
        if game.winning_cells(state, me, 1) > 0 || bridge_chain(game, state, me, true) {
            Some(true)
        } else if game.winning_cells(state, opp, 2) >= 2 || bridge_chain(game, state, opp, false) {
            Some(false)
        } else {
            None
        }
    }
}

/// The most steps (links tried) of one bridge-chain search.
pub const CHAIN_STEPS: usize = 4096;

/// Whether `p` has a bridge chain between its edges (see [`HexThreats`]); with `semi`, one
/// link may be a single empty cell (for the player to move, who plays it first). Sound but
/// not complete; `false` on boards of more than 128 cells or with more than 62 groups of `p`.
#[must_use]
pub fn bridge_chain(game: &Hex, state: &HexState, p: Player, semi: bool) -> bool {
    if game.cells() > 128 || game.outcome(state).is_some() {
        return false;
    }
    SCRATCH.with(|s| s.borrow_mut().chain(game, state, p, semi))
}

thread_local! {
    /// Reused buffers of [`bridge_chain`] (it runs for most new nodes: no allocation there).
    static SCRATCH: std::cell::RefCell<ChainScratch> = std::cell::RefCell::default();
}

/// The link graph of one player: node 0 is the source edge, 1 the sink edge, then one node
/// per group of stones.
#[derive(Default)]
struct ChainScratch {
    /// Group node of each cell (`NO_GROUP` for cells without a stone of the player).
    group: Vec<u8>,
    stack: Vec<usize>,
    /// `direct[x]`: bit y set when x and y touch.
    direct: Vec<u64>,
    /// `common[x * k + y]`: empty cells adjacent to both x and y.
    common: Vec<u128>,
    k: usize,
    steps: usize,
}

const NO_GROUP: u8 = u8::MAX;
const MAX_NODES: usize = 64;

/// Whether a cell (index `row · w + col`) lies on `p`'s first edge and on its second edge:
/// Black joins the top and bottom rows, White the left and right columns.
fn edges(p: Player, w: usize, h: usize) -> (impl Fn(usize) -> bool, impl Fn(usize) -> bool) {
    let source = move |c: usize| match p {
        Player::Black => c / w == 0,
        Player::White => c.is_multiple_of(w),
    };
    let sink = move |c: usize| match p {
        Player::Black => c / w == h - 1,
        Player::White => c % w == w - 1,
    };
    (source, sink)
}

impl ChainScratch {
    fn chain(&mut self, game: &Hex, state: &HexState, p: Player, semi: bool) -> bool {
        let (w, h, n) = (game.width(), game.height(), game.cells());
        let (on_source, on_sink) = edges(p, w, h);
        // Groups of p's stones by flood fill.
        self.group.clear();
        self.group.resize(n, NO_GROUP);
        let mut k = 2usize;
        for c in 0..n {
            if self.group[c] != NO_GROUP || game.stone(state, c) != Some(p) {
                continue;
            }
            if k >= MAX_NODES {
                return false;
            }
            self.group[c] = k as u8;
            self.stack.push(c);
            while let Some(x) = self.stack.pop() {
                for &y in game.neighbours(x) {
                    let y = usize::from(y);
                    if self.group[y] == NO_GROUP && game.stone(state, y) == Some(p) {
                        self.group[y] = k as u8;
                        self.stack.push(y);
                    }
                }
            }
            k += 1;
        }
        self.k = k;
        self.direct.clear();
        self.direct.resize(k, 0);
        self.common.clear();
        self.common.resize(k * k, 0);
        let mut ends = [0usize; 8];
        for c in 0..n {
            match game.stone(state, c) {
                Some(q) if q == p => {
                    let g = usize::from(self.group[c]);
                    for (e, touches) in [(0, on_source(c)), (1, on_sink(c))] {
                        if touches {
                            self.direct[g] |= 1 << e;
                            self.direct[e] |= 1 << g;
                        }
                    }
                }
                Some(_) => {}
                None => {
                    let mut m = 0;
                    if on_source(c) {
                        ends[m] = 0;
                        m += 1;
                    }
                    if on_sink(c) {
                        ends[m] = 1;
                        m += 1;
                    }
                    for &y in game.neighbours(c) {
                        let g = self.group[usize::from(y)];
                        if g != NO_GROUP && !ends[..m].contains(&usize::from(g)) {
                            ends[m] = usize::from(g);
                            m += 1;
                        }
                    }
                    for i in 0..m {
                        for j in i + 1..m {
                            let (x, y) = (ends[i], ends[j]);
                            self.common[x * k + y] |= 1u128 << c;
                            self.common[y * k + x] |= 1u128 << c;
                        }
                    }
                }
            }
        }
        self.steps = 0;
        self.walk(0, 1, 0, semi)
    }

    /// Depth-first walk: whether the sink is reachable from `x` without the nodes in
    /// `visited`, with carriers disjoint from `used`.
    fn walk(&mut self, x: usize, visited: u64, used: u128, semi: bool) -> bool {
        let k = self.k;
        for y in 0..k {
            if visited & (1 << y) != 0 {
                continue;
            }
            self.steps += 1;
            if self.steps > CHAIN_STEPS {
                return false;
            }
            let free = self.common[x * k + y] & !used;
            let (take, semi_left) = if self.direct[x] & (1 << y) != 0 {
                (0, semi)
            } else if free.count_ones() >= 2 {
                let a = free & free.wrapping_neg();
                let rest = free & !a;
                (a | (rest & rest.wrapping_neg()), semi)
            } else if free != 0 && semi {
                (free, false)
            } else {
                continue;
            };
            if y == 1 || self.walk(y, visited | 1 << y, used | take, semi_left) {
                return true;
            }
        }
        false
    }
}

/// Per cell, the share of Black's current plus the share of White's (0 for stones).
#[must_use]
pub fn cell_scores(game: &Hex, state: &HexState) -> Vec<f64> {
    let black = Circuit::solve(game, state, Player::Black);
    let white = Circuit::solve(game, state, Player::White);
    (0..game.cells())
        .map(|c| {
            if game.stone(state, c).is_some() {
                0.0
            } else {
                black.share(c) + white.share(c)
            }
        })
        .collect()
}

/// The resistance between `player`'s two edges (infinite when they cannot be joined).
#[must_use]
pub fn resistance(game: &Hex, state: &HexState, player: Player) -> f64 {
    let c = Circuit::solve(game, state, player);
    if c.total > 0.0 {
        1.0 / c.total
    } else {
        f64::INFINITY
    }
}

struct Circuit {
    current: Vec<f64>,
    total: f64,
}

impl Circuit {
    fn share(&self, cell: usize) -> f64 {
        if self.total > 0.0 {
            self.current[cell] / self.total
        } else {
            0.0
        }
    }

    fn solve(game: &Hex, state: &HexState, p: Player) -> Self {
        let n = game.cells();
        let (w, h) = (game.width(), game.height());
        let res = |c: usize| match game.stone(state, c) {
            None => Some(1.0),
            Some(q) if q == p => Some(OWN),
            Some(_) => None,
        };
        let (on_source, on_sink) = edges(p, w, h);
        // A x = b over all cells; opponent cells get the identity row (x = 0) and no links.
        let mut a = vec![0.0f64; n * n];
        let mut b = vec![0.0f64; n];
        for c in 0..n {
            let Some(rc) = res(c) else {
                a[c * n + c] = 1.0;
                continue;
            };
            let mut diag = LEAK;
            for &d in game.neighbours(c) {
                let d = d as usize;
                if let Some(rd) = res(d) {
                    let g = 1.0 / (rc + rd);
                    diag += g;
                    a[c * n + d] -= g;
                }
            }
            if on_source(c) {
                diag += 1.0 / rc;
                b[c] += 1.0 / rc;
            }
            if on_sink(c) {
                diag += 1.0 / rc;
            }
            a[c * n + c] = diag;
        }
        let v = gauss_banded(&mut a, &mut b, n, w);
        let mut current = vec![0.0; n];
        let mut total = 0.0;
        for c in 0..n {
            let Some(rc) = res(c) else { continue };
            let mut flow = 0.0;
            for &d in game.neighbours(c) {
                let d = d as usize;
                if let Some(rd) = res(d) {
                    flow += (v[c] - v[d]).abs() / (rc + rd);
                }
            }
            if on_source(c) {
                let i = (1.0 - v[c]) / rc;
                flow += i.abs();
                total += i;
            }
            if on_sink(c) {
                flow += v[c].abs() / rc;
            }
            current[c] = flow / 2.0;
        }
        Self {
            current,
            total: total.max(0.0),
        }
    }
}

/// Solves the symmetric, diagonally dominant system `A x = b` (row-major `n × n`) whose
/// entries vanish more than `band` off the diagonal (cells are numbered row by row, so a
/// cell's neighbours are within the board width). Gaussian elimination without pivoting keeps
/// the band, so this costs `O(n · band²)`.
fn gauss_banded(a: &mut [f64], b: &mut [f64], n: usize, band: usize) -> Vec<f64> {
    for k in 0..n {
        let pivot = a[k * n + k];
        let end = (k + band + 1).min(n);
        for i in k + 1..end {
            let f = a[i * n + k];
            if f == 0.0 {
                continue;
            }
            let f = f / pivot;
            for j in k..end {
                a[i * n + j] -= f * a[k * n + j];
            }
            b[i] -= f * b[k];
        }
    }
    let mut x = vec![0.0; n];
    for k in (0..n).rev() {
        let mut s = b[k];
        for j in k + 1..(k + band + 1).min(n) {
            s -= a[k * n + j] * x[j];
        }
        x[k] = s / a[k * n + k];
    }
    x
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::order::MoveOrder;

    fn threats(text: &str, w: usize, h: usize) -> (Option<bool>, bool, bool) {
        let g = Hex::new(w, h).unwrap();
        let s = g.setup(text).unwrap();
        (
            HexThreats.exact(&g, &s),
            bridge_chain(&g, &s, Player::Black, false),
            bridge_chain(&g, &s, Player::White, false),
        )
    }

    #[test]
    fn a_bridge_chain_of_the_player_not_to_move_loses_for_the_mover() {
        // Black joins rows 1 and 4: b2 to the top (carrier b1, c1), b2 to c3 (c2, b3), c3 to
        // the bottom (b4, c4). White to move (2 stones against 0).
        let (exact, black, white) = threats("..../.X../..X./....", 4, 4);
        assert!(black && !white);
        assert_eq!(exact, Some(false), "white to move is lost");
    }

    #[test]
    fn a_broken_carrier_is_no_chain() {
        // As above, but White holds b3 (and a1): the b2-c3 bridge has lost a carrier cell.
        let (exact, black, _) = threats("O.../.X../.OX./....", 4, 4);
        assert!(!black);
        // Black to move can still connect at c2 (a one-cell link).
        assert_eq!(exact, Some(true));
    }

    #[test]
    fn overlapping_carriers_are_no_chain() {
        // A 2x3 board: Black a2 has a1 and b1 towards the top but only a3 towards the bottom
        // (b2 is on row 2): a one-cell link, so no chain for the player not to move.
        let (_, black, _) = threats("../X./..", 2, 3);
        assert!(!black);
    }

    /// Whatever the knowledge says agrees with minimax, on random positions of small boards.
    #[test]
    fn threat_knowledge_agrees_with_minimax() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(5);
        let mut known = 0;
        for (w, h, min_stones) in [
            (3, 3, 0),
            (4, 3, 2),
            (3, 4, 2),
            (4, 4, 5),
            (5, 4, 9),
            (6, 3, 6),
            (3, 6, 6),
            (5, 5, 13),
        ] {
            let g = Hex::new(w, h).unwrap();
            for _ in 0..150 {
                let mut s = g.initial();
                let stones = rng.random_range(min_stones..g.cells());
                let mut moves = Vec::new();
                for _ in 0..stones {
                    g.legal_moves(&s, &mut moves);
                    if moves.is_empty() {
                        break;
                    }
                    g.play(&mut s, moves[rng.random_range(0..moves.len())]);
                }
                if g.outcome(&s).is_some() {
                    continue;
                }
                if let Some(wins) = HexThreats.exact(&g, &s) {
                    known += 1;
                    let v = crate::minimax::minimax(&g, &s);
                    assert_eq!(
                        v == crate::solve::Value::Win,
                        wins,
                        "{w}x{h}:\n{}",
                        g.render(&s)
                    );
                }
            }
        }
        assert!(known > 100, "{known}");
    }

    #[test]
    fn empty_board_ranks_obtuse_corners_first_acute_last_and_is_symmetric() {
        let g = Hex::new(5, 5).unwrap();
        let s = g.initial();
        let mut moves = Vec::new();
        g.legal_moves(&s, &mut moves);
        ResistanceOrder.order(&g, &s, &mut moves);
        // On the empty board most current flows along the short diagonal e1-a5.
        let first: Vec<String> = moves[..2].iter().map(ToString::to_string).collect();
        assert!(
            first.contains(&"e1".to_string()) && first.contains(&"a5".to_string()),
            "{first:?}"
        );
        let last: Vec<String> = moves[23..].iter().map(ToString::to_string).collect();
        assert!(
            last.contains(&"a1".to_string()) && last.contains(&"e5".to_string()),
            "{last:?}"
        );
        let scores = cell_scores(&g, &s);
        for c in 0..25 {
            assert!(
                (scores[c] - scores[24 - c]).abs() < 1e-6,
                "180-degree symmetry"
            );
        }
        let (rb, rw) = (
            resistance(&g, &s, Player::Black),
            resistance(&g, &s, Player::White),
        );
        assert!((rb - rw).abs() < 1e-6 * rb, "{rb} vs {rw}");
    }

    #[test]
    fn banded_solver_matches_dense_elimination() {
        // A 1-D chain (tridiagonal, band 1) with a known solution.
        let n = 6;
        let mut a = vec![0.0; n * n];
        for i in 0..n {
            a[i * n + i] = 3.0;
            if i + 1 < n {
                a[i * n + i + 1] = -1.0;
                a[(i + 1) * n + i] = -1.0;
            }
        }
        let x: Vec<f64> = (0..n).map(|i| i as f64 - 2.5).collect();
        let mut b: Vec<f64> = (0..n)
            .map(|i| (0..n).map(|j| a[i * n + j] * x[j]).sum())
            .collect();
        let got = gauss_banded(&mut a, &mut b, n, 1);
        for (g, e) in got.iter().zip(&x) {
            assert!((g - e).abs() < 1e-12);
        }
    }

    #[test]
    fn a_connected_player_has_tiny_resistance_and_a_cut_one_infinite() {
        let g = Hex::new(3, 3).unwrap();
        let s = g.setup(".X./.X./.O.").unwrap();
        assert!(resistance(&g, &s, Player::Black) > resistance(&g, &s, Player::White) * 0.0);
        let s = g.setup("OOO/.X./.X.").unwrap();
        assert!(resistance(&g, &s, Player::Black).is_infinite());
        assert!(resistance(&g, &s, Player::White) < 0.1);
    }
}
