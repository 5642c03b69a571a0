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
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 7, "{text}");
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
        .map(|l| serde_json::from_str(l).unwrap())
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
        "board 'wide' is not RxC or a set (quick, standard, large, all)",
    );
    assert_clear_error(&["bench", "--boards", "2xZ"], "board '2xZ' is not RxC");
    // A duplicate is solved once.
    let text = stdout_of(&["bench", "--boards", "2x2,2x2", "--tt-mib", "4"]);
    assert_eq!(text.lines().count(), 2, "{text}");
}
