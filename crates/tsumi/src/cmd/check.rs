//! `tsumi check FILE`: the independent certificate checker (`crates/check`), and the writing
//! side used by `prove go --certificate FILE`.

use anyhow::{Context, bail};
use games::Player;
use games::go::Komi;
use gosolve::certificate::CertificateFormat;
use gosolve::{Answer, Proof, Root, Solver};
use std::path::{Path, PathBuf};

/// Arguments of `tsumi check`.
#[derive(clap::Args, Debug)]
pub struct CheckArgs {
    /// The certificate file (written by `prove go ... --certificate FILE`).
    pub file: PathBuf,
    /// The most node lines read; a longer certificate is refused with a one-line error.
    #[arg(long, default_value_t = check::stream::MAX_NODES)]
    pub max_nodes: u32,
    /// The longest line read, in bytes.
    #[arg(long, default_value_t = check::Limits::default().max_line_bytes)]
    pub max_line_bytes: usize,
    /// Threads: 1 reads and checks on one thread; more (or 0, the default, on a machine with
    /// two cores or more) reads, parses and applies the stone rules on a second thread while
    /// the first walks the history.
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
}

/// Runs `tsumi check FILE`: prints `valid: <winner> wins at komi k from <position>` and the
/// counts with the throughput (nodes and MB a second) and what it kept in memory, or
/// "invalid: node ... path ...: reason". The file is read twice as a stream
/// ([`check::check_stream`]: memory bounded by what references need) within the bounds of
/// [`check::Limits`].
///
/// # Errors
/// An unreadable file or certificate, an invalid one, or one past a bound.
pub fn run(args: &CheckArgs) -> anyhow::Result<()> {
    let file = std::fs::File::open(&args.file)
        .with_context(|| format!("cannot read certificate {}", args.file.display()))?;
    let bytes = file.metadata().map(|m| m.len()).unwrap_or(0);
    let limits = check::Limits {
        max_nodes: args.max_nodes,
        max_line_bytes: args.max_line_bytes,
        threads: args.threads,
        ..check::Limits::default()
    };
    let start = std::time::Instant::now();
    match check::check_stream(file, limits) {
        Ok(r) => {
            let secs = start.elapsed().as_secs_f64();
            let v = &r.verdict;
            println!("{v}");
            println!(
                "nodes: {} ({} references checked by Theorem 1, {} game ends, {} static leaves; depth {} plies); {} bytes; checked in {:.3} s ({:.0} nodes/s, {:.1} MB/s, {} thread{})",
                v.nodes,
                v.refs,
                v.ends,
                v.eyes,
                v.depth,
                bytes,
                secs,
                v.nodes as f64 / secs.max(1e-9),
                bytes as f64 / 1e6 / secs.max(1e-9),
                r.threads,
                if r.threads == 1 { "" } else { "s" }
            );
            println!(
                "memory: {} referenced nodes, at most {} of their Theorem 1 sets and {} boards kept at once",
                r.targets, r.peak_targets, r.peak_boards
            );
            Ok(())
        }
        Err(check::CheckError::Invalid(f)) => {
            println!("{f}");
            bail!("the certificate {} is invalid", args.file.display())
        }
        Err(e) => bail!("{}: {e}", args.file.display()),
    }
}

/// Writes the certificate of a proven question to `path` (`prove go --certificate`): the
/// proven winner's win (the asked player's, or its opponent's for a loss).
///
/// # Errors
/// No answer to certify, a write error, or a failing extraction.
pub fn write_go(
    solver: &mut Solver,
    root: &impl Root,
    p: &Proof,
    path: &Path,
    format: CertificateFormat,
) -> anyhow::Result<()> {
    let winner = proven_winner(p, "--certificate")?;
    write_one(solver, root, winner, p.komi.half_points(), path, format)
}

/// The player a question's proof shows winning (the asked player's win, or its opponent's
/// for a loss), for the writer of option `flag`.
///
/// # Errors
/// An unknown answer: there is no proof to write.
pub(crate) fn proven_winner(p: &Proof, flag: &str) -> anyhow::Result<Player> {
    match p.answer {
        Answer::Proven => Ok(p.winner),
        Answer::Disproven => Ok(p.winner.opponent()),
        Answer::Unknown => bail!("{flag}: no proof to write (the answer is unknown)"),
    }
}

/// The two deciding questions of a solved value `v` (Black at komi v − ½, White at v + ½),
/// each with its file `dir/<colour>-<komi>.<ext>`, after creating `dir` (for the `solve`
/// options `flag` that write one file per deciding proof).
///
/// # Errors
/// The directory cannot be created or written.
pub(crate) fn deciding_files(
    value: i32,
    dir: &Path,
    ext: &str,
    flag: &str,
) -> anyhow::Result<[(Player, i32, PathBuf); 2]> {
    check_dir(dir, flag)?;
    Ok([
        (Player::Black, 2 * value - 1),
        (Player::White, 2 * value + 1),
    ]
    .map(|(w, k2)| {
        let komi = Komi::from_half_points(k2);
        (
            w,
            k2,
            dir.join(format!("{}-{}.{ext}", w.name(), komi_in_name(komi))),
        )
    }))
}

/// A komi as a file name writes it: "7.5", and "minus0.5" for −0.5 (so a name never holds
/// "--", as `black--0.5.cert` did).
fn komi_in_name(komi: games::go::Komi) -> String {
    let text = komi.to_string();
    text.strip_prefix('-')
        .map_or_else(|| text.clone(), |k| format!("minus{k}"))
}

/// Creates the directory `dir` of the option `flag` if needed and checks that it takes new
/// files, before a search whose answer would otherwise be lost to a bad path.
///
/// # Errors
/// `dir` cannot be created, is not a directory, or cannot be written.
pub(crate) fn check_dir(dir: &Path, flag: &str) -> anyhow::Result<()> {
    std::fs::create_dir_all(dir)
        .with_context(|| format!("cannot create the {flag} directory {}", dir.display()))?;
    crate::result_file::check_target(&dir.join(".tsumi-write-check"), &format!("{flag} file"))
}

/// Writes the certificates of a solved value `v` into `dir` (`solve --certificate DIR`):
/// `black-<v − ½>.cert` and `white-<v + ½>.cert` (on a full board White's certificate is one
/// static leaf: Black cannot own more than every point).
///
/// # Errors
/// A directory or write error, or a failing extraction.
pub fn write_solve(
    solver: &mut Solver,
    root: &impl Root,
    value: i32,
    dir: &Path,
) -> anyhow::Result<()> {
    for (w, k2, path) in deciding_files(value, dir, "cert", "--certificate")? {
        write_one(solver, root, w, k2, &path, CertificateFormat::Text)?;
    }
    Ok(())
}

fn write_one(
    solver: &mut Solver,
    root: &impl Root,
    winner: Player,
    komi2: i32,
    path: &Path,
    format: CertificateFormat,
) -> anyhow::Result<()> {
    let start = std::time::Instant::now();
    let stats = crate::result_file::write_atomic_with(path, "certificate", |w| {
        gosolve::certificate::write_certificate_as(
            solver,
            root,
            winner,
            Komi::from_half_points(komi2),
            w,
            format,
        )
        .map_err(anyhow::Error::from)
    })?;
    eprintln!(
        "certificate {}: {} nodes ({} references, {} game ends, {} static leaves), {} bytes, {} solver questions ({} expansions), reference candidates at most {} bytes ({} dropped), {:.3} s",
        path.display(),
        stats.nodes,
        stats.refs,
        stats.ends,
        stats.eyes,
        stats.bytes,
        stats.questions,
        stats.expansions,
        stats.candidate_bytes,
        stats.dropped,
        start.elapsed().as_secs_f64()
    );
    Ok(())
}
