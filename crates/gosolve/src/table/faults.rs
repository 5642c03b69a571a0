//! Fault injection (the `fault-injection` feature): torn writes and wrong proofs on purpose,
//! so that tests can show the seal and the checks catch them. Without the feature the hooks
//! compile to nothing.

use super::Table;
#[cfg(feature = "fault-injection")]
use super::query::applies;
use super::query::{Found, NodeKey};
use games::Player;
#[cfg(feature = "fault-injection")]
use std::sync::atomic::AtomicU64;
#[cfg(feature = "fault-injection")]
use std::sync::atomic::Ordering::Relaxed;

/// The kinds of wrong proofs that fault injection makes the table return (Section 8.1 of
/// the Sanko paper: the effects of a signature collision, a collision of twin keys and a
/// corrupted entry).
#[cfg(feature = "fault-injection")]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FaultKind {
    /// A position proof from another superko game that the transfer test rejected is
    /// accepted anyway.
    Transfer,
    /// A path-specific proof of the same position stored on another path (another set of
    /// earlier boards) is returned as if it were this path's.
    OtherPath,
    /// A proof found in the table is returned with its winner reversed.
    Reversed,
}

#[cfg(feature = "fault-injection")]
impl FaultKind {
    /// Every kind, in the order of the report.
    pub const ALL: [FaultKind; 3] = [
        FaultKind::Transfer,
        FaultKind::OtherPath,
        FaultKind::Reversed,
    ];

    /// A short name ("transfer", "other path", "reversed winner").
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            FaultKind::Transfer => "transfer rejected by the test",
            FaultKind::OtherPath => "path proof from another path",
            FaultKind::Reversed => "stored winner reversed",
        }
    }
}

/// The fault-injection state of a table: one kind at a rate, a count of the faults made,
/// and (for [`FaultKind::OtherPath`]) the last path proof stored per position.
#[cfg(feature = "fault-injection")]
#[derive(Default)]
pub(super) struct ProofFaults {
    pub(super) kind: Option<FaultKind>,
    /// Per 2^32 chances.
    pub(super) rate: u32,
    pub(super) state: AtomicU64,
    pub(super) injected: AtomicU64,
    /// (position key, second position hash) → (path signature, found proof).
    pub(super) path_proofs: std::sync::Mutex<std::collections::HashMap<(u64, u64), (u64, Found)>>,
}

/// Fault-injection hook codes ([`Table::fault`]; `FaultKind as u8` in that build).
pub(super) const TRANSFER: u8 = 0;

pub(super) const REVERSED: u8 = 2;

impl Table {
    /// Fault injection: tears `per_million` of every million stores on purpose (one word
    /// of the slot keeps its old value), so that tests can count the torn reads the seal
    /// rejects.
    #[cfg(feature = "fault-injection")]
    pub fn set_tear_rate(&mut self, per_million: u32) {
        self.tear_rate =
            ((u64::from(per_million) << 32) / 1_000_000).min(u64::from(u32::MAX)) as u32;
    }

    /// Fault injection: from now on, at `per_million` of every million chances, the probes
    /// return a wrong proof of `kind` (`None`: no faults); resets the count and seeds the
    /// stream with `seed`.
    #[cfg(feature = "fault-injection")]
    pub fn set_proof_faults(&mut self, kind: Option<FaultKind>, per_million: u32, seed: u64) {
        self.faults.kind = kind;
        self.faults.rate =
            ((u64::from(per_million) << 32) / 1_000_000).min(u64::from(u32::MAX)) as u32;
        self.faults.state = AtomicU64::new(seed | 1);
        self.faults.injected = AtomicU64::new(0);
    }

    /// Fault injection: the wrong proofs returned since [`Table::set_proof_faults`].
    #[cfg(feature = "fault-injection")]
    #[must_use]
    pub fn proof_faults_injected(&self) -> u64 {
        self.faults.injected.load(Relaxed)
    }

    /// Whether to inject a fault of `kind` at this chance (always false without the
    /// fault-injection feature, so that the hooks compile away).
    #[inline]
    #[allow(unused_variables)]
    pub(super) fn fault(&self, kind: u8) -> bool {
        #[cfg(feature = "fault-injection")]
        {
            let f = &self.faults;
            let Some(k) = f.kind else {
                return false;
            };
            if k as u8 != kind || f.rate == 0 {
                return false;
            }
            let mut x = f.state.load(Relaxed);
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            f.state.store(x, Relaxed);
            let hit = (x as u32) < f.rate;
            if hit {
                f.injected.fetch_add(1, Relaxed);
            }
            hit
        }
        #[cfg(not(feature = "fault-injection"))]
        false
    }

    /// Fault injection, [`FaultKind::OtherPath`]: a path proof of this position stored on
    /// another path that applies at `komi2`, at the fault rate.
    #[inline]
    #[allow(unused_variables)]
    pub(super) fn other_path_fault(&self, k: &NodeKey, mover: Player, komi2: i32) -> Option<Found> {
        #[cfg(feature = "fault-injection")]
        {
            if self.faults.kind != Some(FaultKind::OtherPath) {
                return None;
            }
            let found = {
                let map = self.faults.path_proofs.lock().ok()?;
                map.get(&(k.key, k.pos2)).copied()
            };
            if let Some((sig, f)) = found {
                if sig != k.sig1
                    && applies(mover, f.mover_wins, f.komi2, komi2)
                    && self.fault(FaultKind::OtherPath as u8)
                {
                    return Some(f);
                }
            }
            None
        }
        #[cfg(not(feature = "fault-injection"))]
        None
    }

    /// Fault injection: records a path proof for [`FaultKind::OtherPath`].
    #[inline]
    #[allow(unused_variables)]
    pub(super) fn note_path_proof(&self, k: &NodeKey, f: Found) {
        #[cfg(feature = "fault-injection")]
        if self.faults.kind == Some(FaultKind::OtherPath) {
            if let Ok(mut map) = self.faults.path_proofs.lock() {
                map.insert((k.key, k.pos2), (k.sig1, f));
            }
        }
    }

    #[inline]
    pub(super) fn tear(&self) -> bool {
        #[cfg(feature = "fault-injection")]
        {
            if self.tear_rate == 0 {
                return false;
            }
            // A shared xorshift stream; races only make it less regular.
            let mut x = self.tear_state.load(Relaxed);
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            self.tear_state.store(x, Relaxed);
            (x as u32) < self.tear_rate
        }
        #[cfg(not(feature = "fault-injection"))]
        false
    }
}
