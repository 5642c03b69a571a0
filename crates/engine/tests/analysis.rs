//! The live analysis ([`engine::analysis`]) and its GTP commands (`kata-analyze`,
//! `lz-analyze`, Sabaki's `analyze`, `genmove_analyze`, the rules commands): every move of a
//! 3x3 position proven with its exact margin, checked against the brute-force oracle (which
//! shares no code with the solver); proven moves appear one by one; a 4x4 position's proven
//! moves; a running analysis stopped by the next command and by a bare newline; the
//! framing of streamed replies under `serve`.

use engine::analysis::{Analysis, Limits};
use engine::{GoEngine, GoSettings, GtpEngine, serve};
use games::Player;
use games::go::{Komi, Position, Size};
use gosolve::oracle::Oracle;
use std::io::{BufRead, Read};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::sync::mpsc::{Receiver, Sender, channel};
use std::time::{Duration, Instant};

fn settings(budget: u64) -> GoSettings {
    GoSettings {
        komi: Komi::from_half_points(15),
        solve: true,
        solve_budget: budget,
        solve_seconds: 20.0,
        tt_mib: 8,
        playouts: 200,
        seed: 3,
        resign: false,
    }
}

fn limits() -> Limits {
    Limits {
        playouts: 200,
        first_budget: 2_000,
        max_budget: 0,
        max_work: 0,
        seed: 3,
    }
}

/// Plays `moves` (GTP vertices, alternating from Black) on an engine of `size`.
fn engine_after(size: &str, komi2: i32, moves: &[&str]) -> GoEngine {
    let mut e = GoEngine::new(Size::parse(size).unwrap(), settings(0));
    e.set_komi(Komi::from_half_points(komi2));
    let mut colour = Player::Black;
    for m in moves {
        let mv = e.position().size().parse_move(m).unwrap();
        e.play(colour, mv).unwrap();
        colour = colour.opponent();
    }
    e
}

/// Checks every move of a finished analysis against the oracle's value of the position
/// after it: win rate 1 or 0 at the komi, score lead the exact margin for the mover.
fn check_against_oracle(start: &Position, a: &Analysis) {
    let mut oracle = Oracle::new();
    let komi = start.rules().komi;
    let mover = start.to_move();
    assert!(a.finished, "the analysis ends on its own");
    assert_eq!(a.moves.len(), start.legal_moves().len(), "every legal move");
    for m in &a.moves {
        let mut child = start.clone();
        child.play(m.mv).unwrap();
        let v = oracle.value(&child).unwrap();
        assert_eq!(m.value(), Some(v), "{}: the oracle's value", m.mv);
        let margin = f64::from(v) - f64::from(komi.half_points()) / 2.0;
        let lead = if mover == Player::Black {
            margin
        } else {
            -margin
        };
        assert_eq!(m.score_lead(mover, komi), lead, "{}: exact margin", m.mv);
        let win = if lead > 0.0 { 1.0 } else { 0.0 };
        assert_eq!(m.win_rate(mover, komi), win, "{}", m.mv);
        assert_eq!(m.score_stdev(), 0.0);
        assert!(m.visits() >= m.expansions && m.expansions > 0);
        // The PV starts with the move and replays to a finished game scored v.
        assert_eq!(m.pv.first(), Some(&m.mv));
        let mut p = start.clone();
        for &x in &m.pv {
            p.play(x).unwrap();
        }
        assert!(p.is_over(), "{}: the PV ends the game", m.mv);
        assert_eq!(p.score().margin(), v, "{}: the PV scores v", m.mv);
    }
    let root = oracle.value(start).unwrap();
    assert_eq!(a.root_value(), Some(root));
    // Best first: the first move keeps the root's value.
    assert_eq!(a.best().unwrap().value(), Some(root));
}

/// Runs an analysis to its end, counting the proven moves at each report.
fn analyse(e: &mut GoEngine) -> (Analysis, Vec<usize>) {
    let stop = Arc::new(AtomicBool::new(false));
    let mut proven_counts = Vec::new();
    let a = e.analyze(&limits(), None, &stop, |a| {
        proven_counts.push(a.moves.iter().filter(|m| m.value().is_some()).count());
    });
    // One question a report: the proven moves appear one at a time.
    assert!(
        proven_counts
            .windows(2)
            .all(|w| w[1] >= w[0] && w[1] - w[0] <= 1),
        "{proven_counts:?}"
    );
    assert_eq!(proven_counts.first(), Some(&0));
    assert_eq!(*proven_counts.last().unwrap(), a.moves.len());
    (a, proven_counts)
}

#[test]
fn every_3x3_opening_is_proven_with_its_published_value_one_by_one() {
    // data/go-psk-values.tsv (van der Werf & Winands 2009): the centre +9, a side +3, a
    // corner -9; after a pass White takes the centre: -9.
    let mut e = engine_after("3x3", 15, &[]);
    let (a, counts) = analyse(&mut e);
    assert!(a.finished);
    assert_eq!(a.moves.len(), 10);
    assert!(
        counts.len() >= 11,
        "a report after each question: {counts:?}"
    );
    for m in &a.moves {
        let want = match m.mv.to_string().as_str() {
            "B2" => 9,
            "B1" | "A2" | "C2" | "B3" => 3,
            _ => -9,
        };
        assert_eq!(m.value(), Some(want), "{}", m.mv);
        let lead = f64::from(want) - 7.5;
        assert_eq!(m.score_lead(Player::Black, a.komi), lead);
        assert_eq!(
            m.win_rate(Player::Black, a.komi),
            if lead > 0.0 { 1.0 } else { 0.0 }
        );
    }
    assert_eq!(a.best().unwrap().mv.to_string(), "B2");
    assert_eq!(a.root_value(), Some(9));
}

#[test]
fn every_move_of_small_positions_matches_the_oracle() {
    // The oracle is brute force: boards of six points, with histories (superko) and komis
    // on both sides of the values.
    for (size, moves, komi2) in [
        ("2x3", &["B1"][..], -3),
        ("2x3", &["B1", "A2", "C1"][..], 5),
        ("2x2", &[][..], 1),
        ("2x2", &["A1", "B2"][..], -1),
    ] {
        let mut e = engine_after(size, komi2, moves);
        let start = e.position().clone();
        let (a, _) = analyse(&mut e);
        check_against_oracle(&start, &a);
    }
}

/// Checks each move of a finished analysis against a fresh engine's solve of the position
/// after it (its own table, its own bisection from the root).
fn check_against_fresh_solves(start: &Position, a: &Analysis) {
    let komi = start.rules().komi;
    for m in &a.moves {
        let mut child = start.clone();
        child.play(m.mv).unwrap();
        let mut fresh = GoEngine::new(start.size(), settings(0));
        fresh.load_position(child);
        match fresh.solve() {
            engine::Solution::Proven { value, .. } => {
                assert_eq!(m.value(), Some(value), "{}", m.mv);
            }
            other => panic!("{}: {other:?}", m.mv),
        }
        let w = m.win_rate(start.to_move(), komi);
        assert!(
            w == 0.0 || w == 1.0,
            "{}: proven at a half-integer komi",
            m.mv
        );
    }
}

#[test]
fn every_move_of_late_3x3_and_4x4_positions_matches_a_fresh_solve() {
    // 4x4, White to move at komi 0.5 (and a 3x3 middle game):
    // X X O .
    // . X O .
    // X X O O
    // . X O .
    for (size, moves, komi2) in [
        (
            "4x4",
            &[
                "B1", "C1", "B2", "C2", "B3", "C3", "B4", "C4", "A4", "D2", "A2",
            ][..],
            1,
        ),
        ("3x3", &["B2", "A2", "B1"][..], -3),
    ] {
        let mut e = engine_after(size, komi2, moves);
        let start = e.position().clone();
        let (a, _) = analyse(&mut e);
        assert!(a.finished);
        assert_eq!(a.moves.len(), start.legal_moves().len());
        check_against_fresh_solves(&start, &a);
    }
}

#[test]
fn unproven_moves_show_bounds_and_playouts_within_a_budget() {
    // 4x4 from the empty board with a tiny total work: the playouts' statistics, honest
    // bounds, nothing claimed as proven that is not.
    let mut e = engine_after("4x4", 15, &[]);
    let stop = Arc::new(AtomicBool::new(false));
    let lim = Limits {
        max_work: 3_000,
        first_budget: 500,
        ..limits()
    };
    let a = e.analyze(&lim, None, &stop, |_| {});
    assert!(a.finished);
    assert_eq!(a.moves.len(), 17);
    assert!(a.visits() <= 3_000 + 17 * 600, "{}", a.visits());
    for m in &a.moves {
        assert!(-16 <= m.lower && m.lower <= m.upper && m.upper <= 16);
        let w = m.win_rate(Player::Black, a.komi);
        assert!((0.0..=1.0).contains(&w));
        if m.value().is_none() {
            assert_eq!(m.pv, vec![m.mv]);
            assert!(m.score_stdev() > 0.0);
        }
    }
    assert_eq!(a.playouts, 200);
}

/// Input that the test writes line by line while the engine runs.
struct Pipe {
    rx: Receiver<Vec<u8>>,
    buf: Vec<u8>,
    pos: usize,
}

impl Read for Pipe {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        let got = self.fill_buf()?;
        let n = got.len().min(out.len());
        out[..n].copy_from_slice(&got[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl BufRead for Pipe {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        if self.pos >= self.buf.len() {
            // The end of the input when the test drops its sender.
            self.buf = self.rx.recv().unwrap_or_default();
            self.pos = 0;
        }
        Ok(&self.buf[self.pos..])
    }
    fn consume(&mut self, n: usize) {
        self.pos += n;
    }
}

/// Output shared with the test while the session runs.
#[derive(Clone, Default)]
struct Shared(Arc<std::sync::Mutex<Vec<u8>>>);

impl std::io::Write for Shared {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Shared {
    fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().unwrap()).into_owned()
    }
    /// Waits until the output holds `needle` (at most 60 s).
    fn wait_for(&self, needle: &str) -> Duration {
        let t = Instant::now();
        while !self.text().contains(needle) {
            assert!(
                t.elapsed() < Duration::from_secs(60),
                "no {needle:?} in {}",
                self.text()
            );
            std::thread::sleep(Duration::from_millis(5));
        }
        t.elapsed()
    }
}

/// A session on its own thread: the input sender and the output.
fn live(size: &str, budget: u64) -> (Sender<Vec<u8>>, Shared, std::thread::JoinHandle<()>) {
    let (tx, rx) = channel();
    let out = Shared::default();
    let o = out.clone();
    let size = size.to_string();
    let h = std::thread::spawn(move || {
        let mut g = GtpEngine::new(GoEngine::new(Size::parse(&size).unwrap(), settings(budget)));
        g.quiet = true;
        let input = Pipe {
            rx,
            buf: Vec::new(),
            pos: 0,
        };
        serve(&mut g, input, o).unwrap();
    });
    (tx, out, h)
}

#[test]
fn a_running_analysis_is_stopped_by_the_next_command_and_by_a_bare_newline() {
    // 5x5 is beyond any budget here (no limit: the rounds would go on for ever).
    let (tx, out, h) = live("5", 0);
    tx.send(b"7 kata-analyze B 5\n".to_vec()).unwrap();
    out.wait_for("=7\ninfo move ");
    tx.send(b"8 name\n".to_vec()).unwrap();
    let waited = out.wait_for("\n\n=8 tsumi\n\n");
    assert!(waited < Duration::from_secs(10), "stopped after {waited:?}");
    // A bare newline ends the reply too, with no reply of its own.
    tx.send(b"lz-analyze 5\n".to_vec()).unwrap();
    out.wait_for("\n\n=8 tsumi\n\n=\ninfo move ");
    tx.send(b"\n".to_vec()).unwrap();
    tx.send(b"9 stop\n".to_vec()).unwrap();
    out.wait_for("\n\n=9\n\n");
    drop(tx);
    h.join().unwrap();
    let text = out.text();
    // Two streamed replies, each `=` then info lines then one empty line.
    let replies: Vec<&str> = text.split_terminator("\n\n").collect();
    assert_eq!(replies.len(), 4, "{text}");
    for r in [replies[0], replies[2]] {
        let mut lines = r.lines();
        assert!(lines.next().unwrap().starts_with('='));
        for l in lines {
            assert!(l.starts_with("info move "), "{l}");
            assert!(l.contains(" visits ") && l.contains(" winrate ") && l.contains(" pv "));
        }
    }
    assert!(replies[0].contains(" scoreLead "), "kata fields");
    assert!(!replies[2].contains(" scoreLead "), "lz fields");
}

/// The records of one `info` line: move → (visits, winrate, scoreLead, pv).
fn records(line: &str) -> Vec<(String, u64, String, Option<String>, String)> {
    line.split("info ")
        .filter(|r| !r.trim().is_empty())
        .map(|r| {
            let (kv, pv) = r.split_once(" pv ").unwrap();
            let w: Vec<&str> = kv.split_whitespace().collect();
            let get = |k: &str| w.chunks(2).find(|c| c[0] == k).map(|c| c[1].to_string());
            (
                get("move").unwrap(),
                get("visits").unwrap().parse().unwrap(),
                get("winrate").unwrap(),
                get("scoreLead"),
                pv.trim().to_string(),
            )
        })
        .collect()
}

#[test]
fn sabaki_analyze_reports_proven_3x3_moves_with_exact_margins_and_decimal_points() {
    let (tx, out, h) = live("3", 1_000_000);
    // Analyse until every move is proven, then the next command.
    tx.send(b"komi 7.5\nanalyze B 2 rootInfo true ownership true\n".to_vec())
        .unwrap();
    // Until a line shows every move proven (score stdev 0): the analysis then ends.
    let t = Instant::now();
    while !out
        .text()
        .lines()
        .any(|l| l.matches(" scoreStdev 0.000000 ").count() == 10 && l.contains(" ownership "))
    {
        assert!(t.elapsed() < Duration::from_secs(60), "{}", out.text());
        std::thread::sleep(Duration::from_millis(5));
    }
    tx.send(b"kata-get-rules\nkata-set-rules chinese\nkata-set-rules {\"ko\":\"POSITIONAL\",\"scoring\":\"AREA\",\"suicide\":false}\nquit\n".to_vec())
        .unwrap();
    h.join().unwrap();
    let text = out.text();
    let replies: Vec<&str> = text.split_terminator("\n\n").collect();
    let analysis = replies[1];
    let last = analysis.lines().last().unwrap();
    // 3x3 at komi 7.5: B2 keeps the whole board (+9: Black leads by 1.5); the oracle's
    // values of the other moves are checked in the engine test above.
    let recs = records(last.split(" rootInfo ").next().unwrap());
    assert_eq!(recs.len(), 10, "nine points and the pass: {last}");
    let best = &recs[0];
    assert_eq!(best.0, "B2");
    assert_eq!(best.2, "1.000000", "a proven win, with a decimal point");
    assert_eq!(best.3.as_deref(), Some("1.500000"));
    assert!(best.4.starts_with("B2 "), "{}", best.4);
    for r in &recs {
        assert!(r.2 == "1.000000" || r.2 == "0.000000", "proven: {r:?}");
        assert!(r.1 > 0);
    }
    assert!(last.contains(" rootInfo visits "));
    assert!(last.contains(" currentPlayer B"));
    let own: Vec<&str> = last
        .split(" ownership ")
        .nth(1)
        .unwrap()
        .split(' ')
        .collect();
    assert_eq!(own, vec!["1.000000"; 9], "Black owns the board after B2");
    assert_eq!(
        replies[2],
        "= {\"ko\":\"POSITIONAL\",\"scoring\":\"AREA\",\"tax\":\"NONE\",\"suicide\":false,\"hasButton\":false,\"whiteHandicapBonus\":\"0\",\"friendlyPassOk\":false}"
    );
    assert!(
        replies[3].starts_with("? tsumi implements only"),
        "{}",
        replies[3]
    );
    assert!(replies[3].contains("ko \"SIMPLE\""), "{}", replies[3]);
    assert_eq!(replies[4], "=");
}

#[test]
fn genmove_analyze_streams_then_plays_the_proven_move() {
    let (tx, out, h) = live("3", 1_000_000);
    tx.send(b"komi 7.5\n5 lz-genmove_analyze b 1\nshowboard\nquit\n".to_vec())
        .unwrap();
    h.join().unwrap();
    let text = out.text();
    let replies: Vec<&str> = text.split_terminator("\n\n").collect();
    let g = replies[1];
    assert!(g.starts_with("=5\n"), "{g}");
    assert!(g.ends_with("\nplay B2"), "{g}");
    // Integer win rates (ten-thousandths) in the lz dialect; B2 proven: 10000.
    let last_info = g.lines().rev().nth(1).unwrap();
    let recs = records(last_info);
    assert_eq!(recs[0].0, "B2");
    assert_eq!(recs[0].2, "10000");
    assert!(replies[2].contains("X"), "B2 was played: {}", replies[2]);
}

#[test]
fn random_analysis_sessions_under_serve_answer_every_line_once() {
    // Seeded random sessions through the real session loop (input read on its own
    // thread): analysis commands with random options, interleaved with moves, sizes and
    // junk; every non-blank line gets exactly one reply, each ending with one empty line.
    use rand::{Rng, SeedableRng};
    let words = [
        "kata-analyze",
        "lz-analyze",
        "analyze",
        "kata-genmove_analyze",
        "lz-genmove_analyze",
        "genmove_analyze",
        "kata-set-rules",
        "kata-get-rules",
        "stop",
        "play",
        "boardsize",
        "undo",
        "name",
    ];
    let args = [
        "b",
        "W",
        "1",
        "0",
        "50",
        "interval",
        "maxmoves",
        "2",
        "rootInfo",
        "true",
        "ownership",
        "false",
        "avoid",
        "A1",
        "B2",
        "pass",
        "3",
        "2",
        "-1",
        "tromp-taylor",
        "{\"ko\":\"POSITIONAL\"}",
        "é",
    ];
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(35);
    let mut input = String::new();
    let mut commands = 0;
    for _ in 0..150 {
        if rng.random_bool(0.05) {
            input.push('\n');
            continue;
        }
        input.push_str(words[rng.random_range(0..words.len())]);
        for _ in 0..rng.random_range(0..4) {
            input.push(' ');
            input.push_str(args[rng.random_range(0..args.len())]);
        }
        input.push('\n');
        commands += 1;
    }
    let mut s = GoSettings {
        solve_seconds: 0.2,
        ..settings(2_000)
    };
    s.tt_mib = 1;
    s.playouts = 16;
    let mut g = GtpEngine::new(GoEngine::new(Size::new(3, 3).unwrap(), s));
    g.quiet = true;
    let mut out = Vec::new();
    serve(&mut g, std::io::Cursor::new(input.into_bytes()), &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert!(!text.contains("\n\n\n"), "{text}");
    let replies: Vec<&str> = text.split_terminator("\n\n").collect();
    assert_eq!(replies.len(), commands, "{text}");
    for r in replies {
        assert!(r.starts_with('=') || r.starts_with('?'), "{r:?}");
    }
}
