//! `tsumi analysis` driven as KaTrain drives `katago analysis`: the queries below are written
//! field for field as KaTrain's `KataGoEngine.request_analysis` builds them (katrain/core/
//! engine.py: `rules`, `priority`, `analyzeTurns`, `maxVisits`, `komi`, `boardXSize`,
//! `boardYSize`, `includeOwnership`, `includeMovesOwnership`, `includePolicy`,
//! `initialStones`, `initialPlayer`, `moves`, `overrideSettings` with
//! `reportAnalysisWinratesAs: BLACK`, `wideRootNoise` and `maxTime`), and the responses are
//! read as KaTrain reads them (`_analysis_read_thread` and `GameNode.set_analysis`: a line
//! with `error` ends the query, one with `warning` is only logged, `isDuringSearch` marks a
//! partial result, then `moveInfos[].move/visits/winrate/scoreLead/pv/order`,
//! `rootInfo.visits/winrate/scoreLead` and `ownership`). Proven moves carry Black's exact
//! margins; terminate stops a running query; bad queries never crash the server.

use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A query as KaTrain's `request_analysis` writes it.
fn katrain_query(
    id: &str,
    size: (u32, u32),
    komi: f64,
    moves: &[(&str, &str)],
    visits: u64,
) -> Value {
    json!({
        "id": id,
        "rules": "chinese",
        "priority": 0,
        "analyzeTurns": [moves.len()],
        "maxVisits": visits,
        "komi": komi,
        "boardXSize": size.0,
        "boardYSize": size.1,
        "includeOwnership": true,
        "includeMovesOwnership": true,
        "includePolicy": true,
        "initialStones": [],
        "initialPlayer": "B",
        "moves": moves.iter().map(|(p, m)| json!([p, m])).collect::<Vec<_>>(),
        "overrideSettings": {
            "reportAnalysisWinratesAs": "BLACK",
            "wideRootNoise": 0.04,
            "maxTime": 60.0
        }
    })
}

/// Runs a session over `lines` and returns the parsed output lines and the exit status.
fn session(lines: &[String]) -> (Vec<Value>, i32) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tsumi"))
        .args(["analysis", "--tt-mib", "8", "--playouts", "200"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    {
        let mut stdin = child.stdin.take().unwrap();
        for l in lines {
            writeln!(stdin, "{l}").unwrap();
        }
    }
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let values = text
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    (values, out.status.code().unwrap_or(-1))
}

/// The final response of query `id` (KaTrain: not `isDuringSearch`, no `error`).
fn final_of<'a>(out: &'a [Value], id: &str) -> &'a Value {
    out.iter()
        .find(|v| {
            v["id"] == id
                && v.get("error").is_none()
                && v.get("warning").is_none()
                && v["isDuringSearch"] == false
        })
        .unwrap_or_else(|| panic!("no response to {id}: {out:?}"))
}

/// `(move, winrate, scoreLead)` of each move info, in order.
fn infos(v: &Value) -> Vec<(String, f64, f64)> {
    v["moveInfos"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            (
                m["move"].as_str().unwrap().to_string(),
                m["winrate"].as_f64().unwrap(),
                m["scoreLead"].as_f64().unwrap(),
            )
        })
        .collect()
}

#[test]
fn katrain_queries_get_proven_moves_with_black_s_exact_margins() {
    let q3 = katrain_query("QUERY:1", (3, 3), 7.5, &[], 400_000);
    // 4x4, after eleven moves, White to move: figures from Black's side (KaTrain's BLACK).
    let late: Vec<(&str, &str)> = [
        "B1", "C1", "B2", "C2", "B3", "C3", "B4", "C4", "A4", "D2", "A2",
    ]
    .iter()
    .enumerate()
    .map(|(i, m)| (if i % 2 == 0 { "B" } else { "W" }, *m))
    .collect();
    let q4 = katrain_query("QUERY:2", (4, 4), 0.5, &late, 400_000);
    let (out, status) = session(&[q3.to_string(), q4.to_string()]);
    assert_eq!(status, 0);
    // KaTrain's "chinese" is simple ko: a warning (logged by KaTrain), then the result.
    let warn = out.iter().find(|v| v.get("warning").is_some()).unwrap();
    assert_eq!(warn["field"], "rules");
    let r3 = final_of(&out, "QUERY:1");
    assert_eq!(r3["turnNumber"], 0);
    // data/go-psk-values.tsv: 3x3 centre +9, a side +3, a corner -9 (komi 7.5).
    for (mv, w, lead) in infos(r3) {
        let v = match mv.as_str() {
            "B2" => 9.0,
            "B1" | "A2" | "C2" | "B3" => 3.0,
            _ => -9.0,
        };
        assert_eq!(lead, v - 7.5, "{mv}");
        assert_eq!(w, if v > 7.5 { 1.0 } else { 0.0 }, "{mv}");
    }
    assert_eq!(r3["moveInfos"][0]["move"], "B2");
    assert_eq!(r3["moveInfos"][0]["order"], 0);
    assert_eq!(r3["rootInfo"]["scoreLead"], 1.5);
    assert_eq!(r3["rootInfo"]["winrate"], 1.0);
    assert!(r3["rootInfo"]["visits"].as_u64().unwrap() > 0);
    assert_eq!(r3["ownership"], json!(vec![1.0; 9]), "Black owns the board");
    let r4 = final_of(&out, "QUERY:2");
    assert_eq!(r4["rootInfo"]["currentPlayer"], "W");
    let moves4 = infos(r4);
    // A1 and A3 would be suicide for White: D1, D3, D4 and the pass.
    let names: Vec<&str> = moves4.iter().map(|m| m.0.as_str()).collect();
    assert_eq!(names.len(), 4, "{names:?}");
    for m in ["D1", "D3", "D4", "pass"] {
        assert!(names.contains(&m), "{names:?}");
    }
    for (mv, w, lead) in &moves4 {
        assert!(*w == 0.0 || *w == 1.0, "{mv} proven");
        assert_eq!(lead.fract().abs(), 0.5, "{mv}: a margin at komi 0.5");
        assert_eq!(
            *w == 1.0,
            *lead > 0.0,
            "{mv}: Black's win rate and lead agree"
        );
    }
    assert!(
        r4["moveInfos"]
            .as_array()
            .unwrap()
            .iter()
            .all(|m| m["proven"] == true)
    );
}

#[test]
fn terminate_stops_a_pondering_query_and_partial_results_are_marked() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tsumi"))
        .args(["analysis", "--tt-mib", "8", "--playouts", "100"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    // KaTrain's pondering: 10,000,000 visits, a report every 0.1 s; 5x5 is not proven.
    let mut q = katrain_query("QUERY:9", (5, 5), 7.5, &[], 10_000_000);
    q["reportDuringSearchEvery"] = json!(0.1);
    writeln!(stdin, "{q}").unwrap();
    let t = Instant::now();
    let mut partial = None;
    for l in lines.by_ref() {
        let v: Value = serde_json::from_str(&l.unwrap()).unwrap();
        if v["isDuringSearch"] == true {
            partial = Some(v);
            break;
        }
    }
    let partial = partial.expect("a partial result");
    assert_eq!(partial["moveInfos"].as_array().unwrap().len(), 26);
    writeln!(
        stdin,
        "{}",
        json!({"id": "T", "action": "terminate", "terminateId": "QUERY:9"})
    )
    .unwrap();
    let mut done = false;
    for l in lines.by_ref() {
        let v: Value = serde_json::from_str(&l.unwrap()).unwrap();
        if v["id"] == "QUERY:9" && v["isDuringSearch"] == false {
            done = true;
            break;
        }
    }
    assert!(done);
    assert!(t.elapsed() < Duration::from_secs(60), "{:?}", t.elapsed());
    drop(stdin);
    assert!(child.wait().unwrap().success());
}

#[test]
fn bad_queries_get_errors_and_never_crash_the_server() {
    // A seeded fuzz: valid queries with fields dropped or replaced by values of every JSON
    // type, truncated lines and random bytes.
    let base = katrain_query("Q", (3, 3), 7.5, &[("B", "B2")], 2_000);
    let fields: Vec<String> = base.as_object().unwrap().keys().cloned().collect();
    let junk = [
        json!(null),
        json!(-1),
        json!(1e300),
        json!("碁"),
        json!([]),
        json!({}),
        json!([["B", "Z9"]]),
        json!([["X", "A1"]]),
        json!(true),
        json!(20),
        json!(0.25),
        json!("japanese"),
    ];
    let mut state: u64 = 0x2545_F491_4F6C_DD1D;
    let mut next = |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n as u64) as usize
    };
    let mut lines = Vec::new();
    for i in 0..120 {
        let mut q = base.clone();
        q["id"] = json!(format!("F{i}"));
        let line = match next(4) {
            0 => {
                q.as_object_mut()
                    .unwrap()
                    .remove(&fields[next(fields.len())]);
                q.to_string()
            }
            1 | 2 => {
                q[&fields[next(fields.len())]] = junk[next(junk.len())].clone();
                q.to_string()
            }
            _ => {
                let s = q.to_string();
                let cut = next(s.len());
                s[..cut].chars().filter(|c| *c != '\n').collect()
            }
        };
        lines.push(line);
    }
    lines.push("\u{0}\u{1}{{{".to_string());
    lines.push(json!({"id": "A", "action": "query_version"}).to_string());
    let (out, status) = session(&lines);
    assert_eq!(status, 0, "the server ends cleanly at the end of its input");
    assert!(out.iter().any(|v| v["version"].is_string()));
    let errors = out.iter().filter(|v| v.get("error").is_some()).count();
    let results = out
        .iter()
        .filter(|v| v.get("moveInfos").is_some() || v.get("noResults").is_some())
        .count();
    assert!(
        errors > 30 && results > 10,
        "{errors} errors, {results} results"
    );
    // Every query line got an error or a result (a line cut before its id gets a bare
    // error).
    assert!(errors + results >= 120, "{errors} + {results}");
}
