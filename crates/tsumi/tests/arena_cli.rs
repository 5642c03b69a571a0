//! `tsumi match` and `tsumi play` end to end (small: a few games with few playouts).

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn tsumi(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tsumi"))
        .args(args)
        .output()
        .expect("run tsumi")
}

fn tsumi_stdin(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tsumi"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run tsumi");
    // The program may stop reading early (game over, quit): ignore a broken pipe.
    let _ = child.stdin.take().unwrap().write_all(input.as_bytes());
    child.wait_with_output().unwrap()
}

fn json_of(out: &Output) -> serde_json::Value {
    assert!(
        out.status.success(),
        "stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("one JSON object")
}

fn temp_dir(name: &str) -> common::TempFolder {
    common::temp_path(&format!("arena-{name}"))
}

#[test]
fn match_reports_json_and_is_reproducible() {
    let args = [
        "match",
        "--game",
        "wargame",
        "--size",
        "5",
        "mcps",
        "grave",
        "--games",
        "4",
        "--playouts",
        "60",
        "--seed",
        "3",
        "--json",
    ];
    let a = json_of(&tsumi(&args));
    assert_eq!(a["games"], 4);
    assert_eq!(a["players"], serde_json::json!(["mcps", "grave"]));
    let total =
        a["wins"].as_u64().unwrap() + a["losses"].as_u64().unwrap() + a["draws"].as_u64().unwrap();
    assert_eq!(total, 4);
    let rate = a["win_rate"].as_f64().unwrap();
    let iv = a["interval95"].as_array().unwrap();
    assert!(iv[0].as_f64().unwrap() <= rate && rate <= iv[1].as_f64().unwrap());
    for p in a["per_player"].as_array().unwrap() {
        assert!(p["playouts"].as_u64().unwrap() > 0);
        assert!(p["playouts_per_second"].as_f64().unwrap() > 0.0);
        assert!(p["mean_leaf_depth"].as_f64().unwrap() > 0.0);
        assert!(p["mean_playout_length"].as_f64().unwrap() >= 0.0);
    }
    // The same seed gives the same games, whatever the thread count.
    let mut args1 = args.to_vec();
    args1.extend(["--threads", "1"]);
    let b = json_of(&tsumi(&args1));
    for key in ["wins", "losses", "draws", "first_player_wins"] {
        assert_eq!(a[key], b[key], "{key}");
    }
    for i in 0..2 {
        for key in [
            "playouts",
            "new_leaves",
            "mean_leaf_depth",
            "mean_playout_length",
            "moves",
        ] {
            assert_eq!(a["per_player"][i][key], b["per_player"][i][key], "{key}");
        }
    }
}

#[test]
fn match_prints_a_table_and_saves_sgf_records() {
    let dir = temp_dir("sgf");
    let d = dir.to_str().unwrap();
    let out = tsumi(&[
        "match",
        "--game",
        "nogo",
        "--size",
        "5",
        "uct",
        "rave",
        "--games",
        "3",
        "--playouts",
        "40",
        "--records",
        d,
        "--quiet",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("uct win rate"), "{text}");
    assert!(text.contains("95% interval"));
    assert!(
        text.contains("playouts/s")
            && text.contains("playout length")
            && text.contains("leaf depth")
    );
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert_eq!(files.len(), 3);
    for f in &files {
        assert_eq!(f.extension().unwrap(), "sgf");
        let sgf = std::fs::read_to_string(f).unwrap();
        assert!(sgf.starts_with("(;GM[1]FF[4]"), "{sgf}");
        assert!(sgf.contains("SZ[5]") && sgf.contains(";B[") && sgf.contains("RE["));
        assert!(sgf.trim_end().ends_with(')'));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn match_saves_text_records_for_the_wargame() {
    let dir = temp_dir("txt");
    let d = dir.to_str().unwrap();
    let out = tsumi(&[
        "match",
        "--game",
        "wargame",
        "--size",
        "5",
        "grave",
        "uct",
        "--games",
        "2",
        "--playouts",
        "30",
        "--records",
        d,
        "--quiet",
    ]);
    assert!(out.status.success());
    let rec = std::fs::read_to_string(dir.join("game-00000.txt")).unwrap();
    assert!(rec.contains("# result"));
    assert!(
        rec.lines().filter(|l| !l.starts_with('#')).count() >= 8,
        "{rec}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn match_rejects_bad_arguments() {
    let out = tsumi(&["match", "--game", "chess", "mcps", "grave", "--games", "1"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown game"));
    let out = tsumi(&[
        "match",
        "--game",
        "nogo",
        "--size",
        "5",
        "mcps",
        "alphazero",
        "--games",
        "1",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown player"));
    // Go is played from 1x1 to 19x19 (rectangles too); 20 is refused.
    let out = tsumi(&[
        "match", "--game", "go", "--size", "20", "mcps", "grave", "--games", "1",
    ]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn play_answers_illegal_input_and_stops_at_end_of_input() {
    let out = tsumi_stdin(
        &[
            "play",
            "--game",
            "tictactoe",
            "--size",
            "3",
            "--player",
            "uct",
            "--playouts",
            "50",
        ],
        "zz\nb2\nb2\nhelp\n",
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        text.matches("Illegal or unreadable move").count(),
        2,
        "{text}"
    );
    assert!(text.contains("uct plays"));
    assert!(text.contains("Legal moves:"));
    assert!(text.contains("End of input"));
}

#[test]
fn play_go_in_gtp_coordinates() {
    let out = tsumi_stdin(
        &[
            "play",
            "--game",
            "go",
            "--size",
            "5",
            "--player",
            "mcps",
            "--playouts",
            "20",
        ],
        "Z9\nC3\nC3\nquit\n",
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("off the 5x5 board"), "{text}");
    assert!(text.contains("mcps plays"));
    assert!(text.contains("Game abandoned"));
    assert!(text.contains(" A B C D E"));
}

#[test]
fn play_to_the_end_as_white() {
    // Trying the nine cells in order always finds a legal move for the person.
    let input = "a1\nb1\nc1\na2\nb2\nc2\na3\nb3\nc3\n".repeat(5);
    let out = tsumi_stdin(
        &[
            "play",
            "--game",
            "tictactoe",
            "--size",
            "3",
            "--colour",
            "white",
            "--player",
            "grave",
            "--playouts",
            "200",
        ],
        &input,
    );
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("Game over"), "{text}");
}

mod common;

const VERSION: &str = env!("CARGO_PKG_VERSION");

fn sgf_files(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut v: Vec<_> = std::fs::read_dir(dir)
        .map(|d| {
            d.map(|e| e.unwrap().path())
                .filter(|p| p.extension().is_some_and(|x| x == "sgf"))
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

/// Starts a long Go match (1000 games of 5x5, one thread, records on), waits until two games
/// are recorded, sends SIGINT, and returns the output and the records directory.
fn interrupted_match(name: &str, extra: &[&str]) -> (Output, common::TempFolder) {
    let dir = temp_dir(name);
    let mut args = vec![
        "match",
        "--game",
        "go",
        "--size",
        "5",
        "mcps",
        "grave",
        "--games",
        "1000",
        "--playouts",
        "30",
        "--threads",
        "1",
        "--records",
        dir.to_str().unwrap(),
    ];
    args.extend(extra);
    let child = Command::new(env!("CARGO_BIN_EXE_tsumi"))
        .args(&args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run tsumi");
    let t0 = std::time::Instant::now();
    while sgf_files(&dir).len() < 2 {
        assert!(t0.elapsed().as_secs() < 60, "no two games recorded in 60 s");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill -INT");
    assert!(status.success());
    (child.wait_with_output().unwrap(), dir)
}

#[test]
fn ctrl_c_stops_a_match_with_the_partial_result_in_json_and_status_3() {
    let (out, dir) = interrupted_match("int-json", &["--json"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "stderr: {err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(
        err.contains("interrupted") && err.contains("of 1000 games"),
        "{err}"
    );
    let j: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    assert_eq!(j["status"], "interrupted");
    assert_eq!(j["games_requested"], 1000);
    let played = j["games_played"].as_u64().unwrap();
    assert!((2..1000).contains(&played), "{played}");
    assert_eq!(j["games"], played);
    let total =
        j["wins"].as_u64().unwrap() + j["losses"].as_u64().unwrap() + j["draws"].as_u64().unwrap();
    assert_eq!(total, played);
    let iv = j["interval95"].as_array().unwrap();
    let rate = j["win_rate"].as_f64().unwrap();
    assert!(iv[0].as_f64().unwrap() <= rate && rate <= iv[1].as_f64().unwrap());
    // Every finished game is recorded (and only those: the game in progress is abandoned).
    assert_eq!(sgf_files(&dir).len() as u64, played);
    for f in sgf_files(&dir) {
        assert!(
            std::fs::read_to_string(f)
                .unwrap()
                .trim_end()
                .ends_with(')')
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn ctrl_c_stops_a_match_with_the_partial_result_in_text() {
    let (out, dir) = interrupted_match("int-text", &["--quiet"]);
    assert_eq!(out.status.code(), Some(3));
    let text = String::from_utf8(out.stdout).unwrap();
    let played = sgf_files(&dir).len();
    assert!(
        text.contains(&format!("interrupted: {played} of 1000 games finished")),
        "{text}"
    );
    assert!(
        text.contains("mcps win rate") && text.contains("95% interval"),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn play_ends_quietly_with_141_when_its_reader_goes_away() {
    use std::io::{BufRead, BufReader};
    let mut child = Command::new(env!("CARGO_BIN_EXE_tsumi"))
        .args(["play", "--size", "5", "--playouts", "50"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run tsumi");
    // Read the greeting, then close standard output (as `| head -2` does) before any move
    // is typed: the next write fails with a closed pipe.
    let mut reader = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    reader.read_line(&mut line).unwrap();
    assert!(line.contains("you play black"), "{line}");
    drop(reader);
    let _ = child
        .stdin
        .take()
        .unwrap()
        .write_all("pass\n".repeat(200).as_bytes());
    let out = child.wait_with_output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(141),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Runs tsumi with standard output on /dev/full (every write fails: no space left).
#[cfg(target_os = "linux")]
fn to_dev_full(args: &[&str], input: &str) -> Output {
    let full = std::fs::File::create("/dev/full").expect("/dev/full");
    let mut child = Command::new(env!("CARGO_BIN_EXE_tsumi"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(full)
        .stderr(Stdio::piped())
        .spawn()
        .expect("run tsumi");
    let _ = child.stdin.take().unwrap().write_all(input.as_bytes());
    child.wait_with_output().unwrap()
}

#[cfg(target_os = "linux")]
fn assert_write_error(out: &Output) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(
        err.starts_with("error: cannot write to standard output: "),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
}

#[cfg(target_os = "linux")]
#[test]
fn match_and_play_on_a_full_disk_give_one_line_and_status_2() {
    let m = [
        "match",
        "--game",
        "nogo",
        "--size",
        "5",
        "uct",
        "rave",
        "--games",
        "2",
        "--playouts",
        "20",
    ];
    assert_write_error(&to_dev_full(&m, ""));
    let mut mj = m.to_vec();
    mj.push("--json");
    assert_write_error(&to_dev_full(&mj, ""));
    let p = [
        "play",
        "--game",
        "tictactoe",
        "--size",
        "3",
        "--playouts",
        "20",
    ];
    assert_write_error(&to_dev_full(&p, "b2\n"));
}

#[test]
fn records_name_the_program_version_and_the_go_rules() {
    let dir = temp_dir("rules");
    let d = dir.to_str().unwrap();
    let run = |extra: &[&str]| {
        let _ = std::fs::remove_dir_all(&dir);
        let mut args = vec![
            "match",
            "--game",
            "go",
            "--size",
            "5",
            "uct",
            "mcps",
            "--games",
            "1",
            "--playouts",
            "20",
            "--records",
            d,
            "--quiet",
        ];
        args.extend(extra);
        let out = tsumi(&args);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        (
            String::from_utf8(out.stdout).unwrap(),
            std::fs::read_to_string(dir.join("game-00000.sgf")).unwrap(),
        )
    };
    let (text, sgf) = run(&[]);
    assert!(sgf.contains(&format!("AP[tsumi:{VERSION}]")), "{sgf}");
    assert!(!sgf.contains("AP[tsumi]"));
    assert!(sgf.contains("KM[6.5]"), "{sgf}");
    assert!(
        sgf.contains("RU[area scoring, komi 6.5, simple ko, suicide illegal, ends after two passes or 100 plies]"),
        "{sgf}"
    );
    assert!(
        text.contains("rules: area scoring, komi 6.5, simple ko"),
        "{text}"
    );
    let (text, sgf) = run(&["--ko", "psk", "--komi", "-2.5"]);
    assert!(
        sgf.contains("KM[-2.5]") && sgf.contains("positional superko"),
        "{sgf}"
    );
    assert!(text.contains("komi -2.5, positional superko"), "{text}");
    // The other games of the family: the game in RU, no komi.
    let _ = std::fs::remove_dir_all(&dir);
    let out = tsumi(&[
        "match",
        "--game",
        "atarigo",
        "--size",
        "5",
        "uct",
        "uct",
        "--games",
        "1",
        "--playouts",
        "10",
        "--records",
        d,
        "--quiet",
    ]);
    assert!(out.status.success());
    let sgf = std::fs::read_to_string(dir.join("game-00000.sgf")).unwrap();
    assert!(
        sgf.contains("RU[atarigo]")
            && sgf.contains("KM[0]")
            && sgf.contains(&format!("AP[tsumi:{VERSION}]")),
        "{sgf}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn match_json_states_the_rules_and_status() {
    let j = json_of(&tsumi(&[
        "match",
        "--game",
        "go",
        "--size",
        "5",
        "uct",
        "uct",
        "--games",
        "2",
        "--playouts",
        "10",
        "--ko",
        "psk",
        "--komi",
        "7",
        "--json",
    ]));
    assert_eq!(j["status"], "complete");
    assert_eq!(
        (j["games_played"].as_u64(), j["games_requested"].as_u64()),
        (Some(2), Some(2))
    );
    assert_eq!(j["rules"]["ko"], "psk");
    assert_eq!(j["rules"]["komi"], 7.0);
    assert_eq!(j["rules"]["move_limit"], 100);
    let j = json_of(&tsumi(&[
        "match",
        "--game",
        "hex",
        "--size",
        "3",
        "uct",
        "uct",
        "--games",
        "1",
        "--playouts",
        "10",
        "--json",
    ]));
    assert!(j["rules"].is_null());
}

#[test]
fn game_names_are_case_insensitive() {
    for game in ["Go", "GO", "HEX", "NoGo", "TicTacToe"] {
        let size = if game.eq_ignore_ascii_case("go") || game.eq_ignore_ascii_case("nogo") {
            "5"
        } else {
            "3"
        };
        let j = json_of(&tsumi(&[
            "match",
            "--game",
            game,
            "--size",
            size,
            "uct",
            "uct",
            "--games",
            "1",
            "--playouts",
            "10",
            "--json",
        ]));
        assert_eq!(j["game"], game.to_ascii_lowercase());
        let out = tsumi_stdin(
            &["play", "--game", game, "--size", size, "--playouts", "10"],
            "quit\n",
        );
        assert!(
            out.status.success(),
            "{game}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    common::assert_clear_error(
        &["match", "--game", "Chess", "uct", "uct", "--games", "1"],
        "unknown game \"Chess\"",
    );
}

#[test]
fn go_options_are_refused_for_other_games_naming_the_flag() {
    common::assert_clear_error(
        &[
            "match", "--game", "hex", "--size", "3", "uct", "uct", "--games", "1", "--ko", "psk",
        ],
        "--ko applies to go only, not to hex",
    );
    common::assert_clear_error(
        &["play", "--game", "nogo", "--size", "5", "--komi", "7.5"],
        "--komi applies to go only, not to nogo",
    );
    common::assert_clear_error(
        &[
            "match", "--game", "go", "--size", "5", "uct", "uct", "--ko", "japanese",
        ],
        "--ko: unknown ko rule",
    );
    common::assert_clear_error(
        &["play", "--game", "go", "--size", "5", "--komi", "6.25"],
        "--komi: invalid komi",
    );
}

#[test]
fn help_states_the_go_rules() {
    for cmd in ["match", "play"] {
        let out = tsumi(&[cmd, "--help"]);
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(
            text.contains("Go rules: area scoring, komi 6.5")
                && text.contains("simple ko")
                && text.contains("psk for positional superko"),
            "{cmd}: {text}"
        );
        assert!(text.contains("--ko") && text.contains("--komi"), "{text}");
    }
}

#[test]
fn match_progress_has_no_carriage_returns_off_a_terminal() {
    // Standard error is a pipe here: no bar redrawn with `\r`.
    let out = tsumi(&[
        "match",
        "--game",
        "nogo",
        "--size",
        "5",
        "uct",
        "rave",
        "--games",
        "3",
        "--playouts",
        "20",
    ]);
    assert!(out.status.success());
    assert!(
        !out.stderr.contains(&b'\r'),
        "{:?}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("uct win rate"));
}

#[test]
fn play_go_shows_the_rules_and_ends_with_the_area_score() {
    // The person passes every move: the game ends by two passes or the move limit.
    let out = tsumi_stdin(
        &[
            "play",
            "--game",
            "go",
            "--size",
            "5",
            "--player",
            "uct",
            "--playouts",
            "30",
            "--ko",
            "psk",
        ],
        &"pass\n".repeat(120),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("komi 6.5, positional superko, area scoring"),
        "{text}"
    );
    let end = text.rsplit("Game over after").next().unwrap();
    assert!(
        end.contains("area Black ") && end.contains(", White ") && end.contains("komi 6.5: "),
        "{text}"
    );
    assert!(end.contains(" wins by ") || end.contains("a draw"), "{end}");
    assert!(text.contains("Game over: "), "{text}");
}

#[test]
fn play_hex_says_which_edges_each_player_connects() {
    let out = tsumi_stdin(
        &["play", "--game", "hex", "--size", "4", "--playouts", "10"],
        "",
    );
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains(
            "Black (X) connects top and bottom (rows 1 and 4), White (O) left and right (columns a and d)."
        ),
        "{text}"
    );
}

#[test]
fn conflicting_budgets_and_non_finite_constants_are_refused() {
    let base = [
        "match", "--game", "go", "--size", "5", "mcps", "grave", "--games", "1",
    ];
    common::assert_clear_error(
        &[&base[..], &["--playouts", "20", "--seconds", "0.01"]].concat(),
        "give one of them",
    );
    for (flag, v) in [("--bias", "nan"), ("--bias", "inf"), ("--uct-c", "nan")] {
        common::assert_clear_error(&[&base[..], &["--playouts", "20", flag, v]].concat(), flag);
    }
}

#[test]
fn match_json_keeps_a_command_line_that_is_not_utf8() {
    use std::os::unix::ffi::OsStrExt;
    let dir = temp_dir("non-utf8");
    let odd = dir.join(std::ffi::OsStr::from_bytes(b"recs-\xff\xfe"));
    let out = Command::new(env!("CARGO_BIN_EXE_tsumi"))
        .args([
            "match", "--game", "go", "--size", "5", "mcps", "grave", "--games", "1",
        ])
        .args(["--playouts", "20", "--json", "--records"])
        .arg(&odd)
        .output()
        .expect("tsumi runs");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v = json_of(&out);
    assert!(v["command"].as_str().unwrap().contains("recs-"), "{v}");
}

/// Issue 38, item 2: `--threads 100000` spawned 15,954 threads for two games. The threads
/// are capped at the games (and at 1024 by the parser).
#[test]
fn match_threads_are_capped_by_the_games() {
    let v = common::json(&[
        "match",
        "--game",
        "tictactoe",
        "--size",
        "3",
        "uct",
        "uct",
        "--games",
        "2",
        "--playouts",
        "10",
        "--threads",
        "1000",
        "--json",
    ]);
    assert_eq!(v["threads"], 2, "{v}");
    let out = common::tsumi(&[
        "match",
        "--game",
        "tictactoe",
        "--size",
        "3",
        "uct",
        "uct",
        "--games",
        "2",
        "--threads",
        "100000",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("100000 is not in 0..=1024"));
}
