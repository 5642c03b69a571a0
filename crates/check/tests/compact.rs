//! The compact format (version 2) against the text format (version 1): the solver writes
//! both for the same proofs, the checker gives the same verdict and counts for both, and a
//! compact certificate is smaller; forgeries of compact certificates are refused.

use check::CheckError;
use games::Player;
use gosolve::certificate::CertificateFormat;

mod common;
use common::write;

#[test]
fn both_formats_give_the_same_verdict() {
    for (rows, cols, moves, winner, komi2) in [
        (1, 1, &[][..], Player::White, 1),
        (2, 2, &[][..], Player::Black, 1),
        (2, 3, &[][..], Player::White, 1),
        (3, 3, &[][..], Player::Black, 17),
        (3, 3, &["B2", "A1"][..], Player::Black, 17),
        (1, 5, &["pass"][..], Player::White, 5),
    ] {
        let text = write(rows, cols, moves, winner, komi2, CertificateFormat::Text);
        let compact = write(rows, cols, moves, winner, komi2, CertificateFormat::Compact);
        assert!(compact.starts_with("tsumi-certificate 2\n"), "{compact}");
        let a = check::check_text(&text).unwrap();
        let b = check::check_text(&compact).unwrap();
        assert_eq!(a, b, "{rows}x{cols} {moves:?}");
        assert!(compact.len() < text.len());
        assert!(
            compact.len() * 3 < text.len() || a.nodes < 100,
            "{} vs {}",
            compact.len(),
            text.len()
        );
        eprintln!(
            "{rows}x{cols} {moves:?}: {} nodes, text {} bytes, compact {} bytes",
            a.nodes,
            text.len(),
            compact.len()
        );
    }
}

#[test]
fn forged_compact_certificates_are_refused() {
    let compact = write(3, 3, &[], Player::Black, 17, CertificateFormat::Compact);
    let lines: Vec<&str> = compact.lines().collect();
    let invalid = |v: &[String]| match check::check_text(&(v.join("\n") + "\n")) {
        Err(CheckError::Invalid(f)) => f,
        other => panic!("not refused as invalid: {other:?}"),
    };
    // The winner's first move swapped for another point.
    let mut v: Vec<String> = lines.iter().map(|s| s.to_string()).collect();
    let i = v.iter().position(|l| l.starts_with("- ")).unwrap() + 1;
    let (mv, kind) = v[i].split_once(' ').unwrap();
    v[i] = format!("{} {kind}", if mv == "A1" { "C3" } else { "A1" });
    let f = invalid(&v);
    assert!(f.line > i, "{f}");
    // A static leaf claimed where the game goes on: the first 'a' node's first child.
    let mut v: Vec<String> = lines.iter().map(|s| s.to_string()).collect();
    let j = v.iter().position(|l| l.ends_with(" e")).unwrap();
    v[j] = v[j].replace(" e", " y");
    let f = invalid(&v);
    assert_eq!(f.line, j + 1, "{f}");
    // Every kind letter and count is spelled one way.
    for bad in ["- x", "- a", "- r", "- w1", "- a+1", "- a01", "-"] {
        let mut v: Vec<String> = lines.iter().map(|s| s.to_string()).collect();
        v[5] = bad.to_string();
        match check::check_text(&(v.join("\n") + "\n")) {
            Err(CheckError::Parse(e)) => assert_eq!(e.line, 6, "{bad}: {e}"),
            other => panic!("{bad}: {other:?}"),
        }
    }
}
