//! Helpers shared by the checker's integration tests.

use games::Player;
use games::go::{Position, Rules, Size};
use gosolve::certificate::{CertificateFormat, write_certificate_as};
use gosolve::{Played, Solver};

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
    let size = Size::new(rows as u32, cols as u32).unwrap();
    let mut solver = Solver::for_size(size, 16, gosolve::Config::reference()).unwrap();
    let mut pos = Position::new(size, Rules::default());
    let played: Vec<_> = moves.iter().map(|m| pos.play_text(m).unwrap()).collect();
    let mut out = Vec::new();
    write_certificate_as(
        &mut solver,
        &Played {
            position: &pos,
            moves: &played,
        },
        winner,
        games::go::Komi::from_half_points(komi2),
        &mut out,
        f,
    )
    .unwrap();
    String::from_utf8(out).unwrap()
}
