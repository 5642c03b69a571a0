//! Pure-eye static analysis (X*, T*): the static leaves of the search under positional superko.
//!
//! Implements Section 4 ("Static Knowledge under Superko") of the Sanko paper, *Go under
//! positional superko*, with Lemma 1 and its proof in Appendix A.3.
//!
//! # Definitions
//! Let w be a player and o the opponent.
//! - A **chain** is a maximal connected set of w stones; a **region** is a maximal connected
//!   set of non-w points (empty points and o stones). The **border** of a region is the set of
//!   w chains adjacent to it.
//! - A region E is a **pure eye** of a w chain K if *every* point of E, empty or o, is adjacent
//!   to K. (Benson's classic test only asks this of the empty points; the paper's Figure 3b
//!   shows why that is not enough when w must capture intruders under superko.)
//! - **X\*** is the largest set of w chains in which each chain has two distinct pure eyes
//!   bordered only by chains of X\*.
//! - **T\*** is the union of the regions bordered only by X\* in which every point is adjacent
//!   to a stone of X\*.
//!
//! **Lemma 1.** If (C1) no w stone was ever captured on a point of T\* during the history and
//! (C2) the last move was not a pass by w with o to move, then w can enforce a final area of at
//! least |X\*| + |T\*| points (here |X\*| counts stones). The checks of (C1) and (C2) belong to
//! the caller: this module only looks at the board.
//!
//! # Algorithm
//! X\* is a greatest fixpoint (the property is monotone in the set of chains), found as in
//! Benson's algorithm: start with every w chain that has two pure eyes at all, then repeatedly
//! drop the chains with fewer than two pure eyes among the regions whose border lies inside the
//! current set, until nothing changes. Only regions contained in the neighbourhood of w's
//! stones can be pure eyes or part of T\*, so the others are discarded at once; with fewer than
//! two such regions the result is empty without looking at chains. Everything is bitboards on
//! the stack (no allocation): at most 32 chains and 32 regions fit on 64 points, since distinct
//! chains (or regions) are pairwise non-adjacent and a grid of n points has no more than
//! ⌈n/2⌉ pairwise non-adjacent points.

use crate::board::{Bitboard, Board, BoardError, Geometry};
use games::Player;
use games::go;

/// The most chains or regions a board of at most 64 points can hold (see the module docs).
const MAX_SETS: usize = 32;

/// The pure-eye analysis of one player w: the stones of the chains of X* and the points of T*.
///
/// Both sets are bitboards in the layout of [`crate::bitboard`]; they are disjoint.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PureEyes {
    /// Stones of the chains in X* (w's stones).
    pub alive: Bitboard,
    /// The points of T* (non-w points: empty or opponent stones).
    pub territory: Bitboard,
}

impl PureEyes {
    /// |X*| + |T*|: the area (points) that w can enforce under Lemma 1's conditions.
    #[must_use]
    pub const fn area(&self) -> u32 {
        self.alive.count() + self.territory.count()
    }
}

/// The pure-eye analysis (X*, T*) of `w` on `board` (paper, Section 4).
///
/// Looks at the stones only: the history conditions (C1) and (C2) of Lemma 1 are the
/// caller's. An empty result (`area() == 0`) means that no w chain is certified. The board need
/// not be legal (a region of opponent stones without liberties is analysed like any other).
/// Allocation-free; cost about one flood fill per chain and region.
///
/// # Examples
/// ```
/// use games::Player;
/// use gosolve::eyes::pure_eyes;
/// use gosolve::bitboard::{Board, Geometry};
///
/// let geo = Geometry::new(3, 3).unwrap();
/// // A Black chain with two one-point eyes owns the whole board.
/// let board = Board::from_drawing(&geo, ".X./XXX/XXX").unwrap();
/// let eyes = pure_eyes(&geo, &board, Player::Black);
/// assert_eq!((eyes.alive.count(), eyes.territory.count()), (7, 2));
/// assert_eq!(eyes.area(), 9);
/// assert_eq!(pure_eyes(&geo, &board, Player::White).area(), 0);
/// ```
#[must_use]
pub fn pure_eyes(geo: &Geometry, board: &Board, w: Player) -> PureEyes {
    let own = board.stones(w);
    let others = geo.full().minus(own);
    if own.is_empty() || others.is_empty() {
        return PureEyes::default();
    }
    // Regions inside w's neighbourhood: the only candidates for pure eyes and for T*.
    let reach = geo.neighbours(own);
    let mut regions = [Bitboard::EMPTY; MAX_SETS];
    let mut borders = [Bitboard::EMPTY; MAX_SETS];
    let mut nr = 0;
    let mut rest = others;
    while let Some(p) = rest.lowest() {
        let r = geo.flood(Bitboard::from_point(p), others);
        rest = rest.minus(r);
        if r.minus(reach).is_empty() {
            regions[nr] = r;
            nr += 1;
        }
    }
    if nr < 2 {
        return PureEyes::default();
    }
    // Chains with at least two pure eyes at all, each with the mask of its pure eyes (bit i:
    // region i).
    let mut chains = [Bitboard::EMPTY; MAX_SETS];
    let mut eyes = [0u32; MAX_SETS];
    let mut nc = 0;
    let mut alive = Bitboard::EMPTY;
    let mut rest = own;
    while let Some(p) = rest.lowest() {
        let k = geo.flood(Bitboard::from_point(p), own);
        rest = rest.minus(k);
        let adj = geo.neighbours(k);
        let mut mask = 0u32;
        for (i, r) in regions[..nr].iter().enumerate() {
            if r.minus(adj).is_empty() {
                mask |= 1 << i;
            }
        }
        if mask.count_ones() >= 2 {
            chains[nc] = k;
            eyes[nc] = mask;
            nc += 1;
            alive |= k;
        }
    }
    if nc == 0 {
        return PureEyes::default();
    }
    for (b, r) in borders[..nr].iter_mut().zip(&regions[..nr]) {
        *b = geo.neighbours(*r) & own;
    }
    // The fixpoint: drop chains with fewer than two pure eyes bordered only by `alive`.
    loop {
        let mut enclosed = 0u32;
        for (i, b) in borders[..nr].iter().enumerate() {
            if b.minus(alive).is_empty() {
                enclosed |= 1 << i;
            }
        }
        let before = nc;
        let mut j = 0;
        while j < nc {
            if (eyes[j] & enclosed).count_ones() < 2 {
                alive = alive.minus(chains[j]);
                nc -= 1;
                chains[j] = chains[nc];
                eyes[j] = eyes[nc];
            } else {
                j += 1;
            }
        }
        if nc == before {
            break;
        }
        if nc == 0 {
            return PureEyes::default();
        }
    }
    // T*: regions bordered only by X* whose every point touches X*.
    let touch = geo.neighbours(alive);
    let mut territory = Bitboard::EMPTY;
    for (r, b) in regions[..nr].iter().zip(&borders[..nr]) {
        if b.minus(alive).is_empty() && r.minus(touch).is_empty() {
            territory |= *r;
        }
    }
    PureEyes { alive, territory }
}

/// The area that `w` can enforce on a `games::go` board by its pure eyes ([`PureEyes::area`]
/// of [`pure_eyes`]), or `None` when no chain of `w` is certified.
///
/// # Errors
/// [`BoardError::UnsupportedSize`] above 64 points.
pub fn certified_area(board: &go::Board, w: Player) -> Result<Option<u32>, BoardError> {
    let geo = crate::position::reference::geometry(board.size())?;
    let eyes = pure_eyes(&geo, &crate::position::reference::board(&geo, board), w);
    Ok((!eyes.alive.is_empty()).then(|| eyes.area()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn analyse(rows: usize, cols: usize, drawing: &str, w: Player) -> (Board, PureEyes) {
        let geo = Geometry::new(rows, cols).unwrap();
        let board = Board::from_drawing(&geo, drawing).unwrap();
        (board, pure_eyes(&geo, &board, w))
    }

    #[test]
    fn two_eyed_group_gets_every_point() {
        let (board, e) = analyse(3, 3, ".X./XXX/XXX", Player::Black);
        assert_eq!(e.alive, board.black);
        assert_eq!(e.area(), 9);
        // Opponent stones inside pure eyes are territory too (4x4, White stone in an eye).
        let (board, e) = analyse(4, 4, ".X.O/XXXX/..XX/XXXX", Player::Black);
        assert_eq!(e.alive, board.black);
        assert_eq!(
            e.territory,
            board.white | board.empty(&Geometry::new(4, 4).unwrap())
        );
        assert_eq!(e.area(), 16);
    }

    #[test]
    fn one_eyed_group_gets_nothing() {
        // Eye at the top left; the rest of the board is one region that is not a pure eye
        // (the bottom right corner does not touch the chain).
        let (_, e) = analyse(3, 3, ".X./XX./...", Player::Black);
        assert_eq!(e, PureEyes::default());
        // One real eye plus a second region with an empty point away from the chain.
        let (_, e) = analyse(3, 4, ".X../XXXX/XXXX", Player::Black);
        assert_eq!(e.area(), 12, "both regions are pure eyes");
        let (_, e) = analyse(3, 4, ".X../XX../XXXX", Player::Black);
        assert_eq!(e.area(), 0, "the top right corner does not touch the chain");
    }

    #[test]
    fn impure_region_is_no_eye() {
        // The paper's Figure 3b situation on 4x4. The top-left region {a, b, c} holds the White
        // chain a-b and the empty point c:
        //
        //   a b X .
        //   c X X X
        //   X X X X
        //   X X X X
        //
        // The empty point c touches the Black chain, so the region passes Benson's classic
        // test and Black would have two "eyes". But the White stone a touches only b and c,
        // not Black: the region is not a pure eye, Black has one pure eye (top right), and
        // the analysis certifies nothing.
        let (_, e) = analyse(4, 4, "OOX./.XXX/XXXX/XXXX", Player::Black);
        assert_eq!(e, PureEyes::default());
        // With c black and a empty, the region {a, b} is pure: both points touch the chain.
        let (_, e) = analyse(4, 4, ".OX./XXXX/XXXX/XXXX", Player::Black);
        assert_eq!(e.area(), 16);
    }

    #[test]
    fn shared_eyes_fall_together() {
        // 1x5: each end stone has one eye, so it is dropped; then the eyes of the middle stone
        // are no longer bordered only by X*, and it falls too.
        let (_, e) = analyse(1, 5, "X.X.X", Player::Black);
        assert_eq!(e, PureEyes::default());
        // 2x5 with the stones joined below: one chain, two pure eyes.
        let (_, e) = analyse(2, 5, "X.X.X/XXXXX", Player::Black);
        assert_eq!(e.area(), 10);
    }

    #[test]
    fn territory_between_two_living_groups() {
        // The middle two columns are no eye of either chain, but every point touches one of
        // them and the region is bordered only by X*: it is territory.
        let (board, e) = analyse(3, 6, ".X..X./XX..XX/.X..X.", Player::Black);
        assert_eq!(e.alive, board.black);
        assert_eq!(e.area(), 18);
        // With a middle column away from both chains the whole 9-point region is not: the
        // chains and their four eyes remain.
        let (_, e) = analyse(3, 7, ".X...X./XX...XX/.X...X.", Player::Black);
        assert_eq!(e.area(), 21 - 9);
        // White's view of the same board: no White stones, nothing.
        let (_, e) = analyse(3, 7, ".X...X./XX...XX/.X...X.", Player::White);
        assert_eq!(e, PureEyes::default());
    }

    #[test]
    fn empty_and_full_boards() {
        let (_, e) = analyse(2, 2, "../..", Player::Black);
        assert_eq!(e, PureEyes::default());
        let (_, e) = analyse(2, 2, "XX/XX", Player::Black);
        assert_eq!(e, PureEyes::default());
    }
}
