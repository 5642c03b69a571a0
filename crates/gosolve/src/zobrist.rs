//! Zobrist keys and the non-linear set signatures of histories.
//!
//! # Position keys
//! A position is hashed as the XOR of one key per stone (point × colour), the side-to-move key
//! when White is to move and the pass key when the last move was a pass. The first 62
//! generators (`SIDE`, `PASS`, then black/white of points 0..30) are built to be linearly
//! independent over GF(2) (Gaussian elimination at compile time rejects dependent draws), so on
//! every board of up to 30 points the key is an injective (exact) function of the position: two
//! different positions differ in a non-empty set of generators, whose XOR is non-zero. The test
//! `zobrist_rank` recomputes the rank.
//!
//! # History signatures
//! Under positional superko a node's value depends on the *set* of earlier boards. The table
//! identifies that set by two independent signatures
//!
//! ```text
//!   sig1(H) = Σ_{B∈H} mix1(h1(B))   (mod 2^64)
//!   sig2(H) = Σ_{B∈H} mix2(h2(B))   (mod 2^64)
//! ```
//!
//! where `h1` uses the primary keys, `h2` a second independent key set, and `mix1`, `mix2` are
//! different non-linear 64-bit bijections (multiply–xorshift finalizers). A plain XOR of board
//! keys is linear over GF(2): `{a}`,`{b}` and `{a+b}`,`{empty}` would collide systematically
//! (`h(a) ^ h(b) = h(a∪b) ^ h(∅)`); the mixed sums do not (see the tests).

/// Key of "White to move".
pub const SIDE: u64 = KEYS.side;
/// Key of "the last move was a pass".
pub const PASS: u64 = KEYS.pass;

/// Number of points whose keys are guaranteed linearly independent (with `SIDE` and `PASS`).
pub const EXACT_POINTS: usize = 30;

struct Keys {
    side: u64,
    pass: u64,
    points: [[u64; 2]; 64],
    points2: [[u64; 2]; 64],
}

const fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Inserts `v` into an echelon basis indexed by leading bit; false if `v` depends on it.
const fn insert(basis: &mut [u64; 64], mut v: u64) -> bool {
    while v != 0 {
        let lead = 63 - v.leading_zeros() as usize;
        if basis[lead] == 0 {
            basis[lead] = v;
            return true;
        }
        v ^= basis[lead];
    }
    false
}

const fn independent_draw(state: &mut u64, basis: &mut [u64; 64]) -> u64 {
    loop {
        let v = splitmix(state);
        if insert(basis, v) {
            return v;
        }
    }
}

const fn build() -> Keys {
    let mut state = 0x7473_756D_6920_676Fu64; // "tsumi go"
    let mut basis = [0u64; 64];
    let side = independent_draw(&mut state, &mut basis);
    let pass = independent_draw(&mut state, &mut basis);
    let mut points = [[0u64; 2]; 64];
    let mut p = 0;
    while p < 64 {
        let mut c = 0;
        while c < 2 {
            points[p][c] = if p < EXACT_POINTS {
                independent_draw(&mut state, &mut basis)
            } else {
                splitmix(&mut state)
            };
            c += 1;
        }
        p += 1;
    }
    let mut state2 = 0x5369_676E_6174_7572u64; // "Signatur"
    let mut points2 = [[0u64; 2]; 64];
    let mut p = 0;
    while p < 64 {
        points2[p][0] = splitmix(&mut state2);
        points2[p][1] = splitmix(&mut state2);
        p += 1;
    }
    Keys {
        side,
        pass,
        points,
        points2,
    }
}

const KEYS: Keys = build();

/// The primary key of colour `c` (0 black, 1 white) on point index `p`.
#[must_use]
pub const fn point_key(p: usize, c: usize) -> u64 {
    KEYS.points[p][c]
}

/// The second-set key of colour `c` on point index `p` (independent of the primary keys).
#[must_use]
pub const fn point_key2(p: usize, c: usize) -> u64 {
    KEYS.points2[p][c]
}

/// The generators of a board of `n` points in a fixed order: `SIDE`, `PASS`, then black and
/// white of each point.
#[must_use]
pub fn generators(n: usize) -> Vec<u64> {
    let mut v = vec![SIDE, PASS];
    for p in 0..n {
        v.push(point_key(p, 0));
        v.push(point_key(p, 1));
    }
    v
}

/// The rank over GF(2) of a set of 64-bit vectors (Gaussian elimination).
#[must_use]
pub fn gf2_rank(vectors: &[u64]) -> usize {
    let mut basis = [0u64; 64];
    vectors.iter().filter(|&&v| insert(&mut basis, v)).count()
}

/// First non-linear mix (murmur3's finalizer on a salted input); a bijection of u64.
#[must_use]
#[inline]
pub const fn mix1(x: u64) -> u64 {
    let mut z = x ^ 0x2545_F491_4F6C_DD1D;
    z ^= z >> 33;
    z = z.wrapping_mul(0xFF51_AFD7_ED55_8CCD);
    z ^= z >> 33;
    z = z.wrapping_mul(0xC4CE_B9FE_1A85_EC53);
    z ^ (z >> 33)
}

/// Second non-linear mix (a different multiply–xorshift finalizer); a bijection of u64.
#[must_use]
#[inline]
pub const fn mix2(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x632B_E59B_D9B4_E019);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z = z.rotate_left(23).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zobrist_rank() {
        for n in 1..=EXACT_POINTS {
            let g = generators(n);
            assert_eq!(
                gf2_rank(&g),
                g.len(),
                "generators of {n} points are dependent"
            );
        }
        // The keys beyond 30 points are not promised independent: 64 points have 130 keys.
        assert!(gf2_rank(&generators(64)) <= 64);
    }

    #[test]
    fn mixes_are_not_linear() {
        // A linear map f would satisfy f(a^b) = f(a)^f(b)^f(0).
        let (a, b) = (point_key(0, 0), point_key(1, 1));
        assert_ne!(mix1(a ^ b), mix1(a) ^ mix1(b) ^ mix1(0));
        assert_ne!(mix2(a ^ b), mix2(a) ^ mix2(b) ^ mix2(0));
    }
}
