//! KataGo's analysis engine protocol (KataGo's docs/Analysis_Engine.md) over the Go engine:
//! one JSON query a line on the input, one JSON response a line on the output, for KaTrain
//! (its `altcommand` setting) and other tools written for `katago analysis`.
//!
//! # Queries
//! `id` (string, required), `moves` (required: `[["B","C3"],["W","pass"],…]`; GTP vertices,
//! `pass`, or KataGo's `"(x,y)"` counted from the top-left), `initialStones`,
//! `initialPlayer`, `rules` (required; [`crate::kata_rules`]), `komi` (default 7.5),
//! `boardXSize`/`boardYSize` (required, 1 to 19), `analyzeTurns` (default: the last),
//! `maxVisits` (the work of one turn: playouts plus solver expansions; default the
//! server's), `reportDuringSearchEvery` (seconds; a partial response after a step of the
//! analysis once that long has passed), `includeOwnership`, `priority`, and in
//! `overrideSettings` `maxTime` (seconds a turn) and `reportAnalysisWinratesAs`
//! (`BLACK`, `WHITE` or `SIDETOMOVE`). Other fields are ignored; `avoidMoves` and
//! `allowMoves` get a warning (not supported). The actions `query_version`, `clear_cache`
//! (empties the solver's table), `terminate`, `terminate_all` and `query_models` are
//! answered as KataGo answers them.
//!
//! # Responses
//! Per turn: `id`, `turnNumber`, `isDuringSearch`, `moveInfos` (per legal move: `move`,
//! `visits`, `edgeVisits`, `weight` and `edgeWeight` (the visits), `winrate`, `scoreLead`,
//! `scoreMean`, `scoreSelfplay`, `scoreStdev`, `prior`, `lcb`, `utility`, `utilityLcb`,
//! `playSelectionValue` (largest for order 0), `order`, `pv`, and tsumi's `proven`),
//! `rootInfo` (`visits`, `winrate`, `scoreLead`, `scoreMean`, `scoreSelfplay`, `utility`,
//! `currentPlayer`, `thisHash` and `symHash` (the position's key; symmetries are not
//! folded), KataGo's network fields `rawWinrate`, `rawLead`, `rawScoreSelfplay` (the
//! search's own numbers: tsumi has no network) and `rawScoreSelfplayStdev`,
//! `rawNoResultProb`, `rawStWrError`, `rawStScoreError`, `rawVarTimeLeft` (0), and
//! `proven`), and `ownership` when asked for and the best move's
//! value is proven (the area at the end of its principal variation). The numbers are those
//! of [`crate::analysis`] (win rate 1 or 0 and the exact margin for proven moves).
//!
//! Errors and warnings are lines of their own: `{"error":…}` for a line that is not a
//! JSON object, `{"error":…,"field":…,"id":…}` for a query that cannot be served (a board
//! over 19, rules with another scoring, an illegal move: no analysis follows), and
//! `{"warning":…,"field":…,"id":…}` for one served with a change (ko or suicide rules that
//! differ, boards over the solver's 30 points: Monte Carlo statistics only). Nothing in a
//! query crashes the server.
//!
//! Queries are served one turn at a time, highest `priority` first, then in order; a
//! terminated turn that had not started answers `noResults`. At the end of the input the
//! queued turns are finished, then the server exits.

use crate::analysis::{Analysis, Limits};
use crate::go_engine::{GoEngine, GoSettings, rules};
use games::Player;
use games::go::{Board, Komi, Move, Point, Position, Size};
use serde_json::{Map, Value, json};
use std::io::{self, BufRead, Write};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// Whose win rates and score leads the responses give.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Perspective {
    /// Black's (KataGo's analysis default, and KaTrain's).
    Black,
    /// White's.
    White,
    /// The side to move's.
    SideToMove,
}

impl std::str::FromStr for Perspective {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s.to_ascii_uppercase().as_str() {
            "BLACK" | "B" => Ok(Perspective::Black),
            "WHITE" | "W" => Ok(Perspective::White),
            "SIDETOMOVE" => Ok(Perspective::SideToMove),
            _ => Err(format!(
                "unknown perspective '{s}' (expected BLACK, WHITE or SIDETOMOVE)"
            )),
        }
    }
}

/// How the server analyses.
#[derive(Clone, Debug, PartialEq)]
pub struct ServerSettings {
    /// The engine's settings (playouts, table size, seed; `solve` off: playouts only).
    pub go: GoSettings,
    /// The work of a turn when a query gives no `maxVisits` (at least 1).
    pub max_visits: u64,
    /// The default of `reportAnalysisWinratesAs`.
    pub report_as: Perspective,
}

/// One turn to analyse.
struct Job {
    id: String,
    turn: usize,
    position: Position,
    max_work: u64,
    max_time: Option<f64>,
    report_every: Option<f64>,
    ownership: bool,
    report_as: Perspective,
    priority: i64,
    seq: u64,
    stop: Arc<AtomicBool>,
}

/// What one input line asks.
enum Parsed {
    /// Lines to write now (an action's echo, an error), and what the action does.
    Reply(Vec<Value>, Action),
    /// Turns to analyse, after the warnings.
    Jobs(Vec<Value>, Vec<Job>),
}

/// The effect of an action query.
enum Action {
    None,
    ClearCache,
    Terminate {
        id: Option<String>,
        turns: Option<Vec<usize>>,
    },
}

fn error(msg: impl Into<String>, field: &str, id: &str) -> Value {
    json!({"error": msg.into(), "field": field, "id": id})
}

fn warning(msg: impl Into<String>, field: &str, id: &str) -> Value {
    json!({"warning": msg.into(), "field": field, "id": id})
}

/// A player string: "B" or "W" (any case, or the colour's name).
fn player(v: &Value) -> Option<Player> {
    match v.as_str()?.to_ascii_lowercase().as_str() {
        "b" | "black" => Some(Player::Black),
        "w" | "white" => Some(Player::White),
        _ => None,
    }
}

/// A location: a GTP vertex, `pass`, or `(x,y)` with x the column from the left and y the
/// row from the top.
fn location(size: Size, v: &Value) -> Result<Move, String> {
    let s = v
        .as_str()
        .ok_or_else(|| format!("location {v} is not a string"))?;
    if let Some(inner) = s.trim().strip_prefix('(').and_then(|t| t.strip_suffix(')')) {
        let (x, y) = inner
            .split_once(',')
            .ok_or_else(|| format!("malformed location '{s}'"))?;
        let (x, y): (u32, u32) = (
            x.trim()
                .parse()
                .map_err(|_| format!("malformed location '{s}'"))?,
            y.trim()
                .parse()
                .map_err(|_| format!("malformed location '{s}'"))?,
        );
        if x >= size.cols() || y >= size.rows() {
            return Err(format!("location '{s}' is off the board"));
        }
        return Ok(Move::Place(Point::new(size.rows() - 1 - y, x)));
    }
    size.parse_move(s)
}

/// A list of `[player, location]` pairs.
fn pairs(size: Size, v: &Value, field: &str) -> Result<Vec<(Player, Move)>, String> {
    let list = v
        .as_array()
        .ok_or_else(|| format!("{field} must be a list of [player, location] pairs"))?;
    list.iter()
        .map(|pair| match pair.as_array().map(Vec::as_slice) {
            Some([p, l]) => Ok((
                player(p).ok_or_else(|| format!("bad player {p} in {field}"))?,
                location(size, l)?,
            )),
            _ => Err(format!(
                "{pair} in {field} is not a [player, location] pair"
            )),
        })
        .collect()
}

fn board_dim(q: &Map<String, Value>, field: &str, id: &str) -> Result<u32, Value> {
    match q.get(field).and_then(Value::as_u64) {
        Some(n @ 1..=19) => Ok(n as u32),
        Some(n) => Err(error(
            format!("{field} {n} is not supported (1 to 19)"),
            field,
            id,
        )),
        None => Err(error(
            format!("{field} must be an integer from 1 to 19"),
            field,
            id,
        )),
    }
}

/// Reads one query line (see the module documentation).
fn parse(line: &str, settings: &ServerSettings, seq: &mut u64) -> Parsed {
    let reply = |v: Value| Parsed::Reply(vec![v], Action::None);
    let q = match serde_json::from_str::<Value>(line) {
        Ok(Value::Object(q)) => q,
        Ok(_) => return reply(json!({"error": "the query is not a JSON object"})),
        Err(e) => {
            return reply(json!({"error": format!("could not parse the query as JSON: {e}")}));
        }
    };
    let id = match q.get("id") {
        Some(Value::String(s)) => s.clone(),
        Some(other) => {
            return reply(
                json!({"error": format!("id must be a string, not {other}"), "field": "id"}),
            );
        }
        None => return reply(json!({"error": "the query has no id", "field": "id"})),
    };
    if let Some(action) = q.get("action") {
        let mut echo = q.clone();
        return match action.as_str() {
            Some("query_version") => {
                echo.insert("version".into(), env!("CARGO_PKG_VERSION").into());
                echo.insert("git_hash".into(), "<omitted>".into());
                reply(Value::Object(echo))
            }
            Some("query_models") => {
                echo.insert("models".into(), json!([]));
                reply(Value::Object(echo))
            }
            Some("clear_cache") => Parsed::Reply(vec![Value::Object(echo)], Action::ClearCache),
            Some(a @ ("terminate" | "terminate_all")) => {
                let target = if a == "terminate" {
                    match q.get("terminateId").and_then(Value::as_str) {
                        Some(t) => Some(t.to_string()),
                        None => {
                            return reply(error(
                                "terminate needs a terminateId string",
                                "terminateId",
                                &id,
                            ));
                        }
                    }
                } else {
                    None
                };
                let turns = match q.get("turnNumbers") {
                    None => None,
                    Some(v) => match v.as_array().and_then(|l| {
                        l.iter()
                            .map(|t| t.as_u64().map(|t| t as usize))
                            .collect::<Option<Vec<_>>>()
                    }) {
                        Some(t) => Some(t),
                        None => {
                            return reply(error(
                                "turnNumbers must be a list of turn numbers",
                                "turnNumbers",
                                &id,
                            ));
                        }
                    },
                };
                Parsed::Reply(
                    vec![Value::Object(echo)],
                    Action::Terminate { id: target, turns },
                )
            }
            _ => reply(error(format!("unknown action {action}"), "action", &id)),
        };
    }
    match jobs(&q, &id, settings, seq) {
        Ok((warnings, jobs)) => Parsed::Jobs(warnings, jobs),
        Err(e) => reply(e),
    }
}

/// The turns of an analysis query, with its warnings.
fn jobs(
    q: &Map<String, Value>,
    id: &str,
    settings: &ServerSettings,
    seq: &mut u64,
) -> Result<(Vec<Value>, Vec<Job>), Value> {
    let mut warnings = Vec::new();
    let cols = board_dim(q, "boardXSize", id)?;
    let rows = board_dim(q, "boardYSize", id)?;
    let size = Size::new(rows, cols).map_err(|e| error(e.to_string(), "boardXSize", id))?;
    if size.points() > crate::go_engine::SOLVE_MAX_POINTS {
        warnings.push(warning(
            format!(
                "{cols}x{rows} has {} points; the solver is exact up to {}: Monte Carlo statistics only",
                size.points(),
                crate::go_engine::SOLVE_MAX_POINTS
            ),
            "boardXSize",
            id,
        ));
    }
    let rules_value = q
        .get("rules")
        .ok_or_else(|| error("the query has no rules", "rules", id))?;
    let diffs = crate::kata_rules::differences(rules_value)
        .map_err(|e| error(e.to_string(), "rules", id))?;
    if diffs
        .iter()
        .any(crate::kata_rules::Difference::changes_scores)
    {
        return Err(error(crate::kata_rules::refusal(&diffs), "rules", id));
    }
    if !diffs.is_empty() {
        warnings.push(warning(
            format!(
                "analysed under tsumi's rules instead (positional superko, area scoring, suicide illegal): {}",
                diffs
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            "rules",
            id,
        ));
    }
    let komi = match q.get("komi") {
        None => Komi::from_half_points(15),
        Some(v) => v
            .as_f64()
            .filter(|k| k.abs() <= 400.0)
            .and_then(|k| Komi::from_f64(k).ok())
            .ok_or_else(|| {
                error(
                    format!("komi {v} must be a multiple of 0.5 within ±400"),
                    "komi",
                    id,
                )
            })?,
    };
    let stones = match q.get("initialStones") {
        None | Some(Value::Null) => Vec::new(),
        Some(v) => pairs(size, v, "initialStones").map_err(|e| error(e, "initialStones", id))?,
    };
    let moves = match q.get("moves") {
        Some(v) => pairs(size, v, "moves").map_err(|e| error(e, "moves", id))?,
        None => return Err(error("the query has no moves", "moves", id)),
    };
    let first = match q.get("initialPlayer") {
        None | Some(Value::Null) => moves.first().map_or(Player::Black, |m| m.0),
        Some(v) => {
            player(v).ok_or_else(|| error(format!("bad initialPlayer {v}"), "initialPlayer", id))?
        }
    };
    let mut board = Board::empty(size);
    for &(p, m) in &stones {
        let Move::Place(pt) = m else {
            return Err(error(
                "an initial stone cannot be a pass",
                "initialStones",
                id,
            ));
        };
        board.set(pt, Some(p));
    }
    let start = Position::from_board(board, first, rules(komi))
        .map_err(|e| error(e.to_string(), "initialStones", id))?;
    let turns: Vec<usize> = match q.get("analyzeTurns") {
        None | Some(Value::Null) => vec![moves.len()],
        Some(v) => v
            .as_array()
            .and_then(|l| {
                l.iter()
                    .map(|t| t.as_u64().map(|t| t as usize).filter(|&t| t <= moves.len()))
                    .collect::<Option<Vec<_>>>()
            })
            .ok_or_else(|| {
                error(
                    format!("analyzeTurns must list turns from 0 to {}", moves.len()),
                    "analyzeTurns",
                    id,
                )
            })?,
    };
    let max_work = match q.get("maxVisits") {
        None | Some(Value::Null) => settings.max_visits,
        Some(v) => v.as_u64().filter(|&n| n >= 1).ok_or_else(|| {
            error(
                format!("maxVisits {v} must be a positive integer"),
                "maxVisits",
                id,
            )
        })?,
    };
    let seconds = |field: &str, v: &Value, map: &str| -> Result<f64, Value> {
        v.as_f64()
            .filter(|s| s.is_finite() && *s > 0.0)
            .ok_or_else(|| {
                error(
                    format!("{field} {v} must be a positive number of seconds"),
                    map,
                    id,
                )
            })
    };
    let report_every = match q.get("reportDuringSearchEvery") {
        None | Some(Value::Null) => None,
        Some(v) => Some(seconds(
            "reportDuringSearchEvery",
            v,
            "reportDuringSearchEvery",
        )?),
    };
    let ownership = match q.get("includeOwnership") {
        None | Some(Value::Null) => false,
        Some(v) => v.as_bool().ok_or_else(|| {
            error(
                "includeOwnership must be true or false",
                "includeOwnership",
                id,
            )
        })?,
    };
    let priority = q.get("priority").and_then(Value::as_i64).unwrap_or(0);
    let (mut max_time, mut report_as) = (None, settings.report_as);
    if let Some(o) = q.get("overrideSettings") {
        let o = o
            .as_object()
            .ok_or_else(|| error("overrideSettings must be an object", "overrideSettings", id))?;
        if let Some(v) = o.get("maxTime") {
            max_time = Some(seconds("maxTime", v, "overrideSettings")?);
        }
        if let Some(v) = o.get("reportAnalysisWinratesAs") {
            report_as = v
                .as_str()
                .ok_or_else(|| "not a string".to_string())
                .and_then(str::parse)
                .map_err(|e| error(e, "overrideSettings", id))?;
        }
    }
    for field in ["avoidMoves", "allowMoves"] {
        if q.get(field)
            .and_then(Value::as_array)
            .is_some_and(|l| !l.is_empty())
        {
            warnings.push(warning(
                format!("{field} is not supported by tsumi: every legal move is analysed"),
                field,
                id,
            ));
        }
    }
    // The positions of the turns asked for, playing the moves in order.
    let mut positions = Vec::with_capacity(moves.len() + 1);
    let mut p = start;
    positions.push(p.clone());
    for (i, &(colour, m)) in moves.iter().enumerate() {
        p.set_to_move(colour);
        p.play(m).map_err(|e| {
            error(
                format!(
                    "Illegal move {i}: {} {m} ({e})",
                    if colour == Player::Black { "B" } else { "W" }
                ),
                "moves",
                id,
            )
        })?;
        positions.push(p.clone());
    }
    let jobs = turns
        .into_iter()
        .map(|t| {
            let mut position = positions[t].clone();
            if let Some(&(c, _)) = moves.get(t) {
                position.set_to_move(c);
            }
            *seq += 1;
            Job {
                id: id.to_string(),
                turn: t,
                position,
                max_work,
                max_time,
                report_every,
                ownership,
                report_as,
                priority,
                seq: *seq,
                stop: Arc::new(AtomicBool::new(false)),
            }
        })
        .collect();
    Ok((warnings, jobs))
}

/// The response of a job's analysis (`during`: a partial one).
fn response(job: &Job, a: &Analysis, during: bool) -> Value {
    let (mover, komi) = (a.to_move, a.komi);
    let flip = match job.report_as {
        Perspective::Black => mover == Player::White,
        Perspective::White => mover == Player::Black,
        Perspective::SideToMove => false,
    };
    let view = |w: f64, lead: f64| if flip { (1.0 - w, -lead) } else { (w, lead) };
    let prior = 1.0 / a.moves.len().max(1) as f64;
    let count = a.moves.len();
    let infos: Vec<Value> = a
        .moves
        .iter()
        .enumerate()
        .map(|(order, m)| {
            let (w, lead) = view(m.win_rate(mover, komi), m.score_lead(mover, komi));
            json!({
                "move": m.mv.to_string(),
                "visits": m.visits(),
                "edgeVisits": m.visits(),
                // Every visit weighs one (no weighting by uncertainty).
                "weight": m.visits() as f64,
                "edgeWeight": m.visits() as f64,
                // Largest for the move tsumi plays (order 0), as KataGo's.
                "playSelectionValue": (count - order) as f64,
                "winrate": w,
                "scoreLead": lead,
                "scoreMean": lead,
                "scoreSelfplay": lead,
                "scoreStdev": m.score_stdev(),
                "prior": prior,
                "lcb": w,
                "utility": 2.0 * w - 1.0,
                "utilityLcb": 2.0 * w - 1.0,
                "order": order,
                "pv": m.pv.iter().map(ToString::to_string).collect::<Vec<_>>(),
                "proven": m.value().is_some(),
            })
        })
        .collect();
    // The root: its best move's numbers, or the finished game's score.
    let (w, lead, proven) = match a.best() {
        Some(b) => (
            b.win_rate(mover, komi),
            b.score_lead(mover, komi),
            b.value().is_some() && a.root_value().is_some(),
        ),
        None => {
            let margin =
                f64::from(job.position.score().margin()) - f64::from(komi.half_points()) / 2.0;
            let lead = if mover == Player::Black {
                margin
            } else {
                -margin
            };
            (
                if lead > 0.0 {
                    1.0
                } else if lead < 0.0 {
                    0.0
                } else {
                    0.5
                },
                lead,
                true,
            )
        }
    };
    let (w, lead) = view(w, lead);
    let mut out = json!({
        "id": job.id,
        "isDuringSearch": during,
        "turnNumber": job.turn,
        "moveInfos": infos,
        "rootInfo": {
            "visits": a.visits(),
            "winrate": w,
            "scoreLead": lead,
            "scoreMean": lead,
            "scoreSelfplay": lead,
            "utility": 2.0 * w - 1.0,
            "currentPlayer": if mover == Player::Black { "B" } else { "W" },
            "proven": proven,
            // The position's key (board, side to move, passes), 16 hex digits; tsumi does not
            // fold symmetries, so `symHash` is the same key.
            "thisHash": format!("{:016X}", job.position.hash()),
            "symHash": format!("{:016X}", job.position.hash()),
            // No network: the raw numbers are the search's own, its error estimates 0.
            "rawWinrate": w,
            "rawLead": lead,
            "rawScoreSelfplay": lead,
            "rawScoreSelfplayStdev": 0.0,
            "rawNoResultProb": 0.0,
            "rawStWrError": 0.0,
            "rawStScoreError": 0.0,
            "rawVarTimeLeft": 0.0,
        },
    });
    if job.ownership {
        let side = match job.report_as {
            Perspective::Black => Player::Black,
            Perspective::White => Player::White,
            Perspective::SideToMove => mover,
        };
        if let Some(own) = a.ownership(&job.position, side) {
            out["ownership"] = json!(own);
        }
    }
    out
}

/// The queue of turns and the shared output.
struct Shared {
    queue: Mutex<Queue>,
    ready: Condvar,
    out: Mutex<Box<dyn Write + Send>>,
    broken: AtomicBool,
}

#[derive(Default)]
struct Queue {
    jobs: Vec<Job>,
    /// The turn running now: id, turn and its stop flag.
    running: Option<(String, usize, Arc<AtomicBool>)>,
    closed: bool,
    clear_cache: bool,
}

impl Shared {
    fn write(&self, v: &Value) {
        let mut out = self
            .out
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let ok = writeln!(out, "{v}").and_then(|()| out.flush());
        if ok.is_err() {
            self.broken.store(true, Ordering::Relaxed);
        }
    }
}

/// Runs the server: reads queries from `input` (on a thread of its own), analyses the
/// turns on this one, and writes the responses to `output`, until the input ends and the
/// queued turns are done.
///
/// # Errors
/// A read error of the input or a write error of the output.
pub fn serve_analysis(
    settings: &ServerSettings,
    mut input: impl BufRead + Send + 'static,
    output: impl Write + Send + 'static,
) -> io::Result<()> {
    let shared = Arc::new(Shared {
        queue: Mutex::new(Queue::default()),
        ready: Condvar::new(),
        out: Mutex::new(Box::new(output)),
        broken: AtomicBool::new(false),
    });
    let reader = shared.clone();
    let parse_settings = settings.clone();
    let read_error: Arc<Mutex<Option<io::Error>>> = Arc::new(Mutex::new(None));
    let read_err = read_error.clone();
    std::thread::Builder::new()
        .name("analysis-input".into())
        .spawn(move || {
            let mut seq = 0;
            let mut line = Vec::new();
            loop {
                line.clear();
                match input.read_until(b'\n', &mut line) {
                    Ok(0) => break,
                    Ok(_) => {}
                    Err(e) => {
                        *read_err
                            .lock()
                            .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(e);
                        break;
                    }
                }
                let text = String::from_utf8_lossy(&line);
                if text.trim().is_empty() {
                    continue;
                }
                take(&reader, parse(text.trim(), &parse_settings, &mut seq));
            }
            let mut q = reader
                .queue
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            q.closed = true;
            reader.ready.notify_all();
        })?;
    let mut engine = GoEngine::new(Size::new(1, 1).expect("1x1 is a size"), settings.go.clone());
    loop {
        let job = {
            let mut q = shared
                .queue
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            loop {
                if std::mem::take(&mut q.clear_cache) {
                    engine.clear_cache();
                }
                if !q.jobs.is_empty() {
                    // Highest priority first, then in order.
                    let best = (0..q.jobs.len())
                        .max_by_key(|&i| (q.jobs[i].priority, std::cmp::Reverse(q.jobs[i].seq)))
                        .expect("not empty");
                    let job = q.jobs.remove(best);
                    q.running = Some((job.id.clone(), job.turn, job.stop.clone()));
                    break Some(job);
                }
                if q.closed || shared.broken.load(Ordering::Relaxed) {
                    break None;
                }
                q = shared
                    .ready
                    .wait(q)
                    .unwrap_or_else(std::sync::PoisonError::into_inner);
            }
        };
        let Some(job) = job else { break };
        run_job(&mut engine, &job, &shared);
        shared
            .queue
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .running = None;
    }
    if let Some(e) = read_error
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .take()
    {
        return Err(e);
    }
    if shared.broken.load(Ordering::Relaxed) {
        return Err(io::Error::new(
            io::ErrorKind::BrokenPipe,
            "the output is closed",
        ));
    }
    Ok(())
}

/// Acts on one parsed line (on the input thread).
fn take(shared: &Shared, parsed: Parsed) {
    match parsed {
        Parsed::Reply(lines, action) => {
            let mut q = shared
                .queue
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            match action {
                Action::None => {}
                Action::ClearCache => q.clear_cache = true,
                Action::Terminate { id, turns } => {
                    let hit = |jid: &str, turn: usize| {
                        id.as_deref().is_none_or(|i| i == jid)
                            && turns.as_ref().is_none_or(|t| t.contains(&turn))
                    };
                    for j in &q.jobs {
                        if hit(&j.id, j.turn) {
                            j.stop.store(true, Ordering::Relaxed);
                        }
                    }
                    if let Some((jid, turn, stop)) = &q.running
                        && hit(jid, *turn)
                    {
                        stop.store(true, Ordering::Relaxed);
                    }
                }
            }
            drop(q);
            for l in &lines {
                shared.write(l);
            }
            shared.ready.notify_all();
        }
        Parsed::Jobs(warnings, jobs) => {
            for w in &warnings {
                shared.write(w);
            }
            let mut q = shared
                .queue
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            q.jobs.extend(jobs);
            shared.ready.notify_all();
        }
    }
}

/// Analyses one turn and writes its responses.
fn run_job(engine: &mut GoEngine, job: &Job, shared: &Shared) {
    if job.stop.load(Ordering::Relaxed) {
        shared.write(&json!({"id": job.id, "isDuringSearch": false, "turnNumber": job.turn, "noResults": true}));
        return;
    }
    engine.load_position(job.position.clone());
    let legal = job.position.legal_moves().len().max(1) as u64;
    let playouts = engine.settings().playouts.min(job.max_work / 4);
    let limits = Limits {
        playouts,
        first_budget: ((job.max_work - playouts) / (4 * legal)).clamp(500, 1 << 30),
        max_budget: 0,
        max_work: job.max_work,
        seed: engine.settings().seed,
    };
    let done = Arc::new(AtomicBool::new(false));
    let steps = AtomicU64::new(0);
    std::thread::scope(|scope| {
        if let Some(t) = job.max_time {
            let (stop, done) = (job.stop.clone(), done.clone());
            scope.spawn(move || {
                let until = Instant::now() + Duration::from_secs_f64(t.min(1e9));
                while !done.load(Ordering::Relaxed) {
                    if Instant::now() >= until {
                        stop.store(true, Ordering::Relaxed);
                        return;
                    }
                    std::thread::sleep(Duration::from_millis(5));
                }
            });
        }
        let mut last = Instant::now();
        let a = engine.analyze(&limits, None, &job.stop, |a| {
            steps.fetch_add(1, Ordering::Relaxed);
            if let Some(every) = job.report_every
                && last.elapsed().as_secs_f64() >= every
            {
                last = Instant::now();
                shared.write(&response(job, a, true));
            }
        });
        done.store(true, Ordering::Relaxed);
        shared.write(&response(job, &a, false));
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings() -> ServerSettings {
        ServerSettings {
            go: GoSettings {
                tt_mib: 1,
                playouts: 16,
                ..GoSettings::default()
            },
            max_visits: 2_000,
            report_as: Perspective::Black,
        }
    }

    fn parse_one(line: &str) -> Parsed {
        parse(line, &settings(), &mut 0)
    }

    fn error_of(line: &str) -> Value {
        match parse_one(line) {
            Parsed::Reply(v, _) => v[0].clone(),
            Parsed::Jobs(..) => panic!("{line} was accepted"),
        }
    }

    #[test]
    fn bad_queries_get_errors_naming_their_field() {
        assert!(
            error_of("not json")["error"]
                .as_str()
                .unwrap()
                .contains("JSON")
        );
        assert!(error_of("[1]")["error"].is_string());
        assert_eq!(error_of("{}")["field"], "id");
        let base = r#""id":"q","rules":"tromp-taylor","boardXSize":3,"boardYSize":3,"moves":[]"#;
        let with = |extra: &str| format!("{{{base},{extra}}}");
        assert_eq!(error_of(&with(r#""komi":7.25"#))["field"], "komi");
        assert_eq!(
            error_of(&with(r#""analyzeTurns":[1]"#))["field"],
            "analyzeTurns"
        );
        assert_eq!(error_of(&with(r#""maxVisits":0"#))["field"], "maxVisits");
        assert_eq!(
            error_of(r#"{"id":"q","rules":"japanese","boardXSize":3,"boardYSize":3,"moves":[]}"#)["field"],
            "rules"
        );
        assert_eq!(
            error_of(r#"{"id":"q","rules":"chinese","boardXSize":20,"boardYSize":3,"moves":[]}"#)["field"],
            "boardXSize"
        );
        let illegal = error_of(
            r#"{"id":"q","rules":"chinese","boardXSize":3,"boardYSize":3,"moves":[["B","B2"],["W","B2"]]}"#,
        );
        assert!(
            illegal["error"]
                .as_str()
                .unwrap()
                .starts_with("Illegal move 1"),
            "{illegal}"
        );
        assert_eq!(error_of(r#"{"id":"q","action":"fly"}"#)["field"], "action");
    }

    #[test]
    fn queries_give_their_turns_with_warnings_for_what_is_changed() {
        let Parsed::Jobs(warnings, jobs) = parse_one(
            r#"{"id":"q","rules":"chinese","komi":0.5,"boardXSize":3,"boardYSize":2,"initialStones":[["B","(0,0)"]],"moves":[["W","B1"],["B","pass"]],"analyzeTurns":[0,2],"avoidMoves":[{"player":"B","moves":["A1"],"untilDepth":1}]}"#,
        ) else {
            panic!("refused")
        };
        assert_eq!(warnings.len(), 2, "{warnings:?}");
        assert_eq!(warnings[0]["field"], "rules");
        assert_eq!(warnings[1]["field"], "avoidMoves");
        assert_eq!(jobs.len(), 2);
        // (0,0) is the top-left point: A2 on a board of two rows.
        let a2 = Point::new(1, 0);
        assert_eq!(jobs[0].position.board().get(a2), Some(Player::Black));
        assert_eq!(jobs[0].position.to_move(), Player::White);
        assert_eq!(jobs[1].position.to_move(), Player::White);
        assert_eq!(jobs[1].position.plies(), 2);
    }
}
