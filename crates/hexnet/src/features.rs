//! The input planes of the networks (Gao et al., Section 3.1, Table 1), from the mover's side.
//!
//! A position of an n×n board becomes a `5 × (n+2) × (n+2)` image: the board with one cell of
//! padding on every side, the padding rows holding stones of the player who connects them.
//! The image is drawn **from the side of the player to move** (the "own" player, who always
//! connects the top and bottom rows of the image): with Black to move, image `(x, y)` is cell
//! `(col x, row y)`; with White to move the board is transposed (`(x, y)` is `(col y, row x)`)
//! and the colours swapped. Transposition maps Hex's neighbourhood `{(±1, 0), (0, ±1),
//! (1, −1), (−1, 1)}` onto itself and White's edges onto the top and bottom, so the two are
//! the same game and one network serves both players.
//!
//! ```text
//!  plane 0: own stones      (padding rows y = −1 and y = n: own)
//!  plane 1: opponent stones (padding columns x = −1 and x = n: opponent; corners in neither)
//!  plane 2: empty cells
//!  plane 3: own bridges     (empty carrier cells of a bridge of two own stones or edges)
//!  plane 4: opponent bridges
//!  index = plane × (n+2)² + (y+1) × (n+2) + (x+1)
//! ```
//!
//! A bridge is two stones of one colour at one of the six offsets `(1, 1)`, `(2, −1)`,
//! `(1, −2)` and their negatives, whose two common neighbours (the carrier) are empty; a
//! padding cell counts as a stone, so the bridge of a second-row stone to its edge is marked.

use games::Game;
use games::Player;
use games::hex::{Hex, HexState};

/// Number of input planes.
pub const PLANES: usize = 5;

/// The six bridge offsets `(dx, dy)` with the two carrier offsets of each.
/// A cell offset `(dx, dy)`.
type Offset = (i32, i32);

const BRIDGES: [(Offset, [Offset; 2]); 6] = [
    ((1, 1), [(1, 0), (0, 1)]),
    ((2, -1), [(1, 0), (1, -1)]),
    ((1, -2), [(0, -1), (1, -1)]),
    ((-1, -1), [(-1, 0), (0, -1)]),
    ((-2, 1), [(-1, 0), (-1, 1)]),
    ((-1, 2), [(0, 1), (-1, 1)]),
];

/// The image cell `(x, y)` (0-based, without padding) of a board cell for the mover, and back:
/// the transposition is its own inverse.
#[must_use]
pub const fn to_image(cell: usize, n: usize, mover: Player) -> usize {
    let (c, r) = (cell % n, cell / n);
    match mover {
        Player::Black => r * n + c,
        Player::White => c * n + r,
    }
}

/// Encodes `state` (an n×n board) from its mover's side into `out` (`PLANES × (n+2)²`
/// floats, overwritten).
///
/// # Panics
/// If the board is not square or `out` has the wrong length (a broken caller).
pub fn encode(game: &Hex, state: &HexState, out: &mut [f32]) {
    let n = game.width();
    assert_eq!(n, game.height(), "hexnet boards are square");
    let s = n + 2;
    assert_eq!(out.len(), PLANES * s * s, "plane buffer size");
    out.fill(0.0);
    let mover = game.to_move(state);
    // colour[y][x] on the padded image: 1 own, 2 opponent, 0 empty, 3 corner.
    let mut colour = vec![0u8; s * s];
    for y in 0..s {
        for x in 0..s {
            let edge_row = y == 0 || y == s - 1;
            let edge_col = x == 0 || x == s - 1;
            colour[y * s + x] = match (edge_row, edge_col) {
                (true, true) => 3,
                (true, false) => 1,
                (false, true) => 2,
                (false, false) => {
                    let img = (y - 1) * n + (x - 1);
                    // to_image is an involution, so it maps the image cell back to the board.
                    let cell = to_image(img, n, mover);
                    match game.stone(state, cell) {
                        None => 0,
                        Some(p) if p == mover => 1,
                        Some(_) => 2,
                    }
                }
            };
        }
    }
    let plane = |p: usize, x: usize, y: usize| p * s * s + y * s + x;
    for y in 0..s {
        for x in 0..s {
            match colour[y * s + x] {
                1 => out[plane(0, x, y)] = 1.0,
                2 => out[plane(1, x, y)] = 1.0,
                0 => out[plane(2, x, y)] = 1.0,
                _ => {}
            }
        }
    }
    let at = |x: i32, y: i32| -> u8 {
        if x < 0 || y < 0 || x >= s as i32 || y >= s as i32 {
            3
        } else {
            colour[y as usize * s + x as usize]
        }
    };
    for y in 0..s as i32 {
        for x in 0..s as i32 {
            let c = at(x, y);
            if c != 1 && c != 2 {
                continue;
            }
            for ((dx, dy), carrier) in BRIDGES {
                if at(x + dx, y + dy) != c {
                    continue;
                }
                let [(ax, ay), (bx, by)] = carrier;
                let (a, b) = ((x + ax, y + ay), (x + bx, y + by));
                if at(a.0, a.1) == 0 && at(b.0, b.1) == 0 {
                    let p = if c == 1 { 3 } else { 4 };
                    out[plane(p, a.0 as usize, a.1 as usize)] = 1.0;
                    out[plane(p, b.0 as usize, b.1 as usize)] = 1.0;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn planes(game: &Hex, state: &HexState) -> Vec<f32> {
        let s = game.width() + 2;
        let mut v = vec![0.0; PLANES * s * s];
        encode(game, state, &mut v);
        v
    }

    #[test]
    fn padding_and_a_second_row_bridge_to_the_edge() {
        // Black at b2 of 3x3, White to move: transposed, White is "own".
        let g = Hex::new(3, 3).unwrap();
        let st = g.setup("... / .X. / ...").unwrap();
        let v = planes(&g, &st);
        let s = 5;
        let at = |p: usize, x: usize, y: usize| v[p * s * s + y * s + x];
        // Own (White) padding rows top and bottom, opponent (Black) columns.
        assert_eq!(at(0, 2, 0), 1.0);
        assert_eq!(at(1, 0, 2), 1.0);
        assert_eq!(at(0, 0, 0) + at(1, 0, 0), 0.0, "corner in neither");
        // The black stone at the centre is an opponent stone; bridges to its edges (columns
        // in the image) mark carriers as opponent bridges.
        assert_eq!(at(1, 2, 2), 1.0);
        assert_eq!(at(2, 2, 2), 0.0);
        let opp_bridges: f32 = (0..s * s).map(|i| v[4 * s * s + i]).sum();
        assert_eq!(
            opp_bridges, 4.0,
            "two bridges to the two edges, two carriers each"
        );
        let own_bridges: f32 = (0..s * s).map(|i| v[3 * s * s + i]).sum();
        assert_eq!(own_bridges, 0.0);
    }

    #[test]
    fn stones_are_drawn_from_the_movers_side() {
        let g = Hex::new(4, 4).unwrap();
        let s = 6;
        for drawing in ["X.../.O../..../....", "O..X / .X.. / .... / ...."] {
            let st = g.setup(drawing).unwrap();
            let mover = g.to_move(&st);
            let v = planes(&g, &st);
            for cell in 0..16 {
                let img = to_image(cell, 4, mover);
                let (x, y) = (img % 4 + 1, img / 4 + 1);
                let want = match g.stone(&st, cell) {
                    None => 2,
                    Some(p) if p == mover => 0,
                    Some(_) => 1,
                };
                for p in 0..3 {
                    let bit = v[p * s * s + y * s + x];
                    assert_eq!(bit, f32::from(u8::from(p == want)), "{drawing} cell {cell}");
                }
            }
        }
        // White to move: White's stone at a1 is own, at image (0, 0); Black's d1 (col 3,
        // row 0) is drawn at image (x 0, y 3).
        assert_eq!(to_image(3, 4, Player::White), 12);
        assert_eq!(to_image(3, 4, Player::Black), 3);
    }
}
