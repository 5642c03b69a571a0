//! Go positions from the command line: a size, an optional SGF file, a move list and a komi.

use anyhow::{Context, bail};
use games::go::{KoRule, Komi, Position, Rules, Size, position_from_sgf_bytes};

/// Builds the position the user asked for: the empty `size` board (or the SGF file's
/// position, whose `SZ` must agree with `size`), then `moves` (GTP, e.g. "C3", "pass"),
/// with `komi` replacing the SGF's `KM` when given. The SGF file is read as bytes, so its
/// byte-order mark and `CA` character set are honoured (`games::go::position_from_sgf_bytes`).
///
/// # Errors
/// One-line messages for an unsupported size, a missing or malformed file, an off-board or
/// illegal move, or a malformed komi.
pub fn go_position(
    size_text: &str,
    sgf: Option<&std::path::Path>,
    moves: &[String],
    komi: Option<&str>,
    max_points: usize,
) -> anyhow::Result<Position> {
    let size = Size::parse(size_text)?;
    if size.points() > max_points {
        bail!("unsupported board size {size} for this engine (at most {max_points} points)");
    }
    let mut pos = match sgf {
        Some(path) => {
            let bytes = std::fs::read(path)
                .with_context(|| format!("cannot read SGF file {}", path.display()))?;
            let p = position_from_sgf_bytes(&bytes, KoRule::PositionalSuperko)
                .with_context(|| format!("in {}", path.display()))?;
            if p.size() != size {
                bail!(
                    "the SGF file {} is a {} board, not {size}",
                    path.display(),
                    p.size()
                );
            }
            p
        }
        None => Position::new(size, Rules::default()),
    };
    if let Some(k) = komi {
        pos.set_komi(k.parse::<Komi>()?);
    }
    for (i, m) in moves.iter().enumerate() {
        let m = m.trim();
        if m.is_empty() {
            // `--moves ""` is no moves; an empty item inside a list is likely a typo that
            // would hide a missing move.
            if moves.len() > 1 {
                bail!(
                    "--moves item {} is empty (two commas, or a comma at an end)",
                    i + 1
                );
            }
            continue;
        }
        pos.play_text(m)
            .with_context(|| format!("--moves item {} ('{m}')", i + 1))?;
    }
    Ok(pos)
}

/// Checks that a transposition table of `mib` MiB can be allocated, so that a too-large
/// `--tt-mib` is a one-line error instead of an aborted process.
///
/// # Errors
/// When the system refuses to reserve that much memory.
pub fn check_tt_mib(mib: usize) -> anyhow::Result<()> {
    let bytes = mib
        .checked_mul(1 << 20)
        .ok_or_else(|| anyhow::anyhow!("--tt-mib {mib} is too large"))?;
    let mut probe: Vec<u8> = Vec::new();
    probe.try_reserve_exact(bytes).map_err(|_| {
        anyhow::anyhow!("cannot allocate a {mib} MiB transposition table (lower --tt-mib)")
    })?;
    Ok(())
}
