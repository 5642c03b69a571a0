//! `prove go --proof-sgf FILE`: the proof as SGF, read back with the `sgf-parse` crate: one
//! SGF node per certificate node (whole tree), every leaf commented with why it is a leaf,
//! the winner's nodes with one child and the loser's with every legal move.

mod common;
use common::{assert_clear_error, tsumi};
use sgf_parse::SgfNode;
use sgf_parse::go::{Move, Prop};

fn prove_with_sgf(board: &str, moves: &[&str], komi: &str, winner: &str) -> (String, String) {
    let dir = common::temp_folder("proof-sgf");
    let tag = format!("{board}-{}-{komi}-{winner}", moves.join("_"));
    let sgf = dir.join(format!("{tag}.sgf"));
    let cert = dir.join(format!("{tag}.cert"));
    let mut args = vec!["prove", "go", board];
    let joined = moves.join(",");
    if !moves.is_empty() {
        args.extend(["--moves", &joined]);
    }
    let k = format!("--komi={komi}");
    args.extend([
        k.as_str(),
        "--winner",
        winner,
        "--proof-sgf",
        sgf.to_str().unwrap(),
        "--certificate",
        cert.to_str().unwrap(),
    ]);
    let out = tsumi(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    (
        std::fs::read_to_string(sgf).unwrap(),
        std::fs::read_to_string(cert).unwrap(),
    )
}

fn count(n: &SgfNode<Prop>) -> usize {
    let mut total = 0;
    let mut stack = vec![n];
    while let Some(x) = stack.pop() {
        total += 1;
        stack.extend(x.children());
    }
    total
}

fn comment(n: &SgfNode<Prop>) -> Option<String> {
    match n.get_property("C") {
        Some(Prop::C(t)) => Some(t.to_string()),
        _ => None,
    }
}

#[test]
fn whole_proof_tree_reads_back_with_a_comment_at_every_leaf() {
    let (sgf, cert) = prove_with_sgf("3x3", &[], "8.5", "black");
    let trees = sgf_parse::go::parse(&sgf).unwrap();
    assert_eq!(trees.len(), 1);
    let root = &trees[0];
    assert!(
        matches!(root.get_property("SZ"), Some(Prop::SZ((3, 3)))),
        "{sgf}"
    );
    assert!(
        matches!(root.get_property("KM"), Some(Prop::KM(k)) if *k == 8.5),
        "{sgf}"
    );
    // One SGF node per certificate node (the root is the proof's root: no start moves).
    let nodes = check::parse(&cert).unwrap().nodes.len();
    assert_eq!(count(root), nodes);
    let (mut leaves, mut kinds) = (0, [0usize; 3]);
    let mut stack = vec![root];
    while let Some(n) = stack.pop() {
        if n.children().next().is_none() {
            leaves += 1;
            let c = comment(n).unwrap_or_else(|| panic!("a leaf without a comment in {sgf}"));
            assert!(c.starts_with("leaf: "), "{c}");
            for (i, w) in ["two passes end", "static win", "transposition"]
                .iter()
                .enumerate()
            {
                kinds[i] += usize::from(c.contains(w));
            }
        }
        stack.extend(n.children());
    }
    assert_eq!(kinds.iter().sum::<usize>(), leaves, "{kinds:?}");
    assert!(
        kinds.iter().all(|&k| k > 0),
        "every kind of leaf occurs: {kinds:?}"
    );
    // The first loser's node (White to move after Black's first move) has every legal
    // White move as a variation: 8 points and the pass on an empty-but-one 3x3 board.
    let first = root.children().next().unwrap();
    assert!(matches!(
        first.get_property("B"),
        Some(Prop::B(Move::Move(_)))
    ));
    assert_eq!(first.children().count(), 9, "{sgf}");
    assert!(
        first
            .children()
            .any(|c| matches!(c.get_property("W"), Some(Prop::W(Move::Pass))))
    );
}

#[test]
fn rectangle_after_moves_names_the_start_line_and_the_size() {
    let (sgf, _) = prove_with_sgf("2x3", &["B1", "A1"], "0.5", "black");
    let trees = sgf_parse::go::parse(&sgf).unwrap();
    let root = &trees[0];
    assert!(
        matches!(root.get_property("SZ"), Some(Prop::SZ((3, 2)))),
        "{sgf}"
    );
    // The root position is reached by its moves, so the superko history travels with it:
    // Black's B1 (column b, the bottom row b of 2), then White's A1, then the proof.
    assert!(root.get_property("AB").is_none(), "{sgf}");
    assert!(root.get_property("AW").is_none(), "{sgf}");
    let b1 = root.children().next().unwrap();
    assert!(
        matches!(b1.get_property("B"), Some(Prop::B(Move::Move(p))) if (p.x, p.y) == (1, 1)),
        "{sgf}"
    );
    let a1 = b1.children().next().unwrap();
    assert!(
        matches!(a1.get_property("W"), Some(Prop::W(Move::Move(p))) if (p.x, p.y) == (0, 1)),
        "{sgf}"
    );
    assert!(comment(a1).unwrap().contains("proof's root"), "{sgf}");
    // Black's winning move is the one child, a static leaf.
    let first = a1.children().next().unwrap();
    assert!(
        matches!(first.get_property("B"), Some(Prop::B(Move::Move(_)))),
        "{sgf}"
    );
    assert!(comment(first).unwrap().contains("static win"), "{sgf}");
}

#[test]
fn proof_sgf_needs_go_and_an_answer() {
    assert_clear_error(
        &["prove", "tictactoe", "3", "--proof-sgf", "x.sgf"],
        "--proof-sgf applies to go only",
    );
    let out = tsumi(&[
        "prove",
        "go",
        "3x3",
        "--komi",
        "8.5",
        "--tt-mib",
        "4",
        "--max-expansions",
        "3",
        "--proof-sgf",
        "x.sgf",
    ]);
    // No answer within the budget: status 3, and no file.
    assert_eq!(out.status.code(), Some(3));
    assert!(!std::path::Path::new("x.sgf").exists());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--proof-sgf: no proof to write (the answer is unknown)"),
        "{err}"
    );
}

#[test]
fn solve_writes_both_deciding_proofs_as_sgf() {
    let dir = common::temp_path("solve-sgf");
    let out = tsumi(&["solve", "go", "2x3", "--proof-sgf", dir.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names.len(), 2, "{names:?}");
    assert!(
        names[0].starts_with("black-") && names[1].starts_with("white-"),
        "{names:?}"
    );
    for n in &names {
        let text = std::fs::read_to_string(dir.join(n)).unwrap();
        let trees = sgf_parse::go::parse(&text).unwrap();
        assert!(count(&trees[0]) >= 1, "{n}: {text}");
    }
    assert_clear_error(
        &[
            "solve",
            "go",
            "2x3",
            "--engine",
            "oracle",
            "--proof-sgf",
            "d",
        ],
        "--proof-sgf applies to the dfpn engine",
    );
}
