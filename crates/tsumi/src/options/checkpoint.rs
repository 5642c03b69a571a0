//! `--checkpoint FILE`, `--checkpoint-minutes M` and `--resume FILE` of `solve` and `prove`
//! (Go, df-pn): a long run saves its table's proofs atomically every M minutes and when it
//! stops (an answer, a limit or Ctrl-C), and a later run continues from the file.
//! The format and its guarantees: `gosolve::table::checkpoint`.

use gosolve::search::Checkpoint;
use gosolve::{Root, Solver};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// Minutes between two checkpoints unless --checkpoint-minutes says otherwise.
pub const DEFAULT_MINUTES: f64 = 10.0;

/// The checkpoint flags shared by `solve` and `prove` (Go, df-pn).
#[derive(clap::Args, Debug, Clone, Default)]
pub struct CheckpointArgs {
    /// Save the table's proofs (and its most-worked unproven numbers) to FILE atomically
    /// every --checkpoint-minutes and when the run stops, Ctrl-C included; an existing FILE
    /// is only continued with --resume.
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<PathBuf>,
    /// Minutes between two checkpoints while searching [default: 10].
    #[arg(long, value_name = "M")]
    pub checkpoint_minutes: Option<f64>,
    /// Continue from a checkpoint written by the same command (same board, position and
    /// question); later checkpoints go to the same FILE unless --checkpoint names another.
    #[arg(long, value_name = "FILE")]
    pub resume: Option<PathBuf>,
    /// With --checkpoint FILE: continue from FILE when it exists (as --resume FILE would),
    /// else start afresh; for a command line that is run again until it answers (the jobs
    /// of `tsumi campaign plan --checkpoint-minutes`).
    #[arg(long)]
    pub resume_if_present: bool,
}

impl CheckpointArgs {
    /// The first checkpoint flag given, for commands and engines that refuse them.
    #[must_use]
    pub const fn given(&self) -> Option<&'static str> {
        if self.checkpoint.is_some() {
            Some("--checkpoint")
        } else if self.checkpoint_minutes.is_some() {
            Some("--checkpoint-minutes")
        } else if self.resume.is_some() {
            Some("--resume")
        } else if self.resume_if_present {
            Some("--resume-if-present")
        } else {
            None
        }
    }

    /// The file to continue from: --resume, or with --resume-if-present the --checkpoint
    /// file when it exists.
    fn resume_path(&self) -> Option<&PathBuf> {
        self.resume.as_ref().or_else(|| {
            self.checkpoint
                .as_ref()
                .filter(|p| self.resume_if_present && std::fs::symlink_metadata(p).is_ok())
        })
    }

    /// Checks the flags before any search: a positive interval, no existing checkpoint
    /// file overwritten without --resume, and a --resume file that is a checkpoint of this
    /// run (`question` about `pos`; its records are checked when read).
    ///
    /// # Errors
    /// A one-line message naming the flag or the file.
    pub fn check(&self, pos: &games::go::Position, question: &str) -> anyhow::Result<()> {
        if self.resume_if_present {
            if self.checkpoint.is_none() {
                anyhow::bail!("--resume-if-present applies with --checkpoint FILE");
            }
            if self.resume.is_some() {
                anyhow::bail!("--resume-if-present and --resume exclude each other");
            }
        }
        if let Some(m) = self.checkpoint_minutes {
            if !(m.is_finite() && m > 0.0) {
                anyhow::bail!("--checkpoint-minutes {m} must be a positive number of minutes");
            }
            if self.checkpoint.is_none() && self.resume.is_none() {
                anyhow::bail!(
                    "--checkpoint-minutes applies with --checkpoint FILE or --resume FILE"
                );
            }
        }
        if let Some(path) = &self.checkpoint {
            let resumed_here = self.resume_path() == Some(path);
            if let Ok(m) = std::fs::symlink_metadata(path) {
                if !m.file_type().is_file() {
                    anyhow::bail!(
                        "--checkpoint {}: not a regular file (refusing to replace it)",
                        path.display()
                    );
                }
                if !resumed_here {
                    anyhow::bail!(
                        "--checkpoint {} exists: continue it with --resume {0}, or remove it",
                        path.display()
                    );
                }
            }
            let dir = match path.parent() {
                Some(d) if !d.as_os_str().is_empty() => d,
                _ => std::path::Path::new("."),
            };
            if !dir.is_dir() {
                anyhow::bail!(
                    "--checkpoint {}: the folder {} does not exist",
                    path.display(),
                    dir.display()
                );
            }
        }
        if let Some(path) = self.resume_path() {
            if !path.is_file() {
                anyhow::bail!("--resume {}: no such checkpoint file", path.display());
            }
            let found = gosolve::table::checkpoint_identity_of(path)?;
            let expected = gosolve::search::checkpoint_identity(pos, question)?;
            if found != expected {
                return Err(gosolve::table::CheckpointError::Identity {
                    path: path.clone(),
                    found,
                    expected,
                }
                .into());
            }
        }
        Ok(())
    }

    /// The plan for `solver` (where to save, under the run's identity), if any: the file
    /// of --checkpoint, else that of --resume.
    #[must_use]
    pub fn plan(
        &self,
        solver: &Solver,
        root: &impl Root,
        question: &str,
    ) -> Option<Arc<Checkpoint>> {
        let path = self.checkpoint.as_ref().or(self.resume.as_ref())?;
        Some(Arc::new(Checkpoint::new(
            path.clone(),
            solver.checkpoint_identity(root, question),
            Duration::from_secs_f64(self.checkpoint_minutes.unwrap_or(DEFAULT_MINUTES) * 60.0),
        )))
    }

    /// Reads --resume into `solver`'s table, checked against the run's identity, and says
    /// what it held on stderr (unless `quiet`).
    ///
    /// # Errors
    /// A missing, damaged or foreign checkpoint, in one line.
    pub fn resume(
        &self,
        solver: &mut Solver,
        root: &impl Root,
        question: &str,
        quiet: bool,
    ) -> anyhow::Result<()> {
        let Some(path) = self.resume_path() else {
            return Ok(());
        };
        let identity = solver.checkpoint_identity(root, question);
        let info = solver.load_checkpoint(path, &identity)?;
        if !quiet {
            eprintln!(
                "resumed from {}: {} proofs and {} unproven entries ({:.1} MiB){}",
                path.display(),
                info.proofs,
                info.entries - info.proofs,
                info.bytes as f64 / f64::from(1 << 20),
                if info.dropped > 0 {
                    format!(", {} left out by a smaller table", info.dropped)
                } else {
                    String::new()
                }
            );
        }
        Ok(())
    }
}

/// Saves the final checkpoint of a run that stops (answered, out of budget or
/// interrupted), and says so on stderr (unless `quiet`).
///
/// # Errors
/// The write failed (a full disk): the last good checkpoint is still in place.
pub fn save_final(solver: &Solver, plan: Option<&Checkpoint>, quiet: bool) -> anyhow::Result<()> {
    let Some(plan) = plan else {
        return Ok(());
    };
    let info = solver.save_checkpoint(plan)?;
    if !quiet {
        eprintln!(
            "checkpoint {}: {} proofs and {} unproven entries ({:.1} MiB)",
            plan.path.display(),
            info.proofs,
            info.entries - info.proofs,
            info.bytes as f64 / f64::from(1 << 20)
        );
    }
    Ok(())
}
