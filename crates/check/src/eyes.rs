//! The checker's own pure-eye analysis (X*, T*) and the conditions of Lemma 1.
//!
//! Section 4 of the Sanko paper (*Go under positional superko*), proof in its Appendix A.3.
//! For a player w: a *region* is a maximal connected set of non-w points; a region E is a
//! *pure eye* of a w chain K if every point of E is adjacent to K. X* is the largest set of w
//! chains in which every chain has two pure eyes whose bordering w chains all lie in X*; T*
//! is the union of the regions bordered only by X* chains in which every point is adjacent to
//! a stone of X*.
//!
//! **Lemma 1.** If (C1) no w stone was ever captured on a point of T* during the history and
//! (C2) the last move was not a pass by w with the opponent to move, w can enforce a final
//! area of at least |X*| + |T*| points (|X*| counting stones).
//!
//! Computed here the slow, obvious way: a greatest fixpoint over explicit lists of chains and
//! regions, dropping chains until every remaining one keeps two such eyes.

use crate::rules::{Board, Color, Geometry};

/// The result of the pure-eye analysis for one player.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Analysis {
    /// The stones of the chains of X*.
    pub alive: u64,
    /// The points of T*.
    pub territory: u64,
}

impl Analysis {
    /// |X*| + |T*| in points.
    #[must_use]
    pub const fn area(&self) -> u32 {
        self.alive.count_ones() + self.territory.count_ones()
    }
}

/// The pure-eye analysis of `w` on `board` (stones only; (C1) and (C2) are the caller's).
#[must_use]
pub fn analyse(geo: &Geometry, board: &Board, w: Color) -> Analysis {
    let own = board.stones(w);
    let regions = geo.components(geo.full() & !own);
    let chains = geo.components(own);
    let chain_adj: Vec<u64> = chains.iter().map(|&k| geo.adjacent(k)).collect();
    // border[r]: the indices of the chains adjacent to region r.
    let border: Vec<Vec<usize>> = regions
        .iter()
        .map(|&r| {
            (0..chains.len())
                .filter(|&k| chain_adj[k] & r != 0)
                .collect()
        })
        .collect();
    let mut alive = vec![true; chains.len()];
    loop {
        let mut changed = false;
        for k in 0..chains.len() {
            if !alive[k] {
                continue;
            }
            let eyes = (0..regions.len())
                .filter(|&r| regions[r] & !chain_adj[k] == 0 && border[r].iter().all(|&j| alive[j]))
                .count();
            if eyes < 2 {
                alive[k] = false;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    let mut out = Analysis::default();
    for (k, &c) in chains.iter().enumerate() {
        if alive[k] {
            out.alive |= c;
        }
    }
    if out.alive == 0 {
        return Analysis::default();
    }
    let near = geo.adjacent(out.alive);
    for (r, &reg) in regions.iter().enumerate() {
        if !border[r].is_empty() && border[r].iter().all(|&j| alive[j]) && reg & !near == 0 {
            out.territory |= reg;
        }
    }
    out
}

/// Whether a final area of `area` points for `w` wins on a board of `points` points at komi
/// `komi2`/2 (half-points; Black's area minus White's must exceed the komi for Black).
#[must_use]
pub const fn area_wins(area: u32, points: usize, w: Color, komi2: i32) -> bool {
    // w's area A leaves the opponent at most n − A: Black's margin is ≥ 2A − n (w Black) or
    // ≤ n − 2A (w White). In half-points: 4A − 2n > k for Black, 2n − 4A < k for White.
    let a = area as i64;
    let n = points as i64;
    let k = komi2 as i64;
    match w {
        Color::Black => 4 * a - 2 * n > k,
        Color::White => 2 * n - 4 * a < k,
    }
}
