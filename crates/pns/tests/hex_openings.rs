//! The 36 openings of 6x6 Hex from `data/hex-6x6-openings.tsv` by focused df-pn with the
//! resistance ordering, and the 25 openings of 5x5 against `data/hex-opening-maps.tsv`.
//!
//! Both are `#[ignore]`: run with
//! `cargo test --release -p pns --test hex_openings -- --ignored --nocapture`.
//! `TSUMI_HEX_SECONDS` (default 120) is the time limit per opening, `TSUMI_HEX_MIB` (default
//! 1024) the table size, `TSUMI_HEX_ALGO` the algorithm (default fdfpn), `TSUMI_HEX_THREATS=1`
//! adds the Hex threat knowledge ([`pns::HexThreats`]). An opening not solved within the limit
//! is reported and skipped; a solved one must match the data.

mod common;

use common::read_tsv;
use games::hex::Hex;
use games::{Game, Player};
use pns::{Algorithm, Answer, Budget, HexThreats, Question, ResistanceOrder, Settings};
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
        max_time: Some(Duration::from_secs_f64(env_or("TSUMI_HEX_SECONDS", 120.0))),
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
    let row = read_tsv("hex-opening-maps.tsv")
        .into_iter()
        .find(|r| r[0] == "5x5")
        .unwrap();
    let winners: Vec<&str> = row[2].split_whitespace().collect();
    let g = Hex::new(5, 5).unwrap();
    let mut moves = Vec::new();
    g.legal_moves(&g.initial(), &mut moves);
    let openings: Vec<(String, bool)> = moves
        .iter()
        .map(|m| (m.to_string(), winners.contains(&m.to_string().as_str())))
        .collect();
    let solved = run_openings(5, &openings);
    assert_eq!(solved, 25);
}
