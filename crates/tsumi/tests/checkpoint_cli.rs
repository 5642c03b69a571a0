//! `--checkpoint`, `--checkpoint-minutes` and `--resume` of `prove go` and `solve go`: a run
//! stopped by its budget resumes to the answer of an uninterrupted run with fewer expansions;
//! a solve resumed from its own checkpoint gives the same value; bad uses are one-line errors
//! before any search.

mod common;
use common::{assert_clear_error, tsumi};
use std::path::PathBuf;

/// A fresh folder for one test's files (removed when dropped).
struct Folder(PathBuf);

impl Folder {
    fn new(name: &str) -> Self {
        let dir =
            std::env::temp_dir().join(format!("tsumi-ckpt-cli-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Folder(dir)
    }
    fn file(&self, name: &str) -> String {
        self.0.join(name).display().to_string()
    }
}

impl Drop for Folder {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn prove_json(extra: &[&str]) -> (Option<i32>, serde_json::Value) {
    let mut args = vec![
        "prove",
        "go",
        "3x4",
        "--komi",
        "3.5",
        "--winner",
        "black",
        "--threads",
        "1",
        "--tt-mib",
        "64",
        "--json",
    ];
    args.extend_from_slice(extra);
    let out = tsumi(&args);
    let v = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{args:?}: {e}: {}", String::from_utf8_lossy(&out.stderr)));
    (out.status.code(), v)
}

#[test]
fn a_prove_stopped_by_its_budget_resumes_from_its_checkpoint() {
    let dir = Folder::new("prove");
    let ckpt = dir.file("q.ckpt");
    let (code, whole) = prove_json(&[]);
    assert_eq!(code, Some(0));
    assert_eq!(whole["result"], "win");
    let all = whole["expansions"].as_u64().unwrap();

    let budget = (all / 4).to_string();
    let (code, stopped) = prove_json(&["--max-expansions", &budget, "--checkpoint", &ckpt]);
    assert_eq!(code, Some(3), "no answer within the budget: {stopped}");
    assert_eq!(stopped["result"], "unknown");
    assert!(std::fs::metadata(&ckpt).unwrap().len() > 100);

    // Without --resume an existing checkpoint is never overwritten.
    assert_clear_error(
        &[
            "prove",
            "go",
            "3x4",
            "--komi",
            "3.5",
            "--winner",
            "black",
            "--checkpoint",
            &ckpt,
        ],
        "--resume",
    );
    let (code, resumed) = prove_json(&["--resume", &ckpt]);
    assert_eq!(code, Some(0));
    assert_eq!(resumed["result"], "win");
    assert_eq!(
        resumed["best_move"].is_string(),
        whole["best_move"].is_string()
    );
    assert!(
        resumed["expansions"].as_u64().unwrap() < all,
        "resumed {} against {all}",
        resumed["expansions"]
    );
    // The resumed run saved its own proofs: a third run answers at once.
    let (_, third) = prove_json(&["--resume", &ckpt]);
    assert_eq!(third["result"], "win");
    assert_eq!(third["expansions"], 1);
    // Another question is refused by name.
    assert_clear_error(
        &[
            "prove", "go", "3x4", "--komi", "4.5", "--winner", "black", "--resume", &ckpt,
        ],
        "komi 3.5",
    );
}

#[test]
fn a_solve_resumed_from_its_checkpoint_gives_the_same_value() {
    let dir = Folder::new("solve");
    let ckpt = dir.file("s.ckpt");
    let args = |extra: &[&str]| {
        let mut a = vec!["solve", "go", "2x4", "--threads", "1", "--json"];
        a.extend_from_slice(extra);
        common::json(&a)
    };
    let first = args(&["--checkpoint", &ckpt]);
    let again = args(&["--resume", &ckpt]);
    assert_eq!(first["value"], 8);
    assert_eq!(again["value"], first["value"]);
    assert_eq!(again["pv"], first["pv"]);
    assert!(
        again["expansions"].as_u64().unwrap() < first["expansions"].as_u64().unwrap(),
        "{} against {}",
        again["expansions"],
        first["expansions"]
    );
    // Every run of one checkpoint places its first question alike: the probes of a run with
    // checkpoints use a small table of their own, not the numbers a resume restores.
    assert_eq!(again["first_guess"], first["first_guess"]);
    assert_eq!(again["proofs"][0]["komi"], first["proofs"][0]["komi"]);
    // A solve's checkpoint is not a prove's.
    assert_clear_error(
        &[
            "prove", "go", "2x4", "--komi", "7.5", "--winner", "black", "--resume", &ckpt,
        ],
        "solve",
    );
}

#[test]
fn bad_checkpoint_flags_are_one_line_errors_before_any_search() {
    let dir = Folder::new("bad");
    assert_clear_error(
        &[
            "solve",
            "go",
            "2x2",
            "--checkpoint",
            &dir.file("no/such/dir/c"),
        ],
        "does not exist",
    );
    assert_clear_error(
        &[
            "solve",
            "go",
            "2x2",
            "--checkpoint",
            &dir.0.display().to_string(),
        ],
        "not a regular file",
    );
    assert_clear_error(
        &["solve", "go", "2x2", "--resume", &dir.file("missing.ckpt")],
        "no such checkpoint",
    );
    assert_clear_error(
        &["solve", "go", "2x2", "--checkpoint-minutes", "5"],
        "--checkpoint-minutes",
    );
    assert_clear_error(
        &[
            "solve",
            "go",
            "2x2",
            "--checkpoint",
            &dir.file("c"),
            "--checkpoint-minutes",
            "0",
        ],
        "positive",
    );
    let junk = dir.file("junk.ckpt");
    std::fs::write(&junk, "not a checkpoint\n").unwrap();
    assert_clear_error(
        &["solve", "go", "2x2", "--resume", &junk],
        "not a checkpoint",
    );
    assert_clear_error(
        &[
            "solve",
            "go",
            "2x2",
            "--engine",
            "oracle",
            "--checkpoint",
            &dir.file("o"),
        ],
        "--checkpoint",
    );
    assert_clear_error(
        &["prove", "hex", "3x3", "--checkpoint", &dir.file("h")],
        "--checkpoint",
    );
}

#[test]
fn the_same_line_with_resume_if_present_starts_then_continues() {
    let dir = Folder::new("if-present");
    let ckpt = dir.file("job.ckpt");
    let (_, whole) = prove_json(&[]);
    let all = whole["expansions"].as_u64().unwrap();
    let budget = (all / 4).to_string();
    let line = [
        "--max-expansions",
        budget.as_str(),
        "--checkpoint",
        ckpt.as_str(),
        "--resume-if-present",
    ];
    // No file yet: a fresh start that saves one.
    let (code, first) = prove_json(&line);
    assert_eq!(code, Some(3), "{first}");
    assert!(std::fs::metadata(&ckpt).unwrap().len() > 100);
    // The same command line again continues from it (a fresh start would stop again at
    // the same budget with nothing proven), and at last answers.
    let mut answered = None;
    for run in 0..8 {
        let (code, v) = prove_json(&line);
        if code == Some(0) {
            answered = Some((run, v));
            break;
        }
    }
    let (_, v) = answered.expect("the repeated line answers once its checkpoints add up");
    assert_eq!(v["result"], "win");
    // --resume-if-present needs --checkpoint and excludes --resume.
    assert_clear_error(
        &[
            "prove",
            "go",
            "3x4",
            "--komi",
            "3.5",
            "--winner",
            "black",
            "--resume-if-present",
        ],
        "--checkpoint",
    );
}
