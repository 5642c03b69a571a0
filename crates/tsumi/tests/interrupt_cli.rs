//! Ctrl-C (issue 38, item 3): the first SIGINT makes every command print what it knows and
//! exit with status 3; the exit-status table of README and `tsumi --help` says so.

mod common;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

fn start(args: &[&str]) -> Child {
    Command::new(common::bin())
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("tsumi starts")
}

fn sigint(child: &Child) {
    let ok = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill runs")
        .success();
    assert!(ok, "kill -INT");
}

/// Waits at most `limit` for the child; its status code, stdout and stderr (killed, and the
/// test failed, when it does not end in time).
fn finish(mut child: Child, limit: Duration) -> (Option<i32>, String, String) {
    let start = Instant::now();
    while child.try_wait().expect("wait").is_none() {
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("still running {limit:?} after Ctrl-C");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().expect("output");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn gtp_ends_with_status_3_at_the_first_ctrl_c() {
    let mut child = start(&["gtp"]);
    let mut stdin = child.stdin.take().unwrap();
    writeln!(stdin, "name").unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    stdout.read_line(&mut line).unwrap();
    assert!(line.starts_with("= "), "{line}");
    sigint(&child);
    let (code, _, err) = finish(child, Duration::from_secs(10));
    drop(stdin);
    assert_eq!(code, Some(3), "{err}");
    assert!(err.contains("interrupted"), "{err}");
}

#[test]
fn prove_hex_11x11_answers_the_first_ctrl_c() {
    // One H-search of an 11x11 board is long: the knowledge polls the flag itself.
    let child = start(&["prove", "hex", "11x11"]);
    std::thread::sleep(Duration::from_millis(1500));
    sigint(&child);
    let (code, out, err) = finish(child, Duration::from_secs(15));
    assert_eq!(code, Some(3), "{out}{err}");
    assert!(out.contains("unknown"), "what is known is printed: {out}");
    assert!(err.contains("interrupted"), "{err}");
}

#[test]
fn selftest_stops_asking_at_the_first_ctrl_c() {
    let child = start(&["selftest", "--quick"]);
    std::thread::sleep(Duration::from_millis(700));
    sigint(&child);
    let (code, out, err) = finish(child, Duration::from_secs(30));
    assert_eq!(code, Some(3), "{out}{err}");
    assert!(out.contains("disagreements: 0"), "the counts so far: {out}");
    assert!(err.contains("interrupted"), "{err}");
}

#[test]
fn a_certificate_interrupted_leaves_the_answer_and_no_file() {
    // The answer is printed before the certificate is written; Ctrl-C then stops the writer
    // (most of its questions are table hits that never look at the flag).
    let dir = tempfile::tempdir().unwrap();
    let cert = dir.path().join("c.cert");
    let mut child = start(&[
        "prove",
        "go",
        "4x4",
        "--komi",
        "1.5",
        "--winner",
        "black",
        "--threads",
        "1",
        "--certificate",
        cert.to_str().unwrap(),
    ]);
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut text = String::new();
    loop {
        let mut line = String::new();
        if stdout.read_line(&mut line).unwrap() == 0 {
            break;
        }
        text.push_str(&line);
        if line.starts_with("result:") {
            sigint(&child);
            break;
        }
    }
    let (code, _, err) = finish(child, Duration::from_secs(10));
    assert!(text.contains("black wins"), "the answer first: {text}");
    assert_eq!(code, Some(3), "{err}");
    assert!(err.contains("not written"), "{err}");
    assert!(!cert.exists());
    let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert!(left.is_empty(), "no temporary file is left: {left:?}");
}
