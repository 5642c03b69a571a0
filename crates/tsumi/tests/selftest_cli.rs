//! `tsumi selftest --quick` passes (solver, oracle mode, oracle and certificate checker agree).

mod common;
use common::{assert_clear_error, tsumi};

#[test]
fn quick_selftest_passes_with_counts() {
    let out = tsumi(&["selftest", "--quick"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("disagreements: 0"), "{text}");
    assert!(
        text.contains("accepted by the independent checker"),
        "{text}"
    );
}

#[test]
fn selftest_needs_one_mode() {
    assert_clear_error(&["selftest"], "give one of --quick or --long");
}
