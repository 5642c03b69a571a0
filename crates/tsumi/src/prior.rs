//! The prior of new nodes' proof and disproof numbers from the command line: `--prior`'s
//! grammar, the learned prior's weights files (`fit-prior --out`) and its training samples
//! (`bench --samples`).

use anyhow::{Context, bail};
use gosolve::Solver;
use gosolve::search::PriorKind;

/// The prior of `solve`, `prove` and `bench` when `--prior` is not given: the learned
/// logistic model (fewer expansions than the area-margin prior on every bench board measured
/// but 1x7; docs/log/2026-12-06-bench-boards.md).
/// It names the value session's prior ([`gosolve::session::PRIOR`]; a unit test checks it).
pub const DEFAULT_PRIOR: &str = "learned";

/// The largest scale of the learned prior that `--prior learned:S/SD` accepts: the numbers
/// 1 + S·(−ln p) stay below their cap of 2^40 (p ≥ 10⁻¹², so −ln p ≤ 27.7). Above it one
/// number can saturate while the other does not, and the search runs away (measured:
/// `learned:1/1e14` took 1x7 58.3 M expansions against 2,128 at the default).
pub const MAX_LEARNED_SCALE: f64 = 1_000_000.0;

/// Parses a prior: "score", "learned" (the default, [`DEFAULT_PRIOR`]), "uniform", "score:SLOPE:SCALE",
/// "learned:SCALE" or "learned:SCALE:FILE" (weights written by `tsumi fit-prior --out FILE`),
/// where SCALE is one scale S for both numbers or "S/SD" (φ's scale S, δ's scale SD; the
/// default "learned" is 576/192), each scale a positive number at most [`MAX_LEARNED_SCALE`].
///
/// # Errors
/// A one-line message for anything else, or for a weights file that cannot be read.
pub fn parse_prior(text: &str) -> anyhow::Result<PriorKind> {
    let positive = |name: &str, v: &str| -> anyhow::Result<f64> {
        match v.parse::<f64>() {
            Ok(x) if x.is_finite() && x > 0.0 => Ok(x),
            _ => bail!("{name} '{v}' in prior '{text}' is not a positive finite number"),
        }
    };
    // "S" (one scale for both numbers) or "S/SD" (φ's scale, then δ's), each at most
    // MAX_LEARNED_SCALE.
    let bounded = |name: &str, v: &str| -> anyhow::Result<f64> {
        let x = positive(name, v)?;
        if x > MAX_LEARNED_SCALE {
            bail!("{name} '{v}' in prior '{text}' is above {MAX_LEARNED_SCALE}");
        }
        Ok(x)
    };
    let scales = |v: &str| -> anyhow::Result<(f64, f64)> {
        match v.split_once('/') {
            Some((a, b)) => Ok((bounded("scale", a)?, bounded("disproof scale", b)?)),
            None => {
                let s = bounded("scale", v)?;
                Ok((s, s))
            }
        }
    };
    let f: Vec<&str> = text.splitn(3, ':').collect();
    match f.as_slice() {
        ["learned", _, ""] => bail!("prior '{text}' names an empty weights file"),
        ["learned", scale, path] => {
            let (scale, disproof_scale) = scales(scale)?;
            Ok(PriorKind::Learned {
                scale,
                disproof_scale,
                weights: read_weights(std::path::Path::new(path))?,
            })
        }
        ["uniform"] => Ok(PriorKind::Uniform),
        ["score"] => Ok(PriorKind::SCORE),
        ["learned"] => Ok(PriorKind::LEARNED),
        ["learned", scale] => {
            let (scale, disproof_scale) = scales(scale)?;
            Ok(PriorKind::Learned {
                weights: gosolve::prior::LEARNED_WEIGHTS,
                scale,
                disproof_scale,
            })
        }
        ["score", slope, scale] => Ok(PriorKind::Score {
            slope: positive("slope", slope)?,
            scale: positive("scale", scale)?,
        }),
        _ => bail!(
            "unknown prior '{text}' (expected uniform, score, learned, score:SLOPE:SCALE, learned:SCALE or learned:SCALE:FILE, where SCALE is S or S/SD)"
        ),
    }
}

/// Reads the weights of the learned prior from a file: numbers separated by commas, spaces,
/// tabs or newlines (brackets and a leading `weights:` are ignored), as many as
/// [`gosolve::prior::FEATURES`].
///
/// # Errors
/// A missing file, a bad number or a wrong count: a one-line message naming the file.
pub fn read_weights(path: &std::path::Path) -> anyhow::Result<[f64; gosolve::prior::FEATURES]> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read prior weights {}", path.display()))?;
    let text = text.trim().trim_start_matches("weights:");
    let vals: Vec<f64> = text
        .split(|c: char| c == ',' || c == '[' || c == ']' || c.is_whitespace())
        .filter(|t| !t.is_empty())
        .map(|t| {
            t.parse::<f64>()
                .with_context(|| format!("{}: bad weight '{t}'", path.display()))
        })
        .collect::<anyhow::Result<_>>()?;
    let n = gosolve::prior::FEATURES;
    let Ok(w) = <[f64; gosolve::prior::FEATURES]>::try_from(vals.as_slice()) else {
        bail!(
            "{}: expected {n} weights, found {}",
            path.display(),
            vals.len()
        );
    };
    if w.iter().any(|v| !v.is_finite() || v.abs() > MAX_WEIGHT) {
        bail!(
            "{}: weights must be finite numbers of magnitude at most {MAX_WEIGHT}",
            path.display()
        );
    }
    Ok(w)
}

/// The largest weight magnitude `read_weights` accepts: features lie in [−1, 1] (the margin
/// in [−2, 2]), so larger weights only saturate the logistic.
pub const MAX_WEIGHT: f64 = 1000.0;

/// Appends the solver's training samples of the learned prior to `path` (one line each:
/// 1 or 0 for "the mover won", then the features, tab-separated).
///
/// # Errors
/// The file cannot be opened or written: a one-line message naming it.
pub fn write_samples(solver: &mut Solver, path: &std::path::Path) -> anyhow::Result<()> {
    use std::io::Write;
    let mut out = String::new();
    // A file that does not end its last line gets one first, so no sample is glued to it.
    if let Ok(mut f) = std::fs::File::open(path) {
        use std::io::{Read, Seek, SeekFrom};
        let mut last = [0u8; 1];
        if f.seek(SeekFrom::End(-1)).is_ok() && f.read_exact(&mut last).is_ok() && last[0] != b'\n'
        {
            out.push('\n');
        }
    }
    for (f, y) in solver.take_samples() {
        out.push_str(if y { "1" } else { "0" });
        for v in f {
            out.push('\t');
            out.push_str(&format!("{v}"));
        }
        out.push('\n');
    }
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .and_then(|mut f| f.write_all(out.as_bytes()))
        .with_context(|| format!("cannot write samples to {}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_line_default_is_the_value_session_prior() {
        assert_eq!(
            parse_prior(DEFAULT_PRIOR).unwrap(),
            gosolve::session::PRIOR,
            "one default: `--prior`'s is the session's (GTP, analysis, Python)"
        );
    }
}
