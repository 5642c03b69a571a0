//! Helpers shared by the checker's integration tests.

use games::Player;
use gosolve::certificate::{CertificateFormat, write_certificate_as};
use gosolve::{Line, Solver};

/// A certificate, in format `f`, of `winner`'s proof at komi `komi2`/2 after `moves` on a
/// `rows`×`cols` board, written by the solver with its default configuration.
pub fn write(
    rows: usize,
    cols: usize,
    moves: &[&str],
    winner: Player,
    komi2: i32,
    f: CertificateFormat,
) -> String {
    let geo = gosolve::Geometry::new(rows, cols).unwrap();
    let mut solver = Solver::new(geo.clone(), 16, gosolve::Config::reference());
    let mut line = Line::new();
    for m in moves {
        line.play(&geo, geo.parse_move(m).unwrap()).unwrap();
    }
    let mut out = Vec::new();
    write_certificate_as(
        &mut solver,
        &line,
        winner,
        games::go::Komi::from_half_points(komi2),
        &mut out,
        f,
    )
    .unwrap();
    String::from_utf8(out).unwrap()
}
