//! `tsumi train-hexnet`: makes the training data (positions labelled exactly by the solver,
//! and optionally self-play games of our MCTS players) and trains the policy and value
//! networks of `hexnet` (Gao et al., Section 3.1), deterministically from `--seed`.
//!
//! # Data
//! **Solver walks** (`--walks`, the default data): positions of the shape of a proof tree,
//! labelled by focused df-pn with the Hex knowledge (resistance order). A won position's
//! policy target is the winning move of its proof and its value label +1; a lost position
//! gives a value example of −1. The winner plays its winning move (or, with probability
//! `--explore`, a random one), the loser a random move of those the knowledge leaves, so the
//! nets learn the positions focused df-pn meets (see [`solver_walks`]). On 6x6 these nets
//! halve FDFPN's expansions against the resistance order (docs/pns.md). The walks
//! run on `--threads` threads (one per core by default) and give the same positions on any
//! number of them, so the shipped weights do not depend on the machine's cores.
//!
//! **Self-play** (`--games`, 0 by default): game `i` opens with one stone of Black on cell
//! `i mod n²` (every one-stone opening in turn, as the paper iterates over openings), and
//! from game `n²` on a second, White stone drawn from the seeded generator; then both sides
//! are GRAVE players (`mcts`, uniform playouts, `--playouts` per move, seeds from
//! [`mcts::arena::game_seeds`]). Every position after the opening stones gives a policy
//! example (the move played) and a value example labelled, as in the paper, with the mover's
//! result averaged over all the games through that position.
//!
//! Distinct position-move pairs (policy) and distinct positions (value) are kept. Positions
//! are split by their hash, one in ten held out (so a position never falls on both sides);
//! training examples are doubled by the 180° rotation.
//!
//! # Output (under `--out`, default `data/hexnet`)
//! `policy-NxN.txt`, `value-NxN.txt` (the weights with the seed, the command's settings,
//! the example counts and the held-out accuracy and MSE as `meta` lines) and
//! `heldout-NxN.tsv` (the held-out examples: moves from the empty board, the move played
//! or `-`, the value label), which the tests read to check the reported figures.

use anyhow::{Context, bail};
use games::Game;
use games::hex::{Hex, HexMove, HexState};
use hexnet::{
    Example, Kind, Shape, SplitMix64, TrainConfig, Weights, constant_policy_accuracy,
    constant_value_mse, for_mover, policy_accuracy, train, value_mse,
};
use mcts::{Algorithm, Budget, Params, Searcher, Uniform};
use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::Instant;

/// Arguments of `tsumi train-hexnet`.
#[derive(clap::Args, Debug)]
pub struct TrainHexnetArgs {
    /// Board size, NxN (6x6 to 8x8 are the intended sizes; any square board of 3x3 to 11x11).
    #[arg(long, default_value = "6x6")]
    size: String,
    /// Seeds the self-play, the split, the initial weights and the shuffles.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Self-play games (0: none, the solver's walks only).
    #[arg(long, default_value_t = 0)]
    games: u64,
    /// Solver walks: positions of proof-tree shape labelled exactly by focused df-pn with
    /// the knowledge (0: none, self-play only). See the module docs.
    #[arg(long, default_value_t = 5000)]
    walks: u64,
    /// Expansions allowed to label one position of a walk (one not solved within them is
    /// not recorded; the walk goes on with a random move).
    #[arg(long, default_value_t = 20_000)]
    label_expansions: u64,
    /// Probability that a walk's winner plays a random move instead of its winning one (the
    /// positions off the proof's main lines that focused df-pn also visits).
    #[arg(long, default_value_t = 0.25)]
    explore: f64,
    /// Threads for the solver walks (0: one per core). The data do not depend on it.
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// MCTS playouts per move in self-play.
    #[arg(long, default_value_t = 400)]
    playouts: u64,
    /// Training epochs (each network).
    #[arg(long, default_value_t = 12)]
    epochs: usize,
    /// Filters per convolution.
    #[arg(long, default_value_t = 16)]
    channels: usize,
    /// 3x3 convolutions.
    #[arg(long, default_value_t = 4)]
    layers: usize,
    /// Units of the value network's fully connected layer.
    #[arg(long, default_value_t = 32)]
    hidden: usize,
    /// Directory for the weights and the held-out set.
    #[arg(long, default_value = "data/hexnet")]
    out: PathBuf,
}

/// One position of a self-play game: the moves from the empty board and the move played.
struct Record {
    line: Vec<HexMove>,
    played: HexMove,
}

fn self_play(hex: &Hex, args: &TrainHexnetArgs) -> (Vec<Record>, HashMap<u64, (f64, u32)>) {
    let n2 = hex.cells() as u64;
    let params = Params::new(Algorithm::Grave).with_budget(Budget::Playouts(args.playouts));
    let mut rng = SplitMix64(args.seed ^ 0x5345_4C46);
    let mut records = Vec::new();
    // Position hash -> (sum of Black's results, games).
    let mut results: HashMap<u64, (f64, u32)> = HashMap::new();
    let t0 = Instant::now();
    for i in 0..args.games {
        let seeds = mcts::arena::game_seeds(args.seed, i);
        let mut players = [
            Searcher::new(hex, params, Uniform, seeds[0]),
            Searcher::new(hex, params, Uniform, seeds[1]),
        ];
        let mut s = hex.initial();
        let mut line = vec![hex.move_at((i % n2) as usize)];
        hex.play(&mut s, line[0]);
        if i >= n2 {
            let mut empty = Vec::new();
            hex.legal_moves(&s, &mut empty);
            let m = empty[rng.below(empty.len())];
            hex.play(&mut s, m);
            line.push(m);
        }
        let mut visited: Vec<u64> = Vec::new();
        while hex.outcome(&s).is_none() {
            let who = hex.to_move(&s).index();
            let (mv, _) = players[who]
                .search(hex, &s)
                .expect("a position without a winner has a move");
            visited.push(hex.hash(&s));
            records.push(Record {
                line: line.clone(),
                played: mv,
            });
            hex.play(&mut s, mv);
            line.push(mv);
        }
        let black = match hex.outcome(&s) {
            Some(games::Outcome::Win(games::Player::Black)) => 1.0,
            _ => -1.0,
        };
        for h in visited {
            let e = results.entry(h).or_insert((0.0, 0));
            e.0 += black;
            e.1 += 1;
        }
        if (i + 1) % 50 == 0 {
            eprintln!(
                "self-play: {} of {} games, {} positions, {:.0} s",
                i + 1,
                args.games,
                records.len(),
                t0.elapsed().as_secs_f64()
            );
        }
    }
    (records, results)
}

/// The solver's label of a walk's position for its mover.
#[derive(Clone, Copy)]
enum Label {
    /// The mover wins, by this move (its proof's).
    Won(HexMove),
    /// The mover loses.
    Lost,
}

/// A position solved on a walk: its moves from the empty board and its label.
struct Labelled {
    line: Vec<HexMove>,
    label: Label,
}

/// Positions of proof-tree shape, each labelled exactly by the solver: walk `i` opens with
/// Black's stone on cell `i mod n²`; at each position the knowledge has not decided and
/// that has more than one move to search, focused df-pn (resistance order, knowledge on,
/// `--label-expansions`) solves it; a won position records its winning move and the walk
/// plays it, a lost one plays a random move of those the knowledge leaves (the loser's
/// moves of a proof tree); with probability `--explore` the winner too plays a random move.
/// A position not solved within `--label-expansions` is not recorded and the walk goes on
/// with a random move. A walk ends where the knowledge decides.
///
/// Walks run on `--threads` threads. Each walk draws from its own generator (seeded by the
/// seed and the walk's index), and a label is a function of the position alone (every proof
/// starts from an empty table and stops at an expansion count, never at a time), so the
/// positions and their order do not depend on the thread count or on the scheduling: the
/// walks are merged in index order and a position is kept at its first occurrence. Solved
/// positions are cached by hash (shared by the threads), so walks through the same position
/// share its proof.
fn solver_walks(hex: &Hex, args: &TrainHexnetArgs) -> anyhow::Result<Vec<Labelled>> {
    use pns::{Algorithm, Budget, KnowledgeHex, OnHex, ResistanceOrder, Settings, Value};
    use rayon::prelude::*;
    use std::sync::Mutex;
    use std::sync::atomic::{AtomicU64, Ordering};
    // Checked once here; each thread makes its own (its cache is not shared).
    KnowledgeHex::new(hex).map_err(|e| anyhow::anyhow!("{e}"))?;
    let settings = Settings::new(Algorithm::FocusedDfPn);
    let budget = Budget {
        limits: pns::Limits {
            max_expansions: args.label_expansions,
            ..pns::Limits::default()
        },
        max_mib: 32,
        ..Budget::default()
    };
    // Position hash -> its label, `None` when not solved within the budget.
    let solved: Mutex<HashMap<u64, Option<Label>>> = Mutex::new(HashMap::new());
    let (t0, expansions, done) = (Instant::now(), AtomicU64::new(0), AtomicU64::new(0));
    let n2 = hex.cells() as u64;
    let walk = |known: &KnowledgeHex,
                prover: &mut Box<dyn pns::Prover<KnowledgeHex>>,
                i: u64|
     -> Vec<(u64, Labelled)> {
        let mut rng = SplitMix64(SplitMix64(args.seed ^ 0x5741_4C4B).next_u64() ^ i);
        let mut s = hex.initial();
        let mut line = vec![hex.move_at((i % n2) as usize)];
        hex.play(&mut s, line[0]);
        let (mut moves, mut out) = (Vec::new(), Vec::new());
        while known.outcome(&s).is_none() {
            known.legal_moves(&s, &mut moves);
            let mv = if moves.len() > 1 {
                let h = hex.hash(&s);
                let cached = solved.lock().expect("no walk panics").get(&h).copied();
                let label = cached.unwrap_or_else(|| {
                    let sol = pns::solve(prover.as_mut(), known, &s, &budget, false);
                    expansions.fetch_add(sol.expansions(), Ordering::Relaxed);
                    let l = match sol.value {
                        Some(Value::Win) => sol.best_move.map(Label::Won),
                        Some(_) => Some(Label::Lost),
                        None => None,
                    };
                    solved.lock().expect("no walk panics").insert(h, l);
                    l
                });
                if let Some(label) = label {
                    out.push((
                        h,
                        Labelled {
                            line: line.clone(),
                            label,
                        },
                    ));
                }
                // A position not solved within the budget is passed with a random move:
                // deeper positions of the walk are easier.
                let explore = rng.next_f64() < args.explore;
                match label {
                    Some(Label::Won(b)) if !explore => b,
                    _ => moves[rng.below(moves.len())],
                }
            } else {
                moves[0]
            };
            hex.play(&mut s, mv);
            line.push(mv);
        }
        let d = done.fetch_add(1, Ordering::Relaxed) + 1;
        if d % 100 == 0 {
            eprintln!(
                "walks: {d} of {}, {} cached positions, {} expansions, {:.0} s",
                args.walks,
                solved.lock().expect("no walk panics").len(),
                expansions.load(Ordering::Relaxed),
                t0.elapsed().as_secs_f64()
            );
        }
        out
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads)
        .build()
        .context("cannot start the walk threads")?;
    let per_walk: Vec<Vec<(u64, Labelled)>> = pool.install(|| {
        (0..args.walks)
            .into_par_iter()
            .map_init(
                || {
                    let k = KnowledgeHex::new(hex).expect("checked above");
                    let p = settings.prover::<KnowledgeHex>(Box::new(OnHex(ResistanceOrder)));
                    (k, p)
                },
                |(k, p), i| walk(k, p, i),
            )
            .collect()
    });
    let mut seen = std::collections::HashSet::new();
    Ok(per_walk
        .into_iter()
        .flatten()
        .filter(|(h, _)| seen.insert(*h))
        .map(|(_, l)| l)
        .collect())
}

fn state_of(hex: &Hex, line: &[HexMove]) -> HexState {
    let mut s = hex.initial();
    for &m in line {
        hex.play(&mut s, m);
    }
    s
}

fn line_text(line: &[HexMove]) -> String {
    line.iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(",")
}

/// Runs `tsumi train-hexnet`.
///
/// # Errors
/// A size that is not a square board of 3x3 to 11x11, zero games, epochs, channels or layers
/// (status 2); a file that cannot be written.
pub fn run(args: &TrainHexnetArgs) -> anyhow::Result<()> {
    let hex = Hex::from_size(&args.size)?;
    let n = hex.width();
    if n != hex.height() || !(3..=11).contains(&n) {
        bail!(
            "--size {}: hexnet trains square boards of 3x3 to 11x11",
            args.size
        );
    }
    if args.games == 0 && args.walks == 0 {
        bail!("--games and --walks are both 0: no training data");
    }
    if args.epochs == 0 || args.channels == 0 || args.layers == 0 {
        bail!("--epochs, --channels and --layers must be at least 1");
    }
    if args.games > 0 && args.playouts == 0 {
        bail!("--playouts must be at least 1");
    }
    let started = Instant::now();
    let (records, results) = self_play(&hex, args);
    // Distinct position-move pairs (policy) and distinct positions (value).
    let mut seen_pairs = std::collections::HashSet::new();
    let mut seen_pos = std::collections::HashSet::new();
    let (mut train_p, mut test_p, mut train_v, mut test_v) = (vec![], vec![], vec![], vec![]);
    let mut held_out_text = String::from("# moves\tplayed\tvalue\n");
    // (moves from the empty board, the move to learn, the mover's value label): self-play
    // positions, then the walks' solved ones.
    let mut items: Vec<(&[HexMove], HexState, Option<HexMove>, f32)> = Vec::new();
    for r in &records {
        let s = state_of(&hex, &r.line);
        let (sum, games) = results[&hex.hash(&s)];
        let value = for_mover((sum / f64::from(games)) as f32, hex.to_move(&s));
        items.push((&r.line, s, Some(r.played), value));
    }
    let walks = solver_walks(&hex, args)?;
    for w in &walks {
        let (played, value) = match w.label {
            Label::Won(b) => (Some(b), 1.0),
            Label::Lost => (None, -1.0),
        };
        items.push((&w.line, state_of(&hex, &w.line), played, value));
    }
    for (line, s, played, value) in items {
        let h = hex.hash(&s);
        let held_out = SplitMix64(h ^ args.seed).next_u64().is_multiple_of(10);
        if let Some(mv) = played.filter(|&m| seen_pairs.insert((h, m))) {
            let e = Example::new(&hex, &s, Some(mv), value);
            if held_out {
                let _ = writeln!(held_out_text, "{}\t{mv}\t{value}", line_text(line));
                test_p.push(e);
            } else {
                train_p.push(e.rotated());
                train_p.push(e);
            }
        }
        if seen_pos.insert(h) {
            let e = Example::new(&hex, &s, None, value);
            if held_out {
                let _ = writeln!(held_out_text, "{}\t-\t{value}", line_text(line));
                test_v.push(e);
            } else {
                train_v.push(e.rotated());
                train_v.push(e);
            }
        }
    }
    eprintln!(
        "data: {} records, {} solver-labelled; policy {} train (with rotations) / {} held out; value {} / {}",
        records.len(),
        walks.len(),
        train_p.len(),
        test_p.len(),
        train_v.len(),
        test_v.len()
    );
    if train_p.is_empty() || test_p.is_empty() || train_v.is_empty() || test_v.is_empty() {
        bail!("too few self-play positions to train and hold out: play more --games");
    }
    crate::cmd::check::check_dir(&args.out, "--out")?;
    let cfg = TrainConfig {
        epochs: args.epochs,
        seed: args.seed,
        ..TrainConfig::default()
    };
    let mut meta = BTreeMap::new();
    meta.insert("seed".to_string(), args.seed.to_string());
    meta.insert(
        "command".to_string(),
        format!(
            "tsumi train-hexnet --size {} --seed {} --games {} --walks {} --label-expansions {} --explore {} --playouts {} --epochs {} --channels {} --layers {} --hidden {}",
            args.size, args.seed, args.games, args.walks, args.label_expansions, args.explore, args.playouts, args.epochs, args.channels, args.layers, args.hidden
        ),
    );
    meta.insert("version".to_string(), env!("CARGO_PKG_VERSION").to_string());
    let mut report = Vec::new();
    for kind in [Kind::Policy, Kind::Value] {
        let shape = Shape {
            kind,
            n,
            channels: args.channels,
            layers: args.layers,
            hidden: args.hidden,
        };
        let (tr, te) = match kind {
            Kind::Policy => (&train_p, &test_p),
            Kind::Value => (&train_v, &test_v),
        };
        let t = Instant::now();
        let net = train(shape, tr, &cfg, |r| {
            eprintln!("{}: epoch {} loss {:.4}", kind.name(), r.epoch, r.loss);
        });
        let mut m = meta.clone();
        m.insert("train_examples".to_string(), tr.len().to_string());
        m.insert("heldout_examples".to_string(), te.len().to_string());
        m.insert(
            "train_seconds".to_string(),
            format!("{:.1}", t.elapsed().as_secs_f64()),
        );
        let line = match kind {
            Kind::Policy => {
                let acc = policy_accuracy(&net, te);
                let base = constant_policy_accuracy(tr, te);
                m.insert("heldout_accuracy".to_string(), format!("{acc:.6}"));
                m.insert(
                    "train_accuracy".to_string(),
                    format!("{:.6}", policy_accuracy(&net, tr)),
                );
                m.insert(
                    "heldout_constant_accuracy".to_string(),
                    format!("{base:.6}"),
                );
                format!("policy: held-out top-1 accuracy {acc:.4} (constant policy {base:.4})")
            }
            Kind::Value => {
                let mse = value_mse(&net, te);
                let base = constant_value_mse(tr, te);
                m.insert("heldout_mse".to_string(), format!("{mse:.6}"));
                m.insert(
                    "train_mse".to_string(),
                    format!("{:.6}", value_mse(&net, tr)),
                );
                m.insert("heldout_constant_mse".to_string(), format!("{base:.6}"));
                format!("value: held-out MSE {mse:.4} (constant value {base:.4})")
            }
        };
        let path = args.out.join(format!("{}-{n}x{n}.txt", kind.name()));
        let text = Weights { net, meta: m }.to_text();
        crate::result_file::write_text(&path, "network weights", &text)?;
        report.push(format!(
            "{line}; {} parameters, {}",
            shape.num_params(),
            path.display()
        ));
    }
    let held = args.out.join(format!("heldout-{n}x{n}.tsv"));
    crate::result_file::write_text(&held, "held-out set", &held_out_text)?;
    for line in report {
        println!("{line}");
    }
    println!(
        "held-out set {}; {:.0} s in all",
        held.display(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}
