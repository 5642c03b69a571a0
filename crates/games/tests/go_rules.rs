//! One test per rule situation of the reference Go board, with boards drawn in ASCII
//! (top row first, X = Black, O = White, '.' = empty).

use games::Player;
use games::go::*;

fn rules(ko: KoRule) -> Rules {
    Rules {
        ko,
        komi: Komi::default(),
    }
}

/// A position from a drawing with `to_move` to play, under positional superko.
fn pos(drawing: &str, to_move: Player) -> Position {
    Position::from_board(
        Board::from_ascii(drawing).unwrap(),
        to_move,
        Rules::default(),
    )
    .unwrap()
}

fn play(p: &mut Position, moves: &[&str]) {
    for m in moves {
        p.play_text(m)
            .unwrap_or_else(|e| panic!("{m} should be legal: {e}"));
    }
}

#[test]
fn single_stone_capture() {
    let mut p = pos(
        ".X.
         XO.
         .X.",
        Player::Black,
    );
    play(&mut p, &["C2"]);
    assert_eq!(p.board().to_ascii(), ".X./X.X/.X.");
    assert_eq!(p.board().count(Player::White), 0);
}

#[test]
fn multi_stone_capture() {
    let mut p = pos(
        ".XX.
         XOO.
         .XX.
         ....",
        Player::Black,
    );
    play(&mut p, &["D3"]);
    assert_eq!(p.board().to_ascii(), ".XX./X..X/.XX./....");
    assert_eq!(
        p.score(),
        Score {
            black: 16,
            white: 0
        }
    );
    // A setup may not hold a chain without liberties.
    let dead = Board::from_ascii(".XX./XOOX/.XX./....").unwrap();
    assert!(matches!(
        Position::from_board(dead, Player::Black, Rules::default()),
        Err(MoveError::DeadSetup(_))
    ));
}

#[test]
fn capture_makes_apparently_suicidal_move_legal() {
    // Black A1 touches only White stones, but it takes the last liberty of White B1.
    let mut p = pos(
        "....
         OX..
         .OX.",
        Player::Black,
    );
    play(&mut p, &["A1"]);
    assert_eq!(p.board().to_ascii(), "..../OX../X.X.");
    // For White the same point is simply legal (it connects to A2 and B1).
    let w = pos("..../OX../.OX.", Player::White);
    assert!(w.is_legal(Move::Place(Point::new(0, 0))));
}

#[test]
fn suicide_is_illegal() {
    // Single-stone suicide: Black at A1 surrounded by White.
    let p = pos(
        "...
         O..
         .O.",
        Player::Black,
    );
    let err = p.clone().play_text("A1").unwrap_err();
    assert!(matches!(err, MoveError::Suicide(_)), "{err}");
    assert_eq!(err.to_string(), "illegal move A1: suicide");
    // Multi-stone suicide: Black fills the last liberty of its own two-stone chain.
    let p = pos(
        "O...
         XO..
         .O..",
        Player::Black,
    );
    assert!(matches!(
        p.clone().play_text("A1"),
        Err(MoveError::Suicide(_))
    ));
    // White, however, may play there (it is not suicide for White: A1 joins B1, liberty C1).
    let mut w = p.clone();
    w.set_to_move(Player::White);
    assert!(w.play_text("A1").is_ok());
}

#[test]
fn superko_needs_the_whole_history() {
    // 1x3: boards "...", "X..", "X.O", "XX.", "..O"; Black A1 would recreate "X.O", three
    // boards back. Simple ko (which looks only at "XX.") allows it.
    let line = ["A1", "C1", "B1", "C1"];
    let mut p = Position::new(Size::new(1, 3).unwrap(), Rules::default());
    play(&mut p, &line);
    assert_eq!(p.board().to_ascii(), "..O");
    let err = p.clone().play_text("A1").unwrap_err();
    assert!(matches!(err, MoveError::Repetition(..)), "{err}");
    assert_eq!(
        err.to_string(),
        "illegal move A1: it repeats an earlier board (psk)"
    );
    let mut s = Position::new(Size::new(1, 3).unwrap(), rules(KoRule::Simple));
    play(&mut s, &line);
    assert!(s.play_text("A1").is_ok());
}

#[test]
fn superko_repeats_an_sgf_setup_position() {
    // Setup "X.O" on 1x3; Black B1 captures, White C1 captures two, Black A1 would recreate
    // the setup board.
    let sgf = "(;GM[1]FF[4]SZ[3:1]AB[aa]AW[ca];B[ba];W[ca])";
    let p = position_from_sgf(sgf, KoRule::PositionalSuperko).unwrap();
    assert_eq!(p.board().to_ascii(), "..O");
    let err = p.clone().play_text("A1").unwrap_err();
    assert!(matches!(err, MoveError::Repetition(..)), "{err}");
}

#[test]
fn pass_does_not_clear_history_under_psk() {
    // 1x4: C1, A1, B1 (captures A1), pass, D1, A1 (captures three). Black C1 would recreate
    // "O.X.", the board from before White's pass: still banned under PSK; simple ko allows it.
    let line = ["C1", "A1", "B1", "pass", "D1", "A1"];
    let mut psk = Position::new(Size::new(1, 4).unwrap(), rules(KoRule::PositionalSuperko));
    let mut simple = Position::new(Size::new(1, 4).unwrap(), rules(KoRule::Simple));
    play(&mut psk, &line);
    play(&mut simple, &line);
    assert_eq!(psk.board().to_ascii(), "O...");
    assert!(matches!(
        psk.clone().play_text("C1"),
        Err(MoveError::Repetition(..))
    ));
    assert!(simple.play_text("C1").is_ok());
}

#[test]
fn two_passes_end_the_game() {
    let mut p = Position::new(Size::new(2, 2).unwrap(), Rules::default());
    play(&mut p, &["A1", "pass"]);
    assert!(!p.is_over());
    play(&mut p, &["pass"]);
    assert!(p.is_over());
    assert!(p.legal_moves().is_empty());
    assert!(matches!(
        p.clone().play_text("B2"),
        Err(MoveError::GameOver(_))
    ));
    assert!(matches!(
        p.clone().play_text("pass"),
        Err(MoveError::GameOver(_))
    ));
    // A stone move between passes resets the count.
    let mut q = Position::new(Size::new(2, 2).unwrap(), Rules::default());
    play(&mut q, &["pass", "A1", "pass"]);
    assert!(!q.is_over());
}

#[test]
fn area_scoring_with_seki_and_neutral_points() {
    // Seki: each chain has the two shared liberties B2 and B1 only; whoever fills one is
    // captured. Both are neutral; each side counts its stones; D2 is White's territory.
    let seki = Board::from_ascii(
        "X.O.
         X.OO",
    )
    .unwrap();
    assert_eq!(seki.area(), Score { black: 2, white: 4 });
    let p = Position::from_board(seki, Player::Black, Rules::default()).unwrap();
    let mut fill = p.clone();
    play(&mut fill, &["B1"]); // self-atari: White B2 now captures three stones
    play(&mut fill, &["B2"]);
    assert_eq!(fill.board().to_ascii(), ".OO./..OO");
    // Territory and neutral points on one board.
    let b = Board::from_ascii(
        ".X.O.
         XX.OO
         ..X.O",
    )
    .unwrap();
    // Black: 4 stones + A3 + A1,B1 = 7; White: 4 stones + E3 = 5; C3, C2 and D1 neutral.
    assert_eq!(b.area(), Score { black: 7, white: 5 });
    assert_eq!(
        Board::from_ascii("X.O").unwrap().area(),
        Score { black: 1, white: 1 }
    );
    assert_eq!(Board::from_ascii("...").unwrap().area(), Score::default());
}

#[test]
fn komi_is_added_to_white() {
    use games::{Game, Outcome};
    // 1x3 after Black B1 and two passes: Black owns all 3 points (margin +3).
    for (komi, expected) in [
        ("2.5", Outcome::Win(Player::Black)),
        ("3.5", Outcome::Win(Player::White)),
        ("3", Outcome::Draw),
    ] {
        let rules = Rules {
            ko: KoRule::PositionalSuperko,
            komi: komi.parse().unwrap(),
        };
        let game = GoGame::new(1, 3, rules).unwrap();
        let mut s = game.initial();
        for m in ["B1", "pass", "pass"] {
            let mv = game.parse_move(&s, m).unwrap();
            game.play(&mut s, mv);
        }
        assert_eq!(game.outcome(&s), Some(expected), "komi {komi}");
    }
}

#[test]
fn gtp_coordinates_skip_i_and_count_rows_from_the_bottom() {
    let size = Size::new(3, 10).unwrap();
    let d2 = size.parse_point("D2").unwrap();
    assert_eq!((d2.row, d2.col), (1, 3));
    assert_eq!(d2.to_string(), "D2");
    let k1 = size.parse_point("k1").unwrap();
    assert_eq!(k1.col, 9); // A..H, J, K: K is the 10th column
    assert!(size.parse_point("I1").is_err());
    assert!(size.parse_point("D4").is_err());
    assert!(size.parse_point("L1").is_err());
    assert_eq!(size.parse_move("PASS").unwrap(), Move::Pass);
    assert!(Size::parse("0x3").is_err());
    assert!(Size::parse("20x20").is_err());
    assert_eq!(Size::parse("3x10").unwrap(), size);
    assert_eq!(Size::parse("5").unwrap(), Size::new(5, 5).unwrap());
}

#[test]
fn situational_superko_compares_side_to_move() {
    // The 1x3 line recreates "X.O" with White to move; it occurred with Black to move, so
    // SSK allows it while PSK does not.
    let line = ["A1", "C1", "B1", "C1"];
    let mut p = Position::new(Size::new(1, 3).unwrap(), rules(KoRule::SituationalSuperko));
    play(&mut p, &line);
    assert!(p.clone().play_text("A1").is_ok());
    // An immediate ko recapture recreates a board with the same side to move: banned.
    let mut ko = Position::from_board(
        Board::from_ascii(".XO./XO.O/.XO.").unwrap(),
        Player::Black,
        rules(KoRule::SituationalSuperko),
    )
    .unwrap();
    play(&mut ko, &["C2"]);
    assert_eq!(ko.board().to_ascii(), ".XO./X.XO/.XO.");
    assert!(matches!(
        ko.clone().play_text("B2"),
        Err(MoveError::Repetition(..))
    ));
}

#[test]
fn sgf_errors_name_the_problem() {
    let e = position_from_sgf("(;GM[1]SZ[3]B[aa", KoRule::default()).unwrap_err();
    assert!(e.to_string().starts_with("malformed SGF"), "{e}");
    let e = position_from_sgf("(;GM[1]SZ[25])", KoRule::default()).unwrap_err();
    assert!(e.to_string().contains("unsupported board size"), "{e}");
    let e = position_from_sgf("(;GM[1]SZ[3];B[dd])", KoRule::default()).unwrap_err();
    assert!(e.to_string().contains("off the 3x3 board"), "{e}");
    let e = position_from_sgf("(;GM[1]SZ[3];B[aa];W[aa])", KoRule::default()).unwrap_err();
    assert!(e.to_string().contains("occupied"), "{e}");
    let e = position_from_sgf("(;GM[1]SZ[3];B[bb];W[bb])", KoRule::default()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "SGF move 2 (white B2): illegal move B2: the point is occupied"
    );
    let e = position_from_sgf("(;GM[1]SZ[3]AB[bb]AW[bb])", KoRule::default()).unwrap_err();
    assert!(e.to_string().contains("B2 in more than one"), "{e}");
    let e = position_from_sgf("(;GM[1]SZ[3]KM[6.3])", KoRule::default()).unwrap_err();
    assert!(e.to_string().contains("komi"), "{e}");
    let p =
        position_from_sgf("(;GM[1]SZ[4:3]KM[7.5]AB[aa]PL[W];W[dc])", KoRule::default()).unwrap();
    assert_eq!(p.size(), Size::new(3, 4).unwrap());
    assert_eq!(p.rules().komi.half_points(), 15);
    assert_eq!(p.board().to_ascii(), "X.../..../...O");
    assert_eq!(p.to_move(), Player::Black);
}
