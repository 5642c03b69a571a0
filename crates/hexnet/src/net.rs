//! The policy and value networks (Gao et al., Section 3.1), forward and backward, on the CPU.
//!
//! Both share the trunk shape: the `5 × (n+2)²` planes of [`crate::features`], a 3×3
//! convolution **without** padding (so its output is the n×n board), then `layers − 1` 3×3
//! convolutions with zero padding of one, each followed by a ReLU; `channels` filters each.
//!
//! - **Policy**: a 1×1 convolution to one plane with a bias per board cell (the paper's "1×1
//!   filters with 64 biases for each position"), then a softmax over the empty cells.
//! - **Value**: a 1×1 convolution to one plane (one bias) and a ReLU, a fully connected layer of
//!   `hidden` units with ReLU, one output squashed by tanh into `[−1, 1]`: the value of the
//!   position for its mover.
//!
//! Tensors are `f32`, laid out `[sample][channel][y][x]`. Weights are a flat list of
//! parameter tensors ([`Net::params`]) in a fixed order, so that the optimiser and the weight
//! file treat every tensor alike:
//!
//! ```text
//!  conv l: weight [out][in][3][3], bias [out]        l = 0 .. layers
//!  policy: head weight [channels], cell bias [n²]
//!  value:  head weight [channels], head bias [1], fc1 [hidden][n²], fc1 bias [hidden],
//!          fc2 [hidden], fc2 bias [1]
//! ```
//!
//! The arithmetic is plain single-threaded loops: a forward pass of the shipped 6x6 nets is
//! about 0.3 M multiply-adds, well under a millisecond, and the same seed gives the same
//! weights bit for bit.
// Index loops over parallel weight, gradient and moment arrays read clearer than zips.
#![allow(clippy::needless_range_loop)]

use crate::features::PLANES;

/// Which network.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// Move probabilities over the empty cells.
    Policy,
    /// The value of the position for its mover, in `[−1, 1]`.
    Value,
}

impl Kind {
    /// The name in weight files: "policy" or "value".
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Kind::Policy => "policy",
            Kind::Value => "value",
        }
    }
}

/// The shape of a network.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shape {
    /// Policy or value.
    pub kind: Kind,
    /// Board side n (the input is `(n+2)²`).
    pub n: usize,
    /// Filters per convolution.
    pub channels: usize,
    /// 3×3 convolutions (at least 1).
    pub layers: usize,
    /// Units of the value network's fully connected layer (unused by the policy).
    pub hidden: usize,
}

impl Shape {
    /// The sizes of the parameter tensors, in [`Net::params`] order.
    #[must_use]
    pub fn tensor_sizes(&self) -> Vec<usize> {
        let c = self.channels;
        let cells = self.n * self.n;
        let mut v = Vec::new();
        for l in 0..self.layers {
            let cin = if l == 0 { PLANES } else { c };
            v.push(c * cin * 9);
            v.push(c);
        }
        match self.kind {
            Kind::Policy => v.extend([c, cells]),
            Kind::Value => v.extend([c, 1, self.hidden * cells, self.hidden, self.hidden, 1]),
        }
        v
    }

    /// Number of parameters.
    #[must_use]
    pub fn num_params(&self) -> usize {
        self.tensor_sizes().iter().sum()
    }

    /// Floats per input sample.
    #[must_use]
    pub const fn input_len(&self) -> usize {
        PLANES * (self.n + 2) * (self.n + 2)
    }
}

/// A network: its shape and weights.
#[derive(Clone, Debug, PartialEq)]
pub struct Net {
    /// The shape.
    pub shape: Shape,
    /// The parameter tensors (see the module documentation for the order).
    pub params: Vec<Vec<f32>>,
}

/// What a forward pass keeps for the backward pass.
pub(crate) struct Trace {
    /// Post-ReLU activations of each convolution, `[sample][c][n][n]`.
    acts: Vec<Vec<f32>>,
    /// Value head: post-ReLU head plane `[sample][n²]` and hidden units `[sample][hidden]`.
    head: Vec<f32>,
    hidden: Vec<f32>,
}

/// A 3×3 convolution of one sample: `x` is `[cin][h][w]`, `y` is `[cout][ho][wo]` with
/// `ho = h + 2·pad − 2`.
fn conv3_forward(x: &[f32], cin: usize, h: usize, w: &[f32], b: &[f32], pad: usize, y: &mut [f32]) {
    let cout = b.len();
    let ho = h + 2 * pad - 2;
    for o in 0..cout {
        let yo = &mut y[o * ho * ho..(o + 1) * ho * ho];
        yo.fill(b[o]);
        for i in 0..cin {
            let xi = &x[i * h * h..(i + 1) * h * h];
            for ky in 0..3 {
                for kx in 0..3 {
                    let wv = w[((o * cin + i) * 3 + ky) * 3 + kx];
                    let (x0, x1) = span(kx, pad, h, ho);
                    for oy in 0..ho {
                        let iy = oy + ky;
                        if iy < pad || iy - pad >= h {
                            continue;
                        }
                        let row = &xi[(iy - pad) * h..(iy - pad + 1) * h];
                        let out = &mut yo[oy * ho..(oy + 1) * ho];
                        for ox in x0..x1 {
                            out[ox] += wv * row[ox + kx - pad];
                        }
                    }
                }
            }
        }
    }
}

/// The output columns `ox` for which input column `ox + kx − pad` is inside `0..h`.
fn span(kx: usize, pad: usize, h: usize, ho: usize) -> (usize, usize) {
    let x0 = pad.saturating_sub(kx);
    let x1 = (h + pad).saturating_sub(kx).min(ho);
    (x0, x1)
}

/// Gradients of [`conv3_forward`]: accumulates `dw`, `db` and (when given) `dx` from `dy`.
#[allow(clippy::too_many_arguments)]
fn conv3_backward(
    x: &[f32],
    cin: usize,
    h: usize,
    w: &[f32],
    pad: usize,
    dy: &[f32],
    dw: &mut [f32],
    db: &mut [f32],
    mut dx: Option<&mut [f32]>,
) {
    let cout = db.len();
    let ho = h + 2 * pad - 2;
    for o in 0..cout {
        let dyo = &dy[o * ho * ho..(o + 1) * ho * ho];
        db[o] += dyo.iter().sum::<f32>();
        for i in 0..cin {
            let xi = &x[i * h * h..(i + 1) * h * h];
            for ky in 0..3 {
                for kx in 0..3 {
                    let widx = ((o * cin + i) * 3 + ky) * 3 + kx;
                    let wv = w[widx];
                    let (x0, x1) = span(kx, pad, h, ho);
                    let mut g = 0.0;
                    for oy in 0..ho {
                        let iy = oy + ky;
                        if iy < pad || iy - pad >= h {
                            continue;
                        }
                        let r = (iy - pad) * h;
                        let d = &dyo[oy * ho..(oy + 1) * ho];
                        for ox in x0..x1 {
                            g += d[ox] * xi[r + ox + kx - pad];
                        }
                        if let Some(dx) = dx.as_deref_mut() {
                            let dxi = &mut dx[i * h * h + r..i * h * h + r + h];
                            for ox in x0..x1 {
                                dxi[ox + kx - pad] += wv * d[ox];
                            }
                        }
                    }
                    dw[widx] += g;
                }
            }
        }
    }
}

impl Net {
    /// A network of `shape` with weights from `init(fan_in)`, a generator of one weight
    /// for a tensor of that fan-in (He initialisation: normal with variance 2 / fan-in);
    /// biases start at 0.
    pub fn new(shape: Shape, mut init: impl FnMut(usize) -> f32) -> Self {
        let sizes = shape.tensor_sizes();
        let c = shape.channels;
        let cells = shape.n * shape.n;
        let mut params = Vec::new();
        for (t, &len) in sizes.iter().enumerate() {
            let fan_in = if t < 2 * shape.layers {
                if t % 2 == 1 {
                    0
                } else if t == 0 {
                    PLANES * 9
                } else {
                    c * 9
                }
            } else {
                match (shape.kind, t - 2 * shape.layers) {
                    (_, 0) => c,
                    (Kind::Value, 2) => cells,
                    (Kind::Value, 4) => shape.hidden,
                    _ => 0,
                }
            };
            params.push(if fan_in == 0 {
                vec![0.0; len]
            } else {
                (0..len).map(|_| init(fan_in)).collect()
            });
        }
        Self { shape, params }
    }

    /// The forward pass of a batch: `input` holds `batch` samples of
    /// [`Shape::input_len`] floats. Returns the policy **logits** (`[batch][n²]`, image
    /// cells; mask and softmax are the caller's) or the values (`[batch]`, after tanh).
    ///
    /// # Panics
    /// If `input` is not a whole number of samples.
    #[must_use]
    pub fn forward(&self, input: &[f32]) -> Vec<f32> {
        self.forward_traced(input).0
    }

    pub(crate) fn forward_traced(&self, input: &[f32]) -> (Vec<f32>, Trace) {
        let sh = self.shape;
        let (n, c) = (sh.n, sh.channels);
        let cells = n * n;
        let len = sh.input_len();
        assert_eq!(
            input.len() % len,
            0,
            "input is not a whole number of samples"
        );
        let batch = input.len() / len;
        let mut acts: Vec<Vec<f32>> = Vec::with_capacity(sh.layers);
        for l in 0..sh.layers {
            let (w, b) = (&self.params[2 * l], &self.params[2 * l + 1]);
            let mut y = vec![0.0; batch * c * cells];
            for s in 0..batch {
                let out = &mut y[s * c * cells..(s + 1) * c * cells];
                if l == 0 {
                    conv3_forward(&input[s * len..(s + 1) * len], PLANES, n + 2, w, b, 0, out);
                } else {
                    let x = &acts[l - 1][s * c * cells..(s + 1) * c * cells];
                    conv3_forward(x, c, n, w, b, 1, out);
                }
            }
            y.iter_mut().for_each(|v| *v = v.max(0.0));
            acts.push(y);
        }
        let top = &acts[sh.layers - 1];
        let hp = 2 * sh.layers;
        let mut head = Vec::new();
        let mut hidden = Vec::new();
        let out = match sh.kind {
            Kind::Policy => {
                let (hw, cb) = (&self.params[hp], &self.params[hp + 1]);
                let mut logits = vec![0.0; batch * cells];
                for s in 0..batch {
                    let lg = &mut logits[s * cells..(s + 1) * cells];
                    lg.copy_from_slice(cb);
                    for ch in 0..c {
                        let a = &top[(s * c + ch) * cells..(s * c + ch + 1) * cells];
                        for p in 0..cells {
                            lg[p] += hw[ch] * a[p];
                        }
                    }
                }
                logits
            }
            Kind::Value => {
                let (hw, hb) = (&self.params[hp], self.params[hp + 1][0]);
                let (w1, b1) = (&self.params[hp + 2], &self.params[hp + 3]);
                let (w2, b2) = (&self.params[hp + 4], self.params[hp + 5][0]);
                let hu = sh.hidden;
                head = vec![0.0; batch * cells];
                hidden = vec![0.0; batch * hu];
                let mut values = vec![0.0; batch];
                for s in 0..batch {
                    let hd = &mut head[s * cells..(s + 1) * cells];
                    hd.fill(hb);
                    for ch in 0..c {
                        let a = &top[(s * c + ch) * cells..(s * c + ch + 1) * cells];
                        for p in 0..cells {
                            hd[p] += hw[ch] * a[p];
                        }
                    }
                    hd.iter_mut().for_each(|v| *v = v.max(0.0));
                    let hi = &mut hidden[s * hu..(s + 1) * hu];
                    let mut v = b2;
                    for j in 0..hu {
                        let row = &w1[j * cells..(j + 1) * cells];
                        let z = b1[j] + row.iter().zip(hd.iter()).map(|(a, b)| a * b).sum::<f32>();
                        hi[j] = z.max(0.0);
                        v += w2[j] * hi[j];
                    }
                    values[s] = v.tanh();
                }
                values
            }
        };
        (out, Trace { acts, head, hidden })
    }

    /// Accumulates into `grads` (shaped like [`Net::params`]) the gradient of the loss whose
    /// derivative with respect to the outputs of [`Net::forward`] is `dout` (logits for the
    /// policy; the pre-tanh value for the value net — the caller applies tanh's derivative).
    pub(crate) fn backward(
        &self,
        input: &[f32],
        trace: &Trace,
        dout: &[f32],
        grads: &mut [Vec<f32>],
    ) {
        let sh = self.shape;
        let (n, c) = (sh.n, sh.channels);
        let cells = n * n;
        let len = sh.input_len();
        let batch = input.len() / len;
        let top = &trace.acts[sh.layers - 1];
        let hp = 2 * sh.layers;
        // Gradient at the top activations.
        let mut da = vec![0.0; batch * c * cells];
        match sh.kind {
            Kind::Policy => {
                let hw = &self.params[hp];
                for s in 0..batch {
                    let d = &dout[s * cells..(s + 1) * cells];
                    for p in 0..cells {
                        grads[hp + 1][p] += d[p];
                    }
                    for ch in 0..c {
                        let a = &top[(s * c + ch) * cells..(s * c + ch + 1) * cells];
                        let dac = &mut da[(s * c + ch) * cells..(s * c + ch + 1) * cells];
                        let mut g = 0.0;
                        for p in 0..cells {
                            g += d[p] * a[p];
                            dac[p] = hw[ch] * d[p];
                        }
                        grads[hp][ch] += g;
                    }
                }
            }
            Kind::Value => {
                let hu = sh.hidden;
                let hw = &self.params[hp];
                let w1 = &self.params[hp + 2];
                let w2 = &self.params[hp + 4];
                let mut dhd = vec![0.0; cells];
                for s in 0..batch {
                    let dv = dout[s];
                    let hd = &trace.head[s * cells..(s + 1) * cells];
                    let hi = &trace.hidden[s * hu..(s + 1) * hu];
                    grads[hp + 5][0] += dv;
                    dhd.fill(0.0);
                    for j in 0..hu {
                        grads[hp + 4][j] += dv * hi[j];
                        if hi[j] <= 0.0 {
                            continue;
                        }
                        let dz = dv * w2[j];
                        grads[hp + 3][j] += dz;
                        let row = &w1[j * cells..(j + 1) * cells];
                        let grow = &mut grads[hp + 2][j * cells..(j + 1) * cells];
                        for p in 0..cells {
                            grow[p] += dz * hd[p];
                            dhd[p] += dz * row[p];
                        }
                    }
                    for p in 0..cells {
                        if hd[p] <= 0.0 {
                            dhd[p] = 0.0;
                        }
                    }
                    grads[hp + 1][0] += dhd.iter().sum::<f32>();
                    for ch in 0..c {
                        let a = &top[(s * c + ch) * cells..(s * c + ch + 1) * cells];
                        let dac = &mut da[(s * c + ch) * cells..(s * c + ch + 1) * cells];
                        let mut g = 0.0;
                        for p in 0..cells {
                            g += dhd[p] * a[p];
                            dac[p] = hw[ch] * dhd[p];
                        }
                        grads[hp][ch] += g;
                    }
                }
            }
        }
        // Down the trunk.
        for l in (0..sh.layers).rev() {
            let act = &trace.acts[l];
            for (d, &a) in da.iter_mut().zip(act.iter()) {
                if a <= 0.0 {
                    *d = 0.0;
                }
            }
            let mut below = if l > 0 {
                vec![0.0; batch * c * cells]
            } else {
                Vec::new()
            };
            let (gw, rest) = grads[2 * l..].split_at_mut(1);
            let (gw, gb) = (&mut gw[0], &mut rest[0]);
            for s in 0..batch {
                let dy = &da[s * c * cells..(s + 1) * c * cells];
                if l == 0 {
                    let x = &input[s * len..(s + 1) * len];
                    conv3_backward(x, PLANES, n + 2, &self.params[0], 0, dy, gw, gb, None);
                } else {
                    let x = &trace.acts[l - 1][s * c * cells..(s + 1) * c * cells];
                    let dx = &mut below[s * c * cells..(s + 1) * c * cells];
                    conv3_backward(x, c, n, &self.params[2 * l], 1, dy, gw, gb, Some(dx));
                }
            }
            da = below;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A tiny deterministic generator for the tests.
    fn lcg(seed: u64) -> impl FnMut(usize) -> f32 {
        let mut x = seed;
        move |fan_in| {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let u = ((x >> 40) as f32) / (1u64 << 24) as f32 - 0.5;
            u * (6.0 / fan_in as f32).sqrt()
        }
    }

    fn loss(net: &Net, input: &[f32], w: &[f32]) -> f32 {
        net.forward(input).iter().zip(w).map(|(a, b)| a * b).sum()
    }

    /// The analytic gradient of a random linear function of the outputs against central
    /// differences, for every tensor of both networks.
    #[test]
    fn gradients_match_finite_differences() {
        for kind in [Kind::Policy, Kind::Value] {
            let shape = Shape {
                kind,
                n: 3,
                channels: 3,
                layers: 3,
                hidden: 4,
            };
            let mut net = Net::new(shape, lcg(7));
            // Nonzero biases so that ReLUs are not all at a kink.
            for t in &mut net.params {
                for (i, v) in t.iter_mut().enumerate() {
                    if *v == 0.0 {
                        *v = 0.05 * ((i % 5) as f32 - 2.0);
                    }
                }
            }
            let mut g = lcg(11);
            let batch = 2;
            let input: Vec<f32> = (0..batch * shape.input_len())
                .map(|_| g(1).abs().min(1.0))
                .collect();
            let outs = net.forward(&input).len();
            let wts: Vec<f32> = (0..outs).map(|_| g(1)).collect();
            let (out, trace) = net.forward_traced(&input);
            let dout: Vec<f32> = match kind {
                Kind::Policy => wts.clone(),
                Kind::Value => out
                    .iter()
                    .zip(&wts)
                    .map(|(v, w)| w * (1.0 - v * v))
                    .collect(),
            };
            let mut grads: Vec<Vec<f32>> = net.params.iter().map(|t| vec![0.0; t.len()]).collect();
            net.backward(&input, &trace, &dout, &mut grads);
            for t in 0..net.params.len() {
                for i in (0..net.params[t].len()).step_by(7) {
                    let h = 1e-2;
                    let mut p = net.clone();
                    p.params[t][i] += h;
                    let mut m = net.clone();
                    m.params[t][i] -= h;
                    let num = (loss(&p, &input, &wts) - loss(&m, &input, &wts)) / (2.0 * h);
                    let ana = grads[t][i];
                    assert!(
                        (num - ana).abs() <= 2e-2 * (1.0 + num.abs()),
                        "{kind:?} tensor {t} index {i}: numeric {num}, analytic {ana}"
                    );
                }
            }
        }
    }

    #[test]
    fn shapes_count_the_parameters() {
        let s = Shape {
            kind: Kind::Policy,
            n: 6,
            channels: 16,
            layers: 4,
            hidden: 32,
        };
        assert_eq!(
            s.num_params(),
            (5 * 9 * 16 + 16) + 3 * (16 * 9 * 16 + 16) + 16 + 36
        );
        let v = Shape {
            kind: Kind::Value,
            ..s
        };
        assert_eq!(
            v.num_params(),
            (5 * 9 * 16 + 16) + 3 * (16 * 9 * 16 + 16) + 16 + 1 + 32 * 36 + 32 + 32 + 1
        );
        let net = Net::new(v, lcg(1));
        let x = vec![0.5; 3 * v.input_len()];
        let y = net.forward(&x);
        assert_eq!(y.len(), 3);
        assert!(y.iter().all(|v| (-1.0..=1.0).contains(v)));
    }
}
