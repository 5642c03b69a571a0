//! `tsumi referee`: GNU Go against GNU Go (skipped with a printed reason when GNU Go is not
//! installed), and scripted GTP engines that pass, play an illegal move, die, hang or refuse a
//! legal move — each such engine loses its game and the reason is reported.

mod common;

use common::{assert_clear_error, gnugo, tsumi};
use games::go::{KoRule, position_from_sgf};
use serde_json::Value;
use std::path::Path;
use std::time::{Duration, Instant};

fn temp_dir(name: &str) -> common::TempFolder {
    common::temp_folder(&format!("referee-{name}"))
}

/// A scripted GTP engine: `sh SCRIPT MODE [LOG]`. Every command is answered `=` (and logged),
/// except `genmove`, answered by MODE: `pass`; `a1` (always A1, illegal the second time);
/// `die` (exits); `hang` (never answers); and `play` in mode `reject` (answered `?`).
const SCRIPT: &str = r#"mode=$1
log=$2
while IFS= read -r line; do
  if [ -n "$log" ]; then echo "$line" >> "$log"; fi
  case "$line" in
    quit*) printf '=\n\n'; exit 0;;
    genmove*)
      case "$mode" in
        a1) printf '= A1\n\n';;
        die) exit 1;;
        hang) exec sleep 30;;
        *) printf '= pass\n\n';;
      esac;;
    play*)
      if [ "$mode" = reject ]; then printf '? illegal move\n\n'; else printf '=\n\n'; fi;;
    *) printf '=\n\n';;
  esac
done
"#;

fn script(dir: &Path) -> String {
    let p = dir.join("engine.sh");
    std::fs::write(&p, SCRIPT).unwrap();
    format!("sh {}", p.display())
}

/// Runs the referee with `--json` and returns its JSON lines (games, then the summary).
fn referee(args: &[&str]) -> Vec<Value> {
    let mut all = vec!["referee", "--json"];
    all.extend_from_slice(args);
    let out = tsumi(&all);
    assert!(
        out.status.success(),
        "{all:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object a line"))
        .collect()
}

/// Checks a scored game's record: its SGF replays under PSK to a finished game with the
/// line's move count, and the area score minus komi is the line's score.
fn check_record(game: &Value, komi: f64) {
    let path = game["sgf"].as_str().expect("a record");
    let text = std::fs::read_to_string(path).unwrap();
    let pos = position_from_sgf(&text, KoRule::PositionalSuperko).expect("the record parses");
    assert_eq!(u64::from(pos.plies()), game["moves"].as_u64().unwrap());
    assert!(text.contains(&format!("RE[{}]", game["result"].as_str().unwrap())));
    if game["reason"] == "two passes" {
        assert!(pos.is_over());
        let margin = f64::from(pos.score().margin());
        assert_eq!(margin - komi, game["score"].as_f64().unwrap(), "{game}");
    }
}

#[test]
fn gnu_go_against_gnu_go_plays_scored_games_with_records() {
    let Some(g) = gnugo() else { return };
    let dir = temp_dir("gnugo");
    let engine = format!(
        "{g} --mode gtp --chinese-rules --positional-superko --never-resign --level 1 --seed {{seed}}"
    );
    let rec = dir.join("records");
    let lines = referee(&[
        "--black",
        &engine,
        "--white",
        &engine,
        "--size",
        "5",
        "--komi",
        "0.5",
        "--games",
        "2",
        "--alternate",
        "--records",
        rec.to_str().unwrap(),
    ]);
    assert_eq!(lines.len(), 3);
    for (i, game) in lines[..2].iter().enumerate() {
        assert_eq!(game["type"], "game");
        assert_eq!(game["game"], i as u64 + 1);
        assert_eq!(game["seed"], i as u64 + 1, "seeds are --seed + index");
        assert!(
            game["black"]
                .as_str()
                .unwrap()
                .ends_with(&format!("--seed {}", i + 1))
        );
        assert_eq!(game["reason"], "two passes", "{game}");
        assert!(game["failed"].is_null());
        let score = game["score"].as_f64().unwrap();
        let winner = if score > 0.0 { "black" } else { "white" };
        assert_eq!(game["winner"], winner);
        assert!(game["moves"].as_u64().unwrap() >= 2);
        check_record(game, 0.5);
    }
    let s = &lines[2];
    assert_eq!(s["type"], "summary");
    assert_eq!(s["games"], 2);
    assert_eq!(s["forfeits"], 0);
    assert_eq!(
        s["a_wins"].as_u64().unwrap()
            + s["b_wins"].as_u64().unwrap()
            + s["draws"].as_u64().unwrap(),
        2
    );
    let (lo, hi) = (
        s["a_score_95"][0].as_f64().unwrap(),
        s["a_score_95"][1].as_f64().unwrap(),
    );
    let rate = s["a_score"].as_f64().unwrap();
    assert!(lo <= rate && rate <= hi && lo < hi);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn two_passes_end_a_rectangular_game_scored_by_area() {
    let dir = temp_dir("rect");
    let e = script(&dir);
    let log = dir.join("log.txt");
    let black = format!("{e} pass {}", log.display());
    let rec = dir.join("records");
    let lines = referee(&[
        "--black",
        &black,
        "--white",
        &format!("{e} pass"),
        "--rect",
        "4x3",
        "--komi",
        "0.5",
        "--games",
        "1",
        "--records",
        rec.to_str().unwrap(),
    ]);
    let g = &lines[0];
    // The empty board scores 0 to 0: White wins by the komi.
    assert_eq!(g["result"], "W+0.5");
    assert_eq!(g["moves"], 2);
    assert_eq!(g["score"], -0.5);
    check_record(g, 0.5);
    let sgf = std::fs::read_to_string(g["sgf"].as_str().unwrap()).unwrap();
    assert!(sgf.contains("SZ[4:3]"), "4 columns, 3 rows: {sgf}");
    let sent = std::fs::read_to_string(&log).unwrap();
    let sent: Vec<&str> = sent.lines().collect();
    assert_eq!(
        sent,
        [
            "rectangular_boardsize 4 3",
            "komi 0.5",
            "clear_board",
            "genmove b",
            "play w pass",
            "quit"
        ]
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_illegal_move_loses_the_game() {
    let dir = temp_dir("illegal");
    let e = script(&dir);
    let lines = referee(&[
        "--black",
        &format!("{e} a1"),
        "--white",
        &format!("{e} pass"),
        "--komi",
        "0.5",
        "--games",
        "2",
        "--alternate",
    ]);
    // Game 1: Black plays A1, White passes, Black plays A1 again: occupied.
    assert_eq!(lines[0]["result"], "W+F");
    assert_eq!(lines[0]["failed"], "black");
    assert_eq!(lines[0]["moves"], 2);
    let why = lines[0]["reason"].as_str().unwrap();
    assert!(
        why.contains("illegal move A1") && why.contains("occupied"),
        "{why}"
    );
    // Game 2, colours swapped: the A1 engine is White and loses the same way.
    assert_eq!(lines[1]["white"], format!("{e} a1"));
    assert_eq!(lines[1]["result"], "B+F");
    assert_eq!(lines[1]["failed"], "white");
    assert_eq!(lines[2]["a_wins"], 0);
    assert_eq!(lines[2]["b_wins"], 2);
    assert_eq!(lines[2]["forfeits"], 2);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_dead_a_hung_and_a_refusing_engine_lose() {
    let dir = temp_dir("fail");
    let e = script(&dir);
    let pass = format!("{e} pass");
    let one = |black: &str| -> Value {
        referee(&[
            "--black",
            black,
            "--white",
            &pass,
            "--komi",
            "0.5",
            "--games",
            "1",
            "--move-timeout",
            "1",
        ])
        .remove(0)
    };
    let died = one(&format!("{e} die"));
    assert_eq!(died["result"], "W+F");
    assert!(died["reason"].as_str().unwrap().contains("died"), "{died}");
    // The hung engine's `sleep` would hold the referee's stderr open for 30 s if its
    // process group were not killed: the run ends within seconds.
    let t = Instant::now();
    let hung = one(&format!("{e} hang"));
    assert!(t.elapsed() < Duration::from_secs(20), "{:?}", t.elapsed());
    assert_eq!(hung["result"], "W+T");
    assert!(
        hung["reason"]
            .as_str()
            .unwrap()
            .contains("no reply to 'genmove b' within 1 s"),
        "{hung}"
    );
    // White refuses Black's legal pass: White loses.
    let refused = referee(&[
        "--black",
        &pass,
        "--white",
        &format!("{e} reject"),
        "--komi",
        "0.5",
        "--games",
        "1",
    ])
    .remove(0);
    assert_eq!(refused["result"], "B+F");
    assert_eq!(refused["failed"], "white");
    assert!(
        refused["reason"]
            .as_str()
            .unwrap()
            .contains("did not accept the legal move pass")
    );
    // A command that does not exist dies at once.
    let missing = one("/nonexistent/engine --mode gtp");
    assert_eq!(missing["result"], "W+F");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_referee_arguments_are_one_line_errors() {
    let base = ["referee", "--black", "true", "--white", "true"];
    let with = |extra: &[&'static str]| -> Vec<&'static str> {
        let mut v: Vec<&str> = base.to_vec();
        v.extend_from_slice(extra);
        v
    };
    assert_clear_error(&with(&["--komi", "abc"]), "invalid komi");
    assert_clear_error(&with(&["--komi", "0.5", "--rect", "5y4"]), "--rect");
    assert_clear_error(
        &with(&["--komi", "0.5", "--size", "20"]),
        "unsupported board size",
    );
    assert_clear_error(&with(&["--komi", "0.5", "--games", "0"]), "--games 0");
    assert_clear_error(
        &with(&["--komi", "0.5", "--move-timeout", "-1"]),
        "--move-timeout",
    );
}
