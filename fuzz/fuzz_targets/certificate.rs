//! The certificate parser and checker (`check`): any bytes are refused with an error or
//! accepted, within small read bounds, never a panic; an accepted certificate's claim on a
//! board of at most 9 points (from moves or a setup with its history) is asked of the
//! solver, which must agree (a mutated certificate that claims a false result must never be
//! accepted).
#![no_main]

use check::Limits;
use check::format::{Start, Step};
use games::Player;
use gosolve::{Answer, Line, Solver};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let limits = Limits {
        max_line_bytes: 4096,
        max_nodes: 20_000,
        max_stored_boards: 200_000,
        threads: 1,
    };
    let Ok(cert) = check::parse_reader(data, limits) else {
        return;
    };
    let Ok(verdict) = check::check_with(&cert, limits) else {
        return;
    };
    let geo = &cert.geo;
    if geo.points() > 9 {
        return;
    }
    let Ok(sgeo) = gosolve::Geometry::new(geo.rows(), geo.cols()) else {
        return;
    };
    let line = match &cert.start {
        Start::Moves(steps) => {
            let mut line = Line::new();
            for s in steps {
                let name = match s {
                    Step::Pass => "pass".to_string(),
                    Step::Stone(p) => geo.point_name(*p),
                    Step::Root => return,
                };
                let Some(m) = sgeo.parse_move(&name) else {
                    return;
                };
                if line.play(&sgeo, m).is_err() {
                    return;
                }
            }
            line
        }
        Start::Setup {
            board,
            to_move,
            passes,
            earlier,
        } => {
            let fast = |b: &check::Board| gosolve::Board::from_drawing(&sgeo, &geo.draw(b)).ok();
            let Some(root) = fast(board) else { return };
            let Some(boards) = earlier.iter().map(fast).collect::<Option<Vec<_>>>() else {
                return;
            };
            let side = match to_move {
                check::Color::Black => Player::Black,
                check::Color::White => Player::White,
            };
            let mut line = Line::from_setup(root, side, &boards);
            line.position.passed = *passes == 1;
            line.over = *passes == 2;
            line
        }
    };
    if line.over {
        return;
    }
    let winner = match verdict.winner {
        check::Color::Black => Player::Black,
        check::Color::White => Player::White,
    };
    let cfg = gosolve::Config {
        max_expansions: 200_000,
        ..Default::default()
    };
    let mut solver = Solver::new(sgeo, 4, cfg);
    let p = solver.prove(&line, winner, cert.komi2);
    assert_ne!(p.answer, Answer::Loss, "accepted a false claim: {verdict}");
});
