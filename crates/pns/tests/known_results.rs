//! Known results from `data/` (never retyped here): tic-tac-toe, Hex 1x1 to 5x5, the Hex
//! opening maps, Connect Four and NoGo small boards.

mod common;

use common::{every_setting, label, read_tsv, small_game_value};
use games::connect4::Connect4;
use games::hex::Hex;
use games::nogo::NoGo;
use games::tictactoe::TicTacToe;
use games::{Game, Player};
use pns::minimax::minimax;
use pns::{
    Algorithm, Answer, Budget, HexThreats, MoveOrder, NaturalOrder, Question, ResistanceOrder,
    Settings, Value, solve,
};

/// "first"/"second"/"draw" as the value for the first player, who moves at the start.
fn expected(value: &str) -> Value {
    match value {
        "first" => Value::Win,
        "second" => Value::Loss,
        "draw" => Value::Draw,
        other => panic!("unknown value {other}"),
    }
}

/// Solves the start position with `settings` and checks the value and that the best move
/// keeps it (by minimax when `check_move` is set).
fn check_start<G: Game>(
    game: &G,
    draws: bool,
    settings: &Settings,
    order: Box<dyn MoveOrder<G>>,
    want: Value,
    check_move: bool,
) {
    let mut p = settings.prover(order);
    let start = game.initial();
    let sol = solve(p.as_mut(), game, &start, &Budget::default(), draws);
    assert_eq!(sol.value, Some(want), "{} {}", game.name(), label(settings));
    if check_move {
        let mut child = start.clone();
        game.play(&mut child, sol.best_move.expect("a best move"));
        assert_eq!(
            minimax(game, &child).negate(),
            want,
            "{} {}: best move loses value",
            game.name(),
            label(settings)
        );
    }
}

#[test]
fn tictactoe_is_a_draw_for_every_algorithm() {
    let want = expected(&small_game_value("tictactoe", "3x3"));
    assert_eq!(want, Value::Draw);
    for s in every_setting() {
        check_start(&TicTacToe, true, &s, Box::new(NaturalOrder), want, true);
    }
}

/// The winning first moves of `size` in `data/hex-opening-maps.tsv`.
fn winning_openings(size: &str) -> Vec<String> {
    read_tsv("hex-opening-maps.tsv")
        .into_iter()
        .find(|r| r[0] == size)
        .unwrap_or_else(|| panic!("{size} not in hex-opening-maps.tsv"))[2]
        .split_whitespace()
        .map(str::to_string)
        .collect()
}

#[test]
fn hex_1x1_to_4x4_is_a_first_player_win_for_every_algorithm() {
    for n in 1..=4 {
        let g = Hex::new(n, n).unwrap();
        let winners = if n == 1 {
            vec!["a1".to_string()]
        } else {
            winning_openings(&format!("{n}x{n}"))
        };
        for s in every_setting() {
            let mut p = s.prover::<Hex>(Box::new(ResistanceOrder));
            let proof = p.prove(
                &g,
                &g.initial(),
                Question::win(Player::Black),
                &Budget::default(),
            );
            assert_eq!(proof.answer, Answer::Proven, "hex {n}x{n} {}", label(&s));
            let mv = proof.best_move.unwrap().to_string();
            assert!(
                winners.contains(&mv),
                "hex {n}x{n} {}: best move {mv} is not a winning opening",
                label(&s)
            );
        }
    }
}

#[test]
fn hex_5x5_is_a_first_player_win_by_focused_dfpn() {
    let g = Hex::new(5, 5).unwrap();
    let mut p = Settings::new(Algorithm::FocusedDfPn).prover::<Hex>(Box::new(ResistanceOrder));
    let proof = p.prove(
        &g,
        &g.initial(),
        Question::win(Player::Black),
        &Budget::default(),
    );
    assert_eq!(proof.answer, Answer::Proven);
    assert!(winning_openings("5x5").contains(&proof.best_move.unwrap().to_string()));
}

#[test]
fn hex_5x5_is_a_first_player_win_by_focused_dfpn_with_hex_threats() {
    let g = Hex::new(5, 5).unwrap();
    let mut p = Settings::new(Algorithm::FocusedDfPn)
        .prover_with::<Hex>(Box::new(ResistanceOrder), Box::new(HexThreats));
    let proof = p.prove(
        &g,
        &g.initial(),
        Question::win(Player::Black),
        &Budget::default(),
    );
    assert_eq!(proof.answer, Answer::Proven);
    assert!(winning_openings("5x5").contains(&proof.best_move.unwrap().to_string()));
}

/// Hex 5x5 with every algorithm, helped by the Hex threat knowledge (bridge chains; without
/// it only focused df-pn and df-pn prove 5x5 within millions of expansions): under a second of
/// CPU each, a few seconds in all. It also checks that `wpns` keeps the given prior (it once
/// replaced it by plain mobility and ran out of memory here).
#[test]
fn hex_5x5_is_a_first_player_win_for_every_algorithm() {
    let g = Hex::new(5, 5).unwrap();
    for a in Algorithm::ALL {
        let mut p =
            Settings::new(a).prover_with::<Hex>(Box::new(ResistanceOrder), Box::new(HexThreats));
        let budget = Budget {
            max_mib: 512,
            ..Budget::default()
        };
        let proof = p.prove(&g, &g.initial(), Question::win(Player::Black), &budget);
        eprintln!(
            "hex 5x5 {a}: {:?} in {} expansions, {:.1} s",
            proof.answer,
            proof.expansions,
            proof.time.as_secs_f64()
        );
        assert_eq!(proof.answer, Answer::Proven, "{a}");
        let mv = proof.best_move.unwrap().to_string();
        assert!(winning_openings("5x5").contains(&mv), "{a}: {mv}");
    }
}

/// Every first move of 2x2, 3x3 and 4x4 Hex against the opening maps, with df-pn and
/// focused df-pn.
#[test]
fn hex_opening_maps_2x2_to_4x4() {
    for n in 2..=4 {
        let size = format!("{n}x{n}");
        let winners = winning_openings(&size);
        let g = Hex::new(n, n).unwrap();
        let mut moves = Vec::new();
        g.legal_moves(&g.initial(), &mut moves);
        for m in moves {
            let mut s = g.initial();
            g.play(&mut s, m);
            for a in [Algorithm::DfPn, Algorithm::FocusedDfPn] {
                let mut p = Settings::new(a).prover::<Hex>(Box::new(ResistanceOrder));
                let proof = p.prove(&g, &s, Question::win(Player::Black), &Budget::default());
                let black_wins = proof.answer == Answer::Proven;
                assert_eq!(
                    black_wins,
                    winners.contains(&m.to_string()),
                    "{size} opening {m} by {a}"
                );
            }
        }
    }
}

#[test]
fn connect4_4x4_and_5x4_match_the_table_for_every_algorithm() {
    for size in ["4x4", "5x4"] {
        let want = expected(&small_game_value("connect4", size));
        let g = Connect4::from_size(size).unwrap();
        for s in every_setting() {
            check_start(&g, true, &s, Box::new(NaturalOrder), want, size == "4x4");
        }
    }
}

#[test]
fn connect4_6x4_is_not_a_first_player_win() {
    let want = expected(&small_game_value("connect4", "6x4"));
    let g = Connect4::from_size("6x4").unwrap();
    check_start(
        &g,
        true,
        &Settings::new(Algorithm::DfPn),
        Box::new(NaturalOrder),
        want,
        false,
    );
}

#[test]
#[ignore = "larger Connect Four boards: minutes to hours"]
fn connect4_larger_boards_match_the_table() {
    for size in ["7x4", "4x5", "5x5"] {
        let want = expected(&small_game_value("connect4", size));
        let g = Connect4::from_size(size).unwrap();
        check_start(
            &g,
            true,
            &Settings::new(Algorithm::DfPn),
            Box::new(NaturalOrder),
            want,
            false,
        );
    }
}

#[test]
fn nogo_3x3_matches_the_table_for_every_algorithm() {
    let want = expected(&small_game_value("nogo", "3x3"));
    let g = NoGo::from_size("3x3").unwrap();
    for s in every_setting() {
        check_start(&g, false, &s, Box::new(NaturalOrder), want, true);
    }
}

#[test]
fn nogo_4x4_matches_the_table() {
    let want = expected(&small_game_value("nogo", "4x4"));
    let g = NoGo::from_size("4x4").unwrap();
    for a in [Algorithm::DfPn, Algorithm::FocusedDfPn] {
        check_start(
            &g,
            false,
            &Settings::new(a),
            Box::new(NaturalOrder),
            want,
            false,
        );
    }
}
