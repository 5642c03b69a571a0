//! `tsumi solve --sgf`: malformed files are refused in one line naming the place (status 2),
//! files that real tools write are solved, and 200,000-node files do not crash the reader.

mod common;

use common::{json, tsumi};
use std::path::Path;

/// A scratch directory for one test.
fn scratch(name: &str) -> common::TempFolder {
    common::temp_folder(&format!("sgf-cli-{name}"))
}

fn write(dir: &Path, name: &str, bytes: impl AsRef<[u8]>) -> String {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path.to_str().unwrap().to_string()
}

/// Runs `args`; asserts exit status 2 and one stderr line naming `path` and holding `needle`.
fn refused(args: &[&str], path: &str, needle: &str) -> String {
    let out = tsumi(args);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert_eq!(
        err.trim_end().lines().count(),
        1,
        "{args:?}: not one line: {err}"
    );
    assert!(err.contains(path), "{args:?}: '{err}' should name {path}");
    assert!(
        err.contains(needle),
        "{args:?}: '{err}' should contain '{needle}'"
    );
    err
}

/// `solve go SIZE --sgf PATH --json` with a small table: the answer's JSON.
fn solve(size: &str, path: &str) -> serde_json::Value {
    json(&[
        "solve", "go", size, "--sgf", path, "--tt-mib", "16", "--json",
    ])
}

#[test]
fn an_unescaped_bracket_is_refused_with_its_place() {
    let dir = scratch("bracket");
    let u = write(&dir, "u.sgf", "(;GM[1]SZ[3];B[bb]C[a]b];W[aa])");
    // The reproduction's exact command.
    let err = refused(
        &["solve", "go", "3x3", "--sgf", &u],
        &u,
        "malformed SGF at line 1, column 23: expected a property",
    );
    assert!(err.contains("unescaped ']'"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn two_moves_in_a_node_and_several_games_are_refused() {
    let dir = scratch("refused");
    let both = write(&dir, "both.sgf", "(;GM[1]SZ[3];B[bb]W[aa])");
    refused(
        &["solve", "go", "3x3", "--sgf", &both],
        &both,
        "holds both a B and a W move",
    );
    let games = write(
        &dir,
        "games.sgf",
        "(;GM[1]SZ[3];B[bb])\n(;GM[1]SZ[3];W[aa])\n",
    );
    refused(
        &["solve", "go", "3x3", "--sgf", &games],
        &games,
        "holds 2 game trees",
    );
    let utf8 = write(&dir, "utf8.sgf", b"(;CA[UTF-8]SZ[3]C[caf\xE9];B[bb])");
    refused(
        &["solve", "go", "3x3", "--sgf", &utf8],
        &utf8,
        "declares CA[UTF-8] but is not UTF-8 at line 1, column 22",
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn files_of_200000_nodes_are_read_or_refused_without_a_crash() {
    let dir = scratch("deep");
    let n = 200_000;
    // The reproduction's shape: nested variations that all play A3; move 2 is refused.
    let nested_moves = write(
        &dir,
        "nested-moves.sgf",
        format!("(;GM[1]SZ[3]{}{})", "(;B[aa]".repeat(n), ")".repeat(n)),
    );
    refused(
        &["solve", "go", "3x3", "--sgf", &nested_moves],
        &nested_moves,
        "SGF move 2 (black A3): illegal move A3: the point is occupied",
    );
    // Nested and sequential nodes that leave the board empty: read, then solved.
    let nested = write(
        &dir,
        "nested.sgf",
        format!(
            "(;GM[1]SZ[2]KM[0.5]{}{})",
            "(;C[x]".repeat(n),
            ")".repeat(n)
        ),
    );
    let sequential = write(
        &dir,
        "sequential.sgf",
        format!("(;GM[1]SZ[2]KM[0.5]{};B[aa])", ";C[x]".repeat(n)),
    );
    assert_eq!(solve("2x2", &nested)["to_move"], "black");
    assert_eq!(solve("2x2", &sequential)["to_move"], "white");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn tsumi_records_are_read_with_either_ap() {
    let dir = scratch("ap");
    for (name, ap) in [
        ("plain.sgf", "AP[tsumi]"),
        ("version.sgf", "AP[tsumi:0.1.0]"),
    ] {
        let path = write(
            &dir,
            name,
            format!(
                "(;GM[1]FF[4]CA[UTF-8]{ap}SZ[3]KM[6.5]RU[go]PB[a]PW[b]RE[B+9]\n;B[bb]\n;W[ba])\n"
            ),
        );
        let v = solve("3x3", &path);
        assert_eq!(v["to_move"], "black", "{ap}");
        assert_eq!(v["komi"], 6.5, "{ap}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn gnugo_printsgf_output_solves() {
    let dir = scratch("gnugo");
    // Real GNU Go 3.8 `printsgf` after boardsize 3, komi 0.5, play B B2, play W A1.
    let path = write(
        &dir,
        "gnugo.sgf",
        "(;GM[1]FF[4]\nSZ[3]\nGN[GNU Go 3.8 load and print]\nDT[2026-12-02]\n\
         KM[0.5]HA[0]RU[Japanese]AP[GNU Go:3.8]AW[ac]\nAB[bb]\nPL[B]\n)\n",
    );
    let v = solve("3x3", &path);
    assert_eq!(v["to_move"], "black");
    assert_eq!(v["komi"], 0.5);
    // With private and timing properties that carry no position.
    let path = write(
        &dir,
        "private.sgf",
        "(;GM[1]SZ[3]KM[0.5]XY[whatever]BL[abc];B[bb]BL[12]WL[abc]MA[aa]TB[cc])",
    );
    assert_eq!(solve("3x3", &path)["to_move"], "white");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bom_and_latin1_files_solve() {
    let dir = scratch("charset");
    let bom = write(
        &dir,
        "bom.sgf",
        "\u{FEFF}(;GM[1]FF[4]CA[UTF-8]SZ[3]KM[0.5]PB[本因坊]C[café];B[bb])",
    );
    assert_eq!(solve("3x3", &bom)["to_move"], "white");
    let latin1 = write(
        &dir,
        "latin1.sgf",
        b"(;GM[1]FF[4]CA[ISO-8859-1]SZ[3]KM[0.5]PB[Ren\xE9]C[caf\xE9];B[bb])",
    );
    assert_eq!(solve("3x3", &latin1)["to_move"], "white");
    let both = write(
        &dir,
        "bom-latin1.sgf",
        b"\xEF\xBB\xBF(;GM[1]FF[4]CA[ISO-8859-1]SZ[3]KM[0.5]C[caf\xE9];B[bb])",
    );
    assert_eq!(solve("3x3", &both)["to_move"], "white");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_example_file_solves() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/example-3x3.sgf");
    let v = solve("3x3", path);
    assert_eq!(v["to_move"], "black");
    assert_eq!(v["komi"], 0.5);
    assert_eq!(v["value"], 9);
    assert_eq!(v["black_wins"], true);
}
