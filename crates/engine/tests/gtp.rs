//! GTP version 2 transcripts of the Go engine: exact framing (ids, `=`/`?`, one empty line
//! after each reply, comments, blank lines, CR and tabs, end of input without `quit`), the
//! errors of the specification, positional superko, undo, scoring, SGF in and out, handicap,
//! GoGui's analyze commands, and `genmove` playing proven optimal moves (checked against the
//! brute-force oracle, which shares no code with the solver).

use engine::{GoEngine, GoSettings, GtpEngine, Source, serve};
use games::Player;
use games::go::{KoRule, Komi, Move, Position, Rules, Size};
use gosolve::oracle::Oracle;

fn settings() -> GoSettings {
    GoSettings {
        komi: Komi::from_half_points(15),
        solve: true,
        solve_budget: 100_000,
        solve_seconds: 20.0,
        tt_mib: 4,
        playouts: 50,
        seed: 7,
        resign: false,
    }
}

fn engine(size: &str) -> GtpEngine {
    let mut g = GtpEngine::new(GoEngine::new(Size::parse(size).unwrap(), settings()));
    g.quiet = true;
    g
}

/// The whole output of a session reading `input`.
fn session(g: &mut GtpEngine, input: &str) -> String {
    let mut out = Vec::new();
    serve(g, std::io::Cursor::new(input.as_bytes().to_vec()), &mut out).unwrap();
    String::from_utf8(out).unwrap()
}

fn run(input: &str) -> String {
    session(&mut engine("5"), input)
}

#[test]
fn ids_are_echoed_and_every_reply_ends_with_one_empty_line() {
    let out =
        run("1 protocol_version\nname\n22 version\n3 known_command play\nknown_command fly\n");
    assert_eq!(
        out,
        format!(
            "=1 2\n\n= tsumi\n\n=22 {}\n\n=3 true\n\n= false\n\n",
            env!("CARGO_PKG_VERSION")
        )
    );
}

#[test]
fn comments_blank_lines_cr_and_tabs_are_preprocessed_away() {
    let out =
        run("# a comment line\n\n   \n\t\n4 name # trailing comment\r\n5\tboardsize\t3\r\n\r\n");
    assert_eq!(out, "=4 tsumi\n\n=5\n\n");
}

#[test]
fn end_of_input_without_quit_ends_cleanly_and_quit_ends_at_once() {
    assert_eq!(
        run("name"),
        "= tsumi\n\n",
        "a last line without a newline is read"
    );
    assert_eq!(run(""), "");
    assert_eq!(
        run("7 quit\nname\n"),
        "=7\n\n",
        "nothing is read after quit"
    );
}

#[test]
fn unknown_commands_and_bad_arguments_are_errors_with_the_id() {
    let out = run(
        "8 fly\nplay\nplay b\nplay x C3\nkomi abc\nkomi 6.3\nkomi 1000.5\ngenmove\ngenmove purple\n9\n",
    );
    assert_eq!(
        out,
        "?8 unknown command\n\n\
         ? syntax error (expected play COLOUR VERTEX)\n\n\
         ? syntax error (expected play COLOUR VERTEX)\n\n\
         ? syntax error (invalid colour)\n\n\
         ? syntax error (invalid komi 'abc' (expected a multiple of 0.5 from -1000 to 1000, e.g. 7.5 or -2))\n\n\
         ? komi 6.3 not supported (tsumi takes multiples of 0.5, e.g. 7.5 or -2)\n\n\
         ? komi 1000.5 out of range (tsumi takes komi from -1000 to 1000)\n\n\
         ? syntax error (expected genmove COLOUR)\n\n\
         ? syntax error (invalid colour)\n\n\
         ?9 syntax error (an id without a command)\n\n"
    );
}

#[test]
fn boardsize_accepts_1_to_19_and_rectangles_and_refuses_the_rest() {
    let out = run(
        "boardsize 20\nboardsize 0\nboardsize 99999999999999999999999\nboardsize x\n\
         boardsize 3 2\nshowboard\nrectangular_boardsize 4 1\nshowboard\nboardsize 19\n\
         rectangular_boardsize 5\nrectangular_boardsize 20 1\n",
    );
    let replies: Vec<&str> = out.split("\n\n").collect();
    assert_eq!(replies[0], "? unacceptable size");
    assert_eq!(replies[1], "? unacceptable size");
    assert_eq!(replies[2], "? unacceptable size");
    assert_eq!(replies[3], "? syntax error (expected a board size)");
    assert_eq!(replies[4], "=");
    // `boardsize C R`: 3 columns, 2 rows.
    assert!(
        replies[5].starts_with("=\n 2  . . .\n 1  . . .\n    A B C\n"),
        "{}",
        replies[5]
    );
    assert!(
        replies[7].starts_with("=\n 1  . . . .\n    A B C D\n"),
        "{}",
        replies[7]
    );
    assert_eq!(replies[8], "=");
    assert_eq!(
        replies[9],
        "? syntax error (expected rectangular_boardsize C R)"
    );
    assert_eq!(replies[10], "? unacceptable size");
}

#[test]
fn a_positional_superko_repetition_is_an_illegal_move() {
    // On 1x4 (one row, columns A to D): Black B1, White D1, Black A1, White C1 captures
    // A1-B1, and Black B1 would capture C1-D1 and leave ".X..", the board after the first
    // move: an older board than simple ko forbids, refused by positional superko.
    let moves = ["B1", "D1", "A1", "C1"];
    let mut simple = Position::new(
        Size::new(1, 4).unwrap(),
        Rules {
            ko: KoRule::Simple,
            komi: Komi::default(),
        },
    );
    for m in moves {
        simple.play_text(m).unwrap();
    }
    assert!(
        simple.play_text("B1").is_ok(),
        "legal under simple ko: the repetition is a superko"
    );
    let out = run(
        "boardsize 4 1\nplay b B1\nplay w D1\nplay b A1\nplay w C1\n1 play b B1\nshowboard\n\
         2 play b A1\n",
    );
    let replies: Vec<&str> = out.split("\n\n").collect();
    assert_eq!(&replies[..5], ["=", "=", "=", "=", "="]);
    assert_eq!(replies[5], "?1 illegal move");
    assert!(
        replies[6].starts_with("=\n 1  . . O O\n"),
        "unchanged: {}",
        replies[6]
    );
    assert_eq!(replies[7], "=2", "another move is still legal");
}

#[test]
fn occupied_suicide_and_off_board_moves_are_illegal() {
    let out = run(
        "boardsize 2\nplay b A1\nplay w A1\nplay w B2\nplay b A2\nplay w B1\nplay b Z9\nplay b I1\n",
    );
    let replies: Vec<&str> = out.split("\n\n").collect();
    assert_eq!(replies[2], "? illegal move", "occupied");
    assert_eq!(replies[3], "=");
    assert_eq!(replies[4], "=");
    // White B1 fills the last liberty of Black A1-A2 and captures it: legal.
    assert_eq!(replies[5], "=", "capturing A1-A2 is legal");
    assert_eq!(replies[6], "? illegal move", "off the board");
    assert_eq!(replies[7], "? illegal move", "there is no column I");
    // White A1 between Black A2 and B1 has no liberty and captures nothing: suicide.
    let out = run("boardsize 2\nplay b A2\nplay b B1\nplay w A1\n");
    assert!(out.ends_with("=\n\n? illegal move\n\n"), "suicide: {out}");
}

#[test]
fn undo_goes_back_move_by_move_and_not_past_the_start() {
    let out = run("undo\nplay b C3\nplay w D4\nundo\nundo\nundo\nplay b C3\nshowboard\n");
    let replies: Vec<&str> = out.split("\n\n").collect();
    assert_eq!(replies[0], "? cannot undo");
    assert_eq!(&replies[1..5], ["=", "=", "=", "="]);
    assert_eq!(replies[5], "? cannot undo");
    assert_eq!(replies[6], "=", "C3 is empty again");
    assert!(replies[7].contains("1 move played"), "{}", replies[7]);
}

#[test]
fn final_score_is_the_area_score_with_komi() {
    // 3x3: Black B2 alone owns the board (9 points).
    let out = run(
        "boardsize 3\nkomi 0.5\nplay b B2\nfinal_score\nkomi 9\nfinal_score\nkomi 12\nfinal_score\nplay w A1\nfinal_score\n",
    );
    let replies: Vec<&str> = out.split("\n\n").collect();
    assert_eq!(replies[3], "= B+8.5", "Black's 9 points against 0");
    assert_eq!(replies[5], "= 0", "jigo at komi 9");
    assert_eq!(replies[7], "= W+3");
    // White A1: Black B2 (1) and White A1 (1) count, the empty points touch both colours:
    // 1 - 1 - 12 = -12.
    assert_eq!(replies[9], "= W+12");
}

#[test]
fn final_status_list_counts_every_stone_alive() {
    let out = run(
        "boardsize 3\nplay b A1\nplay b B1\nplay w C3\nfinal_status_list alive\nfinal_status_list dead\nfinal_status_list seki\nfinal_status_list\n",
    );
    let replies: Vec<&str> = out.split("\n\n").collect();
    assert_eq!(replies[4], "= A1 B1\nC3", "one chain a line");
    assert_eq!(replies[5], "=");
    assert_eq!(replies[6], "=");
    assert_eq!(replies[7], "? syntax error (expected alive, dead or seki)");
}

#[test]
fn printsgf_and_loadsgf_round_trip_through_a_file() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let file = dir.join("game.sgf");
    let f = file.display();
    let mut a = engine("4");
    let out = session(
        &mut a,
        &format!(
            "komi 2.5\nplay b B2\nplay w C3\nplay b pass\nplay w B3\nprintsgf {f}\nprintsgf\nshowboard\n"
        ),
    );
    let replies: Vec<&str> = out.split("\n\n").collect();
    assert_eq!(replies[5], "=");
    let text = replies[6].strip_prefix("= ").unwrap();
    assert!(text.contains("SZ[4]") && text.contains("KM[2.5]"), "{text}");
    assert_eq!(std::fs::read_to_string(&file).unwrap().trim_end(), text);
    let board_a = replies[7];
    // A fresh engine of another size and komi loads the file: same board, komi and history.
    let mut b = engine("9");
    let out = session(&mut b, &format!("loadsgf {f}\nshowboard\nprintsgf\n"));
    let replies: Vec<&str> = out.split("\n\n").collect();
    assert_eq!(replies[0], "=");
    assert_eq!(replies[1], board_a);
    assert_eq!(b.engine.position(), a.engine.position());
    // Before move 3: Black B2 and White C3 only, Black to move.
    let out = session(
        &mut b,
        &format!("loadsgf {f} 3\nshowboard\nundo\nshowboard\nundo\nundo\nloadsgf {f} 3\n"),
    );
    let replies: Vec<&str> = out.split("\n\n").collect();
    assert_eq!(replies[0], "=");
    assert!(
        replies[1].contains("black to move") && replies[1].contains("2 moves played"),
        "{}",
        replies[1]
    );
    // Undo takes back the file's moves too (as GNU Go does), down to the empty board.
    assert_eq!(replies[2], "=", "undo takes back C3");
    assert!(
        replies[3].contains("white to move") && replies[3].contains("1 move played"),
        "{}",
        replies[3]
    );
    assert_eq!(&replies[4..7], ["=", "? cannot undo", "="]);
    // Errors are one line each and leave the engine as it was.
    std::fs::write(dir.join("bad.sgf"), "(;GM[1]SZ[3];B[zz])").unwrap();
    let out = session(
        &mut b,
        &format!(
            "loadsgf {}\nloadsgf {}\nloadsgf {f} x\nloadsgf\nshowboard\n",
            dir.join("missing.sgf").display(),
            dir.join("bad.sgf").display()
        ),
    );
    let replies: Vec<&str> = out.split("\n\n").collect();
    assert!(
        replies[0].starts_with("? cannot load file ("),
        "{}",
        replies[0]
    );
    assert!(
        replies[1].starts_with("? cannot load file (SGF point"),
        "{}",
        replies[1]
    );
    assert!(replies[2].starts_with("? syntax error"));
    assert!(replies[3].starts_with("? syntax error"));
    assert!(
        replies[4].contains("2 moves played"),
        "unchanged: {}",
        replies[4]
    );
}

#[test]
fn free_handicap_stones_go_on_the_empty_board_only() {
    let out = run(
        "set_free_handicap C3\nset_free_handicap C3 C3\nset_free_handicap C3 Z9\n\
         set_free_handicap C3 D4\nshowboard\nset_free_handicap B2 B3\ngenmove w\n",
    );
    let replies: Vec<&str> = out.split("\n\n").collect();
    assert_eq!(replies[0], "? bad vertex list (at least two stones)");
    assert_eq!(replies[1], "? bad vertex list (C3 is given twice)");
    assert!(replies[2].starts_with("? bad vertex list ("));
    assert_eq!(replies[3], "=");
    assert!(replies[4].contains("white to move"), "{}", replies[4]);
    assert_eq!(replies[5], "? board not empty");
    assert!(
        replies[6].starts_with("= "),
        "White can move: {}",
        replies[6]
    );
}

#[test]
fn gogui_analyze_commands_solve_the_position_as_text_gfx_and_pspairs() {
    let out = run(
        "boardsize 2\nkomi 0.5\ngogui-analyze_commands\ntsumi-solve\ntsumi-solve-gfx\n\
         tsumi-solve-pspairs\ntsumi-last-move\ngenmove b\ntsumi-last-move\n",
    );
    let replies: Vec<&str> = out.split("\n\n").collect();
    assert!(replies[2].contains("string/Solve this position/tsumi-solve\n"));
    assert!(replies[2].contains("gfx/") && replies[2].contains("pspairs/"));
    // 2x2 is worth +1 for Black (Sanko paper, Table 2).
    assert!(
        replies[3].starts_with(
            "= value +1 (Black's area minus White's): Black wins by 0.5 at komi 0.5; best move "
        ),
        "{}",
        replies[3]
    );
    let gfx = replies[4].strip_prefix("= ").unwrap();
    let mut lines = gfx.lines();
    let var = lines.next().unwrap();
    assert!(var.starts_with("VAR b "), "{gfx}");
    assert!(lines.next().unwrap().starts_with("TEXT value +1"));
    let pspairs = replies[5].strip_prefix("= ").unwrap();
    assert!(pspairs.split(' ').nth(1) == Some("1"), "{pspairs}");
    assert_eq!(
        replies[6],
        "= no genmove since the last change of the board"
    );
    assert!(replies[8].contains("proven, value +1"), "{}", replies[8]);
}

/// Plays a game with `genmove` for both sides and checks every move against the oracle:
/// the value of the position after the move equals the value before (an optimal move), and
/// the engine says it was proven with that value.
fn self_play_is_optimal(size: &str, komi2: i32) {
    let mut g = engine(size);
    g.engine.set_komi(Komi::from_half_points(komi2));
    let mut oracle = Oracle::new();
    let mut colour = Player::Black;
    let mut moves = 0;
    while !g.engine.position().is_over() {
        let before = oracle.value(g.engine.position()).unwrap();
        let d = g.engine.genmove(colour);
        let after = oracle.value(g.engine.position()).unwrap();
        match &d.source {
            Source::Proven { value, pv, .. } => {
                assert_eq!(*value, before, "{size}: the proven value is the oracle's");
                assert_eq!(Some(&d.mv.unwrap()), pv.first());
            }
            other => panic!("{size}: move {moves} not proven: {other:?}"),
        }
        assert_eq!(
            after, before,
            "{size}: move {moves} {:?} keeps the value",
            d.mv
        );
        colour = colour.opponent();
        moves += 1;
        assert!(moves < 100, "{size}: the game ends");
    }
    assert_eq!(
        g.engine.position().score().margin(),
        oracle
            .value(&{ Position::new(Size::parse(size).unwrap(), Rules::default()) })
            .unwrap(),
        "{size}: optimal play from the start ends at the start's value"
    );
}

#[test]
fn genmove_plays_proven_optimal_moves_on_tiny_boards() {
    for (size, komi2) in [("2x2", 1), ("1x3", 1), ("1x3", 5), ("2x3", -3), ("1x5", 3)] {
        self_play_is_optimal(size, komi2);
    }
}

#[test]
fn genmove_wins_on_2x2_whatever_the_reply_and_answers_in_gtp_coordinates() {
    // Black to move on 2x2 at komi 0.5 wins (value +1); after each proven Black move, White's
    // reply is a random legal move; Black still wins. Replies are GTP vertices (A..T without
    // I, row 1 at the bottom) or "pass", which is what GNU Go reads.
    use rand::{Rng, SeedableRng};
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(3);
    for game in 0..5 {
        let mut g = engine("2");
        let out = session(&mut g, "komi 0.5\n");
        assert_eq!(out, "=\n\n");
        for _ in 0..40 {
            if g.engine.position().is_over() {
                break;
            }
            let out = session(&mut g, "genmove b\n");
            let mv = out.strip_prefix("= ").unwrap().trim_end();
            assert!(
                mv == "pass" || ["A1", "A2", "B1", "B2"].contains(&mv),
                "game {game}: {mv}"
            );
            if g.engine.position().is_over() {
                break;
            }
            let legal = g.engine.position().legal_moves();
            let reply = legal[rng.random_range(0..legal.len())];
            assert_eq!(session(&mut g, &format!("play w {reply}\n")), "=\n\n");
        }
        assert!(g.engine.position().is_over(), "game {game} ended");
        assert_eq!(
            session(&mut g, "final_score\n").chars().nth(2),
            Some('B'),
            "game {game}"
        );
    }
}

#[test]
fn genmove_after_the_end_of_the_game_is_a_pass_and_plays_nothing() {
    let mut g = engine("3");
    let out = session(&mut g, "play b pass\nplay w pass\ngenmove b\nplay b C3\n");
    assert_eq!(out, "=\n\n=\n\n= pass\n\n? illegal move\n\n");
}

#[test]
fn large_boards_are_played_by_mcps_and_say_so() {
    let mut g = engine("7");
    let d = g.engine.genmove(Player::Black);
    match d.source {
        Source::Mcps {
            playouts, solver, ..
        } => {
            assert_eq!(playouts, 50);
            assert!(solver.contains("49 points"), "{solver}");
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(d.mv, Some(Move::Place(_))));
    // Seeded: the same engine settings give the same move.
    let mut h = engine("7");
    assert_eq!(h.engine.genmove(Player::Black).mv, d.mv);
}

#[test]
fn resign_only_when_asked_and_the_loss_is_proven() {
    // 2x2 at komi 3.5: Black's best is +1, a proven loss.
    let mut s = settings();
    s.komi = Komi::from_half_points(7);
    s.resign = true;
    let mut g = GtpEngine::new(GoEngine::new(Size::parse("2").unwrap(), s.clone()));
    g.quiet = true;
    assert_eq!(
        session(&mut g, "genmove b\nundo\n"),
        "= resign\n\n? cannot undo\n\n"
    );
    s.resign = false;
    let mut g = GtpEngine::new(GoEngine::new(Size::parse("2").unwrap(), s));
    g.quiet = true;
    assert!(!session(&mut g, "genmove b\n").contains("resign"));
}

#[test]
fn a_proven_win_at_the_komi_is_played_when_the_value_is_out_of_budget() {
    // 3x4 (value +4) at komi 0.5 with 4,000 expansions a question: one of the value's
    // questions does not finish (with the session's learned prior the whole value takes
    // 13,857 expansions, every question under 8,000, so 8,000 would solve it), so the value is
    // out of budget; the question at the game's komi then does, in 790.
    let mut s = settings();
    s.komi = Komi::from_half_points(1);
    s.solve_budget = 4000;
    s.solve_seconds = 0.0;
    let mut g = GoEngine::new(Size::new(3, 4).unwrap(), s);
    let d = g.genmove(Player::Black);
    assert!(
        matches!(d.source, Source::ProvenAtKomi { wins: true, .. }),
        "{:?}",
        d.source
    );
    // An unbudgeted solve of the position after the move: Black still wins at komi 0.5.
    let pos = g.position();
    let mut solver =
        gosolve::Solver::for_size(pos.size(), 16, gosolve::Config::reference()).unwrap();
    let after = gosolve::solve_value(&mut solver, pos, |_| {});
    assert!(
        after.value.unwrap() >= 1,
        "{:?} keeps the win: {after:?}",
        d.mv
    );
}

/// The Monte Carlo player under positional superko: its tree keys nodes by position hash and
/// history signature, so a board reached along two histories is two nodes. Before that, this
/// game (found against GNU Go) made `genmove` replay a tree move that the current history
/// forbids, and the engine panicked.
#[test]
fn mcps_genmove_after_a_superko_history_plays_a_legal_move() {
    let mut s = settings();
    s.solve = false;
    s.playouts = 2000;
    s.seed = 1;
    let mut g = GtpEngine::new(GoEngine::new(Size::parse("5").unwrap(), s));
    g.quiet = true;
    let moves = "B3 C3 C2 D5 C4 D4 D3 pass D2 pass B4 pass B2 pass C5 pass";
    let mut input = String::from("boardsize 5\nkomi 7.5\nclear_board\n");
    for (i, m) in moves.split(' ').enumerate() {
        let colour = if i % 2 == 0 { "b" } else { "w" };
        input.push_str(&format!("play {colour} {m}\n"));
    }
    input.push_str("genmove b\ngenmove w\ngenmove b\ngenmove w\n");
    let out = session(&mut g, &input);
    let replies: Vec<&str> = out.split("\n\n").filter(|r| !r.is_empty()).collect();
    assert_eq!(replies.len(), 3 + 16 + 4, "{out}");
    assert!(replies.iter().all(|r| r.starts_with('=')), "{out}");
}

/// GoGui's `%p` command: the straight three in the corner, Black to kill.
#[test]
fn tsumego_analyze_command_draws_the_key_move_and_line() {
    let out = run(
        "boardsize 5\nplay b A3\nplay b B3\nplay b C3\nplay b D3\nplay b E3\nplay b E2\n\
         play b E1\nplay w A2\nplay w B2\nplay w C2\nplay w D2\nplay w D1\n\
         gogui-analyze_commands\ntsumi-tsumego D2\ntsumi-tsumego A1\n",
    );
    let replies: Vec<&str> = out.split("\n\n").collect();
    assert!(replies[13].contains("gfx/Life and death of this block/tsumi-tsumego %p"));
    let gfx = replies[14].strip_prefix("= ").unwrap();
    assert!(gfx.starts_with("SQUARE D2\nVAR b B1 "), "{gfx}");
    assert!(gfx.contains("TEXT D2: kill, key move B1"), "{gfx}");
    assert_eq!(replies[15], "? no stone at A1: click a stone of the group");
}
