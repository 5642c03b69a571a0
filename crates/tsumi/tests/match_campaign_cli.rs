//! `tsumi campaign plan-match`: a small grid (2 games × 1 size × 2 budgets, 3 blocks of 2
//! games a cell) run under GNU parallel (each line with `sh` when parallel is not installed,
//! said on stderr): part of the jobs, `status` and `merge` report the missing blocks, the
//! whole file again resumes (finished blocks are not rerun), and `merge` adds up the blocks.

mod common;

use common::{assert_clear_error, tsumi};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tsumi-mcamp-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn has_parallel() -> bool {
    Command::new("parallel")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Runs `lines` (shell lines of jobs.txt) under `parallel -j 2`, or with `sh`.
fn run_lines(lines: &str) {
    let mut child = if has_parallel() {
        Command::new("parallel")
            .args(["-j", "2"])
            .stdin(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    } else {
        eprintln!(
            "skipped GNU parallel: not installed (apt-get install parallel; .ci/run does); running the lines with sh"
        );
        Command::new("sh")
            .stdin(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    };
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(lines.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn report(dir: &Path, what: &str) -> (Value, i32) {
    let out = tsumi(&["campaign", what, dir.to_str().unwrap(), "--json"]);
    let v: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{e}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (v, out.status.code().unwrap_or(-1))
}

#[test]
fn a_match_grid_runs_resumes_and_merges() {
    let dir = temp_dir("grid");
    let out = tsumi(&[
        "campaign",
        "plan-match",
        "mcps",
        "grave",
        "--game",
        "tictactoe,nogo",
        "--sizes",
        "3",
        "--budgets",
        "40,0.001s",
        "--games",
        "6",
        "--block",
        "2",
        "--seed",
        "7",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let jobs = std::fs::read_to_string(dir.join("jobs.txt")).unwrap();
    let lines: Vec<&str> = jobs.lines().collect();
    assert_eq!(lines.len(), 4 * 3, "4 cells of 3 blocks");
    assert!(
        std::fs::read_to_string(dir.join("slurm.sh"))
            .unwrap()
            .contains("SLURM_ARRAY_TASK_ID")
    );
    // A plan is not overwritten by accident.
    assert_clear_error(
        &[
            "campaign",
            "plan-match",
            "mcps",
            "grave",
            "--game",
            "nogo",
            "--sizes",
            "3",
            "--budgets",
            "40",
            "--games",
            "2",
            "--block",
            "2",
            "--out",
            dir.to_str().unwrap(),
        ],
        "already holds a match campaign",
    );

    // Half of the jobs: the rest are missing, and merge says so (exit 3).
    let first: String = lines.iter().step_by(2).map(|l| format!("{l}\n")).collect();
    run_lines(&first);
    let (st, code) = report(&dir, "status");
    assert_eq!(code, 0);
    assert_eq!(st["missing_blocks"], 6);
    let cell0 = &st["cells"][0];
    assert_eq!(cell0["cell"]["id"], "tictactoe-3-p40");
    assert_eq!(cell0["done"], serde_json::json!([0, 2]));
    assert_eq!(cell0["missing"], serde_json::json!([1]));
    let (_, code) = report(&dir, "merge");
    assert_eq!(code, 3, "merge with blocks missing");

    // The whole file again: the finished blocks are kept as they are.
    let done = dir.join("results/tictactoe-3-p40/block-0000.json");
    let before = std::fs::read_to_string(&done).unwrap();
    let mtime = std::fs::metadata(&done).unwrap().modified().unwrap();
    run_lines(&jobs);
    assert_eq!(std::fs::read_to_string(&done).unwrap(), before);
    assert_eq!(std::fs::metadata(&done).unwrap().modified().unwrap(), mtime);
    let (m, code) = report(&dir, "merge");
    assert_eq!(code, 0, "{m}");
    assert_eq!(m["missing_blocks"], 0);
    for cell in m["cells"].as_array().unwrap() {
        assert_eq!(cell["games"], 6, "{cell}");
        let (w, d, l) = (
            cell["wins"].as_u64().unwrap(),
            cell["draws"].as_u64().unwrap(),
            cell["losses"].as_u64().unwrap(),
        );
        assert_eq!(w + d + l, 6);
        let (lo, hi) = (
            cell["interval95"][0].as_f64().unwrap(),
            cell["interval95"][1].as_f64().unwrap(),
        );
        let rate = cell["win_rate"].as_f64().unwrap();
        assert!(lo <= rate && rate <= hi);
        // The cell's sums are its blocks' sums.
        let id = cell["cell"]["id"].as_str().unwrap();
        let mut playouts = 0;
        let mut wins = 0;
        for b in 0..3 {
            let f = dir.join(format!("results/{id}/block-{b:04}.json"));
            let v: Value = serde_json::from_str(&std::fs::read_to_string(f).unwrap()).unwrap();
            assert_eq!(v["seed"], 7000 + b);
            playouts += v["per_player"][0]["playouts"].as_u64().unwrap();
            wins += v["wins"].as_u64().unwrap();
        }
        assert_eq!(cell["players"][0]["playouts"], playouts);
        assert_eq!(cell["wins"], wins);
        for p in cell["players"].as_array().unwrap() {
            assert!(p["mean_leaf_depth"].as_f64().unwrap() > 0.0, "{p}");
            assert!(p["playouts_per_second"].as_f64().unwrap() > 0.0, "{p}");
        }
    }
    // No temporary file is left.
    for cell in std::fs::read_dir(dir.join("results")).unwrap() {
        for f in std::fs::read_dir(cell.unwrap().path()).unwrap() {
            let name = f.unwrap().file_name().into_string().unwrap();
            assert!(name.starts_with("block-"), "{name}");
        }
    }
    // The text table has one row per cell with its interval.
    let out = tsumi(&["campaign", "merge", dir.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        text.lines().filter(|l| l.contains("| 6/6 |")).count(),
        4,
        "{text}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_match_grids_get_one_line() {
    let dir = temp_dir("bad");
    let d = dir.to_str().unwrap();
    let base = ["campaign", "plan-match", "mcps", "grave", "--sizes", "7"];
    let with = |more: &[&'static str]| -> Vec<&str> {
        let mut v: Vec<&str> = base.to_vec();
        v.extend_from_slice(more);
        v.extend_from_slice(&["--out", d]);
        v
    };
    assert_clear_error(
        &with(&["--game", "chess", "--budgets", "100"]),
        "game 'chess'",
    );
    assert_clear_error(
        &with(&["--game", "nogo", "--budgets", "100", "--block", "3"]),
        "even number",
    );
    assert_clear_error(
        &with(&["--game", "nogo", "--budgets", "fast"]),
        "budget 'fast'",
    );
    let _ = std::fs::remove_dir_all(&dir);
}
