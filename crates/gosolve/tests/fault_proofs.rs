//! Fault injection of wrong proofs (`--features fault-injection`): a small campaign of
//! `gosolve::faults` must inject every kind (the hooks reach the probes), and reversed
//! winners at a high rate must change results (so a change would be seen); the counts are
//! printed. `cargo test -p gosolve --features fault-injection --test fault_proofs` (run by
//! `.ci/run`; `tsumi selftest --faults` prints the full table); the bound against Table 4.
#![cfg(feature = "fault-injection")]

use gosolve::faults::{Campaign, clopper_pearson_upper, run};
use gosolve::table::FaultKind;

#[test]
fn every_kind_is_injected_and_reversed_winners_change_results() {
    let c = Campaign {
        boards: vec![(2, 3), (3, 3)],
        solves: 30,
        per_million: [500_000, 200_000, 50_000],
        seed: 7,
        max_expansions: 1_000_000,
    };
    let reports = run(&c).unwrap();
    for r in &reports {
        eprintln!("{r:?}");
        assert!(r.solves > 40, "{r:?}");
        assert!(r.faults > 20, "too few faults injected: {r:?}");
        assert!(r.upper95 > 0.0 && r.upper95 <= 1.0, "{r:?}");
        assert!(r.changed <= r.solves_with_faults, "{r:?}");
    }
    let reversed = reports
        .iter()
        .find(|r| r.kind == FaultKind::Reversed)
        .unwrap();
    assert!(
        reversed.changed > 0,
        "no reversed winner changed a result: {reversed:?}"
    );
    // Seeded: the same campaign repeats exactly.
    assert_eq!(run(&c).unwrap(), reports);
}

#[test]
fn bounds_match_the_papers_table_4() {
    // One of 28,623 reversed winners changed a result: 1.7e-4.
    let b = clopper_pearson_upper(1, 28_623);
    assert!((b - 1.66e-4).abs() < 0.01e-4, "{b}");
    // None of n: about the rule of three, 3/n.
    let n = 62_260;
    let b = clopper_pearson_upper(0, n);
    assert!((b * n as f64 - 3.0).abs() < 0.01, "{b}");
    assert_eq!(clopper_pearson_upper(0, 0), 1.0);
    assert!(clopper_pearson_upper(5, 10) > 0.5);
}
