//! The transposition table: fixed memory, buckets of four packed entries, replacement by
//! effort, sound under positional superko through proof transfer (Sanko paper, Theorem 1).
//!
//! # Two kinds of identity
//! A node is a position *and* the set of earlier boards. Entries come in two kinds:
//!
//! ```text
//!   path entries      found by (key, sig1, sig2): unproven numbers, and proofs that may be
//!                     reused only in the identical superko game (path-specific proofs)
//!   position entries  found by (key, pos2): transferable proofs, reused on any path that
//!                     passes the transfer test (Algorithm 1), run by the search
//!
//!   key   canonical position key: min over the board's symmetries s of the Zobrist key of
//!         s(position) (exact on boards of up to 30 points, see `zobrist`)
//!   pos2  the second-key-set hash of the same canonical position (a second, independent check)
//!   sig1  Σ mix1(h1(s*(B)))  over the set of earlier boards B (current board included)
//!   sig2  Σ mix2(h2(s*(B)))  the same with independent keys and mixer
//! ```
//!
//! where `s*` is the canonicalising symmetry. Path entries live in the bucket of
//! (key, sig1), position entries in the bucket of key alone. A position entry also keeps the
//! signatures of the game that proved it: in that identical game it is reused without a test.
//!
//! With `share_unproven` (the solver's default) unproven numbers are *shared entries*
//! instead: kept in the position bucket, found by (key, pos2, komi) on any path. Unproven
//! numbers only steer the search (a node is decided only by a proof), so sharing them by
//! position cannot change an answer, only its cost; a transposition reached along another
//! superko history then starts from the numbers found there instead of the prior.
//!
//! A position keeps one shared entry, for the komi it was last searched at. With
//! `cross_komi` (the solver's default) a probe at another komi that finds no numbers of its
//! own starts from those (*cross-komi numbers*): the questions of a komi bisection then
//! start where the previous question left the search instead of from the prior. They
//! steer only, like every unproven number.
//!
//! # What an entry says
//! Answers are in negamax form, from the point of view of the side to move, each for its own
//! winner: "the mover wins at komi k" (also at any komi better for the mover) or "the mover
//! loses at komi k". Unproven entries hold heuristic proof/disproof numbers (never 0 or ∞ when
//! read back) for their own komi only: a false match there can misguide the search but can
//! never prove anything.
//!
//! # Proof attributes (Theorem 1), stored in the canonical frame
//! ```text
//!   word a   Bloom filter (64 bits, two bits per board) of the canonical hashes of B_w(T),
//!            the boards created by the winner's stone moves in the proof
//!   word b   stones common to all boards of B_w(T): Black's in bits 0..32, White's in 32..64
//!   word c   bits 0..32 territory certified at static leaves; bits 32..40 minimum stone count
//!            over B_w(T) (255: B_w(T) is empty)
//!   word d   position entry: pos2. Path entry with one exclusion target: that board (Black in
//!            bits 0..32, White in 32..64)
//! ```
//! Attributes are packed for boards of up to 32 points; on larger boards they are not stored
//! and the search keeps every proof path-specific.
//!
//! # Layout
//! An entry is 64 bytes (key, two signatures, four attribute words, effort, komi, best move and
//! flags). A bucket is four entries, 256 bytes, cache-line aligned, laid out as a header line
//! holding every entry's key, komi, flags, best move and effort, followed by the four bodies
//! (signatures and attribute words): a probe that finds no matching key reads one cache line. Memory is allocated and written at creation, so the resident size is the
//! requested MiB.

mod checkpoint;
#[cfg(test)]
mod direct;
mod entry;
mod faults;
mod journal;
#[cfg(all(test, loom))]
mod loom_model;
mod query;
mod replace;
mod stats;
#[cfg(test)]
mod tests;

pub use checkpoint::{CheckpointError, CheckpointInfo, checkpoint_identity_of};
pub use entry::{NO_MOVE, PackedAttrs, StoredTargets};
#[cfg(feature = "fault-injection")]
pub use faults::FaultKind;
pub use query::{Found, NodeKey, Probe, Query, Record, StoreKind};
pub use stats::TableStats;

use self::entry::Bucket;
#[cfg(feature = "fault-injection")]
use self::faults::ProofFaults;
use crate::board::Bitboard;
#[cfg(feature = "fault-injection")]
use std::sync::atomic::AtomicU64;

/// Proof and disproof numbers are saturating 64-bit counts; this is "infinity".
pub const INF: u64 = vocab::Pn::INF.get();

/// The transposition table, shared by every thread of a search: probes and stores take
/// `&self` and use no locks (see `Bucket` and the seal).
pub struct Table {
    buckets: Vec<Bucket>,
    /// Unproven numbers keyed by the position (any path) instead of the path.
    share_unproven: bool,
    /// With shared numbers: a probe may return those of another komi (cross-komi numbers).
    cross_komi: bool,
    /// While open ([`Table::open_journal`]): every slot stored to, as (bucket, slot).
    journal: Option<std::sync::Mutex<Vec<(usize, u8)>>>,
    /// Fault injection: stores torn on purpose, per 2^32 stores (0: none).
    #[cfg(feature = "fault-injection")]
    tear_rate: u32,
    #[cfg(feature = "fault-injection")]
    tear_state: AtomicU64,
    /// Fault injection: wrong proofs accepted on purpose.
    #[cfg(feature = "fault-injection")]
    faults: ProofFaults,
}

impl std::fmt::Debug for Table {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Table({} buckets)", self.buckets.len())
    }
}

impl Table {
    /// A table of `mib` MiB (at least one bucket), allocated and written at once so that it is
    /// resident.
    #[must_use]
    pub fn new(mib: usize) -> Self {
        Self::with_writers(mib, 1)
    }

    /// [`Table::new`] with the memory written by `writers` threads at once (each its own
    /// share of the buckets): the first touch of a large table is the kernel zeroing its
    /// pages, which runs in parallel (1 GiB took 2.6 s of system time on one thread here).
    #[must_use]
    #[allow(unsafe_code)]
    pub fn with_writers(mib: usize, writers: usize) -> Self {
        let n = ((mib << 20) / std::mem::size_of::<Bucket>()).max(1);
        let mut buckets: Vec<Bucket> = Vec::with_capacity(n);
        advise_huge_pages(&buckets);
        // Written (not just reserved), so that the memory is resident from the start.
        let writers = writers.clamp(1, 64).min(n);
        if writers == 1 {
            buckets.resize_with(n, Bucket::default);
        } else {
            let share = n.div_ceil(writers);
            std::thread::scope(|scope| {
                for chunk in buckets.spare_capacity_mut()[..n].chunks_mut(share) {
                    scope.spawn(move || {
                        for b in chunk {
                            b.write(Bucket::default());
                        }
                    });
                }
            });
            // SAFETY: the scope above initialised every one of the first n slots (the
            // chunks cover them exactly) and joined its threads before this line.
            unsafe { buckets.set_len(n) };
        }
        Table {
            buckets,
            share_unproven: false,
            cross_komi: false,
            journal: None,
            #[cfg(feature = "fault-injection")]
            tear_rate: 0,
            #[cfg(feature = "fault-injection")]
            tear_state: AtomicU64::new(0x9E37_79B9_7F4A_7C15),
            #[cfg(feature = "fault-injection")]
            faults: ProofFaults::default(),
        }
    }

    /// Keeps unproven numbers by position (shared by every path to it) instead of by path.
    /// They only steer the search, so either choice is sound; proofs are unaffected.
    pub fn set_share_unproven(&mut self, on: bool) {
        self.share_unproven = on;
    }

    /// With shared unproven numbers: a probe at a komi with no shared numbers of its own
    /// returns the position's shared numbers of the komi it was last searched at (module
    /// docs, *cross-komi numbers*). Sound for any setting: the numbers only steer.
    pub fn set_cross_komi(&mut self, on: bool) {
        self.cross_komi = on;
    }

    /// Whether a probe may return shared numbers of another komi.
    #[must_use]
    pub fn cross_komi(&self) -> bool {
        self.cross_komi
    }

    /// Bytes held by the entries.
    #[must_use]
    pub fn bytes(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<Bucket>()
    }

    /// Number of slots.
    #[must_use]
    pub fn capacity(&self) -> usize {
        self.buckets.len() * 4
    }

    /// Whether unproven numbers are shared by position.
    #[must_use]
    pub fn shares_unproven(&self) -> bool {
        self.share_unproven
    }

    /// Empties the table (keeps its memory).
    pub fn clear(&mut self) {
        for b in &mut self.buckets {
            *b = Bucket::default();
        }
    }

    #[inline]
    fn index_of(&self, h: u64) -> usize {
        let h = h.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        ((u128::from(h) * self.buckets.len() as u128) >> 64) as usize
    }

    #[inline]
    fn path_bucket(&self, k: &NodeKey) -> usize {
        self.index_of(k.key ^ k.sig1.rotate_left(29))
    }

    #[inline]
    fn position_bucket(&self, k: &NodeKey) -> usize {
        self.index_of(k.key)
    }
}

/// Asks the kernel to back a vector's allocation with transparent huge pages (Linux): a probe
/// then costs one cache miss instead of a cache miss and a page walk. Only the page-aligned
/// part of the allocation is advised; failure is harmless and ignored.
#[cfg(target_os = "linux")]
#[allow(unsafe_code)]
fn advise_huge_pages<T>(v: &Vec<T>) {
    const PAGE: usize = 4096;
    let start = v.as_ptr() as usize;
    let end = start + v.capacity() * std::mem::size_of::<T>();
    let aligned = start.next_multiple_of(PAGE);
    if end > aligned + (2 << 20) {
        // SAFETY: the range lies inside the vector's own allocation, and MADV_HUGEPAGE only
        // changes how the kernel backs those pages, never their contents or their validity.
        unsafe {
            libc::madvise(
                aligned as *mut libc::c_void,
                end - aligned,
                libc::MADV_HUGEPAGE,
            );
        }
    }
}

/// A cache prefetch hint for the cache line at `r`: the header line of a bucket (all a
/// missing probe reads), a set of the region games' memo.
#[inline]
#[allow(unsafe_code)]
pub(crate) fn prefetch_line<T>(r: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch is only a hint: it cannot fault, and it neither reads nor writes
    // anything the program can observe. The address is that of a live value.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
            std::ptr::from_ref(r).cast(),
        );
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = r;
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages<T>(_: &Vec<T>) {}

/// The Bloom bits of a canonical board hash (two of 64).
#[must_use]
#[inline]
pub const fn bloom_bits(h: u64) -> u64 {
    (1u64 << (h & 63)) | (1u64 << ((h >> 6) & 63))
}

/// Packs a pair of bitboards of at most 32 points each into one word (first in bits 0..32).
#[must_use]
#[inline]
pub const fn pack_pair(black: Bitboard, white: Bitboard) -> u64 {
    (black.0 & 0xFFFF_FFFF) | (white.0 << 32)
}

/// The inverse of [`pack_pair`].
#[must_use]
#[inline]
pub const fn unpack_pair(w: u64) -> (Bitboard, Bitboard) {
    (Bitboard(w & 0xFFFF_FFFF), Bitboard(w >> 32))
}
