//! Fault injection (`--features fault-injection`): table stores torn on purpose (one word of
//! the slot keeps its old value) at a high rate, with several threads. The seal must reject
//! every torn slot it meets, so the values stay right; the test counts the rejected reads.
//!
//! `cargo test -p gosolve --features fault-injection --test torn_writes` (run by `.ci/run`).
#![cfg(feature = "fault-injection")]

use gosolve::bitboard::{Geometry, Line};
use gosolve::{Config, Solver, solve_value};

#[test]
fn torn_writes_are_rejected_and_values_stay_right() {
    let mut torn = 0;
    // (rows, cols, value) from data/go-psk-values.tsv.
    for &(r, c, v) in &[(2, 2, 1), (3, 3, 9), (2, 4, 8), (1, 7, 2), (3, 4, 4)] {
        for threads in [1, 2, 3] {
            let geo = Geometry::new(r, c).unwrap();
            let cfg = Config {
                threads,
                ..Config::reference()
            };
            let mut s = Solver::new(geo, 4, cfg);
            // 5% of all stores are torn.
            s.table_mut().set_tear_rate(50_000);
            let solved = solve_value(&mut s, &Line::new(), |_| {});
            assert_eq!(solved.value, Some(v), "{r}x{c}, {threads} threads");
            torn += s.table_stats().torn_reads;
        }
    }
    eprintln!("torn reads rejected: {torn}");
    assert!(
        torn > 100,
        "only {torn} torn reads: the injection did not reach the probes"
    );
}
