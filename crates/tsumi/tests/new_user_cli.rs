//! Issue 38 item 9, what a new user broke (the smaller items), each through the binary:
//! the proof lines name the asked side as the JSON does, GTP's reason for a komi it cannot
//! take, advice that never sends a user from one engine to the other and back, a referee
//! that can fail on a forfeit, `undo` after `loadsgf`, Go in `match` and `play` below 5x5 and
//! on rectangles, one size convention (rows × columns) with ambiguous rectangles refused,
//! `RE` with the score, certificate names without "--", "1 move", and `printsgf FILE`
//! through the atomic writer. Every file goes into a `tempfile` directory, removed at the end.

mod common;

use common::{bin, json, tsumi};
use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Runs `tsumi ARGS` with `input` on stdin; returns (status, stdout, stderr). Killed (and the
/// test failed) after `limit`.
fn run_with_input(args: &[&str], input: &str, limit: Duration) -> (i32, String, String) {
    let mut child = Command::new(bin())
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("tsumi runs");
    let mut stdin = child.stdin.take().unwrap();
    let text = input.to_string();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(text.as_bytes());
    });
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > limit {
            let _ = child.kill();
            let out = child.wait_with_output().unwrap();
            panic!(
                "{args:?} did not finish in {limit:?}; stdout so far: {}",
                String::from_utf8_lossy(&out.stdout)
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    writer.join().unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn gtp(input: &str) -> String {
    let (code, out, err) = run_with_input(&["gtp"], input, Duration::from_secs(60));
    assert_eq!(code, 0, "{err}");
    out
}

#[test]
fn a_lost_question_names_the_asked_side_in_text_as_in_json() {
    // 2x3 is worth 0: "does Black win at komi 0.5?" is answered no, so White wins there.
    let out = tsumi(&["solve", "go", "2x3", "--threads", "1"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    let line = text
        .lines()
        .find(|l| l.starts_with("proof") && l.contains("white"))
        .unwrap_or_else(|| panic!("no proof line for white: {text}"));
    assert!(
        line.contains("wins at komi   0.5 (asked: does black win? no)"),
        "{line}"
    );
    let v = json(&["solve", "go", "2x3", "--threads", "1", "--json"]);
    let lost = v["proofs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["winner"] == "white")
        .unwrap();
    assert_eq!(lost["asked"], "black", "{lost}");
    assert_eq!(lost["result"], "loss", "{lost}");
}

#[test]
fn gtp_gives_the_real_reason_for_a_komi_it_cannot_take() {
    let out = gtp("komi 1000.5\nkomi 6.3\nkomi abc\nkomi 1000\n");
    assert_eq!(
        out,
        "? komi 1000.5 out of range (tsumi takes komi from -1000 to 1000)\n\n\
         ? komi 6.3 not supported (tsumi takes multiples of 0.5, e.g. 7.5 or -2)\n\n\
         ? syntax error (invalid komi 'abc' (expected a multiple of 0.5 from -1000 to 1000, e.g. 7.5 or -2))\n\n\
         =\n\n"
    );
}

#[test]
fn advice_on_6x6_never_sends_the_user_back_to_the_engine_that_refused() {
    // dfpn refuses 36 points and points at the oracle for positions with few empty points;
    // the oracle, out of budget on 6x6, must not point back at dfpn.
    let out = tsumi(&["solve", "go", "6x6"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("--engine oracle"), "{err}");
    let out = tsumi(&[
        "solve",
        "go",
        "6x6",
        "--engine",
        "oracle",
        "--max-expansions",
        "100",
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert!(!err.contains("use the dfpn engine"), "{err}");
    assert!(err.contains("up to 30 points only"), "{err}");
    // On a board dfpn takes, the oracle's advice is dfpn.
    let out = tsumi(&[
        "solve",
        "go",
        "3x3",
        "--engine",
        "oracle",
        "--max-expansions",
        "10",
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert!(err.contains("the dfpn engine, the default"), "{err}");
}

#[test]
fn referee_fails_on_a_missing_engine_when_asked_to() {
    let me = format!("{} gtp", bin());
    let args = |extra: &[&'static str]| {
        let mut a = vec![
            "referee".to_string(),
            "--black".into(),
            "tsumi-no-such-engine-38".into(),
            "--white".into(),
            me.clone(),
            "--size".into(),
            "2".into(),
            "--komi".into(),
            "0.5".into(),
            "--games".into(),
            "1".into(),
        ];
        a.extend(extra.iter().map(|s| (*s).to_string()));
        a
    };
    let plain = args(&[]);
    let out = tsumi(&plain.iter().map(String::as_str).collect::<Vec<_>>());
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.contains("1 game on 2x2"), "{text}");
    assert!(text.contains("1 forfeit"), "{text}");
    assert!(text.contains("after 0 moves"), "{text}");
    let strict = args(&["--fail-on-forfeit"]);
    let out = tsumi(&strict.iter().map(String::as_str).collect::<Vec<_>>());
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("--fail-on-forfeit: 1 game of 1 forfeited"),
        "{err}"
    );
}

#[test]
fn undo_after_loadsgf_takes_back_the_files_moves() {
    let dir = tempfile::tempdir().unwrap();
    let sgf = dir.path().join("game.sgf");
    std::fs::write(&sgf, "(;GM[1]FF[4]SZ[3]KM[1.5];B[bb];W[ab];B[ac])").unwrap();
    let f = sgf.display();
    let out = gtp(&format!(
        "loadsgf {f}\nundo\nshowboard\nundo\nundo\nundo\nkomi 3.5\nloadsgf {f} 3\nkomi 0.5\nundo\nshowboard\n"
    ));
    let replies: Vec<&str> = out.split("\n\n").collect();
    assert_eq!(replies[1], "=", "{out}");
    assert!(
        replies[2].contains("black to move, komi 1.5, 2 moves played"),
        "{out}"
    );
    assert!(replies[2].contains(" 2  O X ."), "{out}");
    assert_eq!(&replies[3..6], ["=", "=", "? cannot undo"], "{out}");
    // Loaded before move 3 (two moves), komi changed, one undo: one move, the new komi.
    assert_eq!(&replies[6..10], ["=", "=", "=", "="], "{out}");
    assert!(
        replies[10].contains("white to move, komi 0.5, 1 move played"),
        "{out}"
    );
}

#[test]
fn match_and_play_take_small_and_rectangular_go_boards() {
    for size in ["1", "2", "3", "3x4", "2x5"] {
        let out = tsumi(&[
            "match",
            "--game",
            "go",
            "--size",
            size,
            "mcps",
            "grave",
            "--games",
            "2",
            "--playouts",
            "30",
            "--threads",
            "1",
        ]);
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{size}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(text.starts_with(&format!("go {size}: ")), "{text}");
        assert!(text.contains("2 games"), "{text}");
    }
    let (code, out, err) = run_with_input(
        &["play", "--game", "go", "--size", "3x4", "--playouts", "20"],
        "quit\n",
        Duration::from_secs(30),
    );
    assert_eq!(code, 0, "{err}");
    // Three rows of four points.
    assert!(
        out.contains(" 3  . . . .\n 2  . . . .\n 1  . . . .\n    A B C D"),
        "{out}"
    );
}

#[test]
fn sizes_are_rows_by_columns_and_old_column_first_rectangles_are_refused() {
    // The small games read "7x6" as 7 columns, 6 rows before: now ambiguous, refused.
    for args in [
        &["match", "--game", "connect4", "--size", "7x6", "uct", "uct"][..],
        &["prove", "hex", "2x3"][..],
        &["htp", "--size", "4x5"][..],
    ] {
        let out = tsumi(args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains("is ambiguous"), "{args:?}: {err}");
    }
    // Named sides, in either order, are the same board.
    let a = json(&["prove", "connect4", "3rx4c", "--json"]);
    let b = json(&["prove", "connect4", "4cx3r", "--json"]);
    assert_eq!(a["result"], b["result"]);
    assert_eq!(a["expansions"], b["expansions"]);
    // Squares are read as before.
    assert!(tsumi(&["prove", "hex", "3x3"]).status.success());
    // The referee's --size is rows x columns like Go's other sizes; --rect keeps CxR.
    let me = format!("{} gtp", bin());
    for (flag, size) in [("--size", "2x3"), ("--rect", "3x2")] {
        let out = tsumi(&[
            "referee", "--black", &me, "--white", &me, flag, size, "--komi", "0.5", "--games", "1",
            "--json",
        ]);
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{flag}: {text}");
        let summary: serde_json::Value =
            serde_json::from_str(text.lines().last().unwrap()).unwrap();
        assert_eq!(summary["board"], "2x3", "{flag}: {text}");
    }
}

#[test]
fn go_match_records_have_a_scored_result_and_certificates_no_double_dash() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    let out = tsumi(&[
        "match",
        "--game",
        "go",
        "--size",
        "3x4",
        "mcps",
        "grave",
        "--games",
        "2",
        "--playouts",
        "30",
        "--threads",
        "1",
        "--records",
        d,
    ]);
    assert!(out.status.success());
    let mut n = 0;
    for e in std::fs::read_dir(dir.path()).unwrap() {
        let text = std::fs::read_to_string(e.unwrap().path()).unwrap();
        let re = text.split("RE[").nth(1).unwrap().split(']').next().unwrap();
        let ok = re == "0"
            || (re.len() > 2
                && (re.starts_with("B+") || re.starts_with("W+"))
                && re[2..].parse::<f64>().is_ok());
        assert!(ok, "RE[{re}] has no score");
        assert!(text.contains("SZ[4:3]"), "{text}");
        n += 1;
    }
    assert_eq!(n, 2);
    // 2x3 is worth 0: Black's proof is at komi -0.5.
    let certs = tempfile::tempdir().unwrap();
    let out = tsumi(&[
        "solve",
        "go",
        "2x3",
        "--certificate",
        certs.path().to_str().unwrap(),
    ]);
    assert!(out.status.success());
    let mut names: Vec<String> = std::fs::read_dir(certs.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["black-minus0.5.cert", "white-0.5.cert"]);
}

#[test]
fn showboard_says_one_move_not_one_moves() {
    let out = gtp("boardsize 3\nplay b B2\nshowboard\n");
    assert!(
        out.contains("white to move, komi 7.5, 1 move played"),
        "{out}"
    );
}

#[test]
fn printsgf_refuses_a_pipe_instead_of_blocking_on_it() {
    // `std::fs::write` opens a FIFO and waits for a reader forever; the atomic writer
    // refuses anything that is not a regular file, and writes regular files whole.
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("fifo");
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let file = dir.path().join("game.sgf");
    let (code, out, err) = run_with_input(
        &["gtp"],
        &format!(
            "boardsize 3\nplay b B2\nprintsgf {}\nprintsgf {}\n",
            fifo.display(),
            file.display()
        ),
        Duration::from_secs(20),
    );
    assert_eq!(code, 0, "{err}");
    let replies: Vec<&str> = out.split("\n\n").collect();
    assert!(
        replies[2].starts_with("? cannot write file") && replies[2].contains("not a regular file"),
        "{out}"
    );
    assert_eq!(replies[3], "=", "{out}");
    let sgf = std::fs::read_to_string(&file).unwrap();
    assert!(sgf.contains("SZ[3]") && sgf.contains(";B[bb]"), "{sgf}");
    let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert_eq!(left.len(), 2, "no temporary file is left: {left:?}");
}
