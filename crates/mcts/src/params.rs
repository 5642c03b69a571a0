//! Player parameters: the algorithm, its constants (with the MCPS paper's defaults) and the
//! search budget.

use std::fmt;
use std::str::FromStr;

/// The tree policy of a player. All share one tree design (a transposition table keyed by
/// the position hash, UCD-style edge statistics), one playout loop and one backup.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Algorithm {
    /// UCT: `Q + c·sqrt(ln n(s) / n(s,a))`, unvisited moves first.
    Uct,
    /// RAVE: GRAVE whose reference node is always the node itself.
    Rave,
    /// GRAVE (Cazenave 2015): AMAF of the nearest ancestor with more than ρ visits,
    /// `β = ñ / (ñ + n + bias·ñ·n)`.
    Grave,
    /// Monte Carlo Permutation Search: GRAVE plus frozen permutation statistics, combined
    /// by Equation 1 of the paper (weights n/N, ñ/N, n̂/N).
    Mcps,
}

impl Algorithm {
    /// Lowercase name as on the command line.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Algorithm::Uct => "uct",
            Algorithm::Rave => "rave",
            Algorithm::Grave => "grave",
            Algorithm::Mcps => "mcps",
        }
    }

    /// Whether the algorithm keeps AMAF statistics.
    #[must_use]
    pub const fn uses_amaf(self) -> bool {
        !matches!(self, Algorithm::Uct)
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An unknown algorithm name.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown player {0:?} (expected uct, rave, grave or mcps)")]
pub struct UnknownAlgorithm(pub String);

impl FromStr for Algorithm {
    type Err = UnknownAlgorithm;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "uct" => Ok(Algorithm::Uct),
            "rave" => Ok(Algorithm::Rave),
            "grave" => Ok(Algorithm::Grave),
            "mcps" => Ok(Algorithm::Mcps),
            _ => Err(UnknownAlgorithm(s.to_string())),
        }
    }
}

/// How much a player searches for one move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Budget {
    /// A fixed number of playouts (tree descents) per move: reproducible.
    Playouts(u64),
    /// Wall-clock seconds per move: not reproducible.
    Seconds(f64),
}

/// The parameters of a Monte Carlo player.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Params {
    /// The tree policy.
    pub algorithm: Algorithm,
    /// ρ: GRAVE's reference threshold (a node is a reference when it has more than ρ
    /// visits) and MCPS's freezing point (statistics frozen when a node reaches ρ visits).
    /// The paper uses 30.
    pub rho: u32,
    /// W: the number of recent playouts in MCPS's cyclic window (paper: 10,000).
    pub window: usize,
    /// GRAVE's and RAVE's bias in `β = ñ / (ñ + n + bias·ñ·n)`.
    pub bias: f64,
    /// UCT's exploration constant c.
    pub uct_c: f64,
    /// The search budget per move.
    pub budget: Budget,
    /// Whether the null move's codes (Go's pass) enter MCPS's window, as every code of a
    /// playout does in the paper's Algorithm 2 (`true`, the default). `false` is a diagnostic
    /// variant, not the paper's MCPS: a pass sets no bit of the window and is skipped in a
    /// path's intersection `V`, so `n̂` of a pass is 0 and a path through a pass selects the
    /// playouts of its other codes.
    pub window_passes: bool,
}

impl Params {
    /// Default parameters of an algorithm: ρ = 30, W = 10,000, bias = 1e-5, c = 0.4,
    /// 10,000 playouts per move.
    #[must_use]
    pub const fn new(algorithm: Algorithm) -> Self {
        Params {
            algorithm,
            rho: 30,
            window: 10_000,
            bias: 1e-5,
            uct_c: 0.4,
            budget: Budget::Playouts(10_000),
            window_passes: true,
        }
    }

    /// The same parameters with another budget.
    #[must_use]
    pub const fn with_budget(mut self, budget: Budget) -> Self {
        self.budget = budget;
        self
    }
}
