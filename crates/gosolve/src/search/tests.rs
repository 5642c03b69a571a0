use super::children::Generated;
use crate::table::NodeKey;
use std::time::Instant;

use super::node::root_state;
use super::question::{Query, Shared};
use super::worker::Worker;
use super::{Config, Solver};
use crate::board::Point;
use crate::board::{Bitboard, Board, Geometry, Move};
use crate::position::Line;
use crate::prior::{Prior, PriorKind};
use crate::table::bloom_bits;
use crate::transfer::{self, Attrs, NO_TARGET, PathView};
use games::Player;

fn children_of(solver: &mut Solver, line: &Line) -> Vec<Move> {
    // A komi at which the mover cannot win, so that no child (the pass) ends the search.
    let n = solver.geo.points() as i32;
    let k2 = if line.position.to_move == Player::Black {
        2 * n + 1
    } else {
        -2 * n - 1
    };
    let prior = Prior::new(PriorKind::Uniform, solver.geo.points(), k2);
    let shared = Shared::default();
    let q = Query {
        geo: &solver.geo,
        table: &solver.table,
        cfg: &solver.cfg,
        komi2: k2,
        prior: &prior,
        transfer: false,
        pruned_side: None,
        salt: 0,
        busy: None,
        shared: &shared,
        start: Instant::now(),
        threads: 1,
        asked: line.position.to_move,
        root_mover: line.position.to_move,
    };
    let p = &mut solver.paths[0];
    p.clear_line();
    for b in &line.boards {
        let h = b.hash(q.geo);
        p.push(*b, h, h);
    }
    let mut w = Worker {
        q: &q,
        p,
        thread: 0,
    };
    let st = root_state(q.geo, line);
    assert!(matches!(w.generate(&st, false), Generated::Open { .. }));
    w.p.children.iter().map(|c| c.mv).collect()
}

#[test]
fn siblings_merge_only_under_symmetries_of_the_whole_history() {
    let geo = Geometry::new(4, 4).unwrap();
    let mut solver = Solver::new(geo.clone(), 1, Config::reference());
    // Empty 4x4: 3 orbits of points (corner, edge, centre) and the pass.
    assert_eq!(children_of(&mut solver, &Line::new()).len(), 4);
    // After B2 and a White pass, only the transpose (the diagonal through B2) fixes every
    // board of the history.
    let mut line = Line::new();
    line.play(&geo, geo.parse_move("B2").unwrap()).unwrap();
    line.play(&geo, Move::PASS).unwrap();
    let n = children_of(&mut solver, &line).len();
    // 15 empty points, the diagonal (A1 C3 D4) fixed, the other 12 in pairs: 3 + 6 (the
    // pass would end the game with a loss here, so it is no child).
    assert_eq!(n, 3 + 6);
    // A board that is symmetric now but was not throughout the history: no merging.
    let b = |s: &str| Board::from_drawing(&geo, s).unwrap();
    let sym = b("..../..../..../X..X");
    let asym = b("..../..../..../X...");
    let l2 = Line::from_setup(sym, Player::White, &[Board::EMPTY, asym]);
    let l3 = Line::from_setup(sym, Player::White, &[Board::EMPTY]);
    let merged = children_of(&mut solver, &l3).len();
    let unmerged = children_of(&mut solver, &l2).len();
    assert_eq!(unmerged, 14 + 1);
    assert!(merged < unmerged);
}

fn board(geo: &Geometry, s: &str) -> Board {
    Board::from_drawing(geo, s).unwrap()
}

fn canon(geo: &Geometry, b: &Board) -> u64 {
    (0..geo.num_symmetries())
        .map(|s| b.sym_hash(geo, s))
        .min()
        .unwrap()
}

/// The attributes of a proof whose winner's boards are `boards`, with `territory`.
fn proof_of(geo: &Geometry, boards: &[Board], territory: Bitboard) -> Attrs {
    let mut a = Attrs::static_leaf(territory);
    for b in boards {
        a = a.add_board(b, canon(geo, b));
    }
    a
}

struct TestPath {
    boards: Vec<Board>,
    canon: Vec<u64>,
    count: Vec<u32>,
    ever: Vec<Board>,
}

impl TestPath {
    fn new(geo: &Geometry, boards: &[Board]) -> Self {
        let mut ever = Vec::new();
        let mut acc = Board::EMPTY;
        for b in boards {
            acc = Board {
                black: acc.black | b.black,
                white: acc.white | b.white,
            };
            ever.push(acc);
        }
        TestPath {
            boards: boards.to_vec(),
            canon: boards.iter().map(|b| canon(geo, b)).collect(),
            count: boards.iter().map(|b| b.occupied().count()).collect(),
            ever,
        }
    }

    fn ok(&self, geo: &Geometry, a: &Attrs, winner: Player, current: &Board) -> bool {
        let key = NodeKey {
            key: 0,
            pos2: 0,
            sig1: 0,
            sig2: 0,
            sym: 0,
        };
        let packed = transfer::pack(geo, a, key.sym, &self.boards);
        PathView {
            geo,
            boards: &self.boards,
            canon: &self.canon,
            count: &self.count,
            ever: &self.ever,
        }
        .transfer_ok(&packed, 0, winner, current)
    }
}

#[test]
fn a_won_node_adds_the_board_of_its_stone_move() {
    let geo = Geometry::new(3, 3).unwrap();
    let b1 = board(&geo, "X../.O./...");
    let b2 = board(&geo, "XX./.O./..O");
    let a = proof_of(&geo, &[b1, b2], Bitboard::EMPTY);
    assert_eq!(a.common_b, b1.black & b2.black);
    assert_eq!(a.common_w, b1.white & b2.white);
    assert_eq!(a.min_stones, 2);
    for b in [b1, b2] {
        let bits = bloom_bits(canon(&geo, &b));
        assert_eq!(a.bloom & bits, bits);
    }
    // A leaf has no boards: nothing can be one of its winner's boards.
    assert_eq!(Attrs::LEAF.bloom, 0);
    assert_eq!(Attrs::LEAF.min_stones, u32::MAX);
}

#[test]
fn a_lost_node_joins_its_children() {
    let geo = Geometry::new(3, 3).unwrap();
    let b1 = board(&geo, "X../.O./...");
    let b2 = board(&geo, ".X./.O./..O");
    let t1 = Bitboard::from_point(Point(0));
    let t2 = Bitboard::from_point(Point(8));
    let c1 = proof_of(&geo, &[b1], t1);
    let mut c2 = proof_of(&geo, &[b2], t2);
    c2.add_target(3, false);
    let mut lost = Attrs::LEAF;
    lost.add_target(5, false); // the node's own exclusion
    lost.join(&c1);
    lost.join(&c2);
    assert_eq!(lost.bloom, c1.bloom | c2.bloom);
    assert_eq!(lost.common_b, b1.black & b2.black);
    assert_eq!(lost.common_w, b1.white & b2.white);
    assert_eq!(lost.min_stones, 2);
    assert_eq!(lost.territory, t1 | t2);
    assert_eq!((lost.excl_min, lost.excl_many), (3, true));
    // One target, seen twice, stays one; targets on the node's own line are dropped.
    let mut one = Attrs::LEAF;
    one.add_target(4, false);
    one.add_target(4, false);
    assert_eq!((one.excl_min, one.excl_many), (4, false));
    assert_eq!(one.restrict(4).excl_min, NO_TARGET);
    assert_eq!(one.restrict(5).excl_min, 4);
}

#[test]
fn transfer_is_rejected_when_a_winners_board_is_in_the_new_history() {
    let geo = Geometry::new(3, 3).unwrap();
    let empty = Board::EMPTY;
    let b1 = board(&geo, "X../.O./...");
    let b2 = board(&geo, "XX./.O./...");
    let cur = board(&geo, "X../.O./..X");
    let proof = proof_of(&geo, &[b2], Bitboard::EMPTY);
    // b2 was created by the winner (Black) in the proof: a history holding it kills the
    // proof (the winning move would now be illegal).
    let bad = TestPath::new(&geo, &[empty, b1, b2, cur]);
    assert!(!bad.ok(&geo, &proof, Player::Black, &cur));
    // Its mirror image shares the canonical hash (the Bloom filter is frame-free) but is
    // a different board of this frame: the common-stone test tells them apart.
    let mirrored = geo.map_board(1, &b2);
    assert_ne!(mirrored, b2);
    let fine = TestPath::new(&geo, &[empty, b1, mirrored, cur]);
    assert!(fine.ok(&geo, &proof, Player::Black, &cur));
    // Without it the proof transfers.
    let good = TestPath::new(&geo, &[empty, b1, cur]);
    assert!(good.ok(&geo, &proof, Player::Black, &cur));
}

#[test]
fn transfer_is_accepted_when_only_a_losers_board_repeats() {
    let geo = Geometry::new(3, 3).unwrap();
    let empty = Board::EMPTY;
    // Black (the winner) created w1 and w2 in the proof; White's board l is on the new
    // history: White merely loses an option there.
    let w1 = board(&geo, "XX./.OO/...");
    let w2 = board(&geo, "XXX/.OO/...");
    let l = board(&geo, "X../.OO/...");
    let cur = board(&geo, "X../.O./...");
    let proof = proof_of(&geo, &[w1, w2], Bitboard::EMPTY);
    let path = TestPath::new(&geo, &[empty, l, cur]);
    assert!(path.ok(&geo, &proof, Player::Black, &cur));
}

#[test]
fn transfer_is_rejected_when_a_winners_stone_was_captured_on_its_territory() {
    let geo = Geometry::new(3, 3).unwrap();
    let empty = Board::EMPTY;
    let territory = board(&geo, "..X/.../...").black; // the point C3
    let proof = proof_of(&geo, &[], territory);
    let cur = board(&geo, "X.O/.../...");
    // Black once stood on C3 and was captured there: Lemma 1's (C1) fails on this path.
    let captured = TestPath::new(&geo, &[empty, board(&geo, "X.X/.../..."), cur]);
    assert!(!captured.ok(&geo, &proof, Player::Black, &cur));
    // A White stone there before is no obstacle to a Black proof.
    let other = TestPath::new(&geo, &[empty, board(&geo, "..O/.../..."), cur]);
    assert!(other.ok(&geo, &proof, Player::Black, &cur));
    // Proofs with an exclusion target never transfer.
    let mut targeted = proof;
    targeted.add_target(0, false);
    assert!(!other.ok(&geo, &targeted, Player::Black, &cur));
}

/// Region games decide positions whose regions have points out of the walls' reach: Black's
/// stones and their neighbours need not cover the board (that bound is Lemma 1's, not the
/// region games'). Black's thirteen walls with a 3x3 region (B1–D3) whose centre C2 touches
/// no Black stone, White to move at komi 24.5: every White move leads to a region leaf.
#[test]
fn region_games_decide_regions_beyond_the_walls_reach() {
    let geo = Geometry::new(5, 5).unwrap();
    let mut line = Line::new();
    let walls = [
        "B5", "D5", "A4", "B4", "C4", "D4", "E4", "A3", "E3", "A2", "E2", "A1", "E1",
    ];
    for (i, p) in walls.iter().enumerate() {
        if i > 0 {
            line.play(&geo, Move::PASS).unwrap();
        }
        line.play(&geo, geo.parse_move(p).unwrap()).unwrap();
    }
    let solve = |regions: bool| {
        let cfg = Config {
            regions,
            ..Config::reference()
        };
        let mut solver = Solver::new(geo.clone(), 16, cfg);
        let p = solver.prove(&line, Player::Black, games::go::Komi::from_half_points(49));
        (p, solver.knowledge_stats().region_leaves)
    };
    let (with, leaves) = solve(true);
    let (without, _) = solve(false);
    assert_eq!(with.answer, super::Answer::Proven);
    assert_eq!(without.answer, super::Answer::Proven);
    assert!(leaves >= 1);
    assert!(
        with.expansions <= 3 && with.expansions < without.expansions,
        "{} expansions with region games, {} without",
        with.expansions,
        without.expansions
    );
}
