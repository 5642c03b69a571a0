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

fn temp_dir(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("tsumi-arena-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
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
    let out = tsumi(&[
        "match", "--game", "go", "--size", "3", "mcps", "grave", "--games", "1",
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
