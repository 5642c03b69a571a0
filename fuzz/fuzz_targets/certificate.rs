//! The certificate parser and checkers (`check`, in memory and streamed): any bytes are refused with an error or
//! accepted, within small read bounds, never a panic; an accepted certificate's claim on a
//! board of at most 9 points (from moves or a setup with its history) is asked of the
//! solver, which must agree (a mutated certificate that claims a false result must never be
//! accepted).
#![no_main]

use check::Limits;
use check::format::{Start, Step};
use games::Player;
use games::go::{Komi, Position, Rules, Size};
use gosolve::bitboard::{Board, Geometry, Line};
use gosolve::{Answer, Solver};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let limits = Limits {
        max_line_bytes: 4096,
        max_nodes: 20_000,
        max_stored_boards: 200_000,
        threads: 1,
    };
    // The streaming checker accepts exactly what the in-memory one accepts (it may also
    // accept what the in-memory one only refuses for its bound on kept sets).
    let streamed = check::check_stream_bytes(data, limits);
    let whole = check::parse_reader(data, limits)
        .map_err(check::CheckError::Parse)
        .and_then(|cert| check::check_with(&cert, limits).map(|v| (cert, v)));
    match (&whole, &streamed) {
        (Ok((_, v)), Ok(r)) => assert_eq!(*v, r.verdict),
        (Err(check::CheckError::Limit(_)), Ok(_)) | (Err(_), Err(_)) => {}
        _ => panic!("the checkers disagree: {whole:?} / {streamed:?}"),
    }
    let Ok((cert, verdict)) = whole else {
        return;
    };
    let geo = &cert.geo;
    if geo.points() > 9 {
        return;
    }
    let Ok(size) = Size::new(geo.rows() as u32, geo.cols() as u32) else {
        return;
    };
    let Ok(sgeo) = Geometry::new(geo.rows(), geo.cols()) else {
        return;
    };
    // A root given by moves is a games::go position; a setup with earlier boards is built on
    // the solver's back end (games::go has no pass state to set).
    let line = match &cert.start {
        Start::Moves(steps) => {
            let mut pos = Position::new(size, Rules::default());
            for s in steps {
                let name = match s {
                    Step::Pass => "pass".to_string(),
                    Step::Stone(p) => geo.point_name(*p),
                    Step::Root => return,
                };
                if pos.play_text(&name).is_err() {
                    return;
                }
            }
            let Ok(line) = gosolve::bitboard::reference::line(&pos) else {
                return;
            };
            line.1
        }
        Start::Setup {
            board,
            to_move,
            passes,
            earlier,
        } => {
            let fast = |b: &check::Board| Board::from_drawing(&sgeo, &geo.draw(b)).ok();
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
        limits: gosolve::Limits {
            max_expansions: 200_000,
            ..gosolve::Limits::default()
        },
        ..gosolve::Config::default()
    };
    let mut solver = Solver::new(sgeo, 4, cfg);
    let p = solver.prove(&line, winner, Komi::from_half_points(cert.komi2));
    assert_ne!(
        p.answer,
        Answer::Disproven,
        "accepted a false claim: {verdict}"
    );
});
