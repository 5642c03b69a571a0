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
    #[arg(long)]
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
}

/// Runs `tsumi prove`.
pub fn run(args: &ProveArgs) -> anyhow::Result<()> {
    if args.game == "go" {
        anyhow::bail!("prove go is not implemented yet")
    } else {
        crate::generic_prove::run(args)
    }
}
