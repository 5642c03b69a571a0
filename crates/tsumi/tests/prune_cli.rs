//! `--prune` never turns a solvable position into an unknown one, and never makes a trivial
//! proof slow.

mod common;

use common::{json, tsumi};
use std::time::{Duration, Instant};

#[test]
fn pruned_solve_finds_the_value_pruning_hides() {
    // Values cross-checked with the unpruned solver and the oracle.
    for (size, moves, value) in [("1x6", "D1", -1), ("1x7", "C1,G1,A1,B1", 0)] {
        let v = json(&["solve", "go", size, "--moves", moves, "--prune", "--json"]);
        assert_eq!(v["value"], value, "{size} {moves}: {v}");
        let plain = json(&["solve", "go", size, "--moves", moves, "--json"]);
        assert_eq!(plain["value"], value, "{size} {moves} unpruned: {plain}");
    }
}

#[test]
fn pruned_prove_keeps_the_capture_in_its_territory() {
    // Black on every point but D1 and D4, White on D3: D4 captures and takes all 16 points.
    let moves = "A1,D3,B1,pass,C1,pass,A2,pass,B2,pass,C2,pass,D2,pass,A3,pass,B3,pass,C3,pass,A4,pass,B4,pass,C4,pass";
    let t0 = Instant::now();
    let out = tsumi(&[
        "prove",
        "go",
        "4x4",
        "--moves",
        moves,
        "--komi",
        "15.5",
        "--winner",
        "black",
        "--prune",
        "--seconds",
        "10",
        "--json",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_str(text.trim()).unwrap();
    assert_eq!(v["result"], "win", "{v}");
    assert_eq!(v["best_move"], "D4", "{v}");
    assert!(v["expansions"].as_u64().unwrap() <= 10, "{v}");
    assert!(t0.elapsed() < Duration::from_secs(5));
}
