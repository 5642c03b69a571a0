//! The published values of empty Go boards under positional superko, area scoring, suicide
//! illegal, komi 0 and Black first: `data/go-psk-values.tsv`, read by one typed reader.
//!
//! The file is the repository's copy of the literature's table (Weninger & Hayward 2017 for
//! linear boards, Tromp for 2x2, van der Werf & Winands 2009, "Solving Go for Rectangular
//! Boards", for the rest, checked under PSK by the Sanko paper). It is embedded in the crate,
//! so the bench, the solver's tests and the command line's tests read the same rows, never a
//! retyped copy. A row is tab-separated:
//!
//! ```text
//! board   value   best_first_move   confidence   source
//! 3x3     9       B2                migos        van der Werf & Winands 2009 (centre; ...)
//! ```
//!
//! `value` is Black's area minus White's under optimal play (points); `best_first_move` is a
//! GTP point or `-`; `confidence` is `proof` (a machine proof published under PSK) or `migos`
//! (a proof under basic ko, equal to the PSK value on these boards). Lines starting with `#`
//! and blank lines are comments.

use games::go::{Move, Size};

/// The text of `data/go-psk-values.tsv`, embedded.
pub const TSV: &str = include_str!("../../../data/go-psk-values.tsv");

/// How the published value was established.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Confidence {
    /// A machine proof published under positional superko.
    Proof,
    /// A machine proof under basic ko (MIGOS), equal to the PSK value on the listed boards.
    Migos,
}

/// One row of the table: an empty board and its value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PublishedValue {
    /// The board.
    pub size: Size,
    /// Black's area minus White's under optimal play, in points (komi 0).
    pub value: i32,
    /// A best first move for Black where the source names one.
    pub best_first_move: Option<Move>,
    /// How the value was established.
    pub confidence: Confidence,
    /// The publication, in words.
    pub source: String,
}

/// A malformed row of the table.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("go-psk-values.tsv line {line}: {reason}")]
pub struct TsvError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong with it, naming the offending field.
    pub reason: String,
}

/// Parses the table's text (the format of the module documentation).
///
/// # Errors
/// [`TsvError`] naming the first line with fewer than five fields, an unsupported board, a
/// value that is not an integer, a first move off the board, or an unknown confidence.
pub fn parse(text: &str) -> Result<Vec<PublishedValue>, TsvError> {
    let mut rows = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let bad = |reason: String| TsvError {
            line: i + 1,
            reason,
        };
        let fields: Vec<&str> = line.split('\t').collect();
        let [board, value, first, confidence, source] = fields[..] else {
            return Err(bad(format!(
                "{} fields, expected 5 (board, value, best_first_move, confidence, source)",
                fields.len()
            )));
        };
        let size = Size::parse(board).map_err(|e| bad(e.to_string()))?;
        let value = value
            .trim()
            .parse()
            .map_err(|_| bad(format!("value '{value}' is not an integer")))?;
        let best_first_move = match first.trim() {
            "-" => None,
            text => Some(size.parse_move(text).map_err(bad)?),
        };
        let confidence = match confidence.trim() {
            "proof" => Confidence::Proof,
            "migos" => Confidence::Migos,
            other => return Err(bad(format!("confidence '{other}' is not proof or migos"))),
        };
        rows.push(PublishedValue {
            size,
            value,
            best_first_move,
            confidence,
            source: source.trim().to_string(),
        });
    }
    Ok(rows)
}

/// Every row of the embedded table, in file order.
///
/// # Panics
/// Never for the file in the repository (a unit test parses it); a malformed edit of it
/// panics with the [`TsvError`].
#[must_use]
pub fn published_values() -> Vec<PublishedValue> {
    parse(TSV).unwrap_or_else(|e| panic!("{e}"))
}

/// The published value of the empty `rows` × `cols` board, if the table lists it.
#[must_use]
pub fn published_value(rows: usize, cols: usize) -> Option<i32> {
    published_values()
        .into_iter()
        .find(|p| p.size.rows() as usize == rows && p.size.cols() as usize == cols)
        .map(|p| p.value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_repository_table_parses_with_every_row() {
        let rows = published_values();
        let lines = TSV
            .lines()
            .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
            .count();
        assert_eq!(rows.len(), lines);
        assert_eq!(published_value(2, 2), Some(1));
        assert_eq!(published_value(4, 4), Some(2));
        assert_eq!(published_value(2, 5), None);
        let three = rows.iter().find(|p| p.size.to_string() == "3x3").unwrap();
        assert_eq!(three.value, 9);
        assert_eq!(three.confidence, Confidence::Migos);
        assert_eq!(three.best_first_move.unwrap().to_string(), "B2");
    }

    #[test]
    fn a_malformed_row_is_named_by_line_and_field() {
        let err = parse("# c\n2x2\t1\t-\tproof\tx\n2x3\tzero\t-\tmigos\tx\n").unwrap_err();
        assert_eq!(err.line, 3);
        assert!(err.to_string().contains("value 'zero'"), "{err}");
        let err = parse("1x3\t3\tC2\tproof\tx\n").unwrap_err();
        assert!(err.to_string().contains("off the 1x3 board"), "{err}");
        let err = parse("1x3\t3\t-\tguess\tx\n").unwrap_err();
        assert!(err.to_string().contains("confidence 'guess'"), "{err}");
        assert!(
            parse("1x3\t3\n")
                .unwrap_err()
                .to_string()
                .contains("2 fields")
        );
    }
}
