//! `tsumi fit-prior FILE...`: fits the weights of the learned prior (Sanko paper, Section 5)
//! to training samples written by `tsumi prove go ... --samples FILE` or
//! `tsumi bench --samples FILE`, by Newton's method, and
//! prints them with the mean log loss of the fit and of a constant model.

use anyhow::{Context, bail};
use clap::Args;
use gosolve::prior::{FEATURE_NAMES, FEATURES, fit};
use std::path::PathBuf;

/// The largest feature magnitude accepted. The features `--samples` writes are fractions of the
/// board or small counts (below 100 in absolute value); far larger values are not such samples,
/// and Newton's method on them overflows (the Hessian holds products of two features).
const MAX_FEATURE: f64 = 1e6;

/// Arguments of `tsumi fit-prior`.
#[derive(Args, Debug)]
pub struct FitArgs {
    /// Sample files (lines: 1 or 0 for "the mover won", then the features, tab-separated).
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// L2 penalty on the weights (not on the constant).
    #[arg(long, default_value_t = 1e-4, allow_hyphen_values = true)]
    pub l2: f64,
    /// Also write the weights to this file (for `--prior learned:SCALE:FILE`).
    #[arg(long)]
    pub out: Option<PathBuf>,
}

/// Runs `tsumi fit-prior`.
///
/// # Errors
/// A missing file or a malformed line: a one-line message naming it. Degenerate samples are
/// refused too: samples of a single label (no fit separates them: the weights would run off
/// to infinity), a feature above 10⁶ in absolute value, and a fit whose weights or loss are
/// not finite.
pub fn run(args: &FitArgs) -> anyhow::Result<()> {
    if !(args.l2.is_finite() && args.l2 >= 0.0) {
        bail!("--l2 {} is not a finite number >= 0", args.l2);
    }
    if let Some(out) = &args.out {
        // Fail before the fit, not after it, when the weights cannot be written.
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(out)
            .with_context(|| format!("cannot write weights to {}", out.display()))?;
    }
    let mut samples = Vec::new();
    for path in &args.files {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read samples {}", path.display()))?;
        for (i, line) in text.lines().enumerate() {
            let fields: Vec<&str> = line.split('\t').collect();
            if fields.len() != FEATURES + 1 {
                bail!(
                    "{}:{}: expected {} fields, found {}",
                    path.display(),
                    i + 1,
                    FEATURES + 1,
                    fields.len()
                );
            }
            let y = match fields[0] {
                "1" => true,
                "0" => false,
                other => bail!(
                    "{}:{}: label '{other}' is not 0 or 1",
                    path.display(),
                    i + 1
                ),
            };
            let mut f = [0.0; FEATURES];
            for (k, v) in fields[1..].iter().enumerate() {
                f[k] = v
                    .parse()
                    .ok()
                    .filter(|x: &f64| x.is_finite())
                    .with_context(|| format!("{}:{}: bad number '{v}'", path.display(), i + 1))?;
                if f[k].abs() > MAX_FEATURE {
                    bail!(
                        "{}:{}: feature {} = {v} is too large to fit (|x| at most {MAX_FEATURE:e}; \
                         the features of --samples are fractions of the board and small counts)",
                        path.display(),
                        i + 1,
                        FEATURE_NAMES[k]
                    );
                }
            }
            samples.push((f, y));
        }
    }
    if samples.is_empty() {
        bail!("no samples in the given files");
    }
    let wins = samples.iter().filter(|s| s.1).count();
    if wins == 0 || wins == samples.len() {
        bail!(
            "all {} samples have label {}: a fit needs samples of both labels (the mover won \
             and lost)",
            samples.len(),
            u8::from(wins > 0)
        );
    }
    let (w, loss, constant) = fit(&samples, args.l2);
    if !(loss.is_finite() && w.iter().all(|x| x.is_finite())) {
        bail!(
            "the fit overflowed (weights or loss not finite) on {} samples: the features are \
             too large or too far apart in scale",
            samples.len()
        );
    }
    println!(
        "{} samples; mean log loss {loss:.4} (constant model {constant:.4})",
        samples.len()
    );
    for (name, v) in FEATURE_NAMES.iter().zip(&w) {
        println!("{name:<24} {v:+.4}");
    }
    let list: Vec<String> = w.iter().map(|v| format!("{v:.4}")).collect();
    println!("weights: [{}]", list.join(", "));
    if let Some(out) = &args.out {
        std::fs::write(out, format!("{}\n", list.join(", ")))
            .with_context(|| format!("cannot write weights to {}", out.display()))?;
    }
    Ok(())
}
