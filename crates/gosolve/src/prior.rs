//! Initial proof and disproof numbers of new nodes (the prior).
//!
//! The prior only orders the search: nodes are decided by proofs alone, so every prior gives
//! the same answers. The default is a logistic model of the mover's chance on its area margin
//! against the komi, in the shape of the Sanko paper's prior (Section 5) with one feature:
//! p = 1 / (1 + e^(−slope·x)), x = margin / (2·points) in half-points, and
//! (φ, δ) = (1 + ⌊S·(−ln p)⌋, 1 + ⌊S·(−ln(1 − p))⌋).

use crate::board::{Board, Geometry};
use games::Player;

/// How new nodes get their initial (φ, δ). The prior only orders the search: nodes are
/// decided by proofs alone, so every prior gives the same answers.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PriorKind {
    /// (1, 1) everywhere.
    Uniform,
    /// From the area margin of the mover against the komi, x = margin / (2·points) in
    /// half-points: p = 1 / (1 + e^(−slope·x)) estimates the mover's chance, and
    /// (φ, δ) = (1 + ⌊scale·(−ln p)⌋, 1 + ⌊scale·(−ln(1 − p))⌋), as in the Sanko paper's
    /// logistic prior with the area margin as its only feature.
    Score {
        /// Slope of the logistic on the normalised margin.
        slope: f64,
        /// Scale S of the numbers.
        scale: f64,
    },
}

impl PriorKind {
    /// The default prior.
    pub const DEFAULT: PriorKind = PriorKind::Score {
        slope: 4.0,
        scale: 16.0,
    };
}

/// The prior's numbers, tabulated by the mover's margin against the komi in half-points.
#[derive(Clone, Debug)]
pub(crate) struct Prior {
    kind: PriorKind,
    table: Vec<(u64, u64)>,
    offset: i32,
}

impl Prior {
    pub(crate) fn new(kind: PriorKind, points: usize, komi2: i32) -> Self {
        let offset = 2 * points as i32 + komi2.abs() + 1;
        let mut table = Vec::with_capacity(2 * offset as usize + 1);
        for i in 0..=2 * offset {
            let xm = i - offset;
            table.push(match kind {
                PriorKind::Uniform => (1, 1),
                PriorKind::Score { slope, scale } => {
                    let x = f64::from(xm) / (2.0 * points as f64);
                    let p = 1.0 / (1.0 + (-slope * x).exp());
                    let num = |q: f64| 1 + (scale * -q.max(1e-12).ln()).min(1e12) as u64;
                    (num(p), num(1.0 - p))
                }
            });
        }
        Prior {
            kind,
            table,
            offset,
        }
    }

    #[inline]
    pub(crate) fn initial(
        &self,
        geo: &Geometry,
        board: &Board,
        to_move: Player,
        komi2: i32,
    ) -> (u64, u64) {
        if self.kind == PriorKind::Uniform {
            return (1, 1);
        }
        let m2 = 2 * board.area_score(geo) - komi2;
        let xm = if to_move == Player::Black { m2 } else { -m2 };
        self.table[(xm + self.offset).clamp(0, 2 * self.offset) as usize]
    }
}
