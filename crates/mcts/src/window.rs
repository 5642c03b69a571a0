//! MCPS's cyclic window of recent playouts, as bitsets (Algorithm 2 of the paper).
//!
//! Each move code `c` owns a bitset `B_c` over the `W` slots of the window: bit `p mod W` is
//! set when playout `p` (the whole game from the search root: tree moves and playout moves)
//! contains `c`. Two more bitsets hold the outcome of each slot (Black won; draw). When a
//! playout replaces an older one in its slot, the older one's bits are cleared first.
//!
//! The permutation statistics of a node reached by path codes `a_0 … a_d` are then
//! `V = B_{a_0} ∧ … ∧ B_{a_d}` and, for every code `c`, `n̂_c = |V ∧ B_c|` and
//! `ŵ_c = 2·|V ∧ B_c ∧ Win| + |V ∧ B_c ∧ Draw|` (half-points for Black). The words where `V`
//! is not zero are gathered once with `V ∧ Win` and `V ∧ Draw`, then each `B_c` is read at
//! those words only, with popcounts (the `popcnt` instruction where the CPU has it, detected
//! at run time; the draw term only when a playout under `V` is a draw).
//!
//! Layout: `bits[c · words + k]` is word `k` of `B_c`, `words = ⌈W / 64⌉`.

use crate::stat::Stat;

/// The window of the `W` most recent playouts.
#[derive(Clone, Debug)]
pub struct PlayoutWindow {
    capacity: usize,
    words: usize,
    codes: usize,
    bits: Vec<u64>,
    black_win: Vec<u64>,
    draw: Vec<u64>,
    /// The codes set in each slot, to clear them when the slot is reused.
    slot_codes: Vec<Vec<u32>>,
    /// Playouts pushed since the last clear.
    pushed: u64,
    /// Scratch for the path intersection.
    v: Vec<u64>,
    /// Scratch: the words where `V` is not zero, and there `V`, `V ∧ Win`, `V ∧ Draw`.
    index: Vec<u32>,
    held_v: Vec<u64>,
    held_win: Vec<u64>,
    held_draw: Vec<u64>,
    /// Codes that enter no bitset and no intersection (see [`PlayoutWindow::set_excluded`]).
    excluded: Vec<u32>,
    /// Scratch: a path without its excluded codes.
    kept: Vec<u32>,
}

impl PlayoutWindow {
    /// An empty window of `capacity` (≥ 1) playouts over `codes` move codes.
    #[must_use]
    pub fn new(codes: usize, capacity: usize) -> Self {
        let capacity = capacity.max(1);
        let words = capacity.div_ceil(64);
        PlayoutWindow {
            capacity,
            words,
            codes,
            bits: vec![0; codes * words],
            black_win: vec![0; words],
            draw: vec![0; words],
            slot_codes: vec![Vec::new(); capacity],
            pushed: 0,
            v: vec![0; words],
            index: Vec::with_capacity(words),
            held_v: Vec::with_capacity(words),
            held_win: Vec::with_capacity(words),
            held_draw: Vec::with_capacity(words),
            excluded: Vec::new(),
            kept: Vec::new(),
        }
    }

    /// Codes to leave out: [`push`](Self::push) sets no bit for them and
    /// [`permutation_stats`](Self::permutation_stats) skips them in a path (their own `n̂` is
    /// then 0). Empty by default, as in the paper; MCPS's diagnostic variant without passes
    /// ([`crate::Params::window_passes`]) excludes the pass codes.
    pub fn set_excluded(&mut self, codes: &[u32]) {
        self.excluded.clear();
        self.excluded.extend_from_slice(codes);
    }

    /// Empties the window (at the start of each search: the statistics are over `P(root)`).
    pub fn clear(&mut self) {
        self.bits.fill(0);
        self.black_win.fill(0);
        self.draw.fill(0);
        for s in &mut self.slot_codes {
            s.clear();
        }
        self.pushed = 0;
    }

    /// The number of playouts held (at most the capacity).
    #[must_use]
    pub fn len(&self) -> usize {
        (self.pushed as usize).min(self.capacity)
    }

    /// Whether no playout is held.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.pushed == 0
    }

    /// The capacity W.
    #[must_use]
    pub const fn capacity(&self) -> usize {
        self.capacity
    }

    /// Records a playout: its codes (repetitions allowed) and its reward in half-points for
    /// Black (2, 1 or 0). Replaces the oldest playout when the window is full.
    pub fn push(&mut self, codes: &[u32], reward: u32) {
        let slot = (self.pushed % self.capacity as u64) as usize;
        let (k, bit) = (slot / 64, 1u64 << (slot % 64));
        let old = std::mem::take(&mut self.slot_codes[slot]);
        for &c in &old {
            self.bits[c as usize * self.words + k] &= !bit;
        }
        let mut list = old;
        list.clear();
        for &c in codes {
            if self.excluded.contains(&c) {
                continue;
            }
            let w = &mut self.bits[c as usize * self.words + k];
            if *w & bit == 0 {
                *w |= bit;
                list.push(c);
            }
        }
        self.slot_codes[slot] = list;
        self.black_win[k] &= !bit;
        self.draw[k] &= !bit;
        match reward {
            2 => self.black_win[k] |= bit,
            1 => self.draw[k] |= bit,
            _ => {}
        }
        self.pushed += 1;
    }

    /// The permutation statistics of a node reached by `path` codes, for every code, into
    /// `out` (length `codes`): `out[c] = (n̂, ŵ)` over the held playouts that contain every
    /// path code and `c` (Algorithm 2). An empty path selects every held playout.
    pub fn permutation_stats(&mut self, path: &[u32], out: &mut [Stat]) {
        assert_eq!(out.len(), self.codes);
        let words = self.words;
        let mut kept = std::mem::take(&mut self.kept);
        let path = if self.excluded.is_empty() {
            path
        } else {
            kept.clear();
            kept.extend(path.iter().filter(|c| !self.excluded.contains(c)));
            &kept[..]
        };
        match path.split_first() {
            None => {
                let held = self.len();
                for (k, v) in self.v.iter_mut().enumerate() {
                    let lo = k * 64;
                    *v = if held >= lo + 64 {
                        u64::MAX
                    } else if held > lo {
                        (1u64 << (held - lo)) - 1
                    } else {
                        0
                    };
                }
            }
            Some((&first, rest)) => {
                let f = first as usize * words;
                self.v.copy_from_slice(&self.bits[f..f + words]);
                for &c in rest {
                    let row = &self.bits[c as usize * words..(c as usize + 1) * words];
                    for (v, &b) in self.v.iter_mut().zip(row) {
                        *v &= b;
                    }
                }
            }
        }
        self.kept = kept;
        // The words where `V` is not zero (about a third at a freezing node of NoGo 7×7), with
        // `V`, `V ∧ Win` and `V ∧ Draw` gathered once rather than once per code.
        self.index.clear();
        self.held_v.clear();
        self.held_win.clear();
        self.held_draw.clear();
        for (k, &v) in self.v.iter().enumerate() {
            if v != 0 {
                self.index.push(k as u32);
                self.held_v.push(v);
                self.held_win.push(v & self.black_win[k]);
                self.held_draw.push(v & self.draw[k]);
            }
        }
        let draws = self.held_draw.iter().any(|&x| x != 0);
        let held = Held {
            index: &self.index,
            v: &self.held_v,
            win: &self.held_win,
            draw: &self.held_draw,
        };
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("popcnt") {
            // SAFETY: the CPU has the `popcnt` instruction (checked just above), the only
            // feature `count_rows_popcnt` is compiled for.
            #[allow(unsafe_code)]
            unsafe {
                count_rows_popcnt(&self.bits, words, &held, draws, out);
            }
            return;
        }
        count_rows(&self.bits, words, &held, draws, out);
    }
}

/// The words of the window where `V` is not zero: their indices, and there `V`, `V ∧ Win`
/// and `V ∧ Draw`.
struct Held<'a> {
    index: &'a [u32],
    v: &'a [u64],
    win: &'a [u64],
    draw: &'a [u64],
}

/// `out[c] = (n̂_c, ŵ_c)` for every code row `B_c` of `bits` (`words` words a row):
/// `n̂_c = Σ_k |B_c[k] ∧ V[k]|`, `ŵ_c = 2·Σ_k |B_c[k] ∧ V[k] ∧ Win[k]| + Σ_k |B_c[k] ∧ V[k] ∧
/// Draw[k]|` over the words `k` of `held` (the draw term only when `draws`: zero otherwise).
#[inline(always)]
fn count_rows(bits: &[u64], words: usize, held: &Held<'_>, draws: bool, out: &mut [Stat]) {
    let m = held.index.len();
    let (index, v, win, draw) = (
        &held.index[..m],
        &held.v[..m],
        &held.win[..m],
        &held.draw[..m],
    );
    for (row, o) in bits.chunks_exact(words).zip(out.iter_mut()) {
        let mut n = 0u32;
        let mut b = 0u32;
        let mut d = 0u32;
        for j in 0..m {
            let x = row[index[j] as usize];
            n += (x & v[j]).count_ones();
            b += (x & win[j]).count_ones();
        }
        if draws {
            for j in 0..m {
                d += (row[index[j] as usize] & draw[j]).count_ones();
            }
        }
        *o = Stat { n, w: 2 * b + d };
    }
}

/// [`count_rows`] compiled with the `popcnt` instruction (the default x86-64 target lacks it
/// and counts bits with a dozen shifts and masks a word).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
fn count_rows_popcnt(bits: &[u64], words: usize, held: &Held<'_>, draws: bool, out: &mut [Stat]) {
    count_rows(bits, words, held, draws, out);
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;
    use std::collections::VecDeque;

    /// Brute force: count over an explicit list of the W most recent playouts.
    fn brute(held: &VecDeque<(Vec<u32>, u32)>, path: &[u32], codes: usize) -> Vec<Stat> {
        let mut out = vec![Stat::default(); codes];
        for (p, r) in held {
            if path.iter().all(|c| p.contains(c)) {
                for (c, o) in out.iter_mut().enumerate() {
                    if p.contains(&(c as u32)) {
                        o.add(*r);
                    }
                }
            }
        }
        out
    }

    #[test]
    fn bitset_counts_equal_brute_force_over_the_window() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
        for &(codes, cap) in &[(5usize, 1usize), (12, 64), (20, 100), (9, 130), (30, 257)] {
            let mut w = PlayoutWindow::new(codes, cap);
            let mut held: VecDeque<(Vec<u32>, u32)> = VecDeque::new();
            let mut out = vec![Stat::default(); codes];
            for step in 0..(3 * cap + 17) {
                let len = rng.random_range(0..8);
                let p: Vec<u32> = (0..len)
                    .map(|_| rng.random_range(0..codes as u32))
                    .collect();
                let r = rng.random_range(0..3u32);
                w.push(&p, r);
                held.push_back((p, r));
                if held.len() > cap {
                    held.pop_front();
                }
                assert_eq!(w.len(), held.len());
                if step % 7 == 0 {
                    for plen in 0..3 {
                        let path: Vec<u32> = (0..plen)
                            .map(|_| rng.random_range(0..codes as u32))
                            .collect();
                        w.permutation_stats(&path, &mut out);
                        assert_eq!(
                            out,
                            brute(&held, &path, codes),
                            "codes {codes} cap {cap} step {step} path {path:?}"
                        );
                    }
                }
            }
            w.clear();
            assert!(w.is_empty());
            w.permutation_stats(&[], &mut out);
            assert!(out.iter().all(|s| s.n == 0));
        }
    }

    #[test]
    fn excluded_codes_enter_no_bitset_and_no_intersection() {
        // Code 3 plays the pass: excluded, it is counted nowhere, and a path through it
        // selects the playouts of its other codes.
        let mut w = PlayoutWindow::new(4, 10);
        w.set_excluded(&[3]);
        w.push(&[1, 3, 2], 2);
        w.push(&[1, 3], 0);
        w.push(&[2], 2);
        let mut out = vec![Stat::default(); 4];
        w.permutation_stats(&[1, 3], &mut out);
        assert_eq!(out[1], Stat { n: 2, w: 2 });
        assert_eq!(out[2], Stat { n: 1, w: 2 });
        assert_eq!(out[3], Stat::default());
        // Without the exclusion, the same playouts count the pass like any code.
        let mut all = PlayoutWindow::new(4, 10);
        all.push(&[1, 3, 2], 2);
        all.push(&[1, 3], 0);
        all.push(&[2], 2);
        all.permutation_stats(&[1, 3], &mut out);
        assert_eq!(out[3], Stat { n: 2, w: 2 });
        all.permutation_stats(&[3], &mut out);
        assert_eq!(out[2], Stat { n: 1, w: 2 });
    }

    #[test]
    fn repeated_codes_count_once() {
        let mut w = PlayoutWindow::new(4, 10);
        w.push(&[1, 1, 2, 1], 2);
        w.push(&[1, 3], 0);
        let mut out = vec![Stat::default(); 4];
        w.permutation_stats(&[1], &mut out);
        assert_eq!(out[1], Stat { n: 2, w: 2 });
        assert_eq!(out[2], Stat { n: 1, w: 2 });
        assert_eq!(out[3], Stat { n: 1, w: 0 });
        w.permutation_stats(&[1, 2], &mut out);
        assert_eq!(out[3], Stat::default());
        assert_eq!(out[1], Stat { n: 1, w: 2 });
    }
}
