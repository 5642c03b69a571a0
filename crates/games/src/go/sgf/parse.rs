//! The SGF grammar (FF\[4\]), read in one pass without recursion.
//!
//! ```text
//! Collection = GameTree { GameTree }
//! GameTree   = "(" Sequence { GameTree } ")"
//! Sequence   = Node { Node }
//! Node       = ";" { Property }
//! Property   = PropIdent PropValue { PropValue }
//! PropIdent  = UcLetter { UcLetter }
//! PropValue  = "[" CValueType "]"
//! ```
//!
//! White space (space, tab, LF, CR, VT, FF) may separate any two tokens. Inside a value, `\`
//! escapes the next byte (so `\]` and `\\` stand for `]` and `\`), and `\` before a line break
//! removes it (a soft line break); every other byte, line breaks included, is kept. Lowercase
//! letters in a property identifier are dropped, as FF\[1\]–FF\[3\] readers do (`AddBlack` is
//! `AB`); an identifier without a capital letter is an error.
//!
//! Nesting is counted, not recursed into: a stack of the offsets of unclosed `(` is the only
//! state that grows with depth, so 200,000 nested variations cost 1.6 MB, not the call stack.
//!
//! The main line of a game tree is its first variation at every branch. In the text that is
//! every node before the tree's first `)`: a second variation can only start after the first
//! one's `)`. Those nodes are kept; the nodes of other variations are checked and dropped.

use super::{SgfError, SgfLocation};

/// One value of a property, escapes removed.
#[derive(Debug)]
pub(super) struct Value {
    /// The bytes between `[` and `]`, unescaped.
    pub(super) bytes: Vec<u8>,
    /// Offset of the `[`.
    pub(super) at: usize,
}

/// A property: its identifier (capital letters only) and its values (at least one).
#[derive(Debug)]
pub(super) struct Property {
    pub(super) id: String,
    /// Offset of the identifier's first letter.
    pub(super) at: usize,
    pub(super) values: Vec<Value>,
}

/// A node: its properties in file order.
#[derive(Debug)]
pub(super) struct Node {
    /// Offset of the `;`.
    pub(super) at: usize,
    pub(super) properties: Vec<Property>,
}

/// What the reader needs of a collection: the first game tree's main line and how many game
/// trees the file holds.
#[derive(Debug)]
pub(super) struct Collection {
    /// The nodes of the first game tree's main line, root first (never empty).
    pub(super) main_line: Vec<Node>,
    /// Number of game trees in the file (at least 1).
    pub(super) trees: usize,
}

/// Parses a whole collection, checking every byte of it.
///
/// # Errors
/// [`SgfError::Syntax`] naming the first place the grammar breaks and what was expected there,
/// [`SgfError::Unterminated`] for a value never closed, [`SgfError::Empty`] for a file without
/// a game tree.
pub(super) fn parse(src: &[u8]) -> Result<Collection, SgfError> {
    let mut p = Parser { src, i: 0 };
    let mut open: Vec<usize> = Vec::new();
    let mut trees = 0usize;
    let mut main_line = Vec::new();
    let mut on_main_line = false;
    loop {
        p.skip_white_space();
        let Some(b) = p.peek() else { break };
        match b {
            b'(' => {
                open.push(p.i);
                p.i += 1;
                if open.len() == 1 {
                    trees += 1;
                    on_main_line = trees == 1;
                }
                p.skip_white_space();
                if p.peek() != Some(b';') {
                    return Err(p.syntax("';' to start the first node of the game tree"));
                }
            }
            _ if open.is_empty() => return Err(p.syntax("'(' to start a game tree")),
            b';' => {
                let node = p.node()?;
                if on_main_line {
                    main_line.push(node);
                }
            }
            b')' => {
                open.pop();
                p.i += 1;
                on_main_line = false;
            }
            _ => return Err(p.syntax("a property (capital letters), ';', '(' or ')'")),
        }
    }
    if let Some(&start) = open.last() {
        return Err(SgfError::Unclosed {
            at: SgfLocation::of(src, src.len()),
            opened: SgfLocation::of(src, start),
        });
    }
    if trees == 0 {
        return Err(SgfError::Empty);
    }
    Ok(Collection { main_line, trees })
}

struct Parser<'a> {
    src: &'a [u8],
    i: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        self.src.get(self.i).copied()
    }

    fn skip_white_space(&mut self) {
        while matches!(
            self.peek(),
            Some(b' ' | b'\t' | b'\n' | b'\r' | 0x0B | 0x0C)
        ) {
            self.i += 1;
        }
    }

    /// The syntax error at the current byte.
    fn syntax(&self, expected: impl Into<String>) -> SgfError {
        syntax_error(self.src, self.i, expected.into())
    }

    /// A node, from its `;` to the byte after its last property.
    fn node(&mut self) -> Result<Node, SgfError> {
        let at = self.i;
        self.i += 1;
        let mut properties = Vec::new();
        loop {
            self.skip_white_space();
            match self.peek() {
                Some(b) if b.is_ascii_alphabetic() => properties.push(self.property()?),
                _ => return Ok(Node { at, properties }),
            }
        }
    }

    /// A property: identifier and one or more values.
    fn property(&mut self) -> Result<Property, SgfError> {
        let at = self.i;
        while self.peek().is_some_and(|b| b.is_ascii_alphabetic()) {
            self.i += 1;
        }
        let id: String = self.src[at..self.i]
            .iter()
            .filter(|b| b.is_ascii_uppercase())
            .map(|&b| char::from(b))
            .collect();
        if id.is_empty() {
            return Err(syntax_error(
                self.src,
                at,
                "a property (capital letters), ';', '(' or ')'".into(),
            ));
        }
        let mut values = Vec::new();
        loop {
            self.skip_white_space();
            if self.peek() != Some(b'[') {
                if values.is_empty() {
                    return Err(self.syntax(format!("'[' to open a value of property {id}")));
                }
                return Ok(Property { id, at, values });
            }
            values.push(self.value(&id)?);
        }
    }

    /// A value from its `[` to its `]`, escapes removed.
    fn value(&mut self, id: &str) -> Result<Value, SgfError> {
        let at = self.i;
        self.i += 1;
        let mut bytes = Vec::new();
        loop {
            let Some(b) = self.peek() else {
                return Err(SgfError::Unterminated {
                    id: id.to_string(),
                    at: SgfLocation::of(self.src, at),
                });
            };
            self.i += 1;
            match b {
                b']' => return Ok(Value { bytes, at }),
                b'\\' => match self.peek() {
                    None => {}
                    Some(c @ (b'\n' | b'\r')) => {
                        // A soft line break: the break (LF, CR, CRLF or LFCR) is removed.
                        self.i += 1;
                        if matches!(self.peek(), Some(d @ (b'\n' | b'\r')) if d != c) {
                            self.i += 1;
                        }
                    }
                    Some(c) => {
                        bytes.push(c);
                        self.i += 1;
                    }
                },
                _ => bytes.push(b),
            }
        }
    }
}

/// A syntax error at byte `at` of `src`, saying what was found there. Right after a value's
/// closing `]`, it suggests the usual cause: a `]` in a comment that should have been `\]`.
fn syntax_error(src: &[u8], at: usize, expected: String) -> SgfError {
    let mut found = describe(src, at);
    if at > 0 && src[at - 1] == b']' && at < src.len() {
        found.push_str(" (an unescaped ']' in the value before? write '\\]' inside values)");
    }
    SgfError::Syntax {
        at: SgfLocation::of(src, at),
        expected,
        found,
    }
}

/// The byte or character at `at`, for an error message.
fn describe(src: &[u8], at: usize) -> String {
    let Some(&b) = src.get(at) else {
        return "the end of the file".into();
    };
    match b {
        b'\n' | b'\r' => "a line break".into(),
        0x20..=0x7E => format!("'{}'", char::from(b)),
        _ => {
            let end = (at + 4).min(src.len());
            match std::str::from_utf8(&src[at..end])
                .map_err(|e| e.valid_up_to())
                .or_else(|n| std::str::from_utf8(&src[at..at + n]))
                .ok()
                .and_then(|s| s.chars().next())
            {
                Some(c) if !c.is_control() => format!("'{c}'"),
                _ => format!("byte 0x{b:02X}"),
            }
        }
    }
}
