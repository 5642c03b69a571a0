//! The symmetries of the rectangle, as the solver numbers them.
//!
//! A symmetry is a [`games::go::Symmetry`]; the solver's back end keeps, per board, the list
//! of the rectangle's symmetries and tables indexed by the position in that list
//! ([`crate::bitboard::Geometry`]: point maps, inverses and per-symmetry Zobrist keys; the
//! table's entries store that index). The list, in this order:
//!
//! ```text
//!   0 Identity   (r, c)            4 Transpose       (c, r)
//!   1 FlipCols   (r, C-1-c)        5 Rotate90        (c, R-1-r)
//!   2 FlipRows   (R-1-r, c)        6 Rotate270       (C-1-c, r)
//!   3 Rotate180  (R-1-r, C-1-c)    7 AntiTranspose   (C-1-c, R-1-r)
//! ```
//!
//! A square board has all 8; a rectangle with both sides > 1 has 0–3; a 1×n board has the
//! identity and `FlipCols`, an n×1 board the identity and `FlipRows` (the reversal).

use games::go::{Point, Size, Symmetry};

/// The square's symmetries in the solver's order (see the module documentation).
const SQUARE: [Symmetry; 8] = [
    Symmetry::Identity,
    Symmetry::FlipCols,
    Symmetry::FlipRows,
    Symmetry::Rotate180,
    Symmetry::Transpose,
    Symmetry::Rotate90,
    Symmetry::Rotate270,
    Symmetry::AntiTranspose,
];

/// The symmetries of an R×C board in the solver's order (the module documentation); a
/// [`crate::bitboard::Geometry`] numbers them by their position here.
#[must_use]
pub fn symmetries_of(rows: usize, cols: usize) -> Vec<Symmetry> {
    if rows == cols {
        SQUARE.to_vec()
    } else if rows == 1 {
        vec![Symmetry::Identity, Symmetry::FlipCols]
    } else if cols == 1 {
        vec![Symmetry::Identity, Symmetry::FlipRows]
    } else {
        SQUARE[..4].to_vec()
    }
}

/// The image of (`r`, `c`) under `s` on an R×C board ([`Symmetry::apply`]).
///
/// # Panics
/// If `s` maps only squares and the board is not square, or the size is not a
/// `games::go` size (sides 1 to 19).
#[must_use]
pub fn apply(s: Symmetry, rows: usize, cols: usize, r: usize, c: usize) -> (usize, usize) {
    let size = Size::new(rows as u32, cols as u32).expect("a games::go size");
    let p = s.apply(size, Point::new(r as u32, c as u32));
    (p.row as usize, p.col as usize)
}

#[cfg(test)]
mod tests {
    use crate::board::{Board, Geometry};

    #[test]
    fn counts() {
        assert_eq!(Geometry::new(4, 4).unwrap().num_symmetries(), 8);
        assert_eq!(Geometry::new(3, 4).unwrap().num_symmetries(), 4);
        assert_eq!(Geometry::new(1, 7).unwrap().num_symmetries(), 2);
        assert_eq!(Geometry::new(5, 1).unwrap().num_symmetries(), 2);
    }

    #[test]
    fn the_solver_numbers_the_distinct_symmetries_of_games_go() {
        use games::go::{Size, Symmetry};
        for (r, c) in [(1, 5), (4, 1), (2, 3), (3, 3), (4, 4), (8, 8), (3, 7)] {
            let g = Geometry::new(r, c).unwrap();
            let mut ours = g.symmetries().to_vec();
            let mut theirs = Symmetry::all_for(Size::new(r as u32, c as u32).unwrap());
            assert_eq!(ours[0], Symmetry::Identity);
            ours.sort_by_key(|&s| s as u8);
            theirs.sort_by_key(|&s| s as u8);
            assert_eq!(ours, theirs, "{r}x{c}");
            for (i, &s) in g.symmetries().iter().enumerate() {
                assert_eq!(g.symmetry(i), s);
                for p in 0..g.points() {
                    let (pr, pc) = (p / c, p % c);
                    let img = s.apply(
                        Size::new(r as u32, c as u32).unwrap(),
                        games::go::Point::new(pr as u32, pc as u32),
                    );
                    let q = g.map_point(i, crate::board::Point(p as u8)).index();
                    assert_eq!((q / c, q % c), (img.row as usize, img.col as usize));
                }
            }
        }
    }

    #[test]
    fn maps_are_permutations_and_inverses() {
        for (r, c) in [
            (1, 1),
            (1, 5),
            (4, 1),
            (2, 3),
            (3, 3),
            (4, 4),
            (8, 8),
            (3, 7),
        ] {
            let g = Geometry::new(r, c).unwrap();
            for s in 0..g.num_symmetries() {
                let img: std::collections::HashSet<_> = (0..g.points())
                    .map(|p| g.map_point(s, crate::board::Point(p as u8)))
                    .collect();
                assert_eq!(img.len(), g.points());
                let inv = g.inverse(s);
                for p in 0..g.points() {
                    let p = crate::board::Point(p as u8);
                    assert_eq!(g.map_point(inv, g.map_point(s, p)), p);
                }
            }
        }
    }

    #[test]
    fn symmetry_preserves_adjacency_and_score() {
        let g = Geometry::new(3, 3).unwrap();
        let b = Board::from_drawing(&g, "XO./.X./O..").unwrap();
        for s in 0..8 {
            let m = g.map_board(s, &b);
            assert_eq!(m.area_score(&g), b.area_score(&g));
            assert_eq!(m.sym_hash(&g, 0), b.sym_hash(&g, s));
            for p in 0..9 {
                let p = crate::board::Point(p);
                let n = g.neighbours(crate::board::Bitboard::from_point(p));
                let mapped_n = g.map_bitboard(s, n);
                assert_eq!(
                    mapped_n,
                    g.neighbours(crate::board::Bitboard::from_point(g.map_point(s, p)))
                );
            }
        }
    }
}
