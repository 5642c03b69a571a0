//! Proof and disproof numbers: one saturating 64-bit type with an explicit infinity.
//!
//! In the negamax form (Nagai 2002) a node carries, for its side to move, φ (the proof number
//! of "the mover reaches its goal") and δ (its disproof number); with children c
//!
//! ```text
//!   φ(n) = min_c δ(c)        δ(n) = Σ_c φ(c)
//! ```
//!
//! A node won for its mover has (0, ∞), a lost one (∞, 0). Sums saturate at
//! [`Pn::MAX_FINITE`] = ∞ − 1, so a sum of finite numbers is never ∞: only a proof makes a
//! number infinite.

use std::fmt;

/// A proof or disproof number: a count of leaves still to solve, or [`Pn::INF`].
///
/// `Ord` is the order of the counts, with ∞ above every finite number. The representation
/// is the `u64` of [`Pn::get`], ∞ being `u64::MAX` (so a table may store the raw word).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
#[repr(transparent)]
pub struct Pn(u64);

impl Pn {
    /// 0: solved for this number's side.
    pub const ZERO: Pn = Pn(0);
    /// 1: the numbers of a new leaf without a prior.
    pub const ONE: Pn = Pn(1);
    /// Infinity: solved the other way.
    pub const INF: Pn = Pn(u64::MAX);
    /// The largest finite number; finite sums saturate here.
    pub const MAX_FINITE: Pn = Pn(u64::MAX - 1);

    /// The number `n` (`u64::MAX` is [`Pn::INF`]).
    #[must_use]
    pub const fn new(n: u64) -> Pn {
        Pn(n)
    }

    /// A 32-bit number as stored by a compact search (`u32::MAX` is ∞, everything else
    /// keeps its value).
    #[must_use]
    pub const fn from_u32(n: u32) -> Pn {
        if n == u32::MAX { Pn::INF } else { Pn(n as u64) }
    }

    /// The raw count (`u64::MAX` for ∞).
    #[must_use]
    pub const fn get(self) -> u64 {
        self.0
    }

    /// Whether this is ∞.
    #[must_use]
    pub const fn is_inf(self) -> bool {
        self.0 == u64::MAX
    }

    /// Whether this is 0.
    #[must_use]
    pub const fn is_zero(self) -> bool {
        self.0 == 0
    }

    /// `self + other`: ∞ if either is, otherwise the sum saturating at [`Pn::MAX_FINITE`].
    #[must_use]
    pub const fn add(self, other: Pn) -> Pn {
        if self.is_inf() || other.is_inf() {
            Pn::INF
        } else {
            let s = self.0.saturating_add(other.0);
            if s > Pn::MAX_FINITE.0 {
                Pn::MAX_FINITE
            } else {
                Pn(s)
            }
        }
    }
}

/// The count, or "inf".
impl fmt::Display for Pn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_inf() {
            f.write_str("inf")
        } else {
            fmt::Display::fmt(&self.0, f)
        }
    }
}

/// As the raw `u64`, so debug output reads as plain numbers.
impl fmt::Debug for Pn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.0, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn infinity_absorbs_and_finite_sums_saturate_below_it() {
        assert_eq!(Pn::new(2).add(Pn::new(3)), Pn::new(5));
        assert_eq!(Pn::ZERO.add(Pn::INF), Pn::INF);
        assert_eq!(Pn::INF.add(Pn::ZERO), Pn::INF);
        assert_eq!(Pn::MAX_FINITE.add(Pn::ONE), Pn::MAX_FINITE);
        assert_eq!(
            Pn::new(u64::MAX - 5).add(Pn::new(u64::MAX - 5)),
            Pn::MAX_FINITE
        );
        assert!(Pn::MAX_FINITE < Pn::INF && Pn::ZERO < Pn::ONE);
    }

    #[test]
    fn thirty_two_bit_infinity_maps_to_infinity() {
        assert_eq!(Pn::from_u32(u32::MAX), Pn::INF);
        assert_eq!(Pn::from_u32(u32::MAX - 1), Pn::new(u64::from(u32::MAX - 1)));
        assert_eq!(Pn::from_u32(0), Pn::ZERO);
    }

    #[test]
    fn display_names_infinity() {
        assert_eq!(Pn::INF.to_string(), "inf");
        assert_eq!(Pn::new(42).to_string(), "42");
        assert_eq!(
            format!("{:?}", (Pn::new(1), Pn::INF)),
            format!("{:?}", (1u64, u64::MAX))
        );
    }
}
