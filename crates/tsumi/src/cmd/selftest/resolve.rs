//! Re-solves: a proof split at the root into its branches, each proved in a fresh process.
//!
//! For a random position and komi, the in-process solver answers "does Black win?"; then
//! every legal move of the root (the pass included) is played and its child position, with
//! the whole history, is proved by a child process of this executable (`tsumi prove go
//! RxC --moves ... --komi k --winner black --json`), which shares nothing with this one but
//! the code. The root's mover wins if one of its moves wins and loses if all lose: that
//! combination must equal the root's answer.

use super::{Mode, Rng, case_name, random_prefix};
use anyhow::{Context, bail};
use games::Player;
use games::go;
use games::go::Komi;
use gosolve::{Answer, Config, Solver};
use std::process::Command;

/// Proves "does `winner` win after `moves` at komi `komi2`/2" in a fresh process of this
/// executable (one thread, a `tt_mib` MiB table, at most `max_expansions` expansions).
///
/// # Errors
/// The child cannot start, fails, or prints something other than one JSON answer.
pub(super) fn fresh_prove(
    size: go::Size,
    moves: &[String],
    komi2: i32,
    winner: Player,
    max_expansions: u64,
    tt_mib: usize,
) -> anyhow::Result<Answer> {
    let exe = std::env::current_exe().context("the path of this executable")?;
    let mut cmd = Command::new(exe);
    cmd.args(["prove", "go", &size.to_string()]);
    if !moves.is_empty() {
        cmd.arg("--moves").arg(moves.join(","));
    }
    cmd.arg(format!("--komi={}", go::Komi::from_half_points(komi2)))
        .args(["--winner", winner.name(), "--json", "--threads", "1"])
        .arg(format!("--tt-mib={tt_mib}"))
        .arg(format!("--max-expansions={max_expansions}"));
    let out = cmd.output().context("start a fresh tsumi process")?;
    if !out.status.success() {
        bail!(
            "the fresh process failed: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        );
    }
    let v: crate::report::ProveRecord =
        serde_json::from_slice(&out.stdout).context("the fresh process's JSON answer")?;
    Ok(match v.result.as_str() {
        "win" => Answer::Proven,
        "loss" => Answer::Disproven,
        _ => Answer::Unknown,
    })
}

/// What the split gave: the combined answer and the processes it ran.
pub(super) struct Split {
    pub(super) answer: Answer,
    pub(super) processes: u64,
}

/// Splits "does Black win at the end of `pos` (reached by `moves`) at komi `komi2`/2" at the
/// root and proves every branch in a fresh process.
///
/// # Errors
/// A child process failed.
pub(super) fn split(
    size: go::Size,
    pos: &go::Position,
    moves: &[String],
    komi2: i32,
    max_expansions: u64,
    tt_mib: usize,
) -> anyhow::Result<Split> {
    let mover_is_black = pos.to_move() == Player::Black;
    let (mut any_win, mut any_unknown, mut processes) = (false, false, 0);
    for m in pos.legal_moves() {
        let mut child = moves.to_vec();
        child.push(m.to_string());
        processes += 1;
        let a = fresh_prove(size, &child, komi2, Player::Black, max_expansions, tt_mib)?;
        // The branch from the root mover's side: a Black win is the mover's win if Black moves.
        match a {
            Answer::Unknown => any_unknown = true,
            a => any_win |= (a == Answer::Proven) == mover_is_black,
        }
        if any_win {
            break;
        }
    }
    let mover_wins = if any_win {
        Some(true)
    } else if any_unknown {
        None
    } else {
        Some(false)
    };
    let answer = match mover_wins {
        None => Answer::Unknown,
        Some(w) if w == mover_is_black => Answer::Proven,
        Some(_) => Answer::Disproven,
    };
    Ok(Split { answer, processes })
}

/// Runs the re-solves; returns the disagreements.
pub(super) fn run(mode: Mode, seed: u64) -> anyhow::Result<u64> {
    let (boards, per_board): (&[(u32, u32)], usize) = match mode {
        Mode::Quick => (&[(2, 3), (3, 3), (2, 4)], 8),
        Mode::Long => (&[(2, 3), (3, 3), (2, 4), (1, 7), (3, 4), (2, 5)], 12),
    };
    let start = std::time::Instant::now();
    let mut rng = Rng(seed ^ 0x7265_736f_6c76);
    let (mut roots, mut processes, mut agree) = (0u64, 0u64, 0u64);
    let mut disagreements = 0;
    for &(r, c) in boards {
        let size = go::Size::new(r, c)?;
        let n = size.points() as i32;
        let mut solver = Solver::for_size(size, 16, Config::reference())?;
        for _ in 0..per_board {
            if super::interrupted() {
                break;
            }
            let (pos, moves) = random_prefix(size, size.points(), &mut rng);
            if pos.is_over() {
                continue;
            }
            let k2 = 2 * (rng.below(n as usize + 1) as i32 - n / 2) + 1;
            let root = solver
                .prove(&pos, Player::Black, Komi::from_half_points(k2))
                .answer;
            let s = split(size, &pos, &moves, k2, 0, 16)?;
            roots += 1;
            processes += s.processes;
            if s.answer == root {
                agree += 1;
            } else {
                disagreements += 1;
                println!(
                    "DISAGREE re-solve: {}: root {} vs branches {}",
                    case_name(size, &moves, k2),
                    root.outcome_name(),
                    s.answer.outcome_name()
                );
            }
        }
    }
    println!(
        "re-solves: {roots} proofs split at the root into {processes} branches, each proved in a fresh process; {:.1} s",
        start.elapsed().as_secs_f64()
    );
    println!("  branches combine to the root's answer: {agree}/{roots}");
    Ok(disagreements)
}
