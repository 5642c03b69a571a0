//! Fault injection (only with `--features fault-injection`): how often a wrong proof
//! accepted by the table changes a result (Section 8.1 and Table 4 of the Sanko paper).
//!
//! Each *solve* is a seeded random position (a random game on the reference board with a
//! real superko history), its exact value v from an un-faulted solve ([`solve_value`] on a
//! fresh solver, itself checked against the brute-force oracle by `tsumi selftest`), and the two
//! questions that establish v with another fresh [`Solver`] whose table injects one
//! [`FaultKind`] at a small rate: Black wins at komi v − ½ and loses at v + ½. The solve is
//! *changed* when either answer differs from v's (an unknown answer, the budget
//! run out, counts as changed). A changed solve is counted as one fault that changed a
//! result. That is exact when a solve sees at most one fault; with many faults per solve
//! (the rates the selftest uses, to inject enough in seconds) the per-fault bound is
//! optimistic, so [`KindReport::upper95_solve`] also bounds the probability that a solve
//! with faults is changed.
//!
//! The 95% upper bound on the probability p that one fault changes a value is the one-sided
//! Clopper–Pearson bound for x changed of n faults: the p with P(X ≤ x | n, p) = 0.05
//! (for x = 0, 1 − 0.05^(1/n) ≈ 3/n, the rule of three).

use crate::position::reference;
use crate::search::black_wins;
use crate::table::FaultKind;
use crate::value::solve_value;
use crate::{Answer, BoardError, Config, Solver};
use games::Player;
use games::go::{self, KoRule, Rules};

/// The counts of one fault kind.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct KindReport {
    /// The kind injected.
    pub kind: FaultKind,
    /// Solves run (positions the un-faulted solver solved within the budget).
    pub solves: u64,
    /// Solves in which at least one fault was injected.
    pub solves_with_faults: u64,
    /// Faults injected in all solves.
    pub faults: u64,
    /// Solves whose result differed from the oracle's.
    pub changed: u64,
    /// The 95% upper bound on the probability that one fault changes a value
    /// (`changed` of `faults`).
    pub upper95: f64,
    /// The 95% upper bound on the probability that a solve with faults is changed
    /// (`changed` of `solves_with_faults`).
    pub upper95_solve: f64,
}

/// The sizes of a campaign.
#[derive(Clone, Debug)]
pub struct Campaign {
    /// Boards (rows, columns).
    pub boards: Vec<(u32, u32)>,
    /// Solves per board and kind.
    pub solves: usize,
    /// Injection rate of each kind, per million chances (in [`FaultKind::ALL`] order).
    pub per_million: [u32; 3],
    /// The seed of the positions and of the injection streams.
    pub seed: u64,
    /// The solver's expansion budget per question.
    pub max_expansions: u64,
}

/// Runs a campaign: one [`KindReport`] per kind.
///
/// # Errors
/// A board of the list is not a valid size.
pub fn run(c: &Campaign) -> Result<Vec<KindReport>, BoardError> {
    let mut out = Vec::new();
    for (ki, &kind) in FaultKind::ALL.iter().enumerate() {
        let mut r = KindReport {
            kind,
            solves: 0,
            solves_with_faults: 0,
            faults: 0,
            changed: 0,
            upper95: 1.0,
            upper95_solve: 1.0,
        };
        let mut rng = SplitMix(c.seed);
        for &(rows, cols) in &c.boards {
            let geo = crate::board::Geometry::new(rows as usize, cols as usize)?;
            let size = go::Size::new(rows, cols).map_err(|_| BoardError::UnsupportedSize {
                rows: rows as usize,
                cols: cols as usize,
            })?;
            for i in 0..c.solves {
                let pos = random_position(size, &mut rng);
                let (_, line) = reference::line(&pos)?;
                let cfg = Config {
                    limits: crate::Limits {
                        max_expansions: c.max_expansions,
                        ..crate::Limits::default()
                    },
                    ..Config::reference()
                };
                let mut clean = Solver::new(geo.clone(), 4, cfg.clone());
                let Some(v) = solve_value(&mut clean, &line, |_| {}).value else {
                    continue;
                };
                let mut s = Solver::new(geo.clone(), 4, cfg);
                let seed = rng.next() ^ (i as u64) << 8;
                s.table_mut()
                    .set_proof_faults(Some(kind), c.per_million[ki], seed);
                let mut changed = false;
                for k2 in [2 * v - 1, 2 * v + 1] {
                    let want = if black_wins(v, k2) {
                        Answer::Proven
                    } else {
                        Answer::Disproven
                    };
                    changed |= s
                        .prove(&line, Player::Black, games::go::Komi::from_half_points(k2))
                        .answer
                        != want;
                }
                let f = s.table_mut().proof_faults_injected();
                r.solves += 1;
                r.faults += f;
                r.solves_with_faults += u64::from(f > 0);
                r.changed += u64::from(changed);
            }
        }
        r.upper95 = clopper_pearson_upper(r.changed, r.faults);
        r.upper95_solve = clopper_pearson_upper(r.changed, r.solves_with_faults);
        out.push(r);
    }
    Ok(out)
}

/// The one-sided 95% Clopper–Pearson upper bound on a probability after `x` successes in
/// `n` trials (1 when n = 0).
#[must_use]
pub fn clopper_pearson_upper(x: u64, n: u64) -> f64 {
    if n == 0 || x >= n {
        return 1.0;
    }
    if x == 0 {
        return 1.0 - 0.05f64.powf(1.0 / n as f64);
    }
    // P(X ≤ x | n, p) falls as p grows: bisect for the p where it is 0.05.
    let cdf = |p: f64| {
        let (nf, q) = (n as f64, (1.0 - p).ln());
        let mut log_term = nf * q; // log P(X = 0)
        let mut sum = log_term.exp();
        for k in 0..x {
            let kf = k as f64;
            log_term += ((nf - kf) / (kf + 1.0)).ln() + p.ln() - q;
            sum += log_term.exp();
        }
        sum
    };
    let (mut lo, mut hi) = (x as f64 / n as f64, 1.0);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if cdf(mid) > 0.05 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    hi
}

/// SplitMix64 (the campaign repeats for a seed).
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// A random game on the reference board, stopped at a random ply up to 3n (or its end).
fn random_position(size: go::Size, rng: &mut SplitMix) -> go::Position {
    let rules = Rules {
        ko: KoRule::PositionalSuperko,
        komi: go::Komi::from_half_points(1),
    };
    let mut pos = go::Position::new(size, rules);
    let stop = rng.below(3 * size.points() + 1);
    for _ in 0..stop {
        if pos.is_over() {
            break;
        }
        let moves = pos.legal_moves();
        let m = if moves.len() == 1 || rng.below(25) == 0 {
            go::Move::Pass
        } else {
            moves[rng.below(moves.len() - 1)]
        };
        if pos.play(m).is_err() {
            break;
        }
    }
    pos
}
