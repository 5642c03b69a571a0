//! Match campaigns: a grid of matches (games × sizes × budgets) split into blocks of games,
//! one job per block, for GNU parallel or a Slurm array; then each cell's win rate with its
//! 95% interval and the paper's three measurements, merged from the blocks done so far.
//!
//! A **cell** is one game, size and budget per move; its `games` games are cut into blocks of
//! `block` games (an even number, so that each block has as many games with each player as
//! Black: game `i` of a block has the first player Black when `i` is even). Block `b` of every
//! cell is one `tsumi match` seeded `seed · 1000 + b`, so its games are fixed by the
//! campaign's seed and the block. A job writes the match's JSON to a temporary file in the
//! cell's folder and renames it to `results/CELL/block-BBBB.json` (a rename is atomic), and
//! does nothing when that file is already there: rerunning the jobs file resumes.
//!
//! Source of the protocol: the MCPS paper's section "Experimental Results" (800 games a cell,
//! 400 with each colour, equal time per move, independent processes with their own seeds).

use crate::arena::wilson95;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The file name of a match campaign's plan in its directory.
pub const MATCH_PLAN_FILE: &str = "match-plan.json";
/// The file name of the GNU parallel jobs file (one shell line per job).
pub const JOBS_FILE: &str = "jobs.txt";
/// The file name of the Slurm array script.
pub const SLURM_FILE: &str = "slurm.sh";
/// Blocks per cell are numbered below this (block `b`'s seed is `seed · 1000 + b`).
pub const MAX_BLOCKS: u64 = 1000;

/// Games the arena knows (`tsumi match --game`).
pub const GAMES: [&str; 7] = [
    "go",
    "nogo",
    "atarigo",
    "hex",
    "wargame",
    "tictactoe",
    "connect4",
];

/// A campaign's grid, as asked for on the command line.
#[derive(Clone, Debug)]
pub struct GridSpec {
    /// The two players (`uct`, `rave`, `grave`, `mcps`); the win rate is the first one's.
    pub players: [String; 2],
    /// Games (names as `tsumi match --game`).
    pub games: Vec<String>,
    /// Board sizes (`N` or `WxH`), each played for every game.
    pub sizes: Vec<String>,
    /// Budgets per move: `10000` (playouts) or `0.25s` (seconds).
    pub budgets: Vec<String>,
    /// Games per cell.
    pub games_per_cell: u64,
    /// Games per block (even).
    pub block: u64,
    /// The campaign's seed.
    pub seed: u64,
    /// More `tsumi match` arguments for every job (e.g. `--rho 30`), passed as they are.
    pub extra: Vec<String>,
}

/// One cell of the grid.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Cell {
    /// `GAME-SIZE-BUDGET`, e.g. `nogo-7-p10000` or `hex-9-s0.25`; also its results folder.
    pub id: String,
    /// The game.
    pub game: String,
    /// The board size as given.
    pub size: String,
    /// The budget per move as given (`10000` or `0.25s`).
    pub budget: String,
    /// Its games (the blocks' games added up).
    pub games: u64,
}

/// One job: one block of one cell.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct MatchJob {
    /// Its index (the line of jobs.txt from 0; Slurm's `SLURM_ARRAY_TASK_ID`).
    pub index: usize,
    /// The cell's id.
    pub cell: String,
    /// The block within the cell, from 0.
    pub block: u64,
    /// The match seed of the block.
    pub seed: u64,
    /// Games in the block.
    pub games: u64,
    /// Its result file, relative to the campaign's directory.
    pub result: String,
    /// The shell line (also the line of jobs.txt).
    pub command: String,
}

/// A match campaign's plan (DIR/match-plan.json).
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct MatchPlan {
    /// The two players; the win rate is the first one's.
    pub players: [String; 2],
    /// The campaign's seed.
    pub seed: u64,
    /// Games per block.
    pub block: u64,
    /// The extra `tsumi match` arguments of every job.
    pub extra: Vec<String>,
    /// The tsumi binary the lines run.
    pub bin: String,
    /// The cells, in grid order (game, then size, then budget).
    pub cells: Vec<Cell>,
    /// The jobs, by index.
    pub jobs: Vec<MatchJob>,
}

/// A budget per move: `N` playouts or `Xs` seconds, as `tsumi match` flags and a label.
///
/// # Errors
/// A one-line message for anything else.
pub fn parse_budget(text: &str) -> Result<(Vec<String>, String), String> {
    if let Some(s) = text.strip_suffix('s') {
        match s.parse::<f64>() {
            Ok(x) if x.is_finite() && x > 0.0 => {
                Ok((vec!["--seconds".into(), s.into()], format!("s{s}")))
            }
            _ => Err(format!(
                "budget '{text}': seconds per move must be a positive number, as 0.25s"
            )),
        }
    } else {
        match text.parse::<u64>() {
            Ok(n) if n > 0 => Ok((vec!["--playouts".into(), n.to_string()], format!("p{n}"))),
            _ => Err(format!(
                "budget '{text}': give playouts per move (10000) or seconds per move (0.25s)"
            )),
        }
    }
}

/// A size as `tsumi match --size` reads it (N, or a rectangle with its sides named, as
/// `6rx7c`; a plain `AxB` rectangle is refused there as ambiguous).
fn check_size(size: &str) -> Result<(), String> {
    games::dims::parse_rows_cols(size, true)
        .map(|_| ())
        .map_err(|e| format!("size '{size}': {e}"))
}

/// A word for a POSIX shell, quoted only when it needs it.
#[must_use]
pub fn shell_word(word: &str) -> String {
    let safe = |c: char| c.is_ascii_alphanumeric() || "-_./,:=+@%".contains(c);
    if !word.is_empty() && word.chars().all(safe) {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

impl MatchPlan {
    /// The plan of `spec` with jobs running `bin` in the campaign directory `dir`.
    ///
    /// # Errors
    /// A one-line message for an unknown game or player, a bad size or budget, an odd or
    /// zero block, a cell that is not a whole number of blocks, or more than
    /// [`MAX_BLOCKS`] blocks a cell.
    pub fn new(spec: &GridSpec, dir: &Path, bin: &str) -> Result<Self, String> {
        for p in &spec.players {
            if !["uct", "rave", "grave", "mcps"].contains(&p.as_str()) {
                return Err(format!("player '{p}': give uct, rave, grave or mcps"));
            }
        }
        if spec.games.is_empty() || spec.sizes.is_empty() || spec.budgets.is_empty() {
            return Err("give at least one game, one size and one budget".into());
        }
        if spec.block == 0 || !spec.block.is_multiple_of(2) {
            return Err(format!(
                "--block {}: a block must be an even number of games (as many with each colour)",
                spec.block
            ));
        }
        if spec.games_per_cell == 0 || !spec.games_per_cell.is_multiple_of(spec.block) {
            return Err(format!(
                "--games {} must be a positive multiple of --block {}",
                spec.games_per_cell, spec.block
            ));
        }
        let blocks = spec.games_per_cell / spec.block;
        if blocks > MAX_BLOCKS {
            return Err(format!(
                "{blocks} blocks a cell: at most {MAX_BLOCKS} (make --block larger)"
            ));
        }
        let d = dir.display().to_string();
        let mut cells = Vec::new();
        let mut jobs = Vec::new();
        for game in &spec.games {
            let game = game.to_ascii_lowercase();
            if !GAMES.contains(&game.as_str()) {
                return Err(format!("game '{game}': give one of {}", GAMES.join(", ")));
            }
            for size in &spec.sizes {
                check_size(size)?;
                for budget in &spec.budgets {
                    let (flags, label) = parse_budget(budget)?;
                    let id = format!("{game}-{size}-{label}");
                    if cells.iter().any(|c: &Cell| c.id == id) {
                        return Err(format!("cell {id} is asked for twice"));
                    }
                    for b in 0..blocks {
                        let seed = spec.seed * MAX_BLOCKS + b;
                        let result = format!("results/{id}/block-{b:04}.json");
                        let mut words: Vec<String> = vec![
                            bin.into(),
                            "match".into(),
                            "--game".into(),
                            game.clone(),
                            "--size".into(),
                            size.clone(),
                            spec.players[0].clone(),
                            spec.players[1].clone(),
                        ];
                        words.extend(flags.iter().cloned());
                        words.extend(
                            [
                                "--games",
                                &spec.block.to_string(),
                                "--seed",
                                &seed.to_string(),
                                "--threads",
                                "1",
                                "--json",
                                "--quiet",
                            ]
                            .map(String::from),
                        );
                        words.extend(spec.extra.iter().cloned());
                        let run: Vec<String> = words.iter().map(|w| shell_word(w)).collect();
                        let tmp = format!("results/{id}/.block-{b:04}.json.$$");
                        let command = format!(
                            "cd {dq} && {{ test -s {result} || {{ {run} > {tmp} && mv {tmp} {result} || {{ rm -f {tmp}; exit 1; }}; }}; }}",
                            dq = shell_word(&d),
                            run = run.join(" "),
                        );
                        jobs.push(MatchJob {
                            index: jobs.len(),
                            cell: id.clone(),
                            block: b,
                            seed,
                            games: spec.block,
                            result,
                            command,
                        });
                    }
                    cells.push(Cell {
                        id,
                        game: game.clone(),
                        size: size.clone(),
                        budget: budget.clone(),
                        games: spec.games_per_cell,
                    });
                }
            }
        }
        Ok(MatchPlan {
            players: spec.players.clone(),
            seed: spec.seed,
            block: spec.block,
            extra: spec.extra.clone(),
            bin: bin.into(),
            cells,
            jobs,
        })
    }

    /// The Slurm array script: task `SLURM_ARRAY_TASK_ID` runs line ID + 1 of jobs.txt.
    #[must_use]
    pub fn slurm_script(&self, dir: &Path) -> String {
        let d = dir.display().to_string();
        let last = self.jobs.len().saturating_sub(1);
        let jobs = shell_word(&format!("{d}/{JOBS_FILE}"));
        let script = shell_word(&format!("{d}/{SLURM_FILE}"));
        [
            "#!/bin/bash".to_string(),
            format!(
                "# tsumi match campaign, {} jobs: sbatch --array=0-{last} {script}",
                self.jobs.len()
            ),
            "#SBATCH --job-name=tsumi-match".into(),
            "#SBATCH --cpus-per-task=1".into(),
            "#SBATCH --mem=2048M".into(),
            format!("#SBATCH --output={d}/logs/slurm-%A_%a.out"),
            "set -euo pipefail".into(),
            format!("line=$(sed -n \"$((SLURM_ARRAY_TASK_ID + 1))p\" {jobs})"),
            "[ -n \"$line\" ] || { echo \"no job $SLURM_ARRAY_TASK_ID\" >&2; exit 2; }".into(),
            "exec bash -c \"$line\"".into(),
            String::new(),
        ]
        .join("\n")
    }

    /// Writes DIR/match-plan.json, DIR/jobs.txt, DIR/slurm.sh and the results folders.
    ///
    /// # Errors
    /// A one-line message when a file cannot be written.
    pub fn write(&self, dir: &Path) -> Result<(), String> {
        let err = |p: &Path, e: std::io::Error| format!("cannot write {}: {e}", p.display());
        for c in &self.cells {
            let p = dir.join("results").join(&c.id);
            std::fs::create_dir_all(&p).map_err(|e| err(&p, e))?;
        }
        let logs = dir.join("logs");
        std::fs::create_dir_all(&logs).map_err(|e| err(&logs, e))?;
        let mut lines = String::new();
        for j in &self.jobs {
            lines.push_str(&j.command);
            lines.push('\n');
        }
        let text = serde_json::to_string_pretty(self).expect("a plan serializes");
        for (name, body) in [
            (JOBS_FILE, lines),
            (SLURM_FILE, self.slurm_script(dir)),
            (MATCH_PLAN_FILE, text + "\n"),
        ] {
            let p = dir.join(name);
            std::fs::write(&p, body).map_err(|e| err(&p, e))?;
        }
        Ok(())
    }

    /// Reads DIR/match-plan.json, or `None` when the directory has none.
    ///
    /// # Errors
    /// A one-line message when the file is there but unreadable or malformed.
    pub fn read(dir: &Path) -> Result<Option<Self>, String> {
        let p = dir.join(MATCH_PLAN_FILE);
        if !p.exists() {
            return Ok(None);
        }
        let text =
            std::fs::read_to_string(&p).map_err(|e| format!("cannot read {}: {e}", p.display()))?;
        serde_json::from_str(&text)
            .map(Some)
            .map_err(|e| format!("malformed {}: {e}", p.display()))
    }
}

/// One player's measurements over a cell: the sums behind the paper's three tables.
#[derive(Serialize, Debug, Clone, Default, PartialEq)]
pub struct PlayerSums {
    /// The player.
    pub player: String,
    /// Playouts run.
    pub playouts: u64,
    /// Seconds searched.
    pub seconds: f64,
    /// New leaves added.
    pub new_leaves: u64,
    /// Sum of playout lengths from the new leaf (moves).
    pub playout_moves: f64,
    /// Sum of new-leaf depths.
    pub leaf_depths: f64,
    /// Playouts per second (the paper's Tables 6, 12, 18, 24, 30 and their MCPS twins).
    pub playouts_per_second: f64,
    /// Mean playout length from the new leaf (Tables 8, 14, 20, 26, 32, …).
    pub mean_playout_length: f64,
    /// Mean new-leaf depth (Tables 10, 16, 22, 28, 34, …).
    pub mean_leaf_depth: f64,
}

/// A cell's state: games done, the first player's score and interval, measurements, blocks.
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct CellReport {
    /// The cell.
    pub cell: Cell,
    /// Games in the blocks done.
    pub games: u64,
    /// Wins, draws and losses of the first player.
    pub wins: u64,
    /// Draws.
    pub draws: u64,
    /// Losses.
    pub losses: u64,
    /// The first player's score rate (draws ½), `None` before any game.
    pub win_rate: Option<f64>,
    /// Its 95% Wilson interval.
    pub interval95: Option<(f64, f64)>,
    /// The two players' measurements.
    pub players: Vec<PlayerSums>,
    /// Blocks done.
    pub done: Vec<u64>,
    /// Blocks with a temporary file and no result: running, or killed.
    pub running: Vec<u64>,
    /// Blocks without a result.
    pub missing: Vec<u64>,
    /// Blocks whose file is not the planned match (another seed, game or budget), unused.
    pub mismatched: Vec<u64>,
}

fn as_u64(v: &Value, k: &str) -> u64 {
    v[k].as_u64().unwrap_or(0)
}

fn as_f64(v: &Value, k: &str) -> f64 {
    v[k].as_f64().unwrap_or(0.0)
}

/// Whether a block's JSON is the planned match.
fn matches_job(v: &Value, job: &MatchJob, cell: &Cell) -> bool {
    v["seed"].as_u64() == Some(job.seed)
        && v["games"].as_u64() == Some(job.games)
        && v["game"].as_str() == Some(cell.game.as_str())
        && v["size"].as_str() == Some(cell.size.as_str())
        && v["status"].as_str() == Some("complete")
}

impl MatchPlan {
    /// Each cell's report from the result files in `dir`.
    #[must_use]
    pub fn reports(&self, dir: &Path) -> Vec<CellReport> {
        self.cells
            .iter()
            .map(|cell| {
                let mut r = CellReport {
                    cell: cell.clone(),
                    games: 0,
                    wins: 0,
                    draws: 0,
                    losses: 0,
                    win_rate: None,
                    interval95: None,
                    players: self
                        .players
                        .iter()
                        .map(|p| PlayerSums {
                            player: p.clone(),
                            ..PlayerSums::default()
                        })
                        .collect(),
                    done: Vec::new(),
                    running: Vec::new(),
                    missing: Vec::new(),
                    mismatched: Vec::new(),
                };
                let folder: PathBuf = dir.join("results").join(&cell.id);
                let temps: Vec<String> = std::fs::read_dir(&folder)
                    .map(|rd| {
                        rd.filter_map(|e| e.ok()?.file_name().into_string().ok())
                            .filter(|n| n.starts_with(".block-"))
                            .collect()
                    })
                    .unwrap_or_default();
                for job in self.jobs.iter().filter(|j| j.cell == cell.id) {
                    let text = std::fs::read_to_string(dir.join(&job.result)).ok();
                    let value = text.and_then(|t| serde_json::from_str::<Value>(&t).ok());
                    match value {
                        Some(v) if matches_job(&v, job, cell) => {
                            r.done.push(job.block);
                            r.games += as_u64(&v, "games_played");
                            r.wins += as_u64(&v, "wins");
                            r.draws += as_u64(&v, "draws");
                            r.losses += as_u64(&v, "losses");
                            if let Some(pp) = v["per_player"].as_array() {
                                for (sum, p) in r.players.iter_mut().zip(pp) {
                                    let leaves = as_u64(p, "new_leaves");
                                    sum.playouts += as_u64(p, "playouts");
                                    sum.seconds += as_f64(p, "seconds");
                                    sum.new_leaves += leaves;
                                    sum.playout_moves +=
                                        as_f64(p, "mean_playout_length") * leaves as f64;
                                    sum.leaf_depths += as_f64(p, "mean_leaf_depth") * leaves as f64;
                                }
                            }
                        }
                        Some(_) => r.mismatched.push(job.block),
                        None => {
                            let prefix = format!(".block-{:04}.json.", job.block);
                            if temps.iter().any(|t| t.starts_with(&prefix)) {
                                r.running.push(job.block);
                            }
                            r.missing.push(job.block);
                        }
                    }
                }
                for s in &mut r.players {
                    if s.seconds > 0.0 {
                        s.playouts_per_second = s.playouts as f64 / s.seconds;
                    }
                    if s.new_leaves > 0 {
                        s.mean_playout_length = s.playout_moves / s.new_leaves as f64;
                        s.mean_leaf_depth = s.leaf_depths / s.new_leaves as f64;
                    }
                }
                if r.games > 0 {
                    let p = (r.wins as f64 + 0.5 * r.draws as f64) / r.games as f64;
                    r.win_rate = Some(p);
                    r.interval95 = Some(wilson95(p, r.games));
                }
                r
            })
            .collect()
    }
}

/// Block numbers as ranges: `0-3,7,9-10`.
#[must_use]
pub fn ranges(blocks: &[u64]) -> String {
    let mut out = String::new();
    let mut i = 0;
    while i < blocks.len() {
        let mut j = i;
        while j + 1 < blocks.len() && blocks[j + 1] == blocks[j] + 1 {
            j += 1;
        }
        if !out.is_empty() {
            out.push(',');
        }
        if j == i {
            let _ = write!(out, "{}", blocks[i]);
        } else {
            let _ = write!(out, "{}-{}", blocks[i], blocks[j]);
        }
        i = j + 1;
    }
    out
}

/// The reports as a Markdown table: cell, games, the first player's win rate with its 95%
/// interval, then playouts/s · length · depth for each player, and the blocks missing.
#[must_use]
pub fn markdown_table(plan: &MatchPlan, reports: &[CellReport]) -> String {
    let mut s = format!(
        "| cell | games | {} win rate (95%) | {} playouts/s · length · depth | {} playouts/s · length · depth | missing blocks |\n| --- | --- | --- | --- | --- | --- |\n",
        plan.players[0], plan.players[0], plan.players[1]
    );
    for r in reports {
        let rate = match (r.win_rate, r.interval95) {
            (Some(p), Some((lo, hi))) => {
                format!("{:.1}% ({:.1}–{:.1})", 100.0 * p, 100.0 * lo, 100.0 * hi)
            }
            _ => "—".into(),
        };
        let m = |p: &PlayerSums| {
            if p.new_leaves == 0 {
                "—".to_string()
            } else {
                format!(
                    "{:.0} · {:.1} · {:.2}",
                    p.playouts_per_second, p.mean_playout_length, p.mean_leaf_depth
                )
            }
        };
        let missing = if r.missing.is_empty() {
            "none".to_string()
        } else {
            format!("{} of {}", ranges(&r.missing), r.cell.games / plan.block)
        };
        let _ = writeln!(
            s,
            "| {} | {}/{} | {} | {} | {} | {} |",
            r.cell.id,
            r.games,
            r.cell.games,
            rate,
            m(&r.players[0]),
            m(&r.players[1]),
            missing
        );
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec() -> GridSpec {
        GridSpec {
            players: ["mcps".into(), "grave".into()],
            games: vec!["NoGo".into(), "hex".into()],
            sizes: vec!["5".into(), "7".into()],
            budgets: vec!["1000".into(), "0.25s".into()],
            games_per_cell: 8,
            block: 4,
            seed: 36,
            extra: vec!["--rho".into(), "30".into()],
        }
    }

    #[test]
    fn a_grid_is_cells_times_blocks_with_seeds_from_the_campaign_and_the_block() {
        let p = MatchPlan::new(&spec(), Path::new("/tmp/c d"), "/bin/tsumi").unwrap();
        assert_eq!(p.cells.len(), 2 * 2 * 2);
        assert_eq!(p.jobs.len(), 8 * 2);
        assert_eq!(p.cells[0].id, "nogo-5-p1000");
        assert_eq!(p.cells[1].id, "nogo-5-s0.25");
        let j = &p.jobs[1];
        assert_eq!((j.block, j.seed, j.games), (1, 36_001, 4));
        assert_eq!(j.result, "results/nogo-5-p1000/block-0001.json");
        assert!(j.command.starts_with("cd '/tmp/c d' && "), "{}", j.command);
        assert!(
            j.command.contains(
                "/bin/tsumi match --game nogo --size 5 mcps grave --playouts 1000 --games 4 --seed 36001 --threads 1 --json --quiet --rho 30 > "
            ),
            "{}",
            j.command
        );
        assert!(p.jobs[2].command.contains("--seconds 0.25"));
        assert!(p.jobs.iter().enumerate().all(|(i, j)| j.index == i));
    }

    #[test]
    fn bad_grids_are_refused_with_one_line() {
        let mut s = spec();
        s.block = 3;
        assert!(
            MatchPlan::new(&s, Path::new("d"), "t")
                .unwrap_err()
                .contains("even")
        );
        let mut s = spec();
        s.games_per_cell = 10;
        assert!(
            MatchPlan::new(&s, Path::new("d"), "t")
                .unwrap_err()
                .contains("multiple")
        );
        let mut s = spec();
        s.games = vec!["chess".into()];
        assert!(
            MatchPlan::new(&s, Path::new("d"), "t")
                .unwrap_err()
                .contains("chess")
        );
        let mut s = spec();
        s.budgets = vec!["0s".into()];
        assert!(MatchPlan::new(&s, Path::new("d"), "t").is_err());
        let mut s = spec();
        s.sizes = vec!["7y".into()];
        assert!(MatchPlan::new(&s, Path::new("d"), "t").is_err());
        let mut s = spec();
        s.players[1] = "alphazero".into();
        assert!(MatchPlan::new(&s, Path::new("d"), "t").is_err());
        let mut s = spec();
        s.budgets = vec!["1000".into(), "1000".into()];
        assert!(
            MatchPlan::new(&s, Path::new("d"), "t")
                .unwrap_err()
                .contains("twice")
        );
    }

    #[test]
    fn reports_sum_the_blocks_and_list_the_missing_ones() {
        let dir = std::env::temp_dir().join(format!("mcts-campaign-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let mut s = spec();
        s.games = vec!["nogo".into()];
        s.sizes = vec!["5".into()];
        s.budgets = vec!["1000".into()];
        s.games_per_cell = 12;
        let p = MatchPlan::new(&s, &dir, "tsumi").unwrap();
        p.write(&dir).unwrap();
        assert_eq!(MatchPlan::read(&dir).unwrap().as_ref(), Some(&p));
        let block = |seed: u64, wins: u64, len: f64| {
            serde_json::json!({
                "seed": seed, "games": 4, "games_played": 4, "game": "nogo", "size": "5",
                "status": "complete", "wins": wins, "draws": 0, "losses": 4 - wins,
                "per_player": [
                    {"playouts": 1000, "seconds": 0.5, "new_leaves": 100,
                     "mean_playout_length": len, "mean_leaf_depth": 4.0},
                    {"playouts": 1000, "seconds": 1.0, "new_leaves": 300,
                     "mean_playout_length": 2.0 * len, "mean_leaf_depth": 3.0}
                ]
            })
            .to_string()
        };
        let cell = dir.join("results/nogo-5-p1000");
        std::fs::write(cell.join("block-0000.json"), block(36_000, 3, 10.0)).unwrap();
        std::fs::write(cell.join("block-0002.json"), block(36_002, 1, 20.0)).unwrap();
        // Block 1: a running job's temporary file; block 2 done; block 0 done.
        std::fs::write(cell.join(".block-0001.json.123"), "").unwrap();
        let r = &p.reports(&dir)[0];
        assert_eq!((r.games, r.wins, r.losses), (8, 4, 4));
        assert_eq!(r.done, vec![0, 2]);
        assert_eq!((r.missing.clone(), r.running.clone()), (vec![1], vec![1]));
        assert_eq!(r.win_rate, Some(0.5));
        let a = &r.players[0];
        assert!((a.mean_playout_length - 15.0).abs() < 1e-9);
        assert!((a.playouts_per_second - 2000.0).abs() < 1e-9);
        assert!((r.players[1].mean_leaf_depth - 3.0).abs() < 1e-9);
        // Another seed's file is not this block's.
        std::fs::write(cell.join("block-0001.json"), block(99, 4, 1.0)).unwrap();
        let r = &p.reports(&dir)[0];
        assert_eq!((r.games, r.mismatched.clone()), (8, vec![1]));
        let table = markdown_table(&p, &p.reports(&dir));
        assert!(table.contains("| nogo-5-p1000 | 8/12 | 50.0% ("), "{table}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn block_ranges() {
        assert_eq!(ranges(&[0, 1, 2, 3, 7, 9, 10]), "0-3,7,9-10");
        assert_eq!(ranges(&[]), "");
        assert_eq!(ranges(&[5]), "5");
    }
}
