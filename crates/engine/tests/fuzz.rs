//! Random input never panics or hangs the engines: seeded lines of random bytes, random
//! tokens and real commands with hostile arguments (huge numbers, unicode, NUL, signs) go
//! to the command handlers of the GTP and HTP engines, and every line that is not blank after
//! preprocessing is answered with one well-formed reply. Budgets are small, so each reply
//! comes quickly; the test's run time bounds them all. (`printsgf` is sent without a file
//! name only, so the test writes no files.)

use engine::protocol::{Flow, Handler, preprocess, respond};
use engine::{GoEngine, GoSettings, GtpEngine, HexEngine, HexSettings, HtpEngine};
use games::go::{Komi, Size};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// Every command either engine knows, from the engines' own lists, but `quit` (which ends
/// the session the test keeps feeding).
fn words() -> Vec<&'static str> {
    let mut w: Vec<&str> = engine::protocol::COMMON_COMMANDS.to_vec();
    w.extend(engine::gtp::GTP_COMMANDS);
    w.extend(engine::hex_engine::HTP_COMMANDS);
    w.retain(|&c| c != "quit");
    w.sort_unstable();
    w.dedup();
    w
}

const ARGS: &[&str] = &[
    "b",
    "w",
    "black",
    "WHITE",
    "pass",
    "resign",
    "A1",
    "B2",
    "C3",
    "a1",
    "b2",
    "c3",
    "T19",
    "I1",
    "Z0",
    "A0",
    "A-1",
    "1",
    "2",
    "3",
    "4",
    "0",
    "-1",
    "19",
    "20",
    "99999999999999999999999999",
    "18446744073709551616",
    "7.5",
    "-7.5",
    "0.25",
    "1e9",
    "NaN",
    "inf",
    "alive",
    "dead",
    "seki",
    "é",
    "碁",
    "\u{0}",
    "/nonexistent/file.sgf",
    "",
    "#",
    "\u{202e}",
    "\u{fffd}",
    "interval",
    "rootInfo",
    "ownership",
    "maxmoves",
    "minmoves",
    "true",
    "avoid",
    "tromp-taylor",
    "chinese-ogs",
    "{\"ko\":\"SIMPLE\"}",
    "{\"suicide\":false}",
    "{",
];

/// One random input line.
fn line(rng: &mut Xoshiro256PlusPlus, words: &[&str]) -> Vec<u8> {
    match rng.random_range(0..10) {
        // Raw random bytes (control characters, invalid UTF-8, NUL, CR included).
        0 | 1 => (0..rng.random_range(0..40))
            .map(|_| rng.random::<u8>())
            .collect(),
        _ => {
            let mut s = String::new();
            if rng.random_bool(0.3) {
                s.push_str(&rng.random_range(0..100_000u32).to_string());
                s.push(' ');
            }
            let word = words[rng.random_range(0..words.len())];
            s.push_str(word);
            let args = if word == "printsgf" {
                0
            } else {
                rng.random_range(0..4)
            };
            for _ in 0..args {
                s.push(if rng.random_bool(0.9) { ' ' } else { '\t' });
                s.push_str(ARGS[rng.random_range(0..ARGS.len())]);
            }
            s.into_bytes()
        }
    }
}

/// Feeds `n` random lines to `handler`, checking each reply's framing; returns how many
/// were answered.
fn fuzz<H: Handler>(handler: &mut H, seed: u64, n: usize) -> usize {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut answered = 0;
    let words = words();
    for _ in 0..n {
        let mut raw = line(&mut rng, &words);
        // A random byte line could spell "printsgf FILE"; it would write a file.
        if String::from_utf8_lossy(&raw).contains("printsgf") {
            raw = b"printsgf".to_vec();
        }
        let blank = preprocess(&raw).trim().is_empty();
        let start = std::time::Instant::now();
        let answer = respond(handler, &raw);
        // The budgets (0.5 s of solving, 8 playouts) bound every command; 10 s leaves room
        // for a slow machine, not for a hang.
        assert!(
            start.elapsed().as_secs_f64() < 10.0,
            "{raw:?} took {:?}",
            start.elapsed()
        );
        match answer {
            None => assert!(blank, "a command line was not answered: {raw:?}"),
            Some((reply, flow)) => {
                assert!(!blank, "a blank line was answered: {raw:?}");
                assert_eq!(flow, Flow::Continue, "only quit ends a session");
                assert!(
                    reply.starts_with('=') || reply.starts_with('?'),
                    "{reply:?}"
                );
                assert!(reply.ends_with("\n\n"), "{reply:?}");
                assert!(
                    !reply[..reply.len() - 2].contains("\n\n"),
                    "an empty line inside a reply: {reply:?} to {raw:?}"
                );
                answered += 1;
            }
        }
    }
    answered
}

#[test]
fn random_input_never_panics_or_hangs_the_gtp_engine() {
    let settings = GoSettings {
        komi: Komi::from_half_points(15),
        solve: true,
        solve_budget: 300,
        solve_seconds: 0.5,
        tt_mib: 1,
        playouts: 8,
        seed: 1,
        resign: false,
    };
    let mut g = GtpEngine::new(GoEngine::new(Size::new(3, 3).unwrap(), settings));
    g.quiet = true;
    let answered = fuzz(&mut g, 1, 3000);
    assert!(answered > 2000, "most lines are commands: {answered}");
}

#[test]
fn random_input_never_panics_or_hangs_the_htp_engine() {
    let settings = HexSettings {
        solve_budget: 300,
        solve_seconds: 0.5,
        tt_mib: 1,
        playouts: 8,
        seed: 1,
    };
    let mut h = HtpEngine::new(HexEngine::new(3, 3, settings).unwrap());
    h.quiet = true;
    let answered = fuzz(&mut h, 2, 3000);
    assert!(answered > 2000, "most lines are commands: {answered}");
}
