//! `tsumi prove hex` with the Hex knowledge of `pns::hexknow` (the default) and without it
//! (`--no-knowledge`, the ablation), through the built binary.

mod common;

use common::{assert_clear_error, json, opening_winner, tsumi};

fn prove(size: &str, moves: &str, algo: &str, knowledge: bool) -> serde_json::Value {
    let mut args = vec!["prove", "hex", size, "--algo", algo, "--json"];
    if !moves.is_empty() {
        args.extend(["--moves", moves]);
    }
    if !knowledge {
        args.push("--no-knowledge");
    }
    let v = json(&args);
    assert_eq!(v["knowledge"], knowledge, "{args:?}");
    v
}

/// The winner of hex `size` after `moves`, by focused df-pn on plain Hex (the reference).
fn winner_without_knowledge(size: &str, moves: &str) -> String {
    let v = prove(size, moves, "fdfpn", false);
    let mover = v["to_move"].as_str().unwrap();
    let other = if mover == "black" { "white" } else { "black" };
    match v["result"].as_str().unwrap() {
        "win" => mover.to_owned(),
        "loss" => other.to_owned(),
        r => panic!("hex {size} {moves}: {r}"),
    }
}

#[test]
fn knowledge_proves_5x5_at_the_root_with_a_best_move_that_wins() {
    let v = prove("5x5", "", "fdfpn", true);
    assert_eq!(v["result"], "win");
    assert_eq!(v["to_move"], "black");
    assert_eq!(v["best_move_source"], "knowledge");
    let best = v["best_move"]
        .as_str()
        .expect("a proven win names a best move");
    let with = v["expansions"].as_u64().unwrap();
    // Without the knowledge focused df-pn needs about 0.6 M expansions: 5,000 are not enough.
    let out = tsumi(&[
        "prove",
        "hex",
        "5x5",
        "--algo",
        "fdfpn",
        "--no-knowledge",
        "--max-expansions",
        "5000",
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(3), "no answer within the budget");
    let without: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(without["knowledge"], false);
    assert_eq!(without["result"], "unknown");
    assert!(
        with < without["expansions"].as_u64().unwrap(),
        "{with} expansions with the knowledge"
    );
    // The best move wins: after it White to move loses (proved with the knowledge, which the
    // 0-expansion root proof did not use for this move).
    let reply = prove("5x5", best, "fdfpn", true);
    assert_eq!(reply["to_move"], "white");
    assert_eq!(reply["result"], "loss", "{best} should win for Black");
    // The text names the move and the proof's size.
    let out = tsumi(&["prove", "hex", "5x5", "--algo", "fdfpn"]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("with the Hex knowledge"), "{text}");
    assert!(text.contains(&format!("best move: {best}")), "{text}");
    assert!(text.contains("expansions: 0,"), "{text}");
}

#[test]
fn knowledge_needs_fewer_expansions_on_4x4() {
    let with = prove("4x4", "", "dfpn", true);
    let without = prove("4x4", "", "dfpn", false);
    assert_eq!(with["result"], "win");
    assert_eq!(without["result"], "win");
    assert!(without["best_move"].is_string());
    assert_eq!(without["best_move_source"], "proof");
    assert!(
        with["expansions"].as_u64().unwrap() < without["expansions"].as_u64().unwrap(),
        "with {} / without {}",
        with["expansions"],
        without["expansions"]
    );
}

#[test]
fn a_pruned_opening_is_accepted_and_both_ways_agree() {
    // The knowledge decides the empty 4x4 board, so it searches no move there; a1 (a losing
    // acute-corner opening) is still accepted: --moves are played on plain Hex.
    let with = prove("4x4", "a1", "fdfpn", true);
    let without = prove("4x4", "a1", "fdfpn", false);
    assert_eq!(with["to_move"], "white");
    assert_eq!(with["result"], "win");
    assert_eq!(with["result"], without["result"]);
    assert!(with["best_move"].is_string());
    assert!(without["best_move"].is_string());
    // Both best moves win for White: Black to move then loses.
    for best in [&with["best_move"], &without["best_move"]] {
        let line = format!("a1,{}", best.as_str().unwrap());
        assert_eq!(
            prove("4x4", &line, "fdfpn", false)["result"],
            "loss",
            "{line}"
        );
    }
}

#[test]
fn every_algorithm_agrees_with_and_without_the_knowledge() {
    // (size, moves, the winner: None to prove it without the knowledge, by the same
    // algorithm on 3x3 and by focused df-pn on 4x4). 3x3: every opening. 4x4: openings the
    // knowledge decides at the root, and a two-move line. 5x5: openings it does not decide at
    // the root, so that each algorithm searches the knowledge game (the winner from the data).
    let mut cases: Vec<(&str, String, Option<&str>)> = Vec::new();
    for col in ["a", "b", "c"] {
        for row in 1..=3 {
            cases.push(("3x3", format!("{col}{row}"), None));
        }
    }
    for opening in ["a1", "b2", "d1", "a4", "c2", "a1,b2"] {
        cases.push(("4x4", opening.to_owned(), None));
    }
    for opening in ["a2", "a4", "e1", "a5"] {
        cases.push((
            "5x5",
            opening.to_owned(),
            Some(opening_winner("5x5", opening)),
        ));
    }
    for (size, moves, known) in &cases {
        let reference = known.map_or_else(|| winner_without_knowledge(size, moves), String::from);
        for algo in ["pns", "pn2", "dfpn", "pds", "fdfpn"] {
            let v = prove(size, moves, algo, true);
            let mover = v["to_move"].as_str().unwrap();
            let want = if reference == mover { "win" } else { "loss" };
            assert_eq!(v["result"], want, "hex {size} {moves} by {algo}");
            if want == "win" {
                assert!(
                    v["best_move"].is_string(),
                    "hex {size} {moves} by {algo}: a win names a best move"
                );
            }
            if *size == "3x3" {
                let plain = prove(size, moves, algo, false);
                assert_eq!(plain["result"], want, "hex {size} {moves} by {algo}, plain");
            }
            if *size == "5x5" {
                assert!(
                    v["expansions"].as_u64().unwrap() > 0,
                    "{size} {moves} {algo}"
                );
                assert_eq!(v["best_move_source"], "proof");
            }
        }
    }
}

#[test]
fn threats_and_knowledge_combine() {
    let want = prove("4x4", "b2", "fdfpn", false)["result"].clone();
    for algo in ["pds", "wpns", "fdfpn"] {
        let args = [
            "prove",
            "hex",
            "4x4",
            "--moves",
            "b2",
            "--algo",
            algo,
            "--json",
            "--threats",
        ];
        let v = json(&args);
        assert_eq!(v["knowledge"], true);
        assert_eq!(v["result"], want, "{algo} --threats");
    }
}

#[test]
fn no_knowledge_is_refused_where_it_does_not_apply() {
    assert_clear_error(
        &["prove", "tictactoe", "3x3", "--no-knowledge"],
        "--no-knowledge switches off the Hex knowledge: it applies to hex only, not to tictactoe",
    );
    assert_clear_error(
        &["prove", "connect4", "4x4", "--no-knowledge"],
        "not to connect4",
    );
    assert_clear_error(
        &["prove", "go", "2x2", "--komi", "0.5", "--no-knowledge"],
        "--no-knowledge switches off the Hex knowledge: it applies to hex only, not to go",
    );
}

#[test]
fn boards_the_knowledge_cannot_hold_name_the_flag() {
    for (size, needle) in [
        ("12x12", "at most 128 cells; 12x12 has 144"),
        ("3rx1c", "at least two rows and two columns"),
    ] {
        let out = tsumi(&["prove", "hex", size]);
        assert_eq!(out.status.code(), Some(2), "hex {size}");
        assert_clear_error(&["prove", "hex", size], needle);
        assert_clear_error(&["prove", "hex", size], "--no-knowledge");
    }
    // Without the knowledge they are proved as before.
    let v = json(&["prove", "hex", "3rx1c", "--no-knowledge", "--json"]);
    assert_eq!(v["result"], "loss", "White's first stone joins its edges");
    assert_eq!(v["knowledge"], false);
}
