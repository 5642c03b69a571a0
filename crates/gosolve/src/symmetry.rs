//! The symmetries of the rectangle, on (row, column) pairs.
//!
//! The dihedral group of the square has 8 elements, numbered here
//!
//! ```text
//!   0 (r, c)            identity          4 (c, r)            transpose
//!   1 (r, C-1-c)        mirror columns    5 (c, R-1-r)        rotate
//!   2 (R-1-r, c)        mirror rows       6 (C-1-c, r)        rotate back
//!   3 (R-1-r, C-1-c)    rotate 180°       7 (C-1-c, R-1-r)    anti-transpose
//! ```
//!
//! A square board has all 8; a rectangle with both sides > 1 has 0–3; a 1×n board has 0 and 1
//! and an n×1 board 0 and 2 (the identity and the reversal). [`crate::board::Geometry`] turns
//! them into point maps and per-symmetry Zobrist tables, numbered by their position in
//! [`symmetries_of`].

/// The dihedral transforms (numbers as in the module documentation) of an R×C board.
#[must_use]
pub fn symmetries_of(rows: usize, cols: usize) -> Vec<u8> {
    if rows == cols {
        (0..8).collect()
    } else if rows == 1 {
        vec![0, 1]
    } else if cols == 1 {
        vec![0, 2]
    } else {
        vec![0, 1, 2, 3]
    }
}

/// The image of (`r`, `c`) under dihedral transform `s` on an R×C board.
///
/// # Panics
/// If `s` ≥ 8, or `s` ≥ 4 on a board that is not square.
#[must_use]
pub fn apply(s: u8, rows: usize, cols: usize, r: usize, c: usize) -> (usize, usize) {
    let (rr, cc) = (rows - 1 - r, cols - 1 - c);
    assert!(s < 4 || rows == cols, "transform {s} needs a square board");
    match s {
        0 => (r, c),
        1 => (r, cc),
        2 => (rr, c),
        3 => (rr, cc),
        4 => (c, r),
        5 => (c, rr),
        6 => (cc, r),
        7 => (cc, rr),
        _ => panic!("no dihedral transform {s}"),
    }
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
