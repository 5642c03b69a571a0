//! Result files of `prove --out FILE`, the unit of work of a campaign (`cmd/campaign`).
//!
//! A job must never leave a half-written result, and a rerun must skip work already done:
//! - the result is written to `FILE.tmp.PID` in the same directory, flushed to disk, and
//!   renamed onto `FILE` (a rename within one file system is atomic on POSIX), so `FILE`
//!   either does not exist or holds one whole JSON object;
//! - while the job runs, `FILE.running` holds `{"pid", "host", "started"}`; it is removed after
//!   the rename. A job killed by a signal leaves the marker behind and no result: `campaign
//!   status` then finds no live process of that pid on this host and reports the job as killed
//!   (missing);
//! - `--skip-if-done` skips a job whose `FILE` already holds a proven answer to the same
//!   question (board, moves, komi, winner), so rerunning a whole jobs file resumes it.

use anyhow::Context;
use serde_json::{Value, json};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The marker of a job in progress: `FILE.running` next to the result `FILE`.
#[must_use]
pub fn marker_path(result: &Path) -> PathBuf {
    let mut s = result.as_os_str().to_os_string();
    s.push(".running");
    PathBuf::from(s)
}

/// This machine's host name (Linux `/proc/sys/kernel/hostname`, else `HOSTNAME`, else
/// "unknown"), used to tell whether a marker's pid can be checked here.
#[must_use]
pub fn host_name() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .or_else(|| std::env::var("HOSTNAME").ok())
        .map_or_else(|| "unknown".into(), |h| h.trim().to_string())
}

/// Seconds since the Unix epoch (0 if the clock is before it).
#[must_use]
pub fn unix_seconds() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// The file that [`write_atomic_with`] writes for `path`: `path` itself, or the regular file
/// it names through symbolic links (a link is written through, never replaced by a file).
///
/// # Errors
/// `path` names something that is not a regular file (a device such as `/dev/full`, a
/// directory, a pipe): replacing it would destroy it, so it is refused by name.
fn regular_target(path: &Path, what: &str) -> anyhow::Result<PathBuf> {
    match std::fs::metadata(path) {
        Ok(m) if m.is_file() => Ok(std::fs::canonicalize(path).unwrap_or_else(|_| path.into())),
        Ok(m) => {
            let kind = if m.is_dir() {
                "a directory"
            } else {
                "not a regular file"
            };
            anyhow::bail!(
                "{what} {} is {kind}: refusing to replace it (name a new or regular file)",
                path.display()
            )
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(path.to_path_buf()),
        Err(e) => {
            Err(anyhow::Error::new(e).context(format!("cannot write {what} {}", path.display())))
        }
    }
}

/// The temporary name of a write to `target`: `TARGET.tmp.PID` in the same directory (so the
/// rename stays within one file system).
fn temporary(target: &Path) -> PathBuf {
    let mut tmp = target.as_os_str().to_os_string();
    tmp.push(format!(".tmp.{}", std::process::id()));
    PathBuf::from(tmp)
}

/// Checks, before any work, that [`write_atomic`] will be able to write `path` (the `what`
/// of the messages, e.g. "certificate"): it is absent or a regular file, and its directory
/// exists and takes a new file (one is created and removed). A long search then never ends
/// in an answer lost to a bad output path.
///
/// # Errors
/// `path` is a device, a directory or another non-regular file; its directory is missing or
/// not writable: a one-line message naming `path`.
pub fn check_target(path: &Path, what: &str) -> anyhow::Result<()> {
    let target = regular_target(path, what)?;
    let tmp = temporary(&target);
    std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&tmp)
        .map(drop)
        .map_err(|e| {
            anyhow::Error::new(e).context(format!("cannot write {what} {}", path.display()))
        })?;
    let _ = std::fs::remove_file(&tmp);
    Ok(())
}

/// Writes `path` atomically with `write`, the one way every output file of `tsumi` is
/// written: `write` fills a buffered temporary file `PATH.tmp.PID` in the same directory,
/// which is flushed, synced and renamed onto `path` (atomic on POSIX within one file system),
/// so `path` either keeps its old contents or holds the whole new file. `path` must be absent
/// or a regular file (a symbolic link to one is written through): a device (`/dev/full`), a
/// directory or a pipe is refused before anything is written. `what` names the file in
/// messages ("certificate", "result file").
///
/// # Errors
/// A non-regular `path`, or a write, sync or rename error (a full disk): a one-line message
/// naming `path`; the temporary file is removed.
pub fn write_atomic_with<T>(
    path: &Path,
    what: &str,
    write: impl FnOnce(&mut std::io::BufWriter<std::fs::File>) -> anyhow::Result<T>,
) -> anyhow::Result<T> {
    let target = regular_target(path, what)?;
    let tmp = temporary(&target);
    let run = || -> anyhow::Result<T> {
        let file = std::fs::File::create(&tmp)?;
        let mut w = std::io::BufWriter::new(file);
        let value = write(&mut w)?;
        let file = w
            .into_inner()
            .map_err(std::io::IntoInnerError::into_error)?;
        file.sync_all()?;
        std::fs::rename(&tmp, &target)?;
        Ok(value)
    };
    run().map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        e.context(format!("cannot write {what} {}", path.display()))
    })
}

/// Writes `text` to `path` atomically (see [`write_atomic_with`]), as the result file.
///
/// # Errors
/// As [`write_atomic_with`].
pub fn write_atomic(path: &Path, text: &str) -> anyhow::Result<()> {
    write_text(path, "result file", text)
}

/// Writes `text` to `path` atomically (see [`write_atomic_with`]); `what` names the file.
///
/// # Errors
/// As [`write_atomic_with`].
pub fn write_text(path: &Path, what: &str, text: &str) -> anyhow::Result<()> {
    write_atomic_with(path, what, |w| Ok(w.write_all(text.as_bytes())?))
}

/// Writes the marker of a job that starts now (pid, host, start time).
///
/// # Errors
/// The marker cannot be written (the result's directory is missing or read-only).
pub fn start_marker(result: &Path) -> anyhow::Result<()> {
    let m = json!({
        "pid": std::process::id(),
        "host": host_name(),
        "started": unix_seconds(),
    });
    write_atomic(&marker_path(result), &format!("{m}\n"))
        .with_context(|| format!("cannot start the job of {}", result.display()))
}

/// Removes the marker of a job that ended (a missing marker is fine).
pub fn end_marker(result: &Path) {
    let _ = std::fs::remove_file(marker_path(result));
}

/// The JSON object of a result file, if it exists and parses.
#[must_use]
pub fn read(path: &Path) -> Option<Value> {
    parse(&std::fs::read_to_string(path).ok()?)
}

/// The JSON value of a result file's text, if it parses (what [`read`] returns; the entry
/// point of the `result_file` fuzz target and its property test).
#[must_use]
pub fn parse(text: &str) -> Option<Value> {
    serde_json::from_str(text).ok()
}

/// The fields that name a question: the same in a result file and in a campaign's plan.
pub const QUESTION_FIELDS: [&str; 5] = ["board", "sgf", "moves", "komi", "winner"];

/// Whether `result` answers the question `question` (equal [`QUESTION_FIELDS`]) with a proof
/// (`"status": "proven"`).
#[must_use]
pub fn proves(result: &Value, question: &Value) -> bool {
    result["status"] == "proven" && same_question(result, question)
}

/// Whether two JSON objects ask the same question (equal [`QUESTION_FIELDS`]).
#[must_use]
pub fn same_question(a: &Value, b: &Value) -> bool {
    QUESTION_FIELDS.iter().all(|f| a[f] == b[f])
}

/// Removes the marker when dropped: on every return from a job, but not when the process
/// is killed (the stale marker is how `campaign status` tells a killed job).
pub struct MarkerGuard(pub PathBuf);

impl Drop for MarkerGuard {
    fn drop(&mut self) {
        end_marker(&self.0);
    }
}

/// One word for a POSIX shell (the match campaigns' quoting, shared).
pub use mcts::campaign::shell_word;

/// A command line for a POSIX shell: the words quoted by [`shell_word`], separated by spaces.
#[must_use]
pub fn shell_line<S: AsRef<str>>(words: &[S]) -> String {
    words
        .iter()
        .map(|w| shell_word(w.as_ref()))
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn atomic_write_replaces_whole_files_and_leaves_no_temporary() {
        let dir = std::env::temp_dir().join(format!("tsumi-result-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let f = dir.join("r.json");
        write_atomic(&f, "{\"a\":1}").unwrap();
        write_atomic(&f, "{\"a\":2}").unwrap();
        assert_eq!(read(&f).unwrap()["a"], 2);
        let names: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
        assert_eq!(names.len(), 1, "only the result remains");
        start_marker(&f).unwrap();
        assert!(marker_path(&f).exists());
        end_marker(&f);
        assert!(!marker_path(&f).exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn shell_words_quote_only_what_needs_it() {
        assert_eq!(
            shell_line(&["tsumi", "--moves", "B2,pass"]),
            "tsumi --moves B2,pass"
        );
        assert_eq!(shell_word("a b"), "'a b'");
        assert_eq!(shell_word("it's"), "'it'\\''s'");
        assert_eq!(shell_word(""), "''");
    }

    /// JSON-ish text: the tokens of result files, numbers, nesting and noise.
    fn json_soup() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        let token = prop::sample::select(vec![
            "{",
            "}",
            "[",
            "]",
            ":",
            ",",
            "\"board\"",
            "\"sgf\"",
            "\"moves\"",
            "\"komi\"",
            "\"winner\"",
            "\"status\"",
            "\"proven\"",
            "\"3x4\"",
            "null",
            "true",
            "3.5",
            "-1e999",
            "1e400",
            "18446744073709551616",
            "\"\\ud800\"",
            "\"",
            "\\",
            "\u{0}",
            "\"black\"",
            "[[[[[[[[",
            "]]]]]]]]",
        ]);
        prop::collection::vec(token, 0..40).prop_map(|t| t.concat())
    }

    proptest::proptest! {
        #![proptest_config(proptest::test_runner::Config { cases: 256, ..Default::default() })]

        /// The stable counterpart of the `result_file` fuzz target (fuzz/, nightly): any
        /// text is parsed or ignored, and questions compare, never a panic.
        #[test]
        fn any_result_text_is_read_or_ignored(a in json_soup(), b in ".{0,60}") {
            for text in [&a, &b] {
                if let Some(v) = parse(text) {
                    proptest::prop_assert!(same_question(&v, &v));
                    let _ = proves(&v, &v);
                    let q = json!({"board": "3x4", "moves": [], "komi": 3.5, "winner": "black"});
                    let _ = proves(&v, &q);
                }
            }
            let nested = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
            proptest::prop_assert!(parse(&nested).is_none(), "serde_json's depth limit");
        }
    }

    #[test]
    fn a_proof_counts_only_for_its_own_question() {
        let q =
            json!({"board": "3x4", "sgf": null, "moves": ["B2"], "komi": 3.5, "winner": "black"});
        let mut r = q.clone();
        r["status"] = "proven".into();
        assert!(proves(&r, &q));
        r["komi"] = 4.5.into();
        assert!(!proves(&r, &q));
        let mut u = q.clone();
        u["status"] = "unknown".into();
        assert!(!proves(&u, &q));
    }
}
