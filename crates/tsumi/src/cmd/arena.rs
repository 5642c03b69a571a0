//! `tsumi match` and `tsumi play`: the Monte Carlo arena and a game against a person.
//!
//! `tsumi match --game nogo --size 7 mcps grave --games 200 --playouts 10000` plays games
//! with colours alternated, in parallel (one game per thread, each search single-threaded),
//! and prints the first-named player's win rate with its 95% interval and, for each
//! player, playouts per second, the mean playout length (moves from the new leaf to the
//! end) and the mean depth of new leaves. With `--playouts` (the default budget) and a
//! seed, a match is reproducible whatever `--threads`.
//!
//! `tsumi play --game go --size 9 --player mcps --playouts 20000` plays against a person:
//! the board is drawn after each move, moves are typed in the game's notation (GTP
//! coordinates for the Go-like games), an illegal or unreadable move is answered with a
//! message, and `quit` or the end of input stops the game.
//!
//! Go is played under area scoring, komi 6.5 and simple ko unless `--komi` and `--ko`
//! (`simple`, `psk` for positional superko as the solver plays, or `ssk`) say otherwise;
//! suicide is illegal, and a game ends after two passes or 4 × points plies. The rules are
//! printed with the board and written into the records (`RU`, `KM`).
//!
//! The first Ctrl-C stops a match: the games in progress are abandoned, the finished ones are
//! reported (marked interrupted, with `--json` `"status": "interrupted"`) and kept in the
//! records, and the exit status is 3 (no answer). Progress is a bar on a terminal and a plain
//! line every ten seconds otherwise.

use crate::registry::{GameId, Use};
use anyhow::{Context, anyhow, bail};
use clap::Args;
use games::atarigo::AtariGo;
use games::connect4::Connect4;
use games::fastgo::{FastGo, ko_rule_words};
use games::go::{KoRule, Komi};
use games::hex::Hex;
use games::nogo::NoGo;
use games::tictactoe::TicTacToe;
use games::wargame::WarGame;
use games::{Game, Outcome, Player};
use indicatif::{ProgressBar, ProgressStyle};
use mcts::arena::{GameResult, MatchSummary, PlayerTotals, run_match_until};
use mcts::{Algorithm, Budget, Params, Rollout, Searcher, Uniform, WargameRollout};
use serde_json::json;
use std::io::{BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The rules of Go in `match` and `play`, for their `--help`.
const GO_RULES_HELP: &str = "Go rules: area scoring, komi 6.5 (--komi) and simple ko (--ko \
simple; --ko psk for positional superko, the solver's rule, or ssk for situational superko); \
suicide is illegal; a game ends after two passes or 4 x points plies. The rules are shown with \
the board and written into SGF records (RU, KM). Game names are case-insensitive.";

/// Go's rule options, shared by `match` and `play` (refused for the other games).
#[derive(Args, Debug, Clone)]
pub struct GoFlags {
    /// Go only: the ko rule, simple (default), psk (positional superko) or ssk (situational).
    #[arg(long)]
    pub ko: Option<String>,
    /// Go only: komi added to White's area, a multiple of 0.5 (default 6.5).
    #[arg(long, allow_hyphen_values = true)]
    pub komi: Option<String>,
}

/// Go's rules as chosen on the command line.
#[derive(Clone, Copy, Debug)]
struct GoRules {
    ko: KoRule,
    komi: Komi,
}

impl GoFlags {
    /// The Go rules; an error names a flag given for a game other than Go.
    fn rules(&self, game: GameId) -> anyhow::Result<GoRules> {
        if game != GameId::Go {
            for (flag, given) in [("--ko", self.ko.is_some()), ("--komi", self.komi.is_some())] {
                if given {
                    bail!("{flag} applies to go only, not to {game}");
                }
            }
        }
        let ko = match &self.ko {
            None => KoRule::Simple,
            Some(t) => t.parse::<KoRule>().map_err(|e| anyhow!("--ko: {e}"))?,
        };
        let komi = match &self.komi {
            None => GO_KOMI,
            Some(t) => t.parse::<Komi>().map_err(|e| anyhow!("--komi: {e}"))?,
        };
        Ok(GoRules { ko, komi })
    }
}

/// Playouts per move when neither `--playouts` nor `--seconds` is given.
const DEFAULT_PLAYOUTS: u64 = 10_000;

/// Player constants shared by `match` and `play` (the MCPS paper's defaults).
#[derive(Args, Debug, Clone)]
pub struct PlayerFlags {
    /// ρ: GRAVE's reference threshold and MCPS's freezing point (visits).
    #[arg(long, default_value_t = 30)]
    pub rho: u32,
    /// W: MCPS's window of recent playouts.
    #[arg(long, default_value_t = 10_000)]
    pub window: usize,
    /// GRAVE/RAVE bias in β = ñ / (ñ + n + bias·ñ·n).
    #[arg(long, default_value_t = 1e-5)]
    pub bias: f64,
    /// UCT's exploration constant.
    #[arg(long = "uct-c", default_value_t = 0.4)]
    pub uct_c: f64,
    /// Playouts per move (the reproducible budget; the default) [default: 10000].
    #[arg(long)]
    pub playouts: Option<u64>,
    /// Seconds per move instead of a playout budget (not reproducible).
    #[arg(long)]
    pub seconds: Option<f64>,
    /// A diagnostic variant, not the paper's MCPS: leave the pass codes out of MCPS's window
    /// (no bit set for a pass, passes skipped in a path's intersection).
    #[arg(long = "window-no-pass")]
    pub window_no_pass: bool,
}

impl PlayerFlags {
    fn params(&self, algorithm: Algorithm) -> anyhow::Result<Params> {
        let budget = match (self.seconds, self.playouts) {
            (Some(_), Some(_)) => {
                bail!("--playouts and --seconds are two budgets per move: give one of them")
            }
            (Some(s), None) if s > 0.0 && s.is_finite() => Budget::Seconds(s),
            (Some(s), None) => bail!("--seconds must be positive, not {s}"),
            (None, Some(0)) => bail!("--playouts must be at least 1"),
            (None, p) => Budget::Playouts(p.unwrap_or(DEFAULT_PLAYOUTS)),
        };
        if self.window == 0 {
            bail!("--window must be at least 1");
        }
        if !(self.bias.is_finite() && self.bias >= 0.0) {
            bail!("--bias must be a finite number ≥ 0, not {}", self.bias);
        }
        if !(self.uct_c.is_finite() && self.uct_c >= 0.0) {
            bail!("--uct-c must be a finite number ≥ 0, not {}", self.uct_c);
        }
        let mut p = Params::new(algorithm).with_budget(budget);
        p.rho = self.rho;
        p.window = self.window;
        p.bias = self.bias;
        p.uct_c = self.uct_c;
        p.window_passes = !self.window_no_pass;
        Ok(p)
    }

    fn budget_text(&self) -> String {
        match self.seconds {
            Some(s) => format!("{s} s per move"),
            None => format!(
                "{} playouts per move",
                self.playouts.unwrap_or(DEFAULT_PLAYOUTS)
            ),
        }
    }
}

/// Arguments of `tsumi match`.
#[derive(Args, Debug)]
#[command(after_help = GO_RULES_HELP)]
pub struct MatchArgs {
    /// The game: go, nogo, atarigo, hex, wargame, tictactoe, connect4 (any case).
    #[arg(long)]
    pub game: String,
    /// Board size: N for N×N, or "RxC" (R rows, C columns) where the game allows it; a
    /// rectangle of a game other than Go names its sides, "4rx5c" (see docs/usage.md).
    #[arg(long, default_value = "9")]
    pub size: String,
    /// The two players (uct, rave, grave, mcps); the win rate is the first one's.
    #[arg(num_args = 2, required = true)]
    pub players: Vec<String>,
    /// Number of games (colours alternate: the first player is Black in even games).
    #[arg(long, default_value_t = 200)]
    pub games: u64,
    /// Threads (games played at once, at most 1024 and never more than --games); 0 for
    /// every core.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=1024))]
    pub threads: u32,
    /// Seed of the match (each game's players are seeded from it and the game's index).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The output format (`--json`).
    #[command(flatten)]
    pub output: crate::options::output::OutputArgs,
    /// Save every game's record in this directory (SGF for Go, NoGo and AtariGo).
    #[arg(long)]
    pub records: Option<PathBuf>,
    /// No progress bar (nor progress lines when standard error is not a terminal).
    #[arg(long)]
    pub quiet: bool,
    #[command(flatten)]
    pub go: GoFlags,
    #[command(flatten)]
    pub flags: PlayerFlags,
}

/// Arguments of `tsumi play`.
#[derive(Args, Debug)]
#[command(after_help = GO_RULES_HELP)]
pub struct PlayArgs {
    /// The game: go, nogo, atarigo, hex, wargame, tictactoe, connect4 (any case).
    #[arg(long, default_value = "go")]
    pub game: String,
    /// Board size: N for N×N, or "RxC" (R rows, C columns) where the game allows it; a
    /// rectangle of a game other than Go names its sides, "4rx5c" (see docs/usage.md).
    #[arg(long, default_value = "9")]
    pub size: String,
    /// The computer player: uct, rave, grave or mcps.
    #[arg(long, default_value = "mcps")]
    pub player: String,
    /// The colour the person plays: black (moves first) or white.
    #[arg(long, default_value = "black")]
    pub colour: String,
    /// Seed of the computer player.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    #[command(flatten)]
    pub go: GoFlags,
    #[command(flatten)]
    pub flags: PlayerFlags,
}

/// How a game's records are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum RecordKind {
    /// SGF, `GM[1]`, GTP coordinates converted (Go, NoGo, AtariGo).
    GoSgf,
    /// One move per line.
    Text,
}

/// What the records say of a game: their kind, and Go's rules for Go.
#[derive(Clone, Copy, Debug)]
struct RecordInfo {
    kind: RecordKind,
    /// Go's rules and move limit (plies); `None` for the other games.
    go: Option<(GoRules, u32)>,
}

/// Something to do with one game, whatever its type.
trait GameTask {
    type Out;
    fn run<G, R, F>(
        self,
        game: &G,
        size: &str,
        rollout: F,
        records: RecordInfo,
    ) -> anyhow::Result<Self::Out>
    where
        G: Game + Sync,
        R: Rollout<G>,
        F: Fn() -> R + Sync;
}

fn side(size: &str) -> anyhow::Result<u8> {
    size.trim()
        .parse::<u8>()
        .with_context(|| format!("size {size:?} is not a number (this game takes N for N×N)"))
}

/// The komi of Go for playing (6.5); the rules are simple ko and area scoring ([`FastGo`]).
const GO_KOMI: Komi = Komi::from_half_points(13);

fn dispatch<T: GameTask>(name: &str, size: &str, go: &GoFlags, task: T) -> anyhow::Result<T::Out> {
    let id = GameId::parse_for(name, Use::Play)?;
    let rules = go.rules(id)?;
    let text = RecordInfo {
        kind: RecordKind::Text,
        go: None,
    };
    let sgf = RecordInfo {
        kind: RecordKind::GoSgf,
        go: None,
    };
    // Sizes are rows x columns; the small games read "AxB" as columns x rows before, so a
    // plain rectangle is refused for them (Go and Wargame took squares only).
    let (rows, cols) = games::dims::parse_rows_cols(size, !matches!(id, GameId::Go))
        .map_err(|e| anyhow!("{e}"))?;
    let shown = if rows == cols {
        rows.to_string()
    } else {
        format!("{rows}x{cols}")
    };
    let (size, wxh) = (shown.as_str(), format!("{cols}x{rows}"));
    match id {
        GameId::Go => {
            let side =
                |n: usize| u8::try_from(n).map_err(|_| anyhow!("go board side {n} is over 19"));
            let g = FastGo::new(side(rows)?, side(cols)?, rules.komi)
                .map_err(|e| anyhow!("{e}"))?
                .with_ko_rule(rules.ko);
            let info = RecordInfo {
                kind: RecordKind::GoSgf,
                go: Some((rules, g.move_limit())),
            };
            task.run(&g, size, mcts::GoRollout::default, info)
        }
        GameId::NoGo => {
            let g = NoGo::from_size(&wxh).map_err(|e| anyhow!("{e}"))?;
            task.run(&g, size, || Uniform, sgf)
        }
        GameId::AtariGo => {
            let g = AtariGo::from_size(&wxh).map_err(|e| anyhow!("{e}"))?;
            task.run(&g, size, || Uniform, sgf)
        }
        GameId::Hex => {
            let g = Hex::from_size(&wxh).map_err(|e| anyhow!("{e}"))?;
            task.run(&g, size, || Uniform, text)
        }
        GameId::WarGame => {
            let g = WarGame::new(side(size)?).map_err(|e| anyhow!("{e}"))?;
            task.run(&g, size, WargameRollout::default, text)
        }
        GameId::TicTacToe => {
            let g = TicTacToe::from_size(&wxh).map_err(|e| anyhow!("{e}"))?;
            task.run(&g, size, || Uniform, text)
        }
        GameId::Connect4 => {
            let g = Connect4::from_size(&wxh).map_err(|e| anyhow!("{e}"))?;
            task.run(&g, size, || Uniform, text)
        }
    }
}

/// Go's rules in words, for records and reports, e.g. "area scoring, komi 6.5, simple ko,
/// suicide illegal, ends after two passes or 100 plies".
fn go_rules_text(rules: GoRules, move_limit: u32) -> String {
    format!(
        "area scoring, komi {}, {}, suicide illegal, ends after two passes or {move_limit} plies",
        rules.komi,
        ko_rule_words(rules.ko)
    )
}

fn player_json(name: &str, t: &PlayerTotals) -> serde_json::Value {
    let s = &t.stats;
    json!({
        "player": name,
        "moves": t.moves,
        "playouts": s.playouts,
        "seconds": s.seconds,
        "playouts_per_second": s.playouts_per_second(),
        "mean_playout_length": s.mean_playout_length(),
        "mean_leaf_depth": s.mean_leaf_depth(),
        "new_leaves": s.new_leaves,
    })
}

/// Converts a GTP point ("D4", "pass") of a `width`×`height` board to SGF ("dc", "").
fn gtp_to_sgf(text: &str, height: usize) -> Option<String> {
    if text.eq_ignore_ascii_case("pass") {
        return Some(String::new());
    }
    let t = text.to_ascii_uppercase();
    let letter = *t.as_bytes().first()?;
    if !letter.is_ascii_uppercase() || letter == b'I' {
        return None;
    }
    let col = if letter > b'I' {
        letter - b'A' - 1
    } else {
        letter - b'A'
    };
    let row: usize = t[1..].parse().ok()?;
    if row == 0 || row > height {
        return None;
    }
    let y = (height - row) as u8;
    Some(format!("{}{}", (b'a' + col) as char, (b'a' + y) as char))
}

/// Width and height of a size shown as "RxC" (rows first) or "N".
fn dims(size: &str) -> (usize, usize) {
    let s = size.to_ascii_lowercase();
    match s.split_once('x') {
        Some((h, w)) => (w.trim().parse().unwrap_or(0), h.trim().parse().unwrap_or(0)),
        None => {
            let n = s.trim().parse().unwrap_or(0);
            (n, n)
        }
    }
}

fn result_text(o: Outcome) -> &'static str {
    match o {
        Outcome::Win(Player::Black) => "B+",
        Outcome::Win(Player::White) => "W+",
        Outcome::Draw => "0",
    }
}

/// SGF's `RE` of a Go game with its score, "B+3.5" or "W+0.5" ("0" a draw): the moves
/// replayed on the board that was played, scored by area with the komi. A replay that does
/// not end in `outcome` (never expected) gives the winner alone, "B+", rather than a wrong
/// score.
fn go_result(
    rules: GoRules,
    (rows, cols): (usize, usize),
    moves: &[String],
    outcome: Outcome,
) -> String {
    let replay = || -> Option<String> {
        let g = FastGo::new(
            u8::try_from(rows).ok()?,
            u8::try_from(cols).ok()?,
            rules.komi,
        )
        .ok()?
        .with_ko_rule(rules.ko);
        let mut state = g.initial();
        for m in moves {
            let mv = g.parse_move(&state, m).ok()?;
            g.play(&mut state, mv);
        }
        let m2 = 2 * g.score(&state).margin() - rules.komi.half_points();
        let by = Komi::from_half_points(m2.abs());
        let (text, scored) = match m2.signum() {
            1 => (format!("B+{by}"), Outcome::Win(Player::Black)),
            -1 => (format!("W+{by}"), Outcome::Win(Player::White)),
            _ => ("0".to_string(), Outcome::Draw),
        };
        (scored == outcome).then_some(text)
    };
    replay().unwrap_or_else(|| result_text(outcome).to_string())
}

fn write_record(
    dir: &Path,
    game: &str,
    size: &str,
    info: RecordInfo,
    names: [&str; 2],
    r: &GameResult,
) -> anyhow::Result<()> {
    let (black, white) = if r.a_is_black {
        (names[0], names[1])
    } else {
        (names[1], names[0])
    };
    let (text, ext) = match info.kind {
        RecordKind::GoSgf => {
            let (w, h) = dims(size);
            let size_prop = if w == h {
                format!("SZ[{w}]")
            } else {
                format!("SZ[{w}:{h}]")
            };
            // Go: the rules played (RU, in words, with the ko rule) and the komi; the other
            // games of the family are named in RU and have no komi.
            let (komi, rules) = match info.go {
                Some((rules, limit)) => (rules.komi.to_string(), go_rules_text(rules, limit)),
                None => ("0".to_string(), game.to_string()),
            };
            let mut s = format!(
                "(;GM[1]FF[4]CA[UTF-8]AP[tsumi:{}]GN[{game} {} of match]{size_prop}KM[{komi}]RU[{}]PB[{black}]PW[{white}]RE[{}]",
                env!("CARGO_PKG_VERSION"),
                r.index,
                games::go::sgf_escape(&rules),
                info.go.map_or_else(
                    || result_text(r.outcome).to_string(),
                    |(rules, _)| go_result(rules, (h, w), &r.moves, r.outcome)
                )
            );
            for (i, m) in r.moves.iter().enumerate() {
                let colour = if i % 2 == 0 { 'B' } else { 'W' };
                let coord =
                    gtp_to_sgf(m, h).with_context(|| format!("move {m:?} is not a GTP point"))?;
                s.push_str(&format!("\n;{colour}[{coord}]"));
            }
            s.push_str(")\n");
            (s, "sgf")
        }
        RecordKind::Text => {
            let mut s = format!(
                "# {game} {size}, game {}: first player {black}, second player {white}\n",
                r.index
            );
            for m in &r.moves {
                s.push_str(m);
                s.push('\n');
            }
            s.push_str(&format!("# result {}\n", result_text(r.outcome)));
            (s, "txt")
        }
    };
    let path = dir.join(format!("game-{:05}.{ext}", r.index));
    crate::result_file::write_text(&path, "game record", &text)
}

/// The threads of a match: `asked` (0 for every core), never more than the games (one game
/// is one thread's work) and at least one.
fn match_threads(asked: u32, games: u64) -> usize {
    let asked = if asked == 0 {
        crate::options::knowledge::default_threads()
    } else {
        asked as usize
    };
    asked
        .min(usize::try_from(games).unwrap_or(usize::MAX))
        .max(1)
}

struct MatchTask<'a> {
    args: &'a MatchArgs,
    algos: [Algorithm; 2],
}

impl GameTask for MatchTask<'_> {
    type Out = ();
    fn run<G, R, F>(self, game: &G, size: &str, rollout: F, info: RecordInfo) -> anyhow::Result<()>
    where
        G: Game + Sync,
        R: Rollout<G>,
        F: Fn() -> R + Sync,
    {
        let a = self.args;
        let params = [
            a.flags.params(self.algos[0])?,
            a.flags.params(self.algos[1])?,
        ];
        let names = [self.algos[0].name(), self.algos[1].name()];
        if let Some(dir) = &a.records {
            crate::cmd::check::check_dir(dir, "--records")?;
        }
        let threads = match_threads(a.threads, a.games);
        // A bar on a terminal; otherwise (a log) a plain line now and then, never `\r`.
        let terminal = std::io::stderr().is_terminal();
        let show = !(a.quiet || a.output.json);
        let bar = if show && terminal {
            ProgressBar::new(a.games)
        } else {
            ProgressBar::hidden()
        };
        bar.set_style(
            ProgressStyle::with_template(
                "{spinner} [{elapsed_precise}] {bar:30} {pos}/{len} games {msg}",
            )
            .expect("valid template"),
        );
        let cancel = crate::interrupt::cancel_flag();
        let record_failed = AtomicBool::new(false);
        let live = std::sync::Mutex::new((MatchSummary::default(), Instant::now()));
        let record_error = std::sync::Mutex::new(None::<anyhow::Error>);
        let t0 = Instant::now();
        let (summary, _results) = run_match_until(
            game,
            params,
            a.games,
            a.seed,
            threads,
            rollout,
            |r: &GameResult| {
                if let Some(dir) = &a.records
                    && let Err(e) = write_record(dir, game.name(), size, info, names, r)
                {
                    record_error.lock().expect("lock").get_or_insert(e);
                    record_failed.store(true, Ordering::SeqCst);
                }
                let mut guard = live.lock().expect("lock");
                let (s, last_line) = &mut *guard;
                s.add(r);
                bar.set_message(format!("{} {:.1}%", names[0], 100.0 * s.score()));
                bar.inc(1);
                if show && !terminal && last_line.elapsed() >= Duration::from_secs(10) {
                    *last_line = Instant::now();
                    eprintln!(
                        "match: {}/{} games, {} {:.1}%, {:.0} s",
                        s.games,
                        a.games,
                        names[0],
                        100.0 * s.score(),
                        t0.elapsed().as_secs_f64()
                    );
                }
            },
            || cancel.load(Ordering::Relaxed) || record_failed.load(Ordering::Relaxed),
        )?;
        bar.finish_and_clear();
        if let Some(e) = record_error.into_inner().expect("lock") {
            return Err(e);
        }
        let interrupted = summary.games < a.games;
        let elapsed = t0.elapsed().as_secs_f64();
        let (lo, hi) = summary.interval95();
        let rules = info
            .go
            .map(|(r, limit)| (r, limit, go_rules_text(r, limit)));
        if a.output.json {
            let out = json!({
                "command": std::env::args_os()
                    .map(|a| a.to_string_lossy().into_owned())
                    .collect::<Vec<_>>()
                    .join(" "),
                "version": env!("CARGO_PKG_VERSION"),
                "status": if interrupted { "interrupted" } else { "complete" },
                "game": game.name(),
                "size": size,
                "rules": rules.as_ref().map(|(r, limit, _)| json!({
                    "ko": r.ko.to_string(),
                    "komi": f64::from(r.komi.half_points()) / 2.0,
                    "scoring": "area",
                    "move_limit": limit,
                })),
                "players": names,
                "games": summary.games,
                "games_played": summary.games,
                "games_requested": a.games,
                "budget": match params[0].budget { Budget::Playouts(n) => json!({"playouts": n}), Budget::Seconds(s) => json!({"seconds": s}) },
                "rho": a.flags.rho,
                "window": a.flags.window,
                "window_passes": !a.flags.window_no_pass,
                "bias": a.flags.bias,
                "uct_c": a.flags.uct_c,
                "seed": a.seed,
                "threads": threads,
                "wins": summary.a_wins,
                "losses": summary.b_wins,
                "draws": summary.draws,
                "win_rate": summary.score(),
                "interval95": [lo, hi],
                "first_player_wins": summary.first_player_wins,
                "per_player": [player_json(names[0], &summary.totals[0]), player_json(names[1], &summary.totals[1])],
                "elapsed_seconds": elapsed,
            });
            println!("{out}");
        } else {
            if interrupted {
                println!(
                    "interrupted: {} of {} games finished (the games in progress were abandoned)",
                    summary.games, a.games
                );
            }
            println!(
                "{} {}: {} vs {}, {}, {}, seed {}, {}, {:.1} s",
                game.name(),
                size,
                names[0],
                names[1],
                games::count(summary.games, "game", "games"),
                a.flags.budget_text(),
                a.seed,
                games::count(threads as u64, "thread", "threads"),
                elapsed
            );
            if let Some((_, _, text)) = &rules {
                println!("rules: {text}");
            }
            println!(
                "{} win rate {:.1}% (95% interval {:.1}% to {:.1}%): {}, {}, {}; the first player won {}",
                names[0],
                100.0 * summary.score(),
                100.0 * lo,
                100.0 * hi,
                games::count(summary.a_wins, "win", "wins"),
                games::count(summary.b_wins, "loss", "losses"),
                games::count(summary.draws, "draw", "draws"),
                games::count(summary.first_player_wins, "game", "games"),
            );
            println!(
                "{:<8} {:>12} {:>15} {:>11} {:>8}",
                "player", "playouts/s", "playout length", "leaf depth", "moves"
            );
            for (name, t) in names.iter().zip(&summary.totals) {
                println!(
                    "{:<8} {:>12.0} {:>15.2} {:>11.2} {:>8}",
                    name,
                    t.stats.playouts_per_second(),
                    t.stats.mean_playout_length(),
                    t.stats.mean_leaf_depth(),
                    t.moves
                );
            }
        }
        if interrupted {
            crate::exit::flush_stdout()?;
            return Err(crate::exit::unknown(format!(
                "interrupted: {} of {} games played; the result above is partial",
                summary.games, a.games
            )));
        }
        Ok(())
    }
}

/// Runs `tsumi match`.
pub fn run_match(args: &MatchArgs) -> anyhow::Result<()> {
    if args.players.len() != 2 {
        bail!("match needs two players, e.g. `mcps grave`");
    }
    let algos = [
        args.players[0].parse::<Algorithm>()?,
        args.players[1].parse::<Algorithm>()?,
    ];
    if args.games == 0 {
        bail!("--games must be at least 1");
    }
    dispatch(&args.game, &args.size, &args.go, MatchTask { args, algos })
}

/// A failed write to standard output, as `main` reports it ("cannot write to standard
/// output: …"); the `io::Error` stays in the chain, so a closed pipe is still a quiet 141.
fn write_error(e: std::io::Error) -> anyhow::Error {
    anyhow::Error::new(e).context("cannot write to standard output")
}

struct PlayTask<'a> {
    args: &'a PlayArgs,
    algo: Algorithm,
    human: Player,
}

impl GameTask for PlayTask<'_> {
    type Out = ();
    fn run<G, R, F>(self, game: &G, size: &str, rollout: F, _: RecordInfo) -> anyhow::Result<()>
    where
        G: Game + Sync,
        R: Rollout<G>,
        F: Fn() -> R + Sync,
    {
        let params = self.args.flags.params(self.algo)?;
        let mut engine = Searcher::new(game, params, rollout(), self.args.seed);
        let mut state = game.initial();
        let stdin = std::io::stdin();
        let mut input = stdin.lock();
        let mut out = std::io::stdout();
        writeln!(
            out,
            "{} {size}: you play {} against {} ({}). Type a move, `help`, or `quit`.",
            game.name(),
            self.human,
            self.algo,
            self.args.flags.budget_text()
        )
        .map_err(write_error)?;
        let mut moves = Vec::new();
        let mut redraw = true;
        loop {
            if redraw {
                writeln!(out, "\n{}", game.render(&state)).map_err(write_error)?;
            }
            redraw = true;
            if let Some(o) = game.outcome(&state) {
                let text = match o {
                    Outcome::Win(p) if p == self.human => "You win.".to_string(),
                    Outcome::Win(p) => format!("{p} ({}) wins.", self.algo),
                    Outcome::Draw => "Draw.".to_string(),
                };
                writeln!(out, "Game over: {text}").map_err(write_error)?;
                return Ok(());
            }
            let to_move = game.to_move(&state);
            if to_move == self.human {
                write!(out, "{to_move} to move> ").map_err(write_error)?;
                out.flush().map_err(write_error)?;
                // Read bytes, not a String: a line that is not UTF-8 is answered like any
                // other unreadable move instead of ending the game.
                let mut raw = Vec::new();
                if input
                    .read_until(b'\n', &mut raw)
                    .context("cannot read standard input")?
                    == 0
                {
                    writeln!(out, "\nEnd of input: game abandoned.").map_err(write_error)?;
                    return Ok(());
                }
                let line = String::from_utf8_lossy(&raw);
                let text = line.trim();
                match text.to_ascii_lowercase().as_str() {
                    "" => {
                        redraw = false;
                        continue;
                    }
                    "quit" | "exit" | "resign" => {
                        writeln!(out, "Game abandoned.").map_err(write_error)?;
                        return Ok(());
                    }
                    "help" | "?" => {
                        game.legal_moves(&state, &mut moves);
                        let list: Vec<String> =
                            moves.iter().take(60).map(ToString::to_string).collect();
                        writeln!(
                            out,
                            "Legal moves: {}{}",
                            list.join(" "),
                            if moves.len() > 60 { " ..." } else { "" }
                        )
                        .map_err(write_error)?;
                        redraw = false;
                        continue;
                    }
                    _ => {}
                }
                match game.parse_move(&state, text) {
                    Ok(m) => game.play(&mut state, m),
                    Err(e) => {
                        writeln!(out, "Illegal or unreadable move: {e}").map_err(write_error)?;
                        redraw = false;
                    }
                }
            } else {
                let (m, st) = engine
                    .search(game, &state)
                    .context("no move in a live position")?;
                let best = engine.root_moves().into_iter().find(|x| x.0 == m);
                let estimate = best.map_or(String::new(), |b| {
                    format!(", win estimate {:.0}%", 100.0 * b.2)
                });
                writeln!(
                    out,
                    "{} plays {m} ({} playouts, {:.0} playouts/s{estimate})",
                    self.algo,
                    st.playouts,
                    st.playouts_per_second()
                )
                .map_err(write_error)?;
                game.play(&mut state, m);
            }
        }
    }
}

/// Runs `tsumi play`.
pub fn run_play(args: &PlayArgs) -> anyhow::Result<()> {
    let algo = args.player.parse::<Algorithm>()?;
    let human = match args.colour.to_ascii_lowercase().as_str() {
        "black" | "b" | "first" | "red" => Player::Black,
        "white" | "w" | "second" | "blue" => Player::White,
        other => bail!("--colour must be black or white, not {other:?}"),
    };
    dispatch(
        &args.game,
        &args.size,
        &args.go,
        PlayTask { args, algo, human },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gtp_points_to_sgf() {
        assert_eq!(gtp_to_sgf("A1", 9).as_deref(), Some("ai"));
        assert_eq!(gtp_to_sgf("J9", 9).as_deref(), Some("ia"));
        assert_eq!(gtp_to_sgf("H8", 9).as_deref(), Some("hb"));
        assert_eq!(gtp_to_sgf("pass", 9).as_deref(), Some(""));
        assert_eq!(gtp_to_sgf("I5", 9), None);
        assert_eq!(gtp_to_sgf("A10", 9), None);
    }
}
