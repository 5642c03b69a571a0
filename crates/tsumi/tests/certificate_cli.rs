//! `prove go --certificate` and `tsumi check`: certificates of both deciding proofs of every
//! board value up to 3x4, 1x9 and 2x5 are written and accepted; the certified winner agrees
//! with the brute-force oracle.

mod common;
use common::{assert_clear_error, json, tsumi};

fn certify(board: &str, komi: &str, winner: &str, name: &str) -> String {
    let dir = common::temp_folder("cert");
    let path = dir.join(name);
    let p = path.to_str().unwrap();
    let out = tsumi(&[
        "prove",
        "go",
        board,
        "--komi",
        komi,
        "--winner",
        winner,
        "--certificate",
        p,
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = tsumi(&["check", p]);
    assert!(
        out.status.success(),
        "{board} {komi} {winner}: {}",
        String::from_utf8_lossy(&out.stdout)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// (board, value) from data/go-psk-values.tsv and docs/results.md (2x5: +10; 1x9: 0).
const VALUES: &[(&str, i32)] = &[
    ("1x1", 0),
    ("1x2", 0),
    ("1x3", 3),
    ("1x4", 4),
    ("1x5", 0),
    ("1x6", 1),
    ("1x7", 2),
    ("1x8", 3),
    ("1x9", 0),
    ("2x2", 1),
    ("2x3", 0),
    ("2x4", 8),
    ("2x5", 10),
    ("3x3", 9),
    ("3x4", 4),
];

#[test]
fn certificates_of_every_small_board_value_are_valid() {
    for &(board, v) in VALUES {
        for (winner, k2) in [("black", 2 * v - 1), ("white", 2 * v + 1)] {
            let komi = format!("{}", f64::from(k2) / 2.0);
            let out = certify(board, &komi, winner, &format!("{board}-{winner}.cert"));
            let want = format!("valid: {winner} wins at komi {komi} from the empty {board} board");
            assert!(out.starts_with(&want), "{out}");
        }
    }
}

#[test]
fn certified_winner_agrees_with_the_oracle() {
    for board in ["2x3", "1x6", "2x2"] {
        let v = json(&["solve", "go", board, "--engine", "oracle", "--json"])["value"]
            .as_i64()
            .unwrap();
        for k2 in [-7i64, -1, 1, 3, 2 * v - 1, 2 * v + 1, 9] {
            let komi = format!("{}", k2 as f64 / 2.0);
            let winner = if 2 * v > k2 { "black" } else { "white" };
            // The solver's answer for Black, certified for whichever side wins.
            let out = certify(board, &komi, "black", "oracle.cert");
            assert!(
                out.starts_with(&format!("valid: {winner} wins at komi {komi}")),
                "{board} {komi}: {out}"
            );
        }
    }
}

#[test]
fn check_refuses_bad_files_in_one_line() {
    assert_clear_error(&["check", "/nonexistent/c.cert"], "cannot read certificate");
    let dir = common::temp_folder("cert-bad");
    let p = dir.join("bad.cert");
    std::fs::write(&p, "tsumi-certificate 1\nsize 3x3\nkomi 2\n").unwrap();
    assert_clear_error(&["check", p.to_str().unwrap()], "line 3: bad komi");
    // A file without line ends is refused after one line's bound, not read into memory.
    if std::path::Path::new("/dev/zero").exists() {
        assert_clear_error(&["check", "/dev/zero"], "line 1: the line is longer than");
    }
    std::fs::write(&p, "\u{feff}tsumi-certificate 1\n").unwrap();
    assert_clear_error(&["check", p.to_str().unwrap()], "byte-order mark");
    assert_clear_error(
        &[
            "prove",
            "tictactoe",
            "3",
            "--certificate",
            p.to_str().unwrap(),
        ],
        "--certificate applies to go only",
    );
}

#[test]
fn solve_writes_one_certificate_per_deciding_proof() {
    let dir = common::temp_path("cert-solve");
    let d = dir.to_str().unwrap();
    let out = tsumi(&["solve", "go", "2x3", "--certificate", d]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for (name, want) in [
        (
            "black-minus0.5.cert",
            "valid: black wins at komi -0.5 from the empty 2x3 board",
        ),
        (
            "white-0.5.cert",
            "valid: white wins at komi 0.5 from the empty 2x3 board",
        ),
    ] {
        let p = dir.join(name);
        let out = tsumi(&["check", p.to_str().unwrap()]);
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success() && text.starts_with(want),
            "{name}: {text}"
        );
    }
    assert_clear_error(
        &[
            "solve",
            "go",
            "2x2",
            "--engine",
            "oracle",
            "--certificate",
            d,
        ],
        "--certificate applies to the dfpn engine",
    );
}

#[test]
fn a_root_given_by_moves_is_named_by_its_moves() {
    let dir = common::temp_folder("cert-moves");
    let path = dir.join("moves.cert");
    let p = path.to_str().unwrap();
    let out = tsumi(&[
        "prove",
        "go",
        "2x3",
        "--moves",
        "B1,A1",
        "--komi",
        "0.5",
        "--winner",
        "black",
        "--certificate",
        p,
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("\nstart moves B1 A1\n"), "{text}");
    let out = tsumi(&["check", p]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && stdout.contains("after B1 A1"),
        "{stdout}"
    );
}

#[test]
fn the_compact_format_is_written_and_checked_with_throughput() {
    let dir = common::temp_folder("cert-compact");
    let mut sizes = Vec::new();
    for format in ["text", "compact"] {
        let p = dir.join(format!("3x3.{format}"));
        let p = p.to_str().unwrap();
        let out = tsumi(&[
            "prove",
            "go",
            "3x3",
            "--komi",
            "8.5",
            "--winner",
            "black",
            "--certificate",
            p,
            "--certificate-format",
            format,
        ]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let out = tsumi(&["check", p]);
        let text = String::from_utf8_lossy(&out.stdout).to_string();
        assert!(out.status.success(), "{text}");
        assert!(
            text.starts_with("valid: black wins at komi 8.5 from the empty 3x3 board\n"),
            "{text}"
        );
        assert!(
            text.contains(" nodes/s, ")
                && text.contains(" MB/s, ")
                && text.contains("\nmemory: ")
                && text.contains(" boards kept at once"),
            "{text}"
        );
        sizes.push(std::fs::metadata(p).unwrap().len());
    }
    assert!(
        sizes[1] * 3 < sizes[0],
        "compact {} vs text {}",
        sizes[1],
        sizes[0]
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
