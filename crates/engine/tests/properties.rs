//! The stable counterpart of the `gtp` and `htp` fuzz targets (fuzz/, nightly): property
//! tests over the command loop itself (`engine::serve`), fed whole sessions of command words,
//! hostile arguments and raw bytes with LF, CR LF, CR-only or missing line ends. Every line
//! that is not blank after preprocessing gets exactly one reply in GTP's framing, the loop
//! ends at `quit` or the end of the input, and nothing panics.

use engine::protocol::{preprocess, serve};
use engine::{GoEngine, GoSettings, GtpEngine, HexEngine, HexSettings, HtpEngine};
use games::go::{Komi, Size};
use proptest::prelude::*;

const ARGS: &[&str] = &[
    "b",
    "w",
    "pass",
    "A1",
    "b2",
    "C3",
    "T19",
    "I1",
    "0",
    "1",
    "3",
    "-1",
    "19",
    "7.5",
    "-0.5",
    "99999999999999999999",
    "NaN",
    "\u{0}",
    "碁",
    "",
    "#",
    "a1",
    "c3",
    "resign",
];

fn command(words: Vec<&'static str>) -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        3 => (
            prop::option::of(0..1000u32),
            prop::sample::select(words),
            prop::collection::vec(prop::sample::select(ARGS), 0..3)
        )
            .prop_map(|(id, w, args)| {
                let mut s = id.map(|i| format!("{i} ")).unwrap_or_default();
                s.push_str(w);
                for a in args {
                    s.push(' ');
                    s.push_str(a);
                }
                s.into_bytes()
            }),
        1 => prop::collection::vec(any::<u8>(), 0..24),
    ]
}

fn session(words: Vec<&'static str>) -> impl Strategy<Value = Vec<u8>> {
    (
        prop::collection::vec(command(words), 0..8),
        prop::sample::select(vec!["\n", "\r\n", "\r"]),
        any::<bool>(),
    )
        .prop_map(|(lines, end, last)| {
            let mut out = Vec::new();
            for (i, l) in lines.iter().enumerate() {
                // No command may write a file.
                let l: &[u8] = if String::from_utf8_lossy(l).contains("printsgf") {
                    b"printsgf"
                } else {
                    l
                };
                out.extend_from_slice(l);
                if i + 1 < lines.len() || last {
                    out.extend_from_slice(end.as_bytes());
                }
            }
            out
        })
}

/// The replies `serve` wrote for `input`: each in GTP's framing, one per command line up to
/// `quit`.
fn framed(input: &[u8], output: &[u8]) -> Result<(), TestCaseError> {
    let text = String::from_utf8(output.to_vec()).expect("replies are UTF-8");
    let mut expected = 0;
    for raw in input.split(|&b| b == b'\n') {
        let p = preprocess(raw);
        if p.trim().is_empty() {
            continue;
        }
        expected += 1;
        if p.split_whitespace().any(|w| w == "quit")
            && p.split_whitespace()
                .find(|w| !w.bytes().all(|b| b.is_ascii_digit()))
                == Some("quit")
        {
            break;
        }
    }
    prop_assert!(text.is_empty() || text.ends_with("\n\n"), "{text:?}");
    let replies: Vec<&str> = text.split_terminator("\n\n").collect();
    prop_assert_eq!(
        replies.len(),
        expected,
        "{:?} -> {:?}",
        String::from_utf8_lossy(input),
        text
    );
    for r in replies {
        prop_assert!(r.starts_with('=') || r.starts_with('?'), "{r:?}");
    }
    Ok(())
}

fn gtp_words() -> Vec<&'static str> {
    let mut w: Vec<&str> = engine::protocol::COMMON_COMMANDS.to_vec();
    w.extend(engine::gtp::GTP_COMMANDS);
    w
}

fn htp_words() -> Vec<&'static str> {
    let mut w: Vec<&str> = engine::protocol::COMMON_COMMANDS.to_vec();
    w.extend(engine::hex_engine::HTP_COMMANDS);
    w
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn gtp_sessions_are_answered_in_framing(input in session(gtp_words())) {
        let settings = GoSettings {
            komi: Komi::from_half_points(15),
            solve: true,
            solve_budget: 100,
            solve_seconds: 0.02,
            tt_mib: 1,
            playouts: 4,
            seed: 1,
            resign: false,
        };
        let mut g = GtpEngine::new(GoEngine::new(Size::new(3, 3).unwrap(), settings));
        g.quiet = true;
        let mut out = Vec::new();
        serve(&mut g, std::io::Cursor::new(input.clone()), &mut out).unwrap();
        framed(&input, &out)?;
    }

    #[test]
    fn htp_sessions_are_answered_in_framing(input in session(htp_words())) {
        let settings = HexSettings {
            solve_budget: 100,
            solve_seconds: 0.02,
            tt_mib: 1,
            playouts: 4,
            seed: 1,
        };
        let mut h = HtpEngine::new(HexEngine::new(3, 3, settings).unwrap());
        h.quiet = true;
        let mut out = Vec::new();
        serve(&mut h, std::io::Cursor::new(input.clone()), &mut out).unwrap();
        framed(&input, &out)?;
    }
}
