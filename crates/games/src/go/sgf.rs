//! Positions from SGF (FF\[4\], GM\[1\]) and back.
//!
//! # Reading
//! [`position_from_sgf_bytes`] takes a file's bytes (a UTF-8 byte-order mark and the `CA`
//! character set are handled, see `sgf/charset.rs`); [`position_from_sgf`] takes text that is
//! already decoded. Both read a file holding **one** game tree and play its **main line**: the
//! first variation at every branch, as the SGF spec defines it. Other variations are checked
//! for syntax and otherwise ignored; a file with several game trees is refused (the message
//! says how many), since choosing one silently would drop the others.
//!
//! Every byte is checked against the grammar (see `sgf/parse.rs`): a file that breaks it is
//! refused with the line and column where it breaks and what was expected there, never read
//! up to the break. The parser keeps an explicit stack, so neither deep nesting nor long games
//! can overflow the call stack.
//!
//! Properties that change the position are read, in any node of the main line:
//! - `SZ[n]` (n×n) or `SZ[c:r]` (c columns, r rows), root node only (19×19 if absent);
//! - `AB`/`AW`/`AE` setup, with compressed rectangles (`AB[aa:cc]`); a point may be in only
//!   one of the three lists of a node. Root setup is the start position; a later setup
//!   replaces the board and enters the history, so positional superko also forbids
//!   recreating it;
//! - `PL` side to move; `B`/`W` moves, at most one per node, played after the node's setup.
//!   Points are column letter then row letter from the TOP (`a`–`z`, then `A`–`Z`); `B[]`,
//!   and `B[tt]` (boards are at most 19×19), is a pass;
//! - `KM` komi, exactly (a multiple of 0.5), given at most once on the main line (0 if absent);
//! - `GM` must be 1 (Go);
//! - `HA[n]` is read only to check that the handicap stones are on the board: n ≤ 1, or the
//!   node also has `AB` with at least n black stones (GNU Go, KGS and the spec place them so).
//!   A file that leaves the placing of handicap stones to the reader is refused;
//! - `KO` (play an illegal move) is refused.
//!
//! Everything else is ignored: root information (`FF`, `AP` in any form such as `AP[tsumi]` or
//! `AP[GNU Go:3.8]`, `CA` once decoded, `ST`), game information (`PB`, `PW`, `RU`, `RE`, `DT`,
//! `GN`, ...), comments, timing (`BL`, `WL`, `OB`, `OW`), markup, and unknown or private
//! properties (`XY[whatever]`), whatever their values. `RU` in particular does not change the
//! rules: the caller gives the ko rule, and scoring is area scoring.
//!
//! A repeated property that the reader interprets, in one node, is refused (the spec allows
//! each property once per node); a repeated ignored one is ignored.
//!
//! # Writing
//! [`position_to_sgf`] writes a position so that reading it back gives the same board, side
//! to move, komi, pass count and history (see `sgf/write.rs`).
//!
//! # Why our own parser
//! The reader used the `sgf-parse` crate until it was found to lose input: its nodes own their
//! children, so a 200,000-node game (nested or sequential) overflowed the stack when the tree
//! was dropped; it takes only `&str`, so `CA` cannot be honoured; and it refuses whole files
//! over the values of properties we do not use (`AP[tsumi]`, `HA[0]` in GNU Go's output). The
//! grammar is six rules; an iterative reader of it is short, checks every byte, and knows the
//! line and column of each error. Correctness (no dropped input, no recursion) decided it.

mod charset;
mod parse;
mod read;
mod write;

use super::point::{Size, SizeError};
use super::position::{MoveError, Position};
use super::rules::{KoRule, Komi, KomiError};
use crate::Player;
use std::fmt;

pub use write::{position_to_sgf, sgf_escape};

/// A place in an SGF text: 1-based line and column, and the byte offset.
///
/// Lines end at LF, CR, CRLF or LFCR. The column counts characters when the line is valid UTF-8
/// up to that point, else bytes. Offsets and lines start after a byte-order mark, if any.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SgfLocation {
    /// Line, from 1.
    pub line: usize,
    /// Column, from 1.
    pub column: usize,
    /// Byte offset from the start of the text, from 0.
    pub byte: usize,
}

impl SgfLocation {
    /// The location of byte `at` of `src` (`at == src.len()` is the end of the file).
    fn of(src: &[u8], at: usize) -> Self {
        let at = at.min(src.len());
        let mut line = 1;
        let mut start = 0;
        let mut i = 0;
        while i < at {
            match src[i] {
                b'\n' | b'\r' => {
                    // CRLF and LFCR are one break.
                    if i + 1 < at && matches!(src[i + 1], b'\n' | b'\r') && src[i + 1] != src[i] {
                        i += 1;
                    }
                    line += 1;
                    start = i + 1;
                }
                _ => {}
            }
            i += 1;
        }
        let prefix = &src[start..at];
        let column = 1 + std::str::from_utf8(prefix).map_or(prefix.len(), |s| s.chars().count());
        SgfLocation {
            line,
            column,
            byte: at,
        }
    }
}

impl fmt::Display for SgfLocation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, column {}", self.line, self.column)
    }
}

/// Why an SGF file cannot be turned into a position. Messages are one line and name the
/// offending property, point or place in the file.
#[derive(Debug, thiserror::Error)]
pub enum SgfError {
    /// The text breaks the SGF grammar.
    #[error("malformed SGF at {at}: expected {expected}, found {found}")]
    Syntax {
        /// Where.
        at: SgfLocation,
        /// What the grammar allows there.
        expected: String,
        /// What is there.
        found: String,
    },
    /// A value whose `]` never comes.
    #[error("malformed SGF: the value of {id} opened at {at} is never closed (expected ']')")]
    Unterminated {
        /// The property.
        id: String,
        /// Where its `[` is.
        at: SgfLocation,
    },
    /// The file ends inside a game tree.
    #[error("malformed SGF at {at}: expected ')' to close the game tree opened at {opened}")]
    Unclosed {
        /// The end of the file.
        at: SgfLocation,
        /// The innermost unclosed `(`.
        opened: SgfLocation,
    },
    /// The file holds no game.
    #[error("malformed SGF: no game tree (expected '(;')")]
    Empty,
    /// The file holds several games.
    #[error("the SGF file holds {0} game trees; only files with one game are read")]
    SeveralGames(usize),
    /// A UTF-16 or UTF-32 byte-order mark.
    #[error("the SGF file is UTF-16 or UTF-32 (byte-order mark); save it as UTF-8")]
    Utf16,
    /// The file breaks the character set it declares.
    #[error("the SGF file declares CA[{charset}] but is not {charset} at {at}")]
    Encoding {
        /// The declared character set.
        charset: String,
        /// The first byte that is not in it.
        at: SgfLocation,
    },
    /// A character set that is not supported, on a file that is not UTF-8.
    #[error(
        "unsupported SGF character set CA[{charset}] (supported: UTF-8, US-ASCII, ISO-8859-1), \
         and the file is not UTF-8 at {at}"
    )]
    UnsupportedCharset {
        /// The declared character set.
        charset: String,
        /// The first byte that is not UTF-8.
        at: SgfLocation,
    },
    /// A property value the reader cannot read.
    #[error("invalid SGF property {id}[{value}] at {at}: expected {expected}")]
    InvalidValue {
        /// The property.
        id: String,
        /// The value as written.
        value: String,
        /// Where the value is.
        at: SgfLocation,
        /// What it should be.
        expected: &'static str,
    },
    /// A property that takes one value has several.
    #[error("SGF property {id} at {at} has {count} values; expected one")]
    ValueCount {
        /// The property.
        id: String,
        /// How many values it has.
        count: usize,
        /// Where it is.
        at: SgfLocation,
    },
    /// An interpreted property twice in one node.
    #[error("SGF property {id} at {at} appears twice in its node")]
    Repeated {
        /// The property.
        id: String,
        /// Where the second one is.
        at: SgfLocation,
    },
    /// A property that changes the position in a way the reader does not support.
    #[error("unsupported SGF property {id}[{value}] at {at}: {reason}")]
    Unsupported {
        /// The property.
        id: String,
        /// Its value.
        value: String,
        /// Where it is.
        at: SgfLocation,
        /// Why it is refused.
        reason: &'static str,
    },
    /// A root property (`SZ`) outside the root node.
    #[error("SGF property {id} at {at} belongs in the root node")]
    NotRoot {
        /// The property.
        id: String,
        /// Where it is.
        at: SgfLocation,
    },
    /// One node holds both a black and a white move.
    #[error("SGF node at {at} holds both a B and a W move (one move per node)")]
    TwoMoves {
        /// Where the node starts.
        at: SgfLocation,
    },
    /// The size is not supported.
    #[error("SGF property SZ at {at}: {reason}")]
    Size {
        /// Where the value is.
        at: SgfLocation,
        /// Why the size is not supported (in the message, so not also a `source`).
        reason: SizeError,
    },
    /// A komi that is not a multiple of 0.5.
    #[error("SGF property KM at {at}: {reason}")]
    Komi {
        /// Where the value is.
        at: SgfLocation,
        /// The komi as written (in the message, so not also a `source`).
        reason: KomiError,
    },
    /// Two different komi on the main line.
    #[error("SGF property KM[{second}] at {at} contradicts the komi {first} given earlier")]
    KomiTwice {
        /// Where the second one is.
        at: SgfLocation,
        /// The first komi.
        first: Komi,
        /// The second komi.
        second: Komi,
    },
    /// A point outside the board.
    #[error("SGF point {point} at {at} is off the {size} board")]
    OffBoard {
        /// The point in SGF letters.
        point: String,
        /// The board size (rows x columns).
        size: Size,
        /// Where the value is.
        at: SgfLocation,
    },
    /// An illegal move in the main line.
    #[error("SGF move {number} ({colour} {point}): {reason}")]
    IllegalMove {
        /// 1-based move number in the main line.
        number: u32,
        /// Colour of the move.
        colour: Player,
        /// The move in GTP coordinates.
        point: String,
        /// Why it is illegal.
        reason: MoveError,
    },
    /// One node puts a point in two of AB, AW and AE.
    #[error("SGF setup at {at} puts {point} in more than one of AB, AW and AE")]
    ConflictingSetup {
        /// The point in GTP coordinates.
        point: String,
        /// Where the second list names it.
        at: SgfLocation,
    },
    /// A setup that leaves a chain without liberties.
    #[error("SGF setup in the node at {at}: {reason}")]
    Setup {
        /// Where the node starts.
        at: SgfLocation,
        /// The chain without liberties (in the message, so not also a `source`).
        reason: MoveError,
    },
}

/// Reads the main line of the one game in the SGF file `bytes` into a position under `ko`.
/// A UTF-8 byte-order mark is skipped and the root's `CA` is honoured (see the module
/// documentation). The komi comes from `KM` (0 if absent).
///
/// # Errors
/// [`SgfError`] naming the problem and where it is: a break in the grammar, several game trees,
/// a character set the bytes break, an unsupported size or property, an off-board point, an
/// invalid value, a setup with a chain without liberties, or an illegal move.
pub fn position_from_sgf_bytes(bytes: &[u8], ko: KoRule) -> Result<Position, SgfError> {
    let src = charset::strip_bom(bytes)?;
    let collection = parse::parse(src)?;
    let ca = collection.main_line[0]
        .properties
        .iter()
        .find(|p| p.id == "CA")
        .and_then(|p| p.values.first());
    let charset = charset::check(src, ca)?;
    if collection.trees > 1 {
        return Err(SgfError::SeveralGames(collection.trees));
    }
    read::main_line(src, &collection.main_line, charset, ko, None)
}

/// As [`position_from_sgf_bytes`], but the position just before move `move_number` (1-based,
/// counting the B and W nodes of the main line) is played: GTP's `loadsgf FILE move_number`.
/// Nodes after that move's node are not read; a number past the last move gives the final
/// position, and 0 or 1 the position before the first move.
///
/// # Errors
/// As [`position_from_sgf_bytes`], for the part of the file that is read (the whole file is
/// still checked against the grammar).
pub fn position_from_sgf_bytes_before(
    bytes: &[u8],
    ko: KoRule,
    move_number: u32,
) -> Result<Position, SgfError> {
    let src = charset::strip_bom(bytes)?;
    let collection = parse::parse(src)?;
    let ca = collection.main_line[0]
        .properties
        .iter()
        .find(|p| p.id == "CA")
        .and_then(|p| p.values.first());
    let charset = charset::check(src, ca)?;
    if collection.trees > 1 {
        return Err(SgfError::SeveralGames(collection.trees));
    }
    read::main_line(
        src,
        &collection.main_line,
        charset,
        ko,
        Some(move_number.max(1)),
    )
}

/// The points of the root node's properties named in `ids` (markup such as `MA`, `TR`, `SQ`,
/// `SL`, which the position readers ignore), each with its property name, in file order.
/// Tsumego files mark the target and the area of play this way.
///
/// # Errors
/// As [`position_from_sgf_bytes`], for the grammar, the size and the point values.
pub fn root_points_from_sgf_bytes(
    bytes: &[u8],
    ids: &[&str],
) -> Result<Vec<(String, super::point::Point)>, SgfError> {
    let src = charset::strip_bom(bytes)?;
    let collection = parse::parse(src)?;
    let ca = collection.main_line[0]
        .properties
        .iter()
        .find(|p| p.id == "CA")
        .and_then(|p| p.values.first());
    let charset = charset::check(src, ca)?;
    read::root_points(src, &collection.main_line, charset, ids)
}

/// Reads the main line of the one game in `text` into a position under `ko`. As
/// [`position_from_sgf_bytes`], except that the text is already decoded: a leading U+FEFF is
/// skipped and `CA` is ignored.
///
/// # Errors
/// As [`position_from_sgf_bytes`].
///
/// # Examples
/// ```
/// use games::go::{KoRule, position_from_sgf};
/// let p = position_from_sgf("(;GM[1]SZ[3]KM[0.5];B[bb];W[aa])", KoRule::PositionalSuperko)
///     .unwrap();
/// assert_eq!(p.board().to_ascii(), "O../.X./...");
/// let e = position_from_sgf("(;GM[1]SZ[3];B[bb]C[a]b];W[aa])", KoRule::PositionalSuperko)
///     .unwrap_err();
/// assert!(e.to_string().starts_with("malformed SGF at line 1, column 23"), "{e}");
/// ```
pub fn position_from_sgf(text: &str, ko: KoRule) -> Result<Position, SgfError> {
    let src = text.strip_prefix('\u{FEFF}').unwrap_or(text).as_bytes();
    let collection = parse::parse(src)?;
    if collection.trees > 1 {
        return Err(SgfError::SeveralGames(collection.trees));
    }
    read::main_line(src, &collection.main_line, charset::Charset::Utf8, ko, None)
}
