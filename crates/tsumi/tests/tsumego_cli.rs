//! `tsumi tsumego FILE.sgf`: answers, JSON, the SGF solution tree read back with `sgf-parse`,
//! and one-line errors for malformed problems.

mod common;

use common::{assert_clear_error, json, tsumi};
use sgf_parse::SgfNode;
use sgf_parse::go::Prop;
use std::path::{Path, PathBuf};

/// White's straight three in the corner of a 5x5 board (bottom row A1-C1 empty), Black's wall
/// above it:
///
/// ```text
/// 5 . . . . .
/// 4 . . . . .
/// 3 X X X X X
/// 2 O O O O X
/// 1 . . . O X
/// ```
const STRAIGHT_THREE: &str =
    "(;GM[1]FF[4]SZ[5]AB[ac][bc][cc][dc][ec][ed][ee]AW[ad][bd][cd][dd][de]PL[B]MA[dd])";

/// Writes `text` to `dir/name` (a test's temporary folder) and returns the path.
fn file(dir: &Path, name: &str, text: &str) -> String {
    let path: PathBuf = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_string_lossy().into_owned()
}

#[test]
fn straight_three_is_killed_at_the_centre_by_every_algorithm() {
    let dir = common::temp_folder("tsumego");
    let f = file(&dir, "three.sgf", STRAIGHT_THREE);
    for algo in ["lambda", "lambda-dfpn", "dfpn"] {
        let v = json(&["tsumego", &f, "--algo", algo, "--json"]);
        assert_eq!(v["result"], "kill", "{algo}: {v}");
        assert_eq!(v["success"], true, "{algo}");
        assert_eq!(v["key_move"], "B1", "{algo}");
        assert!(v["expansions"].as_u64().unwrap() > 0);
        assert_eq!(v["line"][0], "B1");
    }
    let w = file(
        &dir,
        "three-w.sgf",
        &STRAIGHT_THREE.replace("PL[B]", "PL[W]"),
    );
    let v = json(&["tsumego", &w, "--goal", "live", "--json"]);
    assert_eq!(v["result"], "live", "{v}");
    assert_eq!(v["key_move"], "B1");
    let text = tsumi(&["tsumego", &f]);
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(text.contains("result: kill (black succeeds)"), "{text}");
    assert!(text.contains("key move: B1"), "{text}");
}

#[test]
fn the_solution_tree_opens_in_an_sgf_reader() {
    let dir = common::temp_folder("tsumego");
    let f = file(&dir, "tree.sgf", STRAIGHT_THREE);
    let out = file(&dir, "tree-out.sgf", "");
    let v = json(&["tsumego", &f, "--json", "--out", &out]);
    assert_eq!(v["result"], "kill");
    let sgf = std::fs::read_to_string(&out).unwrap();
    let trees = sgf_parse::go::parse(&sgf).unwrap();
    assert_eq!(trees.len(), 1);
    let root = &trees[0];
    assert!(
        matches!(root.get_property("SZ"), Some(Prop::SZ((5, 5)))),
        "{sgf}"
    );
    assert!(
        matches!(root.get_property("PL"), Some(Prop::PL(_))),
        "{sgf}"
    );
    // One variation per stone move of Black in the area (A1, B1, C1 and the empty row 4).
    let firsts: Vec<&SgfNode<Prop>> = root.children().collect();
    assert_eq!(firsts.len(), 8, "{sgf}");
    let last_comment = |mut n: &SgfNode<Prop>| loop {
        match n.children().next() {
            Some(c) => n = c,
            None => {
                return match n.get_property("C") {
                    Some(Prop::C(t)) => t.to_string(),
                    _ => String::new(),
                };
            }
        }
    };
    let right: Vec<_> = firsts
        .iter()
        .filter(|n| last_comment(n) == "RIGHT")
        .collect();
    assert_eq!(right.len(), 1, "{sgf}");
    assert!(sgf.contains("(;B[be]"), "the right move B1 is b e: {sgf}");
    // Wrong moves are marked and refuted by White's B1.
    assert!(sgf.contains("(;B[ae]C[wrong: live];W[be])"), "{sgf}");
}

#[test]
fn malformed_problems_get_one_line_errors() {
    let dir = common::temp_folder("tsumego");
    let none = file(&dir, "none.sgf", &STRAIGHT_THREE.replace("MA[dd]", ""));
    assert_clear_error(&["tsumego", &none], "no target");
    let empty = file(
        &dir,
        "empty.sgf",
        &STRAIGHT_THREE.replace("MA[dd]", "MA[ae]"),
    );
    assert_clear_error(&["tsumego", &empty], "the target is not a block");
    let two = file(
        &dir,
        "two.sgf",
        &STRAIGHT_THREE.replace("MA[dd]", "MA[dd][ee]"),
    );
    assert_clear_error(&["tsumego", &two], "not in one block");
    let full = file(
        &dir,
        "full.sgf",
        &STRAIGHT_THREE.replace("MA[dd]", "MA[dd]SL[dd][ee]"),
    );
    assert_clear_error(&["tsumego", &full], "no empty point");
    let f = file(&dir, "goal.sgf", STRAIGHT_THREE);
    assert_clear_error(&["tsumego", &f, "--goal", "win"], "unknown goal");
    assert_clear_error(&["tsumego", &f, "--algo", "pns"], "unknown algorithm");
}
