//! Child generation and classification: legal moves, superko, symmetry merges, pruning,
//! table probes with the transfer test, static leaves and region games.

use super::black_wins;
use super::node::{Child, NodeState};
use super::numbers::holds_of_score;
use super::worker::Worker;
use crate::board::{Bitboard, Move};
use crate::eyes::pure_eyes;
use crate::prune::prunable_points;
use crate::table::{INF, NodeKey, Probe};
use crate::transfer::{self, Attrs, PathView};
use games::Player;

/// What generating a node's children found.
pub(super) enum Generated {
    /// A child (or the pass that ends the game) proves the node: the mover wins with `mv`.
    Won {
        /// The winning move.
        mv: Move,
        /// The proof's attributes (the winning child's, with the board its stone move makes).
        attrs: Attrs,
        /// The strongest komi (half-points) at which the proof holds.
        holds: i32,
    },
    /// No child proves the node yet; the children are in the path's arena.
    Open {
        /// The node's own exclusion targets: the mover's superko-illegal moves, and whether a
        /// symmetry merge skipped a move (both matter only if the node is lost).
        own: Attrs,
        /// What the node's game-ending pass gives the winner when the node is lost, if it
        /// has one (checked again in `mid` with the children's proofs).
        own_holds: Option<i32>,
    },
}

/// How a child was classified.
pub(super) enum Classified {
    /// Proven: the mover of the child wins (`true`) or loses, with the proof's attributes.
    Proven(bool, Attrs, i32),
    /// Unproven, with numbers.
    Open(u64, u64),
}

impl Worker<'_> {
    /// Probes the table for a node with board `st.board` and history `self.p.boards[..len]`
    /// (plus its own board), applying the transfer test to proofs of other games.
    pub(super) fn lookup(
        &mut self,
        key: &NodeKey,
        st: &NodeState,
        len: usize,
        path: bool,
    ) -> Probe {
        let mover = st.to_move;
        let view = PathView {
            geo: self.q.geo,
            boards: &self.p.boards[..len],
            canon: &self.p.canon[..len],
            count: &self.p.count[..len],
            ever: &self.p.ever[..len],
        };
        let mut tests = 0u64;
        let r = self.q.table.query(key, mover).probe(
            self.q.komi2,
            path,
            self.q.transfer,
            &mut self.p.table,
            |a, mover_wins| {
                tests += 1;
                let winner = if mover_wins { mover } else { mover.opponent() };
                view.transfer_ok(a, key.sym, winner, &st.board)
            },
        );
        self.p.know.transfer_tests += tests;
        if let Probe::Proven(f) = &r
            && f.needs_test
        {
            self.p.know.transfers += 1;
        }
        r
    }

    /// Whether a position is a static win (Lemma 1, or the local region games of Appendix
    /// A.4) for either player at the current komi, given the history `self.p.boards[..len]`
    /// (plus the position's own board). Returns the winner and the certified territory.
    pub(super) fn static_win(
        &mut self,
        ch: &NodeState,
        len: usize,
    ) -> Option<(Player, Bitboard, bool, i32)> {
        let geo = self.q.geo;
        let n = geo.points() as i64;
        let full = geo.full();
        let ever = self.p.ever[len - 1];
        for w in [Player::Black, Player::White] {
            // (C2): the last move was not a pass by w with the opponent to move.
            if ch.passed && w != ch.to_move {
                continue;
            }
            // w wins with a final area A when 4A > need (half-points of komi, both sides).
            let need = if w == Player::Black {
                2 * n + i64::from(self.q.komi2)
            } else {
                2 * n - i64::from(self.q.komi2)
            };
            // Lemma 1's area |X*| + |T*| is at most w's stones and their neighbours (every
            // point of T* touches X*), so below the komi it cannot win; a region game's win
            // (Black owns every point, regions inside the walls included) needs no such bound.
            let stones = ch.board.stones(w);
            let bound = stones.count() + (geo.neighbours(stones) & full).minus(stones).count();
            let lemma1 = 4 * i64::from(bound) > need;
            let regions = w == Player::Black && self.q.cfg.regions && 4 * n > need;
            if !lemma1 && !regions {
                continue;
            }
            let pe = pure_eyes(geo, &ch.board, w);
            // (C1): no stone of w was ever captured on T*.
            let c1 = (pe.territory & ever.stones(w)).is_empty();
            if lemma1 && 4 * i64::from(pe.area()) > need && c1 {
                // w's final area is at least A: Black's margin is ≥ 2A − n, or ≤ n − 2A.
                let a = pe.area() as i32;
                let nn = n as i32;
                let margin = if w == Player::Black {
                    2 * a - nn
                } else {
                    nn - 2 * a
                };
                let holds = holds_of_score(margin, w == Player::Black);
                return Some((w, pe.territory, false, holds));
            }
            if regions
                && !pe.alive.is_empty()
                && let Some(terr) = self.p.regions.black_wins_regions(geo, &ch.board, &pe)
                && (terr & ever.black).is_empty()
            {
                // Black owns every point at the end (regions.rs).
                return Some((w, terr, true, holds_of_score(n as i32, true)));
            }
        }
        None
    }

    /// Classifies a child whose history is `self.p.boards[..len]` plus its own board: proven in
    /// the table (identical game, or transferred), a static leaf, or unproven.
    pub(super) fn classify(
        &mut self,
        ch: &NodeState,
        key: &NodeKey,
        len: usize,
        probe: bool,
    ) -> Classified {
        match self.lookup(key, ch, len, probe) {
            Probe::Proven(f) => {
                let a = transfer::unpack(
                    self.q.geo,
                    &f.attrs,
                    key.sym,
                    &ch.board,
                    &self.p.boards[..len],
                );
                return Classified::Proven(f.mover_wins, a, f.komi2);
            }
            Probe::Unproven { pn, dn, .. } => return Classified::Open(pn, dn),
            Probe::Miss => {}
        }
        if self.q.cfg.static_leaves
            && let Some((w, terr, region, holds)) = self.static_win(ch, len)
        {
            if region {
                self.p.know.region_leaves += 1;
            } else {
                self.p.know.static_leaves += 1;
            }
            return Classified::Proven(w == ch.to_move, Attrs::static_leaf(terr), holds);
        }
        let (pn, dn) = self
            .q
            .prior
            .initial(self.q.geo, &ch.board, ch.to_move, self.q.komi2);
        Classified::Open(pn, dn)
    }

    /// Generates and classifies the children of `st` into `self.p.children[base..]`:
    /// [`Generated::Won`] if a child (or the game-ending pass) already proves `st`, else
    /// [`Generated::Open`] with what a loss of `st` would add to its children's proofs.
    pub(super) fn generate(&mut self, st: &NodeState, probe: bool) -> Generated {
        let len = self.p.boards.len();
        let mover = st.to_move;
        let nsym = self.q.geo.num_symmetries();
        let mut own = Attrs::LEAF;
        let base = self.p.children.len();
        let transfer = self.q.transfer;
        // Pass 1: the legal children, with their table buckets prefetched so that the cache
        // misses of all children overlap. The pass comes first.
        // What the node's own terminal options give its winner when it is lost: the pass
        // that ends the game (checked again in `mid` with the children's proofs).
        let mut own_holds = None;
        if st.passed {
            // The pass shortcut: a pass answering a pass ends the game.
            let score = st.board.area_score(self.q.geo);
            let black_wins_end = black_wins(score, self.q.komi2);
            if self.mover_wins_final(&st.board, mover) {
                return Generated::Won {
                    mv: Move::PASS,
                    attrs: Attrs::LEAF,
                    holds: holds_of_score(score, black_wins_end),
                };
            }
            own_holds = Some(holds_of_score(score, black_wins_end));
        } else {
            let mut ch = *st;
            ch.to_move = mover.opponent();
            ch.passed = true;
            let key = self.key_of(&ch);
            self.q
                .table
                .query(&key, ch.to_move)
                .prefetch(probe, transfer);
            self.p.children.push(Child {
                mv: Move::PASS,
                key,
                pn: 1,
                dn: 1,
                state: ch,
                attrs: Attrs::LEAF,
                holds: 0,
            });
        }
        // Winner-side pruning: the proven side's own single-point eyes and certified territory.
        let prunable = if self.q.pruned_side == Some(mover) {
            prunable_points(self.q.geo, &st.board, mover)
        } else {
            Bitboard::EMPTY
        };
        let mut tempo_kept = false;
        let empty = st.board.empty(self.q.geo);
        let c = mover.index();
        for p in empty.points() {
            // Merge m with s(m) when s fixes every board of the history.
            if st.stab != 0 {
                let mut bits = st.stab;
                let mut dominated = false;
                while bits != 0 {
                    let s = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    if self.q.geo.map_point(s, p) < p {
                        dominated = true;
                        break;
                    }
                }
                if dominated {
                    // A loss relying on the merge is path-specific.
                    own.add_target(0, true);
                    continue;
                }
            }
            let Some(placed) = st.board.place(self.q.geo, mover, p) else {
                continue;
            };
            let (k1, _) = self.q.geo.key_tables();
            let mut h0 = st.h1[0] ^ k1[0][p.index()][c];
            for q in placed.captured.points() {
                h0 ^= k1[0][q.index()][1 - c];
            }
            if let Some(i) = self.p.repeat_index(h0, &placed.board) {
                own.add_target(i as u32, false);
                continue;
            }
            if prunable.contains(p) {
                if tempo_kept {
                    self.p.know.pruned_moves += 1;
                    continue;
                }
                tempo_kept = true;
            }
            let ch = self.stone_child(st, p, placed.board, placed.captured, h0);
            let key = self.key_of(&ch);
            self.q
                .table
                .query(&key, ch.to_move)
                .prefetch(probe, transfer);
            self.p.children.push(Child {
                mv: Move::play(p),
                key,
                pn: 1,
                dn: 1,
                state: ch,
                attrs: Attrs::LEAF,
                holds: 0,
            });
        }
        // Pass 2: classify; stop at a child that proves the node.
        for i in base..self.p.children.len() {
            let Child { mv, key, state, .. } = self.p.children[i];
            match self.classify(&state, &key, len, probe) {
                Classified::Proven(false, a, h) => {
                    let a = if mv.is_pass() {
                        a
                    } else {
                        a.add_board(&state.board, state.canonical_board_hash(nsym))
                    };
                    return Generated::Won {
                        mv,
                        attrs: a,
                        holds: h,
                    };
                }
                Classified::Proven(true, a, h) => {
                    let c = &mut self.p.children[i];
                    (c.pn, c.dn, c.attrs, c.holds) = (0, INF, a, h);
                }
                Classified::Open(pn, dn) => {
                    let c = &mut self.p.children[i];
                    (c.pn, c.dn) = (pn, dn);
                }
            }
        }
        Generated::Open { own, own_holds }
    }
}
