//! The SGF reader and writer: strict where the input is wrong, accepting what real tools write,
//! and a writer whose output reads back to the same position.
//!
//! Boards are drawn as in `Board::from_ascii`: rows from the top, X Black, O White.

use games::Player;
use games::go::{
    Board, KoRule, Komi, Move, MoveError, Position, Rules, Size, position_from_sgf,
    position_from_sgf_bytes, position_from_sgf_bytes_before, position_to_sgf,
};
use proptest::prelude::*;

const PSK: KoRule = KoRule::PositionalSuperko;

fn read(text: &str) -> Position {
    position_from_sgf(text, PSK).unwrap_or_else(|e| panic!("{e}\nin {text}"))
}

fn refused(text: &str) -> String {
    match position_from_sgf(text, PSK) {
        Ok(p) => panic!("{text} was read, to {}", p.board().to_ascii()),
        Err(e) => e.to_string(),
    }
}

fn refused_bytes(bytes: &[u8]) -> String {
    match position_from_sgf_bytes(bytes, PSK) {
        Ok(p) => panic!("{bytes:?} was read, to {}", p.board().to_ascii()),
        Err(e) => e.to_string(),
    }
}

/// Real output of GNU Go 3.8 `printsgf` after `boardsize 3`, `komi 0.5`, `play B B2`,
/// `play W A1` (GTP mode): setup, HA[0], AP with a version, PL.
const GNUGO_PRINTSGF_3X3: &str = "(;GM[1]FF[4]\nSZ[3]\nGN[GNU Go 3.8 load and print]\n\
DT[2026-12-02]\nKM[0.5]HA[0]RU[Japanese]AP[GNU Go:3.8]AW[ac]\nAB[bb]\nPL[B]\n)\n";

/// Real output of GNU Go 3.8 `printsgf` after `boardsize 9`, `fixed_handicap 2`: the
/// handicap stones as AB next to HA[2].
const GNUGO_HANDICAP_9X9: &str = "(;GM[1]FF[4]\nSZ[9]\nGN[GNU Go 3.8 load and print]\n\
DT[2026-12-02]\nKM[0.0]HA[2]RU[Japanese]AP[GNU Go:3.8]AB[gc][cg]\nPL[W]\n)\n";

/// Real game record of GNU Go 3.8 (`--outfile`, ascii mode, 5x5, Black C3, GNU Go answers).
const GNUGO_RECORD_5X5: &str = "(;GM[1]FF[4]\nSZ[5]\n\
GN[GNU Go 3.8 Random Seed 1796185307 level 10]\nDT[2026-12-02]\n\
KM[0.5]HA[0]RU[Japanese]AP[GNU Go:3.8]\n;B[cc];W[cd])\n";

// ---- 1. malformed files are refused with the place they break ----

#[test]
fn an_unescaped_bracket_in_a_comment_is_refused_with_its_line_and_column() {
    // Today's reproduction: W[aa] used to be dropped silently.
    let e = refused("(;GM[1]SZ[3];B[bb]C[a]b];W[aa])");
    assert!(
        e.starts_with("malformed SGF at line 1, column 23: expected a property"),
        "{e}"
    );
    assert!(
        e.contains("found 'b'") && e.contains("unescaped ']'"),
        "{e}"
    );
    // An upper-case letter after the bracket is an identifier without its '['.
    let e = refused("(;GM[1]SZ[3];B[bb]C[a]B];W[aa])");
    assert!(
        e.starts_with(
            "malformed SGF at line 1, column 24: expected '[' to open a value of property B"
        ),
        "{e}"
    );
}

#[test]
fn grammar_errors_name_the_place_and_what_was_expected() {
    let cases = [
        ("", "no game tree"),
        ("  \n ", "no game tree"),
        (
            "x(;SZ[3])",
            "line 1, column 1: expected '(' to start a game tree, found 'x'",
        ),
        (
            "()",
            "line 1, column 2: expected ';' to start the first node",
        ),
        ("((;SZ[3]))", "line 1, column 2: expected ';'"),
        (
            "(;SZ[3]",
            "expected ')' to close the game tree opened at line 1, column 1",
        ),
        ("(;SZ[3];B[aa]", "expected ')'"),
        (
            "(;GM[1]SZ[3]B[aa",
            "the value of B opened at line 1, column 14 is never closed",
        ),
        (
            "(;SZ[3])x",
            "line 1, column 9: expected '(' to start a game tree, found 'x'",
        ),
        ("(;SZ[3]))", "line 1, column 9: expected '('"),
        ("(;SZ[3]\n;B[aa]=)", "line 2, column 7: expected a property"),
        (
            "(;SZ[3]\r\n;B)",
            "line 2, column 3: expected '[' to open a value of property B, found ')'",
        ),
        (
            "(;SZ[3];b[aa])",
            "line 1, column 9: expected a property (capital letters)",
        ),
        (
            "(;SZ[3];B[aa]W)",
            "expected '[' to open a value of property W",
        ),
        (
            "(;C[caf\u{e9}]\u{e9})",
            "line 1, column 10: expected a property",
        ),
        ("(;SZ[3];B[bb](;W[aa])(;W[cc]B))", "column 30: expected '['"),
    ];
    for (text, needle) in cases {
        let e = refused(text);
        assert!(
            e.contains(needle),
            "{text:?}: '{e}' should contain '{needle}'"
        );
        assert_eq!(e.lines().count(), 1, "{e}");
    }
}

#[test]
fn one_node_holding_both_moves_is_refused() {
    let e = refused("(;GM[1]SZ[3];B[bb]W[aa])");
    assert_eq!(
        e,
        "SGF node at line 1, column 13 holds both a B and a W move (one move per node)"
    );
    let e = refused("(;GM[1]SZ[3];B[bb]B[aa])");
    assert!(
        e.contains("property B at line 1, column 19 appears twice"),
        "{e}"
    );
}

#[test]
fn several_game_trees_are_refused_with_their_count() {
    let e = refused("(;GM[1]SZ[3];B[bb])(;GM[1]SZ[3];W[aa])");
    assert_eq!(
        e,
        "the SGF file holds 2 game trees; only files with one game are read"
    );
    let e = refused("(;SZ[3])\n(;SZ[3])\n(;SZ[3])\n");
    assert!(e.contains("holds 3 game trees"), "{e}");
    // A grammar error anywhere is reported before the count.
    let e = refused("(;SZ[3])(;SZ[3])(;SZ[3)");
    assert!(e.contains("never closed"), "{e}");
}

#[test]
fn the_main_line_is_the_first_variation_at_every_branch() {
    let p = read("(;SZ[3];B[bb](;W[aa];B[cc](;W[ca])(;W[ac]))(;W[cc]))");
    assert_eq!(p.board().to_ascii(), "O.O/.X./..X");
    assert_eq!(p.plies(), 4);
    // A branch right after the root.
    let p = read("(;SZ[3](;B[aa](;W[bb])(;W[cc]))(;B[cc]))");
    assert_eq!(p.board().to_ascii(), "X../.O./...");
    // Side variations may hold moves that would be illegal on the main line.
    let p = read("(;SZ[3];B[bb](;W[aa])(;W[bb];W[bb]))");
    assert_eq!(p.board().to_ascii(), "O../.X./...");
}

// ---- 5. no recursion: 200,000 nodes nested or in sequence ----

#[test]
fn two_hundred_thousand_nested_variations_are_read_without_recursion() {
    let n = 200_000;
    let text = format!("(;SZ[2]{}{})", "(;C[x]".repeat(n), ")".repeat(n));
    let p = read(&text);
    assert_eq!(p.board().to_ascii(), "../..");
    // The reproduction's shape: every node plays the same point, so move 2 is refused.
    let text = format!("(;SZ[3]{}{})", "(;B[aa]".repeat(n), ")".repeat(n));
    let e = refused(&text);
    assert!(e.starts_with("SGF move 2 (black A3)"), "{e}");
    // Unclosed at that depth: the innermost '(' is named.
    let text = format!("(;SZ[3]{}", "(;C[x]".repeat(n));
    let e = refused(&text);
    assert!(
        e.contains(&format!("opened at line 1, column {}", 8 + 6 * (n - 1))),
        "{e}"
    );
}

#[test]
fn two_hundred_thousand_sequential_nodes_are_read_without_recursion() {
    let n = 200_000;
    let text = format!("(;SZ[2]{})", ";C[x]".repeat(n));
    assert_eq!(read(&text).board().to_ascii(), "../..");
    // Setup nodes alternate two boards; each enters the history.
    let text = format!("(;SZ[2]{})", ";AB[aa];AE[aa]".repeat(n / 2));
    let p = read(&text);
    assert_eq!(p.history().len(), n + 1);
    let text = format!("(;SZ[3]{})", ";B[aa]".repeat(n));
    assert!(refused(&text).contains("occupied"));
}

// ---- 7. application names ----

#[test]
fn ap_is_read_in_tsumi_and_name_version_forms() {
    for ap in [
        "AP[tsumi]",
        "AP[tsumi:0.1.0]",
        "AP[GNU Go:3.8]",
        "AP[]",
        "AP[a][b]",
    ] {
        let p = read(&format!("(;GM[1]FF[4]{ap}SZ[3];B[bb])"));
        assert_eq!(p.board().to_ascii(), ".../.X./...", "{ap}");
    }
}

// ---- 8. what real tools write ----

#[test]
fn gnugo_printsgf_output_is_read() {
    let p = read(GNUGO_PRINTSGF_3X3);
    assert_eq!(p.board().to_ascii(), ".../.X./O..");
    assert_eq!(p.to_move(), Player::Black);
    assert_eq!(p.rules().komi, Komi::from_half_points(1));
    let p = read(GNUGO_HANDICAP_9X9);
    assert_eq!(p.board().count(Player::Black), 2);
    assert_eq!(
        p.board()
            .get(Size::new(9, 9).unwrap().parse_point("G7").unwrap()),
        Some(Player::Black)
    );
    assert_eq!(p.to_move(), Player::White);
    let p = read(GNUGO_RECORD_5X5);
    assert_eq!(p.board().to_ascii(), "...../...../..X../..O../.....");
    assert_eq!(p.plies(), 2);
}

#[test]
fn properties_that_do_not_change_the_position_are_ignored() {
    let text = "(;GM[1]FF[3]CA[UTF-8]ST[2]SZ[3]PB[b]PW[w]BR[3d]RE[B+R]DT[2026]RU[AGA]\
        TM[600]OT[3x30 byo-yomi]GN[x]EV[x]US[x]SO[x]CP[x]ON[x]AN[x]GC[x]\
        XY[whatever]ZZ[]MULTIGOGM[1]\
        ;B[bb]BL[abc]OB[x]C[a comment]N[name]MA[aa]TR[ab]SQ[ba]CR[ca]LB[aa:1]DD[]VW[]\
        TE[1]BM[2]DO[]IT[]HO[1]UC[1]GB[1]GW[1]DM[1]V[0.5]MN[5]FG[]PM[1]\
        ;W[aa]WL[12.5]OW[3]TB[cc]TW[ac]AR[aa:bb]LN[aa:cc]SL[bb])";
    let p = read(text);
    assert_eq!(p.board().to_ascii(), "O../.X./...");
    // Old FF[3] identifiers with lower-case letters are the FF[4] ones.
    let p = read("(;GaMe[1]SiZe[3]AddBlack[aa];White[bb])");
    assert_eq!(p.board().to_ascii(), "X../.O./...");
}

#[test]
fn a_byte_order_mark_is_skipped() {
    let mut bytes = b"\xEF\xBB\xBF".to_vec();
    bytes.extend_from_slice(b"(;GM[1]SZ[3];B[bb])");
    let p = position_from_sgf_bytes(&bytes, PSK).unwrap();
    assert_eq!(p.board().to_ascii(), ".../.X./...");
    let p = read("\u{FEFF}(;GM[1]SZ[3];B[bb])");
    assert_eq!(p.board().to_ascii(), ".../.X./...");
    // Lines and columns count from after the mark.
    bytes.extend_from_slice(b"x");
    let e = refused_bytes(&bytes);
    assert!(e.contains("line 1, column 20"), "{e}");
    let e = refused_bytes(b"\xFF\xFE(\0;\0)\0");
    assert!(e.contains("UTF-16"), "{e}");
}

#[test]
fn the_character_set_is_honoured() {
    // ISO-8859-1: any byte is a character.
    let latin1 = b"(;GM[1]CA[ISO-8859-1]SZ[3]PB[Ren\xE9]C[caf\xE9 \xA7];B[bb])";
    assert_eq!(
        position_from_sgf_bytes(latin1, PSK)
            .unwrap()
            .board()
            .to_ascii(),
        ".../.X./..."
    );
    for name in ["iso-8859-1", "Latin1", "ISO8859-1", "latin-1"] {
        let text = format!("(;CA[{name}]SZ[3]C[\u{e9}];B[bb])").replace('\u{e9}', "\u{1}");
        let bytes: Vec<u8> = text
            .bytes()
            .map(|b| if b == 1 { 0xE9 } else { b })
            .collect();
        assert!(position_from_sgf_bytes(&bytes, PSK).is_ok(), "{name}");
    }
    // A BOM with a Latin-1 body: the mark is skipped, CA decides.
    let mut bom_latin1 = b"\xEF\xBB\xBF".to_vec();
    bom_latin1.extend_from_slice(latin1);
    assert!(position_from_sgf_bytes(&bom_latin1, PSK).is_ok());
    // UTF-8, declared or not.
    let utf8 = "(;GM[1]CA[UTF-8]SZ[3]PB[本因坊]C[é];B[bb])";
    assert!(position_from_sgf_bytes(utf8.as_bytes(), PSK).is_ok());
    assert!(position_from_sgf_bytes("(;SZ[3]C[é];B[bb])".as_bytes(), PSK).is_ok());
    // No CA is ISO-8859-1 by the spec: any byte.
    assert!(position_from_sgf_bytes(b"(;SZ[3]C[\xE9];B[bb])", PSK).is_ok());
    // A file that breaks its declared charset.
    let e = refused_bytes(b"(;CA[UTF-8]SZ[3]\nC[caf\xE9];B[bb])");
    assert_eq!(
        e,
        "the SGF file declares CA[UTF-8] but is not UTF-8 at line 2, column 6"
    );
    let e = refused_bytes(b"(;CA[US-ASCII]SZ[3]C[caf\xE9];B[bb])");
    assert!(
        e.contains("declares CA[US-ASCII] but is not US-ASCII at line 1, column 25"),
        "{e}"
    );
    assert!(position_from_sgf_bytes(b"(;CA[us-ascii]SZ[3];B[bb])", PSK).is_ok());
    // Another charset: read if the file is UTF-8, else refused (its bytes could hide a ']').
    assert!(position_from_sgf_bytes("(;CA[GB2312]SZ[3]C[中];B[bb])".as_bytes(), PSK).is_ok());
    let e = refused_bytes(b"(;CA[Shift_JIS]SZ[3]C[\x83\x5C];B[bb])");
    assert!(
        e.starts_with("unsupported SGF character set CA[Shift_JIS]") && e.contains("column 23"),
        "{e}"
    );
    // Values quoted in errors are decoded in the file's charset.
    let e = refused_bytes(b"(;CA[ISO-8859-1]SZ[3]PL[\xE9])");
    assert!(e.contains("PL[\u{e9}]"), "{e}");
}

#[test]
fn compressed_point_lists_are_rectangles() {
    let p = read("(;SZ[3]AB[aa:bc])");
    assert_eq!(p.board().to_ascii(), "XX./XX./XX.");
    // Any two opposite corners, and a one-point rectangle.
    assert_eq!(read("(;SZ[3]AB[bc:aa])").board().to_ascii(), "XX./XX./XX.");
    assert_eq!(read("(;SZ[3]AB[ac:ba])").board().to_ascii(), "XX./XX./XX.");
    assert_eq!(read("(;SZ[3]AW[cc:cc])").board().to_ascii(), ".../.../..O");
    assert_eq!(
        read("(;SZ[4]AB[aa:ab][dd]AW[ca:da]AE[bb])")
            .board()
            .to_ascii(),
        "X.OO/X.../..../...X"
    );
    assert!(refused("(;SZ[3]AB[aa:dd])").contains("SGF point dd"));
    assert!(refused("(;SZ[3]AB[aa:])").contains("expected a point"));
}

#[test]
fn sizes_are_columns_then_rows() {
    let p = read("(;SZ[4:2];B[da])");
    assert_eq!(p.size(), Size::new(2, 4).unwrap());
    assert_eq!(p.board().to_ascii(), "...X/....");
    assert_eq!(read("(;SZ[5])").size(), Size::new(5, 5).unwrap());
    // SZ applies to the whole root node, wherever it stands in it.
    assert_eq!(read("(;AB[cc]SZ[3])").board().to_ascii(), ".../.../..X");
    assert_eq!(read("(;B[ss])").size(), Size::new(19, 19).unwrap());
    assert!(refused("(;SZ[25])").contains("unsupported board size"));
    assert!(refused("(;SZ[0:3])").contains("unsupported board size"));
    assert!(refused("(;SZ[3x3])").contains("SZ[3x3] at line 1, column 5"));
    assert!(refused("(;SZ[3]SZ[3])").contains("appears twice"));
    assert!(refused("(;SZ[3];SZ[3])").contains("SZ at line 1, column 9 belongs in the root"));
    assert!(refused("(;SZ[3][4])").contains("has 2 values; expected one"));
}

#[test]
fn escapes_and_line_breaks_inside_values_are_kept_inside() {
    for comment in [
        "C[\\\\]",
        "C[\\]]",
        "C[a\\\nb]",
        "C[a\nb;W\\[aa\\]\n]",
        "C[\\\r\n]",
        "C[(;)]",
    ] {
        let p = read(&format!("(;SZ[3]{comment};B[bb])"));
        assert_eq!(p.board().to_ascii(), ".../.X./...", "{comment}");
    }
    // An escaped point is still a point.
    assert_eq!(read("(;SZ[3];B[\\b\\b])").board().to_ascii(), ".../.X./...");
}

#[test]
fn empty_and_tt_moves_are_passes() {
    let p = read("(;SZ[3];B[bb];W[];B[tt])");
    assert_eq!(p.board().to_ascii(), ".../.X./...");
    assert_eq!((p.passes(), p.to_move()), (2, Player::White));
    assert!(p.is_over());
    let p = read("(;SZ[19];B[tt];W[ss])");
    assert_eq!(p.board().count(Player::Black), 0);
    // tt is a pass only as a move; as a setup point it is off a 19x19 board.
    assert!(
        refused("(;SZ[19]AB[tt])")
            .contains("SGF point tt at line 1, column 11 is off the 19x19 board")
    );
    assert!(refused("(;SZ[3];B[bb];W[];B[];W[aa])").contains("game is over"));
    assert!(refused("(;SZ[3];B[b])").contains("B[b] at line 1, column 10: expected a point"));
    assert!(refused("(;SZ[3];B[dd])").contains("off the 3x3 board"));
}

#[test]
fn komi_is_exact_and_given_once() {
    assert_eq!(
        read("(;SZ[3]KM[7.5])").rules().komi,
        Komi::from_half_points(15)
    );
    assert_eq!(
        read("(;SZ[3]KM[-2])").rules().komi,
        Komi::from_half_points(-4)
    );
    assert_eq!(
        read("(;SZ[3]KM[6.50])").rules().komi,
        Komi::from_half_points(13)
    );
    assert_eq!(read("(;SZ[3])").rules().komi, Komi::default());
    // KM may come later on the main line (game information), the same value again too.
    assert_eq!(
        read("(;SZ[3];B[aa]KM[0.5];KM[0.5])").rules().komi,
        Komi::from_half_points(1)
    );
    assert!(refused("(;SZ[3]KM[6.3])").contains("invalid komi '6.3'"));
    assert!(refused("(;SZ[3]KM[6,5])").contains("KM at line 1, column 10"));
    assert!(
        refused("(;SZ[3]KM[0.5];KM[7.5])")
            .contains("KM[7.5] at line 1, column 16 contradicts the komi 0.5")
    );
}

#[test]
fn pl_sets_the_side_to_move() {
    let p = read("(;SZ[3]PL[W])");
    assert_eq!(p.to_move(), Player::White);
    let p = read("(;SZ[3]AB[aa]PL[W];W[bb];PL[W])");
    assert_eq!(p.to_move(), Player::White);
    assert_eq!(p.board().to_ascii(), "X../.O./...");
    assert!(refused("(;SZ[3]PL[X])").contains("PL[X] at line 1, column 10: expected B or W"));
}

#[test]
fn setup_in_any_node_enters_the_history() {
    // "X.O" on 1x3 set up in a later node: Black B1 captures, White C1 captures two, and
    // Black A1 would recreate the setup board, which superko forbids.
    let p = read("(;SZ[3:1];AB[aa]AW[ca];B[ba];W[ca])");
    assert_eq!(p.board().to_ascii(), "..O");
    assert!(matches!(
        p.clone().play_text("A1"),
        Err(MoveError::Repetition(..))
    ));
    // AE empties points; the node's PL gives the side to move after the setup.
    let p = read("(;SZ[3];B[aa];W[bb];AE[aa]AB[cc]PL[W])");
    assert_eq!(p.board().to_ascii(), ".../.O./..X");
    assert_eq!(p.to_move(), Player::White);
    let e = refused("(;SZ[3]AB[bb]AW[bb])");
    assert!(
        e.contains("puts B2 in more than one of AB, AW and AE"),
        "{e}"
    );
    let e = refused("(;SZ[3:1];B[aa];AW[ba:ca])");
    assert!(
        e.contains("SGF setup in the node at line 1, column 16: invalid setup"),
        "{e}"
    );
    // Repeating a point within one list is harmless.
    assert_eq!(
        read("(;SZ[3]AB[aa][aa:ab])").board().to_ascii(),
        "X../X../..."
    );
}

#[test]
fn properties_that_change_the_position_unsupported_are_refused() {
    assert!(refused("(;GM[2]SZ[3])").contains("GM[2] at line 1, column 3: only Go (GM[1])"));
    assert!(read("(;GM[1];GM[1])").board().count(Player::Black) == 0);
    assert!(refused("(;SZ[3];B[aa]KO[])").contains("unsupported SGF property KO[]"));
    // Handicap: ignored when its stones are given by AB in the same node.
    assert!(position_from_sgf("(;SZ[9]HA[2]AB[cc][gg])", PSK).is_ok());
    assert!(position_from_sgf("(;SZ[9]HA[0]HA[0])", PSK).is_err());
    assert!(position_from_sgf("(;SZ[9]HA[1])", PSK).is_ok());
    let e = refused("(;SZ[9]HA[2])");
    assert_eq!(
        e,
        "unsupported SGF property HA[2] at line 1, column 8: the handicap stones must be given \
         by AB in the same node"
    );
    assert!(refused("(;SZ[9]HA[3]AB[cc][gg])").contains("HA[3]"));
    assert!(refused("(;SZ[9]HA[two])").contains("expected a number of handicap stones"));
}

#[test]
fn illegal_moves_name_their_number() {
    assert_eq!(
        refused("(;GM[1]SZ[3];B[bb];W[bb])"),
        "SGF move 2 (white B2): illegal move B2: the point is occupied"
    );
    // 1x2: Black A1, White B1 captures it; Black A1 would capture B1 and recreate "X.", the
    // board after move 1, which positional superko forbids.
    let e = refused("(;SZ[2:1];B[aa];W[ba];B[aa])");
    assert!(
        e.starts_with("SGF move 3 (black A1): illegal move A1"),
        "{e}"
    );
}

#[test]
fn every_error_is_one_line() {
    for text in [
        "(;GM[1]SZ[3];B[bb]C[a]b];W[aa])",
        "(;SZ[3]\n\n;B[aa]\n;W[aa])",
        "(;SZ[3]C[\n\n]\n;B[",
    ] {
        let e = refused(text);
        assert_eq!(e.lines().count(), 1, "{e}");
    }
    // A long or multi-line value is shortened in the message.
    let e = refused(&format!("(;SZ[3]PL[{}\n])", "x".repeat(100_000)));
    assert!(
        e.contains(&format!("PL[{}…]", "x".repeat(40))) && e.len() < 200,
        "{e}"
    );
    assert!(refused("(;SZ[3]PL[a\nb])").contains("PL[a b]"));
    let e = refused("(;SZ[3]\nC[\n\n]\n;B[aa]W)");
    assert!(e.contains("line 5, column 8"), "{e}");
}

// ---- the writer ----

fn assert_round_trips(p: &Position) {
    let text = position_to_sgf(p);
    let q =
        position_from_sgf(&text, p.history().rule()).unwrap_or_else(|e| panic!("{e}\nin\n{text}"));
    assert_eq!(q.board(), p.board(), "{text}");
    assert_eq!(q.to_move(), p.to_move(), "{text}");
    assert_eq!(q.rules(), p.rules(), "{text}");
    assert_eq!(q.passes(), p.passes(), "{text}");
    assert_eq!(q.history(), p.history(), "{text}");
    // And the bytes entry point agrees.
    let r = position_from_sgf_bytes(text.as_bytes(), p.history().rule()).unwrap();
    assert_eq!(r.history(), p.history());
}

fn rules(ko: KoRule, half_points: i32) -> Rules {
    Rules {
        ko,
        komi: Komi::from_half_points(half_points),
    }
}

#[test]
fn the_writer_writes_sizes_komi_setup_and_moves() {
    let mut p = Position::new(Size::new(2, 3).unwrap(), rules(PSK, 15));
    for m in ["B1", "A1", "pass"] {
        p.play_text(m).unwrap();
    }
    let text = position_to_sgf(&p);
    assert!(
        text.starts_with(&format!(
            "(;GM[1]FF[4]CA[UTF-8]AP[tsumi:{}]SZ[3:2]KM[7.5]\n;B[bb] ;W[ab] ;B[])",
            env!("CARGO_PKG_VERSION")
        )),
        "{text}"
    );
    assert_round_trips(&p);
    let board = Board::from_ascii("X.O/.../...").unwrap();
    let p = Position::from_board(board, Player::White, rules(PSK, -3)).unwrap();
    let text = position_to_sgf(&p);
    assert!(text.contains("SZ[3]KM[-1.5]\nAB[aa]AW[ca]PL[W])"), "{text}");
    assert_round_trips(&p);
}

#[test]
fn the_writer_round_trips_captures_setups_and_side_changes() {
    let mut p = Position::new(Size::new(1, 4).unwrap(), rules(PSK, 1));
    for m in ["C1", "A1", "B1", "pass", "D1", "A1"] {
        p.play_text(m).unwrap();
    }
    assert_round_trips(&p);
    p.setup(Board::from_ascii("X..O").unwrap(), Player::White)
        .unwrap();
    assert_round_trips(&p);
    p.setup(Board::from_ascii("X..O").unwrap(), Player::White)
        .unwrap();
    assert_round_trips(&p);
    p.set_to_move(Player::Black);
    assert_round_trips(&p);
    p.play(Move::Pass).unwrap();
    p.play(Move::Pass).unwrap();
    assert!(p.is_over());
    assert_round_trips(&p);
    // A setup after the game is over starts it again.
    p.setup(Board::from_ascii("X..O").unwrap(), Player::White)
        .unwrap();
    assert_round_trips(&p);
    // Simple ko keeps two boards; two final passes are written too.
    let mut s = Position::new(Size::new(2, 2).unwrap(), rules(KoRule::Simple, 0));
    for m in ["A1", "B2", "pass", "pass"] {
        s.play_text(m).unwrap();
    }
    assert_round_trips(&s);
    let mut t = Position::new(
        Size::new(2, 2).unwrap(),
        rules(KoRule::SituationalSuperko, 0),
    );
    t.play_text("A1").unwrap();
    t.set_to_move(Player::Black);
    t.play_text("B2").unwrap();
    assert_round_trips(&t);
}

#[test]
fn real_files_round_trip_through_the_writer() {
    for text in [GNUGO_PRINTSGF_3X3, GNUGO_HANDICAP_9X9, GNUGO_RECORD_5X5] {
        assert_round_trips(&read(text));
    }
}

// ---- properties: never a panic, and what is read round-trips ----

/// Valid files to mutate: moves, captures, passes, setup, variations, escapes.
const SEEDS: [&str; 6] = [
    GNUGO_PRINTSGF_3X3,
    GNUGO_RECORD_5X5,
    "(;GM[1]FF[4]SZ[4:1]KM[0.5];B[ca];W[ba];B[aa])",
    "(;SZ[3]AB[aa:bb]AW[cc];W[ca]C[x\\]y];B[]PL[B];AE[aa]\n(;B[ac];W[])(;W[ac]))",
    "(;SZ[2:3]KM[-1.5]PL[W];W[aa];B[bb];W[ab];B[ba];W[tt];AB[ac]PL[W];W[bc])",
    "(;SZ[3:1];AB[aa]AW[ca];B[ba];W[ca])",
];

/// Reads `bytes` under each ko rule; whatever is read must round-trip through the writer.
fn reads_or_refuses(bytes: &[u8]) {
    for ko in [PSK, KoRule::SituationalSuperko, KoRule::Simple] {
        if let Ok(p) = position_from_sgf_bytes(bytes, ko) {
            assert_round_trips(&p);
        }
    }
    if let Ok(text) = std::str::from_utf8(bytes)
        && let Ok(p) = position_from_sgf(text, PSK)
    {
        assert_round_trips(&p);
    }
}

#[derive(Clone, Debug)]
enum Mutation {
    Flip(usize, u8),
    Insert(usize, u8),
    Delete(usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let special = prop::sample::select(b"[]()\\;:\nABWEPLaxt".to_vec());
    prop_oneof![
        (any::<usize>(), any::<u8>()).prop_map(|(i, b)| Mutation::Flip(i, b)),
        (any::<usize>(), special).prop_map(|(i, b)| Mutation::Insert(i, b)),
        any::<usize>().prop_map(Mutation::Delete),
    ]
}

fn apply(seed: &str, mutations: &[Mutation]) -> Vec<u8> {
    let mut bytes = seed.as_bytes().to_vec();
    for m in mutations {
        let n = bytes.len();
        match *m {
            Mutation::Flip(i, b) if n > 0 => bytes[i % n] ^= b.max(1),
            Mutation::Insert(i, b) => bytes.insert(i % (n + 1), b),
            Mutation::Delete(i) if n > 0 => {
                bytes.remove(i % n);
            }
            _ => {}
        }
    }
    bytes
}

/// SGF-like text from tokens, mostly whole nodes, so that many samples are valid files.
fn token_soup() -> impl Strategy<Value = String> {
    let node = prop::sample::select(vec![
        ";B[aa]",
        ";W[ab]",
        ";B[bb]",
        ";W[ba]",
        ";B[]",
        ";W[tt]",
        ";B[cc]",
        ";W[cb]",
        ";AB[aa:bb]",
        ";AW[cc]",
        ";AE[aa]",
        ";PL[W]",
        ";AB[ca]PL[B]",
        ";KM[0.5]",
        ";C[x\\]]",
        ";HA[0]",
    ]);
    let other = prop::sample::select(vec![
        "(", ")", ";", "[", "]", "\\", "\n", "SZ[2]", "SZ[3:2]", "B[ac]", "W[aa]",
    ]);
    let token = prop_oneof![8 => node, 1 => other];
    prop::collection::vec(token, 0..40).prop_map(|t| format!("(;SZ[3]{}", t.concat()))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 192, ..ProptestConfig::default() })]

    #[test]
    fn random_bytes_are_read_or_refused(bytes in prop::collection::vec(any::<u8>(), 0..300)) {
        reads_or_refuses(&bytes);
    }

    #[test]
    fn mutated_files_are_read_or_refused(
        seed in 0..SEEDS.len(),
        mutations in prop::collection::vec(mutation(), 1..5),
    ) {
        reads_or_refuses(&apply(SEEDS[seed], &mutations));
    }

    #[test]
    fn token_soup_is_read_or_refused(text in token_soup()) {
        reads_or_refuses(text.as_bytes());
        reads_or_refuses(format!("{text})").as_bytes());
    }

    /// Random games with setups, side changes and passes, under each ko rule.
    #[test]
    fn written_positions_read_back(
        rows in 1u32..5, cols in 1u32..5, ko in 0usize..3, komi in -20i32..20,
        ops in prop::collection::vec((0u8..10, any::<u64>()), 0..40),
    ) {
        let ko = [PSK, KoRule::SituationalSuperko, KoRule::Simple][ko];
        let size = Size::new(rows, cols).unwrap();
        let mut p = Position::new(size, rules(ko, komi));
        for (op, r) in ops {
            match op {
                0 => {
                    let mut b = p.board().clone();
                    let q = size.point_at((r as usize) % size.points());
                    let stone = [None, Some(Player::Black), Some(Player::White)][(r >> 32) as usize % 3];
                    b.set(q, stone);
                    let side = if r >> 40 & 1 == 0 { Player::Black } else { Player::White };
                    let _ = p.setup(b, side);
                }
                1 => p.set_to_move(p.to_move().opponent()),
                _ => {
                    let moves = p.legal_moves();
                    if !moves.is_empty() {
                        p.play(moves[(r as usize) % moves.len()]).unwrap();
                    }
                }
            }
            assert_round_trips(&p);
        }
    }
}

#[test]
fn reading_stops_before_the_asked_move_number() {
    // GTP's `loadsgf FILE n`: the position before move n (moves counted 1, 2, 3 on the main
    // line); past the last move, the final position; 0 and 1, the start.
    let text = "(;GM[1]SZ[3]KM[0.5];B[bb];W[aa];B[cc])";
    let at = |n| {
        position_from_sgf_bytes_before(text.as_bytes(), PSK, n)
            .unwrap()
            .board()
            .to_ascii()
    };
    assert_eq!(at(0), ".../.../...");
    assert_eq!(at(1), ".../.../...");
    assert_eq!(at(2), ".../.X./...");
    assert_eq!(at(3), "O../.X./...");
    assert_eq!(at(4), "O../.X./..X");
    assert_eq!(at(99), at(4));
    let p = position_from_sgf_bytes_before(text.as_bytes(), PSK, 2).unwrap();
    assert_eq!(p.to_move(), Player::White);
    assert_eq!(p.rules().komi, Komi::from_half_points(1));
    // An illegal move after the stopping point is not read; one before it is refused.
    let bad = "(;GM[1]SZ[3];B[bb];W[bb])";
    assert!(position_from_sgf_bytes_before(bad.as_bytes(), PSK, 2).is_ok());
    assert!(position_from_sgf_bytes_before(bad.as_bytes(), PSK, 3).is_err());
}
