//! The `hexnet` options of `tsumi prove hex`: `--order resistance|policy` ranks focused
//! df-pn's children by circuit resistance or by the policy network, `--widen fixed|value`
//! sizes each node's window by the fixed factor (Equation 1) or by the value network
//! (Gao et al.'s Equations 2–3). DFPN, FDFPN-resistance, FDFPN-policy and FDFPN-CNN are then
//! four runs of one command:
//!
//! ```sh
//! tsumi prove hex 6x6 --moves a3 --algo dfpn
//! tsumi prove hex 6x6 --moves a3 --algo fdfpn
//! tsumi prove hex 6x6 --moves a3 --algo fdfpn --order policy
//! tsumi prove hex 6x6 --moves a3 --algo fdfpn --order policy --widen value
//! ```
//!
//! The shipped 6x6 and 7x7 networks (`data/hexnet/*-6x6.txt` from `tsumi train-hexnet --seed
//! 1`, `*-7x7.txt` from `tsumi train-hexnet --size 7x7 --walks 3000 --label-expansions 5000`,
//! both on solver-labelled walks) are built into the binary; `--policy-net FILE` and
//! `--value-net FILE` load others (any size trained by `train-hexnet`). A network for
//! another board size, a missing file or a malformed one is an error (status 2), never a
//! silent fallback to resistance.

use anyhow::{anyhow, bail};
use games::hex::Hex;
use hexnet::{Kind, PolicyOrder, ValueWidening, Weights};
use pns::{Algorithm, MoveOrder, ResistanceOrder};
use std::path::{Path, PathBuf};

/// The shipped networks: (board side, policy weights, value weights).
const SHIPPED: [(usize, &str, &str); 2] = [
    (
        6,
        include_str!("../../../../../data/hexnet/policy-6x6.txt"),
        include_str!("../../../../../data/hexnet/value-6x6.txt"),
    ),
    (
        7,
        include_str!("../../../../../data/hexnet/policy-7x7.txt"),
        include_str!("../../../../../data/hexnet/value-7x7.txt"),
    ),
];

/// Move ordering and widening of focused df-pn on Hex.
#[derive(clap::Args, Debug, Default)]
pub struct HexNetArgs {
    /// Hex, fdfpn: rank children by circuit "resistance" or by the "policy" network
    /// [default: resistance].
    #[arg(long)]
    pub order: Option<String>,
    /// Hex, fdfpn: window base + ceil(f × live children) with the "fixed" f = --factor, or
    /// the "value" network's f = min(--factor, (1 + v) / 2) [default: fixed].
    #[arg(long)]
    pub widen: Option<String>,
    /// Hex: policy network weights for --order policy (from tsumi train-hexnet) [default:
    /// the shipped network of the board's size, 6x6 or 7x7].
    #[arg(long)]
    pub policy_net: Option<PathBuf>,
    /// Hex: value network weights for --widen value [default: the shipped network of the
    /// board's size, 6x6 or 7x7].
    #[arg(long)]
    pub value_net: Option<PathBuf>,
}

fn load(kind: Kind, path: Option<&Path>, hex: &Hex) -> anyhow::Result<hexnet::Net> {
    let shipped = SHIPPED
        .iter()
        .find(|(n, _, _)| hex.width() == *n && hex.height() == *n);
    let w = match (path, shipped) {
        (Some(p), _) => Weights::load(p)?,
        (None, Some((_, policy, value))) => {
            let text = if kind == Kind::Policy { policy } else { value };
            Weights::parse(text, Path::new("shipped"))?
        }
        (None, None) => bail!(
            "no shipped {k} network for {}x{}: give --{k}-net FILE (made by tsumi train-hexnet --size {}x{})",
            hex.width(),
            hex.height(),
            hex.width(),
            hex.height(),
            k = kind.name()
        ),
    };
    Ok(w.net)
}

/// Refuses the options for another game or algorithm (status 2).
///
/// # Errors
/// An option given for a game other than Hex or an algorithm other than fdfpn (nets paths
/// also for an order or widening that does not use them), or an unknown order or widening.
pub fn check(args: &HexNetArgs, game: &str, algorithm: Algorithm) -> anyhow::Result<()> {
    let given = [
        ("--order", args.order.is_some()),
        ("--widen", args.widen.is_some()),
        ("--policy-net", args.policy_net.is_some()),
        ("--value-net", args.value_net.is_some()),
    ];
    if let Some((flag, _)) = given.iter().find(|(_, g)| *g) {
        if game != "hex" {
            bail!("{flag} applies to hex only, not to {game}");
        }
        if algorithm != Algorithm::FocusedDfPn {
            bail!("{flag} does not apply to --algo {algorithm} (only to fdfpn)");
        }
    }
    let order = args.order.as_deref().unwrap_or("resistance");
    if !matches!(order, "resistance" | "policy") {
        bail!("unknown --order '{order}': expected resistance or policy");
    }
    let widen = args.widen.as_deref().unwrap_or("fixed");
    if !matches!(widen, "fixed" | "value") {
        bail!("unknown --widen '{widen}': expected fixed or value");
    }
    if args.policy_net.is_some() && order != "policy" {
        bail!("--policy-net is used by --order policy only");
    }
    if args.value_net.is_some() && widen != "value" {
        bail!("--value-net is used by --widen value only");
    }
    Ok(())
}

/// The Hex move order (and widening) chosen by the options, for `hex`'s board.
///
/// # Errors
/// A network that cannot be loaded or is for another board or of the other kind.
pub fn order(args: &HexNetArgs, hex: &Hex) -> anyhow::Result<Box<dyn MoveOrder<Hex>>> {
    let ranking: Box<dyn MoveOrder<Hex>> = match args.order.as_deref() {
        Some("policy") => {
            let net = load(Kind::Policy, args.policy_net.as_deref(), hex)?;
            Box::new(PolicyOrder::new(net, hex).map_err(|e| anyhow!("--order policy: {e}"))?)
        }
        _ => Box::new(ResistanceOrder),
    };
    Ok(match args.widen.as_deref() {
        Some("value") => {
            let net = load(Kind::Value, args.value_net.as_deref(), hex)?;
            Box::new(
                ValueWidening::new(ranking, net, hex).map_err(|e| anyhow!("--widen value: {e}"))?,
            )
        }
        _ => ranking,
    })
}
