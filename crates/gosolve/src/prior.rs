//! Initial proof and disproof numbers of new nodes (the prior).
//!
//! The prior only orders the search: nodes are decided by proofs alone, so every prior gives
//! the same answers. Each prior estimates the probability p that the side to move wins and
//! starts a node at (φ, δ) = (1 + ⌊S·(−ln p)⌋, 1 + ⌊S_δ·(−ln(1 − p))⌋), capped at 2^40, where
//! S_δ = S but for the learned prior, whose default is S = 576, S_δ = 192:
//!
//! - `Score`: a logistic on the mover's area margin against the komi,
//!   p = 1 / (1 + e^(−slope·x)), x = margin / (2·points) in half-points;
//! - `Learned`: the Sanko paper's learned prior (Section 5): a logistic model over cheap
//!   bitboard counts ([`features`]: stones, eye points, chains in atari and with two
//!   liberties, liberties, space out of the opponent's reach, the area margin and the side to
//!   move, each seen from the mover), fitted by Newton's method ([`fit`]) to samples of the
//!   proofs a solve stores (`tsumi bench --samples FILE`, then `tsumi fit-prior FILE`).

use crate::board::{Board, Geometry};
use games::Player;
use games::go::Komi;

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
    /// A logistic model p = σ(w · f) over [`features`], with a scale of its own for each
    /// number: (φ, δ) = (1 + ⌊S·(−ln p)⌋, 1 + ⌊S_δ·(−ln(1 − p))⌋).
    Learned {
        /// The weights w, one per feature.
        weights: [f64; FEATURES],
        /// Scale S of the proof number φ (the mover's win).
        scale: f64,
        /// Scale S_δ of the disproof number δ (the mover's loss); equal to `scale` for the
        /// symmetric numbers of the Sanko paper.
        disproof_scale: f64,
    },
}

/// Number of features of the learned prior.
pub const FEATURES: usize = 15;

/// Names of the features, in order.
pub const FEATURE_NAMES: [&str; FEATURES] = [
    "constant",
    "black_to_move",
    "margin",
    "stones_mover",
    "stones_opponent",
    "eyes_mover",
    "eyes_opponent",
    "atari_mover",
    "atari_opponent",
    "two_liberties_mover",
    "two_liberties_opponent",
    "liberties_mover",
    "liberties_opponent",
    "space_mover",
    "space_opponent",
];

/// The built-in weights of the learned prior, fitted by `tsumi fit-prior` to 13,855 samples
/// written by `tsumi prove go B --komi K --winner W --prior learned --samples FILE` for the
/// two deciding questions (Black at v − ½, White at v + ½) of 3x4, 4x4, 2x5, 2x6 and 3x5
/// (docs/log/2026-12-06-bench-boards.md, with the refits tried since).
/// [`PriorKind::LEARNED`] uses them at scales 576 (φ) and 192 (δ).
pub const LEARNED_WEIGHTS: [f64; FEATURES] = [
    0.7365, -0.8761, 1.0955, 2.7823, -2.8287, 3.1556, -4.8932, -9.6600, 10.3716, -2.8669, 2.8456,
    6.0908, -4.6438, 5.2755, -3.0203,
];

impl PriorKind {
    /// The learned prior with the built-in weights, at scales S = 576 for φ and S_δ = 192 for
    /// δ: the fewest expansions over the 39 positions of `tsumi bench --boards suite` among
    /// the scales tried (5.30 M against 6.09 M for one scale of 384), confirmed on boards
    /// outside the suite. The sweep is in docs/log/2026-12-06-ablations.md. A larger S sets
    /// the numbers of likely and unlikely children further apart, so the search stays longer
    /// on the move the model prefers; a smaller S_δ makes a new node's loss for its mover look
    /// closer, so a node's φ (the least δ of its children) starts lower than the sum its δ
    /// takes over all its children's φ.
    pub const LEARNED: PriorKind = PriorKind::Learned {
        weights: LEARNED_WEIGHTS,
        scale: 576.0,
        disproof_scale: 192.0,
    };

    /// The area-margin prior with its tuned parameters.
    pub const SCORE: PriorKind = PriorKind::Score {
        slope: 4.0,
        scale: 16.0,
    };

    /// The probability p that the side to move wins, as this prior estimates it from the
    /// position's [`features`] (the numbers of a new node are then 1 + ⌊S·(−ln p)⌋ and
    /// 1 + ⌊S·(−ln(1 − p))⌋): ½ for `Uniform`, σ(slope·margin) for `Score` (feature 2 is the
    /// mover's normalised margin x of the area-margin prior), σ(w · f) for `Learned`. Used to
    /// measure a prior's log loss on samples (`tsumi fit-prior --eval`).
    #[must_use]
    pub fn win_probability(&self, f: &[f64; FEATURES]) -> f64 {
        match *self {
            PriorKind::Uniform => 0.5,
            PriorKind::Score { slope, .. } => logistic(slope * f[2]),
            PriorKind::Learned { weights, .. } => {
                logistic(weights.iter().zip(f).map(|(w, v)| w * v).sum())
            }
        }
    }
}

/// σ(x) = 1 / (1 + e^(−x)).
#[inline]
fn logistic(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The mean log loss −(1/m) Σ ln q of the probabilities `p(features)` that the mover wins,
/// q = p for a sample the mover won and 1 − p for one it lost, with p clamped to
/// [10⁻¹², 1 − 10⁻¹²] (so one confident mistake costs at most 27.6). In nats; 0 for no samples.
#[must_use]
pub fn mean_log_loss(
    samples: &[([f64; FEATURES], bool)],
    p: impl Fn(&[f64; FEATURES]) -> f64,
) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    samples
        .iter()
        .map(|(f, y)| {
            let p = p(f).clamp(1e-12, 1.0 - 1e-12);
            if *y { -p.ln() } else { -(1.0 - p).ln() }
        })
        .sum::<f64>()
        / samples.len() as f64
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
                PriorKind::Uniform | PriorKind::Learned { .. } => (1, 1),
                PriorKind::Score { slope, scale } => {
                    let x = f64::from(xm) / (2.0 * points as f64);
                    let p = 1.0 / (1.0 + (-slope * x).exp());
                    (numbers(p, scale), numbers(1.0 - p, scale))
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
        match self.kind {
            PriorKind::Uniform => return (1, 1),
            PriorKind::Learned {
                scale,
                disproof_scale,
                ..
            } => {
                let p = self
                    .kind
                    .win_probability(&features_half_points(geo, board, to_move, komi2));
                return (numbers(p, scale), numbers(1.0 - p, disproof_scale));
            }
            PriorKind::Score { .. } => {}
        }
        let m2 = 2 * board.area_score(geo) - komi2;
        let xm = if to_move == Player::Black { m2 } else { -m2 };
        self.table[(xm + self.offset).clamp(0, 2 * self.offset) as usize]
    }
}

/// 1 + ⌊S·(−ln q)⌋, at most 2^40 (never 0 or infinite).
#[inline]
fn numbers(q: f64, scale: f64) -> u64 {
    1 + (scale * -q.max(1e-12).ln()).clamp(0.0, (1u64 << 40) as f64) as u64
}

/// The features of the learned prior for the side to move, `to_move`: point counts are divided
/// by the number of points, chain counts by four (as in the Sanko paper, Section 5).
///
/// ```text
///   0 constant 1          1 +1 if Black is to move, −1 otherwise
///   2 the mover's area margin minus its komi (points, / points)
///   3,4  stones           5,6  eye points (empty, every neighbour one colour)
///   7,8  chains in atari  9,10 chains with two liberties
///   11,12 liberties (empty points next to the colour)
///   13,14 space: own stones and empty points touching no opponent stone
/// ```
/// Pairs are (mover, opponent).
#[must_use]
pub fn features(geo: &Geometry, board: &Board, to_move: Player, komi: Komi) -> [f64; FEATURES] {
    features_half_points(geo, board, to_move, komi.half_points())
}

/// [`features`] with the komi in half-points, as the search and its table entries hold it.
#[inline]
pub(crate) fn features_half_points(
    geo: &Geometry,
    board: &Board,
    to_move: Player,
    komi2: i32,
) -> [f64; FEATURES] {
    let n = geo.points() as f64;
    let empty = board.empty(geo);
    let (me, opp) = (board.stones(to_move), board.stones(to_move.opponent()));
    let chains = |stones: crate::board::Bitboard| {
        let (mut atari, mut two) = (0u32, 0u32);
        let mut rest = stones;
        while let Some(p) = rest.lowest() {
            let chain = geo.flood(crate::board::Bitboard::from_point(p), stones);
            rest = rest.minus(chain);
            match (geo.neighbours(chain) & empty).count() {
                1 => atari += 1,
                2 => two += 1,
                _ => {}
            }
        }
        (f64::from(atari) / 4.0, f64::from(two) / 4.0)
    };
    // Empty points with no neighbour outside `own`.
    let eyes = |own: crate::board::Bitboard| {
        f64::from(empty.minus(geo.neighbours(geo.full().minus(own))).count()) / n
    };
    let libs = |own: crate::board::Bitboard| f64::from((geo.neighbours(own) & empty).count()) / n;
    let space = |other: crate::board::Bitboard| {
        let reach = geo.neighbours(other) | other;
        f64::from(geo.full().minus(reach).count()) / n
    };
    let sign = if to_move == Player::Black { 1 } else { -1 };
    let margin = f64::from(sign * (2 * board.area_score(geo) - komi2)) / (2.0 * n);
    let (am, tm) = chains(me);
    let (ao, to) = chains(opp);
    [
        1.0,
        f64::from(sign),
        margin,
        f64::from(me.count()) / n,
        f64::from(opp.count()) / n,
        eyes(me),
        eyes(opp),
        am,
        ao,
        tm,
        to,
        libs(me),
        libs(opp),
        space(opp),
        space(me),
    ]
}

/// Fits the weights of a logistic model to `samples` (features, whether the mover won) by
/// Newton's method on the mean log loss with an L2 penalty `l2` (not on the constant).
/// Returns the weights and the mean log loss of the fitted model and of the constant model.
#[must_use]
pub fn fit(samples: &[([f64; FEATURES], bool)], l2: f64) -> ([f64; FEATURES], f64, f64) {
    let m = samples.len().max(1) as f64;
    let mut w = [0.0; FEATURES];
    let loss = |w: &[f64; FEATURES]| {
        mean_log_loss(samples, |f| {
            logistic(w.iter().zip(f).map(|(a, b)| a * b).sum())
        })
    };
    for _ in 0..30 {
        let mut g = [0.0; FEATURES];
        let mut h = [[0.0; FEATURES]; FEATURES];
        for (f, y) in samples {
            let x: f64 = w.iter().zip(f).map(|(a, b)| a * b).sum();
            let p = 1.0 / (1.0 + (-x).exp());
            let r = p - if *y { 1.0 } else { 0.0 };
            let s = (p * (1.0 - p)).max(1e-9);
            for i in 0..FEATURES {
                g[i] += r * f[i] / m;
                for j in 0..FEATURES {
                    h[i][j] += s * f[i] * f[j] / m;
                }
            }
        }
        for i in 1..FEATURES {
            g[i] += l2 * w[i];
            h[i][i] += l2;
        }
        for (i, row) in h.iter_mut().enumerate() {
            row[i] += 1e-9;
        }
        let Some(step) = solve_linear(h, g) else {
            break;
        };
        let mut done = true;
        for i in 0..FEATURES {
            w[i] -= step[i];
            if step[i].abs() > 1e-9 {
                done = false;
            }
        }
        if done {
            break;
        }
    }
    let pos = samples.iter().filter(|s| s.1).count() as f64 / m;
    let mut c = [0.0; FEATURES];
    c[0] = (pos.clamp(1e-9, 1.0 - 1e-9) / (1.0 - pos.clamp(1e-9, 1.0 - 1e-9))).ln();
    (w, loss(&w), loss(&c))
}

/// Solves h·x = g by Gaussian elimination with partial pivoting (`None` if singular).
fn solve_linear(
    mut h: [[f64; FEATURES]; FEATURES],
    mut g: [f64; FEATURES],
) -> Option<[f64; FEATURES]> {
    for c in 0..FEATURES {
        let piv = (c..FEATURES).max_by(|&a, &b| h[a][c].abs().total_cmp(&h[b][c].abs()))?;
        if h[piv][c].abs() < 1e-15 {
            return None;
        }
        h.swap(c, piv);
        g.swap(c, piv);
        for r in 0..FEATURES {
            if r != c {
                let k = h[r][c] / h[c][c];
                if k != 0.0 {
                    let pivot_row = h[c];
                    for (x, p) in h[r][c..].iter_mut().zip(&pivot_row[c..]) {
                        *x -= k * p;
                    }
                    g[r] -= k * g[c];
                }
            }
        }
    }
    let mut x = [0.0; FEATURES];
    for i in 0..FEATURES {
        x[i] = g[i] / h[i][i];
    }
    Some(x)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn newton_recovers_a_known_model() {
        // Samples drawn from a known logistic model on two features are fitted back.
        let mut samples = Vec::new();
        let mut state = 12345u64;
        let mut next = || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 11) as f64 / (1u64 << 53) as f64
        };
        for _ in 0..20_000 {
            let mut f = [0.0; FEATURES];
            f[0] = 1.0;
            f[2] = next() * 2.0 - 1.0;
            f[3] = next();
            let x = 0.5 + 3.0 * f[2] - 2.0 * f[3];
            let y = next() < 1.0 / (1.0 + (-x).exp());
            samples.push((f, y));
        }
        let (w, fitted, constant) = fit(&samples, 0.0);
        assert!((w[2] - 3.0).abs() < 0.3, "{w:?}");
        assert!((w[3] + 2.0).abs() < 0.3, "{w:?}");
        assert!(fitted < constant);
    }

    /// A board with every point black, white or empty at random (not necessarily legal).
    fn random_board(geo: &Geometry, rng: &mut rand_xoshiro::Xoshiro256PlusPlus) -> Board {
        use rand::Rng;
        let mut b = Board::default();
        for p in 0..geo.points() {
            match rng.random_range(0..3) {
                0 => b.black.0 |= 1 << p,
                1 => b.white.0 |= 1 << p,
                _ => {}
            }
        }
        b
    }

    #[test]
    fn eye_points_equal_a_point_by_point_count() {
        use rand::SeedableRng;
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(7);
        for (r, c) in [(1, 1), (1, 5), (2, 3), (3, 3), (4, 5), (5, 6)] {
            let geo = Geometry::new(r, c).unwrap();
            for _ in 0..200 {
                let b = random_board(&geo, &mut rng);
                let empty = b.empty(&geo);
                for (k, own) in [(5, b.black), (6, b.white)] {
                    let slow = empty
                        .points()
                        .filter(|&p| {
                            geo.neighbours(crate::board::Bitboard::from_point(p)).0 & !own.0 == 0
                        })
                        .count();
                    let f = features(&geo, &b, Player::Black, Komi::from_half_points(1));
                    assert_eq!(f[k], slow as f64 / geo.points() as f64, "{r}x{c}");
                }
            }
        }
    }

    #[test]
    fn win_probability_gives_the_initial_numbers() {
        // The probability a prior reports from the features is the one its initial numbers
        // encode, so a log loss measured on samples is the loss of the search's own prior.
        use rand::{Rng, SeedableRng};
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(11);
        for (r, c) in [(1, 7), (2, 3), (3, 4), (4, 4), (4, 5)] {
            let geo = Geometry::new(r, c).unwrap();
            for _ in 0..200 {
                let b = random_board(&geo, &mut rng);
                let komi2 = 2 * rng.random_range(-20..20) + 1;
                let mover = if rng.random_bool(0.5) {
                    Player::Black
                } else {
                    Player::White
                };
                let f = features_half_points(&geo, &b, mover, komi2);
                for kind in [PriorKind::SCORE, PriorKind::LEARNED, PriorKind::Uniform] {
                    let (pn, dn) =
                        Prior::new(kind, geo.points(), komi2).initial(&geo, &b, mover, komi2);
                    let p = kind.win_probability(&f);
                    let want = match kind {
                        PriorKind::Uniform => (1, 1),
                        PriorKind::Score { scale, .. } => {
                            (numbers(p, scale), numbers(1.0 - p, scale))
                        }
                        PriorKind::Learned {
                            scale,
                            disproof_scale,
                            ..
                        } => (numbers(p, scale), numbers(1.0 - p, disproof_scale)),
                    };
                    assert_eq!((pn, dn), want, "{r}x{c} {kind:?} p = {p}");
                }
            }
        }
    }

    #[test]
    fn log_loss_of_known_probabilities() {
        let mut f = [0.0; FEATURES];
        f[0] = 1.0;
        let samples = [(f, true), (f, false), (f, true), (f, true)];
        let loss = mean_log_loss(&samples, |_| 0.75);
        let want = -(3.0 * 0.75f64.ln() + 0.25f64.ln()) / 4.0;
        assert!((loss - want).abs() < 1e-12, "{loss} {want}");
        assert!((mean_log_loss(&samples, |_| 0.5) - std::f64::consts::LN_2).abs() < 1e-12);
        // A certain mistake costs ln 10¹², not infinity.
        assert!((mean_log_loss(&samples[1..2], |_| 1.0) - 1e12f64.ln()).abs() < 1e-3);
        assert_eq!(mean_log_loss(&[], |_| 0.5), 0.0);
    }

    #[test]
    fn features_are_seen_from_the_mover() {
        let geo = Geometry::new(3, 3).unwrap();
        let b = Board::from_drawing(&geo, "X../.X./..O").unwrap();
        let fb = features(&geo, &b, Player::Black, Komi::from_half_points(1));
        let fw = features(&geo, &b, Player::White, Komi::from_half_points(1));
        assert_eq!(fb[3], 2.0 / 9.0);
        assert_eq!(fw[4], 2.0 / 9.0);
        assert_eq!((fb[1], fw[1]), (1.0, -1.0));
        // Initial numbers are never 0 and at most 2^40 + 1.
        let p = Prior::new(PriorKind::LEARNED, 9, 1);
        let (pn, dn) = p.initial(&geo, &b, Player::Black, 1);
        assert!(pn >= 1 && dn >= 1 && pn <= (1 << 40) + 1);
    }
}
