//! One thread's df-pn: the recursive procedure `mid` and its bookkeeping.

use super::black_wins;
use super::children::Generated;
use super::node::NodeState;
use super::node::root_state;
use super::numbers::{numbers, sat_add};
use super::path::Path;
use super::question::Query;
use super::{Progress, SearchDetail};
use crate::board::{Board, Move};
use crate::position::Line;
use crate::prior::features_half_points;
use crate::table::{INF, NO_MOVE, NodeKey, Probe, Record, StoreKind};
use crate::transfer::{self, Attrs, NO_TARGET};
use games::Player;
use std::sync::atomic::Ordering;
use vocab::Pn;

/// One thread's view of a question: the shared query and its own path.
pub(super) struct Worker<'a> {
    pub(super) q: &'a Query<'a>,
    pub(super) p: &'a mut Path,
    /// 0 for the caller's thread (the one that reports progress).
    pub(super) thread: usize,
}

/// What `mid` returns for a node: its numbers for its mover and, once it is proven, its
/// proof.
#[derive(Clone, Copy, Debug)]
pub(super) struct NodeResult {
    /// φ: 0 when the mover wins, ∞ when it loses.
    pub(super) pn: u64,
    /// δ: ∞ when the mover wins, 0 when it loses.
    pub(super) dn: u64,
    /// Once proven: the proof's attributes (Theorem 1), restricted to the node's history.
    pub(super) attrs: Attrs,
    /// Once proven: the strongest komi (half-points) at which the proof holds for its winner.
    pub(super) holds: i32,
    /// Once the mover wins: the winning move in the node's own frame. A node proven by its
    /// own expansion always has one; one proven by its table entry has one only at the root
    /// (the only place it is read), and only if the entry kept one.
    pub(super) best: Option<Move>,
}

impl NodeResult {
    /// An unproven node's numbers.
    const fn open(pn: u64, dn: u64, komi2: i32) -> Self {
        NodeResult {
            pn,
            dn,
            attrs: Attrs::LEAF,
            holds: komi2,
            best: None,
        }
    }

    /// A proven node: the mover wins (with `best`) or loses.
    const fn proven(mover_wins: bool, attrs: Attrs, holds: i32, best: Option<Move>) -> Self {
        NodeResult {
            pn: if mover_wins { 0 } else { INF },
            dn: if mover_wins { INF } else { 0 },
            attrs,
            holds,
            best,
        }
    }
}

/// What one thread's root search returned.
#[derive(Clone, Copy, Debug)]
pub(super) struct RootResult {
    /// Whether the root's mover wins (`None`: no answer).
    pub(super) mover_wins: Option<bool>,
    pub(super) best: Option<Move>,
    pub(super) holds: i32,
}

impl<'a> Worker<'a> {
    /// One thread's df-pn from the root of `line` until the root is proven, the budget runs
    /// out, or another thread has answered.
    pub(super) fn run(q: &'a Query<'a>, p: &'a mut Path, thread: usize, line: &Line) -> RootResult {
        p.expansions = 0;
        p.nodes = 0;
        p.flushed = (0, 0);
        p.flushed_evictions = p.table.evictions;
        p.aborted = false;
        p.clear_line();
        let nsym = q.geo.num_symmetries();
        for b in &line.boards {
            let canon = (0..nsym).map(|s| b.sym_hash(q.geo, s)).min().unwrap_or(0);
            let h = b.hash(q.geo);
            p.push(*b, h, canon);
        }
        let mut w = Worker { q, p, thread };
        let root = root_state(q.geo, line);
        let key = w.key_of(&root);
        let r = w.mid(&root, &key, INF, INF);
        let mover_wins = if r.pn == 0 {
            Some(true)
        } else if r.dn == 0 {
            Some(false)
        } else {
            None
        };
        if mover_wins.is_some() {
            q.shared.done.store(true, Ordering::Relaxed);
        }
        RootResult {
            mover_wins,
            best: if r.pn == 0 { r.best } else { None },
            holds: if mover_wins.is_some() {
                r.holds
            } else {
                q.komi2
            },
        }
    }

    pub(super) fn check_budget(&mut self) {
        let q = self.q;
        let p = &mut *self.p;
        let exact = q.cfg.limits.max_expansions > 0 && q.threads > 1;
        if exact {
            // Several threads with a budget: every expansion takes a ticket, so that the
            // threads together spend exactly the budget (an expansion past it is not counted).
            let ticket = q.shared.expansions.fetch_add(1, Ordering::Relaxed);
            if ticket >= q.cfg.limits.max_expansions {
                p.expansions -= 1;
                p.aborted = true;
            } else if ticket + 1 >= q.cfg.limits.max_expansions {
                p.aborted = true;
            }
        } else if q.cfg.limits.max_expansions > 0 {
            // With one thread `shared` is this thread's flushed count: the sum is exact.
            let total = q.shared.expansions.load(Ordering::Relaxed) + (p.expansions - p.flushed.0);
            if total >= q.cfg.limits.max_expansions {
                p.aborted = true;
            }
        }
        if p.expansions & 0x3FF == 0 {
            if !exact {
                q.shared
                    .expansions
                    .fetch_add(p.expansions - p.flushed.0, Ordering::Relaxed);
            }
            q.shared
                .nodes
                .fetch_add(p.nodes - p.flushed.1, Ordering::Relaxed);
            q.shared
                .evictions
                .fetch_add(p.table.evictions - p.flushed_evictions, Ordering::Relaxed);
            p.flushed = (p.expansions, p.nodes);
            p.flushed_evictions = p.table.evictions;
            if q.shared.done.load(Ordering::Relaxed) {
                p.aborted = true;
            }
            if q.cfg.limits.cancelled() {
                p.aborted = true;
            }
            if let Some(t) = q.cfg.limits.max_time
                && q.start.elapsed() >= t
            {
                p.aborted = true;
            }
            if p.expansions & 0xFFFF == 0 && self.thread == 0 {
                if let Some(plan) = q.cfg.checkpoint.as_deref().filter(|c| c.due()) {
                    // A failure is recorded in the plan (and shown on the progress line);
                    // the search goes on, and the last good checkpoint stays.
                    let _ = plan.save(q.table);
                }
                if let Some(f) = &q.cfg.progress {
                    let shallow = q.shared.shallow_proof_ms.load(Ordering::Relaxed);
                    let elapsed = q.start.elapsed();
                    let secs = elapsed.as_secs_f64();
                    let (phi, delta) = (Pn::new(p.root_numbers.0), Pn::new(p.root_numbers.1));
                    f(&Progress {
                        expansions: q.shared.expansions.load(Ordering::Relaxed),
                        nodes: q.shared.nodes.load(Ordering::Relaxed),
                        elapsed,
                        detail: SearchDetail {
                            root: (phi, delta),
                            claim: if q.asked == q.root_mover {
                                (q.asked, phi, delta)
                            } else {
                                (q.asked, delta, phi)
                            },
                            komi: games::go::Komi::from_half_points(q.komi2),
                            table_fill: q.table.fill_sample(),
                            evictions: q.shared.evictions.load(Ordering::Relaxed),
                            since_shallow_proof: (shallow > 0)
                                .then(|| secs - (shallow - 1) as f64 / 1000.0),
                            checkpoint: q.cfg.checkpoint.as_deref().map(super::Checkpoint::last),
                        },
                    });
                }
            }
        }
    }

    /// Whether the mover of a finished game (after two passes on `board`) wins.
    #[inline]
    pub(super) fn mover_wins_final(&self, board: &Board, mover: Player) -> bool {
        black_wins(board.area_score(self.q.geo), self.q.komi2) == (mover == Player::Black)
    }

    /// Stores a node's numbers, or its proof (attributes already restricted to the node's
    /// history; transferable when they have no exclusion target), with its best move and
    /// the expansions spent below it.
    pub(super) fn store(
        &mut self,
        st: &NodeState,
        key: &NodeKey,
        r: &NodeResult,
        best: Move,
        effort: u64,
    ) {
        let (pn, dn, attrs, holds) = (r.pn, r.dn, &r.attrs, r.holds);
        let b = if best == Move(NO_MOVE) {
            NO_MOVE
        } else {
            self.q.geo.map_move(key.sym as usize, best).0
        };
        if (pn == 0 || dn == 0) && self.p.depth <= 2 {
            let ms = self.q.start.elapsed().as_millis() as u64 + 1;
            self.q.shared.shallow_proof_ms.store(ms, Ordering::Relaxed);
        }
        if (pn == 0 || dn == 0) && self.q.cfg.sample_every > 0 {
            self.p.stored_proofs += 1;
            if self
                .p
                .stored_proofs
                .is_multiple_of(u64::from(self.q.cfg.sample_every))
            {
                let f = features_half_points(self.q.geo, &st.board, st.to_move, self.q.komi2);
                self.p.samples.push((f, pn == 0));
            }
        }
        let what = if pn == 0 || dn == 0 {
            let packed = transfer::pack(self.q.geo, attrs, key.sym, &self.p.boards);
            if attrs.excl_min == NO_TARGET {
                self.p.know.transferable_proofs += 1;
            } else if attrs.excl_many {
                self.p.know.many_target_proofs += 1;
            } else {
                self.p.know.targeted_proofs += 1;
            }
            if self.q.transfer && attrs.excl_min == NO_TARGET {
                StoreKind::PositionProof(pn == 0, packed)
            } else {
                StoreKind::PathProof(pn == 0, packed)
            }
        } else {
            StoreKind::Unproven(pn, dn)
        };
        // A proof is stored at the strongest komi it holds at, so that it also answers the
        // questions of later komis that it settles.
        let komi2 = if pn == 0 || dn == 0 {
            holds
        } else {
            self.q.komi2
        };
        let record = Record {
            what,
            komi2,
            best: b,
            effort,
        };
        self.q
            .table
            .query(key, st.to_move)
            .store(&record, &mut self.p.table);
    }

    /// The recursive procedure (one call = one expansion): the multiple-iterative-deepening
    /// step of df-pn (Nagai 2002) in negamax form, 1+ε (Pawlewicz and Lew 2007). Expands the
    /// node until its (φ, δ) reach the thresholds or it is proven, stores it, and returns its
    /// numbers, with the proof's attributes, [`super::Proof::holds`] komi and winning move
    /// once proven.
    pub(super) fn mid(
        &mut self,
        st: &NodeState,
        key: &NodeKey,
        th_pn: u64,
        th_dn: u64,
    ) -> NodeResult {
        self.p.expansions += 1;
        let d = (self.p.depth as usize).min(super::DEPTHS - 1);
        self.p.know.depth_expansions[d] += 1;
        self.check_budget();
        let start_exp = self.p.expansions;
        let len = self.p.boards.len();
        let prior_effort = match self.enter(st, key, len) {
            Ok(effort) => effort,
            Err(stored) => return stored,
        };
        // Children of a node never stored before are (but for rare transpositions) not stored
        // in its game either: skip their path probes. Skipping is always sound.
        let probe = self.p.expansions <= 1 || self.q.table.query(key, st.to_move).seen();
        let base = self.p.children.len();
        let (own, own_holds) = match self.generate(st, probe) {
            Generated::Won { mv, attrs, holds } => {
                self.p.children.truncate(base);
                let attrs = attrs.restrict(len);
                let r = NodeResult::proven(true, attrs, holds, Some(mv));
                self.store(st, key, &r, mv, 1 + prior_effort);
                return r;
            }
            Generated::Open { own, own_holds } => (own, own_holds),
        };
        let end = self.p.children.len();
        let (pn, dn, best_i) = loop {
            let (pn, dn, best_i, d2) = numbers(&self.p.children[base..end]);
            let best_i = base + best_i;
            if self.p.depth == 0 {
                self.p.root_numbers = (pn, dn);
            }
            if pn == 0 || dn == 0 || pn >= th_pn || dn >= th_dn || self.p.aborted {
                break (pn, dn, best_i);
            }
            // Virtual loss (parallel search): children other threads are below look worse,
            // but only at the nodes of the asked winner's opponent. When the asked winner
            // wins, every child there needs its own proof, so threads spread over them share
            // the work; at the winner's own nodes one child is enough, and a thread sent to
            // a second one mostly searches a move no proof needs. Measured on two threads
            // (docs/log/2026-12-03-threads.md): 3x5 92,770 expansions on average against 115,557 with
            // virtual loss at every node; 4x4, 2x8 and 4x5 within noise.
            let (sel, d2) = match self.q.busy {
                Some(busy) if st.to_move != self.q.asked => {
                    busy.select(&self.p.children[base..end], base, best_i, d2, th_pn)
                }
                _ => (best_i, d2),
            };
            let c = &self.p.children[sel];
            let c_th_pn = if th_dn == INF {
                INF
            } else {
                sat_add(th_dn - dn, c.pn)
            };
            let grow = if d2 == INF {
                INF
            } else {
                (((d2 as f64) * (1.0 + self.q.cfg.epsilon)).ceil() as u64).max(d2 + 1)
            };
            self.descend(sel, c_th_pn, th_pn.min(grow));
        };
        let best = if end > base {
            self.p.children[best_i].mv
        } else {
            Move(NO_MOVE)
        };
        let r = if pn == 0 {
            let (attrs, holds) = self.won_attrs(best_i, len);
            NodeResult::proven(true, attrs, holds, Some(best))
        } else if dn == 0 {
            let (attrs, holds) = self.lost_attrs(st, base..end, own, own_holds, len);
            NodeResult::proven(false, attrs, holds, None)
        } else {
            NodeResult::open(pn, dn, self.q.komi2)
        };
        self.p.children.truncate(base);
        let effort = prior_effort + (self.p.expansions - start_exp + 1);
        self.store(st, key, &r, best, effort);
        if self.p.depth == 0 {
            self.p.root_numbers = (pn, dn);
        }
        r
    }

    /// The node's own table entry: `Err` with its proof when one applies, otherwise `Ok` with the
    /// expansions already spent below it (0 for a node new to the table, counted in `nodes`).
    pub(super) fn enter(
        &mut self,
        st: &NodeState,
        key: &NodeKey,
        len: usize,
    ) -> Result<u64, NodeResult> {
        match self.lookup(key, st, len, true) {
            Probe::Proven(f) => {
                let attrs = transfer::unpack(
                    self.q.geo,
                    &f.attrs,
                    key.sym,
                    &st.board,
                    &self.p.boards[..len],
                );
                // Only the root's move is read back (from the canonical frame).
                let best = (self.p.depth == 0 && f.mover_wins && f.best != NO_MOVE).then(|| {
                    let inv = self.q.geo.inverse(key.sym as usize);
                    self.q.geo.map_move(inv, Move(f.best))
                });
                Err(NodeResult::proven(f.mover_wins, attrs, f.komi2, best))
            }
            Probe::Unproven { effort, .. } => Ok(effort),
            Probe::Miss => {
                self.p.nodes += 1;
                let d = (self.p.depth as usize).min(super::DEPTHS - 1);
                self.p.know.depth_nodes[d] += 1;
                Ok(0)
            }
        }
    }

    /// Searches child `sel` of the node on top of the path with thresholds (φ, δ) and
    /// writes its new numbers (and, once proven, its attributes) back into the arena.
    pub(super) fn descend(&mut self, sel: usize, th_pn: u64, th_dn: u64) {
        let c = self.p.children[sel];
        let pushed = !c.mv.is_pass();
        if pushed {
            let canon = c.state.canonical_board_hash(self.q.geo.num_symmetries());
            self.p.push(c.state.board, c.state.h1[0], canon);
        }
        self.p.depth += 1;
        if let Some(busy) = self.q.busy {
            busy.enter(&c.key);
        }
        let r = self.mid(&c.state, &c.key, th_pn, th_dn);
        if let Some(busy) = self.q.busy {
            busy.leave(&c.key);
        }
        self.p.depth -= 1;
        if pushed {
            self.p.pop();
        }
        let cm = &mut self.p.children[sel];
        (cm.pn, cm.dn) = (r.pn, r.dn);
        if r.pn == 0 || r.dn == 0 {
            (cm.attrs, cm.holds) = (r.attrs, r.holds);
        }
    }
}
