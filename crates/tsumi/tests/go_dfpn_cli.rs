//! `tsumi solve go` with the df-pn engine (the default) and `tsumi prove go`: published values
//! by two proofs with legal PVs, the JSON fields, single questions, and clear errors.

mod common;
use common::{assert_clear_error, json, tsumi};

/// (board, value) rows of data/go-psk-values.tsv (`gosolve::published`).
fn published() -> Vec<(String, i64)> {
    gosolve::published::published_values()
        .into_iter()
        .map(|p| (p.size.to_string(), i64::from(p.value)))
        .collect()
}

fn check_solve(board: &str, value: i64) {
    check_solve_with(board, value, &[]);
}

fn check_solve_with(board: &str, value: i64, flags: &[&str]) {
    let mut args = vec!["solve", "go", board, "--json"];
    if !flags.contains(&"--tt-mib") {
        args.extend_from_slice(&["--tt-mib", "256"]);
    }
    args.extend_from_slice(flags);
    let v = json(&args);
    assert_eq!(v["engine"], "dfpn");
    assert_eq!(v["board"], board);
    assert_eq!(v["value"], value, "{board}");
    let (r, c) = board.split_once('x').unwrap();
    let n: i64 = r.parse::<i64>().unwrap() * c.parse::<i64>().unwrap();
    let proofs = v["proofs"].as_array().unwrap();
    let full = value == n || value == -n;
    assert_eq!(
        proofs.len(),
        if full { 1 } else { 2 },
        "{board}: {proofs:?}"
    );
    for p in proofs {
        // Asked at v ∓ ½, or at a komi from which the proof holds there (`holds_komi`).
        let komi = p["komi"].as_f64().unwrap();
        let holds = p["holds_komi"].as_f64().unwrap();
        match p["winner"].as_str().unwrap() {
            "black" => assert!(komi <= value as f64 - 0.5 && value as f64 - 0.5 <= holds),
            "white" => assert!(holds <= value as f64 + 0.5 && value as f64 + 0.5 <= komi),
            w => panic!("{board}: winner {w}"),
        }
        assert!(p["expansions"].as_u64().unwrap() > 0);
        // Nodes can be 0 with several threads: another question's threads may have left
        // entries for every node this proof expands.
        assert!(p["nodes"].as_u64().is_some());
        assert!(p["time_s"].as_f64().unwrap() >= 0.0);
    }
    // The PV replays legally on the reference board to a finished game scored v.
    let size = games::go::Size::parse(board).unwrap();
    let mut pos = games::go::Position::new(size, games::go::Rules::default());
    let pv: Vec<&str> = v["pv"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    for m in &pv {
        pos.play_text(m).unwrap();
    }
    assert!(pos.is_over(), "{board}: PV {pv:?} does not end the game");
    assert_eq!(i64::from(pos.score().margin()), value);
    assert_eq!(v["best_move"], pv[0]);
}

#[test]
fn solve_reproduces_published_values_up_to_3x4_and_1x8() {
    let boards: Vec<(String, i64)> = published()
        .into_iter()
        .filter(|(b, _)| {
            let (r, c) = b.split_once('x').unwrap();
            let (r, c): (u32, u32) = (r.parse().unwrap(), c.parse().unwrap());
            r * c <= 12 && r <= 3 && c <= 8
        })
        .collect();
    // 1x1..1x8, 2x2, 2x3, 2x4, 3x3, 3x4.
    assert_eq!(boards.len(), 13);
    for (b, v) in boards {
        check_solve(&b, v);
    }
}

#[test]
fn solve_4x4_is_plus_two() {
    // About 3 million expansions with proof transfer and static knowledge.
    check_solve("4x4", 2);
}

#[test]
fn every_knowledge_flag_gives_the_same_values() {
    for flags in [
        &["--no-transfer"][..],
        &["--no-static"],
        &["--no-regions"],
        &["--oracle-mode"],
        &["--prune"],
        &["--prune", "--no-transfer"],
    ] {
        for (b, v) in [("2x3", 0), ("1x6", 1), ("3x3", 9), ("2x4", 8)] {
            check_solve_with(b, v, flags);
        }
    }
    let v = json(&[
        "solve",
        "go",
        "2x3",
        "--json",
        "--tt-mib",
        "16",
        "--oracle-mode",
    ]);
    assert_eq!(v["knowledge"]["flags"], "oracle-mode");
    assert_eq!(v["knowledge"]["transfers"], 0);
    assert_eq!(v["knowledge"]["static_leaves"], 0);
    let v = json(&["solve", "go", "3x3", "--json", "--tt-mib", "16"]);
    assert!(v["knowledge"]["transfers"].as_u64().unwrap() > 0, "{v}");
    assert!(v["knowledge"]["static_leaves"].as_u64().unwrap() > 0, "{v}");
}

#[test]
#[ignore = "minutes: 4 to 5 million expansions each"]
fn solve_larger_published_boards() {
    for (b, v) in [("3x5", 15), ("2x6", 12), ("1x9", 0)] {
        check_solve(b, v);
    }
}

/// 4x5's full-board value +20 with the defaults: one Black proof settles komi 19.5 (28.6
/// million expansions in a 4 GiB table; about 3 minutes alone).
#[test]
#[ignore = "about 3 minutes and 4.5 GiB: 28.6 million expansions"]
fn solve_4x5_full_board() {
    // No flags: the defaults (learned prior, table sized from the board) must do it.
    check_solve_with("4x5", 20, &["--tt-mib", "4096"]);
}

#[test]
fn solve_text_output_names_both_proofs() {
    let out = tsumi(&["solve", "go", "2x2", "--tt-mib", "16"]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("value      +1"), "{text}");
    // The two proofs of the value, each asked at v ∓ ½ or holding there.
    assert!(text.contains("proof      black   wins at komi"), "{text}");
    assert!(text.contains("proof      white   wins at komi"), "{text}");
    assert!(text.contains("probes and"), "{text}");
    assert!(text.contains("table:"), "{text}");
}

#[test]
fn prove_answers_one_question() {
    let v = json(&[
        "prove", "go", "2x2", "--komi", "0.5", "--json", "--tt-mib", "16",
    ]);
    assert_eq!(v["result"], "win");
    assert_eq!(v["winner"], "black");
    assert!(v["expansions"].as_u64().unwrap() > 0);
    assert!(v["time_s"].as_f64().unwrap() >= 0.0);
    assert!(v["best_move"].is_string());
    let v = json(&[
        "prove", "go", "2x2", "--komi", "0.5", "--winner", "white", "--json", "--tt-mib", "16",
    ]);
    assert_eq!(v["result"], "loss");
    let v = json(&[
        "prove", "go", "2x2", "--komi", "1.5", "--winner", "white", "--json", "--tt-mib", "16",
    ]);
    assert_eq!(v["result"], "win");
    // 1x4 after C1 B1 A1: White's recapture is banned by superko, Black owns all 4 points.
    let v = json(&[
        "prove", "go", "1x4", "--komi", "3.5", "--moves", "C1,B1,A1", "--winner", "black",
        "--json", "--tt-mib", "16",
    ]);
    assert_eq!(v["result"], "win");
    // A budget too small for the question answers unknown, with status 3.
    let out = tsumi(&[
        "prove",
        "go",
        "3x3",
        "--komi",
        "8.5",
        "--max-expansions",
        "5",
        "--json",
        "--tt-mib",
        "16",
    ]);
    assert_eq!(out.status.code(), Some(3));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["result"], "unknown");
    assert_eq!(v["status"], "unknown");
}

#[test]
fn prove_errors_are_one_line() {
    assert_clear_error(&["prove", "go", "2x2", "--komi", "1"], "half-integer");
    assert_clear_error(&["prove", "go", "2x2"], "--komi");
    assert_clear_error(
        &["prove", "go", "2x2", "--komi", "0.5", "--moves", "A1,A1"],
        "occupied",
    );
    assert_clear_error(&["prove", "go", "9x9", "--komi", "0.5"], "64 points");
    assert_clear_error(
        &["prove", "go", "2x2", "--komi", "0.5", "--winner", "red"],
        "winner",
    );
}

#[test]
fn bench_checks_its_values() {
    let out = tsumi(&["bench", "--boards", "2x2,1x5", "--tt-mib", "16", "--json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines: Vec<serde_json::Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    // Two board rows, then the summary of the one configuration.
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[2]["summary"], "full");
    assert_eq!(lines[0]["value"], 1);
    assert_eq!(lines[1]["value"], 0);
    assert!(lines[0]["expansions_per_s"].as_f64().unwrap() > 0.0);
}

/// The learned prior's loop from the command line: `prove --samples` writes training samples,
/// `fit-prior --out` fits and writes weights, and `--prior learned:SCALE:FILE` uses them. The
/// prior only orders the search, so the answer is the same.
#[test]
fn samples_fit_and_a_fitted_prior_give_the_same_answer() {
    let dir = common::temp_folder("prior");
    let samples = dir.join("s.tsv");
    let weights = dir.join("w.txt");
    let _ = std::fs::remove_file(&samples);
    let (s, w) = (samples.to_str().unwrap(), weights.to_str().unwrap());
    for (komi, winner) in [("3.5", "black"), ("4.5", "white")] {
        let v = json(&[
            "prove",
            "go",
            "3x4",
            "--komi",
            komi,
            "--winner",
            winner,
            "--samples",
            s,
            "--json",
        ]);
        assert_eq!(v["result"], "win");
    }
    let text = std::fs::read_to_string(&samples).unwrap();
    assert!(
        text.lines().count() > 100,
        "{} samples",
        text.lines().count()
    );
    assert!(text.lines().all(|l| l.split('\t').count() == 16));
    let out = tsumi(&["fit-prior", s, "--out", w]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let fitted = std::fs::read_to_string(&weights).unwrap();
    assert_eq!(fitted.split(',').count(), 15, "{fitted}");
    // One scale for both numbers, two scales (φ's / δ's), and the built-in weights at two.
    for prior in [
        format!("learned:128:{w}"),
        format!("learned:576/192:{w}"),
        "learned:300/100".to_string(),
    ] {
        for (komi, result) in [("3.5", "win"), ("4.5", "loss")] {
            let v = json(&[
                "prove", "go", "3x4", "--komi", komi, "--winner", "black", "--prior", &prior,
                "--json",
            ]);
            assert_eq!(v["result"], result, "komi {komi}, prior {prior}");
        }
    }
    let prior = format!("learned:128:{w}");
    std::fs::write(&weights, "1, 2, 3").unwrap();
    assert_clear_error(
        &["prove", "go", "2x2", "--komi", "0.5", "--prior", &prior],
        "expected 15 weights, found 3",
    );
    let missing = dir.join("missing.txt");
    assert_clear_error(
        &[
            "prove",
            "go",
            "2x2",
            "--komi",
            "0.5",
            "--prior",
            &format!("learned:64:{}", missing.display()),
        ],
        "cannot read prior weights",
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `solve --guess V` asks its first question at komi V − ½: a right full-board guess settles
/// the value with Black's proof alone; a wrong guess changes the questions, never the value.
#[test]
fn a_guess_orders_the_questions_not_the_value() {
    for (board, value) in [("2x4", 8), ("3x3", 9)] {
        let v = json(&[
            "solve",
            "go",
            board,
            "--guess",
            &value.to_string(),
            "--json",
        ]);
        assert_eq!(v["value"], value, "{board}");
        assert_eq!(v["questions"].as_array().unwrap().len(), 1, "{board}: {v}");
        assert_eq!(v["proofs"].as_array().unwrap().len(), 1, "{board}: {v}");
    }
    // (board, guess, value, deciding proofs): a full-board value has only Black's.
    for (board, guess, value, proofs) in
        [("2x2", "-4", 1, 2), ("3x3", "3", 9, 1), ("2x3", "6", 0, 2)]
    {
        let v = json(&["solve", "go", board, "--guess", guess, "--json"]);
        assert_eq!(v["value"], value, "{board} guess {guess}");
        assert_eq!(
            v["proofs"].as_array().unwrap().len(),
            proofs,
            "{board}: {v}"
        );
        assert!(v["questions"].as_array().unwrap().len() > 1, "{board}: {v}");
    }
}

/// Where the first question came from is in the JSON: the playouts' guess on a one-row
/// board (1x7: r(2) > ½ > r(3), so the first two questions are the deciding ones), the
/// probes where the playouts' win rate is flat (4x4, with the playouts' rates kept), and
/// `--guess` when given; after moves the playouts start from the position reached.
#[test]
fn the_first_guess_names_its_source() {
    let v = json(&["solve", "go", "1x7", "--tt-mib", "64", "--json"]);
    assert_eq!(v["value"], 2);
    assert_eq!(v["first_guess"]["source"], "playouts", "{v}");
    assert_eq!(v["first_guess"]["value"], 2, "{v}");
    assert_eq!(v["questions"].as_array().unwrap().len(), 2, "{v}");
    assert!(v["first_guess"]["playouts"].as_u64().unwrap() >= 10_000);
    let v = json(&["solve", "go", "4x4", "--tt-mib", "256", "--json"]);
    assert_eq!(v["value"], 2);
    assert_eq!(v["first_guess"]["source"], "probes", "{v}");
    assert!(v["first_guess"]["probes"].as_u64().unwrap() > 0, "{v}");
    assert_eq!(
        v["first_guess"]["playouts"]["value"],
        serde_json::Value::Null
    );
    assert_eq!(
        v["first_guess"]["playouts"]["rates"]
            .as_array()
            .unwrap()
            .len(),
        2
    );
    let v = json(&["solve", "go", "2x4", "--guess", "8", "--json"]);
    assert_eq!(
        v["first_guess"],
        serde_json::json!({"source": "--guess", "value": 8})
    );
    // After B1 on 1x5 White is to move; the value (Black's margin) is the same as the
    // oracle's, whichever guess the playouts make.
    let v = json(&[
        "solve", "go", "1x5", "--moves", "B1", "--tt-mib", "16", "--json",
    ]);
    let o = json(&[
        "solve", "go", "1x5", "--moves", "B1", "--engine", "oracle", "--json",
    ]);
    assert_eq!(v["value"], o["value"], "{v}");
    assert_eq!(v["to_move"], "white");
    assert!(v["first_guess"]["source"].is_string(), "{v}");
}

/// Options that cannot apply are refused with one line, not ignored; a prior's scale must be
/// a positive finite number; a negative komi is accepted after a space.
#[test]
fn options_that_cannot_apply_are_refused() {
    for bad in [
        "learned:-128",
        "learned:0",
        "learned:nan",
        "score:4:inf",
        "learned:x",
        "learned:576/0",
        "learned:/192",
        "learned:576/x",
    ] {
        assert_clear_error(
            &["prove", "go", "2x2", "--komi", "0.5", "--prior", bad],
            "is not a positive finite number",
        );
    }
    for (bad, needle) in [
        ("learned:1/1e14", "is above 1000000"),
        ("learned:2000000", "is above 1000000"),
        ("learned:1e308/1e308", "is above 1000000"),
        ("learned:576/192:", "names an empty weights file"),
    ] {
        assert_clear_error(
            &["prove", "go", "2x2", "--komi", "0.5", "--prior", bad],
            needle,
        );
    }
    assert_clear_error(
        &["prove", "hex", "3x3", "--samples", "x.tsv"],
        "--samples applies to Go only",
    );
    assert_clear_error(
        &["prove", "hex", "3x3", "--prior", "learned"],
        "--prior applies to Go only",
    );
    assert_clear_error(
        &["solve", "go", "2x2", "--engine", "oracle", "--guess", "1"],
        "not to the oracle",
    );
    let v = json(&[
        "prove", "go", "2x3", "--komi", "-0.5", "--winner", "black", "--json",
    ]);
    assert_eq!(v["result"], "win");
}

/// Output piped into a reader that has gone away ends the process quietly (no panic).
#[test]
fn a_closed_pipe_is_not_a_panic() {
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_tsumi"))
        .args(["bench", "--boards", "2x2,1x3,2x3", "--tt-mib", "16"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_ne!(out.status.code(), Some(101), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

/// Samples appended to a file whose last line is unterminated start on a line of their own.
#[test]
fn samples_start_on_a_new_line() {
    let glue = common::temp_folder("glue");
    let path = glue.join("glue.tsv");
    std::fs::write(&path, "x").unwrap();
    let p = path.to_str().unwrap();
    let v = json(&[
        "prove",
        "go",
        "2x2",
        "--komi",
        "0.5",
        "--samples",
        p,
        "--json",
    ]);
    assert_eq!(v["result"], "win");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("x"));
    let first = lines.next().expect("a sample");
    assert!(
        first.starts_with("0\t") || first.starts_with("1\t"),
        "{first}"
    );
    assert_eq!(first.split('\t').count(), 16);
    let _ = std::fs::remove_file(&path);
}
