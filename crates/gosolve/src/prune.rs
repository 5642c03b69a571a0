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
//!
//! # The liberties of intruders are never pruned
//! T* contains the opponent's stones inside w's pure eyes, and Lemma 1 counts them for w only
//! because w can capture them; under area scoring they count for the opponent until it does.
//! The moves on their liberties are the captures that realise the territory, so they are not
//! prunable. (An earlier rule pruned all of T*. On 4x4 with Black on every point but D1 and
//! D4 and a White stone on D3, Black to move at komi 15.5, T* is {D1, D3, D4}: the tempo
//! move kept was D1, Black's own eye, and D4, the capture that wins at once, was pruned. With
//! only the pass (answered by a pass: a loss) and D1 (which puts the whole group in atari)
//! left, the pruned search had to *disprove* Black on an almost empty board at komi 15.5,
//! over 10^8 expansions, where the unpruned search wins in one.)

use crate::board::{Bitboard, Board, Geometry};
use crate::eyes::pure_eyes;
use games::Player;

/// The points where `side` may be pruned on `board`: its single-point eyes and the points of
/// its certified territory T* that are not liberties of opponent stones (T* also holds
/// opponent stones; only empty points are moves).
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
    let intruder_liberties = geo.neighbours(board.stones(side.opponent()));
    eyes | pure_eyes(geo, board, side)
        .territory
        .minus(intruder_liberties)
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

    #[test]
    fn the_liberties_of_intruders_in_the_territory_are_not_prunable() {
        // Black everywhere but D1 and D4, White on D3: T* is {D1, D3, D4}, but D4 (the
        // capture of D3) stays a move; D1, Black's own eye, is prunable.
        let geo = Geometry::new(4, 4).unwrap();
        let b = Board::from_drawing(&geo, "XXX./XXXO/XXXX/XXX.").unwrap();
        let t = pure_eyes(&geo, &b, Player::Black).territory;
        let pt = |s: &str| geo.parse_move(s).unwrap().point().unwrap();
        assert!(t.contains(pt("D4")) && t.contains(pt("D1")) && t.contains(pt("D3")));
        let p = prunable_points(&geo, &b, Player::Black);
        assert!(p.contains(pt("D1")));
        assert!(!p.contains(pt("D4")));
    }
}
