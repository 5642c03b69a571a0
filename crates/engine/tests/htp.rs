//! HTP transcripts of the Hex engine: `dfpn-solve-state` against an exhaustive solve (the
//! knowledge's minimax, `HexKnowledge::solve_exhaustively`) on small positions, `dfpn-get-pv`
//! replayed on plain Hex, and the benzene commands around them.

use engine::{HexEngine, HexSettings, HtpEngine, serve};
use games::hex::Hex;
use games::{Game, Outcome, Player};
use pns::HexKnowledge;

fn htp(w: usize, h: usize) -> HtpEngine {
    let settings = HexSettings {
        solve_budget: 100_000,
        solve_seconds: 20.0,
        tt_mib: 4,
        playouts: 30,
        seed: 5,
    };
    let mut e = HtpEngine::new(HexEngine::new(w, h, settings).unwrap());
    e.quiet = true;
    e
}

fn session(e: &mut HtpEngine, input: &str) -> Vec<String> {
    let mut out = Vec::new();
    serve(e, std::io::Cursor::new(input.as_bytes().to_vec()), &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert!(text.is_empty() || text.ends_with("\n\n"));
    text.trim_end()
        .split("\n\n")
        .filter(|r| !r.is_empty())
        .map(str::to_string)
        .collect()
}

#[test]
fn the_first_player_wins_3x3_with_either_colour_to_move() {
    let mut e = htp(3, 3);
    let r = session(
        &mut e,
        "dfpn-solve-state\n1 dfpn-solve-state w\ndfpn-solve-state b\n",
    );
    assert_eq!(r, ["= black", "=1 white", "= black"]);
}

#[test]
fn finished_and_lost_positions_are_solved_for_the_right_colour() {
    // White's a1-b1 connects left and right on 2x2: White has won, whoever is to move.
    let mut e = htp(2, 2);
    let r = session(
        &mut e,
        "play w a1\nplay w b1\ndfpn-solve-state\ndfpn-solve-state b\ngenmove b\ndfpn-get-pv\n",
    );
    assert_eq!(r, ["=", "=", "= white", "= white", "= resign", "="]);
    // 3x3 with White in the centre and Black to move: the colour-swapped first-player win.
    let mut e = htp(3, 3);
    let r = session(&mut e, "play w b2\ndfpn-solve-state\ndfpn-solve-state b\n");
    assert_eq!(r, ["=", "= white", "= white"]);
}

#[test]
fn solve_state_agrees_with_the_exhaustive_solve_on_random_positions() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(11);
    for (w, h) in [(3, 3), (4, 3), (3, 4), (4, 4)] {
        let hex = Hex::new(w, h).unwrap();
        let k = HexKnowledge::new(&hex).unwrap();
        for _ in 0..12 {
            let mut e = htp(w, h);
            let mut state = hex.initial();
            let stones = rng.random_range(0..w * h / 2);
            let mut script = String::new();
            for _ in 0..stones {
                let mut moves = Vec::new();
                hex.legal_moves(&state, &mut moves);
                if moves.is_empty() {
                    break;
                }
                let m = moves[rng.random_range(0..moves.len())];
                let colour = if rng.random_bool(0.5) {
                    Player::Black
                } else {
                    Player::White
                };
                hex.set_to_move(&mut state, colour);
                hex.play(&mut state, m);
                script.push_str(&format!(
                    "play {} {m}\n",
                    if colour == Player::Black { "b" } else { "w" }
                ));
            }
            let mover = hex.to_move(&state);
            script.push_str("dfpn-solve-state\ndfpn-get-pv\n");
            let r = session(&mut e, &script);
            let truth = k.solve_exhaustively(&k.board(&hex, &state));
            let want = if truth == Player::Black {
                "= black"
            } else {
                "= white"
            };
            assert_eq!(r[r.len() - 2], want, "{w}x{h} {script}");
            // The PV replays legally on plain Hex, alternating from the side to move, and
            // ends won by the solved winner.
            let pv = r[r.len() - 1].trim_start_matches('=').trim();
            let mut s = state.clone();
            if hex.outcome(&s).is_none() {
                assert!(!pv.is_empty(), "{w}x{h}: a PV for an unfinished game");
            }
            assert_eq!(hex.to_move(&s), mover);
            for cell in pv.split_whitespace() {
                let m = hex.parse_move(&s, cell).unwrap();
                assert!(
                    hex.stone(&s, hex.cell_index(m)).is_none(),
                    "{cell} is empty"
                );
                assert!(hex.outcome(&s).is_none(), "no move after the end");
                hex.play(&mut s, m);
            }
            assert_eq!(
                hex.outcome(&s),
                Some(Outcome::Win(truth)),
                "{w}x{h} {script} pv {pv}"
            );
        }
    }
}

#[test]
fn genmove_plays_a_proven_winning_move_and_undo_takes_it_back() {
    let hex = Hex::new(3, 3).unwrap();
    let k = HexKnowledge::new(&hex).unwrap();
    let mut e = htp(3, 3);
    let r = session(&mut e, "genmove b\n");
    let cell = r[0].strip_prefix("= ").unwrap().to_string();
    let mut s = hex.initial();
    let m = hex.parse_move(&s, &cell).unwrap();
    hex.play(&mut s, m);
    assert_eq!(
        k.solve_exhaustively(&k.board(&hex, &s)),
        Player::Black,
        "{cell} wins"
    );
    let r = session(
        &mut e,
        &format!("play w {cell}\nundo\nundo\nundo\nshowboard\n"),
    );
    assert!(
        r[0].starts_with("? illegal move (") && r[0].contains("occupied"),
        "{}",
        r[0]
    );
    assert_eq!(&r[1..3], ["=", "? cannot undo"]);
    assert_eq!(r[3], "? cannot undo");
    assert!(r[4].contains("black to move"), "{}", r[4]);
    assert_eq!(*e.engine.state(), hex.initial(), "the board is empty again");
}

#[test]
fn boardsize_takes_width_and_height_and_refuses_what_hex_cannot_hold() {
    let mut e = htp(3, 3);
    let r = session(
        &mut e,
        "boardsize 4 2\nshowboard\nboardsize 20 20\nboardsize 0\nboardsize x\nplay b e1\nplay b d2\nplay q a1\n",
    );
    assert_eq!(r[0], "=");
    assert!(r[1].contains("a b c d") && r[1].contains(" 2 "), "{}", r[1]);
    assert_eq!(r[2], "? unacceptable size");
    assert_eq!(r[3], "? unacceptable size");
    assert!(r[4].starts_with("? syntax error"));
    assert!(
        r[5].starts_with("? illegal move (hex move 'e1' is off the 4x2 board"),
        "{}",
        r[5]
    );
    assert_eq!(r[6], "=");
    assert_eq!(r[7], "? syntax error (invalid colour)");
}

#[test]
fn an_unsolved_position_is_empty_and_has_no_pv() {
    // 6x6 with a budget of 2 expansions per proof: neither the knowledge nor the search
    // decides the empty board (with 50 it does: Black).
    let settings = HexSettings {
        solve_budget: 2,
        solve_seconds: 5.0,
        tt_mib: 1,
        playouts: 10,
        seed: 1,
    };
    let mut e = HtpEngine::new(HexEngine::new(6, 6, settings).unwrap());
    e.quiet = true;
    let r = session(&mut e, "dfpn-solve-state\ndfpn-get-pv\ngenmove b\n");
    assert_eq!(&r[..2], ["= empty", "="]);
    assert!(r[2].starts_with("= "), "MCPS plays a move: {}", r[2]);
}
