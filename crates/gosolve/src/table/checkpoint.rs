//! Checkpoints: the table's proofs, and the numbers of its most-worked unproven nodes,
//! written to a file and read back, so that a run of hours survives a kill, a reboot or a
//! full disk.
//!
//! # Why this is sound
//! A proof entry states a fact about one node (a canonical position with one set of earlier
//! boards, or a position with the attributes of the transfer test) at one komi; it holds in
//! any later search of the same board under the same keys, whatever the question. Unproven
//! numbers only steer the search. So a table filled from a checkpoint answers exactly what
//! the table that wrote it would have answered, and every answer it gives is still checked
//! by the searching thread's own classification ([`crate::search`]). A checkpoint is refused
//! when its identity (the board, the root node and the question, see
//! [`crate::Solver::checkpoint_identity`]) or its format differs, so that a file is never
//! applied to a question it was not written for.
//!
//! # Format (version 1)
//! ```text
//!   line 1   "tsumi-checkpoint 1 gosolve <crate version>"
//!   line 2   the identity (one line)
//!   records  64 bytes each, little-endian: key, sig1, sig2, word a, b, c, d (u64 each),
//!            effort (u32), komi2 (i16), best move (u8), flags (u8) — an [`Entry`]
//!   trailer  "end!", the record count (u64), a 64-bit checksum of the records (12 + 8 bytes)
//! ```
//!
//! # Atomicity
//! The file is written under a temporary name in the same folder, flushed to the disk
//! (`fsync`), then renamed over the target, and the folder is synced: a kill at any moment
//! leaves either the old checkpoint or the new one, never a mixture. A write error (a full
//! disk) removes the temporary file and leaves the last good checkpoint in place. A target
//! that exists and is not a regular file (a device, a folder) is refused.
//!
//! # Concurrency
//! Saving reads the buckets with the same relaxed loads as a probe, while search threads
//! keep writing: a slot torn by a concurrent write fails its seal and is skipped, and every
//! record saved is a whole entry that was in the table during the save.

use super::Table;
use super::entry::{
    EMPTY, Entry, LOSS, POSITION, SHARED, STATE_MASK, UNPROVEN, WIN, meta_effort, meta_state,
};
use super::stats::TableStats;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering::Relaxed;

/// The first line's fixed part; the crate version follows.
const MAGIC: &str = "tsumi-checkpoint 1 gosolve";
/// Bytes of one record.
const RECORD: usize = 64;
/// The trailer's tag.
const END: &[u8; 4] = b"end!";
/// Longest header line read back (an identity is about a hundred bytes).
const MAX_LINE: usize = 4096;

/// What a checkpoint held, or what a save wrote.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CheckpointInfo {
    /// Records (entries) in the file.
    pub entries: u64,
    /// Of those, proofs.
    pub proofs: u64,
    /// Records read that found no room in the table (a smaller table than the writer's).
    pub dropped: u64,
    /// Bytes of the file.
    pub bytes: u64,
}

/// Why a checkpoint could not be written or read.
#[derive(Debug, thiserror::Error)]
pub enum CheckpointError {
    /// An I/O error on the file (missing, unreadable, a full disk…).
    #[error("checkpoint {path}: {source}")]
    Io {
        /// The checkpoint file.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// The target exists and is not a regular file.
    #[error("checkpoint {0}: not a regular file (refusing to replace it)")]
    NotAFile(PathBuf),
    /// The file is not a tsumi checkpoint, or one of another format or version.
    #[error("checkpoint {path}: {found:?} is not a checkpoint of this version ({MAGIC} {version})", version = env!("CARGO_PKG_VERSION"))]
    Format {
        /// The checkpoint file.
        path: PathBuf,
        /// Its first line.
        found: String,
    },
    /// A checkpoint of another board, position or question.
    #[error("checkpoint {path} was written for \"{found}\", not for \"{expected}\"")]
    Identity {
        /// The checkpoint file.
        path: PathBuf,
        /// Its identity.
        found: String,
        /// The identity of this run.
        expected: String,
    },
    /// Truncated, or its records fail the checksum.
    #[error("checkpoint {path}: damaged ({why})")]
    Damaged {
        /// The checkpoint file.
        path: PathBuf,
        /// What is wrong.
        why: &'static str,
    },
}

impl Entry {
    /// The entry as a 64-byte record.
    fn to_record(self) -> [u8; RECORD] {
        let mut r = [0u8; RECORD];
        let words = [
            self.key,
            self.sig1,
            self.sig2,
            self.word_a,
            self.word_b,
            self.word_c,
            self.word_d,
        ];
        for (i, w) in words.iter().enumerate() {
            r[8 * i..8 * i + 8].copy_from_slice(&w.to_le_bytes());
        }
        r[56..60].copy_from_slice(&self.effort.to_le_bytes());
        r[60..62].copy_from_slice(&self.komi2.to_le_bytes());
        r[62] = self.best;
        r[63] = self.flags;
        r
    }

    /// The entry a record holds.
    fn from_record(r: &[u8; RECORD]) -> Self {
        let w = |i: usize| u64::from_le_bytes(r[8 * i..8 * i + 8].try_into().unwrap_or_default());
        Entry {
            key: w(0),
            sig1: w(1),
            sig2: w(2),
            word_a: w(3),
            word_b: w(4),
            word_c: w(5),
            word_d: w(6),
            effort: u32::from_le_bytes(r[56..60].try_into().unwrap_or_default()),
            komi2: i16::from_le_bytes([r[60], r[61]]),
            best: r[62],
            flags: r[63],
        }
    }
}

/// A running checksum of the records (a multiply–xorshift mix of each 8-byte word).
#[derive(Clone, Copy)]
struct Checksum(u64);

impl Checksum {
    fn add(&mut self, record: &[u8; RECORD]) {
        for c in record.chunks_exact(8) {
            let w = u64::from_le_bytes(c.try_into().unwrap_or_default());
            let mut h = (self.0 ^ w).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            h ^= h >> 29;
            self.0 = h.wrapping_add(0xD6E8_FEB8_6659_FD93);
        }
    }
}

/// Replacement priority of an entry when a checkpoint is read into a full bucket (the
/// store's rule: empty, then unproven by effort, then proofs by effort).
fn priority(e: &Entry) -> u64 {
    let state = e.flags & STATE_MASK;
    if state == EMPTY {
        0
    } else {
        1 + (u64::from(e.effort) << 1) + u64::from(state != UNPROVEN)
    }
}

impl Table {
    /// Writes the table's proofs, and its unproven entries with at least `min_effort`
    /// expansions below them, to `path` atomically (see the module docs), under
    /// `identity`. Search threads may keep running meanwhile.
    ///
    /// # Errors
    /// [`CheckpointError::NotAFile`] if `path` exists and is not a regular file;
    /// [`CheckpointError::Io`] on any write error (a full disk), after which the temporary
    /// file is removed and an earlier checkpoint at `path` is unchanged.
    pub fn save_checkpoint(
        &self,
        path: &Path,
        identity: &str,
        min_effort: u32,
    ) -> Result<CheckpointInfo, CheckpointError> {
        if let Ok(m) = std::fs::symlink_metadata(path)
            && !m.file_type().is_file()
        {
            return Err(CheckpointError::NotAFile(path.to_path_buf()));
        }
        let io = |source| CheckpointError::Io {
            path: path.to_path_buf(),
            source,
        };
        let name = path
            .file_name()
            .map_or_else(|| "checkpoint".into(), |n| n.to_string_lossy().into_owned());
        let tmp = path.with_file_name(format!(".{name}.tmp-{}", std::process::id()));
        let write = || -> std::io::Result<CheckpointInfo> {
            let file = std::fs::File::create(&tmp)?;
            let mut w = BufWriter::with_capacity(1 << 20, file);
            writeln!(w, "{MAGIC} {}", env!("CARGO_PKG_VERSION"))?;
            writeln!(w, "{}", identity.replace('\n', " "))?;
            let mut info = CheckpointInfo::default();
            let mut sum = Checksum(0);
            for b in &self.buckets {
                for i in 0..4 {
                    let meta = b.meta[i].load(Relaxed);
                    let state = meta_state(meta);
                    let keep = match state {
                        WIN | LOSS => true,
                        UNPROVEN => meta_effort(meta) >= min_effort,
                        _ => false,
                    };
                    if !keep {
                        continue;
                    }
                    // A slot torn by a concurrent writer fails its seal: skipped.
                    let Some(e) = b.get(i) else { continue };
                    if e.flags & STATE_MASK == EMPTY {
                        continue;
                    }
                    let r = e.to_record();
                    sum.add(&r);
                    w.write_all(&r)?;
                    info.entries += 1;
                    info.proofs += u64::from(e.flags & STATE_MASK != UNPROVEN);
                }
            }
            w.write_all(END)?;
            w.write_all(&info.entries.to_le_bytes())?;
            w.write_all(&sum.0.to_le_bytes())?;
            let file = w
                .into_inner()
                .map_err(std::io::IntoInnerError::into_error)?;
            file.sync_all()?;
            info.bytes = file.metadata()?.len();
            Ok(info)
        };
        let info = match write() {
            Ok(info) => info,
            Err(e) => {
                let _ = std::fs::remove_file(&tmp);
                return Err(io(e));
            }
        };
        if let Err(e) = std::fs::rename(&tmp, path) {
            let _ = std::fs::remove_file(&tmp);
            return Err(io(e));
        }
        // The rename itself reaches the disk with the folder's metadata.
        let dir = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        if let Ok(d) = std::fs::File::open(dir) {
            let _ = d.sync_all();
        }
        Ok(info)
    }

    /// Reads a checkpoint written by [`Table::save_checkpoint`] under `identity` into the
    /// table (each entry into its bucket for this table's size: an empty slot, else the
    /// least-worked one if the entry is worth more). The occupancy counters of `stats` go up
    /// by what was stored.
    ///
    /// # Errors
    /// [`CheckpointError::Io`] if the file cannot be read; [`CheckpointError::Format`] for a
    /// file that is not a checkpoint of this version; [`CheckpointError::Identity`] for one
    /// written for another board, position or question; [`CheckpointError::Damaged`] for a
    /// truncated file or one whose records fail the checksum. The file is checked whole
    /// before any entry is stored, so on an error the table is unchanged.
    pub fn load_checkpoint(
        &mut self,
        path: &Path,
        identity: &str,
        stats: &mut TableStats,
    ) -> Result<CheckpointInfo, CheckpointError> {
        let io = |source| CheckpointError::Io {
            path: path.to_path_buf(),
            source,
        };
        let damaged = |why| CheckpointError::Damaged {
            path: path.to_path_buf(),
            why,
        };
        let file = std::fs::File::open(path).map_err(io)?;
        let bytes = file.metadata().map_err(io)?.len();
        let mut r = BufReader::with_capacity(1 << 20, file);
        let magic = read_line(&mut r).map_err(io)?;
        if magic != format!("{MAGIC} {}", env!("CARGO_PKG_VERSION")) {
            return Err(CheckpointError::Format {
                path: path.to_path_buf(),
                found: magic.chars().take(80).collect(),
            });
        }
        let found = read_line(&mut r).map_err(io)?;
        let expected = identity.replace('\n', " ");
        if found != expected {
            return Err(CheckpointError::Identity {
                path: path.to_path_buf(),
                found,
                expected,
            });
        }
        let header = (magic.len() + found.len() + 2) as u64;
        let body = bytes
            .checked_sub(header + 20)
            .ok_or_else(|| damaged("shorter than its trailer"))?;
        if body % RECORD as u64 != 0 {
            return Err(damaged("its records are cut short"));
        }
        let n = body / RECORD as u64;
        // First pass: the checksum of the whole file, before anything is stored.
        let mut sum = Checksum(0);
        let mut rec = [0u8; RECORD];
        for _ in 0..n {
            r.read_exact(&mut rec).map_err(io)?;
            sum.add(&rec);
        }
        let mut trailer = [0u8; 20];
        r.read_exact(&mut trailer).map_err(io)?;
        if &trailer[..4] != END
            || u64::from_le_bytes(trailer[4..12].try_into().unwrap_or_default()) != n
            || u64::from_le_bytes(trailer[12..20].try_into().unwrap_or_default()) != sum.0
        {
            return Err(damaged("its records fail the checksum"));
        }
        let mut info = CheckpointInfo {
            entries: n,
            bytes,
            ..CheckpointInfo::default()
        };
        // Second pass: the records into the table.
        // (the same open file: a checkpoint renamed over this path meanwhile is not mixed in)
        let mut file = r.into_inner();
        std::io::Seek::seek(&mut file, std::io::SeekFrom::Start(header)).map_err(io)?;
        let mut r = BufReader::with_capacity(1 << 20, file);
        for _ in 0..n {
            r.read_exact(&mut rec).map_err(io)?;
            let e = &Entry::from_record(&rec);
            let state = e.flags & STATE_MASK;
            if state == EMPTY {
                continue;
            }
            info.proofs += u64::from(state != UNPROVEN);
            let idx = if e.flags & (POSITION | SHARED) != 0 {
                self.index_of(e.key)
            } else {
                self.index_of(e.key ^ e.sig1.rotate_left(29))
            };
            let bucket = &self.buckets[idx];
            let (slot, old) = (0..4)
                .map(|i| (i, bucket.get(i).unwrap_or_default()))
                .min_by_key(|(_, old)| priority(old))
                .unwrap_or((0, Entry::default()));
            if priority(&old) >= priority(e) {
                info.dropped += 1;
                continue;
            }
            if old.flags & STATE_MASK == EMPTY {
                stats.used = stats.used.wrapping_add(1);
            } else {
                super::stats::uncount_proof(stats, old.flags);
            }
            if state != UNPROVEN {
                stats.proven_used = stats.proven_used.wrapping_add(1);
                if e.flags & POSITION != 0 {
                    stats.transferable_used = stats.transferable_used.wrapping_add(1);
                }
            }
            bucket.set(slot, e, false);
        }
        Ok(info)
    }
}

/// The identity a checkpoint file was written under, after checking that it is a
/// checkpoint of this version (its records are checked when it is loaded).
///
/// # Errors
/// [`CheckpointError::Io`] if the file cannot be read; [`CheckpointError::Format`] if it is
/// not a checkpoint of this version.
pub fn checkpoint_identity_of(path: &Path) -> Result<String, CheckpointError> {
    let io = |source| CheckpointError::Io {
        path: path.to_path_buf(),
        source,
    };
    let mut r = BufReader::new(std::fs::File::open(path).map_err(io)?);
    let magic = read_line(&mut r).map_err(io)?;
    if magic != format!("{MAGIC} {}", env!("CARGO_PKG_VERSION")) {
        return Err(CheckpointError::Format {
            path: path.to_path_buf(),
            found: magic.chars().take(80).collect(),
        });
    }
    read_line(&mut r).map_err(io)
}

/// One header line (without its newline), at most [`MAX_LINE`] bytes.
fn read_line(r: &mut impl Read) -> std::io::Result<String> {
    let mut line = Vec::new();
    let mut byte = [0u8; 1];
    loop {
        if r.read(&mut byte)? == 0 || byte[0] == b'\n' || line.len() >= MAX_LINE {
            break;
        }
        line.push(byte[0]);
    }
    Ok(String::from_utf8_lossy(&line).into_owned())
}
