//! `tsumi tsumego FILE.sgf`: a capture or life-and-death problem from an SGF file, solved by
//! λ-search, λ-df-pn or df-pn (`pns::tsumego`), with the answer as text or JSON and the
//! solution tree as SGF.
//!
//! The problem is the root node of the file (moves of the main line are the solution some
//! files carry, and are not played): setup stones `AB`/`AW`, the side to move `PL` (Black if
//! absent), the target block marked with `MA`, `TR` or `SQ` (every marked point a stone of one
//! block), and the area of play: the points of `SL`, or else the smallest rectangle holding
//! every stone, grown by `--margin` points on each side. Rules: positional superko, suicide
//! illegal. See docs/tsumego.md for the goals and how ko is decided.

use anyhow::{Context, bail};
use games::Game;
use games::go::{
    KoRule, Move, Point, PointSet, Position, Tsumego, TsumegoGoal, position_from_sgf_bytes_before,
    root_points_from_sgf_bytes,
};
use pns::tsumego::{Solution, Status, solve};
use pns::{Budget, DfPn, LambdaDfPn, LambdaSearch, Prover};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Arguments of `tsumi tsumego`.
#[derive(clap::Args, Debug)]
pub struct TsumegoArgs {
    /// The problem (SGF: AB/AW, PL, the target marked with MA, TR or SQ, the area with SL).
    pub file: PathBuf,
    /// capture (take the marked block), kill or live (its life and death).
    #[arg(long, default_value = "kill")]
    pub goal: String,
    /// lambda (λ-search), lambda-dfpn or dfpn.
    #[arg(long, default_value = "lambda-dfpn")]
    pub algo: String,
    /// Expansions allowed to each proof (0: no limit).
    #[arg(long, default_value_t = 5_000_000)]
    pub max_expansions: u64,
    /// Seconds allowed to each proof (0: no limit).
    #[arg(long, default_value_t = 0.0)]
    pub seconds: f64,
    /// Points added around the stones' rectangle when the file has no SL.
    #[arg(long, default_value_t = 1)]
    pub margin: u32,
    /// Print the answer as one JSON object.
    #[arg(long)]
    pub json: bool,
    /// Write the solution tree (correct and wrong first moves, `C[RIGHT]`) to this SGF file.
    #[arg(long)]
    pub out: Option<PathBuf>,
}

/// A problem read from a file.
pub struct Problem {
    /// The game.
    pub game: Tsumego,
    /// What the player to move is asked.
    pub goal: String,
}

/// Reads the problem of `file` for `goal`.
///
/// # Errors
/// One line naming the problem: an unreadable file or SGF, an unknown goal, no target, a
/// target that is not one block, no empty point in the area.
pub fn read_problem(file: &Path, goal: &str, margin: u32) -> anyhow::Result<Problem> {
    let kind = match goal {
        "capture" => TsumegoGoal::Capture,
        "kill" | "live" => TsumegoGoal::LifeAndDeath,
        other => bail!("unknown goal '{other}' (expected capture, kill or live)"),
    };
    let bytes = std::fs::read(file).with_context(|| format!("cannot read {}", file.display()))?;
    let pos = position_from_sgf_bytes_before(&bytes, KoRule::PositionalSuperko, 1)
        .with_context(|| format!("{}", file.display()))?;
    let marks = root_points_from_sgf_bytes(&bytes, &["MA", "TR", "SQ", "SL"])
        .with_context(|| format!("{}", file.display()))?;
    let size = pos.size();
    let board = pos.board();
    let targets: Vec<Point> = marks
        .iter()
        .filter(|(id, _)| id != "SL")
        .map(|&(_, p)| p)
        .collect();
    let Some(&target) = targets.first() else {
        bail!(
            "{}: no target: mark a stone of the block to capture or save with MA, TR or SQ",
            file.display()
        );
    };
    if board.get(target).is_none() {
        bail!(
            "{}: the target is not a block: the marked point {target} is empty",
            file.display()
        );
    }
    let (block, _) = board.chain(target);
    if let Some(p) = targets.iter().find(|p| !block.contains(p)) {
        bail!(
            "{}: the target is not one block: the marked points {target} and {p} are not in one block",
            file.display()
        );
    }
    let selected: Vec<Point> = marks
        .iter()
        .filter(|(id, _)| id == "SL")
        .map(|&(_, p)| p)
        .collect();
    let area = if selected.is_empty() {
        let stones: Vec<Point> = size
            .all_points()
            .filter(|&p| board.get(p).is_some())
            .collect();
        PointSet::rectangle(size, &stones, margin)
    } else {
        let mut a = PointSet::new();
        for p in selected {
            a.insert(size.index(p));
        }
        a
    };
    let game = Tsumego::new(pos, target, kind, area)
        .map_err(|e| anyhow::anyhow!("{}: {e}", file.display()))?;
    Ok(Problem {
        game,
        goal: goal.to_string(),
    })
}

/// The prover for `--algo`.
///
/// # Errors
/// An unknown name.
pub fn prover(algo: &str) -> anyhow::Result<Box<dyn Prover<Tsumego>>> {
    Ok(match algo {
        "lambda" => Box::new(LambdaSearch::default()),
        "lambda-dfpn" => Box::new(LambdaDfPn::default()),
        "dfpn" => Box::new(DfPn::default()),
        other => bail!("unknown algorithm '{other}' (expected lambda, lambda-dfpn or dfpn)"),
    })
}

fn budget(args: &TsumegoArgs) -> anyhow::Result<Budget> {
    if !(args.seconds >= 0.0 && args.seconds.is_finite()) {
        bail!(
            "--seconds {} is not a finite non-negative number",
            args.seconds
        );
    }
    Ok(Budget {
        limits: pns::Limits {
            max_expansions: args.max_expansions,
            max_time: (args.seconds > 0.0).then(|| Duration::from_secs_f64(args.seconds)),
            ..pns::Limits::default()
        },
        ..Budget::default()
    })
}

/// Whether the side to move reaches the asked goal with this result.
fn success(problem: &Problem, status: Status) -> bool {
    match problem.goal.as_str() {
        "live" => status == Status::Live,
        _ => status == Status::Kill,
    }
}

fn moves_text(line: &[Move]) -> Vec<String> {
    line.iter().map(ToString::to_string).collect()
}

/// Runs `tsumi tsumego`.
///
/// # Errors
/// Bad input (status 2); no answer within the budget ([`crate::exit::Unknown`], status 3).
pub fn run(args: &TsumegoArgs) -> anyhow::Result<()> {
    let problem = read_problem(&args.file, &args.goal, args.margin)?;
    let mut prover = prover(&args.algo)?;
    let budget = budget(args)?;
    let game = &problem.game;
    let sol = solve(game, prover.as_mut(), &budget);
    let status = sol.verdict.status;
    let name = |s: Option<Status>| s.map_or("unknown", |s| s.name(game.goal()));
    let mover = game.start().to_move();
    if args.json {
        let v = serde_json::json!({
            "file": args.file.display().to_string(),
            "goal": problem.goal,
            "algo": args.algo,
            "to_move": mover.name(),
            "target": game.target().to_string(),
            "area_points": game.area().len(),
            "result": name(status),
            "success": status.map(|s| success(&problem, s)),
            "with_attacker_threats": name(sol.verdict.with_attacker_threats),
            "with_defender_threats": name(sol.verdict.with_defender_threats),
            "key_move": sol.key_move.map(|m| m.to_string()),
            "line": moves_text(&sol.line),
            "expansions": sol.expansions,
            "seconds": sol.time.as_secs_f64(),
        });
        println!("{v}");
    } else {
        println!(
            "problem: {game}, {mover} to move ({} to {})",
            mover, problem.goal
        );
        println!(
            "result: {}{}",
            name(status),
            status.map_or(String::new(), |s| if s == Status::Ko {
                " (it depends on ko threats)".to_string()
            } else if success(&problem, s) {
                format!(" ({mover} succeeds)")
            } else {
                format!(" ({mover} fails)")
            })
        );
        if status == Some(Status::Ko) {
            println!(
                "ko: {} with the attacker's threats, {} with the defender's",
                name(sol.verdict.with_attacker_threats),
                name(sol.verdict.with_defender_threats)
            );
        }
        if let Some(m) = sol.key_move {
            println!("key move: {m}");
        }
        println!("line: {}", moves_text(&sol.line).join(" "));
        println!(
            "expansions: {} ({}), {:.3} s",
            sol.expansions,
            args.algo,
            sol.time.as_secs_f64()
        );
    }
    if let Some(out) = &args.out {
        let text = solution_tree(&problem, &sol, prover.as_mut(), &budget);
        std::fs::write(out, text).with_context(|| format!("cannot write {}", out.display()))?;
    }
    match status {
        Some(_) => Ok(()),
        None => Err(crate::exit::unknown(
            "no answer: the budget ran out (raise --max-expansions or --seconds)",
        )),
    }
}

fn sgf_point(pos: &Position, p: Point) -> String {
    let size = pos.size();
    let letter = |v: u32| char::from(b'a' + v as u8);
    format!(
        "{}{}",
        letter(u32::from(p.col)),
        letter(size.rows() - 1 - u32::from(p.row))
    )
}

fn sgf_move(pos: &Position, colour: games::Player, m: Move) -> String {
    let c = if colour == games::Player::Black {
        "B"
    } else {
        "W"
    };
    match m {
        Move::Pass => format!("{c}[]"),
        Move::Place(p) => format!("{c}[{}]", sgf_point(pos, p)),
    }
}

/// The nodes of `line` from `pos` (colours alternate from the side to move).
fn line_nodes(pos: &Position, line: &[Move]) -> String {
    let mut colour = pos.to_move();
    let mut out = String::new();
    for &m in line {
        out.push(';');
        out.push_str(&sgf_move(pos, colour, m));
        colour = colour.opponent();
    }
    out
}

/// The solution tree: the problem's setup, then one variation per stone move of the side to
/// move in the area: correct ones (the best result) end with `C[RIGHT]`, wrong ones say what
/// they lead to and show the refutation.
pub fn solution_tree(
    problem: &Problem,
    sol: &Solution,
    prover: &mut dyn Prover<Tsumego>,
    budget: &Budget,
) -> String {
    let game = &problem.game;
    let start = game.start();
    let size = start.size();
    let board = start.board();
    let mut root = format!(
        "(;GM[1]FF[4]CA[UTF-8]AP[tsumi]SZ[{}]",
        if size.rows() == size.cols() {
            size.rows().to_string()
        } else {
            format!("{}:{}", size.cols(), size.rows())
        }
    );
    for (id, colour) in [("AB", games::Player::Black), ("AW", games::Player::White)] {
        let pts: Vec<String> = size
            .all_points()
            .filter(|&p| board.get(p) == Some(colour))
            .map(|p| format!("[{}]", sgf_point(start, p)))
            .collect();
        if !pts.is_empty() {
            let _ = write!(root, "{id}{}", pts.concat());
        }
    }
    let mover = start.to_move();
    let best = sol.verdict.status;
    let _ = write!(
        root,
        "PL[{}]MA[{}]C[{} to {}: {}]",
        if mover == games::Player::Black {
            "B"
        } else {
            "W"
        },
        sgf_point(start, game.target()),
        mover,
        problem.goal,
        best.map_or("unknown", |s| s.name(game.goal()))
    );
    let mut moves = Vec::new();
    game.legal_moves(start, &mut moves);
    for m in moves.into_iter().filter(|&m| m != Move::Pass) {
        let mut child = start.clone();
        game.play(&mut child, m);
        let (status, rest) = if game.captured(&child) {
            (Some(Status::Kill), Vec::new())
        } else {
            match Tsumego::new(child.clone(), game.target(), game.goal(), *game.area()) {
                Ok(g) => {
                    let s = solve(&g, prover, budget);
                    (s.verdict.status, s.line)
                }
                Err(_) => (None, Vec::new()),
            }
        };
        let right = status.is_some() && status == best;
        let mut var = format!("({}", line_nodes(start, &[m]));
        if !right {
            let _ = write!(
                var,
                "C[wrong: {}]",
                status.map_or("unknown", |s| s.name(game.goal()))
            );
        }
        var.push_str(&line_nodes(&child, &rest));
        if right {
            var.push_str("C[RIGHT]");
        }
        var.push(')');
        root.push_str(&var);
    }
    root.push_str(")\n");
    root
}
