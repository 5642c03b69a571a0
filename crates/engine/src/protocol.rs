//! The framing of GTP version 2 (and of HTP, benzene's Hex dialect of it), as the GTP 2
//! specification (draft 2, sections 2.2 to 2.11 and 3.6) writes it:
//!
//! - **Preprocessing** of each input line: control characters other than HT and LF are
//!   removed (so CR is dropped and a NUL vanishes), HT becomes a space, everything from `#`
//!   on is a comment, and a line that is then empty or blank is ignored (no reply).
//! - **A command** is `[id] command_name [arguments]`: an optional id of decimal digits, the
//!   name, and arguments separated by spaces. The id is echoed verbatim (no number is built,
//!   so an id of any length works).
//! - **A reply** is `=[id] result` on success and `?[id] message` on failure, followed by one
//!   empty line; a reply never holds an empty line inside (blank lines of a multi-line result
//!   are removed here, so a command cannot break the framing).
//! - **End of input** is a clean end of the session, as `quit` is.
//!
//! The commands every engine answers alike (`protocol_version`, `name`, `version`,
//! `known_command`, `list_commands`, `quit`) are answered here; the rest go to a
//! [`Handler`].

use std::io::{self, BufRead, Write};

/// A reply to one command: its text without the `=`/`?` prefix, id or final empty line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// Success, with the result text (possibly empty, possibly several lines).
    Ok(String),
    /// Failure, with the error message (one line, e.g. "illegal move").
    Err(String),
}

impl Reply {
    /// A success without text.
    #[must_use]
    pub fn empty() -> Self {
        Reply::Ok(String::new())
    }

    /// A success with `text`.
    #[must_use]
    pub fn ok(text: impl Into<String>) -> Self {
        Reply::Ok(text.into())
    }

    /// A failure with `message`.
    #[must_use]
    pub fn err(message: impl Into<String>) -> Self {
        Reply::Err(message.into())
    }
}

/// One parsed command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Command {
    /// The id (decimal digits, as written), if any.
    pub id: Option<String>,
    /// The command name.
    pub name: String,
    /// The arguments.
    pub args: Vec<String>,
}

/// An engine behind the framing: its identity and the commands it adds to the common ones.
pub trait Handler {
    /// The `name` reply (e.g. "tsumi").
    fn name(&self) -> String;
    /// The `version` reply.
    fn version(&self) -> String;
    /// The commands [`Handler::handle`] answers (listed by `list_commands` after the common
    /// ones, and known to `known_command`).
    fn commands(&self) -> &'static [&'static str];
    /// Executes one command of [`Handler::commands`]; `None` for a name it does not know.
    fn handle(&mut self, name: &str, args: &[String]) -> Option<Reply>;
}

/// The commands answered by the framing itself, for every engine.
pub const COMMON_COMMANDS: [&str; 6] = [
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "quit",
];

/// The line after GTP preprocessing (see the module documentation): bytes that are not
/// UTF-8 are replaced by U+FFFD, control characters other than HT are removed, HT becomes a
/// space and a comment is cut off. The result may be blank.
#[must_use]
pub fn preprocess(raw: &[u8]) -> String {
    let text = String::from_utf8_lossy(raw);
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '#' => break,
            '\t' => out.push(' '),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

/// Parses a preprocessed line; `None` for a blank one (which gets no reply).
#[must_use]
pub fn parse(line: &str) -> Option<Command> {
    let mut words = line.split(' ').filter(|w| !w.is_empty());
    let first = words.next()?;
    let (id, name) = if first.bytes().all(|b| b.is_ascii_digit()) {
        (Some(first.to_string()), words.next().unwrap_or(""))
    } else {
        (None, first)
    };
    Some(Command {
        id,
        name: name.to_string(),
        args: words.map(str::to_string).collect(),
    })
}

/// The reply's text on the wire: `=id result` or `?id message`, then the empty line. Empty
/// lines inside the text are dropped and trailing blanks removed, so exactly one empty line
/// ends the reply.
#[must_use]
pub fn format_reply(id: Option<&str>, reply: &Reply) -> String {
    let (mark, text) = match reply {
        Reply::Ok(t) => ('=', t.as_str()),
        Reply::Err(t) => ('?', t.as_str()),
    };
    let id = id.unwrap_or("");
    // A result that starts on the next line (a board) keeps its first line break.
    let lead = if text.starts_with('\n') { "\n" } else { "" };
    let body: Vec<&str> = text
        .lines()
        .map(str::trim_end)
        .filter(|l| !l.is_empty())
        .collect();
    let body = body.join("\n");
    if body.is_empty() {
        format!("{mark}{id}\n\n")
    } else if lead.is_empty() {
        format!("{mark}{id} {body}\n\n")
    } else {
        format!("{mark}{id}\n{body}\n\n")
    }
}

/// What the session does after a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Read the next command.
    Continue,
    /// The command was `quit`: the reply is the last one.
    Quit,
}

/// Answers one raw input line: `None` for a line that preprocesses to blank (no reply),
/// else the reply as it goes on the wire and whether the session goes on.
pub fn respond<H: Handler>(handler: &mut H, raw: &[u8]) -> Option<(String, Flow)> {
    let cmd = parse(&preprocess(raw))?;
    let mut flow = Flow::Continue;
    let reply = match cmd.name.as_str() {
        "" => Reply::err("syntax error (an id without a command)"),
        "protocol_version" => Reply::ok("2"),
        "name" => Reply::ok(handler.name()),
        "version" => Reply::ok(handler.version()),
        "known_command" => match cmd.args.first() {
            Some(c) => Reply::ok(
                if COMMON_COMMANDS.contains(&c.as_str()) || handler.commands().contains(&c.as_str())
                {
                    "true"
                } else {
                    "false"
                },
            ),
            None => Reply::err("syntax error (known_command needs a command name)"),
        },
        "list_commands" => {
            let mut all: Vec<&str> = COMMON_COMMANDS.to_vec();
            all.extend(handler.commands().iter().copied());
            Reply::ok(all.join("\n"))
        }
        "quit" => {
            flow = Flow::Quit;
            Reply::empty()
        }
        name => handler
            .handle(name, &cmd.args)
            .unwrap_or_else(|| Reply::err("unknown command")),
    };
    Some((format_reply(cmd.id.as_deref(), &reply), flow))
}

/// Runs a session: reads commands from `input` line by line, writes each reply to `output`
/// and flushes it, until `quit` or the end of the input (both a clean end).
///
/// # Errors
/// A read or write error of the streams.
pub fn serve<H: Handler>(
    handler: &mut H,
    mut input: impl BufRead,
    mut output: impl Write,
) -> io::Result<()> {
    let mut line = Vec::new();
    loop {
        line.clear();
        if input.read_until(b'\n', &mut line)? == 0 {
            return Ok(());
        }
        if let Some((reply, flow)) = respond(handler, &line) {
            output.write_all(reply.as_bytes())?;
            output.flush()?;
            if flow == Flow::Quit {
                return Ok(());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn preprocessing_drops_controls_comments_and_tabs() {
        assert_eq!(preprocess(b"1 play\tb c3\r\n"), "1 play b c3");
        assert_eq!(preprocess(b"name # who are you"), "name ");
        assert_eq!(preprocess(b"na\0me"), "name");
        assert_eq!(preprocess(b"# only a comment"), "");
    }

    #[test]
    fn ids_are_echoed_and_blank_lines_inside_replies_are_dropped() {
        let c = parse("12 boardsize 5").unwrap();
        assert_eq!(c.id.as_deref(), Some("12"));
        assert_eq!(c.name, "boardsize");
        assert_eq!(c.args, ["5"]);
        assert!(parse("   ").is_none());
        assert_eq!(format_reply(Some("3"), &Reply::empty()), "=3\n\n");
        assert_eq!(
            format_reply(None, &Reply::err("illegal move")),
            "? illegal move\n\n"
        );
        assert_eq!(format_reply(None, &Reply::ok("a\n\nb\n")), "= a\nb\n\n");
        assert_eq!(
            format_reply(Some("7"), &Reply::ok("\nX.\n.O")),
            "=7\nX.\n.O\n\n"
        );
    }
}
