//! The Go solver's configuration from the command line: ε of the 1+ε rule, the budgets
//! (expansions, seconds, Ctrl-C), the progress line, and the largest board df-pn takes.

use crate::interrupt::cancel_flag;
use crate::progress::progress_line;
use anyhow::bail;
use gosolve::Config;
use std::time::Duration;

/// Budgets in seconds above this (about 31 years) mean "no practical limit" (a `Duration`
/// cannot hold every finite f64).
pub const MAX_SECONDS: f64 = 1e9;

/// The largest board the df-pn engine accepts, in points.
pub const DFPN_MAX_POINTS: usize = 30;

/// Refuses boards on which the df-pn solver would not be exact.
///
/// # Errors
/// A board above [`DFPN_MAX_POINTS`] points: its 64-bit Zobrist position keys are linearly
/// independent (so exact) only up to 30 points, and proof attributes are packed for at most
/// 32, so larger boards are refused rather than solved with hash identity.
pub fn check_dfpn_size(rows: usize, cols: usize) -> anyhow::Result<()> {
    let points = rows * cols;
    if points > DFPN_MAX_POINTS {
        bail!(
            "{rows}x{cols} has {points} points: the df-pn solver is exact only up to {DFPN_MAX_POINTS} points (its 64-bit position keys are independent only that far); `solve --engine oracle` answers positions of larger boards that have few empty points"
        );
    }
    Ok(())
}

/// Checks an `--epsilon` value: a finite number ≥ 0 (ε of the 1+ε threshold rule).
///
/// # Errors
/// A one-line message naming `--epsilon`.
pub fn check_epsilon(epsilon: Option<f64>) -> anyhow::Result<()> {
    match epsilon {
        Some(e) if !(e.is_finite() && e >= 0.0) => {
            bail!("--epsilon {e} is not a finite number ≥ 0")
        }
        _ => Ok(()),
    }
}

/// The solver configuration from the budget flags: the value session's
/// ([`gosolve::session::config`], so its prior unless the caller sets `--prior`'s) with these
/// budgets, ε, the Ctrl-C flag and a progress line labelled `label`.
#[must_use]
pub fn config(max_expansions: u64, seconds: f64, epsilon: f64, label: String) -> Config {
    Config {
        limits: gosolve::Limits {
            max_expansions,
            max_time: (seconds > 0.0).then(|| Duration::from_secs_f64(seconds.min(MAX_SECONDS))),
            cancel: Some(cancel_flag()),
        },
        epsilon,
        progress: Some(progress_line(label)),
        ..gosolve::session::config()
    }
}
