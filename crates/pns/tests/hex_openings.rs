//! The 36 openings of 6x6 Hex from `data/hex-6x6-openings.tsv` by focused df-pn with the
//! resistance ordering, and the 25 openings of 5x5 against `data/hex-opening-maps.tsv`, on
//! plain Hex; and the 49 openings of 7x7 on the Hex knowledge ([`KnowledgeHex`]) against the
//! published 7x7 map in `data/hex-opening-maps.tsv`.
//!
//! All are `#[ignore]`: run with
//! `cargo test --release -p pns --test hex_openings -- --ignored --nocapture`
//! (`hex_7x7_openings_with_knowledge` alone: add `hex_7x7`).
//! `TSUMI_HEX_SECONDS` (default 120) is the time limit per opening, `TSUMI_HEX_MIB` (default
//! 1024) the table size, `TSUMI_HEX_ALGO` the algorithm (default fdfpn), `TSUMI_HEX_THREATS=1`
//! adds the Hex threat knowledge ([`pns::HexThreats`]). An opening not solved within the limit
//! is reported and skipped; a solved one must match the data. The 7x7 test must solve every
//! opening it runs (`TSUMI_HEX_SECONDS` per opening, default 120; `TSUMI_HEX_OPENINGS`, e.g.
//! `"a1 g1"`, runs only those) and checks each against the map.

mod common;

use common::read_tsv;
use games::hex::Hex;
use games::{Game, Player};
use pns::{
    Algorithm, Answer, Budget, HexThreats, KnowledgeHex, OnHex, Question, ResistanceOrder, Settings,
};
use std::time::Duration;

fn env_or<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Solves every opening in `openings` (move, black wins?) and returns how many were solved.
fn run_openings(n: usize, openings: &[(String, bool)]) -> usize {
    let g = Hex::new(n, n).unwrap();
    let algo: Algorithm = std::env::var("TSUMI_HEX_ALGO")
        .ok()
        .and_then(|a| a.parse().ok())
        .unwrap_or(Algorithm::FocusedDfPn);
    let budget = Budget {
        limits: pns::Limits {
            max_time: Some(Duration::from_secs_f64(env_or("TSUMI_HEX_SECONDS", 120.0))),
            ..pns::Limits::default()
        },
        max_mib: env_or("TSUMI_HEX_MIB", 1024),
        ..Budget::default()
    };
    let mut solved = 0;
    let mut total_expansions = 0;
    for (mv, black_wins) in openings {
        let mut s = g.initial();
        let m = g.parse_move(&s, mv).unwrap();
        g.play(&mut s, m);
        let settings = Settings::new(algo);
        let mut p = if std::env::var("TSUMI_HEX_THREATS").is_ok_and(|v| v == "1") {
            settings.prover_with::<Hex>(Box::new(ResistanceOrder), Box::new(HexThreats))
        } else {
            settings.prover::<Hex>(Box::new(ResistanceOrder))
        };
        let proof = p.prove(&g, &s, Question::win(Player::Black), &budget);
        total_expansions += proof.expansions;
        eprintln!(
            "{n}x{n} {mv}: {:?} (expected {}), {} expansions, {:.1} s, {} peak nodes",
            proof.answer,
            if *black_wins { "black" } else { "white" },
            proof.expansions,
            proof.time.as_secs_f64(),
            proof.peak_nodes
        );
        if proof.answer != Answer::Unknown {
            assert_eq!(
                proof.answer == Answer::Proven,
                *black_wins,
                "{n}x{n} opening {mv}"
            );
            solved += 1;
        }
    }
    eprintln!(
        "{n}x{n} by {algo}: {solved} of {} openings solved, {total_expansions} expansions",
        openings.len()
    );
    solved
}

#[test]
#[ignore = "long: focused df-pn on the 36 openings of 6x6 Hex"]
fn hex_6x6_openings() {
    let openings: Vec<(String, bool)> = read_tsv("hex-6x6-openings.tsv")
        .into_iter()
        .map(|r| (r[0].clone(), r[1] == "black"))
        .collect();
    assert_eq!(openings.len(), 36);
    let solved = run_openings(6, &openings);
    assert!(solved > 0, "no 6x6 opening solved within the limit");
}

#[test]
#[ignore = "long: the 25 openings of 5x5 Hex"]
fn hex_5x5_openings() {
    let solved = run_openings(5, &opening_map(5));
    assert_eq!(solved, 25);
}

/// The openings of `n`x`n` from `data/hex-opening-maps.tsv`: (move, black wins?), a1 first,
/// row by row.
fn opening_map(n: usize) -> Vec<(String, bool)> {
    let size = format!("{n}x{n}");
    let row = read_tsv("hex-opening-maps.tsv")
        .into_iter()
        .find(|r| r[0] == size)
        .unwrap_or_else(|| panic!("{size} not in hex-opening-maps.tsv"));
    let winners: Vec<&str> = row[2].split_whitespace().collect();
    assert_eq!(
        winners.len(),
        row[1].parse::<usize>().unwrap(),
        "{size} row"
    );
    let g = Hex::new(n, n).unwrap();
    let mut moves = Vec::new();
    g.legal_moves(&g.initial(), &mut moves);
    moves
        .iter()
        .map(|m| (m.to_string(), winners.contains(&m.to_string().as_str())))
        .collect()
}

#[test]
#[ignore = "long: focused df-pn with the knowledge on the 49 openings of 7x7 Hex"]
fn hex_7x7_openings_with_knowledge() {
    let g = Hex::new(7, 7).unwrap();
    let only = std::env::var("TSUMI_HEX_OPENINGS").unwrap_or_default();
    let only: Vec<&str> = only.split_whitespace().collect();
    let openings: Vec<(String, bool)> = opening_map(7)
        .into_iter()
        .filter(|(m, _)| only.is_empty() || only.contains(&m.as_str()))
        .collect();
    let budget = Budget {
        limits: pns::Limits {
            max_time: Some(Duration::from_secs_f64(env_or("TSUMI_HEX_SECONDS", 120.0))),
            ..pns::Limits::default()
        },
        max_mib: env_or("TSUMI_HEX_MIB", 512),
        ..Budget::default()
    };
    let (mut expansions, mut seconds, mut unsolved) = (0, 0.0, Vec::new());
    for (mv, black_wins) in &openings {
        let known = KnowledgeHex::new(&g).unwrap();
        let mut s = g.initial();
        let m = g.parse_move(&s, mv).unwrap();
        g.play(&mut s, m);
        let mut p = Settings::new(Algorithm::FocusedDfPn)
            .prover::<KnowledgeHex>(Box::new(OnHex(ResistanceOrder)));
        let proof = p.prove(&known, &s, Question::win(Player::Black), &budget);
        eprintln!(
            "7x7 {mv}: {:?} (expected {}), {} expansions, {:.1} s",
            proof.answer,
            if *black_wins { "black" } else { "white" },
            proof.expansions,
            proof.time.as_secs_f64()
        );
        expansions += proof.expansions;
        seconds += proof.time.as_secs_f64();
        if proof.answer == Answer::Unknown {
            unsolved.push(mv.clone());
        } else {
            assert_eq!(
                proof.answer == Answer::Proven,
                *black_wins,
                "7x7 opening {mv}"
            );
        }
    }
    eprintln!(
        "7x7 with the knowledge: {} of {} solved, {expansions} expansions, {seconds:.1} s",
        openings.len() - unsolved.len(),
        openings.len()
    );
    assert!(unsolved.is_empty(), "7x7 openings not solved: {unsolved:?}");
}
