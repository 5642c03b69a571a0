//! The openings of 6x6 Hex (`data/hex-6x6-openings.tsv`) by focused df-pn with the resistance
//! ordering on the Hex knowledge ([`pns::KnowledgeHex`]): all 36 in CI (about 21,600
//! expansions, 20-30 s in the test profile on the loaded 2-core machine; before the cheaper
//! H-search of issue 14 only 19 quick ones ran here and all 36 took about 3 minutes).

mod common;

use common::read_tsv;
use games::hex::Hex;
use games::{Game, Player};
use pns::{Algorithm, Answer, Budget, KnowledgeHex, OnHex, Question, ResistanceOrder, Settings};

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
fn all_36_openings_of_6x6_match_the_data() {
    let all = openings();
    assert_eq!(all.len(), 36);
    check(&all);
}
