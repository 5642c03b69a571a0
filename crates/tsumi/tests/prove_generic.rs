//! `tsumi prove GAME SIZE --algo ...` for the games other than Go, through the built binary.

use std::process::{Command, Output};

fn tsumi(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tsumi"))
        .args(args)
        .output()
        .expect("run tsumi")
}

fn json(args: &[&str]) -> serde_json::Value {
    let mut all = args.to_vec();
    all.push("--json");
    let out = tsumi(&all);
    assert!(
        out.status.success(),
        "tsumi {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "tsumi {args:?}: bad json {e}: {}",
            String::from_utf8_lossy(&out.stdout)
        )
    })
}

#[test]
fn tictactoe_is_a_draw_by_pns() {
    let out = tsumi(&["prove", "tictactoe", "3x3", "--algo", "pns"]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("draw"), "{text}");
    let v = json(&["prove", "tictactoe", "3x3", "--algo", "pns"]);
    assert_eq!(v["result"], "draw");
    assert_eq!(
        v["proofs"].as_array().unwrap().len(),
        2,
        "two binary proofs for a game with draws"
    );
    assert!(v["expansions"].as_u64().unwrap() > 0);
    assert!(v["time_s"].as_f64().is_some());
    assert!(v["best_move"].is_string());
}

#[test]
fn hex_4x4_is_a_win_by_every_algorithm() {
    for algo in ["pns", "wpns", "pn2", "dfpn", "pds", "fdfpn"] {
        let v = json(&["prove", "hex", "4x4", "--algo", algo]);
        assert_eq!(v["result"], "win", "{algo}");
        assert_eq!(
            v["proofs"].as_array().unwrap().len(),
            1,
            "hex has no draws: one proof"
        );
    }
}

#[test]
fn hex_threat_knowledge_proves_5x5_by_pds() {
    let v = json(&["prove", "hex", "5x5", "--algo", "pds", "--threats"]);
    assert_eq!(v["result"], "win");
}

#[test]
fn connect4_5x4_by_dfpn_matches_the_table() {
    let table = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../data/small-games.tsv"
    ))
    .unwrap();
    let value = table
        .lines()
        .find_map(|l| l.strip_prefix("connect4\t5x4\t"))
        .and_then(|rest| rest.split('\t').next())
        .expect("connect4 5x4 in small-games.tsv");
    let want = match value {
        "first" => "win",
        "second" => "loss",
        _ => "draw",
    };
    let v = json(&["prove", "connect4", "4rx5c", "--algo", "dfpn"]);
    assert_eq!(v["result"], want);
}

#[test]
fn moves_start_from_a_position() {
    // X a1, O b1 (an edge reply), X b2: O must block c3, then X forks with a2. O is lost.
    let v = json(&[
        "prove",
        "tictactoe",
        "3x3",
        "--algo",
        "dfpn",
        "--moves",
        "a1,b1,b2",
    ]);
    assert_eq!(v["to_move"], "white");
    assert_eq!(v["result"], "loss");
    // Hex 3x3 after Black a1 (an acute corner: a losing opening), White to move wins.
    let v = json(&["prove", "hex", "3x3", "--algo", "fdfpn", "--moves", "a1"]);
    assert_eq!(v["to_move"], "white");
    assert_eq!(v["result"], "win");
    // A finished game: X has three in a row, O to move has lost.
    let v = json(&["prove", "tictactoe", "3", "--moves", "a1,a2,b1,b2,c1"]);
    assert_eq!(v["result"], "loss");
    assert!(v["best_move"].is_null());
}

#[test]
fn budget_exhaustion_answers_unknown() {
    // Plain Hex: with the knowledge (the default) 5x5 is decided at the root, 0 expansions.
    let out = tsumi(&[
        "prove",
        "hex",
        "5x5",
        "--algo",
        "dfpn",
        "--no-knowledge",
        "--max-expansions",
        "50",
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(3), "no answer: status 3");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["result"], "unknown");
    assert_eq!(v["status"], "unknown");
    assert_eq!(v["proofs"][0]["stopped"], "expansions");
}

#[test]
fn errors_are_one_line_with_nonzero_exit() {
    for (args, needle) in [
        (vec!["prove", "chess", "8x8"], "unknown game"),
        (vec!["prove", "hex", "0x3"], "bad board size"),
        (vec!["prove", "hex", "banana"], "bad board size"),
        (vec!["prove", "connect4", "9x9"], "unsupported"),
        (vec!["prove", "tictactoe", "4x4"], "unsupported"),
        (vec!["prove", "hex", "3x3", "--moves", "a1,a1"], "occupied"),
        (vec!["prove", "hex", "3x3", "--moves", "z9"], "z9"),
        (
            vec!["prove", "nogo", "3x3", "--moves", "I1"],
            "bad nogo move",
        ),
        (
            vec!["prove", "hex", "3x3", "--algo", "quantum"],
            "unknown algorithm",
        ),
    ] {
        let out = tsumi(&args);
        assert!(!out.status.success(), "{args:?} should fail");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(
            err.trim_end().lines().count(),
            1,
            "{args:?}: one line, got {err}"
        );
        assert!(err.contains(needle), "{args:?}: {err}");
    }
}
