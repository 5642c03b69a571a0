//! `tsumi solve go`: published values with legal PVs, JSON fields, and clear errors on bad input.

mod common;
use common::{assert_clear_error, json, tsumi};

#[test]
fn two_by_two_is_plus_one_and_one_by_three_plus_three() {
    for (board, value) in [("2x2", 1), ("1x3", 3)] {
        let v = json(&["solve", "go", board, "--engine", "oracle", "--json"]);
        assert_eq!(v["board"], board);
        assert_eq!(v["value"], value);
        assert!(v["expansions"].as_u64().unwrap() > 0);
        assert!(v["time_s"].as_f64().unwrap() >= 0.0);
        let pv: Vec<&str> = v["pv"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap())
            .collect();
        assert_eq!(v["best_move"], pv[0]);
        // Replay the PV independently on the reference board.
        let size = games::go::Size::parse(board).unwrap();
        let mut pos = games::go::Position::new(size, games::go::Rules::default());
        for m in &pv {
            pos.play_text(m).unwrap();
        }
        assert!(pos.is_over());
        assert_eq!(pos.score().margin(), value);
    }
    let text = tsumi(&["solve", "go", "1x3", "--engine", "oracle"]);
    let out = String::from_utf8_lossy(&text.stdout);
    assert!(out.contains("value      +3"), "{out}");
}

#[test]
fn komi_verdict_and_move_list() {
    let v = json(&[
        "solve", "go", "2x2", "--engine", "oracle", "--komi", "0.5", "--json",
    ]);
    assert_eq!(v["black_wins"], true);
    let v = json(&[
        "solve", "go", "2x2", "--engine", "oracle", "--komi", "1.5", "--json",
    ]);
    assert_eq!(v["black_wins"], false);
    // 1x4 after C1 B1 A1: White's recapture at B1 is banned by superko, Black owns all 4.
    let v = json(&[
        "solve", "go", "1x4", "--engine", "oracle", "--moves", "C1,B1,A1", "--json",
    ]);
    assert_eq!(v["value"], 4);
    assert_eq!(v["to_move"], "white");
}

#[test]
fn sgf_input() {
    let dir = common::temp_folder("solve-cli");
    let good = dir.join("good.sgf");
    std::fs::write(&good, "(;GM[1]FF[4]SZ[4:1]KM[0.5];B[ca];W[ba];B[aa])").unwrap();
    let v = json(&[
        "solve",
        "go",
        "1x4",
        "--engine",
        "oracle",
        "--sgf",
        good.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(v["value"], 4);
    assert_eq!(v["komi"], 0.5);
    assert_eq!(v["black_wins"], true);
    let bad = dir.join("bad.sgf");
    std::fs::write(&bad, "(;GM[1]SZ[3];B[aa]").unwrap();
    assert_clear_error(
        &["solve", "go", "3x3", "--sgf", bad.to_str().unwrap()],
        "malformed SGF",
    );
    let wrong = dir.join("wrong.sgf");
    std::fs::write(&wrong, "(;GM[1]SZ[3];B[aa];W[aa])").unwrap();
    assert_clear_error(
        &["solve", "go", "3x3", "--sgf", wrong.to_str().unwrap()],
        "occupied",
    );
    assert_clear_error(
        &["solve", "go", "3x3", "--sgf", "/nonexistent/x.sgf"],
        "cannot read SGF file",
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bad_input_gives_one_line_errors() {
    assert_clear_error(&["solve", "go", "20x20"], "unsupported board size");
    assert_clear_error(&["solve", "go", "0x3"], "unsupported board size");
    assert_clear_error(&["solve", "go", "axb"], "malformed board size");
    assert_clear_error(&["solve", "go", "2x2", "--moves", "A1,A1"], "occupied");
    assert_clear_error(
        &["solve", "go", "2x2", "--moves", "C3"],
        "off the 2x2 board",
    );
    assert_clear_error(&["solve", "go", "2x2", "--moves", "Z"], "malformed move");
    assert_clear_error(&["solve", "go", "2x2", "--komi", "0.3"], "invalid komi");
    assert_clear_error(&["solve", "chess", "8x8"], "unsupported game");
    assert_clear_error(
        &["solve", "go", "2x2", "--tt-mib", "100000000"],
        "cannot allocate",
    );
}

#[test]
fn exhausted_budget_still_prints_json_bounds() {
    let out = tsumi(&[
        "solve",
        "go",
        "3x4",
        "--max-expansions",
        "100",
        "--tt-mib",
        "16",
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(3), "no answer: status 3");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    assert_eq!(v["status"], "unknown");
    assert_eq!(v["reason"], "budget exhausted");
    assert!(v["value"].is_null());
    assert!(v["lower"].as_i64().unwrap() <= 4 && v["upper"].as_i64().unwrap() >= 4);
}

/// Issue 38, item 4: under a virtual-memory limit (clusters set one) `solve go 3x3` panicked
/// spawning a search thread: the command's 1 GiB stack, a second 1 GiB solver thread and a
/// 256 MiB stack per helper did not fit 2.5 GB. The solver now runs on the command's
/// thread, whose stack is an eighth of the limit, and the table is at most half of it.
#[test]
fn solve_fits_a_virtual_memory_limit() {
    // Eight threads under 1.2 GB: the search threads the limit leaves no stack for are left
    // out, and the solve goes on with the others.
    for (kib, threads) in [("2500000", 2), ("1500000", 2), ("1200000", 8)] {
        let script =
            format!("ulimit -v {kib} && exec \"$0\" solve go 3x3 --threads {threads} --json");
        let out = std::process::Command::new("sh")
            .args(["-c", &script, &common::bin()])
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "ulimit -v {kib}: {err}");
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v["value"], 9, "ulimit -v {kib}");
    }
}
