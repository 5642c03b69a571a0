//! The stable counterpart of the `certificate` fuzz target (fuzz/, nightly): property tests
//! over the same entry points. Any bytes and any mutation of a valid certificate are read
//! within small bounds and refused or accepted, never a panic or a hang; a mutated
//! certificate that is accepted with another claim than the original's claims something
//! true (the solver is asked).

use check::format::{Start, Step};
use check::{CheckError, Limits};
use games::Player;
use games::go::{Position, Rules, Size};
use gosolve::{Answer, Solver};
use proptest::prelude::*;

const C3X3: &str = include_str!("../../../data/cert/3x3-black-8.5.cert");

fn limits() -> Limits {
    Limits {
        max_line_bytes: 4096,
        max_nodes: 20_000,
        max_stored_boards: 200_000,
        threads: 1,
    }
}

/// Checks `bytes` within the bounds; for an accepted certificate whose claim differs from
/// `original` (winner, komi, root), asks the solver whether the claim holds.
fn checked(bytes: &[u8], original: &check::Verdict) -> Result<(), TestCaseError> {
    let start = std::time::Instant::now();
    let r = check::check_reader(bytes, limits());
    // The streaming checker accepts exactly what the in-memory one accepts (or what that
    // one refuses only for its bound on kept sets, which the stream frees as it goes).
    let streamed = check::check_stream_bytes(bytes, limits());
    match (&r, &streamed) {
        (Ok(v), Ok(s)) => prop_assert_eq!(v, &s.verdict),
        (Err(CheckError::Limit(_)), Ok(_)) | (Err(_), Err(_)) => {}
        _ => prop_assert!(false, "the checkers disagree: {:?} / {:?}", r, streamed),
    }
    prop_assert!(
        start.elapsed().as_secs_f64() < 10.0,
        "a check took {:?}",
        start.elapsed()
    );
    let Ok(v) = r else {
        if let Err(CheckError::Invalid(f)) = &r {
            prop_assert!(f.line >= 1, "{f}");
        }
        return Ok(());
    };
    if (v.winner, v.komi2, &v.position) == (original.winner, original.komi2, &original.position) {
        return Ok(());
    }
    let cert = check::parse_reader(bytes, limits()).unwrap();
    let size = Size::new(cert.geo.rows() as u32, cert.geo.cols() as u32).unwrap();
    let Start::Moves(steps) = &cert.start else {
        return Ok(()); // a setup root: not asked here
    };
    let mut pos = Position::new(size, Rules::default());
    for s in steps {
        let name = match s {
            Step::Pass => "pass".to_string(),
            Step::Stone(p) => cert.geo.point_name(*p),
            Step::Root => unreachable!(),
        };
        pos.play_text(&name).unwrap();
    }
    let winner = if v.winner == check::Color::Black {
        Player::Black
    } else {
        Player::White
    };
    let mut solver = Solver::for_size(size, 4, gosolve::Config::reference()).unwrap();
    let p = solver.prove(&pos, winner, games::go::Komi::from_half_points(cert.komi2));
    prop_assert_ne!(p.answer, Answer::Disproven, "a false claim accepted: {}", v);
    Ok(())
}

#[derive(Clone, Debug)]
enum Edit {
    /// Replace the byte at (a fraction of the length) by this byte.
    Byte(f64, u8),
    /// Delete the line at (a fraction of the line count).
    DropLine(f64),
    /// Duplicate the line.
    CopyLine(f64),
    /// Replace the `k`-th word of a line by a word from the certificate's vocabulary.
    Word(f64, usize, &'static str),
}

const WORDS: &[&str] = &[
    "-",
    "pass",
    "A1",
    "B2",
    "C3",
    "win",
    "all",
    "end",
    "ref",
    "eyes",
    "0",
    "1",
    "3",
    "9",
    "b0",
    "w1",
    "b2",
    "...",
    "XXX/XXX/XXX",
    ".../.../...",
    "###/###/###",
    "8.5",
    "9.5",
    "black",
    "white",
    "moves",
    "setup",
    "earlier",
    "4294967295",
    "-1",
    "+1",
    "0.50",
];

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        (0.0..1.0f64, any::<u8>()).prop_map(|(f, b)| Edit::Byte(f, b)),
        (0.0..1.0f64).prop_map(Edit::DropLine),
        (0.0..1.0f64).prop_map(Edit::CopyLine),
        (0.0..1.0f64, 0..6usize, prop::sample::select(WORDS))
            .prop_map(|(f, k, w)| Edit::Word(f, k, w)),
    ]
}

fn apply(text: &str, edits: &[Edit]) -> Vec<u8> {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let mut extra: Vec<(f64, u8)> = Vec::new();
    for e in edits {
        let at = |f: f64, n: usize| ((f * n as f64) as usize).min(n.saturating_sub(1));
        match e {
            Edit::Byte(f, b) => extra.push((*f, *b)),
            Edit::DropLine(f) if !lines.is_empty() => {
                let i = at(*f, lines.len());
                lines.remove(i);
            }
            Edit::CopyLine(f) if !lines.is_empty() => {
                let i = at(*f, lines.len());
                let l = lines[i].clone();
                lines.insert(i, l);
            }
            Edit::Word(f, k, w) if !lines.is_empty() => {
                let i = at(*f, lines.len());
                let mut words: Vec<&str> = lines[i].split(' ').collect();
                if !words.is_empty() {
                    let k = k % words.len();
                    words[k] = w;
                }
                lines[i] = words.join(" ");
            }
            _ => {}
        }
    }
    let mut bytes = (lines.join("\n") + "\n").into_bytes();
    for (f, b) in extra {
        if !bytes.is_empty() {
            let i = ((f * bytes.len() as f64) as usize).min(bytes.len() - 1);
            bytes[i] = b;
        }
    }
    bytes
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn random_bytes_are_refused_or_accepted(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        let original = check::check_text(C3X3).unwrap();
        checked(&bytes, &original)?;
    }

    #[test]
    fn mutated_certificates_never_claim_a_falsehood(edits in prop::collection::vec(edit(), 1..4)) {
        let original = check::check_text(C3X3).unwrap();
        checked(&apply(C3X3, &edits), &original)?;
    }
}
