//! What a question is asked about, in `games::go`'s terms.
//!
//! Callers pose a question from a [`games::go::Position`] (its board, side to move, passes
//! and the boards of its history), or from a [`Played`] position when the moves from the
//! empty board that reach it are known (a certificate then names its root by those moves).
//! The solver turns either into its back end's superko game ([`crate::bitboard::Line`], on
//! the padded bitboard); gosolve's own tests may hand it a `Line` directly.

use crate::board::Geometry;
use crate::position::{Line, reference};
use games::go;
use std::borrow::Cow;

/// The end of a superko game that a question is asked about: a [`go::Position`], a
/// [`Played`] position, or the back end's [`Line`].
pub trait Root {
    /// The back end's superko game of this root on boards of `geo`.
    ///
    /// # Panics
    /// If the root is not a position of `geo`'s size (a solver is built for one size).
    fn line(&self, geo: &Geometry) -> Cow<'_, Line>;
}

impl Root for Line {
    fn line(&self, _geo: &Geometry) -> Cow<'_, Line> {
        Cow::Borrowed(self)
    }
}

impl Root for go::Position {
    fn line(&self, geo: &Geometry) -> Cow<'_, Line> {
        Cow::Owned(
            reference::line(check_size(self, geo))
                .expect("the size fits its geometry")
                .1,
        )
    }
}

/// A position with the moves from the empty board that reach it. When the moves replay to
/// exactly the position and its history, the question's root keeps them (a certificate then
/// names the root by its moves, `start moves ...`); otherwise the root is the position alone
/// (a setup with earlier boards).
#[derive(Clone, Copy, Debug)]
pub struct Played<'a> {
    /// The position asked about.
    pub position: &'a go::Position,
    /// The moves from the empty board of its size (empty when not known).
    pub moves: &'a [go::Move],
}

impl Root for Played<'_> {
    fn line(&self, geo: &Geometry) -> Cow<'_, Line> {
        let pos = check_size(self.position, geo);
        Cow::Owned(
            reference::line_with_moves(pos, self.moves)
                .expect("the size fits its geometry")
                .1,
        )
    }
}

/// `pos`, after checking that it is a position of `geo`'s size.
fn check_size<'p>(pos: &'p go::Position, geo: &Geometry) -> &'p go::Position {
    let size = pos.size();
    assert!(
        size.rows() as usize == geo.rows() && size.cols() as usize == geo.cols(),
        "a {size} position asked of a solver for {}x{}",
        geo.rows(),
        geo.cols()
    );
    pos
}
