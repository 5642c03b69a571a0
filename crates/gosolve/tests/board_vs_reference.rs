//! The fast bitboard board against the reference board `games::go`, move by move on seeded
//! random games: legal moves (superko included), captures (the whole board), area score,
//! game end, and hashes (incremental = from scratch, per symmetry; exact keys up to 30 points).

use games::Player;
use games::go::{self, KoRule, Rules};
use gosolve::bitboard::reference;
use gosolve::bitboard::{Bitboard, Board, Geometry, Line, Move, Point};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::collections::HashMap;

const SIZES: &[(u32, u32)] = &[
    (1, 1),
    (1, 2),
    (1, 5),
    (1, 9),
    (2, 2),
    (2, 5),
    (3, 3),
    (3, 4),
    (4, 1),
    (4, 4),
    (3, 7),
    (5, 5),
    (5, 6),
    (4, 8),
    (7, 9),
    (8, 8),
];

/// Hashes of `s(board)` for every symmetry, maintained incrementally.
fn sym_hashes(geo: &Geometry, b: &Board) -> Vec<(u64, u64)> {
    (0..geo.num_symmetries())
        .map(|s| (b.sym_hash(geo, s), b.sym_hash2(geo, s)))
        .collect()
}

fn play_random_games(rows: u32, cols: u32, seed: u64, games: usize) -> u64 {
    let size = go::Size::new(rows, cols).unwrap();
    let rules = Rules {
        ko: KoRule::PositionalSuperko,
        komi: go::Komi::from_half_points(1),
    };
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut plies = 0;
    for g in 0..games {
        let mut refpos = go::Position::new(size, rules);
        let (geo, mut line) = reference::line(&refpos).unwrap();
        let mut inc = sym_hashes(&geo, &line.position.board);
        // Position keys seen in this game (exact up to 30 points).
        let mut seen: HashMap<u64, gosolve::bitboard::Position> = HashMap::new();
        let max = 6 * geo.points() + 20;
        for ply in 0..max {
            let ctx = format!("{rows}x{cols} seed {seed} game {g} ply {ply}");
            line.position.board.check_invariants(&geo);
            // Same board, side, pass state, end.
            let (_, conv) = reference::line(&refpos).unwrap();
            assert_eq!(conv.position, line.position, "{ctx}: positions differ");
            assert_eq!(conv.over, line.over, "{ctx}: game end differs");
            let mut a = conv.boards.clone();
            let mut b = line.boards.clone();
            a.sort();
            b.sort();
            assert_eq!(a, b, "{ctx}: board sets differ");
            // Score.
            assert_eq!(
                refpos.score().margin(),
                line.score(&geo),
                "{ctx}: score differs"
            );
            // Hashes.
            assert_eq!(
                inc,
                sym_hashes(&geo, &line.position.board),
                "{ctx}: incremental hash"
            );
            if geo.points() <= 30 {
                let k = line.position.hash(&geo);
                if let Some(prev) = seen.insert(k, line.position) {
                    assert_eq!(prev, line.position, "{ctx}: two positions share a key");
                }
            }
            // Legal moves.
            let fast: Vec<Move> = line.legal_moves(&geo);
            let slow: Vec<Move> = refpos
                .legal_moves()
                .into_iter()
                .map(|m| reference::to_fast(&geo, m))
                .collect();
            let mut fs = fast.clone();
            let mut ss = slow.clone();
            fs.sort();
            ss.sort();
            assert_eq!(fs, ss, "{ctx}: legal moves differ");
            if fast.is_empty() {
                break;
            }
            // Every illegal stone move is illegal for the same reason class.
            for p in 0..geo.points() {
                let m = Move::play(Point(p as u8));
                let rm = reference::to_reference(&geo, m);
                assert_eq!(
                    line.is_legal(&geo, m),
                    refpos.is_legal(rm),
                    "{ctx}: legality of {m:?}"
                );
            }
            // Prefer stone moves so games get long and captures and superko happen.
            let m = if rng.random_bool(0.08) || fast.len() == 1 {
                Move::PASS
            } else {
                fast[rng.random_range(0..fast.len() - 1)]
            };
            if let Some(p) = m.point() {
                let placed = line
                    .position
                    .board
                    .place(&geo, line.position.to_move, p)
                    .unwrap();
                let expected_captures = line
                    .position
                    .board
                    .stones(line.position.to_move.opponent())
                    .minus(placed.board.stones(line.position.to_move.opponent()));
                assert_eq!(placed.captured, expected_captures, "{ctx}: capture set");
                for (s, h) in inc.iter_mut().enumerate() {
                    let (da, db) = geo.hash_delta(s, line.position.to_move, p, placed.captured);
                    h.0 ^= da;
                    h.1 ^= db;
                }
            }
            line.play(&geo, m).unwrap();
            refpos.play(reference::to_reference(&geo, m)).unwrap();
            plies += 1;
        }
    }
    plies
}

#[test]
fn fast_board_matches_reference_on_random_games() {
    let mut total = 0;
    for (i, &(r, c)) in SIZES.iter().enumerate() {
        let games = if r * c <= 16 { 60 } else { 12 };
        total += play_random_games(r, c, 1000 + i as u64, games);
    }
    assert!(total > 10_000, "games too short: {total} plies");
}

#[test]
fn capture_makes_apparent_suicide_legal() {
    let geo = Geometry::new(3, 3).unwrap();
    // White at A1 would be surrounded, but it captures the black stone at B1... here Black
    // plays into a point with no liberties that captures the white chain.
    let b = Board::from_drawing(&geo, ".../OX./.OX").unwrap();
    let line = Line::from_setup(b, Player::Black, &[]);
    let a1 = geo.parse_move("A1").unwrap();
    assert!(line.is_legal(&geo, a1));
    let placed = b.place(&geo, Player::Black, geo.point(0, 0)).unwrap();
    assert_eq!(
        placed.captured,
        Bitboard::from_point(geo.point(0, 1)) | Bitboard::EMPTY
    );
}

#[test]
fn suicide_is_illegal_and_score_counts_territory() {
    let geo = Geometry::new(3, 3).unwrap();
    let b = Board::from_drawing(&geo, ".X./X.X/.X.").unwrap();
    assert_eq!(
        b.place(&geo, Player::White, geo.point(1, 1)),
        None,
        "suicide"
    );
    assert_eq!(b.area_score(&geo), 9);
    let seki = Board::from_drawing(&geo, "XO./XO./XO.").unwrap();
    assert_eq!(seki.area_score(&geo), 3 - 6);
    let neutral = Board::from_drawing(&geo, "X.O/X.O/X.O").unwrap();
    assert_eq!(neutral.area_score(&geo), 0);
}
