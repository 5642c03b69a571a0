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

/// σ(x).
fn logistic(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Mean log loss of probabilities `p` against labels `y`, as `fit-prior` computes it.
fn log_loss(y: &[bool], p: &[f64]) -> f64 {
    y.iter()
        .zip(p)
        .map(|(&y, &p)| {
            let p = p.clamp(1e-12, 1.0 - 1e-12);
            if y { -p.ln() } else { -(1.0 - p).ln() }
        })
        .sum::<f64>()
        / y.len() as f64
}

/// Samples whose label follows the margin (feature 2) through a logistic of slope 6, with a
/// deterministic pseudo-random draw; the other features are noise.
fn margin_samples(n: usize, seed: u64) -> (Vec<String>, Vec<bool>, Vec<f64>) {
    let mut state = seed;
    let mut next = move || {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 11) as f64 / (1u64 << 53) as f64
    };
    let (mut lines, mut labels, mut margins) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..n {
        // Margins on a grid of 1/16, exactly representable in the file.
        let m = (next() * 32.0).floor() / 16.0 - 1.0;
        let noise: Vec<f64> = (0..FEATURES)
            .map(|_| (next() * 8.0).floor() / 8.0)
            .collect();
        let y = next() < logistic(6.0 * m);
        lines.push(line(u8::from(y), |k| if k == 2 { m } else { noise[k] }));
        labels.push(y);
        margins.push(m);
    }
    (lines, labels, margins)
}

/// The cells of the `--eval` row of `file`, by column name (the header's words).
fn eval_row(text: &str, file: &str) -> std::collections::HashMap<String, String> {
    let header = text
        .lines()
        .find(|l| l.starts_with("file "))
        .unwrap_or_else(|| panic!("no header: {text}"));
    let row = text
        .lines()
        .find(|l| l.starts_with(file))
        .unwrap_or_else(|| panic!("no row for {file}: {text}"));
    let names: Vec<&str> = header.split_whitespace().collect();
    let cells: Vec<&str> = row.split_whitespace().collect();
    assert_eq!(names.len(), cells.len(), "{text}");
    names
        .into_iter()
        .zip(cells)
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

#[test]
fn eval_prints_each_models_held_out_loss() {
    let (train, train_y, _) = margin_samples(3000, 1);
    let (held, y, m) = margin_samples(800, 2);
    let (tp, hp) = (
        sample_file("eval-train", &train),
        sample_file("eval-held", &held),
    );
    let out = tsumi(&[
        "fit-prior",
        tp.to_str().unwrap(),
        "--eval",
        hp.to_str().unwrap(),
    ]);
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Columns, after "file": samples, wins, constant, score, built-in, fit.
    let mut cells = eval_row(&text, hp.to_str().unwrap());
    let num = |c: &mut std::collections::HashMap<String, String>, k: &str| -> f64 {
        c.remove(k)
            .unwrap_or_else(|| panic!("no {k}: {text}"))
            .parse()
            .unwrap()
    };
    let _ = cells.remove("file");
    assert_eq!(num(&mut cells, "samples"), 800.0);
    // The constant model is the training win rate; the area-margin prior is σ(4·margin).
    let rate = train_y.iter().filter(|&&b| b).count() as f64 / train_y.len() as f64;
    let constant = log_loss(&y, &vec![rate; y.len()]);
    let score = log_loss(&y, &m.iter().map(|x| logistic(4.0 * x)).collect::<Vec<_>>());
    assert!(
        (num(&mut cells, "constant") - constant).abs() < 1e-4,
        "{text}"
    );
    assert!((num(&mut cells, "score") - score).abs() < 1e-4, "{text}");
    let fit = num(&mut cells, "fit");
    let truth = log_loss(&y, &m.iter().map(|x| logistic(6.0 * x)).collect::<Vec<_>>());
    // The fit finds the margin: on held-out samples it is near the true model's loss and
    // beats the constant model and the slope-4 prior.
    assert!(fit < constant && fit < score, "{text}");
    assert!(
        (fit - truth).abs() < 0.03,
        "fit {fit} against the truth {truth}: {text}"
    );
    assert!(text.contains("mean over files"), "{text}");
    let _ = std::fs::remove_file(tp);
    let _ = std::fs::remove_file(hp);
}

#[test]
fn eval_alone_measures_given_weights_without_fitting() {
    let (held, y, m) = margin_samples(400, 3);
    let hp = sample_file("eval-only", &held);
    // Weights that are the true model: 6 on the margin, 0 elsewhere.
    let wp = std::env::temp_dir().join(format!("tsumi-fit-slope6-{}.txt", std::process::id()));
    let mut w = vec!["0"; FEATURES];
    w[2] = "6";
    std::fs::write(&wp, w.join(", ")).unwrap();
    let out = tsumi(&[
        "fit-prior",
        "--eval",
        hp.to_str().unwrap(),
        "--weights",
        wp.to_str().unwrap(),
    ]);
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!text.contains("weights: ["), "nothing is fitted: {text}");
    assert!(
        text.contains("the win rate of the held-out samples"),
        "{text}"
    );
    let stem = wp.file_stem().unwrap().to_str().unwrap();
    let mut cells = eval_row(&text, hp.to_str().unwrap());
    assert!(!cells.contains_key("fit"), "{text}");
    let got: f64 = cells
        .remove(stem)
        .unwrap_or_else(|| panic!("{text}"))
        .parse()
        .unwrap();
    let truth = log_loss(&y, &m.iter().map(|x| logistic(6.0 * x)).collect::<Vec<_>>());
    assert!((got - truth).abs() < 1e-4, "{got} {truth}: {text}");
    let _ = std::fs::remove_file(hp);
    let _ = std::fs::remove_file(wp);
}

#[test]
fn eval_options_that_do_not_apply_are_refused() {
    let (held, _, _) = margin_samples(20, 4);
    let hp = sample_file("eval-refuse", &held);
    let h = hp.to_str().unwrap();
    assert_clear_error(
        &["fit-prior", "--eval", h, "--out", "/tmp/never-written.txt"],
        "--out needs training sample files",
    );
    let empty = sample_file("eval-empty", &[]);
    std::fs::write(&empty, "").unwrap();
    assert_clear_error(
        &["fit-prior", h, "--eval", empty.to_str().unwrap()],
        "no samples to evaluate",
    );
    let out = tsumi(&["fit-prior", h, "--weights", h]);
    assert_eq!(out.status.code(), Some(2), "--weights needs --eval");
    let _ = std::fs::remove_file(hp);
    let _ = std::fs::remove_file(empty);
}
