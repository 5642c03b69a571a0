//! `tsumi prove`: one question. Go goes to the df-pn solver of `gosolve`; every other game
//! goes to the proof-number family of `pns` (see `generic_prove.rs`).

use clap::Args;

/// Arguments of `tsumi prove`.
#[derive(Args, Debug)]
pub struct ProveArgs {
    /// The game: go, tictactoe, connect4, hex, nogo, atarigo.
    pub game: String,
    /// Board size, "RxC" (rows x columns) or "N" for N x N.
    pub size: String,
    /// Moves to play first, comma-separated, in the game's notation.
    #[arg(long, value_delimiter = ',')]
    pub moves: Vec<String>,
    /// Algorithm for games other than Go: pns, pn2, dfpn, pds, fdfpn.
    #[arg(long, default_value = "dfpn")]
    pub algo: String,
    /// Go: komi (a half-integer, added to White's area).
    #[arg(long, allow_hyphen_values = true)]
    pub komi: Option<String>,
    /// Go: the player whose win is asked about (default: the player to move).
    #[arg(long)]
    pub winner: Option<String>,
    /// Budget: maximum expansions (0 = unlimited).
    #[arg(long, default_value_t = 0)]
    pub max_expansions: u64,
    /// Budget: maximum seconds (0 = unlimited).
    #[arg(long, default_value_t = 0.0)]
    pub seconds: f64,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 256)]
    pub tt_mib: usize,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
    /// Games other than Go: initialise new nodes by mobility (φ 1, δ = legal moves).
    #[arg(long)]
    pub mobility: bool,
    /// Hex: start new nodes from Hex knowledge (a winning cell wins, two opponent winning
    /// cells lose) instead of (1, 1).
    #[arg(long)]
    pub threats: bool,
    /// Games other than Go: weak PNS rule for δ (max + open children − 1) instead of the sum.
    #[arg(long)]
    pub weak: bool,
    /// ε of the 1+ε rule of df-pn and focused df-pn (default 0.25; 0.3 for Go).
    #[arg(long)]
    pub epsilon: Option<f64>,
    /// Focused df-pn: children always searched (base).
    #[arg(long, default_value_t = 1)]
    pub base: usize,
    /// Focused df-pn: widening factor (base + ceil(factor × live children) are searched).
    #[arg(long, default_value_t = 0.2)]
    pub factor: f64,
    /// PN²: second-level tree size as a fraction of the first-level tree.
    #[arg(long, default_value_t = 1.0)]
    pub pn2_fraction: f64,
    /// Go: initial numbers of new nodes: "score" (the default), "learned", "uniform",
    /// "score:SLOPE:SCALE", "learned:SCALE" or "learned:SCALE:FILE" (weights from
    /// `tsumi fit-prior --out FILE`).
    #[arg(long, default_value = "score")]
    pub prior: String,
    /// Go: append training samples of the learned prior (every 8th stored proof: the winner
    /// and the features, tab-separated) to this file, for `tsumi fit-prior`.
    #[arg(long)]
    pub samples: Option<std::path::PathBuf>,
    /// Go: knowledge and ablation flags.
    #[command(flatten)]
    pub knowledge: crate::prove_go::KnowledgeArgs,
}

/// Runs `tsumi prove`.
pub fn run(args: &ProveArgs) -> anyhow::Result<()> {
    if args.game == "go" {
        crate::prove_go::run(args, args.epsilon.unwrap_or(crate::prove_go::GO_EPSILON))
    } else {
        crate::generic_prove::run(args)
    }
}
