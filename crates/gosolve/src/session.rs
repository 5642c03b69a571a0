//! The value session: the one set-up of the solver that `tsumi solve`, `tsumi bench`,
//! `tsumi prove go`, the GTP and analysis engines and the Python module share, so that they
//! all search with the same prior and ε.
//!
//! A session is a [`Solver`] built from [`config`] (the caller adds its budgets, cancel flag
//! and progress line) and asked for a value by [`solve_value_from`], whose first question
//! comes from a guess (the playouts', or the solver's short probes). Its prior is the learned
//! one ([`PRIOR`]): fewer expansions than the area-margin prior on every bench board of two
//! rows or more (2.8–2.9× on 3x5 and 4x4; docs/log/2026-12-06-bench-boards.md). It is also
//! [`Config::default()`]; [`Config::reference()`] keeps the area-margin prior for the solver's
//! own tests and the selftests, whose counts are pinned.
//!
//! # Examples
//! ```
//! use games::go::{Position, Rules, Size};
//! use gosolve::session;
//! let size = Size::new(2, 2).unwrap();
//! let mut solver = session::solver(size, 1).unwrap();
//! let root = Position::new(size, Rules::default());
//! let solved = session::solve_value_from(&mut solver, &root, None, |_| {});
//! assert_eq!(solved.value, Some(1));
//! ```

pub use crate::value::{Solved, solve_value_from};
use crate::{BoardError, Config, Solver, prior::PriorKind};

/// The prior of a session: the learned logistic model at scales 576/192
/// ([`PriorKind::LEARNED`]).
pub const PRIOR: PriorKind = PriorKind::LEARNED;

/// ε of the 1+ε rule in a session (the Sanko paper's).
pub const EPSILON: f64 = 0.3;

/// The configuration of a session: [`Config::reference()`] with [`PRIOR`] and [`EPSILON`]; no
/// budget, cancel flag or progress callback (the caller sets those).
#[must_use]
pub fn config() -> Config {
    Config {
        prior: PRIOR,
        epsilon: EPSILON,
        ..Config::reference()
    }
}

/// A solver of boards of `size` with a table of `tt_mib` MiB and the session's [`config`].
///
/// # Errors
/// As [`Solver::for_size`].
pub fn solver(size: games::go::Size, tt_mib: usize) -> Result<Solver, BoardError> {
    Solver::for_size(size, tt_mib, config())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_session_searches_with_the_learned_prior_and_the_paper_epsilon() {
        let c = config();
        assert_eq!(c.prior, PriorKind::LEARNED);
        assert_ne!(c.prior, Config::reference().prior, "the reference differs");
        assert!((c.epsilon - 0.3).abs() < 1e-12);
        assert_eq!(c.limits.max_expansions, 0);
        assert!(c.limits.cancel.is_none() && c.progress.is_none());
    }
}
