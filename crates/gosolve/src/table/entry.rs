//! The packed entry: 64 bytes in a bucket of four, sealed against torn writes.

use super::query::{NodeKey, Record, StoreKind};
use games::Player;
#[cfg(loom)]
use loom::sync::atomic::AtomicU64;
#[cfg(not(loom))]
use std::sync::atomic::AtomicU64;
use std::sync::atomic::Ordering::Relaxed;

/// One table entry (64 bytes of state), as assembled from a bucket's header and body.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Entry {
    pub(super) key: u64,
    pub(super) sig1: u64,
    pub(super) sig2: u64,
    /// Unproven: φ (proof number of the mover). Proven: Bloom filter of B_w(T).
    pub(super) word_a: u64,
    /// Unproven: δ (disproof number of the mover). Proven: common stones.
    pub(super) word_b: u64,
    /// Proven: territory (bits 0..32) and minimum stone count (bits 32..40).
    pub(super) word_c: u64,
    /// Proven position entry: pos2; proven path entry with one target: the target board;
    /// shared unproven entry: pos2.
    pub(super) word_d: u64,
    /// Expansions spent below this node, saturating (replacement priority).
    pub(super) effort: u32,
    /// Komi of the question, in half-points.
    pub(super) komi2: i16,
    /// Best move in the canonical frame (255 = pass, 254 = none).
    pub(super) best: u8,
    /// Bits 0–1: state (0 empty, 1 unproven, 2 mover wins, 3 mover loses); bit 2: White to
    /// move; bit 3: position entry (transferable proof); bit 4: one exclusion target (in
    /// word d); bit 5: several exclusion targets, or a symmetry merge; bit 6: shared unproven.
    pub(super) flags: u8,
}

pub(super) const STATE_MASK: u8 = 0b11;

pub(super) const EMPTY: u8 = 0;

pub(super) const UNPROVEN: u8 = 1;

pub(super) const WIN: u8 = 2;

pub(super) const LOSS: u8 = 3;

pub(super) const WHITE_TO_MOVE: u8 = 0b100;

pub(super) const POSITION: u8 = 0b1000;

pub(super) const EXCL_ONE: u8 = 0b1_0000;

pub(super) const EXCL_MANY: u8 = 0b10_0000;

/// An unproven entry shared by every path to its position (kept in the position bucket,
/// matched by key and pos2 in word d; sig1/sig2 are the last writer's path).
pub(super) const SHARED: u8 = 0b100_0000;

/// "No best move" in an entry.
pub const NO_MOVE: u8 = 254;

/// The seal's key, independent of every Zobrist key and signature mixer.
const SEAL_KEY: u64 = 0xD6E8_FEB8_6659_FD93;

/// The seal of an entry: a non-linear 32-bit hash of its other words (multiply and
/// xor-shift rounds keyed by [`SEAL_KEY`]). A slot torn by two concurrent writers holds
/// words of both; it matches its seal only by chance (2^-32), and a mismatch reads as a miss.
#[inline]
pub(super) fn seal(words: [u64; 8]) -> u64 {
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
pub(super) fn meta_of(e: &Entry) -> u64 {
    u64::from(e.effort)
        | u64::from(e.komi2 as i8 as u8) << 32
        | u64::from(e.flags) << 40
        | u64::from(e.best) << 48
        | ((e.word_c >> 32) & 0xFF) << 56
}

#[inline]
pub(super) const fn meta_flags(meta: u64) -> u8 {
    (meta >> 40) as u8
}

#[inline]
pub(super) const fn meta_state(meta: u64) -> u8 {
    meta_flags(meta) & STATE_MASK
}

#[inline]
pub(super) const fn meta_effort(meta: u64) -> u32 {
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
pub(super) struct Bucket {
    pub(super) key: [AtomicU64; 4],
    pub(super) meta: [AtomicU64; 4],
    pub(super) body: [[AtomicU64; 6]; 4],
}

#[cfg(not(loom))]
const _: () = assert!(std::mem::size_of::<Bucket>() == 256);
#[cfg(not(loom))]
const _: () = assert!(std::mem::offset_of!(Bucket, body) == 64);

/// Where the entries of a bucket with a given key are.
pub(super) struct Matches {
    pub(super) entries: [Entry; 4],
    pub(super) slots: [u8; 4],
    pub(super) len: usize,
}

impl Matches {
    pub(super) fn iter(&self) -> impl Iterator<Item = (usize, Entry)> + '_ {
        (0..self.len).map(|j| (usize::from(self.slots[j]), self.entries[j]))
    }
}

impl Bucket {
    /// The state of slot `i` and whether it is in use with key `key` (header line only).
    #[inline]
    pub(super) fn has_key(&self, i: usize, key: u64) -> bool {
        meta_state(self.meta[i].load(Relaxed)) != EMPTY && self.key[i].load(Relaxed) == key
    }

    /// The slots in use with key `key` and their entries (bodies read only for those); a
    /// torn slot (seal mismatch) is left out and counted in `torn`.
    #[inline]
    pub(super) fn with_key(&self, key: u64, torn: &mut u64) -> Matches {
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
    pub(super) fn get(&self, i: usize) -> Option<Entry> {
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
    pub(super) fn set(&self, i: usize, e: &Entry, tear: bool) {
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
    pub(super) fn clear_slot(&self, i: usize) {
        self.meta[i].store(0, Relaxed);
    }
}

impl Entry {
    /// The entry that a store of `r` for node `k` (mover `mover`) writes, and whether it
    /// goes to the node's position bucket (a transferable proof, or numbers when `shared`).
    /// The komi is clamped to `i8` (the caller refuses proofs outside it).
    pub(super) fn encode(k: &NodeKey, mover: Player, r: &Record, shared: bool) -> (Entry, bool) {
        let komi2 = r.komi2.clamp(i32::from(i8::MIN), i32::from(i8::MAX)) as i16;
        let side = if mover == Player::White {
            WHITE_TO_MOVE
        } else {
            0
        };
        let effort = r.effort.min(u64::from(u32::MAX)) as u32;
        let base = Entry {
            key: k.key,
            sig1: k.sig1,
            sig2: k.sig2,
            effort,
            komi2,
            best: r.best,
            ..Entry::default()
        };
        let proof = |wins: bool, a: &PackedAttrs, position: bool| {
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
                word_a: a.bloom,
                word_b: a.common,
                word_c: u64::from(a.territory) | (u64::from(a.min_stones) << 32),
                word_d,
                flags,
                ..base
            }
        };
        match r.what {
            StoreKind::Unproven(pn, dn) => (
                Entry {
                    word_a: pn,
                    word_b: dn,
                    word_d: if shared { k.pos2 } else { 0 },
                    flags: UNPROVEN | side | if shared { SHARED } else { 0 },
                    ..base
                },
                shared,
            ),
            StoreKind::PathProof(w, a) => (proof(w, &a, false), false),
            StoreKind::PositionProof(w, a) => (proof(w, &a, true), true),
        }
    }

    #[inline]
    pub(super) fn same_path(&self, k: &NodeKey) -> bool {
        self.flags & STATE_MASK != EMPTY
            && self.flags & (POSITION | SHARED) == 0
            && self.key == k.key
            && self.sig1 == k.sig1
            && self.sig2 == k.sig2
    }

    #[inline]
    pub(super) fn same_position(&self, k: &NodeKey) -> bool {
        self.flags & POSITION != 0 && self.key == k.key && self.word_d == k.pos2
    }

    #[inline]
    pub(super) fn shared_of(&self, k: &NodeKey) -> bool {
        self.flags & SHARED != 0 && self.key == k.key && self.word_d == k.pos2
    }

    pub(super) fn attrs(&self) -> PackedAttrs {
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
