//! The reference engine (`solve --engine oracle`) solves small positions in seconds and stops
//! with a clear message at its node budget.

mod common;

use common::{json, tsumi};
use std::time::{Duration, Instant};

#[test]
fn oracle_solves_a_small_position_in_seconds_with_the_dfpn_value() {
    let t0 = Instant::now();
    let o = json(&[
        "solve",
        "go",
        "2x3",
        "--moves",
        "B1,B2,pass",
        "--engine",
        "oracle",
        "--json",
    ]);
    assert!(t0.elapsed() < Duration::from_secs(20), "{o}");
    let d = json(&["solve", "go", "2x3", "--moves", "B1,B2,pass", "--json"]);
    assert_eq!(o["value"], d["value"], "oracle {o}\ndfpn {d}");
    assert_eq!(o["value"], -2);
    assert_eq!(o["engine"], "oracle");
}

#[test]
fn oracle_budget_ends_with_a_clear_error() {
    let out = tsumi(&[
        "solve",
        "go",
        "2x3",
        "--engine",
        "oracle",
        "--max-expansions",
        "1000",
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert_ne!(out.status.code(), Some(101), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(
        err.contains("budget of 1000 nodes") && err.contains("--max-expansions"),
        "{err}"
    );
}
