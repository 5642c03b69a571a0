//! `tsumi gtp` and `tsumi htp` as child processes with stdin piped, as GUIs and referees run
//! them: a short transcript each, a clean exit 0 at the end of input, and bad options refused
//! with status 2.

mod common;
use std::io::Write;
use std::process::{Command, Stdio};

fn session(args: &[&str], input: &str) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tsumi"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn gtp_answers_a_transcript_and_exits_0_at_end_of_input() {
    let (rc, out, err) = session(
        &["gtp", "--size", "2", "--komi", "0.5", "--tt-mib", "4"],
        "1 protocol_version\n2 boardsize 20\n3 genmove b\n4 final_score\n",
    );
    assert_eq!(rc, 0, "{err}");
    let replies: Vec<&str> = out.split("\n\n").collect();
    assert_eq!(replies[0], "=1 2");
    assert_eq!(replies[1], "?2 unacceptable size");
    assert!(replies[2].starts_with("=3 "), "{out}");
    assert!(err.contains("proven, value +1"), "genmove says how: {err}");
    assert!(replies[3].starts_with("=4 "));
    assert!(out.ends_with("\n\n"));
}

#[test]
fn gtp_quit_ends_the_session() {
    let (rc, out, _) = session(&["gtp"], "quit\nname\n");
    assert_eq!((rc, out.as_str()), (0, "=\n\n"));
}

#[test]
fn htp_answers_dfpn_solve_state() {
    let (rc, out, err) = session(
        &["htp", "--size", "3"],
        "dfpn-solve-state\nplay w b2\ndfpn-solve-state\n",
    );
    assert_eq!(rc, 0, "{err}");
    assert_eq!(out, "= black\n\n=\n\n= white\n\n");
}

#[test]
fn bad_options_are_refused_with_one_line_and_status_2() {
    for args in [
        &["gtp", "--size", "20"][..],
        &["gtp", "--komi", "0.3"],
        &["gtp", "--playouts", "0"],
        &["gtp", "--solve-seconds", "nan"],
        &["htp", "--size", "0"],
    ] {
        let (rc, out, err) = session(args, "");
        assert_eq!(rc, 2, "{args:?}: {err}");
        assert!(out.is_empty());
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    }
}

/// Issue 38, item 7: the Monte Carlo player of `gtp` played on the reference board (about
/// 1,200 playouts/s on 7x7 against 78,737 in `match`; 19x19's first `genmove` took 59 s). It
/// plays on the fast board now: the first 19x19 move with 1000 playouts is far under a
/// referee's timeout (0.3 s measured on a loaded 2-core machine; the bound is generous).
#[test]
fn the_monte_carlo_player_answers_a_19x19_genmove_quickly() {
    let start = std::time::Instant::now();
    let mut child = Command::new(common::bin())
        .args(["gtp", "--no-solve", "--size", "19", "--playouts", "1000"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"genmove b\nquit\n").unwrap();
    drop(stdin);
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > std::time::Duration::from_secs(20) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("19x19 genmove took more than 20 s");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success());
    assert!(
        text.starts_with("= ") && !text.starts_with("= pass"),
        "{text}"
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("MCPS, 1000 playouts"), "{err}");
}
