//! The GTP analysis commands of Leela Zero, KataGo and Sabaki (KataGo's
//! docs/GTP_Extensions.md; Sabaki's docs/guides/engine-analysis-integration.md), answered
//! by [`crate::analysis`]:
//!
//! | command | reply |
//! |---------|-------|
//! | `lz-analyze [COLOUR] [INTERVAL] [KEY VALUE]…` | `=`, then every INTERVAL centiseconds one line `info move … visits … winrate … prior … lcb … order … pv …` (one `info` record per legal move, win rates as integers in ten-thousandths), until any input arrives or the analysis ends |
//! | `kata-analyze …`, `analyze …` | the same with KataGo's fields: `winrate`, `scoreLead`, `scoreMean`, `scoreStdev`, `prior`, `lcb`, `utility` as decimals (always with a decimal point, as Sabaki needs), `rootInfo` and `ownership` on request |
//! | `lz-genmove_analyze`, `kata-genmove_analyze`, `genmove_analyze` | the analysis for `--solve-seconds` (not stopped by input), then the `genmove` move as `play VERTEX` (for the side to move when no colour is given) |
//! | `kata-get-rules`, `kata-set-rules RULES` | tsumi's rules as KataGo's JSON; `?` naming the fields that differ ([`crate::kata_rules`]) |
//! | `stop` | nothing runs between commands (an analysis ends when a command arrives), so it only answers `=` |
//!
//! Keys: `interval CENTISECONDS`, `maxmoves N` (the first N moves only), `minmoves N`
//! (accepted: every legal move is reported), and KataGo's booleans `rootInfo`, `ownership`
//! (honoured) and `ownershipStdev`, `movesOwnership`, `movesOwnershipStdev`, `pvVisits`,
//! `pvEdgeVisits`, `noResultValue` (accepted, not reported). `avoid` and `allow` are refused.
//! An interval of 0 (or none) writes a line after each step of the analysis instead.
//! `lcb` equals `winrate` (tsumi claims no confidence interval) and `prior` is uniform over
//! the legal moves (there is no policy). The numbers are those of [`crate::analysis`].

use crate::analysis::{Analysis, Limits};
use crate::gtp::GtpEngine;
use crate::protocol::{Reply, Stream};
use games::Player;
use std::io;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How the `info` records are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// Leela Zero's (`lz-analyze`): integer win rates in ten-thousandths.
    Lz,
    /// KataGo's (`kata-analyze`, and Sabaki's `analyze`): decimals with a decimal point.
    Kata,
}

/// A parsed analysis request.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Request {
    /// The side to analyse for (the side to move when absent).
    pub colour: Option<Player>,
    /// Centiseconds between lines (0: a line after each step).
    pub interval_cs: u64,
    /// Report at most this many moves (0: all).
    pub max_moves: usize,
    /// Write `rootInfo`.
    pub root_info: bool,
    /// Write `ownership`.
    pub ownership: bool,
}

/// Parses `[COLOUR] [INTERVAL] [KEY VALUE]…`.
///
/// # Errors
/// A one-line message naming the argument that is wrong.
pub fn parse_request(args: &[String]) -> Result<Request, String> {
    let mut r = Request::default();
    let mut rest = args;
    if let Some(c) = rest.first().and_then(|a| crate::gtp::colour(a)) {
        r.colour = Some(c);
        rest = &rest[1..];
    }
    if let Some(n) = rest.first().and_then(|a| interval(a)) {
        r.interval_cs = n;
        rest = &rest[1..];
    }
    while let Some(key) = rest.first() {
        let Some(value) = rest.get(1) else {
            return Err(format!("syntax error (option '{key}' needs a value)"));
        };
        let boolean = || match value.to_ascii_lowercase().as_str() {
            "true" => Ok(true),
            "false" => Ok(false),
            _ => Err(format!(
                "syntax error ({key} needs true or false, not '{value}')"
            )),
        };
        let count = || {
            value
                .parse::<usize>()
                .map_err(|_| format!("syntax error ({key} needs a count, not '{value}')"))
        };
        match key.as_str() {
            "interval" => {
                r.interval_cs = interval(value).ok_or_else(|| {
                    format!("syntax error (interval needs centiseconds, not '{value}')")
                })?;
            }
            "maxmoves" => r.max_moves = count()?,
            "minmoves" => {
                count()?;
            }
            "rootInfo" => r.root_info = boolean()?,
            "ownership" => r.ownership = boolean()?,
            "ownershipStdev"
            | "movesOwnership"
            | "movesOwnershipStdev"
            | "pvVisits"
            | "pvEdgeVisits"
            | "noResultValue" => {
                boolean()?;
            }
            "avoid" | "allow" => {
                return Err(format!("{key} is not supported by tsumi's analysis"));
            }
            _ => return Err(format!("syntax error (unknown analyze option '{key}')")),
        }
        rest = &rest[2..];
    }
    Ok(r)
}

/// Centiseconds: a non-negative integer (or decimal, rounded down), at most a day.
fn interval(text: &str) -> Option<u64> {
    let x: f64 = text.parse().ok()?;
    (x.is_finite() && x >= 0.0 && text.bytes().all(|b| b.is_ascii_digit() || b == b'.'))
        .then(|| (x as u64).min(8_640_000))
}

/// A decimal that always shows its decimal point (Sabaki reads `1` as ten-thousandths).
fn dec(x: f64) -> String {
    format!("{x:.6}")
}

/// One report line: an `info` record per move, then `rootInfo` and `ownership` if asked.
#[must_use]
pub fn info_line(
    a: &Analysis,
    dialect: Dialect,
    req: &Request,
    start: &games::go::Position,
) -> String {
    let (p, k) = (a.to_move, a.komi);
    let prior = 1.0 / a.moves.len().max(1) as f64;
    let shown = if req.max_moves == 0 {
        a.moves.len()
    } else {
        req.max_moves.min(a.moves.len())
    };
    let mut out = Vec::new();
    for (order, m) in a.moves.iter().take(shown).enumerate() {
        let w = m.win_rate(p, k);
        let pv: Vec<String> = m.pv.iter().map(ToString::to_string).collect();
        out.push(match dialect {
            Dialect::Lz => {
                let wi = (w * 10_000.0).round() as i64;
                format!(
                    "info move {} visits {} winrate {wi} prior {} lcb {wi} order {order} pv {}",
                    m.mv,
                    m.visits(),
                    (prior * 10_000.0).round() as i64,
                    pv.join(" ")
                )
            }
            Dialect::Kata => {
                let lead = dec(m.score_lead(p, k));
                format!(
                    "info move {} visits {} edgeVisits {} utility {} winrate {} scoreMean {lead} \
                     scoreStdev {} scoreLead {lead} prior {} lcb {} order {order} pv {}",
                    m.mv,
                    m.visits(),
                    m.visits(),
                    dec(2.0 * w - 1.0),
                    dec(w),
                    dec(m.score_stdev()),
                    dec(prior),
                    dec(w),
                    pv.join(" ")
                )
            }
        });
    }
    if dialect == Dialect::Kata && req.root_info {
        let (w, lead) = a
            .best()
            .map_or((0.5, 0.0), |b| (b.win_rate(p, k), b.score_lead(p, k)));
        out.push(format!(
            "rootInfo visits {} utility {} winrate {} scoreMean {} scoreLead {} currentPlayer {}",
            a.visits(),
            dec(2.0 * w - 1.0),
            dec(w),
            dec(lead),
            dec(lead),
            if p == Player::Black { "B" } else { "W" }
        ));
    }
    if dialect == Dialect::Kata
        && req.ownership
        && let Some(own) = a.ownership(start, p)
    {
        let own: Vec<String> = own.into_iter().map(dec).collect();
        out.push(format!("ownership {}", own.join(" ")));
    }
    out.join(" ")
}

impl GtpEngine {
    /// The budgets of a GTP analysis: the engine's playouts, questions from 1/64 of
    /// `--solve-budget` (at least 1,000 expansions) doubling up to it (no limit with 0).
    fn limits(&self) -> Limits {
        let s = self.engine.settings();
        Limits {
            playouts: s.playouts,
            first_budget: if s.solve_budget == 0 {
                10_000
            } else {
                (s.solve_budget / 64).max(1_000).min(s.solve_budget)
            },
            max_budget: s.solve_budget,
            max_work: 0,
            seed: s.seed,
        }
    }

    /// Runs one streaming analysis command (`genmove`: the genmove variant).
    pub(crate) fn analyze_command(
        &mut self,
        dialect: Dialect,
        genmove: bool,
        args: &[String],
        out: &mut Stream<'_>,
    ) -> io::Result<Reply> {
        let req = match parse_request(args) {
            Ok(r) => r,
            Err(m) => return Ok(Reply::err(m)),
        };
        out.begin()?;
        // genmove_analyze runs for the move's time and is not stopped by input.
        let stop = if genmove {
            Arc::new(AtomicBool::new(false))
        } else {
            out.stop_flag().clone()
        };
        let seconds = self.engine.settings().solve_seconds;
        let limits = self.limits();
        let mut start = self.engine.position().clone();
        if let Some(c) = req.colour {
            start.set_to_move(c);
        }
        let latest: Mutex<Option<Analysis>> = Mutex::new(None);
        let steps = AtomicU64::new(0);
        let every = Duration::from_millis(req.interval_cs * 10);
        let mut written = Ok(());
        let engine = &mut self.engine;
        std::thread::scope(|scope| {
            let worker = scope.spawn(|| {
                engine.analyze(&limits, req.colour, &stop, |a| {
                    *latest.lock().expect("no panic while holding it") = Some(a.clone());
                    steps.fetch_add(1, Ordering::Release);
                })
            });
            let t0 = Instant::now();
            let mut next = t0 + every;
            let mut shown = 0;
            while !worker.is_finished() {
                if genmove && seconds > 0.0 && t0.elapsed().as_secs_f64() >= seconds {
                    stop.store(true, Ordering::Relaxed);
                }
                std::thread::sleep(Duration::from_millis(5));
                let now = Instant::now();
                let step = steps.load(Ordering::Acquire);
                let due = if every.is_zero() {
                    step != shown
                } else {
                    now >= next
                };
                if due && written.is_ok() && !stop.load(Ordering::Relaxed) {
                    if !every.is_zero() {
                        next = now + every;
                    }
                    shown = step;
                    let snap = latest.lock().expect("no panic while holding it").clone();
                    if let Some(a) = snap
                        && !a.moves.is_empty()
                    {
                        written = out.line(&info_line(&a, dialect, &req, &start));
                    }
                }
            }
            let last = worker.join().expect("the analysis does not panic");
            // The final state, unless input stopped the analysis (the reply then ends at
            // once).
            if written.is_ok() && (genmove || !out.stopped()) && !last.moves.is_empty() {
                written = out.line(&info_line(&last, dialect, &req, &start));
            }
        });
        written?;
        if genmove {
            let colour = req.colour.unwrap_or(start.to_move());
            let d = self.engine.genmove(colour);
            let mv = d.mv.map_or_else(|| "resign".to_string(), |m| m.to_string());
            return Ok(Reply::ok(format!("play {mv}")));
        }
        Ok(Reply::empty())
    }

    /// `kata-set-rules RULES`: tsumi's rules are accepted, any other refused with the fields
    /// that differ.
    pub(crate) fn set_rules(args: &[String]) -> Reply {
        if args.is_empty() {
            return Reply::err("syntax error (expected kata-set-rules RULES)");
        }
        let text = args.join(" ");
        let value = if text.trim_start().starts_with('{') {
            match serde_json::from_str::<serde_json::Value>(&text) {
                Ok(v) => v,
                Err(e) => return Reply::err(format!("unreadable rules JSON ({e})")),
            }
        } else {
            serde_json::Value::String(text)
        };
        match crate::kata_rules::differences(&value) {
            Ok(d) if d.is_empty() => Reply::empty(),
            Ok(d) => Reply::err(crate::kata_rules::refusal(&d)),
            Err(e) => Reply::err(e.to_string()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn requests_parse_like_katago_and_refuse_what_tsumi_lacks() {
        let r = parse_request(&args("B 50 rootInfo true ownership true maxmoves 3")).unwrap();
        assert_eq!(r.colour, Some(Player::Black));
        assert_eq!(r.interval_cs, 50);
        assert!(r.root_info && r.ownership);
        assert_eq!(r.max_moves, 3);
        assert_eq!(parse_request(&args("interval 20")).unwrap().interval_cs, 20);
        assert_eq!(
            parse_request(&args("w")).unwrap().colour,
            Some(Player::White)
        );
        assert!(
            parse_request(&args("avoid b A1 1"))
                .unwrap_err()
                .contains("not supported")
        );
        assert!(parse_request(&args("interval")).is_err());
        assert!(parse_request(&args("interval -3")).is_err());
        assert!(parse_request(&args("rootInfo maybe")).is_err());
        assert!(parse_request(&args("fly away")).is_err());
        assert!(dec(1.0).contains('.'));
    }
}
