//! `tsumi campaign plan|status|merge`: one Go question split into independent `tsumi prove`
//! jobs that GNU parallel or a Slurm array runs, then merged back into the answer.
//!
//! The question is "does W win the empty R×C board at komi K, Black to move?" (or the
//! position after `--moves`, with the side to move there). The plan
//! expands the first `depth` plies (1 or 2; a pass is a move like any other) and keeps one
//! move of each class of moves equivalent under the symmetries that fix the game so far (the
//! board's symmetries at the root; after a move, those that also fix every earlier board,
//! since positional superko forbids exactly the earlier boards). Each leaf of that tree is a
//! job: `tsumi prove go RxC --moves M1[,M2] --komi K --winner W --out results/job-NNNN.json
//! --skip-if-done`, which writes its answer atomically (`result_file.rs`).
//!
//! Merging is an AND/OR evaluation of the tree: at a node where W moves, W wins if one child
//! is proven a win for W (OR); where the opponent moves, W wins only if every child is (AND).
//! Symmetric moves have equal values (legality, superko and the area score are invariant
//! under the rectangle's symmetries), so the representatives stand for their classes. A node
//! is decided or open; an open root lists the jobs under open nodes: exactly the jobs whose
//! results can still change the answer.

use crate::report::ProveRecord;
use crate::result_file::{self, shell_line};
use anyhow::{Context, bail};
use clap::{Args, Subcommand};
use games::Player;
use games::go::{KoRule, Komi, Move, Position, Rules, Size, Symmetry};
use serde::{Deserialize, Serialize};
use serde_json::json;
use std::path::{Path, PathBuf};

mod match_campaign;

/// Arguments of `tsumi campaign`.
#[derive(Args, Debug)]
pub struct CampaignArgs {
    /// What to do.
    #[command(subcommand)]
    pub command: CampaignCommand,
}

/// The steps of a campaign.
#[derive(Subcommand, Debug)]
// Parsed once per run: the size of the largest arguments does not matter.
#[allow(clippy::large_enum_variant)]
pub enum CampaignCommand {
    /// Write the jobs of one question: DIR/jobs.txt (GNU parallel), DIR/slurm.sh (a Slurm
    /// array) and DIR/plan.json.
    Plan(PlanArgs),
    /// Write the jobs of a match campaign (games × sizes × budgets in blocks of games, issue
    /// 36): DIR/jobs.txt, DIR/slurm.sh and DIR/match-plan.json.
    PlanMatch(match_campaign::PlanMatchArgs),
    /// Show each job as done, unknown (its budget ran out), running, killed or missing (of a
    /// match campaign: each cell's blocks done, running and missing).
    Status(DirArgs),
    /// Combine the job results into the root's answer, or list the jobs that still decide it
    /// (of a match campaign: each cell's win rate, 95% interval and measurements).
    Merge(DirArgs),
}

/// Arguments of `tsumi campaign plan`.
#[derive(Args, Debug)]
pub struct PlanArgs {
    /// The game: go (the only one campaigns split).
    pub game: String,
    /// Board size, "RxC" (rows x columns) or "N".
    pub size: String,
    /// Komi, a half-integer (added to White's area).
    #[arg(long, allow_hyphen_values = true)]
    pub komi: String,
    /// The player whose win is asked about: black or white.
    #[arg(long)]
    pub winner: String,
    /// Start from the position after these moves (comma-separated GTP moves) instead of the
    /// empty board; the jobs expand the plies after them.
    #[arg(long, value_delimiter = ',')]
    pub moves: Vec<String>,
    /// Plies expanded into jobs: 1 (one job per first move) or 2 (per first move and reply).
    #[arg(long, default_value_t = 1)]
    pub depth: u32,
    /// The campaign's directory (created; refused if it already holds a plan, unless --force).
    #[arg(long)]
    pub out: PathBuf,
    /// Threads of each job (`prove --threads`; default: the cores of the machine it runs on).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub threads: Option<u32>,
    /// Seconds of each job (`prove --seconds`; a job out of time writes an unknown result).
    #[arg(long)]
    pub seconds: Option<f64>,
    /// Expansions of each job (`prove --max-expansions`).
    #[arg(long)]
    pub max_expansions: Option<u64>,
    /// Table of each job in MiB (`prove --tt-mib`; default: chosen from the board, at most
    /// three quarters of one job's share of a node's memory: --node-mib / --jobs-per-node).
    #[arg(long)]
    pub tt_mib: Option<usize>,
    /// Jobs that run at once on one node (`parallel -j`; default: the cores of this
    /// machine divided by --threads, at least 1; without --threads, 1, since each job then
    /// uses every core). Each job's automatic table is sized so that they all fit.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=4096))]
    pub jobs_per_node: Option<u32>,
    /// Memory of a node that runs the jobs, in MiB (default: the memory available on this
    /// machine now; give it when planning on another machine than the one that runs them).
    #[arg(long, value_parser = clap::value_parser!(u64).range(64..))]
    pub node_mib: Option<u64>,
    /// Each job saves its table to DIR/checkpoints/job-NNNN.ckpt every M minutes and when it
    /// stops (`prove --checkpoint`), and a job run again continues from its file
    /// (`--resume-if-present`): a killed or timed-out job loses at most M minutes.
    #[arg(long, value_name = "M")]
    pub checkpoint_minutes: Option<f64>,
    /// The tsumi binary the job lines run (default: this one, by its absolute path).
    #[arg(long)]
    pub bin: Option<PathBuf>,
    /// Replace a plan already in the directory (its results are kept; a result of another
    /// question is reported as a mismatch, never used).
    #[arg(long)]
    pub force: bool,
}

/// Arguments of `tsumi campaign status` and `merge`.
#[derive(Args, Debug)]
pub struct DirArgs {
    /// The campaign's directory (written by `campaign plan`).
    pub dir: PathBuf,
    /// The output format (`--json`).
    #[command(flatten)]
    pub output: crate::options::output::OutputArgs,
}

/// The file name of a campaign's plan in its directory.
pub const PLAN_FILE: &str = "plan.json";
/// The file name of the GNU parallel jobs file.
pub const JOBS_FILE: &str = "jobs.txt";
/// The file name of the Slurm array script.
pub const SLURM_FILE: &str = "slurm.sh";

/// A node of the planned tree: the position after `moves`, with `to_move` to play.
#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct Node {
    /// The moves from the empty board (GTP names, "pass").
    pub moves: Vec<String>,
    /// The moves this node's last move stands for (itself and its symmetric images).
    pub images: Vec<String>,
    /// The side to move here: "black" or "white".
    pub to_move: String,
    /// The job answering this node (leaves only).
    pub job: Option<usize>,
    /// The planned children (empty at leaves).
    pub children: Vec<Node>,
}

/// One job of the plan.
#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct Job {
    /// Its index (the line of jobs.txt, from 0; Slurm's `SLURM_ARRAY_TASK_ID`).
    pub index: usize,
    /// The moves from the empty board.
    pub moves: Vec<String>,
    /// Its result file, relative to the campaign's directory.
    pub result: String,
    /// The exact command line (also the line of jobs.txt).
    pub command: String,
}

/// The plan of a campaign (DIR/plan.json).
#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct Plan {
    /// The question in words.
    pub question: String,
    /// The tsumi version that planned it.
    pub version: String,
    /// "go".
    pub game: String,
    /// "RxC".
    pub board: String,
    /// Komi in points.
    pub komi: f64,
    /// The player whose win is asked about.
    pub winner: String,
    /// Plies expanded.
    pub depth: u32,
    /// The rules every job proves under.
    pub rules: String,
    /// The jobs, by index.
    pub jobs: Vec<Job>,
    /// The moves from the empty board to the root (`--moves`; empty: the empty board).
    #[serde(default)]
    pub start: Vec<String>,
    /// The root in words: "the empty board" or "the position after C3".
    pub root: String,
    /// The tree, rooted at the root position.
    pub tree: Node,
    /// Jobs run at once on one node (`parallel -j`); 0 in plans written before it existed.
    #[serde(default)]
    pub jobs_per_node: u32,
    /// Each job's table in MiB (`--tt-mib` of every job line), chosen so that
    /// `jobs_per_node` jobs fit a node; 0 in plans written before it existed.
    #[serde(default)]
    pub tt_mib: usize,
    /// How the table was chosen, in words.
    #[serde(default)]
    pub tt_why: String,
}

/// Runs `tsumi campaign`.
///
/// # Errors
/// Bad arguments or an unreadable plan (status 2); `merge` of an undecided root, after its
/// report ([`crate::exit::Unknown`], status 3).
pub fn run(args: &CampaignArgs) -> anyhow::Result<()> {
    match &args.command {
        CampaignCommand::Plan(a) => plan(a),
        CampaignCommand::PlanMatch(a) => match_campaign::plan(a),
        CampaignCommand::Status(a) if match_campaign::report(&a.dir, a.output.json, false)? => {
            Ok(())
        }
        CampaignCommand::Status(a) => status(a),
        CampaignCommand::Merge(a) if match_campaign::report(&a.dir, a.output.json, true)? => Ok(()),
        CampaignCommand::Merge(a) => merge(a),
    }
}

fn parse_player(text: &str) -> anyhow::Result<Player> {
    match text.to_ascii_lowercase().as_str() {
        "black" | "b" => Ok(Player::Black),
        "white" | "w" => Ok(Player::White),
        other => bail!("unknown --winner '{other}' (expected black or white)"),
    }
}

fn komi_points(k: Komi) -> f64 {
    f64::from(k.half_points()) / 2.0
}

/// The legal moves of `pos`, one per class under the symmetries that fix every board of its
/// history, each with the moves of its class (legal-move order: points, then the pass).
fn unique_moves(pos: &Position) -> Vec<(Move, Vec<Move>)> {
    let size = pos.size();
    let syms: Vec<Symmetry> = Symmetry::all_for(size)
        .into_iter()
        .filter(|s| {
            pos.history()
                .positions()
                .all(|(b, _)| s.apply_board(b) == *b)
        })
        .collect();
    let mut out: Vec<(Move, Vec<Move>)> = Vec::new();
    for m in pos.legal_moves() {
        if out.iter().any(|(_, class)| class.contains(&m)) {
            continue;
        }
        let mut class = vec![m];
        for s in &syms {
            let image = match m {
                Move::Pass => Move::Pass,
                Move::Place(p) => Move::Place(s.apply(size, p)),
            };
            if !class.contains(&image) {
                class.push(image);
            }
        }
        out.push((m, class));
    }
    out
}

/// The tree below `pos` to `depth` more plies, adding a job per leaf to `jobs`.
fn expand(
    pos: &Position,
    moves: &[String],
    images: Vec<String>,
    depth: u32,
    jobs: &mut Vec<Vec<String>>,
) -> Node {
    let mut node = Node {
        moves: moves.to_vec(),
        images,
        to_move: pos.to_move().name().to_string(),
        job: None,
        children: Vec::new(),
    };
    if depth == 0 || pos.is_over() {
        node.job = Some(jobs.len());
        jobs.push(moves.to_vec());
        return node;
    }
    for (m, class) in unique_moves(pos) {
        let mut next = pos.clone();
        next.play(m).expect("a legal move of the position");
        let mut line = moves.to_vec();
        line.push(m.to_string());
        let names = class.iter().map(ToString::to_string).collect();
        node.children
            .push(expand(&next, &line, names, depth - 1, jobs));
    }
    node
}

fn plan(a: &PlanArgs) -> anyhow::Result<()> {
    if !a.game.eq_ignore_ascii_case("go") {
        bail!(
            "campaign plan splits go only, not '{}' (prove the other games in one run)",
            a.game
        );
    }
    let size = Size::parse(&a.size)?;
    crate::go_config::check_dfpn_size(size.rows() as usize, size.cols() as usize)?;
    let komi: Komi = a.komi.parse()?;
    if komi.half_points() % 2 == 0 {
        bail!("komi {komi} is not a half-integer: a drawn game would answer neither question");
    }
    let winner = parse_player(&a.winner)?;
    if !(1..=2).contains(&a.depth) {
        bail!("--depth {} is not 1 or 2", a.depth);
    }
    if let Some(s) = a.seconds
        && !(s.is_finite() && s > 0.0)
    {
        bail!("--seconds {s} is not a positive number of seconds");
    }
    if let Some(m) = a.tt_mib {
        crate::cmd::prove::go::check_tt_mib(m)?;
    }
    if let Some(m) = a.checkpoint_minutes
        && !(m.is_finite() && m > 0.0)
    {
        bail!("--checkpoint-minutes {m} must be a positive number of minutes");
    }
    let cores = crate::options::knowledge::default_threads() as u32;
    let jobs_per_node = a
        .jobs_per_node
        .unwrap_or_else(|| a.threads.map_or(1, |t| (cores / t).max(1)));
    let node_mib = a
        .node_mib
        .map(|m| m as usize)
        .or_else(|| crate::system::available_memory_bytes().map(|b| (b >> 20) as usize));
    // Every job's table is fixed here, from its share of the node: a job that chose its own
    // would take 3/4 of the memory it finds free, and several at once would not fit.
    let share = node_mib.map(|m| m / jobs_per_node as usize);
    let (tt_mib, tt_why) = crate::cmd::prove::go::table_mib_within(
        a.tt_mib,
        size.points(),
        size.rows() == 1 || size.cols() == 1,
        share,
    );
    crate::cmd::prove::go::check_tt_mib(tt_mib)?;
    let tt_why = match (a.tt_mib, node_mib) {
        (Some(_), _) => tt_why,
        (None, Some(m)) => format!(
            "{tt_why}; {jobs_per_node} job{} at once on a node of {m} MiB: {} MiB each",
            if jobs_per_node == 1 { "" } else { "s" },
            m / jobs_per_node as usize
        ),
        (None, None) => tt_why,
    };
    std::fs::create_dir_all(a.out.join("results"))
        .and_then(|()| std::fs::create_dir_all(a.out.join("logs")))
        .and_then(|()| match a.checkpoint_minutes {
            Some(_) => std::fs::create_dir_all(a.out.join("checkpoints")),
            None => Ok(()),
        })
        .with_context(|| format!("cannot create the campaign directory {}", a.out.display()))?;
    let dir = std::fs::canonicalize(&a.out)
        .with_context(|| format!("cannot resolve {}", a.out.display()))?;
    if dir.join(PLAN_FILE).exists() && !a.force {
        bail!(
            "{} already holds a plan (give --force to replace it; its results are kept)",
            dir.display()
        );
    }
    let bin = match &a.bin {
        Some(b) => b.clone(),
        None => std::env::current_exe().context("cannot find the path of this tsumi binary")?,
    };
    let rules = Rules {
        ko: KoRule::PositionalSuperko,
        komi,
    };
    let mut root_pos = Position::new(size, rules);
    let mut start = Vec::new();
    for (i, m) in a.moves.iter().map(|m| m.trim()).enumerate() {
        let mv = root_pos
            .play_text(m)
            .with_context(|| format!("--moves item {} ('{m}')", i + 1))?;
        start.push(mv.to_string());
    }
    let root = if start.is_empty() {
        "the empty board".to_string()
    } else {
        format!("the position after {}", start.join(","))
    };
    let mut lines = Vec::new();
    let tree = expand(&root_pos, &start, Vec::new(), a.depth, &mut lines);
    let jobs: Vec<Job> = lines
        .into_iter()
        .enumerate()
        .map(|(index, moves)| {
            let result = format!("results/job-{index:04}.json");
            let mut words: Vec<String> = vec![
                bin.display().to_string(),
                "prove".into(),
                "go".into(),
                size.to_string(),
                format!("--moves={}", moves.join(",")),
                format!("--komi={komi}"),
                "--winner".into(),
                winner.name().into(),
            ];
            if let Some(t) = a.threads {
                words.extend(["--threads".into(), t.to_string()]);
            }
            if let Some(s) = a.seconds {
                words.extend(["--seconds".into(), s.to_string()]);
            }
            if let Some(m) = a.max_expansions {
                words.extend(["--max-expansions".into(), m.to_string()]);
            }
            words.extend(["--tt-mib".into(), tt_mib.to_string()]);
            if let Some(m) = a.checkpoint_minutes {
                let ckpt = dir.join(format!("checkpoints/job-{index:04}.ckpt"));
                words.extend([
                    "--checkpoint".into(),
                    ckpt.display().to_string(),
                    "--checkpoint-minutes".into(),
                    m.to_string(),
                    "--resume-if-present".into(),
                ]);
            }
            words.extend([
                "--out".into(),
                dir.join(&result).display().to_string(),
                "--skip-if-done".into(),
            ]);
            Job {
                index,
                moves,
                result,
                command: shell_line(&words),
            }
        })
        .collect();
    let question = format!(
        "does {} win {size} at komi {komi} from {root}, {} to move?",
        winner.name(),
        root_pos.to_move().name()
    );
    let p = Plan {
        question: question.clone(),
        version: env!("CARGO_PKG_VERSION").into(),
        game: "go".into(),
        board: size.to_string(),
        komi: komi_points(komi),
        winner: winner.name().into(),
        depth: a.depth,
        start,
        root,
        rules: "positional superko, area scoring, suicide illegal, black first".into(),
        jobs,
        tree,
        jobs_per_node,
        tt_mib,
        tt_why,
    };
    let write = |name: &str, text: &str| -> anyhow::Result<()> {
        result_file::write_atomic(&dir.join(name), text)
    };
    let mut jobs_txt = String::new();
    for j in &p.jobs {
        jobs_txt.push_str(&j.command);
        jobs_txt.push('\n');
    }
    write(JOBS_FILE, &jobs_txt)?;
    write(SLURM_FILE, &slurm_script(&dir, &p, a.threads))?;
    write(
        PLAN_FILE,
        &format!("{}\n", serde_json::to_string_pretty(&p)?),
    )?;
    let last = p.jobs.len().saturating_sub(1);
    println!("{question}");
    println!(
        "{} jobs (depth {}, one per symmetry class of moves) in {}",
        p.jobs.len(),
        p.depth,
        dir.display()
    );
    println!("each job: a table of {} MiB ({})", p.tt_mib, p.tt_why);
    println!(
        "run them with GNU parallel: parallel -j {} < {}",
        p.jobs_per_node,
        dir.join(JOBS_FILE).display()
    );
    println!(
        "or as a Slurm array:        sbatch --array=0-{last} {}",
        dir.join(SLURM_FILE).display()
    );
    println!(
        "then: tsumi campaign status {0}; tsumi campaign merge {0}",
        dir.display()
    );
    Ok(())
}

/// Memory a job needs beyond its table, in MiB, for the Slurm script's `--mem`: the
/// search paths, the prior's tables, thread stacks as they are touched, the allocator.
const JOB_MEM_MARGIN_MIB: usize = 512;

/// The Slurm array script: task `SLURM_ARRAY_TASK_ID` runs line ID + 1 of jobs.txt.
fn slurm_script(dir: &Path, p: &Plan, threads: Option<u32>) -> String {
    let d = dir.display().to_string();
    let last = p.jobs.len().saturating_sub(1);
    let script = result_file::shell_word(&format!("{d}/{SLURM_FILE}"));
    let jobs = result_file::shell_word(&format!("{d}/{JOBS_FILE}"));
    let mut lines = vec![
        "#!/bin/bash".to_string(),
        format!("# tsumi campaign: {}", p.question),
        format!(
            "# {} jobs; submit all of them with: sbatch --array=0-{last} {script}",
            p.jobs.len()
        ),
        "#SBATCH --job-name=tsumi-campaign".into(),
        format!("#SBATCH --output={d}/logs/slurm-%A_%a.out"),
    ];
    if let Some(t) = threads {
        lines.push(format!("#SBATCH --cpus-per-task={t}"));
    }
    if p.tt_mib > 0 {
        // The table, and room for the rest of the process (paths, stacks, the allocator).
        lines.push(format!("#SBATCH --mem={}M", p.tt_mib + JOB_MEM_MARGIN_MIB));
    }
    lines.extend([
        "set -euo pipefail".to_string(),
        format!(
            ": \"${{SLURM_ARRAY_TASK_ID:?run this script as a Slurm array: sbatch --array=0-{last} {script}}}\""
        ),
        format!("line=$(sed -n \"$((SLURM_ARRAY_TASK_ID + 1))p\" {jobs})"),
        "if [ -z \"$line\" ]; then".into(),
        format!(
            "    echo \"no job $SLURM_ARRAY_TASK_ID in {d}/{JOBS_FILE} (jobs are 0 to {last})\" >&2"
        ),
        "    exit 2".into(),
        "fi".into(),
        "exec bash -c \"$line\"".into(),
    ]);
    let mut out = lines.join("\n");
    out.push('\n');
    out
}

fn read_plan(dir: &Path) -> anyhow::Result<Plan> {
    let path = dir.join(PLAN_FILE);
    let text = std::fs::read_to_string(&path).with_context(|| {
        format!(
            "cannot read {} (is it a campaign directory made by `tsumi campaign plan`?)",
            path.display()
        )
    })?;
    serde_json::from_str(&text).with_context(|| format!("malformed plan {}", path.display()))
}

/// Where a job stands.
#[derive(Debug, Clone, PartialEq)]
enum State {
    /// Proven: whether the plan's winner wins after the job's moves.
    Done { wins: bool },
    /// A result without an answer (the job's budget ran out): its reason.
    Unknown(String),
    /// A live marker: the process, where it runs and since when.
    Running(String),
    /// A marker whose process is gone: killed or crashed before writing its result.
    Killed(String),
    /// The result file answers another question (the plan changed).
    Mismatch,
    /// Nothing yet.
    Missing,
}

impl State {
    const fn name(&self) -> &'static str {
        match self {
            State::Done { .. } => "done",
            State::Unknown(_) => "unknown",
            State::Running(_) => "running",
            State::Killed(_) => "killed",
            State::Mismatch => "mismatch",
            State::Missing => "missing",
        }
    }

    fn detail(&self, winner: &str) -> String {
        match self {
            State::Done { wins: true } => format!("{winner} wins"),
            State::Done { wins: false } => format!("{winner} loses"),
            State::Unknown(why) => format!("no answer: {why} (rerun it, with a larger budget)"),
            State::Running(s) => s.clone(),
            State::Killed(s) => format!("{s}; no result (rerun it)"),
            State::Mismatch => "the result file answers another question (rerun it)".into(),
            State::Missing => "no result yet".into(),
        }
    }
}

/// The question of a job as its result file states it.
fn job_question(p: &Plan, j: &Job) -> serde_json::Value {
    json!({
        "board": p.board,
        "sgf": null,
        "moves": j.moves,
        "komi": p.komi,
        "winner": p.winner,
    })
}

/// Whether process `pid` on this machine runs the job of `result` (its command line names the
/// result file).
fn runs_job(pid: u64, result: &Path) -> bool {
    // A zombie (killed, not yet reaped) runs nothing.
    let zombie = std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        stat.rsplit_once(')')
            .and_then(|(_, rest)| rest.split_whitespace().next())
            .is_some_and(|state| state == "Z" || state == "X")
    });
    let Ok(cmd) = std::fs::read(format!("/proc/{pid}/cmdline")) else {
        return false;
    };
    if zombie {
        return false;
    }
    let name = result.file_name().map(|n| n.to_string_lossy().into_owned());
    let cmd = String::from_utf8_lossy(&cmd);
    name.is_some_and(|n| cmd.contains(&n))
}

fn job_state(dir: &Path, p: &Plan, j: &Job) -> (State, Option<ProveRecord>) {
    let path = dir.join(&j.result);
    if let Some(v) = result_file::read(&path) {
        let q = job_question(p, j);
        // A file that asks the question but is not a prove record is treated as another
        // question's (a mismatch), never as an answer.
        let record = ProveRecord::from_value(&v);
        let same = result_file::same_question(&v, &q);
        if let Some(r) = record.clone().filter(|_| result_file::proves(&v, &q)) {
            let wins = r.result == "win";
            return (State::Done { wins }, Some(r));
        }
        if let Some(r) = record.filter(|_| same && !is_running(&path)) {
            let why = r.reason.clone().unwrap_or_else(|| "unknown".to_string());
            return (State::Unknown(why), Some(r));
        }
        if !is_running(&path) {
            return (State::Mismatch, None);
        }
    }
    let marker = result_file::marker_path(&path);
    let Some(m) = result_file::read(&marker) else {
        return (State::Missing, None);
    };
    let pid = m["pid"].as_u64().unwrap_or(0);
    let host = m["host"].as_str().unwrap_or("unknown").to_string();
    let age = result_file::unix_seconds().saturating_sub(m["started"].as_u64().unwrap_or(0));
    if host != result_file::host_name() {
        return (
            State::Running(format!(
                "started {age} s ago as pid {pid} on {host} (not checkable from here)"
            )),
            None,
        );
    }
    if runs_job(pid, &path) {
        (
            State::Running(format!("pid {pid}, started {age} s ago")),
            None,
        )
    } else {
        (
            State::Killed(format!(
                "killed or crashed: pid {pid} (started {age} s ago) is gone and left its marker"
            )),
            None,
        )
    }
}

fn is_running(path: &Path) -> bool {
    let marker = result_file::marker_path(path);
    result_file::read(&marker).is_some_and(|m| {
        let pid = m["pid"].as_u64().unwrap_or(0);
        m["host"].as_str() != Some(&result_file::host_name()) || runs_job(pid, path)
    })
}

fn states(dir: &Path, p: &Plan) -> Vec<(State, Option<ProveRecord>)> {
    p.jobs.iter().map(|j| job_state(dir, p, j)).collect()
}

/// "at the root" (the node holds the root's `root_len` moves) or "after B2,pass".
fn place(moves: &[String], root_len: usize) -> String {
    if moves.len() == root_len {
        "at the root".into()
    } else {
        format!("after {}", moves.join(","))
    }
}

fn moves_text(moves: &[String]) -> String {
    if moves.is_empty() {
        "(root)".into()
    } else {
        moves.join(",")
    }
}

fn status(a: &DirArgs) -> anyhow::Result<()> {
    let p = read_plan(&a.dir)?;
    let st = states(&a.dir, &p);
    let count = |name: &str| st.iter().filter(|(s, _)| s.name() == name).count();
    if a.output.json {
        let jobs: Vec<_> = p
            .jobs
            .iter()
            .zip(&st)
            .map(|(j, (s, r))| {
                json!({
                    "index": j.index,
                    "moves": j.moves,
                    "state": s.name(),
                    "detail": s.detail(&p.winner),
                    "expansions": r.as_ref().map(|r| r.expansions),
                    "time_s": r.as_ref().map(|r| r.time_s),
                })
            })
            .collect();
        let counts: serde_json::Map<String, serde_json::Value> = [
            "done", "unknown", "running", "killed", "mismatch", "missing",
        ]
        .iter()
        .map(|n| ((*n).to_string(), json!(count(n))))
        .collect();
        println!(
            "{}",
            json!({"question": p.question, "jobs": jobs, "counts": counts})
        );
        return Ok(());
    }
    println!("{}", p.question);
    for (j, (s, r)) in p.jobs.iter().zip(&st) {
        let effort = r.as_ref().map_or(String::new(), |r| {
            format!(" ({} expansions, {:.2} s)", r.expansions, r.time_s)
        });
        println!(
            "job {:4}  {:<12} {:<8} {}{effort}",
            j.index,
            moves_text(&j.moves),
            s.name(),
            s.detail(&p.winner)
        );
    }
    println!(
        "{} jobs: {} done, {} running, {} missing ({} killed, {} mismatched), {} unknown",
        p.jobs.len(),
        count("done"),
        count("running"),
        count("missing") + count("killed") + count("mismatch"),
        count("killed"),
        count("mismatch"),
        count("unknown")
    );
    Ok(())
}

/// The value of a node for the plan's winner: `Some(true)` proven win, `Some(false)` proven
/// loss, `None` open.
fn value(node: &Node, winner: &str, st: &[(State, Option<ProveRecord>)]) -> Option<bool> {
    if let Some(j) = node.job {
        return match st[j].0 {
            State::Done { wins } => Some(wins),
            _ => None,
        };
    }
    let vals: Vec<Option<bool>> = node.children.iter().map(|c| value(c, winner, st)).collect();
    // Where the winner moves one win suffices (OR); where the opponent moves, all (AND).
    let (decisive, other) = if node.to_move == winner {
        (true, false)
    } else {
        (false, true)
    };
    if vals.contains(&Some(decisive)) {
        Some(decisive)
    } else if vals.iter().all(|v| *v == Some(other)) {
        Some(other)
    } else {
        None
    }
}

/// The lines that explain a decided node's value, and the jobs they rest on.
fn explain(
    node: &Node,
    winner: &str,
    st: &[(State, Option<ProveRecord>)],
    indent: usize,
    root_len: usize,
    lines: &mut Vec<String>,
    used: &mut Vec<usize>,
) {
    let pad = "  ".repeat(indent);
    let v = value(node, winner, st).expect("explain is called on decided nodes");
    if let Some(j) = node.job {
        used.push(j);
        return;
    }
    let mover = &node.to_move;
    let wins_word = |w: bool| if w { "wins" } else { "loses" };
    let decisive = (node.to_move == winner) == v;
    let label = |c: &Node| {
        let last = c.moves.last().cloned().unwrap_or_default();
        let others: Vec<&str> = c
            .images
            .iter()
            .filter(|m| **m != last)
            .map(String::as_str)
            .collect();
        let sym = if others.is_empty() {
            String::new()
        } else {
            format!(" (same as {} by symmetry)", others.join(", "))
        };
        let job = c
            .job
            .map_or(String::new(), |j| format!(" [proven by job {j}]"));
        format!("{last}{sym}{job}")
    };
    if decisive {
        // One child decides: the first one proven so.
        let c = node
            .children
            .iter()
            .find(|c| value(c, winner, st) == Some(v))
            .expect("a deciding child");
        lines.push(format!(
            "{pad}{}: {mover} plays {}, after which {winner} {}",
            place(&node.moves, root_len),
            label(c),
            wins_word(v)
        ));
        explain(c, winner, st, indent + 1, root_len, lines, used);
    } else {
        lines.push(format!(
            "{pad}{}: every move of {mover} ({} classes up to symmetry, the pass included) leaves {winner} {}:",
            place(&node.moves, root_len),
            node.children.len(),
            if v { "winning" } else { "losing" }
        ));
        for c in &node.children {
            lines.push(format!("{pad}  {}", label(c)));
            explain(c, winner, st, indent + 2, root_len, lines, used);
        }
    }
}

/// The jobs whose results can still change an open node: the open leaves reached through
/// open nodes only (a decided subtree cannot change).
fn open_jobs(node: &Node, winner: &str, st: &[(State, Option<ProveRecord>)], out: &mut Vec<usize>) {
    if value(node, winner, st).is_some() {
        return;
    }
    if let Some(j) = node.job {
        out.push(j);
        return;
    }
    for c in &node.children {
        open_jobs(c, winner, st, out);
    }
}

fn merge(a: &DirArgs) -> anyhow::Result<()> {
    let p = read_plan(&a.dir)?;
    let st = states(&a.dir, &p);
    let root = value(&p.tree, &p.winner, &st);
    let done = st
        .iter()
        .filter(|(s, _)| matches!(s, State::Done { .. }))
        .count();
    let effort = |jobs: &[usize]| -> (u64, f64) {
        jobs.iter().fold((0, 0.0), |(e, t), &j| {
            st[j]
                .1
                .as_ref()
                .map_or((e, t), |r| (e + r.expansions, t + r.time_s))
        })
    };
    let loser = if p.winner == "black" {
        "white"
    } else {
        "black"
    };
    match root {
        Some(wins) => {
            let mut lines = Vec::new();
            let mut used = Vec::new();
            let root_len = p.tree.moves.len();
            explain(&p.tree, &p.winner, &st, 1, root_len, &mut lines, &mut used);
            let (exp, time) = effort(&used);
            let best = best_first_move(&p, &st);
            if a.output.json {
                println!(
                    "{}",
                    json!({
                        "question": p.question,
                        "status": "proven",
                        "board": p.board,
                        "komi": p.komi,
                        "winner": p.winner,
                        "result": if wins { "win" } else { "loss" },
                        "best_move": best,
                        "proof_jobs": used,
                        "proof_expansions": exp,
                        "proof_time_s": time,
                        "jobs": p.jobs.len(),
                        "done": done,
                    })
                );
            } else {
                println!("{}", p.question);
                println!(
                    "proven: {} {} {} at komi {} from {} ({} to move; {})",
                    p.winner,
                    if wins { "wins" } else { "loses" },
                    p.board,
                    p.komi,
                    p.root,
                    p.tree.to_move,
                    p.rules
                );
                if !wins {
                    println!("  that is, {loser} wins");
                }
                for l in &lines {
                    println!("{l}");
                }
                println!(
                    "the proof rests on {} of the {} jobs ({} done): {} expansions, {:.2} s of search in them",
                    used.len(),
                    p.jobs.len(),
                    done,
                    exp,
                    time
                );
            }
            Ok(())
        }
        None => {
            let mut open = Vec::new();
            open_jobs(&p.tree, &p.winner, &st, &mut open);
            let rule = if p.tree.to_move == p.winner {
                format!(
                    "{w} moves first at the root: {w} wins if one first move is proven to win, and loses only if every one is proven to lose",
                    w = p.winner
                )
            } else {
                format!(
                    "{l} moves first at the root: {w} wins only if every first move of {l} is proven to lose for {l}",
                    w = p.winner,
                    l = loser
                )
            };
            if a.output.json {
                let list: Vec<_> = open
                    .iter()
                    .map(|&j| {
                        json!({
                            "index": j,
                            "moves": p.jobs[j].moves,
                            "state": st[j].0.name(),
                            "detail": st[j].0.detail(&p.winner),
                        })
                    })
                    .collect();
                println!(
                    "{}",
                    json!({
                        "question": p.question,
                        "status": "open",
                        "board": p.board,
                        "komi": p.komi,
                        "winner": p.winner,
                        "result": "unknown",
                        "open_jobs": list,
                        "jobs": p.jobs.len(),
                        "done": done,
                    })
                );
            } else {
                println!("{}", p.question);
                println!(
                    "not decided yet: {done} of {} jobs done; {rule}",
                    p.jobs.len()
                );
                println!(
                    "the {} jobs that still decide it (every other job's result cannot change the answer):",
                    open.len()
                );
                for &j in &open {
                    println!(
                        "  job {:4}  {:<12} {:<8} {}",
                        j,
                        moves_text(&p.jobs[j].moves),
                        st[j].0.name(),
                        st[j].0.detail(&p.winner)
                    );
                }
            }
            Err(crate::exit::unknown(format!(
                "the campaign is not decided: {} open jobs",
                open.len()
            )))
        }
    }
}

/// The first move that is proven to win for the winner when the winner moves at the root.
fn best_first_move(p: &Plan, st: &[(State, Option<ProveRecord>)]) -> Option<String> {
    if p.tree.to_move != p.winner {
        return None;
    }
    p.tree
        .children
        .iter()
        .find(|c| value(c, &p.winner, st) == Some(true))
        .and_then(|c| c.moves.get(p.tree.moves.len()).cloned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_moves_of_the_square_fall_into_symmetry_classes() {
        // 3x3: corner, edge, centre and the pass.
        let pos = Position::new(Size::new(3, 3).unwrap(), Rules::default());
        let classes = unique_moves(&pos);
        let reps: Vec<String> = classes.iter().map(|(m, _)| m.to_string()).collect();
        assert_eq!(reps, ["A1", "B1", "B2", "pass"]);
        assert_eq!(classes[0].1.len(), 4);
        assert_eq!(classes[2].1.len(), 1);
        // 3x4 (4 symmetries): A1, B1, A2, B2 and the pass.
        let pos = Position::new(Size::new(3, 4).unwrap(), Rules::default());
        assert_eq!(unique_moves(&pos).len(), 5);
    }

    #[test]
    fn replies_respect_the_first_moves_symmetry_only() {
        // After the centre of 3x3 all 8 symmetries remain: replies corner, edge, pass.
        let mut pos = Position::new(Size::new(3, 3).unwrap(), Rules::default());
        pos.play_text("B2").unwrap();
        let reps: Vec<String> = unique_moves(&pos)
            .iter()
            .map(|(m, _)| m.to_string())
            .collect();
        assert_eq!(reps, ["A1", "B1", "pass"]);
        // After the corner A1 only the diagonal mirror remains: B1 and A2 are one class.
        let mut pos = Position::new(Size::new(3, 3).unwrap(), Rules::default());
        pos.play_text("A1").unwrap();
        let classes = unique_moves(&pos);
        let b1 = classes.iter().find(|(m, _)| m.to_string() == "B1").unwrap();
        assert_eq!(b1.1.len(), 2);
        assert_eq!(classes.len(), 6); // B1, C1, B2, C2, C3, pass
    }

    fn leaf(moves: &[&str], to_move: &str, job: usize) -> Node {
        Node {
            moves: moves.iter().map(|s| (*s).to_string()).collect(),
            images: Vec::new(),
            to_move: to_move.into(),
            job: Some(job),
            children: Vec::new(),
        }
    }

    #[test]
    fn the_winner_needs_one_move_the_opponent_all() {
        let root = Node {
            moves: Vec::new(),
            images: Vec::new(),
            to_move: "black".into(),
            job: None,
            children: vec![leaf(&["A1"], "white", 0), leaf(&["B1"], "white", 1)],
        };
        let st = |a: State, b: State| vec![(a, None), (b, None)];
        let win = || State::Done { wins: true };
        let loss = || State::Done { wins: false };
        // Black to move: one win decides; a loss and an open job leave it open.
        assert_eq!(
            value(&root, "black", &st(State::Missing, win())),
            Some(true)
        );
        assert_eq!(value(&root, "black", &st(loss(), State::Missing)), None);
        assert_eq!(value(&root, "black", &st(loss(), loss())), Some(false));
        // White asked about, Black to move: White needs both.
        assert_eq!(value(&root, "white", &st(win(), State::Missing)), None);
        assert_eq!(
            value(&root, "white", &st(loss(), State::Missing)),
            Some(false)
        );
        let mut open = Vec::new();
        open_jobs(&root, "black", &st(loss(), State::Missing), &mut open);
        assert_eq!(open, [1]);
    }
}
