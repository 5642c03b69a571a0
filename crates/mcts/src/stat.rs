//! A count and a win sum, and the selection formulas of the four players.
//!
//! Win sums are kept in **half-points from Black's point of view** (a Black win adds 2, a
//! draw 1, a White win 0), so integer sums are exact and runs are bit-for-bit repeatable.
//! [`Stat::mean_for`] turns a sum into the mean reward of the player to move.

use games::Player;

/// A sample count and a win sum in half-points for Black.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stat {
    /// Number of playouts.
    pub n: u32,
    /// Sum of rewards in half-points for Black (2 per Black win, 1 per draw).
    pub w: u32,
}

impl Stat {
    /// Adds one playout with `reward` half-points for Black.
    #[inline]
    pub fn add(&mut self, reward: u32) {
        self.n += 1;
        self.w += reward;
    }

    /// The win sum in half-points for `player`.
    #[inline]
    #[must_use]
    pub const fn wins_for(self, player: Player) -> u32 {
        match player {
            Player::Black => self.w,
            Player::White => 2 * self.n - self.w,
        }
    }

    /// The mean reward in [0, 1] for `player`, or `default` without samples.
    #[inline]
    #[must_use]
    pub fn mean_for(self, player: Player, default: f64) -> f64 {
        if self.n == 0 {
            default
        } else {
            f64::from(self.wins_for(player)) / (2.0 * f64::from(self.n))
        }
    }
}

/// The weights `(β, β̃, β̂) = (n/N, ñ/N, n̂/N)` with `N = n + ñ + n̂` of Equation 1:
/// the variance-minimising convex combination of three independent means.
///
/// # Panics
/// When all three counts are zero (the paper tries a move with ñ = 0 first instead).
#[must_use]
pub fn equation1_weights(n: u32, n_amaf: u32, n_perm: u32) -> (f64, f64, f64) {
    let total = f64::from(n) + f64::from(n_amaf) + f64::from(n_perm);
    assert!(total > 0.0, "equation 1 needs at least one sample");
    (
        f64::from(n) / total,
        f64::from(n_amaf) / total,
        f64::from(n_perm) / total,
    )
}

/// MCPS's value of a move (Equation 1): `(n·Q + ñ·Q̃ + n̂·Q̂) / (n + ñ + n̂)` for `player`.
#[inline]
#[must_use]
pub fn mcps_value(player: Player, edge: Stat, amaf: Stat, perm: Stat) -> f64 {
    let num = f64::from(edge.wins_for(player))
        + f64::from(amaf.wins_for(player))
        + f64::from(perm.wins_for(player));
    let den = 2.0 * (f64::from(edge.n) + f64::from(amaf.n) + f64::from(perm.n));
    num / den
}

/// GRAVE's (and RAVE's) value: `(1 − β)·Q + β·Q̃` with `β = ñ / (ñ + n + bias·ñ·n)`,
/// `Q = 1` without visits.
#[inline]
#[must_use]
pub fn grave_value(player: Player, edge: Stat, amaf: Stat, bias: f64) -> f64 {
    let q = edge.mean_for(player, 1.0);
    let qa = amaf.mean_for(player, 1.0);
    let (n, na) = (f64::from(edge.n), f64::from(amaf.n));
    let beta = na / (na + n + bias * na * n);
    (1.0 - beta) * q + beta * qa
}

/// UCT's value: `Q + c·sqrt(ln n(s) / n(s,a))` (for a visited move).
#[inline]
#[must_use]
pub fn uct_value(player: Player, edge: Stat, parent_visits: u32, c: f64) -> f64 {
    let q = edge.mean_for(player, 1.0);
    q + c * (f64::from(parent_visits.max(1)).ln() / f64::from(edge.n)).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn perspective() {
        let s = Stat { n: 4, w: 6 }; // 3 Black wins of 4
        assert_eq!(s.wins_for(Player::Black), 6);
        assert_eq!(s.wins_for(Player::White), 2);
        assert!((s.mean_for(Player::Black, 0.0) - 0.75).abs() < 1e-12);
        assert!((s.mean_for(Player::White, 0.0) - 0.25).abs() < 1e-12);
        assert_eq!(Stat::default().mean_for(Player::White, 1.0), 1.0);
    }

    #[test]
    fn equation1() {
        let (b, bt, bh) = equation1_weights(10, 30, 60);
        assert!((b - 0.1).abs() < 1e-12 && (bt - 0.3).abs() < 1e-12 && (bh - 0.6).abs() < 1e-12);
        assert!((b + bt + bh - 1.0).abs() < 1e-12);
        // The weights minimise σ²(β²/n + β̃²/ñ + β̂²/n̂) over β + β̃ + β̂ = 1: V* = 1/N,
        // and any perturbation (x, y, z) with x + y + z = 0 does no better.
        let (n, nt, nh) = (10.0, 30.0, 60.0);
        let v = |x: f64, y: f64, z: f64| {
            (b + x).powi(2) / n + (bt + y).powi(2) / nt + (bh + z).powi(2) / nh
        };
        assert!((v(0.0, 0.0, 0.0) - 1.0 / 100.0).abs() < 1e-12);
        for (x, y) in [(0.05, -0.02), (-0.1, 0.03), (0.01, 0.01), (0.2, -0.3)] {
            assert!(v(x, y, -x - y) >= v(0.0, 0.0, 0.0));
        }
        // Equation 1 is the weighted mean with these weights.
        let e = Stat { n: 10, w: 14 }; // Q = 0.7 for Black
        let a = Stat { n: 30, w: 30 }; // 0.5
        let p = Stat { n: 60, w: 24 }; // 0.2
        let want = b * 0.7 + bt * 0.5 + bh * 0.2;
        assert!((mcps_value(Player::Black, e, a, p) - want).abs() < 1e-12);
        let want_w = b * 0.3 + bt * 0.5 + bh * 0.8;
        assert!((mcps_value(Player::White, e, a, p) - want_w).abs() < 1e-12);
        // Without permutation samples Equation 1 reduces to GRAVE with bias 0.
        let g = grave_value(Player::Black, e, a, 0.0);
        assert!((mcps_value(Player::Black, e, a, Stat::default()) - g).abs() < 1e-12);
    }

    #[test]
    fn grave_and_uct() {
        let e = Stat { n: 0, w: 0 };
        let a = Stat { n: 10, w: 5 };
        // No visits: β = 1, the AMAF mean alone.
        assert!((grave_value(Player::Black, e, a, 1e-5) - 0.25).abs() < 1e-12);
        let e = Stat { n: 10, w: 20 };
        let v = grave_value(Player::Black, e, a, 0.0);
        assert!((v - 0.625).abs() < 1e-12);
        let u = uct_value(Player::Black, Stat { n: 4, w: 4 }, 16, 0.4);
        assert!((u - (0.5 + 0.4 * (16f64.ln() / 4.0).sqrt())).abs() < 1e-12);
    }
}
