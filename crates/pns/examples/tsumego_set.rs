//! The tsumego problem set: a seeded generator of enclosed-corner problems labelled by the
//! reference search (`pns::tsumego::reference`, which shares no code with λ-search), and the
//! measurement of λ-search, λ-df-pn and df-pn on it.
//!
//! ```text
//! cargo run --release -p pns --example tsumego_set -- generate 34 600 data/tsumego
//! cargo run --release -p pns --example tsumego_set -- measure data/tsumego
//! ```
//!
//! Families (boards 5x5 to 7x7, the defender White in the lower-left corner):
//! - `eye`: a White wall around a random eye space (some points of it filled by either side)
//!   enclosed by a Black wall; life and death, either side first. Kills, lives, seki, bent
//!   four and ko shapes come out of the random eye spaces and are kept by label.
//! - `race`: the same with Black's wall short of liberties (White stones outside the area
//!   press it), so the two fight a capturing race.
//!
//! Ladders are not in the set: the reference search does not label a 9x9 ladder within its
//! limits (it must refute every wrong atari to the horizon); `pns/tests/tsumego.rs` proves a
//! 27-ply ladder with λ¹ alone.
//!
//! Every problem is written as `NNN-family.sgf` (setup, `PL`, the target marked `MA`, the area
//! `SL`, the label in `C`) and listed in `index.tsv`.

use games::go::{Board, Point, PointSet, Position, Rules, Size, Tsumego, TsumegoGoal};
use games::{Game, Player};
use pns::tsumego::{ReferenceLimits, Status, reference_status};
use pns::{Budget, DfPn, LambdaDfPn, LambdaSearch, Prover};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::fmt::Write as _;
use std::path::Path;

struct Candidate {
    family: &'static str,
    game: Tsumego,
}

fn eye_problem(rng: &mut Xoshiro256PlusPlus, race: bool) -> Option<Candidate> {
    let n = rng.random_range(5..=7u32);
    let size = Size::new(n, n).ok()?;
    let w = rng.random_range(3..=(n - 2).min(4));
    let h = rng.random_range(2..=3u32);
    let mut board = Board::empty(size);
    let mut area = PointSet::new();
    for r in 0..=h {
        for c in 0..=w {
            let p = Point::new(r, c);
            area.insert(size.index(p));
            let stone = if r == h || c == w {
                Some(Player::Black)
            } else if r == h - 1 || c == w - 1 {
                (rng.random::<f64>() < 0.9).then_some(Player::White)
            } else {
                let x: f64 = rng.random();
                if x < 0.15 {
                    Some(Player::White)
                } else if x < 0.3 {
                    Some(Player::Black)
                } else {
                    None
                }
            };
            board.set(p, stone);
        }
    }
    // Black's wall: the corner of the wall is not needed and breaks the shape.
    board.set(Point::new(h, w), None);
    if race {
        // White stones just outside the area take Black's outside liberties.
        for c in 0..w {
            if h + 1 < n && rng.random::<f64>() < 0.7 {
                board.set(Point::new(h + 1, c), Some(Player::White));
            }
        }
        for r in 0..h {
            if w + 1 < n && rng.random::<f64>() < 0.7 {
                board.set(Point::new(r, w + 1), Some(Player::White));
            }
        }
    }
    if !board.all_chains_have_liberties() {
        return None;
    }
    let target = Point::new(h - 1, w - 1);
    let target = if board.get(target) == Some(Player::White) {
        target
    } else {
        (0..w)
            .map(|c| Point::new(h - 1, c))
            .find(|&p| board.get(p) == Some(Player::White))?
    };
    let to_move = if rng.random() {
        Player::Black
    } else {
        Player::White
    };
    let pos = Position::from_board(board, to_move, Rules::default()).ok()?;
    let game = Tsumego::new(pos, target, TsumegoGoal::LifeAndDeath, area).ok()?;
    Some(Candidate {
        family: if race { "race" } else { "eye" },
        game,
    })
}

fn sgf(c: &Candidate, label: Status) -> String {
    let g = &c.game;
    let start = g.start();
    let size = start.size();
    let pt = |p: Point| {
        format!(
            "{}{}",
            char::from(b'a' + p.col),
            char::from(b'a' + (size.rows() - 1 - u32::from(p.row)) as u8)
        )
    };
    let mut s = format!("(;GM[1]FF[4]CA[UTF-8]AP[tsumi]SZ[{}]", size.rows());
    for (id, colour) in [("AB", Player::Black), ("AW", Player::White)] {
        let pts: String = size
            .all_points()
            .filter(|&p| start.board().get(p) == Some(colour))
            .map(|p| format!("[{}]", pt(p)))
            .collect();
        if !pts.is_empty() {
            let _ = write!(s, "{id}{pts}");
        }
    }
    let area: String = g
        .area()
        .indices()
        .map(|i| format!("[{}]", pt(size.point_at(i))))
        .collect();
    let _ = writeln!(
        s,
        "PL[{}]MA[{}]SL{area}C[{} {}: {}])",
        if start.to_move() == Player::Black {
            "B"
        } else {
            "W"
        },
        pt(g.target()),
        c.family,
        g.goal().name(),
        label.name(g.goal())
    );
    s
}

fn generate(seed: u64, attempts: u32, dir: &Path) {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    std::fs::create_dir_all(dir).expect("create the output folder");
    let limits = ReferenceLimits {
        max_depth: 40,
        max_nodes: 40_000,
    };
    // How many of each (family, label) to keep.
    let quota = |_family: &str, label: Status| match label {
        Status::Seki | Status::Ko => 6,
        _ => 8,
    };
    let mut kept: Vec<(Candidate, Status, u64)> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for attempt in 0..attempts {
        let c = eye_problem(&mut rng, attempt % 2 == 1);
        let Some(c) = c else { continue };
        if c.game.outcome(c.game.start()).is_some() {
            continue;
        }
        let key = (c.game.start().board().to_ascii(), c.game.start().to_move());
        if !seen.insert(key) {
            continue;
        }
        let have = |kept: &[(Candidate, Status, u64)], l: Status| {
            kept.iter()
                .filter(|(k, s, _)| k.family == c.family && *s == l)
                .count()
        };
        let t0 = std::time::Instant::now();
        let (label, nodes) = reference_status(&c.game, limits);
        eprintln!(
            "attempt {attempt} {}: {:?} {nodes} nodes {:.2} s",
            c.family,
            label,
            t0.elapsed().as_secs_f64()
        );
        let Some(label) = label else { continue };
        if have(&kept, label) < quota(c.family, label) {
            eprintln!("{} {} {} nodes", c.family, label.name(c.game.goal()), nodes);
            kept.push((c, label, nodes));
        }
    }
    let mut index =
        String::from("file\tfamily\tsize\tgoal\tto_move\tarea_points\tlabel\treference_nodes\n");
    for (i, (c, label, nodes)) in kept.iter().enumerate() {
        let name = format!("{i:03}-{}.sgf", c.family);
        std::fs::write(dir.join(&name), sgf(c, *label)).expect("write a problem");
        let g = &c.game;
        let size = g.start().size();
        let goal = match (g.goal(), g.start().to_move() == g.attacker()) {
            (TsumegoGoal::Capture, _) => "capture",
            (_, true) => "kill",
            (_, false) => "live",
        };
        let _ = writeln!(
            index,
            "{name}\t{}\t{}x{}\t{goal}\t{}\t{}\t{}\t{nodes}",
            c.family,
            size.rows(),
            size.cols(),
            g.start().to_move(),
            g.area().len(),
            label.name(g.goal())
        );
    }
    std::fs::write(dir.join("index.tsv"), index).expect("write the index");
    eprintln!("{} problems", kept.len());
}

fn measure(dir: &Path) {
    let index = std::fs::read_to_string(dir.join("index.tsv")).expect("read index.tsv");
    println!(
        "| algorithm | solved | agree | expansions (sum) | time (s, sum) | largest area solved |"
    );
    println!("|---|---|---|---|---|---|");
    for algo in ["lambda", "lambda-dfpn", "dfpn"] {
        let (mut solved, mut agree, mut total, mut exp, mut time, mut largest) =
            (0, 0, 0, 0u64, 0.0, 0);
        for row in index.lines().skip(1) {
            let f: Vec<&str> = row.split('\t').collect();
            let bytes = std::fs::read(dir.join(f[0])).expect("read a problem");
            let pos = games::go::position_from_sgf_bytes_before(
                &bytes,
                games::go::KoRule::PositionalSuperko,
                1,
            )
            .expect("a problem");
            let marks = games::go::root_points_from_sgf_bytes(&bytes, &["MA", "SL"]).unwrap();
            let target = marks.iter().find(|(id, _)| id == "MA").unwrap().1;
            let mut area = PointSet::new();
            for (_, p) in marks.iter().filter(|(id, _)| id == "SL") {
                area.insert(pos.size().index(*p));
            }
            let goal = if f[3] == "capture" {
                TsumegoGoal::Capture
            } else {
                TsumegoGoal::LifeAndDeath
            };
            let g = Tsumego::new(pos, target, goal, area).expect("a problem");
            let mut p: Box<dyn Prover<Tsumego>> = match algo {
                "lambda" => Box::new(LambdaSearch::default()),
                "lambda-dfpn" => Box::new(LambdaDfPn::default()),
                _ => Box::new(DfPn::default()),
            };
            let s = pns::tsumego::decide(&g, |g, q| {
                let pr = p.prove(g, &g.initial(), q, &Budget::expansions(2_000_000));
                exp += pr.expansions;
                time += pr.time.as_secs_f64();
                let a = match pr.answer {
                    pns::Answer::Proven => Some(true),
                    pns::Answer::Disproven => Some(false),
                    pns::Answer::Unknown => None,
                };
                (a, pr.best_move)
            });
            total += 1;
            if let Some(st) = s.status {
                solved += 1;
                largest = largest.max(g.area().len());
                if Some(st) == Status::parse(f[6]) {
                    agree += 1;
                }
            }
        }
        println!("| {algo} | {solved}/{total} | {agree} | {exp} | {time:.2} | {largest} |");
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    match args.get(1).map(String::as_str) {
        Some("generate") if args.len() == 5 => {
            let seed = args[2].parse().expect("a seed");
            let attempts = args[3].parse().expect("a number of attempts");
            generate(seed, attempts, Path::new(&args[4]));
        }
        Some("measure") if args.len() == 3 => measure(Path::new(&args[2])),
        _ => {
            eprintln!("usage: tsumego_set generate SEED ATTEMPTS DIR | measure DIR");
            std::process::exit(2);
        }
    }
}
