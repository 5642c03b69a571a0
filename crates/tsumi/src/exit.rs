//! Exit statuses, the same for every command (documented in `tsumi --help` and docs/usage.md):
//!
//! | status | meaning |
//! |---|---|
//! | 0 | the command answered (a value, a proof, a finished match) |
//! | 2 | an error: bad input, an option that does not apply, a file or write error |
//! | 3 | no answer: the budget ran out or Ctrl-C stopped the run (what is known is printed) |
//! | 130 | a second Ctrl-C: stopped at once |
//! | 141 | the reader of standard output went away (a closed pipe): quiet, as `cat` does |

use std::fmt;

/// Exit status of an error (bad input, I/O).
pub const ERROR: i32 = 2;
/// Exit status of a run that ended without an answer (budget or Ctrl-C).
pub const UNKNOWN: i32 = 3;
/// Exit status after a closed pipe on standard output (128 + SIGPIPE).
pub const BROKEN_PIPE: i32 = 141;

/// The answer is not known: the budget ran out or the run was interrupted. Commands return
/// it (wrapped in `anyhow::Error`) after printing what they know; `main` exits with
/// [`UNKNOWN`].
#[derive(Debug)]
pub struct Unknown(pub String);

impl fmt::Display for Unknown {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Unknown {}

/// An [`Unknown`] error with this message (one line, e.g. "budget exhausted: …").
#[allow(dead_code)] // used by the commands as they adopt it
pub fn unknown(message: impl Into<String>) -> anyhow::Error {
    anyhow::Error::new(Unknown(message.into()))
}

/// The exit status for an error returned by a command: [`UNKNOWN`] for an unknown answer,
/// [`BROKEN_PIPE`] when any cause is a closed pipe, [`ERROR`] otherwise.
#[must_use]
pub fn status_of(e: &anyhow::Error) -> i32 {
    if e.downcast_ref::<Unknown>().is_some() {
        return UNKNOWN;
    }
    let pipe = e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    });
    if pipe { BROKEN_PIPE } else { ERROR }
}

/// Installs the panic hook that turns a failed write to standard output (`println!` panics
/// on it) into one line and an exit status: a closed pipe ends quietly with [`BROKEN_PIPE`];
/// any other write error (a full disk, `> /dev/full`) prints "error: cannot write to standard
/// output: …" and exits with [`ERROR`]. Every other panic keeps the default report.
pub fn install_write_error_hook() {
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let text = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or("");
        // std's message: "failed printing to stdout: <io::Error>".
        if let Some(why) = text.strip_prefix("failed printing to stdout: ") {
            if why.contains("Broken pipe") {
                std::process::exit(BROKEN_PIPE);
            }
            eprintln!("error: cannot write to standard output: {why}");
            std::process::exit(ERROR);
        }
        if text.contains("Broken pipe") {
            std::process::exit(BROKEN_PIPE);
        }
        default_hook(info);
    }));
}

/// Flushes standard output at the end of a command: a buffered write that fails only now
/// (a full disk) is still an error.
///
/// # Errors
/// The write error, with the words "cannot write to standard output".
pub fn flush_stdout() -> anyhow::Result<()> {
    use std::io::Write;
    std::io::stdout()
        .flush()
        .map_err(|e| anyhow::Error::new(e).context("cannot write to standard output"))
}
