//! The byte-order mark and the `CA` (character set) property.
//!
//! The grammar's bytes — `(`, `)`, `;`, `[`, `]`, `\`, capital letters — are ASCII, and so is
//! every value the reader interprets (points, numbers, colours). The parser therefore works on
//! bytes, and a character set matters only in two ways: it must not hide `]` or `\` inside a
//! character (UTF-8, US-ASCII and ISO-8859-1 never do; Shift_JIS, Big5 and GBK can, as the
//! second byte of a character), and it decides how a value quoted in an error is shown.
//!
//! - No `CA`: the spec's default, ISO-8859-1; a file that is valid UTF-8 is shown as UTF-8
//!   (most files without `CA` are).
//! - `CA[UTF-8]` (or `UTF8`): the whole file must be valid UTF-8.
//! - `CA[US-ASCII]` (or `ASCII`): every byte must be below 0x80.
//! - `CA[ISO-8859-1]` (or `ISO8859-1`, `Latin1`, `L1`): every byte is a character.
//! - any other `CA`: read as UTF-8 if the file is valid UTF-8 (files re-saved by an editor
//!   often keep an old `CA`), else refused, since its bytes could hide a `]`.
//!
//! A UTF-8 byte-order mark (EF BB BF) at the start is skipped, whatever `CA` says. A UTF-16 or
//! UTF-32 one is refused: those encodings are not ASCII-compatible.

use super::parse::Value;
use super::{SgfError, SgfLocation};

/// How the file's bytes are decoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Charset {
    /// UTF-8, checked (also the text of [`super::position_from_sgf`]).
    Utf8,
    /// US-ASCII, checked.
    Ascii,
    /// ISO-8859-1: one byte, one character.
    Latin1,
    /// No `CA`: UTF-8 when the file is valid UTF-8, else ISO-8859-1.
    Unspecified,
}

impl Charset {
    /// The text of `bytes` in this character set (for messages; invalid bytes are replaced).
    pub(super) fn decode(self, bytes: &[u8]) -> String {
        match self {
            Charset::Latin1 => bytes.iter().map(|&b| char::from(b)).collect(),
            Charset::Unspecified if std::str::from_utf8(bytes).is_err() => {
                bytes.iter().map(|&b| char::from(b)).collect()
            }
            _ => String::from_utf8_lossy(bytes).into_owned(),
        }
    }
}

/// The SGF text after a UTF-8 byte-order mark, if there is one.
///
/// # Errors
/// [`SgfError::Utf16`] for a UTF-16 or UTF-32 byte-order mark.
pub(super) fn strip_bom(bytes: &[u8]) -> Result<&[u8], SgfError> {
    if let Some(rest) = bytes.strip_prefix(b"\xEF\xBB\xBF") {
        return Ok(rest);
    }
    if bytes.starts_with(b"\xFF\xFE") || bytes.starts_with(b"\xFE\xFF") {
        return Err(SgfError::Utf16);
    }
    if bytes.starts_with(b"\0\0\xFE\xFF") {
        return Err(SgfError::Utf16);
    }
    Ok(bytes)
}

/// The character set declared by the root's `CA` value (if any), checked against `src`.
///
/// # Errors
/// [`SgfError::Encoding`] when the file breaks its declared UTF-8 or US-ASCII;
/// [`SgfError::UnsupportedCharset`] for another charset on a file that is not UTF-8.
pub(super) fn check(src: &[u8], ca: Option<&Value>) -> Result<Charset, SgfError> {
    let Some(ca) = ca else {
        return Ok(Charset::Unspecified);
    };
    let name = String::from_utf8_lossy(&ca.bytes).trim().to_string();
    let key: String = name
        .chars()
        .filter(|c| !matches!(c, '-' | '_' | ' '))
        .flat_map(char::to_lowercase)
        .collect();
    let first_non_utf8 = || std::str::from_utf8(src).err().map(|e| e.valid_up_to());
    match key.as_str() {
        "utf8" => match first_non_utf8() {
            None => Ok(Charset::Utf8),
            Some(at) => Err(SgfError::Encoding {
                charset: name,
                at: SgfLocation::of(src, at),
            }),
        },
        "usascii" | "ascii" | "ansix3.41968" | "iso646us" => {
            match src.iter().position(|&b| b >= 0x80) {
                None => Ok(Charset::Ascii),
                Some(at) => Err(SgfError::Encoding {
                    charset: name,
                    at: SgfLocation::of(src, at),
                }),
            }
        }
        "iso88591" | "latin1" | "l1" | "iso885911987" | "isoir100" | "cp819" | "ibm819" => {
            Ok(Charset::Latin1)
        }
        _ => match first_non_utf8() {
            None => Ok(Charset::Utf8),
            Some(at) => Err(SgfError::UnsupportedCharset {
                charset: name,
                at: SgfLocation::of(src, at),
            }),
        },
    }
}
