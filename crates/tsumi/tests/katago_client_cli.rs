//! `tsumi analysis` driven by a published client of KataGo's analysis protocol, not by our
//! own queries: the `katago-analysis` crate (crates.io, MIT), which launches
//! `KATAGO analysis -config C -model M`, writes its queries and parses every response into
//! its own types (a response missing a field that KataGo always sends fails there). The
//! client launches a small shell script that records what it sends (`sent.jsonl`) and runs
//! `tsumi analysis`; the transcripts below are what the client sent, byte for byte, and the
//! test checks them against the recording so a client or server change shows here.
//!
//! Positions: the empty 3x3 board (data/go-psk-values.tsv: B2 +9, a side +3, a corner −9) and
//! a 4x4 position after eleven moves (White to move), both proven within the query.

mod common;

use katago_analysis::engine::{Engine, LaunchOptions};
use katago_analysis::{
    AnalysisRequest, Analyzer, Bonus, Coord, Ko, Move, Player, ReturnWarnings, Rules, Scoring, Tax,
};
use std::os::unix::fs::PermissionsExt;

/// What the client sent, one JSON line per request (its ids count from 1; it writes the
/// fields it has in key order and leaves out those it has no value for).
const SENT: [&str; 4] = [
    r#"{"action":"query_version","id":"1"}"#,
    r#"{"analyzeTurns":[0],"boardXSize":3,"boardYSize":3,"id":"2","komi":7.5,"maxVisits":100000,"moves":[],"rules":{"friendlyPassOk":false,"hasButton":false,"ko":"POSITIONAL","scoring":"AREA","suicide":false,"tax":"NONE","whiteHandicapBonus":"0"}}"#,
    r#"{"analyzeTurns":[11],"boardXSize":4,"boardYSize":4,"id":"3","komi":0.5,"maxVisits":100000,"moves":[["B","B1"],["W","C1"],["B","B2"],["W","C2"],["B","B3"],["W","C3"],["B","B4"],["W","C4"],["B","A4"],["W","D2"],["B","A2"]],"rules":"chinese"}"#,
    r#"{"analyzeTurns":[0],"boardXSize":25,"boardYSize":25,"id":"4","komi":7.5,"maxVisits":10,"moves":[],"rules":"chinese"}"#,
];

/// tsumi's rules spelt out: positional superko, area scoring, suicide illegal.
fn tsumi_rules() -> Rules {
    Rules::Explicit {
        ko: Ko::Positional,
        scoring: Scoring::Area,
        tax: Tax::None,
        suicide: false,
        has_button: false,
        white_handicap_bonus: Bonus::Zero,
        friendly_pass_ok: false,
    }
}

fn gtp(m: &Move, height: u8) -> String {
    m.to_gtp(height)
}

#[tokio::test(flavor = "current_thread")]
async fn a_published_katago_client_reads_proven_moves_on_3x3_and_4x4() {
    let dir = tempfile::tempdir().unwrap();
    let sent = dir.path().join("sent.jsonl");
    let script = dir.path().join("katago");
    // Called as `katago analysis -config C -model M`: the arguments are KataGo's, ignored.
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\ntee '{}' | exec '{}' analysis\n",
            sent.display(),
            common::bin()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let options = LaunchOptions::new(
        script.display().to_string(),
        "analysis.cfg".into(),
        "model.bin.gz".into(),
    )
    .with_inherit_stderr();
    let mut analyzer: Analyzer<ReturnWarnings> = Engine::launch(&options).unwrap().into();

    let version = analyzer
        .query_version()
        .await
        .unwrap()
        .into_result()
        .unwrap();
    assert!(!version.version.is_empty(), "{version:?}");

    // 3x3 at komi 7.5 under tsumi's own rules: no warning, every move proven.
    let q3 = AnalysisRequest::new(tsumi_rules(), 3, 3, vec![])
        .with_komi(7.5)
        .with_max_visits(100_000);
    let r3 = analyzer.analyze(q3).await.unwrap();
    assert!(r3.warnings.is_none(), "{:?}", r3.warnings);
    let r3 = r3.value.expect("a result for the empty 3x3 board");
    assert!(!r3.is_during_search);
    assert_eq!(r3.turn_number, 0);
    assert_eq!(r3.move_infos.len(), 10, "nine points and the pass");
    assert_eq!(r3.move_infos[0].mv, Move::Move(Coord(1, 1)), "B2 first");
    assert_eq!(r3.move_infos[0].order, 0);
    for m in &r3.move_infos {
        let name = gtp(&m.mv, 3);
        let v = match name.as_str() {
            "B2" => 9.0,
            "B1" | "A2" | "C2" | "B3" => 3.0,
            _ => -9.0,
        };
        assert_eq!(m.score_lead, v - 7.5, "{name}");
        assert_eq!(m.winrate, if v > 7.5 { 1.0 } else { 0.0 }, "{name}");
        assert!(m.visits > 0 && m.edge_visits == m.visits, "{name}");
    }
    assert_eq!(r3.root_info.score_lead, 1.5);
    assert_eq!(r3.root_info.winrate, 1.0);
    assert_eq!(r3.root_info.current_player, Player::Black);
    assert_eq!(r3.root_info.this_hash.len(), 16);

    // 4x4 after eleven moves, White to move, KataGo's "chinese" (simple ko): served under
    // tsumi's rules with a warning naming the field, every legal move proven.
    let moves = [
        "B1", "C1", "B2", "C2", "B3", "C3", "B4", "C4", "A4", "D2", "A2",
    ];
    let line: Vec<(Player, Move)> = moves
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let p = if i % 2 == 0 {
                Player::Black
            } else {
                Player::White
            };
            (p, Move::from_gtp(m, 4).unwrap())
        })
        .collect();
    let q4 = AnalysisRequest::new(Rules::chinese(), 4, 4, line)
        .with_komi(0.5)
        .with_max_visits(100_000);
    let r4 = analyzer.analyze(q4).await.unwrap();
    let warnings = r4.warnings.clone().expect("a warning for simple ko");
    assert_eq!(warnings[0].field, "rules", "{warnings:?}");
    let r4 = r4.value.expect("a result for the 4x4 position");
    assert_eq!(r4.turn_number, 11);
    assert_eq!(r4.root_info.current_player, Player::White);
    let mut names: Vec<String> = r4.move_infos.iter().map(|m| gtp(&m.mv, 4)).collect();
    names.sort();
    // A1 and A3 would be suicide for White.
    assert_eq!(names, ["D1", "D3", "D4", "pass"]);
    for m in &r4.move_infos {
        assert!(m.winrate == 0.0 || m.winrate == 1.0, "{m:?}: proven");
        assert_eq!(
            m.score_lead.fract().abs(),
            0.5,
            "{m:?}: a margin at komi 0.5"
        );
        assert_eq!(m.winrate == 1.0, m.score_lead > 0.0, "{m:?}");
    }

    // A board over 19 is refused with the protocol's error, which the client reports.
    let q25 = AnalysisRequest::new(Rules::chinese(), 25, 25, vec![])
        .with_komi(7.5)
        .with_max_visits(10);
    let err = analyzer.analyze(q25).await.unwrap_err();
    assert!(
        err.to_string().contains("boardXSize") || err.to_string().contains("board"),
        "{err}"
    );

    drop(analyzer);
    // The recording is complete once the server has read its input to the end.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    let recorded = loop {
        let text = std::fs::read_to_string(&sent).unwrap_or_default();
        if text.lines().count() >= SENT.len() || std::time::Instant::now() > deadline {
            break text;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    let lines: Vec<&str> = recorded.lines().collect();
    assert_eq!(lines, SENT, "what the client sent");
}
