//! `tsumi bench`: board sets, the published-value column (checked where data/ lists the board,
//! reported where not), and a table whose columns line up whatever the configuration names.
//! Tiny boards only.

mod common;

use common::{assert_clear_error, tsumi};

fn stdout_of(args: &[&str]) -> String {
    let out = tsumi(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The byte offsets where each whitespace-separated token of `line` ends.
fn token_ends(line: &str) -> Vec<usize> {
    let mut ends = Vec::new();
    let b = line.as_bytes();
    for i in 0..b.len() {
        if b[i] != b' ' && (i + 1 == b.len() || b[i + 1] == b' ') {
            ends.push(i + 1);
        }
    }
    ends
}

#[test]
fn columns_line_up_with_the_header_in_every_ablation_row() {
    // "no-shared-numbers" is longer than the other configuration names: every right-aligned
    // column (value … ratio) still ends where its header ends.
    let text = stdout_of(&["bench", "--boards", "2x2", "--ablate", "--tt-mib", "4"]);
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with("summary")).collect();
    assert_eq!(lines.len(), 7, "{text}");
    // One summary line per configuration follows the rows.
    assert_eq!(
        text.lines().filter(|l| l.starts_with("summary")).count(),
        6,
        "{text}"
    );
    let header = token_ends(lines[0]);
    assert!(lines[0].starts_with("board  config"), "{text}");
    for row in &lines[1..] {
        let ends = token_ends(row);
        // Tokens 2..=14 are value, published, expansions, deciding, t/d, alone, t/a, nodes,
        // revisit, exp/s, time_s, rss_MiB and ratio in both.
        assert_eq!(
            ends[2..=14],
            header[2..=14],
            "misaligned:\n{}\n{row}",
            lines[0]
        );
    }
    assert!(lines[5].contains("no-shared-numbers"), "{text}");
    assert!(lines[6].contains("no-cross-komi"), "{text}");
}

#[test]
fn published_values_are_shown_and_unlisted_boards_say_so() {
    let text = stdout_of(&["bench", "--boards", "2x2,2x5", "--tt-mib", "16", "--json"]);
    let rows: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|r| r.get("board").is_some())
        .collect();
    assert_eq!(rows.len(), 2, "{text}");
    // 2x2 is in data/go-psk-values.tsv (+1, checked); 2x5 is not (+10, reported only).
    assert_eq!(rows[0]["board"], "2x2");
    assert_eq!(rows[0]["value"], 1);
    assert_eq!(rows[0]["published_value"], 1);
    assert_eq!(rows[1]["board"], "2x5");
    assert_eq!(rows[1]["value"], 10);
    assert!(rows[1]["published_value"].is_null(), "{text}");
    for r in &rows {
        let (t, d) = (
            r["expansions"].as_u64().unwrap(),
            r["deciding_expansions"].as_u64().unwrap(),
        );
        assert!(d > 0 && d <= t, "{r}");
        let ratio = r["total_over_deciding"].as_f64().unwrap();
        assert!((ratio - t as f64 / d as f64).abs() < 1e-9, "{r}");
    }
    let table = stdout_of(&["bench", "--boards", "2x5", "--tt-mib", "16"]);
    let row = table.lines().nth(1).unwrap();
    let cells: Vec<&str> = row.split_whitespace().collect();
    assert_eq!(&cells[..4], ["2x5", "full", "+10", "-"], "{table}");
}

#[test]
fn set_names_mix_with_boards_and_an_unknown_item_is_named() {
    // Every board is checked before any is solved, so the (large) sets are never run here.
    assert_clear_error(
        &["bench", "--boards", "quick,standard,LARGE,all,2x2,wide"],
        "board 'wide' is not RxC or a set (quick, standard, large, all, suite)",
    );
    assert_clear_error(&["bench", "--boards", "2xZ"], "board '2xZ' is not RxC");
    // A duplicate is solved once.
    let text = stdout_of(&["bench", "--boards", "2x2,2x2", "--tt-mib", "4"]);
    assert_eq!(text.lines().count(), 3, "{text}");
}

#[test]
fn positions_are_solved_after_their_moves_and_summed_over() {
    // 2x3 after B1 and after B1 A2 (Black first): the values `solve --moves` gives, and a
    // summary whose total and geometric mean are those of the rows.
    let text = stdout_of(&[
        "bench",
        "--boards",
        "2x3:B1,2x3:b1+A2",
        "--tt-mib",
        "16",
        "--json",
    ]);
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3, "{text}");
    for (row, moves) in lines[..2].iter().zip(["B1", "B1,A2"]) {
        let solved: serde_json::Value = serde_json::from_str(&stdout_of(&[
            "solve",
            "go",
            "2x3",
            "--moves",
            moves,
            "--tt-mib",
            "16",
            "--threads",
            "1",
            "--json",
        ]))
        .unwrap();
        assert_eq!(row["value"], solved["value"], "{moves}: {text}");
        assert!(row["published_value"].is_null(), "{text}");
    }
    assert_eq!(lines[0]["board"], "2x3:B1");
    assert_eq!(lines[1]["board"], "2x3:b1+A2");
    let e: Vec<u64> = lines[..2]
        .iter()
        .map(|r| r["expansions"].as_u64().unwrap())
        .collect();
    let sum = &lines[2];
    assert_eq!(sum["summary"], "full", "{text}");
    assert_eq!(sum["items"], 2);
    assert_eq!(sum["total_expansions"].as_u64(), Some(e[0] + e[1]));
    let g = sum["geometric_mean_expansions"].as_f64().unwrap();
    assert!(
        (g - ((e[0] * e[1]) as f64).sqrt()).abs() < 1e-6 * g,
        "{text}"
    );
    // An illegal move names the position.
    assert_clear_error(
        &["bench", "--boards", "2x3:B1+B1"],
        "bench position 2x3:B1+B1",
    );
}
