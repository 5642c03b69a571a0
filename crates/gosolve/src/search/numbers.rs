//! Aggregation: a node's numbers and its proof's attributes from its children's.

use super::node::{Child, NodeState};
use super::worker::Worker;
use crate::table::INF;
use crate::transfer::Attrs;
use games::Player;

/// A node's numbers from its children's, in negamax form: φ = min δ(c), δ = Σ φ(c)
/// (saturating; ∞ if any child's φ is, and never ∞ otherwise), with the index of the child of
/// smallest δ (the first of equals) and the second smallest δ.
pub(super) fn numbers(children: &[Child]) -> (u64, u64, usize, u64) {
    let (mut pn, mut dn, mut d2, mut best) = (INF, 0u64, INF, 0);
    let mut any_inf = false;
    for (i, c) in children.iter().enumerate() {
        if c.dn < pn {
            d2 = pn;
            pn = c.dn;
            best = i;
        } else if c.dn < d2 {
            d2 = c.dn;
        }
        if c.pn == INF {
            any_inf = true;
        } else {
            dn = sat_add(dn, c.pn);
        }
    }
    if any_inf {
        dn = INF;
    } else if dn == INF {
        dn = INF - 1;
    }
    (pn, dn, best, d2)
}

/// The strongest komi (half-points) at which a final margin `score` (Black's area minus
/// White's) is a win for its winner: Black (`black`) wins at every komi below the score,
/// White at every komi above it.
pub(super) const fn holds_of_score(score: i32, black: bool) -> i32 {
    if black { 2 * score - 1 } else { 2 * score + 1 }
}

/// The weaker of two komis at which proofs for `winner` hold (Black's hold up to their
/// komi, White's from theirs): what a node holds when it needs both.
pub(super) fn weaker_holds(winner: Player, a: i32, b: i32) -> i32 {
    if winner == Player::Black {
        a.min(b)
    } else {
        a.max(b)
    }
}

pub(super) fn sat_add(a: u64, b: u64) -> u64 {
    a.saturating_add(b)
}

impl Worker<'_> {
    /// A won node's proof: the winning child's, plus the board its stone move creates.
    pub(super) fn won_attrs(&self, best_i: usize, len: usize) -> (Attrs, i32) {
        let c = &self.p.children[best_i];
        let mut attrs = c.attrs.restrict(len);
        if !c.mv.is_pass() {
            let canon = c.state.canonical_board_hash(self.q.geo.num_symmetries());
            attrs = attrs.add_board(&c.state.board, canon);
        }
        (attrs, c.holds)
    }

    /// A lost node's proof: the join of every child's, plus the node's own exclusions; it
    /// holds at the weakest komi any child's proof holds at.
    pub(super) fn lost_attrs(
        &self,
        st: &NodeState,
        children: std::ops::Range<usize>,
        own: Attrs,
        own_holds: Option<i32>,
        len: usize,
    ) -> (Attrs, i32) {
        let mut attrs = own;
        let winner = st.to_move.opponent();
        let mut holds = own_holds.unwrap_or(if winner == Player::Black {
            i32::MAX
        } else {
            i32::MIN
        });
        for c in &self.p.children[children] {
            attrs.join(&c.attrs.restrict(len));
            holds = weaker_holds(winner, holds, c.holds);
        }
        if holds == i32::MAX || holds == i32::MIN {
            holds = self.q.komi2;
        }
        (attrs, holds)
    }
}
