//! `tsumi fit-prior` on degenerate samples: refused with one line, never NaN weights.

mod common;

use common::{assert_clear_error, tsumi};
use std::process::{Command, Stdio};

/// Features per sample line (after the label).
const FEATURES: usize = 15;

fn sample_file(name: &str, lines: &[String]) -> std::path::PathBuf {
    let p = std::env::temp_dir().join(format!("tsumi-fit-{name}-{}.tsv", std::process::id()));
    std::fs::write(&p, lines.join("\n") + "\n").unwrap();
    p
}

/// A sample line: the label, the constant 1, then `f(k)` for the other features.
fn line(label: u8, f: impl Fn(usize) -> f64) -> String {
    let mut v = vec![label.to_string(), "1".to_string()];
    // Large values in exponent form ("1e300"), as a person would write them.
    v.extend((1..FEATURES).map(|k| match f(k) {
        x if x.abs() >= 1e6 => format!("{x:e}"),
        x => x.to_string(),
    }));
    v.join("\t")
}

/// Samples of both labels whose won/lost mix depends on one feature (not separable).
fn mixed(n: usize, f: impl Fn(usize, usize) -> f64) -> Vec<String> {
    (0..n)
        .map(|i| line(u8::from(i % 3 != 0), |k| f(i, k)))
        .collect()
}

#[test]
fn a_single_label_is_refused() {
    for label in [0u8, 1] {
        let lines: Vec<String> = (0..20)
            .map(|i| line(label, |k| ((i * k) % 7) as f64 / 7.0))
            .collect();
        let p = sample_file(&format!("one-{label}"), &lines);
        assert_clear_error(
            &["fit-prior", p.to_str().unwrap()],
            &format!("all 20 samples have label {label}: a fit needs samples of both labels"),
        );
        let _ = std::fs::remove_file(p);
    }
}

#[test]
fn absurd_feature_magnitudes_are_refused() {
    let lines = mixed(12, |i, k| {
        if k == 2 && i == 5 {
            1e300
        } else {
            0.1 * k as f64
        }
    });
    let p = sample_file("huge", &lines);
    assert_clear_error(
        &["fit-prior", p.to_str().unwrap()],
        &format!(
            "{}:6: feature margin = 1e300 is too large to fit",
            p.display()
        ),
    );
    let _ = std::fs::remove_file(p);
}

#[test]
fn a_constant_feature_column_fits_to_finite_weights() {
    // Feature 3 is 0 everywhere; feature 2 tells wins from losses, with noise.
    let lines = mixed(60, |i, k| match k {
        3 => 0.0,
        2 => (i % 3 != 0) as u8 as f64 * 0.5 + ((i * 7) % 5) as f64 / 10.0,
        _ => ((i * k) % 11) as f64 / 11.0,
    });
    let p = sample_file("constant", &lines);
    let out = tsumi(&["fit-prior", p.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("60 samples; mean log loss"), "{text}");
    let weights = text
        .lines()
        .find_map(|l| l.strip_prefix("weights: ["))
        .expect("a weights line");
    let w: Vec<f64> = weights
        .trim_end_matches(']')
        .split(", ")
        .map(|x| x.parse().unwrap())
        .collect();
    assert_eq!(w.len(), FEATURES);
    assert!(w.iter().all(|x| x.is_finite()), "{w:?}");
    assert!(
        w[2] > 0.0,
        "the deciding feature gets a positive weight: {w:?}"
    );
    let _ = std::fs::remove_file(p);
}

#[cfg(target_os = "linux")]
#[test]
fn a_full_disk_on_standard_output_is_one_line_and_status_2() {
    let lines = mixed(30, |i, k| ((i + k) % 4) as f64 / 4.0);
    let p = sample_file("full", &lines);
    let out = Command::new(env!("CARGO_BIN_EXE_tsumi"))
        .args(["fit-prior", p.to_str().unwrap()])
        .stdout(std::fs::File::create("/dev/full").unwrap())
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(
        err.starts_with("error: cannot write to standard output: "),
        "{err}"
    );
    let _ = std::fs::remove_file(p);
}
