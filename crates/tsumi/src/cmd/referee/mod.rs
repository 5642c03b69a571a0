//! `tsumi referee`: two GTP engines play each other under the referee's own rules.
//!
//! The referee keeps the game in a [`games::go::Position`] with positional superko, area
//! scoring and suicide illegal (the solver's rules), asks the side to move for `genmove`,
//! checks the move against those rules, plays it, and tells the other engine with `play`.
//! Two passes end the game; it is scored by area with the komi (Black's area − White's area −
//! komi). An engine loses the game (a forfeit, reported with the reason) when it plays an
//! illegal move, answers `?` or garbage, refuses a legal move of its opponent, dies, or gives
//! no reply within `--move-timeout` seconds; `resign` loses too. Each game starts fresh
//! engine processes (so a crash costs one game) and ends them with `quit`; they are always
//! reaped ([`gtp_client`]). Engine colours swap every other game with `--alternate`, and
//! `{seed}` in an engine command becomes the game's seed (`--seed` + game index).
//!
//! The match score is engine A's (`--black`'s command) wins plus half its draws over the
//! games, with the 95% Wilson interval of `mcts::arena::wilson95`.

pub mod gtp_client;

use crate::cmd::referee::gtp_client::{Engine, GtpError};
use anyhow::bail;
use clap::Args;
use games::Player;
use games::go::{KoRule, Komi, Move, Position, Rules, Size, position_to_sgf};
use serde_json::json;
use std::path::PathBuf;
use std::sync::atomic::Ordering;
use std::time::Duration;

/// Arguments of `tsumi referee`.
#[derive(Args, Debug)]
#[command(
    after_help = "Example: tsumi referee --black \"tsumi gtp\" --white \"gnugo --mode gtp \
--chinese-rules --positional-superko --seed {seed}\" --size 5 --komi 24.5 --games 4 --alternate \
--records games/ --json"
)]
pub struct RefereeArgs {
    /// Engine A's command (run with `sh -c`): Black in the first game.
    #[arg(long)]
    pub black: String,
    /// Engine B's command: White in the first game.
    #[arg(long)]
    pub white: String,
    /// Board size: "N" (GTP `boardsize N`) or "RxC", R rows and C columns as in every
    /// `tsumi` size (sent as `rectangular_boardsize C R`; GNU Go plays square boards only)
    /// [default: 5].
    #[arg(long)]
    pub size: Option<String>,
    /// The older spelling of a rectangle, "CxR": C columns first, the order of GTP's
    /// `rectangular_boardsize C R` (kept for existing scripts; `--size RxC` is the same board).
    #[arg(long, conflicts_with = "size")]
    pub rect: Option<String>,
    /// Komi (a multiple of 0.5, added to White's area).
    #[arg(long, allow_hyphen_values = true)]
    pub komi: String,
    /// Games to play.
    #[arg(long, default_value_t = 2)]
    pub games: u64,
    /// Seed of the first game (game i has seed + i; `{seed}` in a command is replaced by it).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Write one SGF record per game into this directory (created).
    #[arg(long)]
    pub records: Option<PathBuf>,
    /// Swap the engines' colours every other game (A is White in games 2, 4, ...).
    #[arg(long)]
    pub alternate: bool,
    /// End a game after this many moves (passes included) and score it as it stands
    /// [default: 10 × points].
    #[arg(long)]
    pub max_moves: Option<u32>,
    /// Seconds an engine may take for one reply (setup, `play`, `genmove`).
    #[arg(long, default_value_t = 60.0, allow_hyphen_values = true)]
    pub move_timeout: f64,
    /// Print one JSON object per game and one for the match instead of text.
    #[arg(long)]
    pub json: bool,
    /// Exit with status 2 after the summary if any game was forfeited (an engine that did
    /// not start, died, timed out or broke the rules): a misspelt engine command then fails a
    /// script instead of counting as the other engine's wins.
    #[arg(long)]
    pub fail_on_forfeit: bool,
}

/// How a game ended.
#[derive(Debug, Clone)]
struct Outcome {
    /// The winner, `None` for a draw.
    winner: Option<Player>,
    /// Black's area − White's area − komi, when the game was scored.
    score: Option<f64>,
    /// Why it ended, in words.
    reason: String,
    /// The side that forfeited or resigned.
    failed: Option<Player>,
    /// SGF's RE value.
    re: String,
    /// Ctrl-C stopped the game: it is neither counted nor recorded.
    interrupted: bool,
}

fn colour_letter(p: Player) -> &'static str {
    match p {
        Player::Black => "b",
        Player::White => "w",
    }
}

/// The loss of `side`: a forfeit (`F`), a timeout (`T`) or a resignation (`R`).
fn loss(side: Player, code: &str, reason: String) -> Outcome {
    let w = side.opponent();
    Outcome {
        winner: Some(w),
        score: None,
        reason,
        failed: Some(side),
        re: format!("{}+{code}", if w == Player::Black { "B" } else { "W" }),
        interrupted: false,
    }
}

fn engine_loss(side: Player, e: &GtpError) -> Outcome {
    let code = if matches!(e, GtpError::Timeout { .. }) {
        "T"
    } else {
        "F"
    };
    loss(side, code, format!("{} engine: {e}", side.name()))
}

fn scored(pos: &Position, reason: &str) -> Outcome {
    let s = pos.score();
    let komi = pos.rules().komi;
    let score = f64::from(s.margin()) - f64::from(komi.half_points()) / 2.0;
    let winner = komi
        .black_wins(s.margin())
        .map(|b| if b { Player::Black } else { Player::White });
    let re = match winner {
        Some(Player::Black) => format!("B+{score}"),
        Some(Player::White) => format!("W+{}", -score),
        None => "0".into(),
    };
    Outcome {
        winner,
        score: Some(score),
        reason: reason.into(),
        failed: None,
        re,
        interrupted: false,
    }
}

/// Sends the setup commands to one engine.
fn setup(e: &mut Engine, size: Size, komi: Komi, t: Duration) -> Result<(), GtpError> {
    if size.rows() == size.cols() {
        e.send(&format!("boardsize {}", size.cols()), t)?;
    } else {
        e.send(
            &format!("rectangular_boardsize {} {}", size.cols(), size.rows()),
            t,
        )?;
    }
    e.send(&format!("komi {komi}"), t)?;
    e.send("clear_board", t)?;
    Ok(())
}

/// Plays one game between the engines `cmds[0]` (Black) and `cmds[1]` (White); returns the
/// outcome and the final position.
fn play_game(
    cmds: [&str; 2],
    size: Size,
    komi: Komi,
    max_moves: u32,
    t: Duration,
) -> (Outcome, Position) {
    let mut pos = Position::new(
        size,
        Rules {
            ko: KoRule::PositionalSuperko,
            komi,
        },
    );
    let mut engines: Vec<Engine> = Vec::with_capacity(2);
    for (i, side) in [Player::Black, Player::White].into_iter().enumerate() {
        match Engine::spawn(cmds[i]).and_then(|mut e| setup(&mut e, size, komi, t).map(|()| e)) {
            Ok(e) => engines.push(e),
            Err(err) => return (engine_loss(side, &err), pos),
        }
    }
    let outcome = loop {
        if crate::interrupt::cancel_flag().load(Ordering::Relaxed) {
            let mut o = scored(&pos, "interrupted");
            o.interrupted = true;
            break o;
        }
        if pos.is_over() {
            break scored(&pos, "two passes");
        }
        if pos.plies() >= max_moves {
            break scored(
                &pos,
                &format!("move limit {max_moves} reached, scored as it stands"),
            );
        }
        let side = pos.to_move();
        let (me, other) = match side {
            Player::Black => (0, 1),
            Player::White => (1, 0),
        };
        let reply = match engines[me].send(&format!("genmove {}", colour_letter(side)), t) {
            Ok(r) => r,
            Err(e) => break engine_loss(side, &e),
        };
        let word = reply.split_whitespace().next().unwrap_or("").to_string();
        if word.eq_ignore_ascii_case("resign") {
            break loss(side, "R", format!("{} resigned", side.name()));
        }
        let m = match size.parse_move(&word) {
            Ok(m) => m,
            Err(why) => {
                break loss(
                    side,
                    "F",
                    format!("{} engine: unreadable move '{reply}': {why}", side.name()),
                );
            }
        };
        if let Err(why) = pos.play(m) {
            break loss(side, "F", format!("{} engine: {why}", side.name()));
        }
        let vertex = match m {
            Move::Pass => "pass".to_string(),
            Move::Place(p) => p.to_string(),
        };
        if let Err(e) = engines[other].send(&format!("play {} {vertex}", colour_letter(side)), t) {
            let o = side.opponent();
            break loss(
                o,
                "F",
                format!(
                    "{} engine did not accept the legal move {vertex}: {e}",
                    o.name()
                ),
            );
        }
    };
    for e in &mut engines {
        e.close();
    }
    (outcome, pos)
}

/// Runs `tsumi referee`.
///
/// # Errors
/// Bad arguments or an unwritable records directory (status 2); Ctrl-C (checked between
/// moves; the game in progress is dropped), after the finished games and their summary
/// ([`crate::exit::Unknown`], status 3).
pub fn run(a: &RefereeArgs) -> anyhow::Result<()> {
    let size = match &a.rect {
        Some(r) => {
            let (c, rows) = r
                .to_ascii_lowercase()
                .split_once('x')
                .map(|(c, r)| (c.trim().parse::<u32>(), r.trim().parse::<u32>()))
                .ok_or_else(|| {
                    anyhow::anyhow!("malformed --rect '{r}' (expected CxR, e.g. 5x4)")
                })?;
            match (c, rows) {
                (Ok(c), Ok(rows)) => Size::new(rows, c)?,
                _ => bail!("malformed --rect '{r}' (expected CxR, e.g. 5x4)"),
            }
        }
        None => Size::parse(a.size.as_deref().unwrap_or("5"))
            .map_err(|e| anyhow::anyhow!("--size: {e}"))?,
    };
    let komi: Komi = a.komi.parse()?;
    if a.games == 0 {
        bail!("--games 0: nothing to play");
    }
    if !(a.move_timeout.is_finite() && a.move_timeout > 0.0) {
        bail!(
            "--move-timeout {} is not a positive number of seconds",
            a.move_timeout
        );
    }
    let t = Duration::from_secs_f64(a.move_timeout.min(crate::go_config::MAX_SECONDS));
    let max_moves = a.max_moves.unwrap_or(10 * size.points() as u32);
    if let Some(d) = &a.records {
        crate::cmd::check::check_dir(d, "--records")?;
    }
    let cancel = crate::interrupt::cancel_flag();
    let (mut a_wins, mut b_wins, mut draws, mut black_wins, mut forfeits) =
        (0u64, 0u64, 0u64, 0u64, 0u64);
    let mut played = 0u64;
    for i in 0..a.games {
        if cancel.load(Ordering::Relaxed) {
            break;
        }
        let seed = a.seed.wrapping_add(i);
        let swap = a.alternate && i % 2 == 1;
        let with_seed = |c: &str| c.replace("{seed}", &seed.to_string());
        let (ca, cb) = (with_seed(&a.black), with_seed(&a.white));
        let cmds = if swap {
            [cb.as_str(), ca.as_str()]
        } else {
            [ca.as_str(), cb.as_str()]
        };
        let (out, pos) = play_game(cmds, size, komi, max_moves, t);
        if out.interrupted {
            break;
        }
        played += 1;
        let a_colour = if swap { Player::White } else { Player::Black };
        match out.winner {
            Some(w) if w == a_colour => a_wins += 1,
            Some(_) => b_wins += 1,
            None => draws += 1,
        }
        if out.winner == Some(Player::Black) {
            black_wins += 1;
        }
        if out.failed.is_some() && !out.reason.ends_with("resigned") {
            forfeits += 1;
        }
        let sgf_path = match &a.records {
            Some(d) => {
                let path = d.join(format!("game-{:04}.sgf", i + 1));
                let mut sgf = position_to_sgf(&pos);
                let props = format!(
                    "PB[{}]PW[{}]RE[{}]C[{}]",
                    games::go::sgf_escape(cmds[0]),
                    games::go::sgf_escape(cmds[1]),
                    out.re,
                    games::go::sgf_escape(&format!("tsumi referee game {}: {}", i + 1, out.reason))
                );
                sgf.insert_str(2, &props);
                crate::result_file::write_text(&path, "game record", &sgf)?;
                Some(path.display().to_string())
            }
            None => None,
        };
        if a.json {
            println!(
                "{}",
                json!({
                    "type": "game",
                    "game": i + 1,
                    "seed": seed,
                    "black": cmds[0],
                    "white": cmds[1],
                    "result": out.re,
                    "winner": out.winner.map(Player::name),
                    "score": out.score,
                    "moves": pos.plies(),
                    "reason": out.reason,
                    "failed": out.failed.map(Player::name),
                    "sgf": sgf_path,
                })
            );
        } else {
            println!(
                "game {}: black '{}' vs white '{}': {} after {} ({})",
                i + 1,
                cmds[0],
                cmds[1],
                out.re,
                games::count(u64::from(pos.plies()), "move", "moves"),
                out.reason
            );
        }
    }
    let rate = if played == 0 {
        0.5
    } else {
        (a_wins as f64 + 0.5 * draws as f64) / played as f64
    };
    let (lo, hi) = mcts::arena::wilson95(rate, played);
    if a.json {
        println!(
            "{}",
            json!({
                "type": "summary",
                "board": size.to_string(),
                "komi": f64::from(komi.half_points()) / 2.0,
                "rules": "positional superko, area scoring, suicide illegal",
                "games": played,
                "engine_a": a.black,
                "engine_b": a.white,
                "alternate": a.alternate,
                "a_wins": a_wins,
                "b_wins": b_wins,
                "draws": draws,
                "black_wins": black_wins,
                "forfeits": forfeits,
                "a_score": rate,
                "a_score_95": [lo, hi],
            })
        );
    } else {
        println!(
            "{} on {size} at komi {komi}: A '{}' {}, B '{}' {}, {}; black won {black_wins}; {}",
            games::count(played, "game", "games"),
            a.black,
            games::count(a_wins, "win", "wins"),
            a.white,
            games::count(b_wins, "win", "wins"),
            games::count(draws, "draw", "draws"),
            games::count(forfeits, "forfeit", "forfeits"),
        );
        println!(
            "A's score {:.3} (95% interval {:.3} to {:.3})",
            rate, lo, hi
        );
    }
    if played < a.games {
        return Err(crate::exit::unknown(format!(
            "interrupted after {played} of {} games",
            a.games
        )));
    }
    if a.fail_on_forfeit && forfeits > 0 {
        bail!(
            "--fail-on-forfeit: {} of {} forfeited (see the reasons above)",
            games::count(forfeits, "game", "games"),
            played
        );
    }
    Ok(())
}
