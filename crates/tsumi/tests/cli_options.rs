//! The command-line contract shared by `solve`, `prove` and `bench`: exit status 3 for "no
//! answer" (budget, time, pruned side), a "status" in every JSON answer, options that do not
//! apply refused by name, a table-size minimum, game names in any case, one budget vocabulary,
//! `--seconds` on solve, and no `\r` progress lines when stderr is not a terminal.

mod common;
use common::{assert_clear_error, json, tsumi};
use std::process::Output;

/// Asserts exit status 3 with a one-line reason on stderr mentioning `needle`; returns stdout.
fn assert_unknown(args: &[&str], needle: &str) -> String {
    let out = tsumi(args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{args:?}: {err}");
    let last = err.trim_end().lines().last().unwrap_or("");
    assert!(last.starts_with("error: "), "{args:?}: {err}");
    assert!(
        last.contains(needle),
        "{args:?}: '{last}' should say '{needle}'"
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stdout_json(out: &Output) -> serde_json::Value {
    serde_json::from_slice(&out.stdout).expect("one JSON object on stdout")
}

#[test]
fn an_unknown_answer_exits_with_status_3() {
    // prove go: budget.
    let text = assert_unknown(
        &[
            "prove",
            "go",
            "4x4",
            "--komi",
            "2.5",
            "--winner",
            "white",
            "--max-expansions",
            "1000",
            "--tt-mib",
            "16",
        ],
        "budget exhausted",
    );
    assert!(text.contains("result: unknown"), "{text}");
    let args = [
        "prove",
        "go",
        "4x4",
        "--komi",
        "2.5",
        "--winner",
        "white",
        "--max-expansions",
        "1000",
        "--tt-mib",
        "16",
        "--json",
    ];
    let out = tsumi(&args);
    assert_eq!(out.status.code(), Some(3));
    let v = stdout_json(&out);
    assert_eq!(v["status"], "unknown");
    assert_eq!(v["result"], "unknown");
    assert_eq!(v["expansions"], 1000);
    // prove go: winner-side pruning that found no win for the pruned side is asked again
    // unpruned, so `--prune` answers (White loses 2x2 at komi 0.5: the value is +1).
    let out = tsumi(&[
        "prove", "go", "2x2", "--komi", "0.5", "--winner", "white", "--prune", "--tt-mib", "16",
        "--json",
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    let v = stdout_json(&out);
    assert_eq!(v["status"], "proven");
    assert_eq!(v["result"], "loss");
    assert_eq!(v["pruned_first"]["pruned"], true, "{v}");
    assert_eq!(v["pruned"], false, "{v}");
    // solve: dfpn and oracle.
    let out = tsumi(&["solve", "go", "3x4", "--max-expansions", "100", "--json"]);
    assert_eq!(out.status.code(), Some(3));
    assert_eq!(stdout_json(&out)["status"], "unknown");
    let text = assert_unknown(
        &[
            "solve",
            "go",
            "3x4",
            "--max-expansions",
            "100",
            "--tt-mib",
            "16",
        ],
        "budget exhausted",
    );
    assert!(text.contains("value of 3x4 between"), "{text}");
    let out = tsumi(&[
        "solve",
        "go",
        "3x4",
        "--engine",
        "oracle",
        "--max-expansions",
        "100",
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(3));
    let v = stdout_json(&out);
    assert_eq!(v["status"], "unknown");
    assert_eq!(v["reason"], "budget exhausted");
    assert!(v["value"].is_null());
    // prove for another game.
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
    assert_eq!(out.status.code(), Some(3));
    assert_eq!(stdout_json(&out)["status"], "unknown");
    assert_unknown(
        &[
            "prove",
            "hex",
            "5x5",
            "--no-knowledge",
            "--max-expansions",
            "50",
        ],
        "expansions limit",
    );
    // bench: the stopped board's row is printed, then status 3.
    let args = [
        "bench",
        "--boards",
        "2x2,3x4",
        "--max-expansions",
        "100",
        "--tt-mib",
        "16",
        "--json",
    ];
    let text = assert_unknown(&args, "budget exhausted: 3x4");
    let rows: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 2, "{text}");
    assert_eq!(rows[0]["status"], "proven");
    assert_eq!(rows[1]["status"], "unknown");
}

#[test]
fn every_json_answer_says_proven() {
    let v = json(&["solve", "go", "2x2", "--tt-mib", "16", "--json"]);
    assert_eq!(v["status"], "proven");
    let v = json(&["solve", "go", "2x2", "--engine", "oracle", "--json"]);
    assert_eq!(v["status"], "proven");
    let v = json(&[
        "prove", "go", "2x2", "--komi", "0.5", "--tt-mib", "16", "--json",
    ]);
    assert_eq!(v["status"], "proven");
    let v = json(&["prove", "tictactoe", "3", "--json"]);
    assert_eq!(v["status"], "proven");
    assert_eq!(v["result"], "draw");
}

#[test]
fn help_documents_status_3() {
    for cmd in ["solve", "prove", "bench"] {
        let out = tsumi(&[cmd, "--help"]);
        assert!(out.status.success());
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains("3 no answer"), "{cmd} --help: {text}");
    }
}

#[test]
fn prove_go_takes_an_sgf_file() {
    let dir = common::temp_folder("cli-options");
    // 1x4 after C1 B1 A1: White's recapture at B1 is banned by superko, Black owns all 4.
    let sgf = dir.join("ko.sgf");
    std::fs::write(&sgf, "(;GM[1]FF[4]SZ[4:1]KM[3.5];B[ca];W[ba];B[aa])").unwrap();
    let f = sgf.to_str().unwrap();
    let base = ["prove", "go", "1x4", "--sgf", f, "--tt-mib", "16", "--json"];
    // The komi comes from KM unless --komi is given.
    let v = json(&[&base[..], &["--winner", "black"]].concat());
    assert_eq!(v["komi"], 3.5);
    assert_eq!(v["to_move"], "white");
    assert_eq!(v["result"], "win");
    let v = json(&[&base[..], &["--winner", "black", "--komi", "4.5"]].concat());
    assert_eq!(v["komi"], 4.5);
    assert_eq!(v["result"], "loss");
    // --moves are played after the file's: White passes, Black passes, the game is over.
    let v = json(&[&base[..], &["--winner", "black", "--moves", "pass,pass"]].concat());
    assert_eq!(v["result"], "win");
    assert_clear_error(
        &["prove", "go", "3x3", "--sgf", f, "--komi", "0.5"],
        "is a 1x4 board, not 3x3",
    );
    assert_clear_error(
        &["prove", "go", "3x3", "--sgf", "/nonexistent/x.sgf"],
        "cannot read SGF file",
    );
    assert_clear_error(
        &["prove", "hex", "3x3", "--sgf", f],
        "--sgf applies to Go only",
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_table_below_one_mib_is_refused() {
    for args in [
        &["solve", "go", "2x2", "--tt-mib", "0"][..],
        &["prove", "go", "2x2", "--komi", "0.5", "--tt-mib", "0"],
        &["prove", "hex", "3", "--tt-mib", "0"],
        &["bench", "--boards", "2x2", "--tt-mib", "0"],
    ] {
        assert_clear_error(args, "--tt-mib 0 is below the minimum table size of 1 MiB");
    }
    // The minimum itself works.
    let v = json(&["solve", "go", "2x3", "--tt-mib", "1", "--json"]);
    assert_eq!(v["value"], 0);
}

#[test]
fn epsilon_must_be_finite_and_non_negative() {
    for e in ["nan", "-1", "inf", "-inf"] {
        for args in [
            &["solve", "go", "2x2", "--epsilon", e][..],
            &["prove", "go", "2x2", "--komi", "0.5", "--epsilon", e],
            &["prove", "hex", "3", "--epsilon", e],
            &["bench", "--boards", "2x2", "--epsilon", e],
        ] {
            assert_clear_error(args, "--epsilon");
            assert_clear_error(args, "is not a finite number ≥ 0");
        }
    }
    assert_clear_error(&["solve", "go", "2x2", "--seconds", "-1"], "--seconds -1");
    assert_clear_error(&["prove", "hex", "3", "--seconds", "nan"], "--seconds NaN");
}

#[test]
fn options_of_the_other_side_are_refused_by_name() {
    let go = ["prove", "go", "2x2", "--komi", "0.5"];
    assert_clear_error(
        &[&go[..], &["--algo", "pns"]].concat(),
        "--algo pns does not apply to go",
    );
    for extra in [
        &["--mobility"][..],
        &["--threats"],
        &["--weak"],
        &["--base", "2"],
        &["--factor", "0.5"],
        &["--pn2-fraction", "0.5"],
    ] {
        assert_clear_error(
            &[&go[..], extra].concat(),
            &format!("{} applies to the games other than Go", extra[0]),
        );
    }
    // --algo dfpn is what Go uses: accepted.
    let v = json(&[&go[..], &["--algo", "dfpn", "--json", "--tt-mib", "16"]].concat());
    assert_eq!(v["result"], "win");
    for extra in [
        &["--prune"][..],
        &["--no-transfer"],
        &["--no-static"],
        &["--no-regions"],
        &["--oracle-mode"],
        &["--prior", "score"],
        &["--samples", "x.tsv"],
        &["--komi", "0.5"],
        &["--winner", "black"],
    ] {
        assert_clear_error(
            &[&["prove", "hex", "3x3"][..], extra].concat(),
            &format!("{} applies to Go only, not to hex", extra[0]),
        );
    }
    // Each algorithm's own parameters.
    for (algo, extra, needle) in [
        (
            "pns",
            &["--epsilon", "0.3"][..],
            "--epsilon does not apply to --algo pns",
        ),
        (
            "dfpn",
            &["--base", "2"],
            "--base does not apply to --algo dfpn",
        ),
        (
            "pn2",
            &["--factor", "0.5"],
            "--factor does not apply to --algo pn2",
        ),
        (
            "dfpn",
            &["--pn2-fraction", "0.5"],
            "--pn2-fraction does not apply",
        ),
        (
            "fdfpn",
            &["--weak"],
            "--weak does not apply to --algo fdfpn",
        ),
    ] {
        assert_clear_error(
            &[&["prove", "hex", "3", "--algo", algo][..], extra].concat(),
            needle,
        );
    }
    assert_clear_error(
        &["prove", "hex", "3", "--algo", "fdfpn", "--base", "0"],
        "--base 0",
    );
    let oracle = ["solve", "go", "2x2", "--engine", "oracle"];
    for extra in [
        &["--tt-mib", "16"][..],
        &["--epsilon", "0.3"],
        &["--prior", "score"],
        &["--guess", "1"],
        &["--no-transfer"],
        &["--prune"],
        &["--oracle-mode"],
    ] {
        assert_clear_error(
            &[&oracle[..], extra].concat(),
            &format!("{} applies to the dfpn engine, not to the oracle", extra[0]),
        );
    }
}

#[test]
fn game_names_are_case_insensitive() {
    let v = json(&[
        "prove", "Go", "2x2", "--komi", "0.5", "--tt-mib", "16", "--json",
    ]);
    assert_eq!(v["result"], "win");
    let v = json(&["prove", "HEX", "3", "--json"]);
    assert_eq!(v["result"], "win");
    let v = json(&["solve", "GO", "2x2", "--tt-mib", "16", "--json"]);
    assert_eq!(v["value"], 1);
    // The Go-only check sees the game, whatever its case.
    assert_clear_error(
        &["prove", "Hex", "3", "--komi", "0.5"],
        "--komi applies to Go only, not to hex",
    );
}

#[test]
fn one_budget_vocabulary_and_komi_as_a_number() {
    for flag in ["--max-expansions", "--max-nodes"] {
        let out = tsumi(&[
            "solve", "go", "3x4", flag, "100", "--guess", "0", "--tt-mib", "16", "--json",
        ]);
        assert_eq!(out.status.code(), Some(3), "{flag}");
        assert_eq!(stdout_json(&out)["expansions"], 100, "{flag}");
    }
    let help = String::from_utf8_lossy(&tsumi(&["solve", "--help"]).stdout).into_owned();
    assert!(help.contains("--max-expansions"), "{help}");
    assert!(!help.contains("--max-nodes"), "the alias is hidden: {help}");
    for engine in ["dfpn", "oracle"] {
        let v = json(&[
            "solve", "go", "2x2", "--engine", engine, "--komi", "2.5", "--json",
        ]);
        assert_eq!(v["komi"], 2.5, "{engine}");
        assert_eq!(v["black_wins"], false, "{engine}");
    }
}

/// `solve --seconds` bounds the whole solve; a run past a second with stderr captured (not a
/// terminal) writes no `\r` progress overwrites. (Two seconds of df-pn: the progress callback
/// runs every 65,536 expansions, and the old code wrote `\r` lines from the first second on.)
#[test]
fn seconds_bound_the_solve_and_logs_get_no_carriage_returns() {
    for args in [
        &[
            "solve",
            "go",
            "4x5",
            "--seconds",
            "2",
            "--tt-mib",
            "64",
            "--json",
        ][..],
        &[
            "prove",
            "go",
            "4x5",
            "--komi",
            "0.5",
            "--seconds",
            "2",
            "--tt-mib",
            "64",
            "--json",
        ],
        &[
            "solve",
            "go",
            "4x4",
            "--engine",
            "oracle",
            "--seconds",
            "1.2",
            "--json",
        ],
    ] {
        let start = std::time::Instant::now();
        let out = tsumi(args);
        let wall = start.elapsed().as_secs_f64();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(3), "{args:?}: {err}");
        assert!((1.2..30.0).contains(&wall), "{args:?}: {wall} s");
        assert!(!err.contains('\r'), "{args:?}: a \\r in {err:?}");
        let v = stdout_json(&out);
        assert_eq!(v["status"], "unknown", "{args:?}");
        assert!(err.contains("time limit"), "{args:?}: {err}");
    }
}

/// Ctrl-C (SIGINT) stops a solve or a prove with what it knows and status 3.
#[cfg(unix)]
#[test]
fn ctrl_c_prints_what_is_known_and_exits_with_status_3() {
    use std::process::{Command, Stdio};
    for args in [
        &["solve", "go", "4x5", "--tt-mib", "64", "--json"][..],
        &[
            "prove", "go", "4x5", "--komi", "0.5", "--tt-mib", "64", "--json",
        ],
    ] {
        let child = Command::new(env!("CARGO_BIN_EXE_tsumi"))
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(800));
        let kill = Command::new("kill")
            .args(["-INT", &child.id().to_string()])
            .status()
            .unwrap();
        assert!(kill.success());
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(3), "{args:?}: {err}");
        assert!(err.contains("interrupted"), "{args:?}: {err}");
        let v = stdout_json(&out);
        assert_eq!(v["status"], "unknown", "{args:?}");
    }
}

#[test]
fn huge_budgets_and_empty_move_items_are_handled() {
    // A budget in seconds beyond any Duration means "no practical limit", not a panic.
    for cmd in [
        &["solve", "go", "2x2", "--seconds", "1e300", "--tt-mib", "16"][..],
        &[
            "prove",
            "go",
            "2x2",
            "--komi",
            "0.5",
            "--seconds",
            "1e300",
            "--tt-mib",
            "16",
        ],
        &["prove", "tictactoe", "3", "--seconds", "1e300"],
    ] {
        let out = tsumi(cmd);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{cmd:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    // An empty item inside a move list would hide a missing move.
    assert_clear_error(
        &["solve", "go", "3x3", "--moves", "B2,,A1", "--tt-mib", "16"],
        "--moves item 2 is empty",
    );
    assert_clear_error(
        &["prove", "go", "3x3", "--komi", "8.5", "--moves", "B2,"],
        "--moves item 2 is empty",
    );
}
