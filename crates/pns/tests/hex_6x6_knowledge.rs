//! The openings of 6x6 Hex (`data/hex-6x6-openings.tsv`) by focused df-pn with the resistance
//! ordering on the Hex knowledge ([`pns::KnowledgeHex`]). CI runs the 19 openings that take
//! about a second or less each; `#[ignore]`d `all_36_openings_of_6x6` runs all 36 (about
//! 3 minutes on the loaded 2-core machine):
//! `cargo test --release -p pns --test hex_6x6_knowledge -- --ignored --nocapture`.

mod common;

use common::read_tsv;
use games::hex::Hex;
use games::{Game, Player};
use pns::{Algorithm, Answer, Budget, KnowledgeHex, OnHex, Question, ResistanceOrder, Settings};

/// Openings solved in about a second or less each (both winners among them).
const QUICK: [&str; 19] = [
    "a1", "b1", "c1", "d1", "e1", "c2", "d2", "e2", "c3", "d3", "c4", "d4", "b5", "c5", "d5", "b6",
    "c6", "e6", "f6",
];

fn check(openings: &[(String, bool)]) {
    let hex = Hex::new(6, 6).unwrap();
    let known = KnowledgeHex::new(&hex).unwrap();
    let budget = Budget {
        max_mib: 256,
        ..Budget::default()
    };
    let mut total = 0;
    for (mv, black_wins) in openings {
        let mut s = hex.initial();
        let m = hex.parse_move(&s, mv).unwrap();
        hex.play(&mut s, m);
        let mut p = Settings::new(Algorithm::FocusedDfPn)
            .prover::<KnowledgeHex>(Box::new(OnHex(ResistanceOrder)));
        let proof = p.prove(&known, &s, Question::win(Player::Black), &budget);
        assert_ne!(proof.answer, Answer::Unknown, "6x6 {mv}");
        assert_eq!(
            proof.answer == Answer::Proven,
            *black_wins,
            "6x6 opening {mv}"
        );
        total += proof.expansions;
    }
    eprintln!("{} openings, {total} expansions", openings.len());
}

fn openings() -> Vec<(String, bool)> {
    read_tsv("hex-6x6-openings.tsv")
        .into_iter()
        .map(|r| (r[0].clone(), r[1] == "black"))
        .collect()
}

#[test]
fn quick_openings_of_6x6_match_the_data() {
    let all = openings();
    let quick: Vec<_> = all
        .into_iter()
        .filter(|(m, _)| QUICK.contains(&m.as_str()))
        .collect();
    assert_eq!(quick.len(), QUICK.len());
    check(&quick);
}

#[test]
#[ignore = "long: all 36 openings of 6x6 with the knowledge (about 3 minutes)"]
fn all_36_openings_of_6x6() {
    let all = openings();
    assert_eq!(all.len(), 36);
    check(&all);
}
