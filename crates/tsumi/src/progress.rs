//! The progress line of a search on stderr, one printer for every search: paced by
//! [`ProgressPacer`] (rewritten in place on a terminal, a plain line every ten seconds in a
//! log), shown once a search has run for a second. [`progress_line`] for the Go solver,
//! [`pns_progress_line`] for the proof-number family, [`progress_spinner`] for the oracle.

use gosolve::search::Progress;
use std::io::IsTerminal;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

/// Seconds between plain progress lines when stderr is not a terminal (a log file, a pipe).
pub const LOG_PROGRESS_EVERY_S: f64 = 10.0;

/// Paces progress lines: on a terminal every call rewrites one line in place (`\r`); when
/// stderr is not a terminal, a plain line at most every [`LOG_PROGRESS_EVERY_S`] seconds
/// (of wall time since the pacer was made), so logs stay readable.
pub struct ProgressPacer {
    tty: bool,
    start: std::time::Instant,
    /// Wall seconds since `start` of the last plain line (non-terminal only).
    last: std::sync::Mutex<f64>,
}

impl ProgressPacer {
    /// A pacer for stderr as it is now.
    #[must_use]
    pub fn new() -> Self {
        Self {
            tty: std::io::stderr().is_terminal(),
            start: std::time::Instant::now(),
            last: std::sync::Mutex::new(0.0),
        }
    }

    /// Whether stderr is a terminal (lines are rewritten in place).
    #[must_use]
    pub const fn is_terminal(&self) -> bool {
        self.tty
    }

    /// Shows `line`: rewritten in place on a terminal, else printed if the last plain line is
    /// at least [`LOG_PROGRESS_EVERY_S`] seconds old.
    pub fn show(&self, line: &str) {
        if self.tty {
            eprint!("\r{line}      ");
            return;
        }
        let now = self.start.elapsed().as_secs_f64();
        let mut last = self
            .last
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if now - *last >= LOG_PROGRESS_EVERY_S {
            *last = now;
            eprintln!("{line}");
        }
    }
}

impl Default for ProgressPacer {
    fn default() -> Self {
        Self::new()
    }
}

/// A progress callback printing one line on stderr once a search has run for more than a
/// second: overwritten in place on a terminal, else a plain line every ten seconds at most
/// ([`ProgressPacer`]). `label` names the question.
pub fn progress_line(label: String) -> Arc<dyn Fn(&Progress) + Send + Sync> {
    let pacer = ProgressPacer::new();
    Arc::new(move |p: &Progress| {
        let elapsed = p.elapsed.as_secs_f64();
        let d = &p.detail;
        if elapsed >= 1.0 {
            let mut line = format!(
                "{label}: {} expansions, {} nodes, {:.0} exp/s, {:.1}s, {} wins at komi {}: pn {} dn {}, table {:.0}% full, {:.0} evictions/s",
                p.expansions,
                p.nodes,
                p.expansions as f64 / elapsed,
                elapsed,
                d.claim.0,
                d.komi,
                d.claim.1,
                d.claim.2,
                100.0 * d.table_fill,
                d.evictions as f64 / elapsed,
            );
            if let Some(s) = d.since_shallow_proof {
                line.push_str(&format!(", proof at depth ≤ 2 {s:.0}s ago"));
            }
            match &d.checkpoint {
                Some((age, Some(Ok(_)))) => line.push_str(&format!(", checkpoint {age:.0}s ago")),
                Some((_, Some(Err(e)))) => line.push_str(&format!(", checkpoint FAILED: {e}")),
                Some((_, None)) => line.push_str(", no checkpoint yet"),
                None => {}
            }
            pacer.show(&line);
        }
    })
}

/// Ends a progress line (if one was rewritten in place on a terminal).
pub fn end_progress(time_s: f64) {
    if time_s >= 1.0 && std::io::stderr().is_terminal() {
        eprintln!();
    }
}

/// A progress callback of the proof-number family (`prove` of the other games): one line,
/// paced by [`ProgressPacer`].
pub fn pns_progress_line() -> pns::budget::ProgressFn {
    let pacer = ProgressPacer::new();
    Arc::new(move |p: &pns::Progress| {
        let secs = p.elapsed.as_secs_f64();
        pacer.show(&format!(
            "prove: {secs:.0} s, {} expansions ({:.0}/s), {} nodes",
            p.expansions,
            p.expansions as f64 / secs.max(1e-9),
            p.nodes
        ));
    })
}

/// Spawns a progress display of `counter` (nodes) after one second, until `done`: an
/// indicatif spinner on a terminal, else a plain line every ten seconds at most.
pub fn progress_spinner(
    counter: Arc<AtomicU64>,
    done: Arc<AtomicBool>,
    what: &'static str,
) -> std::thread::JoinHandle<()> {
    std::thread::spawn(move || {
        let start = std::time::Instant::now();
        let pacer = ProgressPacer::new();
        let mut bar: Option<indicatif::ProgressBar> = None;
        while !done.load(Ordering::Relaxed) {
            std::thread::sleep(Duration::from_millis(100));
            let el = start.elapsed().as_secs_f64();
            if el < 1.0 {
                continue;
            }
            let n = counter.load(Ordering::Relaxed);
            let line = format!("{what}: {n} nodes, {:.0} nodes/s, {el:.1} s", n as f64 / el);
            if !pacer.is_terminal() {
                pacer.show(&line);
                continue;
            }
            let b = bar.get_or_insert_with(|| {
                let b = indicatif::ProgressBar::new_spinner();
                b.set_draw_target(indicatif::ProgressDrawTarget::stderr());
                b
            });
            b.set_message(line);
            b.tick();
        }
        if let Some(b) = bar {
            b.finish_and_clear();
        }
    })
}
