//! Helpers shared by the CLI tests: run the built `tsumi` binary, parse its JSON, and check
//! that bad input gives a one-line error.
#![allow(dead_code)]

use std::process::{Command, Output};

/// The binary under test: `TSUMI_BIN` when set (to run a test against another build, e.g.
/// to see it fail before a fix), else the one cargo built.
pub fn bin() -> String {
    std::env::var("TSUMI_BIN").unwrap_or_else(|_| env!("CARGO_BIN_EXE_tsumi").to_string())
}

pub fn tsumi(args: &[&str]) -> Output {
    Command::new(bin()).args(args).output().expect("tsumi runs")
}

pub fn json(args: &[&str]) -> serde_json::Value {
    let out = tsumi(args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("one JSON object")
}

/// Asserts a one-line error mentioning `needle` and a non-zero exit, without a panic.
pub fn assert_clear_error(args: &[&str], needle: &str) {
    let out = tsumi(args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{args:?} should fail");
    assert_ne!(out.status.code(), Some(101), "{args:?} panicked: {err}");
    assert!(!err.contains("panicked"), "{args:?} panicked: {err}");
    assert_eq!(
        err.trim().lines().count(),
        1,
        "{args:?}: not one line: {err}"
    );
    assert!(
        err.contains(needle),
        "{args:?}: '{err}' should mention '{needle}'"
    );
}

/// GNU Go's path (on the PATH or Debian's /usr/games), or `None` with a printed reason.
///
/// # Panics
/// When GNU Go is missing and `CI` is set to anything but `false` or `0` (`.ci/run` sets
/// `CI=true`): in CI a test that needs GNU Go fails instead of passing without it.
pub fn gnugo() -> Option<String> {
    let found = std::env::var_os("PATH")
        .into_iter()
        .flat_map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
        .chain([std::path::PathBuf::from("/usr/games")])
        .map(|d| d.join("gnugo"))
        .find(|p| p.is_file());
    if found.is_none() {
        let ci = std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false" && v != "0");
        assert!(
            !ci,
            "gnugo is not installed and CI={}: this test needs it (apt-get install gnugo; \
             .ci/run installs it)",
            std::env::var("CI").unwrap_or_default()
        );
        eprintln!("skipped: gnugo is not installed (apt-get install gnugo; .ci/run does)");
    }
    found.map(|p| p.display().to_string())
}

/// The winner of hex `size` after Black's opening `cell`, from `data/hex-opening-maps.tsv`.
pub fn opening_winner(size: &str, cell: &str) -> &'static str {
    let table = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../data/hex-opening-maps.tsv"
    ))
    .unwrap();
    let wins = table
        .lines()
        .find_map(|l| l.strip_prefix(&format!("{size}\t")))
        .and_then(|rest| rest.split('\t').nth(1))
        .unwrap_or_else(|| panic!("{size} in hex-opening-maps.tsv"))
        .split(' ')
        .any(|c| c == cell);
    if wins { "black" } else { "white" }
}

/// A fresh temporary directory, removed with everything in it when dropped (the `tempfile`
/// crate), so no test leaves folders in /tmp. It dereferences to its path: the directory
/// itself ([`temp_folder`]) or a name inside it that does not exist yet ([`temp_path`]).
pub struct TempFolder {
    _dir: tempfile::TempDir,
    path: std::path::PathBuf,
}

impl std::ops::Deref for TempFolder {
    type Target = std::path::Path;
    fn deref(&self) -> &std::path::Path {
        &self.path
    }
}

impl AsRef<std::path::Path> for TempFolder {
    fn as_ref(&self) -> &std::path::Path {
        &self.path
    }
}

fn temp(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("tsumi-{name}-"))
        .tempdir()
        .expect("a temporary directory")
}

/// A new empty [`TempFolder`] whose name starts with `tsumi-NAME-`.
pub fn temp_folder(name: &str) -> TempFolder {
    let dir = temp(name);
    let path = dir.path().to_path_buf();
    TempFolder { _dir: dir, path }
}

/// A [`TempFolder`] for a directory that a command creates: `out` inside a new temporary
/// directory, not yet there.
pub fn temp_path(name: &str) -> TempFolder {
    let dir = temp(name);
    let path = dir.path().join("out");
    TempFolder { _dir: dir, path }
}
