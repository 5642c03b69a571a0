//! The networks behind pns's [`MoveOrder`]: FDFPN-policy and FDFPN-CNN.
//!
//! - [`PolicyOrder`] ranks the moves of a node by the policy network's logits (one forward
//!   pass of the node ranks all its children; the logits are cached by the position's Zobrist
//!   hash, since df-pn re-expands nodes). Ties keep the game's order.
//! - [`ValueWidening`] keeps another order's ranking and sets the window of focused df-pn by
//!   Gao et al.'s Equations 2–3: `base + ⌈f(s) × live⌉` with `f(s) = min(µ, (1 + v(s)) / 2)`,
//!   `v(s)` the value network's estimate for the mover of the node (cached likewise).
//!
//! Both are `MoveOrder<Hex>`; on [`pns::KnowledgeHex`] they are used through [`pns::OnHex`].
//! Their counters ([`Evaluations`]) say how many forward passes and cache hits a search made.

use crate::features::{encode, to_image};
use crate::io::NetError;
use crate::net::{Kind, Net};
use games::Game;
use games::hex::{Hex, HexMove, HexState};
use pns::MoveOrder;
use std::cell::{Cell, RefCell};
use std::collections::HashMap;

/// Entries kept per cache before it is cleared.
const CACHE_LIMIT: usize = 1 << 20;

/// Forward passes and cache hits of one evaluator.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Evaluations {
    /// Forward passes (positions evaluated by the network).
    pub forward: u64,
    /// Positions answered from the cache.
    pub cached: u64,
}

/// A network with its cache of outputs by position hash.
#[derive(Debug)]
struct Cached {
    net: Net,
    cache: RefCell<HashMap<u64, Vec<f32>>>,
    counts: Cell<Evaluations>,
}

impl Cached {
    fn new(net: Net, kind: Kind, game: &Hex) -> Result<Self, NetError> {
        let sh = net.shape;
        if sh.kind != kind {
            return Err(NetError::Mismatch {
                what: format!(
                    "expected a {} network, got a {} network",
                    kind.name(),
                    sh.kind.name()
                ),
            });
        }
        if game.width() != sh.n || game.height() != sh.n {
            return Err(NetError::Mismatch {
                what: format!(
                    "the {} network is for {n}x{n}, the board is {}x{}",
                    sh.kind.name(),
                    game.width(),
                    game.height(),
                    n = sh.n
                ),
            });
        }
        Ok(Self {
            net,
            cache: RefCell::new(HashMap::new()),
            counts: Cell::new(Evaluations::default()),
        })
    }

    fn eval(&self, game: &Hex, state: &HexState) -> Vec<f32> {
        let key = game.hash(state);
        let mut c = self.counts.get();
        if let Some(v) = self.cache.borrow().get(&key) {
            c.cached += 1;
            self.counts.set(c);
            return v.clone();
        }
        c.forward += 1;
        self.counts.set(c);
        let mut input = vec![0.0; self.net.shape.input_len()];
        encode(game, state, &mut input);
        let out = self.net.forward(&input);
        let mut cache = self.cache.borrow_mut();
        if cache.len() >= CACHE_LIMIT {
            cache.clear();
        }
        cache.insert(key, out.clone());
        out
    }
}

/// Orders moves by a policy network (FDFPN-policy).
#[derive(Debug)]
pub struct PolicyOrder {
    policy: Cached,
}

impl PolicyOrder {
    /// The order of a policy network for `game`'s board.
    ///
    /// # Errors
    /// [`NetError::Mismatch`] for a value network or a network of another board size.
    pub fn new(net: Net, game: &Hex) -> Result<Self, NetError> {
        Ok(Self {
            policy: Cached::new(net, Kind::Policy, game)?,
        })
    }

    /// Forward passes and cache hits so far.
    #[must_use]
    pub fn evaluations(&self) -> Evaluations {
        self.policy.counts.get()
    }
}

impl MoveOrder<Hex> for PolicyOrder {
    fn order(&self, game: &Hex, state: &HexState, moves: &mut [HexMove]) {
        let logits = self.policy.eval(game, state);
        let (n, mover) = (game.width(), game.to_move(state));
        let score = |m: &HexMove| logits[to_image(game.cell_index(*m), n, mover)];
        moves.sort_by(|a, b| score(b).total_cmp(&score(a)));
    }
}

/// Another order's ranking with the window set by a value network (Equations 2–3).
#[derive(Debug)]
pub struct ValueWidening<O> {
    /// The ranking.
    pub order: O,
    value: Cached,
}

impl<O> ValueWidening<O> {
    /// `order`'s ranking, widened by the value network `net` for `game`'s board.
    ///
    /// # Errors
    /// [`NetError::Mismatch`] for a policy network or a network of another board size.
    pub fn new(order: O, net: Net, game: &Hex) -> Result<Self, NetError> {
        Ok(Self {
            order,
            value: Cached::new(net, Kind::Value, game)?,
        })
    }

    /// The value network's estimate of `state` for its mover, in `[−1, 1]`.
    pub fn value(&self, game: &Hex, state: &HexState) -> f32 {
        self.value.eval(game, state)[0]
    }

    /// Forward passes and cache hits of the value network so far.
    #[must_use]
    pub fn evaluations(&self) -> Evaluations {
        self.value.counts.get()
    }
}

/// Equation 3: `f(s) = min(µ, (1 + v(s)) / 2)`.
#[must_use]
pub fn widening_factor(mu: f64, value: f32) -> f64 {
    mu.min((1.0 + f64::from(value)) / 2.0)
}

impl<O: MoveOrder<Hex>> MoveOrder<Hex> for ValueWidening<O> {
    fn order(&self, game: &Hex, state: &HexState, moves: &mut [HexMove]) {
        self.order.order(game, state, moves);
    }

    fn widening(&self, game: &Hex, state: &HexState, mu: f64) -> f64 {
        widening_factor(mu, self.value(game, state))
    }
}
