//! Winner-side pruning (Sanko paper, Section 4 and Appendix A.5).
//!
//! A proof that w wins stays a proof if some of w's own options are removed, so the search may
//! skip, at w's nodes, the moves that fill one of w's single-point eyes (an empty point whose
//! neighbours are all w stones) or play inside w's certified territory T* (the pure-eye
//! analysis, [`crate::eyes`]). The first such legal move at each node is kept as a tempo move.
//! Under positional superko these moves are not dominated by a pass (they change the board and
//! can make a later capture legal), so pruning is sound but not complete: a win it finds is a
//! proof, a loss it finds says nothing, and the search reports such a loss as unknown. The
//! keys of a pruned search are salted so that its unsound loss claims never leave it.

use crate::board::{Bitboard, Board, Geometry};
use crate::eyes::pure_eyes;
use games::Player;

/// The points where `side` may be pruned on `board`: its single-point eyes and its certified
/// territory (empty points and opponent stones of T*; only the empty ones are moves).
#[must_use]
pub fn prunable_points(geo: &Geometry, board: &Board, side: Player) -> Bitboard {
    let own = board.stones(side);
    let mut eyes = Bitboard::EMPTY;
    for p in board.empty(geo).points() {
        let nb = geo.neighbours(Bitboard::from_point(p));
        if nb.0 & !own.0 == 0 {
            eyes |= Bitboard::from_point(p);
        }
    }
    eyes | pure_eyes(geo, board, side).territory
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn own_eyes_and_territory_are_prunable_for_their_owner_only() {
        let geo = Geometry::new(3, 3).unwrap();
        // Black's middle row with two pure eyes; A1 is a single-point eye only in a corner
        // shape, here the whole rows above and below are Black's territory.
        let b = Board::from_drawing(&geo, ".../XXX/...").unwrap();
        let p = prunable_points(&geo, &b, Player::Black);
        assert_eq!(p, b.empty(&geo));
        assert!(prunable_points(&geo, &b, Player::White).is_empty());
        // A one-point eye of a group without a second eye: no territory, but the eye point.
        let geo = Geometry::new(2, 3).unwrap();
        let b = Board::from_drawing(&geo, "X.X/XXX").unwrap();
        let eye = Board::from_drawing(&geo, ".X./...").unwrap().black;
        assert_eq!(prunable_points(&geo, &b, Player::Black), eye);
    }
}
