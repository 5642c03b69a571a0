//! The Python module `tsumi` (pyo3): Go positions from moves or SGF, exact values and
//! single proofs by the gosolve df-pn solver (positional superko, area scoring, suicide
//! illegal), proof certificates written by gosolve's writer and checked by the independent
//! `check` crate, the live analysis of the engine crate, and the Monte Carlo players of
//! `mcts`.
//! Searches run with the GIL released, on a thread with a large stack. docs/python.md has
//! a worked example.

use engine::analysis::Limits;
use engine::{GoEngine, GoSettings};
use games::Player;
use games::go::{KoRule, Komi, Move, Position as GoPosition, Rules, Size};
use gosolve::certificate::{CertificateError, CertificateFormat};
use gosolve::{Answer, Config, Solver, solve_value_from};
use pyo3::exceptions::{PyIsADirectoryError, PyOSError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

/// Stack of the thread a search runs on, in bytes (virtual: the search recurses per ply).
const STACK_BYTES: usize = 256 << 20;

fn value_error(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

fn colour(text: &str) -> PyResult<Player> {
    match text.to_ascii_lowercase().as_str() {
        "b" | "black" => Ok(Player::Black),
        "w" | "white" => Ok(Player::White),
        _ => Err(value_error(format!(
            "unknown colour '{text}' (expected B or W)"
        ))),
    }
}

const fn colour_name(p: Player) -> &'static str {
    match p {
        Player::Black => "B",
        Player::White => "W",
    }
}

/// Runs `work` on a thread with a large stack, with the GIL released; `seconds` > 0 raises
/// the cancel flag after that long.
fn search<T: Send>(
    py: Python<'_>,
    seconds: f64,
    cancel: &Arc<AtomicBool>,
    work: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    if !(seconds.is_finite() && seconds >= 0.0) {
        return Err(value_error(format!(
            "seconds {seconds} is not a finite number ≥ 0"
        )));
    }
    py.allow_threads(|| {
        std::thread::scope(|scope| {
            let (tx, rx) = std::sync::mpsc::channel::<()>();
            if seconds > 0.0 {
                let flag = cancel.clone();
                scope.spawn(move || {
                    if rx.recv_timeout(Duration::from_secs_f64(seconds.min(1e9)))
                        == Err(std::sync::mpsc::RecvTimeoutError::Timeout)
                    {
                        flag.store(true, Ordering::Relaxed);
                    }
                });
            }
            let out = gosolve::stack::run_with_stack("tsumi-search", STACK_BYTES, work)
                .map_err(stack_error);
            drop(tx);
            out
        })
    })
}

/// A search thread that did not finish, as Python's `RuntimeError` (the same messages as
/// before the shared helper: the system's refusal, or "the search panicked").
fn stack_error(e: gosolve::stack::StackThreadError) -> PyErr {
    match e {
        gosolve::stack::StackThreadError::Spawn { source, .. } => {
            PyRuntimeError::new_err(source.to_string())
        }
        gosolve::stack::StackThreadError::Panicked => {
            PyRuntimeError::new_err("the search panicked")
        }
    }
}

/// A Go position with its history (positional superko), side to move and komi.
#[pyclass(module = "tsumi", frozen)]
#[derive(Clone)]
struct Position {
    inner: GoPosition,
    /// The moves played by `new` and `play` (none for `from_sgf`): when they replay from the
    /// empty board to exactly this position and history, a certificate names its root by
    /// them ([`gosolve::Played`] checks; otherwise by its board and history).
    moves: Vec<Move>,
}

impl Position {
    /// The position as the root of a question, with its moves.
    fn root(&self) -> gosolve::Played<'_> {
        gosolve::Played {
            position: &self.inner,
            moves: &self.moves,
        }
    }
}

#[pymethods]
impl Position {
    /// The position after `moves` (GTP vertices or "pass", alternating from Black) on an
    /// empty `rows` x `cols` board, at `komi` (a multiple of 0.5).
    #[new]
    #[pyo3(signature = (rows, cols, moves = Vec::new(), komi = 0.0))]
    fn new(rows: u32, cols: u32, moves: Vec<String>, komi: f64) -> PyResult<Self> {
        let size = Size::new(rows, cols).map_err(value_error)?;
        let komi = Komi::from_f64(komi).map_err(|e| value_error(format!("bad komi {e}")))?;
        let mut p = GoPosition::new(
            size,
            Rules {
                ko: KoRule::PositionalSuperko,
                komi,
            },
        );
        let mut played = Vec::with_capacity(moves.len());
        for m in &moves {
            let mv = size.parse_move(m).map_err(value_error)?;
            p.play(mv)
                .map_err(|e| value_error(format!("illegal move {m}: {e}")))?;
            played.push(mv);
        }
        Ok(Position {
            inner: p,
            moves: played,
        })
    }

    /// The position at the end of an SGF game's main line (board size, komi, setup, moves).
    #[staticmethod]
    fn from_sgf(text: &str) -> PyResult<Self> {
        let p =
            games::go::position_from_sgf(text, KoRule::PositionalSuperko).map_err(value_error)?;
        Ok(Position {
            inner: p,
            moves: Vec::new(),
        })
    }

    /// The position after `mv` ("C3" or "pass") by the side to move.
    fn play(&self, mv: &str) -> PyResult<Self> {
        let m = self.inner.size().parse_move(mv).map_err(value_error)?;
        let mut p = self.inner.clone();
        p.play(m)
            .map_err(|e| value_error(format!("illegal move {mv}: {e}")))?;
        let mut moves = self.moves.clone();
        moves.push(m);
        Ok(Position { inner: p, moves })
    }

    /// Rows of the board.
    #[getter]
    fn rows(&self) -> u32 {
        self.inner.size().rows()
    }

    /// Columns of the board.
    #[getter]
    fn cols(&self) -> u32 {
        self.inner.size().cols()
    }

    /// "B" or "W".
    #[getter]
    fn to_move(&self) -> &'static str {
        colour_name(self.inner.to_move())
    }

    /// The komi in points.
    #[getter]
    fn komi(&self) -> f64 {
        f64::from(self.inner.rules().komi.half_points()) / 2.0
    }

    /// Whether two passes ended the game.
    #[getter]
    fn is_over(&self) -> bool {
        self.inner.is_over()
    }

    /// Black's area minus White's on the board now (komi not included).
    fn area_margin(&self) -> i32 {
        self.inner.score().margin()
    }

    /// The legal moves ("pass" last).
    fn legal_moves(&self) -> Vec<String> {
        self.inner
            .legal_moves()
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    /// The game as SGF.
    fn to_sgf(&self) -> String {
        games::go::position_to_sgf(&self.inner)
    }

    fn __str__(&self) -> String {
        self.inner.board().to_string()
    }

    fn __repr__(&self) -> String {
        format!(
            "Position({}x{}, {} to move, komi {}, {} plies)",
            self.rows(),
            self.cols(),
            self.to_move(),
            self.inner.rules().komi,
            self.inner.plies()
        )
    }
}

/// What `solve` found: the value (Black's area minus White's under optimal play) when
/// proven, the proven bounds otherwise, and a principal variation.
#[pyclass(module = "tsumi", frozen, get_all)]
struct Solution {
    /// The value when proven, else None.
    value: Option<i32>,
    /// Proven lower bound on the value.
    lower: i32,
    /// Proven upper bound on the value.
    upper: i32,
    /// An optimal line to the end of the game (empty unless proven).
    pv: Vec<String>,
    /// Solver expansions, all questions.
    expansions: u64,
    /// Whether the PV replayed to a finished game scored exactly the value.
    pv_checked: bool,
}

#[pymethods]
impl Solution {
    fn __repr__(&self) -> String {
        format!(
            "Solution(value={:?}, lower={}, upper={}, pv={:?}, expansions={})",
            self.value, self.lower, self.upper, self.pv, self.expansions
        )
    }
}

fn solver_for(
    position: &Position,
    tt_mib: usize,
    threads: usize,
    budget: u64,
    cancel: &Arc<AtomicBool>,
) -> PyResult<Solver> {
    let pos = &position.inner;
    if pos.size().points() > engine::go_engine::SOLVE_MAX_POINTS {
        return Err(value_error(format!(
            "{} has {} points; the solver is exact up to {}",
            pos.size(),
            pos.size().points(),
            engine::go_engine::SOLVE_MAX_POINTS
        )));
    }
    if tt_mib == 0 || threads == 0 {
        return Err(value_error("tt_mib and threads must be at least 1"));
    }
    let cfg = Config {
        limits: gosolve::Limits {
            max_expansions: budget,
            cancel: Some(cancel.clone()),
            ..gosolve::Limits::default()
        },
        threads,
        ..gosolve::session::config()
    };
    Solver::for_size(pos.size(), tt_mib, cfg).map_err(value_error)
}

/// The value of `position` by two df-pn proofs (bisection over komi) and a principal
/// variation, within `budget` expansions a question (0: none) and `seconds` (0: none),
/// on `threads` threads over a `tt_mib` MiB table. The GIL is released meanwhile.
#[pyfunction]
#[pyo3(signature = (position, budget = 1_000_000, seconds = 0.0, threads = 1, tt_mib = 64))]
fn solve(
    py: Python<'_>,
    position: &Position,
    budget: u64,
    seconds: f64,
    threads: usize,
    tt_mib: usize,
) -> PyResult<Solution> {
    let cancel = Arc::new(AtomicBool::new(false));
    let mut solver = solver_for(position, tt_mib, threads, budget, &cancel)?;
    let root = position.root();
    let solved = search(py, seconds, &cancel, || {
        solve_value_from(&mut solver, &root, None, |_| {})
    })?;
    let (expansions, _) = solver.totals();
    Ok(Solution {
        value: solved.value,
        lower: solved.lower,
        upper: solved.upper,
        pv: solved.pv.iter().map(ToString::to_string).collect(),
        expansions,
        pv_checked: solved.pv_checked,
    })
}

/// One proof: does `player` ("B"/"W") win `position` at `komi` (a half-integer)?
/// Returns (answer, best move, expansions): answer True, False, or None when the budget
/// (expansions, seconds) ran out; the best move when the side to move is proven to win.
///
/// With `certificate` (a path), the proof is then written there as a certificate for
/// `check_certificate` and `tsumi check`, by the writer of `tsumi prove go --certificate`:
/// the proven winner's win (the asked player's, or the opponent's when the answer is
/// False), in `certificate_format` "text" (version 1) or "compact" (version 2). The path
/// is checked before the search; the file is written under a temporary name in its
/// directory and renamed onto the path, so it is either absent (or as it was) or whole.
/// `seconds` bounds the search, not the writing. The GIL is released throughout.
///
/// Raises ValueError for bad input or, with `certificate`, an answer left open by the
/// budget; OSError (FileNotFoundError, PermissionError, IsADirectoryError, ...) for a
/// path that is not a regular file or cannot be written; RuntimeError if the writer finds
/// a claim of the solver that fails (a solver bug; nothing is written).
#[pyfunction]
#[pyo3(signature = (position, komi, player = "B", budget = 1_000_000, seconds = 0.0, threads = 1, tt_mib = 64, certificate = None, certificate_format = "text"))]
#[allow(clippy::too_many_arguments)]
fn prove(
    py: Python<'_>,
    position: &Position,
    komi: f64,
    player: &str,
    budget: u64,
    seconds: f64,
    threads: usize,
    tt_mib: usize,
    certificate: Option<PathBuf>,
    certificate_format: &str,
) -> PyResult<(Option<bool>, Option<String>, u64)> {
    let k = Komi::from_f64(komi).map_err(|e| value_error(format!("bad komi {e}")))?;
    if k.half_points() % 2 == 0 {
        return Err(value_error(format!(
            "komi {komi} must be a half-integer (no draws)"
        )));
    }
    let winner = colour(player)?;
    let format = match certificate_format {
        "text" => CertificateFormat::Text,
        "compact" => CertificateFormat::Compact,
        _ => {
            return Err(value_error(format!(
                "unknown certificate_format '{certificate_format}' (expected text or compact)"
            )));
        }
    };
    let cancel = Arc::new(AtomicBool::new(false));
    let mut solver = solver_for(position, tt_mib, threads, budget, &cancel)?;
    let root = position.root();
    // Every output is checked before the search, so that no answer is lost to a bad path.
    if let Some(path) = &certificate {
        check_target(path)?;
    }
    let proof = search(py, seconds, &cancel, || solver.prove(&root, winner, k))?;
    let answer = match proof.answer {
        Answer::Proven => Some(true),
        Answer::Disproven => Some(false),
        Answer::Unknown => None,
    };
    if let Some(path) = &certificate {
        let proven = match proof.answer {
            Answer::Proven => winner,
            Answer::Disproven => winner.opponent(),
            Answer::Unknown => {
                return Err(value_error(format!(
                    "certificate {}: no proof to write (the answer is unknown after {} expansions)",
                    path.display(),
                    proof.expansions
                )));
            }
        };
        // The search's timer has stopped (its thread is joined); a flag it raised at the
        // very end of a finished proof must not stop the writing.
        cancel.store(false, Ordering::Relaxed);
        search(py, 0.0, &cancel, || {
            write_atomic(path, |w| {
                gosolve::certificate::write_certificate_as(&mut solver, &root, proven, k, w, format)
            })
        })??;
    }
    let best = proof.best_move.map(|m| m.to_string());
    Ok((answer, best, proof.expansions))
}

/// Why a certificate was not written: the file system's refusal (as Python's OSError,
/// whose errno picks the subclass), or the writer's.
enum WriteError {
    Io(PathBuf, std::io::Error),
    Certificate(PathBuf, CertificateError),
}

impl From<WriteError> for PyErr {
    fn from(e: WriteError) -> PyErr {
        match e {
            WriteError::Io(path, e) => os_error(&path, "cannot write certificate", &e),
            WriteError::Certificate(path, CertificateError::Io(e)) => {
                os_error(&path, "cannot write certificate", &e)
            }
            // A 31-point board or more, refused before any search by `solver_for`.
            WriteError::Certificate(path, e @ CertificateError::TooLarge) => {
                value_error(format!("certificate {}: {e}", path.display()))
            }
            // A claim of the solver that fails while it is written out (a solver bug the
            // certificate exposed), or a node it could not answer again.
            WriteError::Certificate(path, e) => {
                PyRuntimeError::new_err(format!("certificate {}: {e}", path.display()))
            }
        }
    }
}

/// An `io::Error` about `path` as Python's OSError(errno, "what: reason", path), which
/// Python turns into its subclass (FileNotFoundError, PermissionError, ...); without an
/// errno, a plain OSError with one line.
fn os_error(path: &Path, what: &str, e: &std::io::Error) -> PyErr {
    let reason = match e.raw_os_error() {
        // The system's text without Rust's " (os error N)".
        Some(_) => e
            .to_string()
            .split(" (os error")
            .next()
            .unwrap_or("")
            .to_string(),
        None => e.to_string(),
    };
    match e.raw_os_error() {
        Some(errno) => PyOSError::new_err((
            errno,
            format!("{what}: {reason}"),
            path.display().to_string(),
        )),
        None => PyOSError::new_err(format!("{what} {}: {reason}", path.display())),
    }
}

/// The file a certificate at `path` is written to: `path`, or the regular file it names
/// through symbolic links (a link is written through, never replaced).
///
/// # Errors
/// `path` is a directory (IsADirectoryError) or another file that is not a regular file (a
/// device, a pipe: OSError), which replacing would destroy; or its metadata is unreadable.
fn regular_target(path: &Path) -> PyResult<PathBuf> {
    match std::fs::metadata(path) {
        Ok(m) if m.is_file() => Ok(std::fs::canonicalize(path).unwrap_or_else(|_| path.into())),
        Ok(m) if m.is_dir() => Err(PyIsADirectoryError::new_err(format!(
            "certificate {} is a directory: name a new or regular file",
            path.display()
        ))),
        Ok(_) => Err(PyOSError::new_err(format!(
            "certificate {} is not a regular file: refusing to replace it (name a new or regular file)",
            path.display()
        ))),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(path.to_path_buf()),
        Err(e) => Err(os_error(path, "cannot write certificate", &e)),
    }
}

/// Temporary files of this process, numbered: two Python threads writing the same path
/// never share one.
static TEMPORARIES: AtomicU64 = AtomicU64::new(0);

/// The temporary name of a write to `target`: `TARGET.tmp.PID.N` in the same directory (so
/// the rename stays within one file system).
fn temporary(target: &Path) -> PathBuf {
    let mut tmp = target.as_os_str().to_os_string();
    tmp.push(format!(
        ".tmp.{}.{}",
        std::process::id(),
        TEMPORARIES.fetch_add(1, Ordering::Relaxed)
    ));
    PathBuf::from(tmp)
}

/// Checks before a search that a certificate can be written at `path`: absent or a regular
/// file, in a directory that takes a new file (one is created and removed).
///
/// # Errors
/// As [`regular_target`], or the directory is missing or read-only (OSError).
fn check_target(path: &Path) -> PyResult<()> {
    let tmp = temporary(&regular_target(path)?);
    std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&tmp)
        .map_err(|e| os_error(path, "cannot write certificate", &e))?;
    let _ = std::fs::remove_file(&tmp);
    Ok(())
}

/// Writes `path` atomically with `write`: `write` fills a buffered temporary file in the
/// same directory ([`temporary`]), which is flushed, synced and renamed onto `path`, so
/// `path` either keeps its old contents or holds the whole new file. The temporary file is
/// removed on any error. (The same protocol as `tsumi`'s `result_file::write_atomic_with`.)
fn write_atomic<T>(
    path: &Path,
    write: impl FnOnce(&mut std::io::BufWriter<std::fs::File>) -> Result<T, CertificateError>,
) -> PyResult<T> {
    let target = regular_target(path)?;
    let tmp = temporary(&target);
    let run = || -> Result<T, WriteError> {
        let io = |e| WriteError::Io(path.to_path_buf(), e);
        let file = std::fs::File::create(&tmp).map_err(io)?;
        let mut w = std::io::BufWriter::new(file);
        let value = write(&mut w).map_err(|e| WriteError::Certificate(path.to_path_buf(), e))?;
        let file = w
            .into_inner()
            .map_err(|e| WriteError::Io(path.to_path_buf(), e.into_error()))?;
        file.sync_all().map_err(io)?;
        std::fs::rename(&tmp, &target).map_err(io)?;
        Ok(value)
    };
    run().map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        e.into()
    })
}

/// What `check_certificate` found. `valid` is True only for a certificate the independent
/// checker accepted; then `claim` and the fields below say what it proves. Otherwise
/// `error` says why (the first failing node, the line that does not parse, or a bound).
#[pyclass(module = "tsumi", frozen, get_all)]
struct CheckResult {
    /// Whether the checker accepted the certificate.
    valid: bool,
    /// The checker's line, as `tsumi check` prints it: "valid: black wins at komi 8.5
    /// from the empty 3x3 board", or "invalid: node ...: reason", "unreadable
    /// certificate: line ...: ...", "not checked: ...".
    message: String,
    /// What a valid certificate proves ("black wins at komi 8.5 from the empty 3x3
    /// board"), else None.
    claim: Option<String>,
    /// Why the certificate is not valid (the message), else None.
    error: Option<String>,
    /// The board, "rows x cols" as "3x4", when valid.
    board: Option<String>,
    /// Rows of the board, when valid.
    rows: Option<usize>,
    /// Columns of the board, when valid.
    cols: Option<usize>,
    /// The proven winner, "B" or "W", when valid.
    winner: Option<&'static str>,
    /// The komi in points, when valid.
    komi: Option<f64>,
    /// The root position ("the empty 3x3 board", "3x3 after B2 A1, black to move", ...),
    /// when valid.
    position: Option<String>,
    /// Node lines checked (0 unless valid).
    nodes: usize,
    /// Of those, references checked by Theorem 1 (0 unless valid).
    refs: usize,
    /// Game ends (0 unless valid).
    ends: usize,
    /// Static (pure-eye) leaves (0 unless valid).
    eyes: usize,
    /// The deepest node's ply below the root (0 unless valid).
    depth: u32,
    /// The file's size in bytes.
    bytes: u64,
    /// Seconds the check took.
    seconds: f64,
}

#[pymethods]
impl CheckResult {
    fn __bool__(&self) -> bool {
        self.valid
    }

    fn __repr__(&self) -> String {
        format!(
            "CheckResult(valid={}, message={:?}, nodes={}, bytes={})",
            if self.valid { "True" } else { "False" },
            self.message,
            self.nodes,
            self.bytes
        )
    }
}

/// Checks the certificate at `path` with the independent checker (`crates/check`, std
/// only: its own rules, pure-eye analysis and Theorem 1 for every reference), streaming
/// the file twice as `tsumi check` does, on `threads` threads (0: two on a machine with
/// two cores or more), within `max_nodes` node lines. The GIL is released meanwhile.
///
/// A damaged certificate (a changed byte, a truncated file, a wrong claim, one past a
/// bound) is not an exception: it returns a CheckResult with valid False and the reason
/// in `error`. Raises OSError (FileNotFoundError, IsADirectoryError, PermissionError, ...)
/// when `path` is not a regular file or cannot be opened.
#[pyfunction]
#[pyo3(signature = (path, threads = 0, max_nodes = check::stream::MAX_NODES))]
fn check_certificate(
    py: Python<'_>,
    path: PathBuf,
    threads: usize,
    max_nodes: u32,
) -> PyResult<CheckResult> {
    // Checked before opening: opening a pipe would wait for a writer with the GIL held, and
    // the checker reads the file twice (it must seek).
    let meta =
        std::fs::metadata(&path).map_err(|e| os_error(&path, "cannot read certificate", &e))?;
    if meta.is_dir() {
        return Err(PyIsADirectoryError::new_err(format!(
            "certificate {} is a directory",
            path.display()
        )));
    }
    if !meta.is_file() {
        return Err(PyOSError::new_err(format!(
            "certificate {} is not a regular file (the checker reads it twice)",
            path.display()
        )));
    }
    let file =
        std::fs::File::open(&path).map_err(|e| os_error(&path, "cannot read certificate", &e))?;
    let limits = check::Limits {
        max_nodes,
        threads,
        ..check::Limits::default()
    };
    let start = std::time::Instant::now();
    let outcome = py.allow_threads(|| check::check_stream(file, limits));
    let seconds = start.elapsed().as_secs_f64();
    let mut r = CheckResult {
        valid: false,
        message: String::new(),
        claim: None,
        error: None,
        board: None,
        rows: None,
        cols: None,
        winner: None,
        komi: None,
        position: None,
        nodes: 0,
        refs: 0,
        ends: 0,
        eyes: 0,
        depth: 0,
        bytes: meta.len(),
        seconds,
    };
    match outcome {
        Ok(report) => {
            let v = report.verdict;
            r.valid = true;
            r.message = v.to_string();
            r.claim = Some(
                r.message
                    .strip_prefix("valid: ")
                    .unwrap_or(&r.message)
                    .to_string(),
            );
            r.board = Some(format!("{}x{}", v.rows, v.cols));
            r.rows = Some(v.rows);
            r.cols = Some(v.cols);
            r.winner = Some(match v.winner {
                check::Color::Black => "B",
                check::Color::White => "W",
            });
            r.komi = Some(f64::from(v.komi2) / 2.0);
            r.position = Some(v.position);
            (r.nodes, r.refs, r.ends, r.eyes, r.depth) = (v.nodes, v.refs, v.ends, v.eyes, v.depth);
        }
        Err(e) => {
            r.message = e.to_string();
            r.error = Some(r.message.clone());
        }
    }
    Ok(r)
}

/// What the analysis knows about one root move (figures for the side to move).
#[pyclass(module = "tsumi", frozen, get_all)]
struct MoveInfo {
    /// The move.
    mv: String,
    /// The value after it (Black's area minus White's) when proven, else None.
    value: Option<i32>,
    /// Proven bounds on that value.
    lower: i32,
    /// Proven bounds on that value.
    upper: i32,
    /// 1 or 0 when proven at the komi, else the playouts' mean (0.5 without playouts).
    win_rate: f64,
    /// The exact margin for the side to move when proven, else the middle of the bounds.
    score_lead: f64,
    /// Playouts plus solver expansions spent on it.
    visits: u64,
    /// The move and, when proven, an optimal continuation.
    pv: Vec<String>,
}

#[pymethods]
impl MoveInfo {
    fn __repr__(&self) -> String {
        format!(
            "MoveInfo({}, value={:?}, win_rate={}, score_lead={}, visits={})",
            self.mv, self.value, self.win_rate, self.score_lead, self.visits
        )
    }
}

/// Every root move of `position`, best first: UCT playouts, then each move's exact value
/// in turn within `max_work` (playouts plus expansions; 0: until all are proven).
#[pyfunction]
#[pyo3(signature = (position, max_work = 0, playouts = 1000, seconds = 0.0, tt_mib = 64, seed = 1))]
fn analyze(
    py: Python<'_>,
    position: &Position,
    max_work: u64,
    playouts: u64,
    seconds: f64,
    tt_mib: usize,
    seed: u64,
) -> PyResult<Vec<MoveInfo>> {
    if tt_mib == 0 {
        return Err(value_error("tt_mib must be at least 1"));
    }
    let settings = GoSettings {
        tt_mib,
        playouts: playouts.max(1),
        seed,
        ..GoSettings::default()
    };
    let mut e = GoEngine::new(position.inner.size(), settings);
    e.load_position(position.inner.clone());
    let limits = Limits {
        playouts,
        first_budget: 2_000,
        max_budget: 0,
        max_work,
        seed,
    };
    let stop = Arc::new(AtomicBool::new(false));
    let a = search(py, seconds, &stop, || {
        e.analyze(&limits, None, &stop, |_| {})
    })?;
    let (p, k) = (a.to_move, a.komi);
    Ok(a.moves
        .iter()
        .map(|m| MoveInfo {
            mv: m.mv.to_string(),
            value: m.value(),
            lower: m.lower,
            upper: m.upper,
            win_rate: m.win_rate(p, k),
            score_lead: m.score_lead(p, k),
            visits: m.visits(),
            pv: m.pv.iter().map(ToString::to_string).collect(),
        })
        .collect())
}

/// A Monte Carlo player's move for the side to move: `algorithm` "uct", "rave", "grave"
/// or "mcps", with `playouts` (seeded). Returns (move, its mean reward for the mover).
#[pyfunction]
#[pyo3(signature = (position, algorithm = "mcps", playouts = 1000, seed = 1))]
fn mcts_move(
    py: Python<'_>,
    position: &Position,
    algorithm: &str,
    playouts: u64,
    seed: u64,
) -> PyResult<(String, Option<f64>)> {
    use games::go::GoGame;
    use mcts::{Algorithm, Budget, GoRollout, Params, Searcher};
    let alg: Algorithm = algorithm.parse().map_err(|_| {
        value_error(format!(
            "unknown algorithm '{algorithm}' (expected uct, rave, grave or mcps)"
        ))
    })?;
    let pos = &position.inner;
    if pos.is_over() {
        return Err(value_error("the game is over"));
    }
    let size = pos.size();
    let limit = pos.plies().saturating_add(4 * size.points() as u32 + 8);
    let game = GoGame::new(size.rows() as u8, size.cols() as u8, pos.rules())
        .map_err(value_error)?
        .with_move_limit(Some(limit));
    let params = Params::new(alg).with_budget(Budget::Playouts(playouts.max(1)));
    py.allow_threads(|| {
        let mut s = Searcher::new(&game, params, GoRollout::default(), seed);
        let mv = s.search(&game, pos).map_or(Move::Pass, |(m, _)| m);
        let w = s
            .root_moves()
            .into_iter()
            .find(|&(m, n, _)| m == mv && n > 0)
            .map(|(_, _, w)| w);
        Ok((mv.to_string(), w))
    })
}

/// The Hex prover (focused df-pn with the Hex knowledge of `pns::hexknow`, as `tsumi htp`'s
/// `dfpn-solve-state`): the winner of a `width` x `height` board after `moves` (cells such
/// as "c3", alternating from Black, who joins top and bottom), with a principal variation.
/// Returns (winner "B"/"W" or None when the budget runs out, PV). The GIL is released.
#[pyfunction]
#[pyo3(signature = (width, height, moves = Vec::new(), budget = 200_000, seconds = 10.0, tt_mib = 64))]
fn hex_solve(
    py: Python<'_>,
    width: usize,
    height: usize,
    moves: Vec<String>,
    budget: u64,
    seconds: f64,
    tt_mib: usize,
) -> PyResult<(Option<&'static str>, Vec<String>)> {
    use games::Game;
    if !(seconds.is_finite() && seconds >= 0.0) || tt_mib == 0 {
        return Err(value_error(
            "seconds must be finite and ≥ 0, tt_mib at least 1",
        ));
    }
    let settings = engine::HexSettings {
        solve_budget: budget,
        solve_seconds: seconds,
        tt_mib,
        ..engine::HexSettings::default()
    };
    let mut e = engine::HexEngine::new(width, height, settings).map_err(value_error)?;
    let mut mover = Player::Black;
    for m in &moves {
        let mv = e.hex().parse_move(e.state(), m).map_err(value_error)?;
        e.play(mover, mv).map_err(value_error)?;
        mover = mover.opponent();
    }
    py.allow_threads(move || {
        gosolve::stack::run_with_stack("tsumi-search", STACK_BYTES, move || {
            let w = e.solve(Some(mover)).map(colour_name);
            let pv = e
                .principal_variation(Some(mover))
                .iter()
                .map(ToString::to_string)
                .collect();
            (w, pv)
        })
        .map_err(stack_error)
    })
}

/// The module.
#[pymodule]
fn tsumi(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Position>()?;
    m.add_class::<Solution>()?;
    m.add_class::<MoveInfo>()?;
    m.add_class::<CheckResult>()?;
    m.add_function(wrap_pyfunction!(solve, m)?)?;
    m.add_function(wrap_pyfunction!(prove, m)?)?;
    m.add_function(wrap_pyfunction!(check_certificate, m)?)?;
    m.add_function(wrap_pyfunction!(analyze, m)?)?;
    m.add_function(wrap_pyfunction!(mcts_move, m)?)?;
    m.add_function(wrap_pyfunction!(hex_solve, m)?)?;
    Ok(())
}
