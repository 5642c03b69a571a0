//! `tsumi fit-prior [FILE...] [--eval FILE...]`: fits the weights of the learned prior (Sanko
//! paper, Section 5) to training samples written by `tsumi prove go ... --samples FILE` or
//! `tsumi bench --samples FILE`, by Newton's method, and prints them with the mean log loss of
//! the fit and of a constant model. With `--eval`, it also prints the mean log loss on
//! held-out sample files of the constant model, the area-margin prior, the built-in learned
//! weights, the weights of each `--weights FILE` and the fit.

use anyhow::{Context, bail};
use clap::Args;
use gosolve::prior::{FEATURE_NAMES, FEATURES, PriorKind, fit, mean_log_loss};
use std::path::{Path, PathBuf};

/// The largest feature magnitude accepted. The features `--samples` writes are fractions of the
/// board or small counts (below 100 in absolute value); far larger values are not such samples,
/// and Newton's method on them overflows (the Hessian holds products of two features).
const MAX_FEATURE: f64 = 1e6;

/// One training sample: the features and whether the mover won.
type Sample = ([f64; FEATURES], bool);

/// Arguments of `tsumi fit-prior`.
#[derive(Args, Debug)]
#[command(after_help = FIT_AFTER_HELP)]
pub struct FitArgs {
    /// Training sample files (lines: 1 or 0 for "the mover won", then the features,
    /// tab-separated). May be left out with `--eval`: then nothing is fitted.
    #[arg(required_unless_present = "eval")]
    pub files: Vec<PathBuf>,
    /// L2 penalty on the weights (not on the constant).
    #[arg(long, default_value_t = 1e-4, allow_hyphen_values = true)]
    pub l2: f64,
    /// Also write the weights to this file (for `--prior learned:SCALE:FILE`).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Held-out sample files: print each one's mean log loss under every model (repeat the
    /// flag or separate the files by commas).
    #[arg(long, value_delimiter = ',')]
    pub eval: Vec<PathBuf>,
    /// With `--eval`: also measure these weights (files as `--out` writes them).
    #[arg(long, value_delimiter = ',', requires = "eval")]
    pub weights: Vec<PathBuf>,
}

const FIT_AFTER_HELP: &str = "The held-out table (--eval) gives the mean log loss in nats \
(ln 2 = 0.6931 is a coin toss) of: \"constant\", the base rate of the training samples (of all \
the held-out samples when no training file is given); \"score\", the area-margin prior \
(--prior score, p = σ(4·margin)); \"built-in\", the learned prior's built-in weights (--prior \
learned); each --weights file; and \"fit\", the weights just fitted. The last row is the mean \
over the files, each file weighing the same.";

/// Reads one sample file.
///
/// # Errors
/// A missing file, a line without 1 + [`FEATURES`] tab-separated fields, a label other than 0
/// or 1, a number that does not parse or is not finite, or a feature above [`MAX_FEATURE`]: a
/// one-line message with the file and line.
fn read_samples(path: &Path) -> anyhow::Result<Vec<Sample>> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read samples {}", path.display()))?;
    let mut samples = Vec::new();
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
    Ok(samples)
}

/// The fraction of samples the mover won.
fn win_rate(samples: &[Sample]) -> f64 {
    samples.iter().filter(|s| s.1).count() as f64 / samples.len().max(1) as f64
}

/// Fits the weights to the training samples and prints them (and writes `--out`).
fn fit_and_print(args: &FitArgs, samples: &[Sample]) -> anyhow::Result<[f64; FEATURES]> {
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
    let (w, loss, constant) = fit(samples, args.l2);
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
        crate::result_file::write_text(out, "weights file", &format!("{}\n", list.join(", ")))?;
    }
    // The printed (rounded) weights are the ones a user can pass back in: measure those.
    let mut rounded = [0.0; FEATURES];
    for (r, s) in rounded.iter_mut().zip(&list) {
        *r = s.parse().unwrap_or(0.0);
    }
    Ok(rounded)
}

/// Runs `tsumi fit-prior`.
///
/// # Errors
/// A missing file or a malformed line: a one-line message naming it. Degenerate samples are
/// refused too: samples of a single label (no fit separates them: the weights would run off
/// to infinity), a feature above 10⁶ in absolute value, and a fit whose weights or loss are
/// not finite. An empty `--eval` file, and a `--weights` file that does not hold
/// [`FEATURES`] finite weights, are refused by name.
pub fn run(args: &FitArgs) -> anyhow::Result<()> {
    if !(args.l2.is_finite() && args.l2 >= 0.0) {
        bail!("--l2 {} is not a finite number >= 0", args.l2);
    }
    if let Some(out) = &args.out {
        if args.files.is_empty() {
            bail!("--out needs training sample files: there is nothing to fit");
        }
        // Fail before the fit, not after it, when the weights cannot be written.
        crate::result_file::check_target(out, "weights file")?;
    }
    let mut models: Vec<(String, PriorKind)> = vec![
        ("score".into(), PriorKind::SCORE),
        ("built-in".into(), PriorKind::LEARNED),
    ];
    for path in &args.weights {
        let weights = crate::prior::read_weights(path)?;
        let name = path.file_stem().map_or_else(
            || path.display().to_string(),
            |s| s.to_string_lossy().into(),
        );
        models.push((
            name,
            PriorKind::Learned {
                weights,
                scale: 1.0,
                disproof_scale: 1.0,
            },
        ));
    }
    let mut held_out = Vec::new();
    for path in &args.eval {
        let s = read_samples(path)?;
        if s.is_empty() {
            bail!("{}: no samples to evaluate", path.display());
        }
        held_out.push((path, s));
    }
    let mut train = Vec::new();
    for path in &args.files {
        train.extend(read_samples(path)?);
    }
    let base = if args.files.is_empty() {
        let all: Vec<Sample> = held_out.iter().flat_map(|(_, s)| s.clone()).collect();
        win_rate(&all)
    } else {
        let w = fit_and_print(args, &train)?;
        models.push((
            "fit".into(),
            PriorKind::Learned {
                weights: w,
                scale: 1.0,
                disproof_scale: 1.0,
            },
        ));
        win_rate(&train)
    };
    if held_out.is_empty() {
        return Ok(());
    }
    print_eval(&held_out, base, !args.files.is_empty(), &models);
    Ok(())
}

/// Prints the held-out table: one row per file, then the mean over the files.
fn print_eval(
    held_out: &[(&PathBuf, Vec<Sample>)],
    base: f64,
    trained: bool,
    models: &[(String, PriorKind)],
) {
    println!(
        "held-out mean log loss (nats); constant = {base:.4}, the win rate of the {} samples",
        if trained { "training" } else { "held-out" }
    );
    let width = held_out
        .iter()
        .map(|(p, _)| p.display().to_string().len())
        .max()
        .unwrap_or(4)
        .max("mean over files".len());
    let mut header = format!(
        "{:<width$} {:>8} {:>6} {:>9}",
        "file", "samples", "wins", "constant"
    );
    for (name, _) in models {
        header.push_str(&format!(" {:>w$}", name, w = name.len().max(9)));
    }
    println!("{header}");
    let mut sums = vec![0.0; models.len() + 1];
    for (path, s) in held_out {
        let constant = mean_log_loss(s, |_| base);
        sums[0] += constant;
        let mut line = format!(
            "{:<width$} {:>8} {:>6.3} {:>9.4}",
            path.display(),
            s.len(),
            win_rate(s),
            constant
        );
        for (k, (name, kind)) in models.iter().enumerate() {
            let loss = mean_log_loss(s, |f| kind.win_probability(f));
            sums[k + 1] += loss;
            line.push_str(&format!(" {:>w$.4}", loss, w = name.len().max(9)));
        }
        println!("{line}");
    }
    let n = held_out.len() as f64;
    let mut line = format!(
        "{:<width$} {:>8} {:>6} {:>9.4}",
        "mean over files",
        held_out.iter().map(|(_, s)| s.len()).sum::<usize>(),
        "",
        sums[0] / n
    );
    for (k, (name, _)) in models.iter().enumerate() {
        line.push_str(&format!(
            " {:>w$.4}",
            sums[k + 1] / n,
            w = name.len().max(9)
        ));
    }
    println!("{line}");
}
