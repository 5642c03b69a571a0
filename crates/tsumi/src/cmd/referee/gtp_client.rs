//! A GTP client: drives one engine process over its standard input and output (GTP version
//! 2, <https://www.lysator.liu.se/~gunnar/gtp/gtp2-spec-draft2/gtp2-spec.html>).
//!
//! Framing (our own): a command is one line `command args\n` (no id); the reply is read line
//! by line until the first empty line; its first line starts with `=` (success) or `?`
//! (failure), the rest of it and the following lines are the reply's text. Empty lines before
//! a reply are skipped; any other line there is a protocol error. Lines end in `\n`; a `\r`
//! before it is dropped.
//!
//! Every read has a deadline: a reader thread turns the engine's output into lines on a
//! channel, and the client waits on the channel with a timeout, so a hung engine cannot hang
//! its caller. The engine runs as `sh -c CMD` in a process group of its own; closing it sends
//! `quit`, waits briefly, then kills whatever is left of the group, and reaps the process.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// Why a command to an engine did not get a success reply.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum GtpError {
    /// The engine answered `?` with this text.
    #[error("'{command}' failed: ? {text}")]
    Failure {
        /// The command sent.
        command: String,
        /// The reply's text.
        text: String,
    },
    /// No complete reply within the deadline.
    #[error("no reply to '{command}' within {seconds} s")]
    Timeout {
        /// The command sent.
        command: String,
        /// The deadline in seconds.
        seconds: f64,
    },
    /// The engine closed its output or its input (it exited or crashed).
    #[error("the engine died (its pipe closed) at '{command}'")]
    Died {
        /// The command sent.
        command: String,
    },
    /// A line that is not part of a GTP reply.
    #[error("not a GTP reply to '{command}': '{line}'")]
    Protocol {
        /// The command sent.
        command: String,
        /// The offending line.
        line: String,
    },
    /// The engine could not be started.
    #[error("cannot start the engine '{0}': {1}")]
    Spawn(String, String),
}

/// Seconds `close` waits for an engine to exit after `quit` before killing it.
pub const QUIT_GRACE_S: f64 = 2.0;

/// One engine process spoken to over GTP.
pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    closed: bool,
}

impl Engine {
    /// Starts `command` with `sh -c` in a process group of its own (its standard error is
    /// passed through).
    ///
    /// # Errors
    /// [`GtpError::Spawn`] when `sh` cannot be started.
    pub fn spawn(command: &str) -> Result<Self, GtpError> {
        use std::os::unix::process::CommandExt;
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .process_group(0)
            .spawn()
            .map_err(|e| GtpError::Spawn(command.to_string(), e.to_string()))?;
        let stdout = child.stdout.take().expect("stdout is piped");
        let stdin = child.stdin.take();
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match r.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&buf);
                        let line = line.trim_end_matches('\n').trim_end_matches('\r');
                        if tx.send(line.to_string()).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        Ok(Self {
            child,
            stdin,
            lines: rx,
            closed: false,
        })
    }

    /// Sends `command` and returns the text of its success reply (after `=` and one space,
    /// lines joined by `\n`).
    ///
    /// # Errors
    /// [`GtpError`]: a `?` reply, no reply within `timeout`, a dead engine, or a line that is
    /// not GTP.
    pub fn send(&mut self, command: &str, timeout: Duration) -> Result<String, GtpError> {
        let died = || GtpError::Died {
            command: command.to_string(),
        };
        let stdin = self.stdin.as_mut().ok_or_else(died)?;
        stdin
            .write_all(format!("{command}\n").as_bytes())
            .and_then(|()| stdin.flush())
            .map_err(|_| died())?;
        let deadline = Instant::now() + timeout;
        let mut reply: Option<(bool, Vec<String>)> = None;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = match self.lines.recv_timeout(left) {
                Ok(l) => l,
                Err(RecvTimeoutError::Timeout) => {
                    return Err(GtpError::Timeout {
                        command: command.to_string(),
                        seconds: timeout.as_secs_f64(),
                    });
                }
                Err(RecvTimeoutError::Disconnected) => return Err(died()),
            };
            match &mut reply {
                None if line.trim().is_empty() => {}
                None => {
                    let ok = match line.as_bytes()[0] {
                        b'=' => true,
                        b'?' => false,
                        _ => {
                            return Err(GtpError::Protocol {
                                command: command.to_string(),
                                line,
                            });
                        }
                    };
                    // Skip an id (digits) after the status character.
                    let rest = line[1..].trim_start_matches(|c: char| c.is_ascii_digit());
                    reply = Some((ok, vec![rest.trim().to_string()]));
                }
                Some(_) if line.is_empty() => break,
                Some((_, text)) => text.push(line),
            }
        }
        let (ok, text) = reply.expect("a reply was read");
        let text = text.join("\n").trim().to_string();
        if ok {
            Ok(text)
        } else {
            Err(GtpError::Failure {
                command: command.to_string(),
                text,
            })
        }
    }

    /// Sends `quit` (its reply waited for at most [`QUIT_GRACE_S`]), closes the engine's
    /// input, waits up to [`QUIT_GRACE_S`] for it to exit, kills what is left of its process
    /// group, and reaps it. Safe to call twice.
    pub fn close(&mut self) {
        if self.closed {
            return;
        }
        self.closed = true;
        let grace = Duration::from_secs_f64(QUIT_GRACE_S);
        let _ = self.send("quit", grace);
        self.stdin = None;
        let pid = self.child.id();
        let deadline = Instant::now() + grace;
        // Watch for the exit without reaping, so the group id stays reserved until the
        // group is killed below.
        while Instant::now() < deadline && !exited_unreaped(pid) {
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = Command::new("kill")
            .args(["-KILL", "--", &format!("-{pid}")])
            .stderr(Stdio::null())
            .status();
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.close();
    }
}

/// Whether process `pid` has exited and waits to be reaped (a zombie), or is gone (Linux
/// `/proc`; elsewhere `true`, so `close` goes on at once).
fn exited_unreaped(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        // The state is the field after the parenthesised command name.
        Ok(stat) => stat
            .rsplit_once(')')
            .and_then(|(_, rest)| rest.split_whitespace().next())
            .is_none_or(|s| s == "Z" || s == "X"),
        Err(_) => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SECOND: Duration = Duration::from_secs(5);

    #[test]
    fn replies_are_read_to_the_blank_line_and_failures_are_errors() {
        // A tiny engine: echoes "= ok" with a second line for "two", "? no" for "bad".
        let script = r#"while IFS= read -r l; do case "$l" in
            two) printf '= first\nsecond\n\n';; bad) printf '? no\n\n';;
            quit) printf '=\n\n'; exit 0;; *) printf '\n=1 ok\n\n';; esac; done"#;
        let mut e = Engine::spawn(script).unwrap();
        assert_eq!(e.send("name", SECOND).unwrap(), "ok");
        assert_eq!(e.send("two", SECOND).unwrap(), "first\nsecond");
        assert_eq!(
            e.send("bad", SECOND).unwrap_err(),
            GtpError::Failure {
                command: "bad".into(),
                text: "no".into()
            }
        );
        e.close();
    }

    #[test]
    fn a_silent_engine_times_out_and_a_dead_one_is_reported() {
        let mut e = Engine::spawn("exec sleep 30").unwrap();
        let t = Instant::now();
        let err = e.send("genmove b", Duration::from_millis(200)).unwrap_err();
        assert!(matches!(err, GtpError::Timeout { .. }), "{err}");
        e.close();
        assert!(t.elapsed() < Duration::from_secs(10), "close kills it");
        let mut d = Engine::spawn("exit 3").unwrap();
        let err = d.send("name", SECOND).unwrap_err();
        assert!(matches!(err, GtpError::Died { .. }), "{err}");
        let mut g = Engine::spawn("echo hello; exec sleep 30").unwrap();
        let err = g.send("name", SECOND).unwrap_err();
        assert!(matches!(err, GtpError::Protocol { .. }), "{err}");
    }
}
