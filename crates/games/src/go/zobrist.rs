//! Zobrist keys of the reference board: one 64-bit key per point and colour (up to 19×19),
//! one for the side to move and one per pass state. Keys come from a fixed SplitMix64 stream,
//! so hashes are identical across runs and machines.

use super::point::{Point, Size};
use crate::Player;
use std::sync::OnceLock;

const MAX_POINTS: usize = 19 * 19;

/// The table of Zobrist keys.
#[derive(Debug)]
pub struct Zobrist {
    stones: Vec<[u64; 2]>,
    white_to_move: u64,
    passes: [u64; 3],
}

fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Zobrist {
    /// The process-wide table.
    pub fn get() -> &'static Zobrist {
        static TABLE: OnceLock<Zobrist> = OnceLock::new();
        TABLE.get_or_init(|| {
            let mut s = 0x7473_756D_6947_6F21; // "tsumiGo!"
            let stones = (0..MAX_POINTS)
                .map(|_| [splitmix64(&mut s), splitmix64(&mut s)])
                .collect();
            let white_to_move = splitmix64(&mut s);
            let passes = [0, splitmix64(&mut s), splitmix64(&mut s)];
            Zobrist {
                stones,
                white_to_move,
                passes,
            }
        })
    }

    /// Key of a stone of `colour` on `p` of a board of `size`.
    #[must_use]
    pub fn stone(&self, size: Size, p: Point, colour: Player) -> u64 {
        self.stones[size.index(p)][colour.index()]
    }

    /// Key of the side to move (0 for Black).
    #[must_use]
    pub fn side(&self, to_move: Player) -> u64 {
        match to_move {
            Player::Black => 0,
            Player::White => self.white_to_move,
        }
    }

    /// Key of the number of consecutive passes (0, 1 or 2).
    #[must_use]
    pub fn passes(&self, passes: u8) -> u64 {
        self.passes[usize::from(passes.min(2))]
    }
}
