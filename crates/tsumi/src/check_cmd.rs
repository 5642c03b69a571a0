//! `tsumi check FILE`: the independent certificate checker (`crates/check`), and the writing
//! side used by `prove go --certificate FILE`.

use anyhow::{Context, bail};
use games::Player;
use gosolve::{Answer, Line, Proof, Solver};
use std::path::{Path, PathBuf};

/// Arguments of `tsumi check`.
#[derive(clap::Args, Debug)]
pub struct CheckArgs {
    /// The certificate file (written by `prove go ... --certificate FILE`).
    pub file: PathBuf,
}

/// Runs `tsumi check FILE`: prints "valid: <winner> wins at komi k from <position>" and the
/// counts, or "invalid: node ... path ...: reason".
///
/// # Errors
/// An unreadable file or certificate, or an invalid one (status 2).
pub fn run(args: &CheckArgs) -> anyhow::Result<()> {
    let bytes = std::fs::read(&args.file)
        .with_context(|| format!("cannot read certificate {}", args.file.display()))?;
    let text = String::from_utf8(bytes)
        .map_err(|_| anyhow::anyhow!("certificate {} is not UTF-8 text", args.file.display()))?;
    let start = std::time::Instant::now();
    match check::check_text(&text) {
        Ok(v) => {
            println!("{v}");
            println!(
                "nodes: {} ({} references checked by Theorem 1, {} game ends, {} static leaves); {} bytes; checked in {:.3} s",
                v.nodes,
                v.refs,
                v.ends,
                v.eyes,
                text.len(),
                start.elapsed().as_secs_f64()
            );
            Ok(())
        }
        Err(check::CheckError::Invalid(f)) => {
            println!("{f}");
            bail!("the certificate {} is invalid", args.file.display())
        }
        Err(e @ check::CheckError::Parse(_)) => bail!("{}: {e}", args.file.display()),
    }
}

/// Writes the certificate of a proven question to `path` (`prove go --certificate`): the
/// proven winner's win (the asked player's, or its opponent's for a loss).
///
/// # Errors
/// No answer to certify, a write error, or a failing extraction.
pub fn write_go(solver: &mut Solver, line: &Line, p: &Proof, path: &Path) -> anyhow::Result<()> {
    let winner = match p.answer {
        Answer::Win => p.winner,
        Answer::Loss => p.winner.opponent(),
        Answer::Unknown => bail!("--certificate: no proof to certify (the answer is unknown)"),
    };
    write_one(solver, line, winner, p.komi2, path)
}

/// Writes the certificates of a solved value `v` into `dir` (`solve --certificate DIR`):
/// `black-<v − ½>.cert` and `white-<v + ½>.cert` (on a full board White's certificate is one
/// static leaf: Black cannot own more than every point).
///
/// # Errors
/// A directory or write error, or a failing extraction.
pub fn write_solve(solver: &mut Solver, line: &Line, value: i32, dir: &Path) -> anyhow::Result<()> {
    std::fs::create_dir_all(dir)
        .with_context(|| format!("cannot create certificate directory {}", dir.display()))?;
    for (w, k2) in [
        (Player::Black, 2 * value - 1),
        (Player::White, 2 * value + 1),
    ] {
        let komi = games::go::Komi::from_half_points(k2);
        let path = dir.join(format!("{}-{komi}.cert", w.name()));
        write_one(solver, line, w, k2, &path)?;
    }
    Ok(())
}

fn write_one(
    solver: &mut Solver,
    line: &Line,
    winner: Player,
    komi2: i32,
    path: &Path,
) -> anyhow::Result<()> {
    let tmp = path.with_extension("cert.partial");
    let file = std::fs::File::create(&tmp)
        .with_context(|| format!("cannot create certificate {}", tmp.display()))?;
    let start = std::time::Instant::now();
    let stats = gosolve::certificate::write_certificate(solver, line, winner, komi2, file)
        .with_context(|| format!("certificate {}", path.display()))?;
    std::fs::rename(&tmp, path)
        .with_context(|| format!("cannot write certificate {}", path.display()))?;
    eprintln!(
        "certificate {}: {} nodes ({} references, {} game ends, {} static leaves), {} bytes, {} solver questions ({} expansions), {:.3} s",
        path.display(),
        stats.nodes,
        stats.refs,
        stats.ends,
        stats.eyes,
        stats.bytes,
        stats.questions,
        stats.expansions,
        start.elapsed().as_secs_f64()
    );
    Ok(())
}
