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
    /// The text is not `"N"`, `"RxC"` or the sides named (`"4rx5c"`), with positive integers.
    #[error(
        "bad board size '{0}': expected N, RxC (R rows, C columns, e.g. 4x5) or the sides named, 4rx5c"
    )]
    RowsCols(String),
    /// A non-square `"AxB"` given where it used to mean A columns × B rows: the command line's
    /// sizes are rows × columns now, so the plain form is refused rather than read the other
    /// way round (see [`parse_rows_cols`]).
    #[error(
        "board size '{0}' is ambiguous: sizes are rows x columns (RxC) everywhere now, but this option read it as columns x rows before; write the rows and columns by name, e.g. 4rx5c or 5cx4r (4 rows, 5 columns)"
    )]
    Ambiguous(String),
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

/// Parses a board size given on the command line into `(rows, columns)`: `"N"` (N×N),
/// `"RxC"` (R rows and C columns, the convention of every `tsumi` command, as Go's
/// `solve go 3x4`), or the rows and columns named by letter in either order, `"4rx5c"` or
/// `"5cx4r"` (also with `X` or `×`).
///
/// `was_cols_first` is for the options that read `"AxB"` as A columns × B rows before the
/// convention was one (`match`, `play`, `prove` of the small games, `htp --size`): there a
/// plain non-square `"AxB"` is refused as [`SizeError::Ambiguous`] instead of silently
/// changing meaning, and the named form says which is which.
///
/// # Errors
/// [`SizeError::RowsCols`] for text of another form or a zero side;
/// [`SizeError::Ambiguous`] as above.
///
/// # Examples
/// ```
/// use games::dims::parse_rows_cols;
/// assert_eq!(parse_rows_cols("3x4", false), Ok((3, 4)));
/// assert_eq!(parse_rows_cols("5cx4r", true), Ok((4, 5)));
/// assert_eq!(parse_rows_cols("6", true), Ok((6, 6)));
/// assert!(parse_rows_cols("5x4", true).is_err());
/// assert_eq!(parse_rows_cols("4x4", true), Ok((4, 4)));
/// ```
pub fn parse_rows_cols(text: &str, was_cols_first: bool) -> Result<(usize, usize), SizeError> {
    let bad = || SizeError::RowsCols(text.to_string());
    let t = text.trim().to_ascii_lowercase();
    let parts: Vec<&str> = t.split(['x', '×']).map(str::trim).collect();
    // One side: a number with an optional 'r' or 'c' after it.
    let side = |p: &str| -> Result<(usize, Option<char>), SizeError> {
        let (num, tag) = match p.strip_suffix(['r', 'c']) {
            Some(n) => (n, p.chars().last()),
            None => (p, None),
        };
        let n: usize = num.trim().parse().map_err(|_| bad())?;
        if n == 0 {
            return Err(bad());
        }
        Ok((n, tag))
    };
    match parts.as_slice() {
        [one] => match side(one)? {
            (n, None) => Ok((n, n)),
            _ => Err(bad()),
        },
        [a, b] => match (side(a)?, side(b)?) {
            ((r, Some('r')), (c, Some('c'))) | ((c, Some('c')), (r, Some('r'))) => Ok((r, c)),
            ((r, None), (c, None)) if r == c || !was_cols_first => Ok((r, c)),
            ((_, None), (_, None)) => Err(SizeError::Ambiguous(text.to_string())),
            _ => Err(bad()),
        },
        _ => Err(bad()),
    }
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
