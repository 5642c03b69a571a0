//! Proof and disproof numbers: 32-bit, with `INF` for "solved the other way", and saturating
//! arithmetic so a sum of finite numbers never reads as infinite.
//!
//! This is pns's own compact representation (tree nodes and table entries hold two of them);
//! the proof number shared with gosolve is the 64-bit [`vocab::Pn`], and [`vocab::Pn::from_u32`]
//! reads one of these as it. A [`crate::Prior`] speaks `vocab::Pn` and [`unknown_pn`] brings
//! its estimate into 32 bits: the 32-bit numbers stay because a table entry packs φ and δ in
//! one word (24 bytes an entry) and the tree's nodes are counted against the memory budget, so
//! 64-bit numbers would change how many entries and nodes fit, and with them the searches.
//!
//! All algorithms here use the **negamax** form (Nagai): a node's numbers are `(φ, δ)` from the
//! point of view of the player to move there, where φ is the proof number of "the mover reaches
//! its goal" and δ its disproof number. For the attacker (the player the question is about)
//! φ = pn and δ = dn; for the defender φ = dn and δ = pn. With children `c`:
//!
//! ```text
//! φ(n) = min_c δ(c)          δ(n) = Σ_c φ(c)        (standard)
//!                            δ(n) = max_c φ(c) + |{c : φ(c) ≠ 0}| − 1   (weak PNS, Ueda et al. 2008)
//! ```
//!
//! A node is won for its mover when φ = 0 (then δ = INF) and lost when δ = 0 (φ = INF).

/// Infinity: a proven node has disproof number `INF`, a disproven one proof number `INF`.
pub const INF: u32 = u32::MAX;
/// The largest finite proof or disproof number; sums saturate here.
pub const MAX_FINITE: u32 = u32::MAX - 1;

/// `a + b`, infinite if either is, otherwise saturating at [`MAX_FINITE`].
#[must_use]
pub const fn add(a: u32, b: u32) -> u32 {
    if a == INF || b == INF {
        INF
    } else {
        let s = a as u64 + b as u64;
        if s > MAX_FINITE as u64 {
            MAX_FINITE
        } else {
            s as u32
        }
    }
}

/// A heuristic number made safe for an unknown node: never 0 and never infinite.
#[must_use]
pub const fn unknown(x: u32) -> u32 {
    if x == 0 {
        1
    } else if x > MAX_FINITE - 1 {
        MAX_FINITE - 1
    } else {
        x
    }
}

/// [`unknown`] of a prior's estimate: the estimate in 32 bits (∞ and anything above
/// [`MAX_FINITE`] read as [`INF`]), made safe for an unknown node.
#[must_use]
pub fn unknown_pn(x: vocab::Pn) -> u32 {
    unknown(u32::try_from(x.get()).unwrap_or(INF))
}

/// Accumulates δ of a node from its children's φ, by the standard sum or the weak rule.
#[derive(Clone, Copy, Debug)]
pub(crate) struct DeltaAcc {
    weak: bool,
    sum: u32,
    max: u32,
    open: u32,
}

impl DeltaAcc {
    pub const fn new(weak: bool) -> Self {
        Self {
            weak,
            sum: 0,
            max: 0,
            open: 0,
        }
    }

    pub fn push(&mut self, phi: u32) {
        self.sum = add(self.sum, phi);
        if phi != 0 {
            self.open += 1;
            self.max = self.max.max(phi);
        }
    }

    pub const fn value(&self) -> u32 {
        if !self.weak || self.sum == INF || self.open == 0 {
            self.sum
        } else {
            add(self.max, self.open - 1)
        }
    }
}

/// Ceiling of `x × (1 + ε)`, at least `x + 1`, for the 1+ε rule (Pawlewicz & Lew 2007).
#[must_use]
pub fn one_plus_epsilon(x: u32, epsilon: f64) -> u32 {
    if x >= MAX_FINITE {
        return INF;
    }
    let grown = (f64::from(x) * (1.0 + epsilon)).ceil();
    let grown = if grown >= f64::from(MAX_FINITE) {
        MAX_FINITE
    } else {
        grown as u32
    };
    grown.max(x + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn saturating_sums_stay_finite() {
        assert_eq!(add(MAX_FINITE, 5), MAX_FINITE);
        assert_eq!(add(3, INF), INF);
        assert_eq!(add(2, 3), 5);
        assert_eq!(unknown(0), 1);
        assert!(unknown(INF) < MAX_FINITE);
        assert_eq!(unknown_pn(vocab::Pn::new(7)), 7);
        assert_eq!(unknown_pn(vocab::Pn::ZERO), 1);
        assert_eq!(unknown_pn(vocab::Pn::INF), unknown(INF));
        assert_eq!(
            unknown_pn(vocab::Pn::new(u64::from(u32::MAX) + 9)),
            unknown(INF)
        );
    }

    #[test]
    fn weak_and_standard_delta() {
        let mut s = DeltaAcc::new(false);
        let mut w = DeltaAcc::new(true);
        for phi in [3, 0, 5, 1] {
            s.push(phi);
            w.push(phi);
        }
        assert_eq!(s.value(), 9);
        assert_eq!(w.value(), 5 + 2);
        let mut w = DeltaAcc::new(true);
        w.push(0);
        assert_eq!(w.value(), 0);
        w.push(INF);
        assert_eq!(w.value(), INF);
    }

    #[test]
    fn epsilon_rule_always_grows() {
        assert_eq!(one_plus_epsilon(1, 0.25), 2);
        assert_eq!(one_plus_epsilon(8, 0.25), 10);
        assert_eq!(one_plus_epsilon(INF, 0.25), INF);
    }
}
