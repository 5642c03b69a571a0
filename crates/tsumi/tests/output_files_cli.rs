//! Output files (issue 38, items 1 and 6): every file `tsumi` writes goes through one atomic
//! writer that refuses to replace anything but a regular file, and output paths are checked
//! before a search, so that no answer is lost to a bad path.

mod common;
use common::tsumi;
use std::path::Path;
use std::process::Command;

/// A named pipe at `path` (a non-regular file any user may create and replace).
fn fifo(path: &Path) {
    let ok = Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("mkfifo runs")
        .success();
    assert!(ok, "mkfifo {}", path.display());
}

fn is_fifo(path: &Path) -> bool {
    use std::os::unix::fs::FileTypeExt;
    std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_fifo())
}

fn assert_refused(args: &[&str], target: &Path) {
    let out = tsumi(args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert!(err.contains("not a regular file"), "{args:?}: {err}");
    assert!(is_fifo(target), "{args:?} replaced {}", target.display());
}

#[test]
fn outputs_never_replace_a_file_that_is_not_regular() {
    let dir = tempfile::tempdir().unwrap();
    let pipe = dir.path().join("pipe");
    fifo(&pipe);
    let p = pipe.to_str().unwrap();
    let prove = ["prove", "go", "2x2", "--komi", "0.5", "--winner", "black"];
    for flag in ["--certificate", "--out", "--proof-sgf"] {
        let mut args = prove.to_vec();
        args.extend([flag, p]);
        assert_refused(&args, &pipe);
    }
    // A device is refused by the same check, before any search (`/dev/full` as root).
    let mut args = prove.to_vec();
    args.extend(["--certificate", "/dev/full"]);
    let out = tsumi(&args);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a regular file"));
    use std::os::unix::fs::FileTypeExt;
    let full = std::fs::metadata("/dev/full").unwrap().file_type();
    assert!(full.is_char_device(), "/dev/full is still a device");
    // A regular file is replaced whole, and nothing else is left in the directory.
    let cert = dir.path().join("c.cert");
    std::fs::write(&cert, "old").unwrap();
    let mut args = prove.to_vec();
    args.extend(["--certificate", cert.to_str().unwrap()]);
    assert!(tsumi(&args).status.success());
    assert!(
        std::fs::read_to_string(&cert)
            .unwrap()
            .starts_with("tsumi-certificate")
    );
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        2,
        "pipe and c.cert only"
    );
}

#[test]
fn a_write_error_is_status_2() {
    // A directory that cannot take the temporary file: the check before the search says so.
    let dir = tempfile::tempdir().unwrap();
    let out = tsumi(&[
        "prove",
        "go",
        "2x2",
        "--komi",
        "0.5",
        "--winner",
        "black",
        "--out",
        "/proc/tsumi-result.json",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("cannot write result file /proc/tsumi-result.json"),
        "{err}"
    );
    drop(dir);
}

#[test]
fn solve_checks_its_output_directory_before_searching() {
    // `/proc` takes no new file: refused before the search, not after the value is found
    // (the search of 3x5 would print its table's figures on stderr first).
    for flag in ["--certificate", "--proof-sgf"] {
        let out = tsumi(&[
            "solve",
            "go",
            "3x5",
            "--threads",
            "1",
            flag,
            "/proc/tsumi-x",
        ]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(err.contains(flag), "{err}");
        assert!(!err.contains("question:"), "searched first: {err}");
    }
    let out = tsumi(&[
        "prove",
        "go",
        "3x5",
        "--komi",
        "0.5",
        "--winner",
        "black",
        "--certificate",
        "/proc/tsumi-x/c.cert",
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(!err.contains("expansions"), "searched first: {err}");
}

#[test]
fn match_records_refuse_a_pipe_in_place_of_a_game_file() {
    let dir = tempfile::tempdir().unwrap();
    let game = dir.path().join("game-00000.txt");
    fifo(&game);
    let out = tsumi(&[
        "match",
        "--game",
        "tictactoe",
        "--size",
        "3",
        "uct",
        "uct",
        "--games",
        "1",
        "--playouts",
        "10",
        "--threads",
        "1",
        "--records",
        dir.path().to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(is_fifo(&game));
}
