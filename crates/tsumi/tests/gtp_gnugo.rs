//! `tsumi gtp` against GNU Go through `tsumi referee` (skipped with a printed reason when GNU
//! Go is not installed; `.ci/run` installs it): games on 5x5 complete with legal moves on both
//! sides and a scored result, and on 4x4 at komi 1.5 tsumi as Black, playing proven moves,
//! never loses.

mod common;

use common::gnugo;

use games::go::{KoRule, position_from_sgf};
use serde_json::Value;

fn gnugo_engine(g: &str) -> String {
    format!(
        "{g} --mode gtp --chinese-rules --positional-superko --never-resign --level 1 --seed {{seed}}"
    )
}

/// Runs the referee; returns the JSON lines and the referee's stderr (the engines' too).
fn referee(args: &[&str]) -> (Vec<Value>, String) {
    let mut all = vec!["referee", "--json"];
    all.extend_from_slice(args);
    let out = common::tsumi(&all);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{all:?}: {err}");
    let lines = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object a line"))
        .collect();
    (lines, err)
}

fn temp_dir(name: &str) -> common::TempFolder {
    common::temp_path(&format!("gtp-gnugo-{name}"))
}

#[test]
fn tsumi_gtp_and_gnu_go_finish_scored_games_on_5x5() {
    let Some(g) = gnugo() else { return };
    let dir = temp_dir("5x5");
    let tsumi = format!(
        "{} gtp --seed {{seed}} --solve-seconds 2 --playouts 200",
        env!("CARGO_BIN_EXE_tsumi")
    );
    let (lines, err) = referee(&[
        "--black",
        &tsumi,
        "--white",
        &gnugo_engine(&g),
        "--size",
        "5",
        "--komi",
        "24.5",
        "--games",
        "2",
        "--alternate",
        "--records",
        dir.to_str().unwrap(),
    ]);
    for game in &lines[..2] {
        assert_eq!(game["reason"], "two passes", "{game}\n{err}");
        assert!(game["failed"].is_null(), "{game}");
        let text = std::fs::read_to_string(game["sgf"].as_str().unwrap()).unwrap();
        let pos = position_from_sgf(&text, KoRule::PositionalSuperko).expect("legal record");
        assert!(pos.is_over());
        assert_eq!(u64::from(pos.plies()), game["moves"].as_u64().unwrap());
        let score = f64::from(pos.score().margin()) - 24.5;
        assert_eq!(game["score"].as_f64().unwrap(), score);
    }
    assert_eq!(
        lines[1]["white"].as_str().unwrap(),
        tsumi.replace("{seed}", "2")
    );
    assert_eq!(lines[2]["forfeits"], 0);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn tsumi_as_black_never_loses_4x4_at_komi_1_5() {
    let Some(g) = gnugo() else { return };
    // A budget that proves the first move (about 0.7 M expansions with a 512 MiB table).
    let tsumi = format!(
        "{} gtp --seed {{seed}} --solve-budget 5000000 --solve-seconds 60 --tt-mib 512",
        env!("CARGO_BIN_EXE_tsumi")
    );
    let (lines, err) = referee(&[
        "--black",
        &tsumi,
        "--white",
        &gnugo_engine(&g),
        "--size",
        "4",
        "--komi",
        "1.5",
        "--games",
        "2",
    ]);
    for game in &lines[..2] {
        assert_eq!(game["winner"], "black", "{game}\n{err}");
        assert_eq!(game["reason"], "two passes", "{game}");
    }
    assert_eq!(lines[2]["a_wins"], 2);
    // Every move tsumi chose was a proven one (its genmove says so on stderr).
    let genmoves: Vec<&str> = err
        .lines()
        .filter(|l| l.starts_with("tsumi: genmove black"))
        .collect();
    assert!(!genmoves.is_empty(), "{err}");
    for l in genmoves {
        assert!(l.contains(": proven"), "{l}");
    }
}

#[test]
fn tsumi_against_itself_scores_the_value_of_small_rectangles() {
    // Both sides play proven optimal moves, so the game keeps the value from the first move to
    // the last: 2x3 is worth 0 (White wins by the komi 0.5), 3x3 is worth +9 (data/go-psk-values.tsv).
    let tsumi = format!("{} gtp --seed {{seed}}", env!("CARGO_BIN_EXE_tsumi"));
    for (rect, result) in [("3x2", "W+0.5"), ("3x3", "B+8.5")] {
        let (lines, err) = referee(&[
            "--black", &tsumi, "--white", &tsumi, "--rect", rect, "--komi", "0.5", "--games", "1",
        ]);
        assert_eq!(lines[0]["result"], result, "{rect}: {}\n{err}", lines[0]);
        assert_eq!(lines[0]["reason"], "two passes");
    }
}

/// The MCPS player alone (`--no-solve`) against GNU Go finishes every game without a
/// forfeit. Before the Monte Carlo tree keyed its nodes by history signature too, `tsumi gtp`
/// died in most of these games (a tree move replayed under a history whose superko forbids
/// it: "GoGame::play given an illegal move: ... it repeats an earlier board (psk)").
#[test]
fn tsumi_mcps_alone_finishes_games_against_gnu_go() {
    let Some(g) = gnugo() else { return };
    let tsumi = format!(
        "{} gtp --seed {{seed}} --no-solve --playouts 200",
        env!("CARGO_BIN_EXE_tsumi")
    );
    let (lines, err) = referee(&[
        "--black",
        &tsumi,
        "--white",
        &gnugo_engine(&g),
        "--size",
        "5",
        "--komi",
        "7.5",
        "--games",
        "4",
        "--alternate",
    ]);
    for game in &lines[..4] {
        assert!(game["failed"].is_null(), "{game}\n{err}");
    }
}
