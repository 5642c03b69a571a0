//! Training examples, Adam, and the two training objectives (Gao et al., Section 3.1).
//!
//! - Policy: maximise `log p(a | s)` of the move `a` played in `s` (softmax over the empty
//!   cells), i.e. minimise the cross-entropy; reported as **top-1 accuracy** (the most
//!   probable empty cell is the move played).
//! - Value: minimise `(z − v(s))²` for the label `z ∈ [−1, 1]` (the mover's result, averaged
//!   over the games through `s`); reported as the **mean squared error**.
//!
//! Both with Adam (Kingma and Ba; β₁ 0.9, β₂ 0.999, ε 1e-8) on shuffled mini-batches. Every
//! random choice (initial weights, shuffles) comes from one [`SplitMix64`] seeded by
//! [`TrainConfig::seed`], and the arithmetic is single-threaded, so a seed gives the same
//! weights bit for bit on one build.
// Index loops over parallel weight, gradient and moment arrays read clearer than zips.
#![allow(clippy::needless_range_loop)]

use crate::features::{PLANES, encode, to_image};
use crate::net::{Kind, Net, Shape};
use games::hex::{Hex, HexMove, HexState};
use games::{Game, Player};

/// SplitMix64 (Steele et al. 2014): the crate's only source of randomness.
#[derive(Clone, Debug)]
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `[0, 1)`.
    pub fn next_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Uniform in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_f64() * n as f64) as usize % n
    }

    /// A standard normal deviate (Box–Muller).
    pub fn normal(&mut self) -> f64 {
        let u = self.next_f64().max(1e-300);
        let v = self.next_f64();
        (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
    }
}

/// One training or test example, from its mover's side.
#[derive(Clone, Debug, PartialEq)]
pub struct Example {
    /// The input planes ([`Shape::input_len`] floats).
    pub input: Vec<f32>,
    /// The empty image cells (bit `y × n + x`).
    pub legal: u128,
    /// The image cell of the move played (policy examples).
    pub target: Option<usize>,
    /// The value label for the mover, in `[−1, 1]`.
    pub value: f32,
    /// Board side.
    pub n: usize,
}

impl Example {
    /// The example of `state` (square board of `game`, at most 11x11) with the move played
    /// there and the mover's value label.
    ///
    /// # Panics
    /// If the board is not square or larger than 11x11, or `played` is not an empty cell.
    #[must_use]
    pub fn new(game: &Hex, state: &HexState, played: Option<HexMove>, value: f32) -> Self {
        let n = game.width();
        assert!(
            n == game.height() && n * n <= 128,
            "square boards up to 11x11"
        );
        let mut input = vec![0.0; PLANES * (n + 2) * (n + 2)];
        encode(game, state, &mut input);
        let mover = game.to_move(state);
        let mut legal = 0u128;
        for cell in 0..n * n {
            if game.stone(state, cell).is_none() {
                legal |= 1 << to_image(cell, n, mover);
            }
        }
        let target = played.map(|m| to_image(game.cell_index(m), n, mover));
        if let Some(t) = target {
            assert!(legal >> t & 1 == 1, "the move played must be an empty cell");
        }
        Self {
            input,
            legal,
            target,
            value,
            n,
        }
    }

    /// The same position turned by 180° (a symmetry of Hex: each player keeps its edges).
    /// In the padded image it reverses each plane, and image cell `p` becomes `n² − 1 − p`.
    #[must_use]
    pub fn rotated(&self) -> Self {
        let s2 = (self.n + 2) * (self.n + 2);
        let cells = self.n * self.n;
        let mut input = self.input.clone();
        for plane in input.chunks_mut(s2) {
            plane.reverse();
        }
        let mut legal = 0u128;
        for p in 0..cells {
            if self.legal >> p & 1 == 1 {
                legal |= 1 << (cells - 1 - p);
            }
        }
        Self {
            input,
            legal,
            target: self.target.map(|t| cells - 1 - t),
            value: self.value,
            n: self.n,
        }
    }
}

/// The best legal image cell of one sample's logits.
#[must_use]
pub fn best_legal(logits: &[f32], legal: u128) -> Option<usize> {
    (0..logits.len())
        .filter(|&p| legal >> p & 1 == 1)
        .max_by(|&a, &b| logits[a].total_cmp(&logits[b]).then(b.cmp(&a)))
}

/// Softmax over the legal cells (0 elsewhere).
#[must_use]
pub fn masked_softmax(logits: &[f32], legal: u128) -> Vec<f32> {
    let max = (0..logits.len())
        .filter(|&p| legal >> p & 1 == 1)
        .map(|p| logits[p])
        .fold(f32::NEG_INFINITY, f32::max);
    let mut out: Vec<f32> = (0..logits.len())
        .map(|p| {
            if legal >> p & 1 == 1 {
                (logits[p] - max).exp()
            } else {
                0.0
            }
        })
        .collect();
    let z: f32 = out.iter().sum();
    if z > 0.0 {
        out.iter_mut().for_each(|v| *v /= z);
    }
    out
}

/// Training parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TrainConfig {
    /// Passes over the training set.
    pub epochs: usize,
    /// Examples per mini-batch.
    pub batch: usize,
    /// Adam's step size.
    pub learning_rate: f32,
    /// Seeds the initial weights and the shuffles.
    pub seed: u64,
}

impl Default for TrainConfig {
    /// 10 epochs of 32, step 0.002, seed 1.
    fn default() -> Self {
        Self {
            epochs: 10,
            batch: 32,
            learning_rate: 0.002,
            seed: 1,
        }
    }
}

struct Adam {
    m: Vec<Vec<f32>>,
    v: Vec<Vec<f32>>,
    t: i32,
}

impl Adam {
    fn new(net: &Net) -> Self {
        let zero = || net.params.iter().map(|t| vec![0.0; t.len()]).collect();
        Self {
            m: zero(),
            v: zero(),
            t: 0,
        }
    }

    fn step(&mut self, net: &mut Net, grads: &[Vec<f32>], lr: f32) {
        const B1: f32 = 0.9;
        const B2: f32 = 0.999;
        const EPS: f32 = 1e-8;
        self.t += 1;
        let c1 = 1.0 - B1.powi(self.t);
        let c2 = 1.0 - B2.powi(self.t);
        for (t, g) in grads.iter().enumerate() {
            for i in 0..g.len() {
                let m = &mut self.m[t][i];
                let v = &mut self.v[t][i];
                *m = B1 * *m + (1.0 - B1) * g[i];
                *v = B2 * *v + (1.0 - B2) * g[i] * g[i];
                net.params[t][i] -= lr * (*m / c1) / ((*v / c2).sqrt() + EPS);
            }
        }
    }
}

/// The loss of one epoch, for progress reports.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EpochReport {
    /// 1-based epoch.
    pub epoch: usize,
    /// Mean training loss (cross-entropy or squared error).
    pub loss: f64,
}

/// Trains a network of `shape` on `examples` (policy: those with a target; value: all).
/// `progress` is called after every epoch.
///
/// # Panics
/// If an example's board side differs from the shape's, or `examples` is empty.
pub fn train(
    shape: Shape,
    examples: &[Example],
    cfg: &TrainConfig,
    mut progress: impl FnMut(EpochReport),
) -> Net {
    let mut rng = SplitMix64(cfg.seed ^ 0x4845_584E_4554);
    let mut net = Net::new(shape, |fan_in| {
        (rng.normal() * (2.0 / fan_in as f64).sqrt()) as f32
    });
    let data: Vec<&Example> = examples
        .iter()
        .filter(|e| shape.kind == Kind::Value || e.target.is_some())
        .collect();
    assert!(!data.is_empty(), "no training examples");
    assert!(
        data.iter().all(|e| e.n == shape.n),
        "examples of another board size"
    );
    let mut adam = Adam::new(&net);
    let mut order: Vec<usize> = (0..data.len()).collect();
    let cells = shape.n * shape.n;
    let len = shape.input_len();
    let batch = cfg.batch.max(1);
    for epoch in 1..=cfg.epochs {
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i + 1));
        }
        let mut total = 0.0f64;
        for chunk in order.chunks(batch) {
            let b = chunk.len();
            let mut input = Vec::with_capacity(b * len);
            for &i in chunk {
                input.extend_from_slice(&data[i].input);
            }
            let (out, trace) = net.forward_traced(&input);
            let mut dout = vec![0.0; out.len()];
            for (s, &i) in chunk.iter().enumerate() {
                let e = data[i];
                match shape.kind {
                    Kind::Policy => {
                        let p = masked_softmax(&out[s * cells..(s + 1) * cells], e.legal);
                        let t = e.target.unwrap_or(0);
                        total -= f64::from(p[t].max(1e-12).ln());
                        for c in 0..cells {
                            let y = if c == t { 1.0 } else { 0.0 };
                            dout[s * cells + c] = (p[c] - y) / b as f32;
                        }
                    }
                    Kind::Value => {
                        let v = out[s];
                        let err = v - e.value;
                        total += f64::from(err * err);
                        dout[s] = 2.0 * err * (1.0 - v * v) / b as f32;
                    }
                }
            }
            let mut grads: Vec<Vec<f32>> = net.params.iter().map(|t| vec![0.0; t.len()]).collect();
            net.backward(&input, &trace, &dout, &mut grads);
            adam.step(&mut net, &grads, cfg.learning_rate);
        }
        progress(EpochReport {
            epoch,
            loss: total / data.len() as f64,
        });
    }
    net
}

/// Outputs of `net` for `examples`, in batches of 256.
fn outputs(net: &Net, examples: &[&Example]) -> Vec<f32> {
    let mut out = Vec::new();
    for chunk in examples.chunks(256) {
        let input: Vec<f32> = chunk.iter().flat_map(|e| e.input.iter().copied()).collect();
        out.extend(net.forward(&input));
    }
    out
}

/// Top-1 accuracy of a policy network on the examples with a target (0 when none).
#[must_use]
pub fn policy_accuracy(net: &Net, examples: &[Example]) -> f64 {
    let data: Vec<&Example> = examples.iter().filter(|e| e.target.is_some()).collect();
    if data.is_empty() {
        return 0.0;
    }
    let cells = net.shape.n * net.shape.n;
    let out = outputs(net, &data);
    let hits = data
        .iter()
        .enumerate()
        .filter(|(s, e)| best_legal(&out[s * cells..(s + 1) * cells], e.legal) == e.target)
        .count();
    hits as f64 / data.len() as f64
}

/// Top-1 accuracy on `test` of the best **constant** policy of `train`: every position ranks
/// the cells by how often they were played in `train` (the baseline a network must beat).
#[must_use]
pub fn constant_policy_accuracy(train: &[Example], test: &[Example]) -> f64 {
    let Some(n) = train.first().map(|e| e.n) else {
        return 0.0;
    };
    let mut counts = vec![0.0f32; n * n];
    for e in train {
        if let Some(t) = e.target {
            counts[t] += 1.0;
        }
    }
    let data: Vec<&Example> = test.iter().filter(|e| e.target.is_some()).collect();
    if data.is_empty() {
        return 0.0;
    }
    let hits = data
        .iter()
        .filter(|e| best_legal(&counts, e.legal) == e.target)
        .count();
    hits as f64 / data.len() as f64
}

/// Mean squared error of a value network on `examples` (0 when empty).
#[must_use]
pub fn value_mse(net: &Net, examples: &[Example]) -> f64 {
    if examples.is_empty() {
        return 0.0;
    }
    let data: Vec<&Example> = examples.iter().collect();
    let out = outputs(net, &data);
    out.iter()
        .zip(&data)
        .map(|(v, e)| f64::from((v - e.value) * (v - e.value)))
        .sum::<f64>()
        / data.len() as f64
}

/// The mean squared error of the constant value that fits `train` best (its mean label), on
/// `test`.
#[must_use]
pub fn constant_value_mse(train: &[Example], test: &[Example]) -> f64 {
    if train.is_empty() || test.is_empty() {
        return 0.0;
    }
    let mean = train.iter().map(|e| f64::from(e.value)).sum::<f64>() / train.len() as f64;
    test.iter()
        .map(|e| (f64::from(e.value) - mean).powi(2))
        .sum::<f64>()
        / test.len() as f64
}

/// Whose perspective a value label is in: `result` (+1 Black wins) seen by `mover`.
#[must_use]
pub fn for_mover(black_result: f32, mover: Player) -> f32 {
    match mover {
        Player::Black => black_result,
        Player::White => -black_result,
    }
}
