//! `tsumi campaign`: plan 3x4 at a komi, run the jobs under GNU parallel (each line with `sh`
//! when parallel is not installed, said on stderr), merge, and compare with one `tsumi prove`;
//! lose a result and resume; kill a running job and see it reported; the Slurm script picks
//! its line by `SLURM_ARRAY_TASK_ID`.

mod common;

use common::{assert_clear_error, json, tsumi};
use serde_json::Value;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

fn temp_dir(name: &str) -> common::TempFolder {
    common::temp_path(&format!("campaign-{name}"))
}

fn has_parallel() -> bool {
    Command::new("parallel")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Runs every line of DIR/jobs.txt: `parallel -j 2 < jobs.txt`, or each line with `sh`
/// when GNU parallel is missing. Returns the jobs' stderr.
fn run_jobs(dir: &Path) -> String {
    let jobs = std::fs::File::open(dir.join("jobs.txt")).unwrap();
    let out = if has_parallel() {
        Command::new("parallel")
            .args(["-j", "2"])
            .stdin(jobs)
            .output()
            .unwrap()
    } else {
        eprintln!(
            "skipped GNU parallel: not installed (apt-get install parallel; .ci/run does); running the lines with sh"
        );
        Command::new("sh").stdin(jobs).output().unwrap()
    };
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn plan(dir: &Path, size: &str, komi: &str, winner: &str, depth: &str) -> Value {
    let out = tsumi(&[
        "campaign",
        "plan",
        "go",
        size,
        "--komi",
        komi,
        "--winner",
        winner,
        "--depth",
        depth,
        "--out",
        dir.to_str().unwrap(),
        "--threads",
        "1",
        "--tt-mib",
        "16",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(dir.join("plan.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

/// `campaign merge --json` and its exit status.
fn merge(dir: &Path) -> (Value, Option<i32>) {
    let out = tsumi(&["campaign", "merge", dir.to_str().unwrap(), "--json"]);
    (
        serde_json::from_slice(&out.stdout).expect("one JSON object"),
        out.status.code(),
    )
}

fn status(dir: &Path) -> Value {
    json(&["campaign", "status", dir.to_str().unwrap(), "--json"])
}

#[test]
fn a_campaign_merges_to_the_answer_of_one_prove_and_resumes() {
    // 3x4 is worth +4: Black wins at komi 3.5 and loses at 4.5; ask both sides, both depths.
    for (komi, winner, depth, jobs) in [
        ("3.5", "black", "1", 5),
        ("4.5", "black", "2", 45),
        ("3.5", "white", "1", 5),
    ] {
        let dir = temp_dir(&format!("run-{komi}-{winner}-{depth}"));
        let p = plan(&dir, "3x4", komi, winner, depth);
        assert_eq!(
            p["jobs"].as_array().unwrap().len(),
            jobs,
            "symmetry classes"
        );
        let (before, code) = merge(&dir);
        assert_eq!(code, Some(3));
        assert_eq!(before["open_jobs"].as_array().unwrap().len(), jobs);
        run_jobs(&dir);
        let (m, code) = merge(&dir);
        assert_eq!(code, Some(0), "{m}");
        let one = json(&[
            "prove", "go", "3x4", "--komi", komi, "--winner", winner, "--json",
        ]);
        assert_eq!(m["status"], "proven");
        assert_eq!(
            m["result"], one["result"],
            "campaign {komi} {winner} depth {depth}"
        );
        assert_eq!(status(&dir)["counts"]["done"], jobs);
        // Every result file names its command and version.
        let r: Value = serde_json::from_str(
            &std::fs::read_to_string(dir.join("results/job-0000.json")).unwrap(),
        )
        .unwrap();
        assert!(r["command"].as_str().unwrap().contains("prove go 3x4"));
        assert_eq!(r["version"], env!("CARGO_PKG_VERSION"));
        for k in ["threads", "expansions", "time_s", "result", "best_move"] {
            assert!(r.get(k).is_some(), "{k} in {r}");
        }

        // Lose the results of the whole first move a proof job lies under: status says
        // missing, merge names exactly those jobs as the ones that still decide it.
        let first = m["proof_jobs"][0].as_u64().unwrap() as usize;
        let jobs_v = p["jobs"].as_array().unwrap();
        let lost: Vec<u64> = jobs_v
            .iter()
            .filter(|j| j["moves"][0] == jobs_v[first]["moves"][0])
            .map(|j| j["index"].as_u64().unwrap())
            .collect();
        for j in &lost {
            std::fs::remove_file(dir.join(format!("results/job-{j:04}.json"))).unwrap();
        }
        let s = status(&dir);
        assert_eq!(s["jobs"][first]["state"], "missing");
        assert_eq!(s["counts"]["missing"], lost.len());
        let (open, code) = merge(&dir);
        assert_eq!(code, Some(3));
        assert_eq!(open["status"], "open");
        let listed: Vec<u64> = open["open_jobs"]
            .as_array()
            .unwrap()
            .iter()
            .map(|j| j["index"].as_u64().unwrap())
            .collect();
        assert_eq!(listed, lost, "{open}");
        // Resume: the same jobs file again; done jobs skip themselves.
        let log = run_jobs(&dir);
        assert_eq!(log.matches("skipped:").count(), jobs - lost.len(), "{log}");
        let (again, code) = merge(&dir);
        assert_eq!(code, Some(0));
        assert_eq!(again["result"], m["result"]);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

#[test]
fn a_killed_job_is_reported_and_leaves_no_result() {
    // 5x5 at komi 24.5 (the campaign): one job runs far longer than this test.
    let dir = temp_dir("killed");
    let p = plan(&dir, "5x5", "24.5", "black", "1");
    let jobs = p["jobs"].as_array().unwrap();
    assert_eq!(jobs.len(), 7, "A1 B1 C1 B2 C2 C3 pass");
    let line = jobs[5]["command"].as_str().unwrap();
    assert!(line.contains("--moves=C3"), "{line}");
    let mut child = Command::new("sh")
        .args(["-c", line])
        .process_group(0)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let marker = dir.join("results/job-0005.json.running");
    let t = Instant::now();
    while !marker.exists() {
        assert!(t.elapsed() < Duration::from_secs(30), "no marker");
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(status(&dir)["jobs"][5]["state"], "running");
    let (m, _) = merge(&dir);
    assert_eq!(m["open_jobs"][5]["state"], "running");
    Command::new("kill")
        .args(["-KILL", "--", &format!("-{}", child.id())])
        .status()
        .unwrap();
    child.wait().unwrap();
    assert!(
        !dir.join("results/job-0005.json").exists(),
        "killed before its result"
    );
    // The killed process may take a moment to be gone (its memory torn down, reaped).
    let t = Instant::now();
    let mut s = status(&dir);
    while s["jobs"][5]["state"] == "running" && t.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(50));
        s = status(&dir);
    }
    assert_eq!(s["jobs"][5]["state"], "killed");
    assert!(s["jobs"][5]["detail"].as_str().unwrap().contains("rerun"));
    let text = tsumi(&["campaign", "status", dir.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(
        text.contains("7 jobs: 0 done, 0 running, 7 missing (1 killed"),
        "{text}"
    );
    let (m, code) = merge(&dir);
    assert_eq!(code, Some(3));
    assert_eq!(m["open_jobs"][5]["state"], "killed");
    // No temporary or partial result is left in results/.
    let names: Vec<String> = std::fs::read_dir(dir.join("results"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["job-0005.json.running"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_slurm_script_runs_the_line_of_its_array_task() {
    let dir = temp_dir("slurm");
    plan(&dir, "3x4", "3.5", "black", "1");
    let script = dir.join("slurm.sh");
    let text = std::fs::read_to_string(&script).unwrap();
    assert!(text.contains("sbatch --array=0-4"), "{text}");
    let out = Command::new("bash")
        .arg(&script)
        .env("SLURM_ARRAY_TASK_ID", "3")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let s = status(&dir);
    let states: Vec<&str> = (0..5)
        .map(|i| s["jobs"][i]["state"].as_str().unwrap())
        .collect();
    assert_eq!(states, ["missing", "missing", "missing", "done", "missing"]);
    let bad = Command::new("bash")
        .arg(&script)
        .env_remove("SLURM_ARRAY_TASK_ID")
        .output()
        .unwrap();
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("sbatch --array"));
    let beyond = Command::new("bash")
        .arg(&script)
        .env("SLURM_ARRAY_TASK_ID", "9")
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&beyond.stderr).contains("no job 9"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_plans_are_one_line_errors() {
    let dir = temp_dir("bad");
    let d = dir.to_str().unwrap();
    let plan_with = |extra: &[&'static str]| -> Vec<String> {
        let mut v: Vec<String> = [
            "campaign", "plan", "go", "3x4", "--winner", "black", "--out", d,
        ]
        .iter()
        .map(|s| (*s).to_string())
        .collect();
        v.extend(extra.iter().map(|s| (*s).to_string()));
        v
    };
    let check = |args: Vec<String>, needle: &str| {
        let a: Vec<&str> = args.iter().map(String::as_str).collect();
        assert_clear_error(&a, needle);
    };
    check(plan_with(&["--komi", "4"]), "not a half-integer");
    check(plan_with(&["--komi", "3.5", "--depth", "3"]), "--depth 3");
    let mut green = plan_with(&["--komi", "3.5"]);
    green[5] = "green".into();
    check(green, "unknown --winner");
    let mut hex = plan_with(&["--komi", "3.5"]);
    hex[2] = "hex".into();
    check(hex, "splits go only");
    let ok = tsumi(
        &plan_with(&["--komi", "3.5"])
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>(),
    );
    assert!(ok.status.success());
    check(plan_with(&["--komi", "3.5"]), "already holds a plan");
    assert_clear_error(
        &["campaign", "status", "/nonexistent/campaign"],
        "cannot read",
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `tsumi campaign plan go 3x4 --komi 3.5 --winner black --out DIR --threads 1 --tt-mib 16`
/// with `extra` flags.
fn plan_3x4_black(dir: &Path, extra: &[&str]) -> std::process::Output {
    let d = dir.to_str().unwrap();
    let mut args = vec![
        "campaign",
        "plan",
        "go",
        "3x4",
        "--komi",
        "3.5",
        "--winner",
        "black",
        "--out",
        d,
        "--threads",
        "1",
        "--tt-mib",
        "16",
    ];
    args.extend_from_slice(extra);
    tsumi(&args)
}

#[test]
fn a_job_out_of_budget_is_unknown_and_runs_again() {
    let dir = temp_dir("budget");
    let out = plan_3x4_black(&dir, &["--max-expansions", "5"]);
    assert!(out.status.success());
    // Job 1 (B1) needs about 10,000 expansions: its result says unknown (prove's status 3).
    let run = Command::new("bash")
        .arg(dir.join("slurm.sh"))
        .env("SLURM_ARRAY_TASK_ID", "1")
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(3));
    let s = status(&dir);
    assert_eq!(s["jobs"][1]["state"], "unknown");
    assert!(
        s["jobs"][1]["detail"]
            .as_str()
            .unwrap()
            .contains("budget exhausted"),
        "{s}"
    );
    let (m, code) = merge(&dir);
    assert_eq!(code, Some(3));
    assert_eq!(m["open_jobs"][1]["state"], "unknown");
    // --skip-if-done skips only proven answers: the rerun searches again (and again runs
    // out of its budget), rewriting the file.
    let again = Command::new("bash")
        .arg(dir.join("slurm.sh"))
        .env("SLURM_ARRAY_TASK_ID", "1")
        .output()
        .unwrap();
    assert!(!String::from_utf8_lossy(&again.stderr).contains("skipped"));
    assert_eq!(status(&dir)["jobs"][1]["state"], "unknown");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_campaign_from_a_position_with_white_to_move_merges_to_one_prove() {
    // After B2 White moves at the root: Black needs every reply to win (AND).
    let dir = temp_dir("moves");
    let out = tsumi(&[
        "campaign",
        "plan",
        "go",
        "3x4",
        "--moves",
        "b2",
        "--komi",
        "3.5",
        "--winner",
        "black",
        "--out",
        dir.to_str().unwrap(),
        "--threads",
        "1",
        "--tt-mib",
        "16",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(dir.join("plan.json")).unwrap();
    let p: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(p["tree"]["to_move"], "white");
    assert_eq!(p["start"][0], "B2");
    assert!(
        p["question"]
            .as_str()
            .unwrap()
            .contains("after B2, white to move")
    );
    for j in p["jobs"].as_array().unwrap() {
        assert_eq!(j["moves"][0], "B2");
        assert_eq!(j["moves"].as_array().unwrap().len(), 2);
    }
    run_jobs(&dir);
    let (m, code) = merge(&dir);
    assert_eq!(code, Some(0), "{m}");
    let one = json(&[
        "prove", "go", "3x4", "--moves", "B2", "--komi", "3.5", "--winner", "black", "--json",
    ]);
    assert_eq!(m["result"], one["result"]);
    assert!(
        m["best_move"].is_null(),
        "the winner does not move at the root"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Issue 38, item 8: each job chose its own table, 3/4 of the memory it found free (5x5:
/// 16 GiB), and `parallel < jobs.txt` ran several at once. The plan now fixes every job's
/// table from its share of a node (`--node-mib / --jobs-per-node`), says `parallel -j`, and
/// asks Slurm for the memory of one job.
#[test]
fn campaign_jobs_share_the_memory_of_a_node() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("c");
    let out = tsumi(&[
        "campaign",
        "plan",
        "go",
        "5x5",
        "--komi",
        "0.5",
        "--winner",
        "black",
        "--threads",
        "1",
        "--jobs-per-node",
        "4",
        "--node-mib",
        "4096",
        "--out",
        dir.to_str().unwrap(),
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("parallel -j 4 <"), "{text}");
    // 4096 MiB / 4 jobs = 1024 MiB each, of which 3/4 rounded down to a power of two: 512.
    let jobs = std::fs::read_to_string(dir.join("jobs.txt")).unwrap();
    assert_eq!(jobs.lines().count(), 7);
    assert!(jobs.lines().all(|l| l.contains(" --tt-mib 512 ")), "{jobs}");
    let plan: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("plan.json")).unwrap()).unwrap();
    assert_eq!(
        (plan["tt_mib"].as_u64(), plan["jobs_per_node"].as_u64()),
        (Some(512), Some(4))
    );
    let slurm = std::fs::read_to_string(dir.join("slurm.sh")).unwrap();
    assert!(slurm.contains("#SBATCH --mem=1024M"), "{slurm}");
    // A table asked for by name is every job's, as before.
    let dir2 = tmp.path().join("d");
    let out = tsumi(&[
        "campaign",
        "plan",
        "go",
        "3x3",
        "--komi",
        "0.5",
        "--winner",
        "black",
        "--tt-mib",
        "64",
        "--out",
        dir2.to_str().unwrap(),
    ]);
    assert!(out.status.success());
    let jobs = std::fs::read_to_string(dir2.join("jobs.txt")).unwrap();
    assert!(jobs.lines().all(|l| l.contains(" --tt-mib 64 ")), "{jobs}");
}

#[test]
fn checkpointed_jobs_continue_where_the_last_run_stopped() {
    let dir = temp_dir("checkpoints");
    let out = plan_3x4_black(
        &dir,
        &["--max-expansions", "3000", "--checkpoint-minutes", "5"],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let jobs = std::fs::read_to_string(dir.join("jobs.txt")).unwrap();
    assert!(jobs.contains("--resume-if-present"), "{jobs}");
    assert!(jobs.contains("checkpoints/job-0001.ckpt"), "{jobs}");
    // Job 1 (B1) needs about 10,000 expansions, more than one run's 3,000: each run of
    // the same line continues from the last one's checkpoint, so a few runs answer it.
    let mut states = Vec::new();
    for _ in 0..8 {
        let run = Command::new("bash")
            .arg(dir.join("slurm.sh"))
            .env("SLURM_ARRAY_TASK_ID", "1")
            .output()
            .unwrap();
        let s = status(&dir);
        states.push(s["jobs"][1]["state"].as_str().unwrap().to_string());
        if run.status.code() == Some(0) {
            break;
        }
        assert_eq!(run.status.code(), Some(3));
    }
    assert_eq!(states.first().map(String::as_str), Some("unknown"));
    assert_eq!(
        states.last().map(String::as_str),
        Some("done"),
        "{states:?}"
    );
    assert!(dir.join("checkpoints/job-0001.ckpt").is_file());
    assert_clear_error(
        &[
            "campaign",
            "plan",
            "go",
            "3x4",
            "--komi",
            "3.5",
            "--winner",
            "black",
            "--out",
            dir.join("x").to_str().unwrap(),
            "--checkpoint-minutes",
            "0",
        ],
        "--checkpoint-minutes",
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
