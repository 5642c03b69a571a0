//! Pure-eye static analysis (X*, T*) of the Sanko paper, Section 4 and Appendix A.3.
//! (Being written: see issue 4.)

use crate::board::{Bitboard, Board, Geometry};
use games::Player;

/// The pure-eye analysis of one player w: the stones of the chains of X* and the points of T*.
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

/// The pure-eye analysis of `w` on `board`.
#[must_use]
pub fn pure_eyes(geo: &Geometry, board: &Board, w: Player) -> PureEyes {
    let _ = (geo, board, w);
    PureEyes::default()
}
