//! Choosing an algorithm by name at run time (for the command line and benchmarks).

use crate::Prover;
use crate::dfpn::{DfPn, FocusedDfPn, Pds};
use crate::order::MoveOrder;
use crate::pn2::Pn2;
use crate::pns::Pns;
use crate::prior::{Prior, Uniform, WithMobility};
use games::Game;
use std::fmt;
use std::str::FromStr;

/// The algorithms of this crate, by command-line name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Algorithm {
    /// `pns`: best-first PNS.
    Pns,
    /// `wpns`: weak PNS with mobility initialisation.
    WeakPns,
    /// `pn2`: PN².
    Pn2,
    /// `dfpn`: df-pn with the 1+ε rule.
    DfPn,
    /// `pds`: proof-and-disproof-number search.
    Pds,
    /// `fdfpn`: focused df-pn.
    FocusedDfPn,
    /// `lambda`: λ-search (Thomsen), threat sequences of increasing order with null moves.
    Lambda,
    /// `lambda-dfpn`: df-pn with attacker moves ordered and filtered by λ-order.
    LambdaDfPn,
}

impl Algorithm {
    /// The threat-based algorithms: they prune by [`games::Game::null_move`], so they are
    /// for games that have one (Go's pass, tsumego); on other games λ-search is a plain
    /// AND/OR search and λ-df-pn plain df-pn.
    pub const THREATS: [Algorithm; 2] = [Algorithm::Lambda, Algorithm::LambdaDfPn];

    /// The algorithms for every game, in the order of the table in the crate documentation
    /// ([`Algorithm::THREATS`] follow them there).
    pub const ALL: [Algorithm; 6] = [
        Algorithm::Pns,
        Algorithm::WeakPns,
        Algorithm::Pn2,
        Algorithm::DfPn,
        Algorithm::Pds,
        Algorithm::FocusedDfPn,
    ];

    /// Command-line name.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Algorithm::Pns => "pns",
            Algorithm::WeakPns => "wpns",
            Algorithm::Pn2 => "pn2",
            Algorithm::DfPn => "dfpn",
            Algorithm::Pds => "pds",
            Algorithm::FocusedDfPn => "fdfpn",
            Algorithm::Lambda => "lambda",
            Algorithm::LambdaDfPn => "lambda-dfpn",
        }
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An unknown algorithm name.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown algorithm '{0}': expected pns, wpns, pn2, dfpn, pds, fdfpn, lambda or lambda-dfpn"
)]
pub struct UnknownAlgorithm(pub String);

impl FromStr for Algorithm {
    type Err = UnknownAlgorithm;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Algorithm::ALL
            .into_iter()
            .chain(Algorithm::THREATS)
            .find(|a| a.name() == s)
            .ok_or_else(|| UnknownAlgorithm(s.to_string()))
    }
}

/// An algorithm with its parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    /// Which algorithm.
    pub algorithm: Algorithm,
    /// Mobility initialisation instead of (1, 1) for PNS, PN², df-pn and PDS (always on for
    /// `wpns`).
    pub mobility: bool,
    /// δ by the weak rule (always on for `wpns`).
    pub weak: bool,
    /// ε of the 1+ε rule (df-pn, focused df-pn).
    pub epsilon: f64,
    /// Focused df-pn: children always searched.
    pub base: usize,
    /// Focused df-pn: widening factor.
    pub factor: f64,
    /// PN²: second-level size as a fraction of the first-level tree.
    pub pn2_fraction: f64,
}

impl Settings {
    /// Default parameters for `algorithm`: ε 0.25, base 1, factor 0.2, PN² fraction 1.
    #[must_use]
    pub const fn new(algorithm: Algorithm) -> Self {
        Self {
            algorithm,
            mobility: false,
            weak: false,
            epsilon: 0.25,
            base: 1,
            factor: 0.2,
            pn2_fraction: 1.0,
        }
    }

    /// The prover; `order` is used by focused df-pn only. New nodes start at (1, 1), or by
    /// mobility when `mobility` is set.
    pub fn prover<'a, G: Game + 'a>(
        &self,
        order: Box<dyn MoveOrder<G> + 'a>,
    ) -> Box<dyn Prover<G> + 'a> {
        self.prover_with(order, Box::new(Uniform))
    }

    /// The prover with a given prior. With `mobility` (always for `wpns`) its estimates are
    /// replaced by mobility while its exact knowledge is kept ([`WithMobility`]).
    pub fn prover_with<'a, G: Game + 'a>(
        &self,
        order: Box<dyn MoveOrder<G> + 'a>,
        prior: Box<dyn Prior<G> + 'a>,
    ) -> Box<dyn Prover<G> + 'a> {
        let mobility = self.mobility || self.algorithm == Algorithm::WeakPns;
        let prior: Box<dyn Prior<G> + 'a> = if mobility {
            Box::new(WithMobility(prior))
        } else {
            prior
        };
        match self.algorithm {
            Algorithm::Pns => Box::new(Pns {
                prior,
                weak: self.weak,
            }),
            Algorithm::WeakPns => Box::new(Pns { prior, weak: true }),
            Algorithm::Pn2 => Box::new(Pn2 {
                prior,
                weak: self.weak,
                fraction: self.pn2_fraction,
            }),
            Algorithm::DfPn => Box::new(DfPn {
                prior,
                weak: self.weak,
                epsilon: self.epsilon,
            }),
            Algorithm::Pds => Box::new(Pds {
                prior,
                weak: self.weak,
            }),
            Algorithm::FocusedDfPn => Box::new(FocusedDfPn {
                order,
                base: self.base,
                factor: self.factor,
                epsilon: self.epsilon,
                prior,
            }),
            Algorithm::Lambda => Box::new(crate::LambdaSearch::default()),
            Algorithm::LambdaDfPn => Box::new(crate::LambdaDfPn {
                epsilon: self.epsilon,
                ..crate::LambdaDfPn::default()
            }),
        }
    }
}
