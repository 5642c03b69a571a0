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

use crate::board::Bitboard;
use games::Player;
#[cfg(loom)]
use loom::sync::atomic::AtomicU64;
#[cfg(not(loom))]
use std::sync::atomic::AtomicU64;
use std::sync::atomic::Ordering::Relaxed;

/// Proof and disproof numbers are saturating 64-bit counts; this is "infinity".
pub const INF: u64 = u64::MAX;

/// One table entry (64 bytes of state), as assembled from a bucket's header and body.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Entry {
    key: u64,
    sig1: u64,
    sig2: u64,
    /// Unproven: φ (proof number of the mover). Proven: Bloom filter of B_w(T).
    word_a: u64,
    /// Unproven: δ (disproof number of the mover). Proven: common stones.
    word_b: u64,
    /// Proven: territory (bits 0..32) and minimum stone count (bits 32..40).
    word_c: u64,
    /// Proven position entry: pos2; proven path entry with one target: the target board;
    /// shared unproven entry: pos2.
    word_d: u64,
    /// Expansions spent below this node, saturating (replacement priority).
    effort: u32,
    /// Komi of the question, in half-points.
    komi2: i16,
    /// Best move in the canonical frame (255 = pass, 254 = none).
    best: u8,
    /// Bits 0–1: state (0 empty, 1 unproven, 2 mover wins, 3 mover loses); bit 2: White to
    /// move; bit 3: position entry (transferable proof); bit 4: one exclusion target (in
    /// word d); bit 5: several exclusion targets, or a symmetry merge; bit 6: shared unproven.
    flags: u8,
}

const STATE_MASK: u8 = 0b11;
const EMPTY: u8 = 0;
const UNPROVEN: u8 = 1;
const WIN: u8 = 2;
const LOSS: u8 = 3;
const WHITE_TO_MOVE: u8 = 0b100;
const POSITION: u8 = 0b1000;
const EXCL_ONE: u8 = 0b1_0000;
const EXCL_MANY: u8 = 0b10_0000;
/// An unproven entry shared by every path to its position (kept in the position bucket,
/// matched by key and pos2 in word d; sig1/sig2 are the last writer's path).
const SHARED: u8 = 0b100_0000;
/// "No best move" in an entry.
pub const NO_MOVE: u8 = 254;

/// The seal's key, independent of every Zobrist key and signature mixer.
const SEAL_KEY: u64 = 0xD6E8_FEB8_6659_FD93;

/// The seal of an entry: a non-linear 32-bit hash of its other words (multiply and
/// xor-shift rounds keyed by [`SEAL_KEY`]). A slot torn by two concurrent writers holds
/// words of both; it matches its seal only by chance (2^-32), and a mismatch reads as a miss.
#[inline]
fn seal(words: [u64; 8]) -> u64 {
    let mut h = SEAL_KEY;
    for w in words {
        h = (h ^ w).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        h ^= h >> 31;
    }
    h = h.wrapping_mul(0xBF58_476D_1CE4_E5B9);
    (h ^ (h >> 29)) >> 32
}

/// The header word of a slot: effort (bits 0..32), komi2 as `i8` (32..40), flags (40..48),
/// best move (48..56), minimum stone count (56..64).
#[inline]
fn meta_of(e: &Entry) -> u64 {
    u64::from(e.effort)
        | u64::from(e.komi2 as i8 as u8) << 32
        | u64::from(e.flags) << 40
        | u64::from(e.best) << 48
        | ((e.word_c >> 32) & 0xFF) << 56
}

#[inline]
const fn meta_flags(meta: u64) -> u8 {
    (meta >> 40) as u8
}

#[inline]
const fn meta_state(meta: u64) -> u8 {
    meta_flags(meta) & STATE_MASK
}

/// Takes an entry with `flags` that leaves its slot out of the proof counts of `stats`
/// (`proven_used`, `transferable_used`; nothing for numbers).
#[inline]
fn uncount_proof(stats: &mut TableStats, flags: u8) {
    if matches!(flags & STATE_MASK, WIN | LOSS) {
        stats.proven_used = stats.proven_used.wrapping_sub(1);
        if flags & POSITION != 0 {
            stats.transferable_used = stats.transferable_used.wrapping_sub(1);
        }
    }
}

#[inline]
const fn meta_effort(meta: u64) -> u32 {
    meta as u32
}

/// Four entries in four cache lines of 64-bit atomic words: a header line with every entry's
/// key and header word (effort, komi, flags, best move, minimum stone count), then the four
/// bodies. A probe that misses reads only the header line. No locks: every word is written
/// and read with relaxed atomic operations, and the seal in the body's word c tells a torn
/// slot from a whole one.
///
/// ```text
///   line 0   key[4] (32 B) · meta[4] (32 B)
///   1..4     body[4]: sig1, sig2, words a, b, c (territory | seal << 32), d (48 B each)
/// ```
#[repr(C, align(64))]
#[derive(Default)]
struct Bucket {
    key: [AtomicU64; 4],
    meta: [AtomicU64; 4],
    body: [[AtomicU64; 6]; 4],
}

#[cfg(not(loom))]
const _: () = assert!(std::mem::size_of::<Bucket>() == 256);
#[cfg(not(loom))]
const _: () = assert!(std::mem::offset_of!(Bucket, body) == 64);

/// Where the entries of a bucket with a given key are.
struct Matches {
    entries: [Entry; 4],
    slots: [u8; 4],
    len: usize,
}

impl Matches {
    fn iter(&self) -> impl Iterator<Item = (usize, Entry)> + '_ {
        (0..self.len).map(|j| (usize::from(self.slots[j]), self.entries[j]))
    }
}

impl Bucket {
    /// The state of slot `i` and whether it is in use with key `key` (header line only).
    #[inline]
    fn has_key(&self, i: usize, key: u64) -> bool {
        meta_state(self.meta[i].load(Relaxed)) != EMPTY && self.key[i].load(Relaxed) == key
    }

    /// The slots in use with key `key` and their entries (bodies read only for those); a
    /// torn slot (seal mismatch) is left out and counted in `torn`.
    #[inline]
    fn with_key(&self, key: u64, torn: &mut u64) -> Matches {
        let mut m = Matches {
            entries: [Entry::default(); 4],
            slots: [0; 4],
            len: 0,
        };
        for i in 0..4 {
            if self.has_key(i, key) {
                match self.get(i) {
                    Some(e) if e.key == key => {
                        m.entries[m.len] = e;
                        m.slots[m.len] = i as u8;
                        m.len += 1;
                    }
                    Some(_) => {}
                    None => *torn += 1,
                }
            }
        }
        m
    }

    /// The entry in slot `i`, or `None` if its words fail the seal (a torn write).
    #[inline]
    fn get(&self, i: usize) -> Option<Entry> {
        let b = &self.body[i];
        let key = self.key[i].load(Relaxed);
        let meta = self.meta[i].load(Relaxed);
        let w = [
            b[0].load(Relaxed),
            b[1].load(Relaxed),
            b[2].load(Relaxed),
            b[3].load(Relaxed),
            b[4].load(Relaxed),
            b[5].load(Relaxed),
        ];
        if meta_state(meta) == EMPTY {
            return Some(Entry::default());
        }
        let territory = w[4] & 0xFFFF_FFFF;
        if seal([key, meta, w[0], w[1], w[2], w[3], territory, w[5]]) != w[4] >> 32 {
            return None;
        }
        Some(Entry {
            key,
            sig1: w[0],
            sig2: w[1],
            word_a: w[2],
            word_b: w[3],
            word_c: territory | (meta >> 56) << 32,
            word_d: w[5],
            effort: meta_effort(meta),
            komi2: i16::from((meta >> 32) as u8 as i8),
            best: (meta >> 48) as u8,
            flags: meta_flags(meta),
        })
    }

    #[inline]
    fn set(&self, i: usize, e: &Entry, tear: bool) {
        let meta = meta_of(e);
        let territory = e.word_c & 0xFFFF_FFFF;
        let s = seal([
            e.key, meta, e.sig1, e.sig2, e.word_a, e.word_b, territory, e.word_d,
        ]);
        let words = [
            e.sig1,
            e.sig2,
            e.word_a,
            e.word_b,
            territory | s << 32,
            e.word_d,
        ];
        let b = &self.body[i];
        for (j, w) in words.into_iter().enumerate() {
            // Fault injection: a torn write leaves one word of the old entry in place.
            if tear && j == (e.key as usize ^ e.sig1 as usize) % 6 {
                continue;
            }
            b[j].store(w, Relaxed);
        }
        self.meta[i].store(meta, Relaxed);
        self.key[i].store(e.key, Relaxed);
    }

    #[inline]
    fn clear_slot(&self, i: usize) {
        self.meta[i].store(0, Relaxed);
    }
}

/// The identity of a node in the table (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct NodeKey {
    /// Canonical position key.
    pub key: u64,
    /// Second-key-set hash of the canonical position.
    pub pos2: u64,
    /// First history signature (canonical frame).
    pub sig1: u64,
    /// Second history signature (canonical frame).
    pub sig2: u64,
    /// The canonicalising symmetry (maps the current frame to the canonical one).
    pub sym: u8,
}

/// The exclusion targets of a stored path-specific proof.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StoredTargets {
    /// None (a transferable proof, or a path-specific one for another reason).
    None,
    /// Exactly one: this board (canonical frame, Black in bits 0..32, White in 32..64).
    One(u64),
    /// Several, or a proof that relied on a symmetry merge: treat every earlier board as one.
    Many,
}

/// The attributes of a proof in packed form (canonical frame, see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PackedAttrs {
    /// Bloom filter of the canonical hashes of B_w(T).
    pub bloom: u64,
    /// Common stones of B_w(T): Black in bits 0..32, White in 32..64.
    pub common: u64,
    /// Certified territory (bits 0..32).
    pub territory: u32,
    /// Minimum stone count over B_w(T) (255 when B_w(T) is empty).
    pub min_stones: u8,
    /// Exclusion targets (path entries only).
    pub targets: StoredTargets,
}

impl PackedAttrs {
    /// The attributes of a proof with no winner's boards, territory or targets (a terminal
    /// leaf).
    pub const LEAF: PackedAttrs = PackedAttrs {
        bloom: 0,
        common: u64::MAX,
        territory: 0,
        min_stones: u8::MAX,
        targets: StoredTargets::None,
    };

    /// Attributes that make every transfer test fail (for boards where they cannot be packed).
    pub const OPAQUE: PackedAttrs = PackedAttrs {
        bloom: u64::MAX,
        common: 0,
        territory: u32::MAX,
        min_stones: 0,
        targets: StoredTargets::Many,
    };
}

/// A proof found by a probe.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Found {
    /// Whether the mover wins.
    pub mover_wins: bool,
    /// Best move code (canonical frame), [`NO_MOVE`] if none.
    pub best: u8,
    /// The proof's attributes.
    pub attrs: PackedAttrs,
    /// Whether it is a position entry found in a different superko game, which the caller
    /// must accept only after the transfer test.
    pub needs_test: bool,
    /// The komi (half-points) the proof was stored at: the strongest komi it holds for its
    /// winner (Black's wins hold at every lower komi, White's at every higher one).
    pub komi2: i32,
}

/// What a probe found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Probe {
    /// No usable entry.
    Miss,
    /// A proof that the side to move wins or loses at the asked komi.
    Proven(Found),
    /// Heuristic numbers of an unproven node at the same komi.
    Unproven {
        /// φ, in `1..INF`.
        pn: u64,
        /// δ, in `1..INF`.
        dn: u64,
        /// Best move code (canonical frame).
        best: u8,
        /// Expansions spent below the node so far.
        effort: u64,
    },
}

/// Counters of table use.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TableStats {
    /// Lookups.
    pub probes: u64,
    /// Lookups that returned a proof.
    pub proven_hits: u64,
    /// Lookups that returned numbers of an unproven node.
    pub unproven_hits: u64,
    /// Of `unproven_hits`: shared numbers of another komi (cross-komi numbers).
    pub cross_komi_hits: u64,
    /// Stores.
    pub stores: u64,
    /// Stores that evicted a different node.
    pub evictions: u64,
    /// Slots in use.
    pub used: u64,
    /// Slots in use holding proofs.
    pub proven_used: u64,
    /// Slots in use holding transferable proofs (position entries).
    pub transferable_used: u64,
    /// Slots whose words failed their seal (torn by concurrent writes) and read as misses.
    pub torn_reads: u64,
}

impl TableStats {
    /// Adds another searcher's counts. The occupancy counters (`used`, `proven_used`,
    /// `transferable_used`) are per-searcher deltas kept with wrapping arithmetic, so that
    /// their sum over the threads is the occupancy (exact with one thread; with several, two
    /// writers racing for one slot may both count it).
    pub fn add(&mut self, o: &TableStats) {
        self.probes += o.probes;
        self.proven_hits += o.proven_hits;
        self.unproven_hits += o.unproven_hits;
        self.cross_komi_hits += o.cross_komi_hits;
        self.stores += o.stores;
        self.evictions += o.evictions;
        self.used = self.used.wrapping_add(o.used);
        self.proven_used = self.proven_used.wrapping_add(o.proven_used);
        self.transferable_used = self.transferable_used.wrapping_add(o.transferable_used);
        self.torn_reads += o.torn_reads;
    }

    /// The sum clamped to what can be: a negative occupancy (a race) reads as 0.
    #[must_use]
    pub fn settled(mut self) -> TableStats {
        for v in [
            &mut self.used,
            &mut self.proven_used,
            &mut self.transferable_used,
        ] {
            if *v > i64::MAX as u64 {
                *v = 0;
            }
        }
        self
    }
}

/// The transposition table, shared by every thread of a search: probes and stores take
/// `&self` and use no locks (see [`Bucket`] and the seal).
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
struct ProofFaults {
    kind: Option<FaultKind>,
    /// Per 2^32 chances.
    rate: u32,
    state: AtomicU64,
    injected: AtomicU64,
    /// (position key, second position hash) → (path signature, found proof).
    path_proofs: std::sync::Mutex<std::collections::HashMap<(u64, u64), (u64, Found)>>,
}

impl std::fmt::Debug for Table {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Table({} buckets)", self.buckets.len())
    }
}

/// Whether a proof "the mover `mover` wins (or loses) at komi `stored`" decides the question
/// at komi `asked`: Black's wins hold at every lower komi, White's at every higher one.
#[must_use]
#[inline]
fn applies(mover: Player, mover_wins: bool, stored: i32, asked: i32) -> bool {
    let black_wins = (mover == Player::Black) == mover_wins;
    if black_wins {
        asked <= stored
    } else {
        asked >= stored
    }
}

/// Fault-injection hook codes ([`Table::fault`]; `FaultKind as u8` in that build).
const TRANSFER: u8 = 0;
const REVERSED: u8 = 2;

/// What [`Table::store`] writes.
#[derive(Clone, Copy, Debug)]
pub enum StoreKind {
    /// Heuristic numbers (φ, δ), both in `1..INF`.
    Unproven(u64, u64),
    /// A proof (mover wins or loses) reusable only in the identical superko game.
    PathProof(bool, PackedAttrs),
    /// A transferable proof (no exclusion target).
    PositionProof(bool, PackedAttrs),
}

impl Entry {
    #[inline]
    fn same_path(&self, k: &NodeKey) -> bool {
        self.flags & STATE_MASK != EMPTY
            && self.flags & (POSITION | SHARED) == 0
            && self.key == k.key
            && self.sig1 == k.sig1
            && self.sig2 == k.sig2
    }

    #[inline]
    fn same_position(&self, k: &NodeKey) -> bool {
        self.flags & POSITION != 0 && self.key == k.key && self.word_d == k.pos2
    }

    #[inline]
    fn shared_of(&self, k: &NodeKey) -> bool {
        self.flags & SHARED != 0 && self.key == k.key && self.word_d == k.pos2
    }

    fn attrs(&self) -> PackedAttrs {
        PackedAttrs {
            bloom: self.word_a,
            common: self.word_b,
            territory: self.word_c as u32,
            min_stones: (self.word_c >> 32) as u8,
            targets: if self.flags & EXCL_MANY != 0 {
                StoredTargets::Many
            } else if self.flags & EXCL_ONE != 0 {
                StoredTargets::One(self.word_d)
            } else {
                StoredTargets::None
            },
        }
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
    fn fault(&self, kind: u8) -> bool {
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
    fn other_path_fault(&self, k: &NodeKey, mover: Player, komi2: i32) -> Option<Found> {
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
    fn note_path_proof(&self, k: &NodeKey, f: Found) {
        #[cfg(feature = "fault-injection")]
        if self.faults.kind == Some(FaultKind::OtherPath) {
            if let Ok(mut map) = self.faults.path_proofs.lock() {
                map.insert((k.key, k.pos2), (k.sig1, f));
            }
        }
    }

    #[inline]
    fn tear(&self) -> bool {
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

    /// Starts recording the slots that stores write, for [`Table::close_journal`] (a store
    /// then also takes a lock: meant for short searches).
    pub fn open_journal(&mut self) {
        self.journal = Some(std::sync::Mutex::new(Vec::new()));
    }

    /// Stops recording; with `forget`, empties every slot stored to since
    /// [`Table::open_journal`], proofs and numbers alike, so that the search recorded leaves
    /// the table as it found it but for the entries it overwrote (an earlier search's, of
    /// the same node or a least-worked one), which are not restored. The occupancy counts
    /// in `stats` go down by what was emptied; returns the slots emptied.
    pub fn close_journal(&mut self, forget: bool, stats: &mut TableStats) -> u64 {
        let Some(journal) = self.journal.take() else {
            return 0;
        };
        if !forget {
            return 0;
        }
        let mut slots = journal.into_inner().unwrap_or_else(|e| e.into_inner());
        slots.sort_unstable();
        slots.dedup();
        let mut emptied = 0;
        for (b, i) in slots {
            let bucket = &self.buckets[b];
            let i = usize::from(i);
            let flags = meta_flags(bucket.meta[i].load(Relaxed));
            if flags & STATE_MASK == EMPTY {
                continue;
            }
            uncount_proof(stats, flags);
            stats.used = stats.used.wrapping_sub(1);
            bucket.clear_slot(i);
            emptied += 1;
        }
        emptied
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

    /// Looks up a node for the question "does the mover win at komi `komi2` half-points".
    ///
    /// Path entries of the identical game come first (skipped when `path` is false); then
    /// position entries, each offered to
    /// `accept` (the transfer test, called with the proof's attributes and whether the mover
    /// wins) unless it was stored in the identical game. With `transfer` false, position
    /// entries are not consulted. A slot that fails its seal reads as a miss. Counts go to
    /// `stats` (the caller's, one per thread).
    #[allow(clippy::too_many_arguments)]
    pub fn probe(
        &self,
        k: &NodeKey,
        mover: Player,
        komi2: i32,
        path: bool,
        transfer: bool,
        stats: &mut TableStats,
        mut accept: impl FnMut(&PackedAttrs, bool) -> bool,
    ) -> Probe {
        stats.probes += 1;
        let mut found = Probe::Miss;
        if path {
            let b = &self.buckets[self.path_bucket(k)];
            for (_, e) in b
                .with_key(k.key, &mut stats.torn_reads)
                .iter()
                .filter(|(_, e)| e.same_path(k))
            {
                let state = e.flags & STATE_MASK;
                if state == WIN || state == LOSS {
                    if applies(mover, state == WIN, i32::from(e.komi2), komi2) {
                        stats.proven_hits += 1;
                        return Probe::Proven(Found {
                            mover_wins: (state == WIN) != self.fault(REVERSED),
                            best: e.best,
                            attrs: e.attrs(),
                            needs_test: false,
                            komi2: i32::from(e.komi2),
                        });
                    }
                } else if i32::from(e.komi2) == komi2 {
                    found = Probe::Unproven {
                        pn: e.word_a.clamp(1, INF - 1),
                        dn: e.word_b.clamp(1, INF - 1),
                        best: e.best,
                        effort: u64::from(e.effort),
                    };
                }
            }
        }
        if let Some(f) = self.other_path_fault(k, mover, komi2) {
            return Probe::Proven(f);
        }
        if !(transfer || self.share_unproven && found == Probe::Miss) {
            if found != Probe::Miss {
                stats.unproven_hits += 1;
            }
            return found;
        }
        let pos = self.buckets[self.position_bucket(k)].with_key(k.key, &mut stats.torn_reads);
        let mut other_komi = false;
        if self.share_unproven && found == Probe::Miss {
            // This komi's numbers, else (cross-komi) those of the komi last searched.
            let shared = |exact: bool| {
                pos.iter()
                    .find(|(_, e)| e.shared_of(k) && (!exact || i32::from(e.komi2) == komi2))
            };
            let exact = shared(true);
            other_komi = exact.is_none() && self.cross_komi;
            if let Some((_, e)) = exact.or_else(|| if other_komi { shared(false) } else { None }) {
                found = Probe::Unproven {
                    pn: e.word_a.clamp(1, INF - 1),
                    dn: e.word_b.clamp(1, INF - 1),
                    best: e.best,
                    effort: u64::from(e.effort),
                };
            }
        }
        if transfer {
            for (_, e) in pos.iter().filter(|(_, e)| e.same_position(k)) {
                let state = e.flags & STATE_MASK;
                let wins = state == WIN;
                if !applies(mover, wins, i32::from(e.komi2), komi2) {
                    continue;
                }
                let identical = e.sig1 == k.sig1 && e.sig2 == k.sig2;
                let attrs = e.attrs();
                if identical || accept(&attrs, wins) || self.fault(TRANSFER) {
                    stats.proven_hits += 1;
                    return Probe::Proven(Found {
                        mover_wins: wins != self.fault(REVERSED),
                        best: e.best,
                        attrs,
                        needs_test: !identical,
                        komi2: i32::from(e.komi2),
                    });
                }
            }
        }
        if found != Probe::Miss {
            stats.unproven_hits += 1;
            stats.cross_komi_hits += u64::from(other_komi);
        }
        found
    }

    /// Starts loading the node's buckets into the cache (the path bucket if `path`, the
    /// position bucket if `transfer`), so that several children's misses overlap.
    #[inline]
    pub fn prefetch(&self, k: &NodeKey, path: bool, transfer: bool) {
        if path {
            prefetch_bucket(&self.buckets[self.path_bucket(k)]);
        }
        if transfer || self.share_unproven {
            prefetch_bucket(&self.buckets[self.position_bucket(k)]);
        }
    }

    /// Whether any path entry (any komi, proven or not) of the node is stored: a node never
    /// seen before has, but for rare transpositions, no stored children either.
    #[must_use]
    pub fn seen(&self, k: &NodeKey) -> bool {
        let mut torn = 0;
        let b = &self.buckets[self.path_bucket(k)];
        b.with_key(k.key, &mut torn)
            .iter()
            .any(|(_, e)| e.same_path(k))
            || (self.share_unproven && {
                let b = &self.buckets[self.position_bucket(k)];
                b.with_key(k.key, &mut torn)
                    .iter()
                    .any(|(_, e)| e.shared_of(k) && e.sig1 == k.sig1 && e.sig2 == k.sig2)
            })
    }

    /// Stores a node's numbers or proof for the question at `komi2`. `effort` is the total
    /// expansions spent below the node so far. A position proof also removes the node's
    /// unproven path entry at the same komi. Unproven numbers never replace a proof of the
    /// same node at the same komi (another thread may have proven it meanwhile). A proof at a
    /// komi outside `i8` (boards above 63 points) is not stored.
    #[allow(clippy::too_many_arguments)]
    pub fn store(
        &self,
        k: &NodeKey,
        mover: Player,
        komi2: i32,
        what: StoreKind,
        best: u8,
        effort: u64,
        stats: &mut TableStats,
    ) {
        stats.stores += 1;
        let is_proof = !matches!(what, StoreKind::Unproven(..));
        if i8::try_from(komi2).is_err() && is_proof {
            return;
        }
        let komi2 = komi2.clamp(i32::from(i8::MIN), i32::from(i8::MAX)) as i16;
        let side = if mover == Player::White {
            WHITE_TO_MOVE
        } else {
            0
        };
        let effort = effort.min(u64::from(u32::MAX)) as u32;
        let proof_entry = |wins: bool, a: &PackedAttrs, position: bool| {
            let mut flags = if wins { WIN } else { LOSS } | side;
            let mut word_d = 0;
            if position {
                flags |= POSITION;
                word_d = k.pos2;
            } else {
                match a.targets {
                    StoredTargets::None => {}
                    StoredTargets::One(b) => {
                        flags |= EXCL_ONE;
                        word_d = b;
                    }
                    StoredTargets::Many => flags |= EXCL_MANY,
                }
            }
            Entry {
                key: k.key,
                sig1: k.sig1,
                sig2: k.sig2,
                word_a: a.bloom,
                word_b: a.common,
                word_c: u64::from(a.territory) | (u64::from(a.min_stones) << 32),
                word_d,
                effort,
                komi2,
                best,
                flags,
            }
        };
        let shared = self.share_unproven;
        let (entry, position) = match what {
            StoreKind::Unproven(pn, dn) => (
                Entry {
                    key: k.key,
                    sig1: k.sig1,
                    sig2: k.sig2,
                    word_a: pn,
                    word_b: dn,
                    word_c: 0,
                    word_d: if shared { k.pos2 } else { 0 },
                    effort,
                    komi2,
                    best,
                    flags: UNPROVEN | side | if shared { SHARED } else { 0 },
                },
                shared,
            ),
            StoreKind::PathProof(w, a) => {
                self.note_path_proof(
                    k,
                    Found {
                        mover_wins: w,
                        best,
                        attrs: a,
                        needs_test: false,
                        komi2: i32::from(komi2),
                    },
                );
                (proof_entry(w, &a, false), false)
            }
            StoreKind::PositionProof(w, a) => (proof_entry(w, &a, true), true),
        };
        let mut torn = 0;
        if position && is_proof && !shared {
            // The node's unproven numbers at this komi are obsolete.
            let b = &self.buckets[self.path_bucket(k)];
            for (i, _) in b.with_key(k.key, &mut torn).iter().filter(|(_, e)| {
                e.same_path(k) && e.flags & STATE_MASK == UNPROVEN && e.komi2 == komi2
            }) {
                b.clear_slot(i);
                stats.used = stats.used.wrapping_sub(1);
            }
        }
        let state = entry.flags & STATE_MASK;
        let idx = if position {
            self.position_bucket(k)
        } else {
            self.path_bucket(k)
        };
        let bucket = &self.buckets[idx];
        // 1. The same node: overwrite its entry for this komi, or an unproven one of another komi.
        let mut slot = None;
        for (i, e) in bucket.with_key(k.key, &mut torn).iter() {
            let es = e.flags & STATE_MASK;
            if position {
                // A newer proof of the position at this komi replaces the older one (and
                // a shared unproven entry at this komi, now obsolete); new shared numbers
                // replace the old ones.
                let replace = if state == UNPROVEN {
                    // Shared numbers replace the position's shared numbers (any komi).
                    e.shared_of(k)
                } else {
                    (e.same_position(k) || e.shared_of(k)) && e.komi2 == komi2
                };
                if replace {
                    slot = Some(i);
                    break;
                }
            } else if e.same_path(k) {
                if state == UNPROVEN && es != UNPROVEN && e.komi2 == komi2 {
                    // Proven meanwhile by another thread: keep the proof.
                    return;
                }
                if e.komi2 == komi2 || es == UNPROVEN {
                    slot = Some(i);
                    break;
                }
            }
        }
        // 2. Otherwise an empty slot, else the one with the least effort (unproven first).
        let i = slot.unwrap_or_else(|| {
            let mut best_i = 0;
            let mut best_p = u64::MAX;
            for i in 0..4 {
                let meta = bucket.meta[i].load(Relaxed);
                let es = meta_state(meta);
                let p = if es == EMPTY {
                    0
                } else {
                    1 + (u64::from(meta_effort(meta)) << 1) + u64::from(es != UNPROVEN)
                };
                if p < best_p {
                    best_p = p;
                    best_i = i;
                }
            }
            best_i
        });
        // What the slot held (a torn one counts as an eviction of a proof-free slot).
        let old = bucket.get(i).unwrap_or(Entry {
            flags: UNPROVEN,
            ..Entry::default()
        });
        let old_state = old.flags & STATE_MASK;
        if old_state == EMPTY {
            stats.used = stats.used.wrapping_add(1);
        } else if old.key != k.key
            || if old.flags & (POSITION | SHARED) != 0 {
                old.word_d != k.pos2
            } else {
                old.sig1 != k.sig1 || old.sig2 != k.sig2
            }
        {
            stats.evictions += 1;
        }
        uncount_proof(stats, old.flags);
        if state != UNPROVEN {
            stats.proven_used = stats.proven_used.wrapping_add(1);
            if position {
                stats.transferable_used = stats.transferable_used.wrapping_add(1);
            }
        }
        stats.torn_reads += torn;
        bucket.set(i, &entry, self.tear());
        if let Some(j) = &self.journal {
            j.lock()
                .unwrap_or_else(|e| e.into_inner())
                .push((idx, i as u8));
        }
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

/// A cache prefetch hint for the header line of a bucket (all a missing probe reads).
#[inline]
#[allow(unsafe_code)]
fn prefetch_bucket(b: &Bucket) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch is only a hint: it cannot fault, and it neither reads nor writes
    // anything the program can observe. The address is that of a live bucket.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
            std::ptr::from_ref(b).cast(),
        );
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = b;
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

#[cfg(test)]
mod tests {
    use super::*;

    fn key(k: u64, s1: u64, s2: u64) -> NodeKey {
        NodeKey {
            key: k,
            pos2: k.rotate_left(7) ^ 0x55,
            sig1: s1,
            sig2: s2,
            sym: 0,
        }
    }

    fn probe(t: &mut Table, k: &NodeKey, mover: Player, komi2: i32) -> Probe {
        t.probe(
            k,
            mover,
            komi2,
            true,
            true,
            &mut TableStats::default(),
            |_, _| true,
        )
    }

    fn store(
        t: &Table,
        k: &NodeKey,
        mover: Player,
        komi2: i32,
        what: StoreKind,
        best: u8,
        effort: u64,
    ) {
        t.store(
            k,
            mover,
            komi2,
            what,
            best,
            effort,
            &mut TableStats::default(),
        );
    }

    const A: PackedAttrs = PackedAttrs::LEAF;

    #[test]
    fn a_forgetting_journal_empties_every_slot_stored_to_while_open() {
        let mut t = Table::new(1);
        let mut stats = TableStats::default();
        let before = key(10, 1, 1);
        let unproven = |pn, dn| StoreKind::Unproven(pn, dn);
        t.store(&before, Player::Black, 1, unproven(3, 4), 0, 5, &mut stats);
        t.open_journal();
        let (a, b) = (key(11, 2, 2), key(12, 3, 3));
        t.store(&a, Player::Black, 1, unproven(5, 6), 0, 5, &mut stats);
        t.store(&b, Player::White, 1, unproven(7, 8), 0, 5, &mut stats);
        t.store(
            &b,
            Player::White,
            1,
            StoreKind::PositionProof(true, A),
            2,
            9,
            &mut stats,
        );
        assert_eq!(
            (stats.used, stats.proven_used, stats.transferable_used),
            (3, 1, 1)
        );
        // a's numbers and b's position proof (which emptied b's path numbers when stored).
        assert_eq!(t.close_journal(true, &mut stats), 2);
        assert_eq!(
            (stats.used, stats.proven_used, stats.transferable_used),
            (1, 0, 0)
        );
        assert_eq!(probe(&mut t, &a, Player::Black, 1), Probe::Miss);
        assert_eq!(probe(&mut t, &b, Player::White, 1), Probe::Miss);
        // Stored before the journal opened: kept.
        assert!(matches!(
            probe(&mut t, &before, Player::Black, 1),
            Probe::Unproven { pn: 3, dn: 4, .. }
        ));
        // A journal closed without forgetting, or none open, empties nothing.
        t.open_journal();
        t.store(&a, Player::Black, 1, unproven(5, 6), 0, 5, &mut stats);
        assert_eq!(t.close_journal(false, &mut stats), 0);
        assert_eq!(t.close_journal(true, &mut stats), 0);
        assert!(matches!(
            probe(&mut t, &a, Player::Black, 1),
            Probe::Unproven { pn: 5, dn: 6, .. }
        ));
    }

    #[test]
    fn path_proofs_need_all_three_words() {
        let mut t = Table::new(1);
        let a = key(1, 2, 3);
        store(
            &t,
            &a,
            Player::Black,
            1,
            StoreKind::PathProof(true, A),
            7,
            10,
        );
        let Probe::Proven(f) = probe(&mut t, &a, Player::Black, 1) else {
            panic!("no proof")
        };
        assert!(f.mover_wins && f.best == 7 && !f.needs_test);
        assert_eq!(probe(&mut t, &key(1, 2, 4), Player::Black, 1), Probe::Miss);
        assert_eq!(probe(&mut t, &key(1, 5, 3), Player::Black, 1), Probe::Miss);
        assert_eq!(probe(&mut t, &key(9, 2, 3), Player::Black, 1), Probe::Miss);
    }

    #[test]
    fn position_proofs_go_through_the_transfer_test_in_other_games() {
        let mut t = Table::new(1);
        let a = key(1, 2, 3);
        store(
            &t,
            &a,
            Player::White,
            5,
            StoreKind::PositionProof(false, A),
            3,
            10,
        );
        // The identical game: no test.
        let r = t.probe(
            &a,
            Player::White,
            5,
            true,
            true,
            &mut TableStats::default(),
            |_, _| panic!("tested"),
        );
        assert!(matches!(
            r,
            Probe::Proven(Found {
                needs_test: false,
                mover_wins: false,
                ..
            })
        ));
        // Another game: the test decides, and is told whether the mover wins.
        let other = key(1, 8, 9);
        let mut told = None;
        let r = t.probe(
            &other,
            Player::White,
            5,
            true,
            true,
            &mut TableStats::default(),
            |_, w| {
                told = Some(w);
                false
            },
        );
        assert_eq!((r, told), (Probe::Miss, Some(false)));
        let r = t.probe(
            &other,
            Player::White,
            5,
            true,
            true,
            &mut TableStats::default(),
            |_, _| true,
        );
        assert!(matches!(
            r,
            Probe::Proven(Found {
                needs_test: true,
                ..
            })
        ));
        // Transfer off: position entries are not consulted.
        assert_eq!(
            t.probe(
                &other,
                Player::White,
                5,
                true,
                false,
                &mut TableStats::default(),
                |_, _| true
            ),
            Probe::Miss
        );
        // The second position hash must match too.
        let mut wrong = other;
        wrong.pos2 ^= 1;
        assert_eq!(probe(&mut t, &wrong, Player::White, 5), Probe::Miss);
    }

    /// Stores a proof of `k` with `what` (Black to move, komi 1.5) and reads its attributes
    /// back through the probe of `read`.
    fn round_trip(t: &mut Table, k: &NodeKey, what: StoreKind, read: &NodeKey) -> PackedAttrs {
        store(t, k, Player::Black, 3, what, 1, 1);
        let Probe::Proven(f) = probe(t, read, Player::Black, 3) else {
            panic!("no proof")
        };
        f.attrs
    }

    #[test]
    fn attributes_round_trip() {
        let mut t = Table::new(1);
        let a = key(4, 5, 6);
        let attrs = PackedAttrs {
            bloom: 0xF0F0,
            common: pack_pair(Bitboard(0b101), Bitboard(0b1000)),
            territory: 0b11_0000,
            min_stones: 4,
            targets: StoredTargets::One(pack_pair(Bitboard(1), Bitboard(2))),
        };
        assert_eq!(
            round_trip(&mut t, &a, StoreKind::PathProof(false, attrs), &a),
            attrs
        );
        let many = PackedAttrs {
            targets: StoredTargets::Many,
            ..attrs
        };
        assert_eq!(
            round_trip(&mut t, &a, StoreKind::PathProof(false, many), &a),
            many
        );
        let plain = PackedAttrs {
            targets: StoredTargets::None,
            ..attrs
        };
        let (b, other_game) = (key(7, 5, 6), key(7, 0, 0));
        let got = round_trip(
            &mut t,
            &b,
            StoreKind::PositionProof(true, plain),
            &other_game,
        );
        assert_eq!(got, plain);
        assert_eq!(
            unpack_pair(pack_pair(Bitboard(7), Bitboard(9))),
            (Bitboard(7), Bitboard(9))
        );
    }

    #[test]
    fn proofs_are_monotone_in_komi() {
        let mut t = Table::new(1);
        let a = key(10, 20, 30);
        // Black to move wins at komi 3.5 (7 half-points): also at lower komi.
        store(
            &t,
            &a,
            Player::Black,
            7,
            StoreKind::PathProof(true, A),
            1,
            1,
        );
        assert!(matches!(
            probe(&mut t, &a, Player::Black, 5),
            Probe::Proven(Found {
                mover_wins: true,
                ..
            })
        ));
        assert_eq!(probe(&mut t, &a, Player::Black, 9), Probe::Miss);
        // White to move loses at komi 3.5: Black wins, also at lower komi.
        let b = key(11, 21, 31);
        store(
            &t,
            &b,
            Player::White,
            7,
            StoreKind::PositionProof(false, A),
            1,
            1,
        );
        assert!(matches!(
            probe(&mut t, &b, Player::White, 3),
            Probe::Proven(Found {
                mover_wins: false,
                ..
            })
        ));
        assert_eq!(probe(&mut t, &b, Player::White, 9), Probe::Miss);
    }

    #[test]
    fn unproven_numbers_are_never_zero_or_infinite_and_make_way_for_proofs() {
        let mut t = Table::new(1);
        let a = key(1, 1, 1);
        let mut stats = TableStats::default();
        t.store(
            &a,
            Player::Black,
            1,
            StoreKind::Unproven(5, 6),
            0,
            1,
            &mut stats,
        );
        assert_eq!(
            probe(&mut t, &a, Player::Black, 1),
            Probe::Unproven {
                pn: 5,
                dn: 6,
                best: 0,
                effort: 1
            }
        );
        assert_eq!(
            probe(&mut t, &a, Player::Black, 3),
            Probe::Miss,
            "numbers are per komi"
        );
        assert!(t.seen(&a));
        t.store(
            &a,
            Player::Black,
            1,
            StoreKind::PositionProof(true, A),
            0,
            2,
            &mut stats,
        );
        assert!(!t.seen(&a), "the unproven path entry is removed");
        assert_eq!(stats.settled().used, 1);
    }

    #[test]
    fn unproven_numbers_never_replace_a_proof_of_the_same_node() {
        let t = Table::new(1);
        let a = key(3, 4, 5);
        store(
            &t,
            &a,
            Player::Black,
            1,
            StoreKind::PathProof(true, A),
            2,
            9,
        );
        // Another thread leaves the node with numbers after it was proven.
        store(&t, &a, Player::Black, 1, StoreKind::Unproven(5, 6), 0, 3);
        let mut stats = TableStats::default();
        let r = t.probe(&a, Player::Black, 1, true, true, &mut stats, |_, _| true);
        assert!(matches!(
            r,
            Probe::Proven(Found {
                mover_wins: true,
                ..
            })
        ));
    }

    /// Shared numbers at another komi: returned only with cross-komi numbers on, only when
    /// the asked komi has none of its own, counted apart, and never as a proof; a proof of
    /// the position still comes first.
    #[test]
    fn cross_komi_numbers_are_the_fallback_of_shared_ones() {
        for cross in [false, true] {
            let mut t = Table::new(1);
            t.set_share_unproven(true);
            t.set_cross_komi(cross);
            assert_eq!(t.cross_komi(), cross);
            let a = key(31, 32, 33);
            // Searched at komi 3 (half-points) along one history.
            store(&t, &a, Player::Black, 3, StoreKind::Unproven(5, 6), 4, 20);
            // Asked at komi 5 along another history of the same position.
            let other = key(31, 40, 41);
            let mut stats = TableStats::default();
            let r = t.probe(&other, Player::Black, 5, true, true, &mut stats, |_, _| {
                true
            });
            if cross {
                assert_eq!(
                    r,
                    Probe::Unproven {
                        pn: 5,
                        dn: 6,
                        best: 4,
                        effort: 20
                    }
                );
                assert_eq!((stats.unproven_hits, stats.cross_komi_hits), (1, 1));
            } else {
                assert_eq!(r, Probe::Miss);
                assert_eq!((stats.unproven_hits, stats.cross_komi_hits), (0, 0));
            }
            // The komi's own numbers are preferred, and are not counted as another komi's.
            store(
                &t,
                &other,
                Player::Black,
                5,
                StoreKind::Unproven(50, 60),
                2,
                30,
            );
            let mut stats = TableStats::default();
            let r = t.probe(&a, Player::Black, 5, true, true, &mut stats, |_, _| true);
            assert!(matches!(r, Probe::Unproven { pn: 50, dn: 60, .. }));
            assert_eq!(stats.cross_komi_hits, 0);
            // A different position never lends its numbers.
            assert_eq!(
                probe(&mut t, &key(99, 32, 33), Player::Black, 3),
                Probe::Miss
            );
            // A transferable proof at komi 5 replaces the shared numbers there: it answers
            // komi 5, and lends no numbers to komi 7 (Black's win at 5 says nothing there).
            store(
                &t,
                &a,
                Player::Black,
                5,
                StoreKind::PositionProof(true, A),
                1,
                40,
            );
            assert_eq!(probe(&mut t, &other, Player::Black, 7), Probe::Miss);
            assert!(matches!(
                probe(&mut t, &other, Player::Black, 5),
                Probe::Proven(Found {
                    mover_wins: true,
                    ..
                })
            ));
        }
    }

    /// Two entries written word by word into one slot, interleaved in every way a reader
    /// can see them: every mixture of their words is rejected by the seal, and each whole
    /// entry is read back.
    #[test]
    fn every_mixture_of_two_writes_reads_as_a_miss() {
        let k = key(21, 22, 23);
        let attrs = PackedAttrs {
            bloom: 0xFEED,
            common: pack_pair(Bitboard(0b11), Bitboard(0b100)),
            territory: 0b1000,
            min_stones: 3,
            targets: StoredTargets::One(pack_pair(Bitboard(1), Bitboard(8))),
        };
        let entries = [
            (StoreKind::PathProof(true, attrs), 1, 7u8),
            (StoreKind::Unproven(40, 2), 3, 9u8),
        ];
        // The eight words of each entry as the slot holds them.
        let words_of = |what: StoreKind, komi2: i32, best: u8| {
            let t = Table::new(1);
            store(&t, &k, Player::White, komi2, what, best, 5);
            let b = &t.buckets[t.path_bucket(&k)];
            let i = (0..4).find(|&i| b.has_key(i, k.key)).unwrap();
            let mut w = [
                b.key[i].load(Relaxed),
                b.meta[i].load(Relaxed),
                0,
                0,
                0,
                0,
                0,
                0,
            ];
            for j in 0..6 {
                w[2 + j] = b.body[i][j].load(Relaxed);
            }
            w
        };
        let a = words_of(entries[0].0, entries[0].1, entries[0].2);
        let b = words_of(entries[1].0, entries[1].1, entries[1].2);
        let t = Table::new(1);
        let bucket = &t.buckets[0];
        let mut rejected = 0;
        for mask in 0u32..256 {
            for j in 0..8 {
                let w = if mask & 1 << j != 0 { b[j] } else { a[j] };
                match j {
                    0 => bucket.key[0].store(w, Relaxed),
                    1 => bucket.meta[0].store(w, Relaxed),
                    _ => bucket.body[0][j - 2].store(w, Relaxed),
                }
            }
            let got = bucket.get(0);
            // Words the two entries share (the key, the signatures) can come from either.
            let same_as_a = (0..8).all(|j| mask & 1 << j == 0 || a[j] == b[j]);
            let same_as_b = (0..8).all(|j| mask & 1 << j != 0 || a[j] == b[j]);
            if same_as_a || same_as_b {
                assert!(got.is_some(), "a whole entry is read back (mask {mask:#b})");
            } else {
                assert_eq!(got, None, "a mixture reads as a miss (mask {mask:#b})");
                rejected += 1;
            }
        }
        assert!(rejected > 200, "{rejected} mixtures");
    }

    #[test]
    fn tables_written_by_several_threads_are_whole_and_empty() {
        // 3 MiB = 12,288 buckets: five writers leave an uneven last share.
        for writers in [1, 2, 5, 64] {
            let t = Table::with_writers(3, writers);
            assert_eq!(t.capacity(), Table::new(3).capacity(), "{writers} writers");
            for b in &t.buckets {
                for i in 0..4 {
                    assert_eq!(b.key[i].load(Relaxed), 0);
                    assert_eq!(b.meta[i].load(Relaxed), 0);
                    assert!(b.body[i].iter().all(|w| w.load(Relaxed) == 0));
                }
            }
        }
        assert_eq!(
            Table::with_writers(0, 8).capacity(),
            Table::new(0).capacity()
        );
    }

    #[test]
    fn resident_size_matches() {
        let t = Table::new(3);
        assert!(t.bytes() <= 3 << 20 && t.bytes() > (3 << 20) - 256);
    }
}

/// Model tests of the probe/store protocol under loom (`RUSTFLAGS="--cfg loom" cargo test -p
/// gosolve --lib loom`): every interleaving of two writers and a reader on one slot, within
/// loom's preemption bound, and loom's choice of the value each relaxed load returns among the
/// stores it may see. A read must be a miss or one whole entry that was written, never a
/// mixture and never another key's proof.
#[cfg(all(test, loom))]
mod loom_model {
    use super::*;
    use loom::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering::SeqCst};

    fn model(f: impl Fn() + Sync + Send + 'static) {
        let mut b = loom::model::Builder::new();
        b.preemption_bound = Some(3);
        b.check(f);
    }

    fn entry(key: u64, state: u8, a: u64, komi2: i16, best: u8) -> Entry {
        Entry {
            key,
            sig1: key ^ 0x1111,
            sig2: key ^ 0x2222,
            word_a: a,
            word_b: a.rotate_left(17),
            word_c: (3 << 32) | 0b1010,
            word_d: a ^ 0x5555,
            effort: 9,
            komi2,
            best,
            flags: state,
        }
    }

    fn key(k: u64) -> NodeKey {
        NodeKey {
            key: k,
            pos2: k.rotate_left(7) ^ 0x55,
            sig1: k ^ 3,
            sig2: k ^ 4,
            sym: 0,
        }
    }

    #[test]
    fn loom_a_read_during_a_write_sees_the_old_entry_the_new_one_or_a_miss() {
        static TORN: AtomicUsize = AtomicUsize::new(0);
        model(|| {
            let b = Arc::new(Bucket::default());
            let (e0, e1) = (
                entry(7, WIN, 0xAAAA, 1, 3),
                entry(7, UNPROVEN, 0xBBBB, 5, 4),
            );
            b.set(0, &e0, false);
            let w = {
                let b = Arc::clone(&b);
                loom::thread::spawn(move || b.set(0, &e1, false))
            };
            let got = b.get(0);
            assert!(
                got.is_none() || got == Some(e0) || got == Some(e1),
                "a read during a write is a miss or a whole entry: {got:?}"
            );
            if got.is_none() {
                TORN.fetch_add(1, SeqCst);
            }
            w.join().unwrap();
            assert_eq!(b.get(0), Some(e1), "after the write the slot holds it");
        });
        assert!(
            TORN.load(SeqCst) > 0,
            "the model never produced a torn read, so it did not test the seal"
        );
    }

    #[test]
    fn loom_two_writes_at_once_leave_one_whole_entry_or_a_torn_slot() {
        static TORN: AtomicUsize = AtomicUsize::new(0);
        model(|| {
            let b = Arc::new(Bucket::default());
            let (e1, e2) = (entry(7, WIN, 0xAAAA, 1, 3), entry(7, LOSS, 0xBBBB, 5, 4));
            let w = {
                let b = Arc::clone(&b);
                loom::thread::spawn(move || b.set(0, &e1, false))
            };
            b.set(0, &e2, false);
            w.join().unwrap();
            let last = b.get(0);
            assert!(
                last.is_none() || last == Some(e1) || last == Some(e2),
                "after both writes the slot holds one of them or reads torn: {last:?}"
            );
            if last.is_none() {
                TORN.fetch_add(1, SeqCst);
            }
        });
        assert!(
            TORN.load(SeqCst) > 0,
            "the model never interleaved the two writes, so it did not test the seal"
        );
    }

    #[test]
    fn loom_a_probe_during_a_store_returns_what_was_stored_for_its_key_or_a_miss() {
        model(|| {
            let t = Arc::new(Table::new(0)); // one bucket: every entry collides
            let attrs = PackedAttrs::LEAF;
            let (ka, kb) = (key(40), key(41));
            let s = &mut TableStats::default();
            t.store(
                &kb,
                Player::Black,
                1,
                StoreKind::PathProof(false, attrs),
                9,
                5,
                s,
            );
            let w = {
                let t = Arc::clone(&t);
                loom::thread::spawn(move || {
                    let s = &mut TableStats::default();
                    t.store(
                        &ka,
                        Player::Black,
                        1,
                        StoreKind::PathProof(true, attrs),
                        7,
                        5,
                        s,
                    );
                })
            };
            let check = |k: &NodeKey, wins: bool, best: u8, must: bool| {
                let s = &mut TableStats::default();
                match t.probe(k, Player::Black, 1, true, true, s, |_, _| true) {
                    Probe::Miss => assert!(!must, "key {}'s proof was lost", k.key),
                    Probe::Proven(f) => assert!(
                        f.mover_wins == wins && f.best == best,
                        "key {} read another entry's proof: {f:?}",
                        k.key
                    ),
                    other => panic!("key {} read numbers nobody stored: {other:?}", k.key),
                }
            };
            check(&ka, true, 7, false);
            check(&kb, false, 9, true);
            w.join().unwrap();
            check(&ka, true, 7, true);
            check(&kb, false, 9, true);
        });
    }
}
