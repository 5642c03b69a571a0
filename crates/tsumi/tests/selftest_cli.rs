//! `tsumi selftest --quick` passes (solver, oracle mode, oracle and certificate checker agree;
//! threshold probes, brute force over prefixes, re-solves in fresh processes, large-board
//! prefixes), its counts repeat for a seed, and `--faults` needs the fault-injection build.

mod common;
use common::{assert_clear_error, tsumi};

#[test]
fn quick_selftest_passes_with_counts_that_repeat_for_a_seed() {
    let out = tsumi(&["selftest", "--quick"]);
    let again = tsumi(&["selftest", "--quick", "--seed", "1"]);
    assert_eq!(counts(&out), counts(&again));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("disagreements: 0"), "{text}");
    assert!(
        text.contains("accepted by the independent checker"),
        "{text}"
    );
    for part in [
        "threshold probes: ",
        "brute force: ",
        "re-solves: ",
        "large boards (4x5): ",
    ] {
        assert!(text.contains(part), "no '{part}' line: {text}");
    }
    // Every part asked something and agreed on all of it ("a/a" with a > 0).
    let agreed: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().find(|w| w.contains('/')))
        .collect();
    assert!(agreed.len() >= 6, "{text}");
    for a in agreed {
        let (x, y) = a.trim_end_matches([';', ',']).split_once('/').unwrap();
        assert!(x == y && y != "0", "{a} in {text}");
    }
}

#[test]
fn faults_need_the_fault_injection_build() {
    assert_clear_error(
        &["selftest", "--quick", "--faults"],
        "--faults needs a build with fault injection",
    );
}

#[test]
fn selftest_needs_one_mode() {
    assert_clear_error(&["selftest"], "give one of --quick or --long");
}

/// The counts without the times ("; 1.2 s" at the ends of the part lines).
fn counts(out: &std::process::Output) -> Vec<String> {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| match l.rfind("; ") {
            Some(i) if l.ends_with(" s") => l[..i].to_string(),
            _ => l.to_string(),
        })
        .collect()
}
