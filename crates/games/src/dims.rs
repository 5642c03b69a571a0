//! Board dimensions for the small games: the text `"WxH"` (or `"N"` for N×N) and its error.
//!
//! Every small game here (Hex, Connect Four, tic-tac-toe, NoGo, AtariGo) takes its size as
//! **width × height**: `"5x4"` is 5 columns and 4 rows, as in `data/small-games.tsv`.

use thiserror::Error;

/// Why a board size was rejected.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SizeError {
    /// The text is not `"WxH"` or `"N"` with positive integers.
    #[error("bad board size '{0}': expected WxH (e.g. 5x4) or N")]
    Syntax(String),
    /// The game does not support these dimensions.
    #[error("unsupported {game} size {width}x{height}: {allowed}")]
    Unsupported {
        /// The game's command-line name.
        game: &'static str,
        /// Columns asked for.
        width: usize,
        /// Rows asked for.
        height: usize,
        /// What the game allows, in words.
        allowed: &'static str,
    },
}

/// Parses `"WxH"` (also `"W×H"`, `"WXH"`) or `"N"` into `(width, height)`.
///
/// # Errors
/// [`SizeError::Syntax`] when the text is not of that form or a number is zero.
///
/// # Examples
/// ```
/// assert_eq!(games::dims::parse_dims("5x4"), Ok((5, 4)));
/// assert_eq!(games::dims::parse_dims("6"), Ok((6, 6)));
/// assert!(games::dims::parse_dims("0x3").is_err());
/// ```
pub fn parse_dims(text: &str) -> Result<(usize, usize), SizeError> {
    let bad = || SizeError::Syntax(text.to_string());
    let t = text.trim();
    let parts: Vec<&str> = t.split(['x', 'X', '×']).collect();
    let nums: Vec<usize> = parts
        .iter()
        .map(|p| p.trim().parse::<usize>().map_err(|_| bad()))
        .collect::<Result<_, _>>()?;
    let (w, h) = match nums.as_slice() {
        [n] => (*n, *n),
        [w, h] => (*w, *h),
        _ => return Err(bad()),
    };
    if w == 0 || h == 0 {
        return Err(bad());
    }
    Ok((w, h))
}

/// A 64-bit key for Zobrist hashing: SplitMix64 of `index` (a fixed, well-mixed sequence).
///
/// The small games key `(cell, player)` pairs and the side to move with it, so no key table is
/// stored and keys never change between runs.
#[must_use]
pub const fn zobrist_key(index: u64) -> u64 {
    let mut z = index.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}
