//! The fixed-size transposition table of the depth-first algorithms, and position keys.
//!
//! # Keys and repetition
//! For games that cannot repeat a position (`Game::can_repeat() == false`: every game in
//! `games` except Go) the key is `Game::hash`, the Zobrist hash of the position. For games
//! that can, the key is a hash of the **whole state** (`std::hash::Hash` of `Game::State`,
//! which must then hold the history the rules look at, e.g. earlier boards for superko).
//! Equal states have equal legal moves and outcomes, and every game ends within
//! `max_game_length` plies, so the graph of states is acyclic and a result stored under a
//! state key is valid wherever that state is reached again: no graph-history interaction.
//! (Keying such a game by position alone would be unsound, which is why it is never done.)
//!
//! # Layout
//! Buckets of 4 entries of 24 bytes; the bucket is chosen by the high bits of the key
//! (multiply-shift), and a new entry replaces, in order: the same key, an empty slot, the
//! unsolved entry with the least work, the solved entry with the least work. Work is the
//! number of expansions spent below the node when it was stored.

use games::Game;
use std::hash::{Hash, Hasher};

/// The key of a state (never 0, which marks empty slots).
pub(crate) fn position_key<G: Game>(game: &G, state: &G::State) -> u64 {
    let k = if game.can_repeat() {
        // SipHash with fixed keys: deterministic across runs.
        #[allow(deprecated)]
        let mut h = std::hash::SipHasher::new();
        state.hash(&mut h);
        h.finish()
    } else {
        game.hash(state)
    };
    if k == 0 { 1 } else { k }
}

/// One entry, packed in three words so that a zeroed table comes from the allocator's
/// zeroed pages (no 256 MiB memset per proof):
///
/// ```text
/// word 0: key (0 = empty)
/// word 1: φ (low 32 bits) | δ (high 32 bits)
/// word 2: work, expansions below the node when stored (saturating at u32::MAX)
/// ```
type Entry = [u64; 3];

const _: () = assert!(std::mem::size_of::<Entry>() == 24);
const BUCKET: usize = 4;

const fn solved(e: &Entry) -> bool {
    let (phi, delta) = (e[1] as u32, (e[1] >> 32) as u32);
    phi == 0 || delta == 0
}

/// What a lookup returns.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Stored {
    pub phi: u32,
    pub delta: u32,
}

pub(crate) struct Table {
    entries: Vec<Entry>,
    buckets: usize,
    pub used: u64,
}

impl Table {
    /// A table of `mib` MiB (at least one bucket).
    pub fn new(mib: usize) -> Self {
        let buckets = ((mib << 20) / (BUCKET * std::mem::size_of::<Entry>())).max(1);
        Self {
            entries: vec![[0u64; 3]; buckets * BUCKET],
            buckets,
            used: 0,
        }
    }

    #[cfg(test)]
    pub const fn bytes(&self) -> usize {
        self.buckets * BUCKET * std::mem::size_of::<Entry>()
    }

    fn bucket(&self, key: u64) -> usize {
        ((u128::from(key) * self.buckets as u128) >> 64) as usize * BUCKET
    }

    pub fn lookup(&self, key: u64) -> Option<Stored> {
        let b = self.bucket(key);
        self.entries[b..b + BUCKET]
            .iter()
            .find(|e| e[0] == key)
            .map(|e| Stored {
                phi: e[1] as u32,
                delta: (e[1] >> 32) as u32,
            })
    }

    pub fn store(&mut self, key: u64, phi: u32, delta: u32, work: u64) {
        let b = self.bucket(key);
        let bucket = &mut self.entries[b..b + BUCKET];
        let slot = if let Some(i) = bucket.iter().position(|e| e[0] == key) {
            i
        } else if let Some(i) = bucket.iter().position(|e| e[0] == 0) {
            self.used += 1;
            i
        } else {
            (0..BUCKET)
                .min_by_key(|&i| (solved(&bucket[i]), bucket[i][2]))
                .unwrap_or(0)
        };
        bucket[slot] = [
            key,
            u64::from(phi) | (u64::from(delta) << 32),
            work.min(u64::from(u32::MAX)),
        ];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_lookup_and_replacement_keep_solved_and_heavy_entries() {
        let mut t = Table::new(0);
        assert_eq!(t.bytes(), 96);
        t.store(11, 0, u32::MAX, 5);
        t.store(12, 4, 4, 100);
        t.store(13, 2, 2, 1);
        t.store(14, 2, 2, 7);
        assert_eq!(t.used, 4);
        t.store(15, 1, 1, 2);
        assert!(t.lookup(13).is_none(), "least-work unsolved entry replaced");
        assert!(t.lookup(11).is_some() && t.lookup(12).is_some() && t.lookup(15).is_some());
        assert_eq!(t.lookup(11).unwrap().phi, 0);
        t.store(12, 9, 9, 101);
        assert_eq!(t.lookup(12).unwrap().phi, 9);
    }
}
