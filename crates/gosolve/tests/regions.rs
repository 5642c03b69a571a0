//! Soundness of the local region games against the brute-force oracle.
//!
//! Whenever [`RegionSolver::black_wins_regions`] answers `Some` on a position whose history
//! satisfies (C1) (no earlier board had a Black stone on a region point) and (C2) (with White
//! to move, the last move was not a Black pass), the oracle's exact value must be +N: Black
//! owns every point. Positions come from two sources: Black walls with random fillings and
//! a short setup history, followed by a few random moves; and random games on the reference
//! board. X* is computed here by an independent pure-eye analysis, checked against
//! [`pure_eyes`] on every position.

use games::Player;
use games::go::Komi;
use games::go::{self, KoRule, Rules};
use gosolve::bitboard::reference;
use gosolve::bitboard::{Bitboard, Board, Geometry};
use gosolve::eyes::{PureEyes, pure_eyes};
use gosolve::oracle::Oracle;
use gosolve::regions::RegionSolver;
use gosolve::{Config, Solver};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

fn rules() -> Rules {
    Rules {
        ko: KoRule::PositionalSuperko,
        komi: go::Komi::from_half_points(1),
    }
}

/// The connected components of `set`.
fn components(geo: &Geometry, set: Bitboard) -> Vec<Bitboard> {
    let mut out = Vec::new();
    let mut rest = set;
    while let Some(p) = rest.lowest() {
        let c = geo.flood(Bitboard::from_point(p), set);
        rest = rest.minus(c);
        out.push(c);
    }
    out
}

/// Black's pure-eye analysis, written from the paper's definitions (Section 4): X* is the
/// largest set of Black chains each with two pure eyes bordered only by X* chains; T* the
/// regions bordered only by X* whose every point touches X*.
fn x_star(geo: &Geometry, board: &Board) -> PureEyes {
    let black = board.black;
    let regions = components(geo, geo.full().minus(black));
    let chains = components(geo, black);
    let mut alive = vec![true; chains.len()];
    loop {
        let stones = chains
            .iter()
            .zip(&alive)
            .filter(|(_, a)| **a)
            .fold(Bitboard::EMPTY, |acc, (c, _)| acc | *c);
        let mut changed = false;
        for (i, &k) in chains.iter().enumerate() {
            if !alive[i] {
                continue;
            }
            let eyes = regions
                .iter()
                .filter(|&&r| {
                    r.minus(geo.neighbours(k)).is_empty()
                        && (geo.neighbours(r) & black).minus(stones).is_empty()
                })
                .count();
            if eyes < 2 {
                alive[i] = false;
                changed = true;
            }
        }
        if !changed {
            let territory = regions
                .iter()
                .filter(|&&r| {
                    !stones.is_empty()
                        && (geo.neighbours(r) & black).minus(stones).is_empty()
                        && r.minus(geo.neighbours(stones)).is_empty()
                })
                .fold(Bitboard::EMPTY, |acc, r| acc | *r);
            return PureEyes {
                alive: stones,
                territory,
            };
        }
    }
}

/// Removes chains without liberties until the board is legal.
fn legalise(geo: &Geometry, mut b: Board) -> Board {
    loop {
        let empty = b.empty(geo);
        let mut dead = Bitboard::EMPTY;
        for stones in [b.black, b.white] {
            for c in components(geo, stones) {
                if (geo.neighbours(c) & empty).is_empty() {
                    dead |= c;
                }
            }
        }
        if dead.is_empty() {
            return b;
        }
        // Remove one dead chain at a time (the lowest), as captures would.
        let c = components(geo, dead)[0];
        b.black = b.black.minus(c);
        b.white = b.white.minus(c);
    }
}

fn to_reference(geo: &Geometry, b: &Board) -> go::Board {
    let mut text = String::new();
    for r in (0..geo.rows()).rev() {
        for c in 0..geo.cols() {
            text.push(match b.at(geo.point(r, c)) {
                Some(Player::Black) => 'X',
                Some(Player::White) => 'O',
                None => '.',
            });
        }
        text.push('\n');
    }
    go::Board::from_ascii(&text).unwrap()
}

#[derive(Default, Debug)]
struct Tally {
    candidates: u64,
    some: u64,
    checked: u64,
    /// Checked cases where at least one region needed its local game (not only T*).
    local_games: u64,
    /// Checked cases with loose Black stones (Black chains outside X*) in a region.
    loose: u64,
    black_to_move: u64,
    skipped_c1: u64,
    skipped_c2: u64,
    skipped_budget: u64,
}

/// What a claimed win is checked against.
#[derive(Clone, Copy)]
enum Reference {
    /// The brute-force oracle with this node budget.
    Oracle(u64),
    /// Oracle-mode df-pn (no transfer, no static knowledge) with this expansion budget.
    Dfpn(u64),
}

/// Checks one position: if the regions are claimed and (C1), (C2) hold, the oracle must
/// give Black every point.
fn check(
    pos: &go::Position,
    solver: &mut RegionSolver,
    reference: Reference,
    t: &mut Tally,
    ctx: &str,
) {
    if pos.is_over() {
        return;
    }
    t.candidates += 1;
    let (geo, _) = reference::line(pos).unwrap();
    let board = reference::board(&geo, pos.board());
    let eyes = x_star(&geo, &board);
    assert_eq!(
        eyes,
        pure_eyes(&geo, &board, Player::Black),
        "{ctx}: the two pure-eye analyses differ\n{}",
        board.drawing(&geo)
    );
    let games_before = solver.stats().games_solved;

    let Some(regions) = solver.black_wins_regions(&geo, &board, &eyes) else {
        return;
    };
    let local_game = solver.stats().games_solved > games_before;
    t.some += 1;
    assert_eq!(regions, geo.full().minus(board.black));
    let c1 = pos
        .history()
        .positions()
        .all(|(b, _)| (reference::board(&geo, b).black & regions).is_empty());
    if !c1 {
        t.skipped_c1 += 1;
        return;
    }
    if pos.to_move() == Player::White && pos.passes() == 1 {
        t.skipped_c2 += 1;
        return;
    }
    let t0 = std::time::Instant::now();
    let result = match reference {
        Reference::Oracle(budget) => {
            let mut oracle = Oracle::new().with_max_nodes(budget);
            oracle.value(pos).ok()
        }
        Reference::Dfpn(max_expansions) => {
            // Black owns every point iff Black wins at komi N − ½ (no score exceeds N).
            let (g, line) = reference::line(pos).unwrap();
            let n2 = 2 * g.points() as i32;
            let cfg = Config {
                limits: gosolve::Limits {
                    max_expansions,
                    ..gosolve::Limits::default()
                },
                ..Config::reference()
            }
            .oracle_mode();
            let mut s = Solver::new(g, 16, cfg);
            match s
                .prove(&line, Player::Black, Komi::from_half_points(n2 - 1))
                .proven_winner()
            {
                Some(Player::Black) => Some(n2 / 2),
                Some(Player::White) => Some(n2 / 2 - 1),
                None => None,
            }
        }
    };
    if std::env::var("REGIONS_TRACE").is_ok() {
        eprintln!(
            "{ctx}: {result:?} {:.3}s\n{}",
            t0.elapsed().as_secs_f64(),
            board.drawing(&geo)
        );
    }
    let Some(value) = result else {
        t.skipped_budget += 1;
        return;
    };
    let n = geo.points() as i32;
    assert_eq!(
        value,
        n,
        "{ctx}: regions claimed but the reference says {value} (at least), {} to move, passes {}\n{}",
        pos.to_move(),
        pos.passes(),
        board.drawing(&geo)
    );
    t.checked += 1;
    t.local_games += u64::from(local_game);
    t.loose += u64::from(eyes.alive != board.black);
    if pos.to_move() == Player::Black {
        t.black_to_move += 1;
    }
}

/// A random board with a Black share `pb` and White share `pw` of the points, made legal.
fn random_board(geo: &Geometry, rng: &mut Xoshiro256PlusPlus, pb: f64, pw: f64) -> Board {
    let mut b = Board::EMPTY;
    for p in geo.full().points() {
        let x: f64 = rng.random();
        if x < pb {
            b.black |= Bitboard::from_point(p);
        } else if x < pb + pw {
            b.white |= Bitboard::from_point(p);
        }
    }
    legalise(geo, b)
}

/// Positions with a living Black wall: random fillings, a setup history of variants of the
/// board (White stones moved in the regions, now and then a Black stone there to exercise
/// (C1)), then a few random moves, each position checked.
fn walls(rows: u32, cols: u32, seed: u64, wanted: u64, budget: u64) -> Tally {
    let geo = Geometry::new(rows as usize, cols as usize).unwrap();
    let g = geo.clone();
    let generate = move |rng: &mut Xoshiro256PlusPlus| random_board(&g, rng, 0.55, 0.25);
    walls_from(geo, generate, seed, wanted, Reference::Oracle(budget))
}

/// Fixed two-eyed Black walls around a region with points that touch no wall ('?': White
/// or empty at random), so that every case needs a real local game.
/// '+': Black (a loose stone), White or empty at random.
const TEMPLATES: &[(usize, usize, &str)] = &[
    (4, 4, "X.X./XXXX/X???/X???"),
    (4, 4, ".X.X/XXXX/X???/X???"),
    (4, 4, ".X.X/XXXX/XX??/X???"),
    (4, 4, ".X.X/XXXX/XXX?/X???"),
    (4, 4, ".X.X/XXXX/X???/X?++"),
    (4, 5, ".X.X./XXXXX/X????/X?++?"),
];

/// Positions from [`TEMPLATES`] (random fillings, history and moves as in [`walls`]).
fn templates(seed: u64, wanted: u64, budget: u64) -> Tally {
    let mut total = Tally::default();
    for (i, &(rows, cols, drawing)) in TEMPLATES.iter().enumerate() {
        let geo = Geometry::new(rows, cols).unwrap();
        let wall = Board::from_drawing(&geo, &drawing.replace(['?', '+'], ".")).unwrap();
        let g = geo.clone();
        let generate = move |rng: &mut Xoshiro256PlusPlus| {
            let mut b = wall;
            for p in g.full().minus(wall.black).points() {
                let (r, c) = (p.index() / g.cols(), p.index() % g.cols());
                let ch = drawing.split('/').nth(g.rows() - 1 - r).unwrap().as_bytes()[c];
                if ch == b'?' && rng.random_bool(0.35) {
                    b.white |= Bitboard::from_point(p);
                }
                if ch == b'+' {
                    match rng.random_range(0..3) {
                        0 => b.black |= Bitboard::from_point(p),
                        1 => b.white |= Bitboard::from_point(p),
                        _ => {}
                    }
                }
            }
            legalise(&g, b)
        };
        // Loose stones make longer games: check those with oracle-mode df-pn (itself checked
        // against the oracle in dfpn_vs_oracle.rs), and more of them.
        let (want, reference) = if drawing.contains('+') {
            (3 * wanted, Reference::Dfpn(300_000))
        } else {
            (wanted, Reference::Oracle(budget))
        };
        let t = walls_from(geo, generate, seed + i as u64, want, reference);
        assert!(t.local_games > 0, "{drawing}: no local game ({t:?})");
        total.add(&t);
    }
    total
}

fn walls_from(
    geo: Geometry,
    mut generate: impl FnMut(&mut Xoshiro256PlusPlus) -> Board,
    seed: u64,
    wanted: u64,
    reference: Reference,
) -> Tally {
    let (rows, cols) = (geo.rows(), geo.cols());
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut solver = RegionSolver::new();
    let mut t = Tally::default();
    let mut tries = 0u64;
    while t.checked < wanted && tries < 20_000 {
        tries += 1;
        let board = generate(&mut rng);
        // X* must exist; other Black chains are loose stones inside the regions.
        if x_star(&geo, &board).alive.is_empty() {
            continue;
        }
        let regions = geo.full().minus(board.black);
        let to_move = if rng.random_bool(0.7) {
            Player::White
        } else {
            Player::Black
        };
        // Earlier boards: the same walls with other White stones in the regions.
        let mut history = Vec::new();
        for _ in 0..rng.random_range(0..3) {
            let mut v = board;
            for p in regions.points() {
                if rng.random_bool(0.3) {
                    v.white = Bitboard(v.white.0 ^ Bitboard::from_point(p).0);
                }
            }
            if rng.random_bool(0.1) {
                let p = regions.points().next().unwrap();
                v.white = v.white.minus(Bitboard::from_point(p));
                v.black |= Bitboard::from_point(p);
            }
            let v = legalise(&geo, v);
            if v != board {
                history.push(v);
            }
        }
        let mut pos = match history.first() {
            Some(b) => go::Position::from_board(to_reference(&geo, b), Player::Black, rules()),
            None => go::Position::from_board(to_reference(&geo, &board), to_move, rules()),
        }
        .unwrap();
        for b in history.iter().skip(1) {
            pos.setup(to_reference(&geo, b), Player::Black).unwrap();
        }
        if !history.is_empty() && pos.setup(to_reference(&geo, &board), to_move).is_err() {
            continue;
        }
        let ctx = format!("{rows}x{cols} walls seed {seed} try {tries}");
        check(&pos, &mut solver, reference, &mut t, &ctx);
        for _ in 0..rng.random_range(0..4) {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = if rng.random_bool(0.15) {
                go::Move::Pass
            } else {
                moves[rng.random_range(0..moves.len())]
            };
            pos.play(m).unwrap();
            check(&pos, &mut solver, reference, &mut t, &ctx);
        }
    }
    t
}

/// Random games on the reference board, every position checked.
fn games(rows: u32, cols: u32, seed: u64, count: u64, budget: u64) -> Tally {
    let size = go::Size::new(rows, cols).unwrap();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut solver = RegionSolver::new();
    let mut t = Tally::default();
    let reference = Reference::Oracle(budget);
    for g in 0..count {
        let mut pos = go::Position::new(size, rules());
        let mut plies = 0;
        while !pos.is_over() && plies < 30 * size.points() {
            let moves = pos.legal_moves();
            let m = if moves.len() == 1 || rng.random_bool(0.05) {
                go::Move::Pass
            } else {
                moves[rng.random_range(0..moves.len() - 1)]
            };
            pos.play(m).unwrap();
            plies += 1;
            let ctx = format!("{rows}x{cols} game seed {seed} game {g} ply {plies}");
            check(&pos, &mut solver, reference, &mut t, &ctx);
        }
    }
    t
}

impl Tally {
    fn add(&mut self, o: &Tally) {
        self.candidates += o.candidates;
        self.some += o.some;
        self.checked += o.checked;
        self.local_games += o.local_games;
        self.loose += o.loose;
        self.black_to_move += o.black_to_move;
        self.skipped_c1 += o.skipped_c1;
        self.skipped_c2 += o.skipped_c2;
        self.skipped_budget += o.skipped_budget;
    }
}

#[test]
fn regions_agree_with_oracle() {
    // The oracle recurses once per ply of its search: give it a deep stack.
    std::thread::Builder::new()
        .stack_size(512 << 20)
        .spawn(regions_agree_with_oracle_body)
        .unwrap()
        .join()
        .unwrap();
}

fn regions_agree_with_oracle_body() {
    let t0 = std::time::Instant::now();
    // The oracle's cost per node grows with the history; larger budgets cost seconds a case.
    let budget = std::env::var("ORACLE_BUDGET")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(2_000);
    // Template positions have 5 to 8 open points: the oracle needs more nodes there.
    let template_budget = budget * 20;
    let scale: u64 = std::env::var("REGIONS_SCALE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1);
    let mut total = Tally::default();
    let wall_boards = [(3, 3, 40), (3, 4, 30), (2, 5, 40), (4, 4, 25), (1, 7, 30)];
    for (i, &(r, c, wanted)) in wall_boards.iter().enumerate() {
        let t1 = std::time::Instant::now();
        let t = walls(r, c, 100 + i as u64, wanted * scale, budget);
        eprintln!("walls {r}x{c}: {t:?} {:.1}s", t1.elapsed().as_secs_f64());
        assert!(t.checked > 0, "{r}x{c}: nothing checked ({t:?})");
        total.add(&t);
    }
    let t1 = std::time::Instant::now();
    let t = templates(300, 6 * scale, template_budget);
    eprintln!("templates 4x4: {t:?} {:.1}s", t1.elapsed().as_secs_f64());
    total.add(&t);
    for (i, &(r, c, n)) in [(3, 3, 30), (2, 4, 30), (3, 4, 10)].iter().enumerate() {
        let t1 = std::time::Instant::now();
        let t = games(r, c, 200 + i as u64, n * scale, budget);
        eprintln!("games {r}x{c}: {t:?} {:.1}s", t1.elapsed().as_secs_f64());
        total.add(&t);
    }
    eprintln!("total: {total:?} {:.1}s", t0.elapsed().as_secs_f64());
    assert!(
        total.checked >= 200
            && total.local_games >= 20
            && total.loose >= 5
            && total.black_to_move >= 50,
        "{total:?}"
    );
}

#[test]
fn drawn_positions_agree_with_oracle() {
    // (drawing, Black wins the regions?) on boards the oracle solves at once.
    let cases = [
        ("3x4", ".X.X/XXXX/.O..", true), // T*: Lemma 1 captures the intruder
        ("4x4", ".X.X/XXXX/X.../X..O", true),
        ("4x4", ".X.X/XXXX/X.../XX.O", true),
        ("3x4", "..X./XXXX/.O.O", true), // T* bottom row, a two-point top-left eye
    ];
    for (size, drawing, wins) in cases {
        let (r, c) = size.split_once('x').unwrap();
        let (r, c): (usize, usize) = (r.parse().unwrap(), c.parse().unwrap());
        let geo = Geometry::new(r, c).unwrap();
        let board = Board::from_drawing(&geo, drawing).unwrap();
        let eyes = x_star(&geo, &board);
        let got = RegionSolver::new().black_wins_regions(&geo, &board, &eyes);
        assert_eq!(got.is_some(), wins, "{drawing}");
        if wins {
            let pos = go::Position::from_board(to_reference(&geo, &board), Player::White, rules())
                .unwrap();
            let v = Oracle::new().with_max_nodes(2_000_000).value(&pos).unwrap();
            assert_eq!(v, (r * c) as i32, "{drawing}");
        }
    }
}

#[test]
fn random_runs_repeat_with_a_seed() {
    let a = walls(3, 3, 7, 10, 50_000);
    let b = walls(3, 3, 7, 10, 50_000);
    assert_eq!(format!("{a:?}"), format!("{b:?}"));
}
