//! Regression tests of the checker audit (issue 37): each finding has its test here.
//!
//! - the verdict names the root exactly (side to move, passes, a finished game as such, the
//!   earlier boards or their digest);
//! - komi has one spelling;
//! - the walk is iterative: a line of thousands of plies is checked on a 256 KiB thread;
//! - what the parser reads is bounded (line length, nodes, references, stored sets), with a
//!   one-line error, and an endless input ends with an error;
//! - messages name the real line: a byte-order mark, CR-only line ends, a wrong `all k`.

use check::{CheckError, Limits, check_reader, check_text, parse};

/// The 1x1 proof of the crate docs (White wins at komi 0.5), with a given header.
fn one_by_one(komi: &str, start: &str) -> String {
    format!(
        "tsumi-certificate 1\nsize 1x1\nkomi {komi}\nwinner white\n{start}\n\
         - . b0 all 1\npass . w1 win\npass . b2 end\nend 3\n"
    )
}

fn parse_error(text: &str) -> String {
    match check_text(text) {
        Err(CheckError::Parse(e)) => e.to_string(),
        other => panic!("not a parse error: {other:?}"),
    }
}

#[test]
fn a_finished_game_and_the_same_board_to_move_print_different_verdicts() {
    let to_move = check_text(&one_by_one("0.5", "start setup . b0")).unwrap();
    let finished = check_text(
        "tsumi-certificate 1\nsize 1x1\nkomi 0.5\nwinner white\nstart setup . b2\n\
         - . b2 end\nend 1\n",
    )
    .unwrap();
    assert_eq!(
        to_move.to_string(),
        "valid: white wins at komi 0.5 from 1x1 setup ., black to move, no earlier boards"
    );
    assert_eq!(
        finished.to_string(),
        "valid: white wins at komi 0.5 from the finished 1x1 game at setup . after two passes, no earlier boards"
    );
    let after_pass = check_text(
        "tsumi-certificate 1\nsize 1x1\nkomi 0.5\nwinner white\nstart setup . w1\n\
         - . w1 win\npass . b2 end\nend 2\n",
    )
    .unwrap();
    assert_eq!(
        after_pass.position,
        "1x1 setup ., white to move after a pass, no earlier boards"
    );
    // From moves: the passes are named, and so is the side to move.
    let v = check_text(
        "tsumi-certificate 1\nsize 1x1\nkomi 0.5\nwinner white\nstart moves pass pass\n\
         - . b2 end\nend 1\n",
    )
    .unwrap();
    assert_eq!(v.position, "the finished 1x1 game after pass pass");
    let v = check_text(&one_by_one("0.5", "start moves")).unwrap();
    assert_eq!(v.position, "the empty 1x1 board");
}

/// A finished 1x4 game (Black owns the board: margin 4) with the given earlier boards.
fn finished_1x4(earlier: &[&str]) -> String {
    let mut s = String::from("tsumi-certificate 1\nsize 1x4\nkomi 3.5\nwinner black\n");
    s.push_str("start setup X... b2\n");
    for e in earlier {
        s.push_str(&format!("earlier {e}\n"));
    }
    s.push_str("- X... b2 end\nend 1\n");
    s
}

#[test]
fn setups_with_other_earlier_boards_print_other_verdicts() {
    let a = check_text(&finished_1x4(&["...."])).unwrap();
    let b = check_text(&finished_1x4(&[".X.."])).unwrap();
    assert_eq!(
        a.position,
        "the finished 1x4 game at setup X... after two passes, earlier boards ...."
    );
    assert_ne!(a.position, b.position);
    // More than three boards: counted, with a digest of the set (order and repeats aside).
    let many = ["....", ".X..", "..X.", "...X", "O..."];
    let c = check_text(&finished_1x4(&many)).unwrap();
    let mut shuffled = many;
    shuffled.reverse();
    let mut repeated = shuffled.to_vec();
    repeated.push("....");
    let d = check_text(&finished_1x4(&repeated)).unwrap();
    assert_eq!(c.position, d.position);
    assert!(
        c.position.contains("5 earlier boards (digest "),
        "{}",
        c.position
    );
    let e = check_text(&finished_1x4(&["....", ".X..", "..X.", "...X", ".O.."])).unwrap();
    assert_ne!(c.position, e.position);
    // The digest is the documented FNV-1a over the sorted drawings.
    let geo = check::Geometry::new(1, 4).unwrap();
    let boards: Vec<check::Board> = many.iter().map(|t| geo.parse_board(t).unwrap()).collect();
    let root = geo.parse_board("X...").unwrap();
    let mut fnv: u64 = 0xcbf2_9ce4_8422_2325;
    let mut sorted = many.to_vec();
    sorted.sort_unstable();
    for b in sorted.iter().flat_map(|t| t.bytes().chain(*b"\n")) {
        fnv = (fnv ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
    }
    assert_eq!(check::history_digest(&geo, &root, &boards), fnv);
    assert!(c.position.contains(&format!("{fnv:016x}")));
}

#[test]
fn komi_has_one_spelling() {
    for (text, half_points) in [("0.5", 1), ("-0.5", -1), ("19.5", 39), ("-8.5", -17)] {
        let cert = parse(&one_by_one(text, "start moves")).unwrap();
        assert_eq!(cert.komi2, half_points, "{text}");
    }
    for bad in [
        "--8.5",
        "+7.5",
        "+K",
        "K",
        "0.50",
        "00.5",
        "07.5",
        "7",
        "7.0",
        "-7",
        ".5",
        "-.5",
        "1.",
        "1.5e0",
        "1,5",
        "0x1.5",
        "-",
        "",
        "99999999999.5",
        "2147483647.5",
        "- 0.5",
    ] {
        let text = one_by_one(bad, "start moves");
        let e = parse_error(&text);
        assert!(e.contains("line 3: ") && e.contains("komi"), "{bad:?}: {e}");
    }
}

#[test]
fn numbers_sizes_and_points_have_one_spelling() {
    let base = one_by_one("0.5", "start moves");
    for (from, to) in [
        ("size 1x1", "size +1x1"),
        ("size 1x1", "size 01x1"),
        ("all 1", "all +1"),
        ("all 1", "all 01"),
        ("end 3", "end +3"),
        ("end 3", "end 03"),
    ] {
        let e = parse_error(&base.replacen(from, to, 1));
        assert!(e.starts_with("line "), "{to}: {e}");
    }
    let geo = check::Geometry::new(3, 3).unwrap();
    assert_eq!(geo.parse_point("c3"), Some(8));
    for bad in ["A+1", "A01", "A0", "A", "A1 ", "J1", "I1", "A4"] {
        assert_eq!(geo.parse_point(bad), None, "{bad}");
    }
}

#[test]
fn messages_name_the_real_line() {
    let base = one_by_one("0.5", "start moves");
    let e = parse_error(&format!("\u{feff}{base}"));
    assert!(
        e.contains("line 1: ") && e.contains("byte-order mark"),
        "{e}"
    );
    let e = parse_error(&base.replace('\n', "\r"));
    assert!(
        e.contains("line 1: ") && e.contains("carriage return"),
        "{e}"
    );
    // CR LF is a line end.
    assert!(check_text(&base.replace('\n', "\r\n")).is_ok());
    let e = parse_error(&base.replacen("size 1x1", "size 1x\u{e9}", 1));
    assert!(e.contains("line 2: byte 0xc3"), "{e}");
    let e = parse_error("");
    assert!(e.contains("the file is empty"), "{e}");
}

/// The 3x3 certificate with the `all k` count of one loser node off by `delta`: the error
/// names that node, or the misplaced child right after it, never the root.
#[test]
fn a_wrong_child_count_is_blamed_on_its_node() {
    let text = include_str!("../../../data/cert/3x3-black-8.5.cert");
    let cert = parse(text).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let mut tried = 0;
    for (i, n) in cert.nodes.iter().enumerate() {
        let check::format::Kind::All(k) = n.kind else {
            continue;
        };
        if i == 0 || k < 2 {
            continue;
        }
        for delta in [1i64, -1] {
            let mut v: Vec<String> = lines.iter().map(|s| s.to_string()).collect();
            let l = n.line - 1;
            v[l] = v[l].replace(&format!(" all {k}"), &format!(" all {}", k as i64 + delta));
            let e = parse_error(&(v.join("\n") + "\n"));
            // The misplaced node states the same side as its parent, right after the subtree
            // of the miscounted node; the message names the miscounted node's line.
            // After a pass the same board and side recur two plies down: a child of either
            // node follows from both, and the blame may fall on the copy.
            let same = |j: usize| {
                let m = &cert.nodes[j];
                (m.board, m.to_move) == (n.board, n.to_move)
            };
            let blamed = (0..cert.nodes.len())
                .find(|&j| e.contains(&format!("the child count of node {j} is")))
                .unwrap_or_else(|| panic!("all {k}{delta:+} at line {}: {e}", n.line));
            assert!(
                blamed == i || same(blamed),
                "all {k}{delta:+} at line {}: {e}",
                n.line
            );
            tried += 1;
        }
        if tried >= 20 {
            break;
        }
    }
    assert!(tried >= 10, "{tried}");
}

#[test]
fn bounds_on_what_is_read_end_with_one_line_errors() {
    // An endless input without line ends (like /dev/zero) ends at the line bound.
    let limits = Limits {
        max_line_bytes: 4096,
        ..Limits::default()
    };
    let e = check_reader(std::io::BufReader::new(std::io::repeat(0)), limits).unwrap_err();
    assert_eq!(
        e.to_string(),
        "unreadable certificate: line 1: the line is longer than 4096 bytes (a certificate's lines are short)"
    );
    let e = check_reader(std::io::BufReader::new(std::io::repeat(b'x')), limits).unwrap_err();
    assert!(e.to_string().contains("longer than 4096"), "{e}");
    // Nodes.
    let text = include_str!("../../../data/cert/3x4-black-3.5.cert");
    let few = Limits {
        max_nodes: 100,
        ..Limits::default()
    };
    let e = check_reader(text.as_bytes(), few).unwrap_err().to_string();
    let line_101 = 5 + 101; // header of 5 lines, then node 100 is the 101st node line
    assert_eq!(
        e,
        format!(
            "unreadable certificate: line {line_101}: more than 100 node lines (the bound on what the checker reads)"
        )
    );
    // The sets kept for references.
    let small = Limits {
        max_stored_boards: 10,
        ..Limits::default()
    };
    match check_reader(text.as_bytes(), small) {
        Err(CheckError::Limit(m)) => assert!(m.contains("more than 10 boards"), "{m}"),
        other => panic!("{other:?}"),
    }
    assert!(check_reader(text.as_bytes(), Limits::default()).is_ok());
    // References only backwards, counts only as large as a position's moves.
    let base = one_by_one("0.5", "start moves");
    let e = parse_error(&base.replacen("pass . b2 end", "pass . b2 ref 7", 1));
    assert!(e.contains("line 8: node 2 refers to node 7"), "{e}");
    let e = parse_error(&base.replacen("all 1", "all 4294967295", 1));
    assert!(e.contains("line 6: 'all 4294967295'"), "{e}");
    let e = parse_error(&base.replacen("all 1", "all 99999999999", 1));
    assert!(e.contains("line 6: bad number"), "{e}");
}

/// splitmix64: a seeded generator for the tests (no dependency).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// A random game of at least `plies` moves on `geo` under positional superko (stone moves
/// chosen at random among those making a new board, a pass only when none does), ended by
/// two passes; the moves (`None` a pass) and the boards after each.
fn long_game(
    geo: &check::Geometry,
    plies: usize,
    seed: u64,
) -> (Vec<Option<usize>>, Vec<check::Board>) {
    use check::{Board, Color};
    let mut rng = Rng(seed);
    let mut seen = std::collections::HashSet::new();
    let mut board = Board::EMPTY;
    seen.insert(board);
    let mut color = Color::Black;
    let (mut moves, mut boards) = (Vec::new(), Vec::new());
    while moves.len() < plies {
        let options: Vec<(usize, Board)> = (0..geo.points())
            .filter_map(|p| geo.play(&board, color, p).ok().map(|b| (p, b)))
            .filter(|(_, b)| !seen.contains(b))
            .collect();
        if options.is_empty() {
            if moves.last() == Some(&None) {
                break; // the game would end: a shorter line than asked for
            }
            moves.push(None);
        } else {
            let (p, b) = options[rng.below(options.len())];
            board = b;
            seen.insert(b);
            moves.push(Some(p));
        }
        boards.push(board);
        color = color.other();
    }
    (moves, boards)
}

/// A certificate whose first line is `game` then two passes: Black (the winner) plays the
/// game's moves; at White's nodes the game's move is the first child and every other move
/// (each point and the pass) follows as a stub `end` leaf, so the loser's children are
/// complete. With `komi2` Black wins the final position or not.
fn deep_certificate(
    geo: &check::Geometry,
    game: &[Option<usize>],
    boards: &[check::Board],
    komi2: i32,
) -> (String, u32) {
    use check::{Board, Color};
    let komi = check::format::komi_text(komi2);
    let mut head = format!(
        "tsumi-certificate 1\nsize {geo}\nkomi {komi}\nwinner black\nstart moves\n- {} b0 win\n",
        geo.draw(&Board::EMPTY)
    );
    let mut all: Vec<Option<usize>> = game.to_vec();
    all.extend([None, None]);
    let last_board = *boards.last().unwrap();
    let mut states: Vec<(Board, u8)> = Vec::new();
    let mut passes = 0u8;
    for (i, m) in all.iter().enumerate() {
        passes = if m.is_some() { 0 } else { passes + 1 };
        let b = boards.get(i).copied().unwrap_or(last_board);
        states.push((b, passes));
    }
    // After the two final passes the side to move is the one after all moves.
    let mut stubs: Vec<String> = Vec::new();
    let mut stub_of_deepest = None;
    let mut id = 1u32;
    for (i, m) in all.iter().enumerate() {
        let mover = if i % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        let to_move = mover.other();
        let (b, passes) = states[i];
        let name = m.map_or("pass".to_string(), |p| geo.point_name(p));
        let side = if to_move == Color::Black { 'b' } else { 'w' };
        let kind = if passes == 2 {
            "end".to_string()
        } else if to_move == Color::Black {
            "win".to_string()
        } else {
            format!("all {}", geo.points() + 1)
        };
        head.push_str(&format!("{name} {} {side}{passes} {kind}\n", geo.draw(&b)));
        id += 1;
        if kind.starts_with("all") {
            // The stubs of this node come after the whole line, deepest node first.
            let next = all.get(i + 1).copied().flatten();
            let mut mine = Vec::new();
            for s in std::iter::once(None).chain((0..geo.points()).map(Some)) {
                if next.is_none() && all.get(i + 1).is_some() && s.is_none() {
                    continue; // the line's own pass
                }
                if s.is_some() && s == next {
                    continue;
                }
                let sname = s.map_or("pass".to_string(), |p| geo.point_name(p));
                mine.push(format!("{sname} {} b0 end", geo.draw(&b)));
            }
            stubs.push(mine.join("\n"));
        }
    }
    let line_nodes = id;
    stubs.reverse();
    if !stubs.is_empty() {
        stub_of_deepest = Some(line_nodes);
    }
    let body = stubs.join("\n");
    let count = line_nodes as usize + body.lines().count();
    (
        format!("{head}{body}\nend {count}\n"),
        stub_of_deepest.unwrap(),
    )
}

#[test]
fn a_line_of_thousands_of_plies_is_checked_on_a_256_kib_stack() {
    // Seed 1 plays 5,429 plies on 6x6 before both sides run out of new boards.
    let geo = check::Geometry::new(6, 6).unwrap();
    let (game, boards) = long_game(&geo, 3000, 1);
    assert!(
        game.len() >= 3000,
        "a random 6x6 game of {} plies",
        game.len()
    );
    let last = *boards.last().unwrap();
    let score = geo.area_score(&last);
    let plies = game.len() + 2;
    let run = move || {
        // Black loses the final position: the walk reaches the end of the line and fails there.
        let (text, _) = deep_certificate(&geo, &game, &boards, 2 * score + 1);
        let f = match check_text(&text) {
            Err(CheckError::Invalid(f)) => f,
            other => panic!("{other:?}"),
        };
        assert_eq!(f.path.len(), plies, "{f}");
        assert!(f.reason.contains("a loss for black"), "{f}");
        // Black wins it: the walk leaves the whole line and fails at the first stub.
        let (text, stub) = deep_certificate(&geo, &game, &boards, 2 * score - 1);
        let f = match check_text(&text) {
            Err(CheckError::Invalid(f)) => f,
            other => panic!("{other:?}"),
        };
        assert_eq!(f.node, stub, "{f}");
        assert!(f.path.len() + 3 >= plies, "{}", f.path.len());
        plies
    };
    let checked = std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(run)
        .unwrap()
        .join()
        .expect("the walk fits a 256 KiB stack");
    eprintln!("a line of {checked} plies checked on a 256 KiB thread");
}

/// The rules pass on several threads gives the same verdicts and the same first failures as
/// on one, for valid certificates and for mutations of them.
#[test]
fn threads_do_not_change_what_is_found() {
    let text = include_str!("../../../data/cert/3x4-black-3.5.cert");
    let with = |t: &str, threads: usize| {
        check_reader(
            t.as_bytes(),
            Limits {
                threads,
                ..Limits::default()
            },
        )
    };
    assert_eq!(with(text, 1), with(text, 3));
    let lines: Vec<&str> = text.lines().collect();
    let mut rng = Rng(7);
    let mut differ = 0;
    for _ in 0..40 {
        let mut v: Vec<String> = lines.iter().map(|s| s.to_string()).collect();
        let i = 5 + rng.below(v.len() - 6);
        let mut b = v[i].clone().into_bytes();
        let j = rng.below(b.len());
        b[j] = b"XO.AB12#"[rng.below(8)];
        v[i] = String::from_utf8(b).unwrap();
        let t = v.join("\n") + "\n";
        let one = with(&t, 1);
        assert_eq!(one, with(&t, 3), "line {}", i + 1);
        differ += usize::from(one.is_err());
    }
    assert!(differ > 20, "{differ}");
}
