//! The streaming checker (`check::check_stream`, two passes with bounded memory) against the
//! in-memory one: the same verdict for every valid certificate in both formats and on one
//! or two threads, refusals of the same forgeries, and the memory bound it reports.

use check::{CheckError, Limits, check_stream, check_stream_bytes};
use games::Player;
use gosolve::certificate::CertificateFormat;

mod common;
use common::write;

fn limits(threads: usize) -> Limits {
    Limits {
        threads,
        ..Limits::default()
    }
}

const CASES: [(usize, usize, &[&str], Player, i32); 8] = [
    (1, 1, &[], Player::White, 1),
    (2, 2, &[], Player::Black, 1),
    (2, 3, &[], Player::White, 1),
    (3, 3, &[], Player::Black, 17),
    (3, 3, &["B2", "A1"], Player::Black, 17),
    (1, 5, &["pass"], Player::White, 5),
    (2, 4, &[], Player::Black, 15),
    (3, 4, &[], Player::Black, 7),
];

#[test]
fn the_stream_gives_the_in_memory_verdict() {
    for (rows, cols, moves, winner, komi2) in CASES {
        for f in [CertificateFormat::Text, CertificateFormat::Compact] {
            let text = write(rows, cols, moves, winner, komi2, f);
            let want = check::check_text(&text).unwrap();
            for threads in [1, 2] {
                let got = check_stream_bytes(text.as_bytes(), limits(threads)).unwrap();
                assert_eq!(got.verdict, want, "{rows}x{cols} {moves:?} {f:?} {threads}");
                assert_eq!(got.bytes, text.len() as u64);
                assert_eq!(got.threads, threads);
            }
        }
    }
}

#[test]
fn a_file_is_read_twice_and_kept_sets_are_dropped_after_their_last_reference() {
    let text = write(3, 4, &[], Player::Black, 7, CertificateFormat::Compact);
    let dir = std::env::temp_dir().join(format!("check-stream-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("3x4.tcz");
    std::fs::write(&path, &text).unwrap();
    let r = check_stream(std::fs::File::open(&path).unwrap(), Limits::default()).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(r.verdict, check::check_text(&text).unwrap());
    assert!(r.verdict.refs > 0 && r.targets > 0, "{r:?}");
    // Targets are kept from their completion to their last reference only.
    assert!(r.peak_targets < r.targets, "{r:?}");
    // The bound is enforced: one board fewer than the peak is refused as a limit.
    let tight = Limits {
        max_stored_boards: r.peak_boards.saturating_sub(1).max(1),
        ..Limits::default()
    };
    if r.peak_boards > 1 {
        match check_stream_bytes(text.as_bytes(), tight) {
            Err(CheckError::Limit(m)) => assert!(m.contains("Theorem 1 sets"), "{m}"),
            Ok(v) => {
                // The peak may be reached by open frames, which are counted but not refused.
                assert!(v.peak_boards <= r.peak_boards);
            }
            Err(e) => panic!("{e}"),
        }
    }
}

/// Accepted by one checker exactly when accepted by the other, with the same verdict.
fn agree(text: &str) {
    let mem = check::check_text(text);
    for threads in [1, 2] {
        let st = check_stream_bytes(text.as_bytes(), limits(threads));
        match (&mem, &st) {
            (Ok(a), Ok(b)) => assert_eq!(*a, b.verdict, "{text}"),
            (Err(_), Err(_)) => {}
            _ => panic!("the checkers disagree ({threads} threads): {mem:?} / {st:?}\n{text}"),
        }
    }
}

#[test]
fn both_checkers_refuse_the_same_edits() {
    // Single-line deletions, duplications and kind changes of small certificates (every
    // line of those up to 60 lines, about 60 evenly spread lines of the larger).
    for (rows, cols, moves, winner, komi2) in &CASES[..6] {
        for f in [CertificateFormat::Text, CertificateFormat::Compact] {
            let text = write(*rows, *cols, moves, *winner, *komi2, f);
            let lines: Vec<&str> = text.lines().collect();
            for i in (0..lines.len()).step_by(lines.len().div_ceil(60)) {
                let mut v = lines.clone();
                v.remove(i);
                agree(&(v.join("\n") + "\n"));
                let mut v = lines.clone();
                v.insert(i, lines[i]);
                agree(&(v.join("\n") + "\n"));
                for (a, b) in [
                    (" w", " e"),
                    (" win", " end"),
                    ("a", "a1"),
                    ("r", "r0"),
                    ("pass", "A1"),
                    (" y", " w"),
                ] {
                    if let Some(k) = lines[i].find(a) {
                        let mut s = lines[i].to_string();
                        s.replace_range(k..k + a.len(), b);
                        let mut v: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
                        v[i] = s;
                        agree(&(v.join("\n") + "\n"));
                    }
                }
            }
        }
    }
}

#[test]
fn the_stream_refuses_what_it_cannot_read() {
    for (text, want) in [
        ("", "empty"),
        (
            "tsumi-certificate 2\nsize 1x1\nkomi 0.5\nwinner white\nstart moves\n- a1\n",
            "ends",
        ),
        (
            "tsumi-certificate 2\nsize 1x1\nkomi 0.5\nwinner white\nstart moves\n- e\nend 1\n",
            "'end'",
        ),
        (
            "tsumi-certificate 2\nsize 1x1\nkomi 0.5\nwinner white\nstart moves\n- a1\npass w\nend 2\n",
            "incomplete",
        ),
    ] {
        for threads in [1, 2] {
            let e = check_stream_bytes(text.as_bytes(), limits(threads)).unwrap_err();
            assert!(e.to_string().contains(want), "{text}: {e}");
            assert!(check::check_text(text).is_err());
        }
    }
    let e = check_stream(std::io::Cursor::new(vec![b'x'; 1 << 21]), Limits::default()).unwrap_err();
    assert!(e.to_string().contains("longer than"), "{e}");
}
