//! `tsumi prove`: one question. Go goes to the df-pn solver of `gosolve` ([`go`]); every
//! other game goes to the proof-number family of `pns` ([`generic`]), through the game
//! registry ([`run`]). This module holds the arguments and the dispatch.
//!
//! Options that belong to one side only are `Option`s (or flags) with their defaults applied
//! by the side that uses them, so that an option given for the other side is refused by name.

pub mod generic;
pub mod go;
pub mod hex_nets;

use crate::registry::{GameId, Use};
use anyhow::bail;
use clap::Args;

/// Arguments of `tsumi prove`.
#[derive(Args, Debug)]
#[command(after_help = PROVE_AFTER_HELP)]
pub struct ProveArgs {
    /// The game: go, tictactoe, connect4, hex, nogo, atarigo (any letter case).
    pub game: String,
    /// Board size, "RxC" (rows x columns) or "N" for N x N.
    pub size: String,
    /// Moves to play first, comma-separated, in the game's notation (after --sgf's for Go).
    #[arg(long, value_delimiter = ',')]
    pub moves: Vec<String>,
    /// Go: start from the position of this SGF file (its main line; its KM is the komi
    /// unless --komi is given).
    #[arg(long)]
    pub sgf: Option<std::path::PathBuf>,
    /// Games other than Go: pns, wpns, pn2, dfpn, pds, fdfpn [default: dfpn]. Go has df-pn
    /// only.
    #[arg(long)]
    pub algo: Option<String>,
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
    #[arg(long, default_value_t = 0.0, allow_hyphen_values = true)]
    pub seconds: f64,
    /// Transposition table size in MiB (at least 1). Go: chosen from the board and the free
    /// memory when not given (15/16 of 16 MiB × 2^(points − 11), at most 3/4 of the available
    /// memory);
    /// other games: 256.
    #[arg(long)]
    pub tt_mib: Option<usize>,
    /// The output format (`--json`).
    #[command(flatten)]
    pub output: crate::options::output::OutputArgs,
    /// Go: also write the JSON object (with the command line and version) to this file,
    /// atomically (a temporary file renamed onto it); `FILE.running` marks the run meanwhile.
    /// A campaign's jobs use it.
    #[arg(long)]
    pub out: Option<std::path::PathBuf>,
    /// Go, with --out: do nothing if the file already holds a proven answer to the same
    /// question (board, moves, komi, winner), so a rerun of a campaign resumes it.
    #[arg(long, requires = "out")]
    pub skip_if_done: bool,
    /// Games other than Go: initialise new nodes by mobility (φ 1, δ = legal moves).
    #[arg(long)]
    pub mobility: bool,
    /// Hex: start new nodes from Hex knowledge (a winning cell wins, two opponent winning
    /// cells lose) instead of (1, 1).
    #[arg(long)]
    pub threats: bool,
    /// Hex: prove plain Hex, without the knowledge of `pns::hexknow` (H-search connections,
    /// dead and captured cells filled, must-play, capture dominance) that is on by default:
    /// the ablation. The knowledge handles boards of at most 128 cells with both sides ≥ 2;
    /// larger or narrower boards need this flag.
    #[arg(long)]
    pub no_knowledge: bool,
    /// Hex, fdfpn: move ordering and widening by the hexnet networks.
    #[command(flatten)]
    pub nets: crate::cmd::prove::hex_nets::HexNetArgs,
    /// Games other than Go (pns, pn2, dfpn, pds): weak PNS rule for δ (max + open children
    /// − 1) instead of the sum.
    #[arg(long)]
    pub weak: bool,
    /// ε of the 1+ε rule of df-pn and focused df-pn, a finite number ≥ 0 [default: 0.25;
    /// 0.3 for Go].
    #[arg(long, allow_hyphen_values = true)]
    pub epsilon: Option<f64>,
    /// Focused df-pn: children always searched (base) [default: 1].
    #[arg(long)]
    pub base: Option<usize>,
    /// Focused df-pn: widening factor (base + ceil(factor × live children) are searched)
    /// [default: 0.2].
    #[arg(long, allow_hyphen_values = true)]
    pub factor: Option<f64>,
    /// PN²: second-level tree size as a fraction of the first-level tree [default: 1].
    #[arg(long, allow_hyphen_values = true)]
    pub pn2_fraction: Option<f64>,
    /// Go: initial numbers of new nodes: "score", "learned", "uniform", "score:SLOPE:SCALE",
    /// "learned:SCALE" or "learned:SCALE:FILE" (weights from `tsumi fit-prior --out FILE`;
    /// SCALE is S, or S/SD for φ's and δ's scales) [default: learned, 576/192].
    #[arg(long)]
    pub prior: Option<String>,
    /// Go: append training samples of the learned prior (every 8th stored proof: the winner
    /// and the features, tab-separated) to this file, for `tsumi fit-prior`.
    #[arg(long)]
    pub samples: Option<std::path::PathBuf>,
    /// Go: write the proof as a certificate to this file, for `tsumi check`.
    #[arg(long)]
    pub certificate: Option<std::path::PathBuf>,
    /// Go: the certificate's format: "text" (version 1, every node's board drawn) or
    /// "compact" (version 2, moves and claims only: about a fifth of the size).
    #[arg(long, default_value = "text", value_parser = ["text", "compact"])]
    pub certificate_format: String,
    /// Go: write the proof as SGF to this file: the whole proof tree as variations (the
    /// winner's move, every loser's move) for proofs of at most 10,000 nodes, else its main
    /// line; leaves carry a comment saying why they are leaves.
    #[arg(long)]
    pub proof_sgf: Option<std::path::PathBuf>,
    /// Go: knowledge and ablation flags.
    #[command(flatten)]
    pub knowledge: crate::options::knowledge::KnowledgeArgs,
    /// Go: checkpoints of long runs.
    #[command(flatten)]
    pub checkpoints: crate::options::checkpoint::CheckpointArgs,
}

/// The exit statuses, in `tsumi prove --help`.
const PROVE_AFTER_HELP: &str = "Exit status: 0 answered (win, loss or draw); 2 error (bad input, \
an option that does not apply to the game); 3 no answer (the budget ran out or Ctrl-C): the \
result \"unknown\" and the effort are printed first. With --prune, a Go question the pruned \
search cannot win is asked again unpruned.";

/// The one-line refusal of `--no-knowledge` for `game` (any game but Hex).
#[must_use]
pub fn no_knowledge_refusal(game: &str) -> String {
    format!("--no-knowledge switches off the Hex knowledge: it applies to hex only, not to {game}")
}

/// Runs `tsumi prove`.
///
/// # Errors
/// An unknown game, bad input or an option that does not apply (status 2); no answer within
/// the budget ([`crate::exit::Unknown`], status 3).
pub fn run(args: &ProveArgs) -> anyhow::Result<()> {
    let game = GameId::parse_for(&args.game, Use::Prove)?;
    if let Some(m) = args.tt_mib {
        go::check_tt_mib(m)?;
    }
    crate::go_config::check_epsilon(args.epsilon)?;
    if !(args.seconds >= 0.0 && args.seconds.is_finite()) {
        bail!(
            "--seconds {} is not a finite non-negative number of seconds",
            args.seconds
        );
    }
    if args.no_knowledge && game == GameId::Go {
        bail!("{}", no_knowledge_refusal(game.name()));
    }
    if args.certificate.is_some() && game != GameId::Go {
        bail!("--certificate applies to go only, not to {}", game.name());
    }
    if args.out.is_some() && game != GameId::Go {
        bail!("--out applies to go only, not to {}", game.name());
    }
    if args.proof_sgf.is_some() && game != GameId::Go {
        bail!("--proof-sgf applies to go only, not to {}", game.name());
    }
    match game {
        GameId::Go => go::run(args),
        other => generic::run(args, other),
    }
}
