//! The symmetries of the rectangle: 8 on a square, 4 on other rectangles with both sides > 1,
//! 2 on 1×n and n×1 (and 1 on 1×1). Legality, superko and scoring are invariant under them.

use super::board::Board;
use super::point::{Point, Size};

/// One of the 8 symmetries of the square, as a map on (row, col).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Symmetry {
    /// (r, c) → (r, c).
    Identity,
    /// (r, c) → (r, C−1−c): mirror left–right.
    FlipCols,
    /// (r, c) → (R−1−r, c): mirror top–bottom.
    FlipRows,
    /// (r, c) → (R−1−r, C−1−c): rotation by 180°.
    Rotate180,
    /// (r, c) → (c, r): transpose (squares only).
    Transpose,
    /// (r, c) → (C−1−c, R−1−r): anti-transpose (squares only).
    AntiTranspose,
    /// (r, c) → (c, R−1−r): rotation by 90° (squares only).
    Rotate90,
    /// (r, c) → (C−1−c, r): rotation by 270° (squares only).
    Rotate270,
}

const ALL: [Symmetry; 8] = [
    Symmetry::Identity,
    Symmetry::FlipCols,
    Symmetry::FlipRows,
    Symmetry::Rotate180,
    Symmetry::Transpose,
    Symmetry::AntiTranspose,
    Symmetry::Rotate90,
    Symmetry::Rotate270,
];

impl Symmetry {
    /// The distinct symmetries of a board of `size` (identity first): 8 on a square with side
    /// > 1, 4 on other rectangles with both sides > 1, 2 on 1×n or n×1 with n > 1, 1 on 1×1.
    #[must_use]
    pub fn all_for(size: Size) -> Vec<Symmetry> {
        let mut out: Vec<Symmetry> = Vec::new();
        let mut seen_maps: Vec<Vec<Point>> = Vec::new();
        for s in ALL {
            if !s.preserves(size) {
                continue;
            }
            let map: Vec<Point> = size.all_points().map(|p| s.apply(size, p)).collect();
            if !seen_maps.contains(&map) {
                seen_maps.push(map);
                out.push(s);
            }
        }
        out
    }

    /// Whether this symmetry maps the rectangle to itself (the square-only ones need R = C).
    #[must_use]
    pub fn preserves(self, size: Size) -> bool {
        matches!(
            self,
            Symmetry::Identity | Symmetry::FlipCols | Symmetry::FlipRows | Symmetry::Rotate180
        ) || size.rows() == size.cols()
    }

    /// The image of `p`.
    ///
    /// # Panics
    /// If the symmetry does not preserve `size` (see [`Symmetry::preserves`]).
    #[must_use]
    pub fn apply(self, size: Size, p: Point) -> Point {
        assert!(self.preserves(size), "{self:?} does not preserve {size}");
        let (r, c) = (p.row as u32, p.col as u32);
        let (rr, cc) = (size.rows() - 1, size.cols() - 1);
        let (nr, nc) = match self {
            Symmetry::Identity => (r, c),
            Symmetry::FlipCols => (r, cc - c),
            Symmetry::FlipRows => (rr - r, c),
            Symmetry::Rotate180 => (rr - r, cc - c),
            Symmetry::Transpose => (c, r),
            Symmetry::AntiTranspose => (cc - c, rr - r),
            Symmetry::Rotate90 => (c, rr - r),
            Symmetry::Rotate270 => (cc - c, r),
        };
        Point::new(nr, nc)
    }

    /// The image of a whole board.
    ///
    /// # Panics
    /// As [`Symmetry::apply`].
    #[must_use]
    pub fn apply_board(self, board: &Board) -> Board {
        let size = board.size();
        let mut out = Board::empty(size);
        for p in size.all_points() {
            out.set(self.apply(size, p), board.get(p));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_of_symmetries() {
        let n = |r, c| Symmetry::all_for(Size::new(r, c).unwrap()).len();
        assert_eq!(n(1, 1), 1);
        assert_eq!(n(1, 5), 2);
        assert_eq!(n(5, 1), 2);
        assert_eq!(n(2, 2), 8);
        assert_eq!(n(4, 4), 8);
        assert_eq!(n(3, 4), 4);
        assert_eq!(n(2, 7), 4);
    }

    #[test]
    fn symmetries_are_bijections_preserving_adjacency() {
        for (r, c) in [(3, 3), (3, 5), (1, 6), (4, 4)] {
            let size = Size::new(r, c).unwrap();
            for s in Symmetry::all_for(size) {
                let mut images: Vec<Point> = size.all_points().map(|p| s.apply(size, p)).collect();
                images.sort();
                images.dedup();
                assert_eq!(images.len(), size.points());
                for p in size.all_points() {
                    for q in size.neighbours(p) {
                        let (sp, sq) = (s.apply(size, p), s.apply(size, q));
                        assert!(size.neighbours(sp).any(|x| x == sq));
                    }
                }
            }
        }
    }
}
