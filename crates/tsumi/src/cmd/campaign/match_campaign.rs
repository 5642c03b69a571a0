//! `tsumi campaign plan-match`, and `status`/`merge` of a match campaign: the command-line
//! side of [`mcts::campaign`] (the grid, its jobs and its reports live there).

use anyhow::{Context, bail};
use clap::Args;
use mcts::campaign::{GridSpec, MATCH_PLAN_FILE, MatchPlan, markdown_table, ranges};
use serde_json::json;
use std::path::{Path, PathBuf};

/// Arguments of `tsumi campaign plan-match`.
#[derive(Args, Debug)]
pub struct PlanMatchArgs {
    /// The two players (uct, rave, grave, mcps); the win rate is the first one's.
    #[arg(num_args = 2, required = true)]
    pub players: Vec<String>,
    /// Games, comma-separated (go, nogo, atarigo, hex, wargame, tictactoe, connect4).
    #[arg(long, value_delimiter = ',', required = true)]
    pub game: Vec<String>,
    /// Board sizes, comma-separated (N or WxH), each played for every game.
    #[arg(long, value_delimiter = ',', required = true)]
    pub sizes: Vec<String>,
    /// Budgets per move, comma-separated: playouts (10000) or seconds (0.25s).
    #[arg(long, value_delimiter = ',', required = true)]
    pub budgets: Vec<String>,
    /// Games per cell (a multiple of --block; the paper plays 800).
    #[arg(long, default_value_t = 800)]
    pub games: u64,
    /// Games per job (even: as many with each player as Black).
    #[arg(long, default_value_t = 20)]
    pub block: u64,
    /// The campaign's seed (block b of every cell is the match seeded seed·1000 + b).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The campaign's directory (created; refused if it already holds a plan, unless --force).
    #[arg(long)]
    pub out: PathBuf,
    /// The tsumi binary the job lines run (default: this one, by its absolute path).
    #[arg(long)]
    pub bin: Option<PathBuf>,
    /// Replace a plan already in the directory (results whose block no longer matches are
    /// reported as mismatched, never used).
    #[arg(long)]
    pub force: bool,
    /// More `tsumi match` arguments for every job, after `--` (e.g. `-- --rho 30`).
    #[arg(last = true)]
    pub extra: Vec<String>,
}

/// Writes the plan, jobs.txt and slurm.sh of a match campaign.
///
/// # Errors
/// Bad arguments, an existing plan without `--force`, or a file that cannot be written.
pub fn plan(a: &PlanMatchArgs) -> anyhow::Result<()> {
    let bin = match &a.bin {
        Some(b) => b.clone(),
        None => std::env::current_exe().context("cannot find the path of this tsumi binary")?,
    };
    if a.out.join(MATCH_PLAN_FILE).exists() && !a.force {
        bail!(
            "{} already holds a match campaign (--force replaces its plan, keeping its results)",
            a.out.display()
        );
    }
    std::fs::create_dir_all(&a.out)
        .with_context(|| format!("cannot create {}", a.out.display()))?;
    let dir = std::fs::canonicalize(&a.out)
        .with_context(|| format!("cannot resolve {}", a.out.display()))?;
    let spec = GridSpec {
        players: [a.players[0].clone(), a.players[1].clone()],
        games: a.game.clone(),
        sizes: a.sizes.clone(),
        budgets: a.budgets.clone(),
        games_per_cell: a.games,
        block: a.block,
        seed: a.seed,
        extra: a.extra.clone(),
    };
    let p = MatchPlan::new(&spec, &dir, &bin.display().to_string()).map_err(anyhow::Error::msg)?;
    p.write(&dir).map_err(anyhow::Error::msg)?;
    let d = dir.display();
    println!(
        "{} cells, {} jobs of {} games: {d}/jobs.txt",
        p.cells.len(),
        p.jobs.len(),
        p.block
    );
    println!("run them: parallel -j CORES < {d}/jobs.txt   (rerunning resumes)");
    println!(
        "or on Slurm: sbatch --array=0-{} {d}/slurm.sh",
        p.jobs.len().saturating_sub(1)
    );
    println!("then: tsumi campaign status {d}; tsumi campaign merge {d}");
    Ok(())
}

/// `campaign status` or `merge` of a match campaign in `dir`, when it holds one.
///
/// `status` lists each cell's blocks done, running and missing; `merge` prints the table of
/// win rates with their 95% intervals and the measurements (`--json`: one object either way).
///
/// # Errors
/// A malformed plan; `merge` with blocks missing, after its report
/// ([`crate::exit::Unknown`], status 3).
pub fn report(dir: &Path, json_out: bool, merge: bool) -> anyhow::Result<bool> {
    let Some(p) = MatchPlan::read(dir).map_err(anyhow::Error::msg)? else {
        return Ok(false);
    };
    let reports = p.reports(dir);
    let missing: usize = reports.iter().map(|r| r.missing.len()).sum();
    let mismatched: usize = reports.iter().map(|r| r.mismatched.len()).sum();
    if json_out {
        println!(
            "{}",
            json!({
                "players": p.players,
                "seed": p.seed,
                "block": p.block,
                "jobs": p.jobs.len(),
                "missing_blocks": missing,
                "cells": reports,
            })
        );
    } else if merge {
        print!("{}", markdown_table(&p, &reports));
    } else {
        for r in &reports {
            let blocks = r.cell.games / p.block;
            let rate = r
                .win_rate
                .map_or("—".into(), |x| format!("{:.1}%", 100.0 * x));
            let mut line = format!(
                "{}: {}/{} blocks, {} games, {} {rate}",
                r.cell.id,
                r.done.len(),
                blocks,
                r.games,
                p.players[0]
            );
            if !r.running.is_empty() {
                line.push_str(&format!("; running or killed: {}", ranges(&r.running)));
            }
            if !r.missing.is_empty() {
                line.push_str(&format!("; missing: {}", ranges(&r.missing)));
            }
            if !r.mismatched.is_empty() {
                line.push_str(&format!(
                    "; not this plan's (delete to rerun): {}",
                    ranges(&r.mismatched)
                ));
            }
            println!("{line}");
        }
    }
    if merge && missing + mismatched > 0 {
        return Err(crate::exit::unknown(format!(
            "{} blocks of {} still missing: rerun {}/jobs.txt",
            missing + mismatched,
            p.jobs.len(),
            dir.display()
        )));
    }
    Ok(true)
}
