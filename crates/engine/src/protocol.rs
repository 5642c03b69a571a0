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
//!
//! **Streamed replies** (the analysis commands of Leela Zero and KataGo, `lz-analyze`,
//! `kata-analyze`, Sabaki's `analyze`; KataGo's docs/GTP_Extensions.md): the reply opens with
//! `=[id]` on a line of its own, then the engine writes lines while it searches, and the reply
//! ends with the usual empty line. Such a command runs until it is done or until **any**
//! input arrives (a next command or a bare newline), so [`serve`] reads the input on a thread
//! of its own while a command runs, and raises the [`Stream::stop_flag`] as soon as a line is
//! waiting. The line that stopped the stream is then answered as usual (a blank one gets no
//! reply).

use std::io::{self, BufRead, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

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

    /// Whether `name` is answered by [`Handler::stream`] rather than [`Handler::handle`].
    fn streams(&self, name: &str) -> bool {
        let _ = name;
        false
    }

    /// Executes a streaming command (see the module documentation): checks its arguments
    /// (a [`Reply::Err`] before [`Stream::begin`] is an ordinary `?` reply), then opens the
    /// reply with [`Stream::begin`], writes lines with [`Stream::line`] until it is done or
    /// [`Stream::stopped`], and returns the reply's last lines ([`Reply::Ok`], possibly
    /// empty; the framing ends the reply with the empty line).
    ///
    /// # Errors
    /// A write error of the output.
    fn stream(&mut self, name: &str, args: &[String], out: &mut Stream<'_>) -> io::Result<Reply> {
        let _ = (name, args, out);
        Ok(Reply::err("unknown command"))
    }
}

/// A streamed reply in progress: its id, the output, and the flag that says input has
/// arrived (the command must then stop; searches take it as their cancel flag).
pub struct Stream<'a> {
    id: Option<&'a str>,
    out: &'a mut dyn Write,
    begun: bool,
    stop: Arc<AtomicBool>,
}

impl<'a> Stream<'a> {
    /// A stream writing to `out`, stopped by `stop`.
    pub fn new(id: Option<&'a str>, out: &'a mut dyn Write, stop: Arc<AtomicBool>) -> Self {
        Stream {
            id,
            out,
            begun: false,
            stop,
        }
    }

    /// Opens the reply: `=[id]` and a line break (once; later calls do nothing).
    ///
    /// # Errors
    /// A write error.
    pub fn begin(&mut self) -> io::Result<()> {
        if !self.begun {
            self.begun = true;
            writeln!(self.out, "={}", self.id.unwrap_or(""))?;
            self.out.flush()?;
        }
        Ok(())
    }

    /// Writes one line of the reply (opening it first if needed). Line breaks inside `text`
    /// become spaces and a blank `text` writes nothing, so a line can never end the reply.
    ///
    /// # Errors
    /// A write error.
    pub fn line(&mut self, text: &str) -> io::Result<()> {
        self.begin()?;
        let one: Vec<&str> = text.split_whitespace().collect();
        if one.is_empty() {
            return Ok(());
        }
        writeln!(self.out, "{}", one.join(" "))?;
        self.out.flush()
    }

    /// Whether input has arrived (the command must stop).
    #[must_use]
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// The stop flag itself, for a search's cancel flag.
    #[must_use]
    pub fn stop_flag(&self) -> &Arc<AtomicBool> {
        &self.stop
    }
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
/// else the reply as it goes on the wire and whether the session goes on. A streaming
/// command runs with its stop flag already raised (it answers at once with what it has).
pub fn respond<H: Handler>(handler: &mut H, raw: &[u8]) -> Option<(String, Flow)> {
    let mut out = Vec::new();
    let stop = Arc::new(AtomicBool::new(true));
    let flow = respond_to(handler, raw, &stop, &mut out).expect("writing to memory cannot fail")?;
    Some((String::from_utf8_lossy(&out).into_owned(), flow))
}

/// Answers one raw input line on `output` (nothing for a blank line, which gives `None`); a
/// streaming command stops when `stop` is raised. Returns whether the session goes on.
///
/// # Errors
/// A write error of `output`.
pub fn respond_to<H: Handler>(
    handler: &mut H,
    raw: &[u8],
    stop: &Arc<AtomicBool>,
    output: &mut dyn Write,
) -> io::Result<Option<Flow>> {
    let Some(cmd) = parse(&preprocess(raw)) else {
        return Ok(None);
    };
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
        name if handler.streams(name) => {
            let mut stream = Stream::new(cmd.id.as_deref(), output, stop.clone());
            let reply = handler.stream(name, &cmd.args, &mut stream)?;
            if stream.begun {
                let (Reply::Ok(text) | Reply::Err(text)) = &reply;
                for l in text.lines() {
                    stream.line(l)?;
                }
                output.write_all(b"\n")?;
                output.flush()?;
                return Ok(Some(flow));
            }
            reply
        }
        name => handler
            .handle(name, &cmd.args)
            .unwrap_or_else(|| Reply::err("unknown command")),
    };
    output.write_all(format_reply(cmd.id.as_deref(), &reply).as_bytes())?;
    output.flush()?;
    Ok(Some(flow))
}

/// One read of the input thread: a line, the end of the input, or a read error.
type Input = io::Result<Option<Vec<u8>>>;

/// Runs a session: reads commands from `input` line by line, writes each reply to `output`
/// and flushes it, until `quit` or the end of the input (both a clean end).
///
/// The input is read on a thread of its own (detached: after `quit` it may still wait on
/// its input, and ends with the process), so a streaming command is stopped as soon as the
/// next line, or the end of the input, arrives.
///
/// # Errors
/// A read or write error of the streams.
pub fn serve<H: Handler>(
    handler: &mut H,
    mut input: impl BufRead + Send + 'static,
    mut output: impl Write,
) -> io::Result<()> {
    let pending = Arc::new(AtomicBool::new(false));
    // Reads counted by the reader before it raises the flag and sends them.
    let reads = Arc::new(std::sync::atomic::AtomicU64::new(0));
    let (tx, rx) = crossbeam::channel::unbounded::<Input>();
    let flag = pending.clone();
    let counted = reads.clone();
    std::thread::Builder::new()
        .name("gtp-input".into())
        .spawn(move || {
            loop {
                let mut line = Vec::new();
                let read = match input.read_until(b'\n', &mut line) {
                    Ok(0) => Ok(None),
                    Ok(_) => Ok(Some(line)),
                    Err(e) => Err(e),
                };
                let last = !matches!(read, Ok(Some(_)));
                // Counted, flagged, then sent: a line is flagged before the session can take
                // it, so the flag is never raised late for a line already taken (a stale flag
                // would stop the next streaming command at once); the session, after taking
                // a line and clearing the flag, raises it again if more lines were counted
                // than it has taken, so no line goes unflagged either.
                counted.fetch_add(1, Ordering::SeqCst);
                flag.store(true, Ordering::SeqCst);
                let sent = tx.send(read).is_ok();
                if last || !sent {
                    return;
                }
            }
        })?;
    let mut taken = 0u64;
    loop {
        let Ok(read) = rx.recv() else {
            return Ok(());
        };
        taken += 1;
        pending.store(false, Ordering::SeqCst);
        if reads.load(Ordering::SeqCst) > taken {
            pending.store(true, Ordering::SeqCst);
        }
        let Some(line) = read? else {
            return Ok(());
        };
        if respond_to(handler, &line, &pending, &mut output)? == Some(Flow::Quit) {
            return Ok(());
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
