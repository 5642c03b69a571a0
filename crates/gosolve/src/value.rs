//! A position's value from two proofs, found by bisection over komi.
//!
//! The value v is Black's area minus White's under optimal play. It is established by two
//! proofs: Black wins at komi v − ½ and White wins at komi v + ½. Every answer of the solver at
//! a komi k = u − ½ is one of the two bounds: Black wins (v ≥ u) or White wins (v ≤ u − 1).
//! Starting from the sure bounds −R·C ≤ v ≤ R·C, the questions are ordered to cost close to
//! the two deciding proofs:
//!
//! 1. a first guess g of the value ([`probe_guess`]: short df-pn probes of 50 expansions a
//!    point, first the side to move's full-board claim as a trial that takes what it
//!    stored out of the table again when it fails, then a bisection asking both sides at
//!    each komi; a probe that ends proven is a real bound), or the caller's guess;
//! 2. galloping from g: thresholds g, g + 1, g + 2, g + 3, g + 5, g + 9, … while Black keeps
//!    winning (or g − 1, g − 2, … while White does; every proof also moves the bound as far
//!    as its [`Proof::holds`] reaches), so a right guess costs exactly the two deciding proofs
//!    and a guess off by d about log2(d) more questions;
//! 3. bisection once both sides have won a question.
//!
//! Proofs stay in the table between questions: a proof at komi k answers every komi better
//! for its winner, and unproven numbers are shared by position. A bound at ±R·C needs no
//! proof (no score can leave the board), so a full-board value v = R·C needs only Black's.
//!
//! With winner-side pruning a question whose pruned side loses comes back unknown; the same
//! komi is then asked of the other side, with its moves pruned. When that one too ends in a
//! loss of its pruned side (pruning is incomplete: it can hide the only good move, such as
//! filling one's own eye to save a chain), the question is asked again unpruned, so pruning
//! never turns a solvable position into an unknown one. A question left unknown by the budget
//! or an interrupt is not asked again: the bisection stops there.
//!
//! The principal variation follows, at each node, the mover's winning move in the mover's own
//! proof (Black's at v − ½, White's at v + ½), re-proving a node from the table when its entry
//! was evicted. It stays inside both proof trees, so it ends (two passes) with score exactly v.

use crate::board::Move as FastMove;
use crate::position::{Line, reference};
use crate::root::Root;
use crate::search::{Answer, Proof, Solver};
use games::Player;
use games::go::{Komi, Move};

/// What the bisection established.
#[derive(Clone, Debug, PartialEq)]
pub struct Solved {
    /// Proven lower bound on the value.
    pub lower: i32,
    /// Proven upper bound on the value.
    pub upper: i32,
    /// The short probes that placed the first question (see [`probe_guess`]), in order;
    /// those that ended proven also moved the bounds.
    pub probes: Vec<Proof>,
    /// The first threshold asked: the caller's guess, or the probes' (clamped to the board).
    pub guess: i32,
    /// Every question asked, in order.
    pub proofs: Vec<Proof>,
    /// The value when `lower == upper`.
    pub value: Option<i32>,
    /// A best move of the side to move (when the value is known and the game not over).
    pub best_move: Option<Move>,
    /// Principal variation to the end of the game (when the value is known).
    pub pv: Vec<Move>,
    /// Whether the PV replayed legally to a finished game scored exactly `value`.
    pub pv_checked: bool,
}

impl Solved {
    /// The two proofs that establish the value (Black's at v − ½, White's at v + ½), those
    /// that exist, from the questions or the probes.
    #[must_use]
    pub fn deciding_proofs(&self) -> Vec<Proof> {
        let mut out = Vec::new();
        let Some(v) = self.value else { return out };
        for (w, k2) in [(Player::Black, 2 * v - 1), (Player::White, 2 * v + 1)] {
            // A probe that ended proven is a real answer (small boards end in the probes).
            if let Some(p) = self.proofs.iter().chain(&self.probes).rev().find(|p| {
                p.answer != Answer::Unknown
                    && p.proven_winner() == Some(w)
                    && p.settles(Komi::from_half_points(k2))
            }) {
                out.push(*p);
            }
        }
        out
    }
}

impl Proof {
    /// Whether this proof answers the question at `komi` for its proven winner: it was
    /// asked at a komi no better for the winner, and the proof still holds at `komi`
    /// ([`Proof::holds`]).
    #[must_use]
    pub fn settles(&self, komi: Komi) -> bool {
        match self.proven_winner() {
            Some(Player::Black) => self.komi <= komi && komi <= self.holds,
            Some(Player::White) => self.holds <= komi && komi <= self.komi,
            None => false,
        }
    }

    /// The bound on the value that this proof establishes: Black's win gives v ≥ the lower
    /// bound, White's v ≤ the upper (from [`Proof::holds`]); `None` when unproven.
    #[must_use]
    pub fn bound(&self) -> Option<(Player, i32)> {
        match self.proven_winner()? {
            Player::Black => Some((Player::Black, (self.holds.half_points() + 1).div_euclid(2))),
            Player::White => Some((Player::White, (self.holds.half_points() - 1).div_euclid(2))),
        }
    }

    /// The player proven to win, if any.
    #[must_use]
    pub fn proven_winner(&self) -> Option<Player> {
        match self.answer {
            Answer::Proven => Some(self.winner),
            Answer::Disproven => Some(self.winner.opponent()),
            Answer::Unknown => None,
        }
    }
}

/// Finds the value of `root` by bisection over komi. `on_proof` is called after
/// each question (for progress output; [`Proof::pruned`] tells a pruned question from its
/// unpruned repeat). Stops early, with the bounds known so far, when a question comes back
/// unknown (budget or Ctrl-C).
///
/// # Panics
/// If `root` is not a position of the solver's size.
pub fn solve_value(solver: &mut Solver, root: &impl Root, on_proof: impl FnMut(&Proof)) -> Solved {
    solve_value_from(solver, root, None, on_proof)
}

/// [`solve_value`] with a first guess `g` of the value (points, clamped to the board): the
/// first question is "does Black win at komi g − ½?", then the bisection goes on as usual.
/// A guess only orders the questions; the value needs the same two proofs whatever it is
/// (one, for a full-board value such as 4x5's: `Some(20)` settles it with Black's proof at
/// komi 19.5).
///
/// # Panics
/// As [`solve_value`].
pub fn solve_value_from(
    solver: &mut Solver,
    root: &impl Root,
    first_guess: Option<i32>,
    mut on_proof: impl FnMut(&Proof),
) -> Solved {
    let line = &*root.line(solver.geometry());
    let n = solver.geometry().points() as i32;
    let (mut lower, mut upper) = (-n, n);
    let mut proofs = Vec::new();
    if line.over {
        let s = line.score(solver.geometry());
        return Solved {
            lower: s,
            upper: s,
            probes: Vec::new(),
            guess: s,
            proofs,
            value: Some(s),
            best_move: None,
            pv: Vec::new(),
            pv_checked: true,
        };
    }
    let mut probes = Vec::new();
    let guess = match first_guess {
        Some(g) => g,
        None => probe_guess(solver, line, &mut lower, &mut upper, &mut probes),
    }
    .clamp(lower.min(upper - 1) + 1, upper.max(lower + 1));
    let mut order = QuestionOrder::new(guess);
    let mut complete = !probes
        .iter()
        .any(|p| p.answer == Answer::Unknown && cancelled(solver));
    while complete && lower < upper {
        let u = order.next(lower, upper);
        // Ask the side to move: its question is the natural one for the first move.
        let mover = line.position.to_move;
        let mut p = solver.prove(line, mover, Komi::from_half_points(2 * u - 1));
        if p.pruned_loss {
            // Winner-side pruning: a loss of the pruned side proves nothing; ask the other
            // side, with its own moves pruned.
            on_proof(&p);
            proofs.push(p);
            p = solver.prove(line, mover.opponent(), Komi::from_half_points(2 * u - 1));
        }
        if p.pruned_loss {
            // Both pruned searches lost: ask again without pruning.
            on_proof(&p);
            proofs.push(p);
            p = prove_unpruned(solver, line, mover, 2 * u - 1);
        }
        on_proof(&p);
        proofs.push(p);
        match tighten(&p, &mut lower, &mut upper) {
            Some(Player::Black) => order.black_won = true,
            Some(Player::White) => order.white_won = true,
            None => {
                complete = false;
                break;
            }
        }
    }
    let mut out = Solved {
        lower,
        upper,
        probes,
        guess,
        proofs,
        value: None,
        best_move: None,
        pv: Vec::new(),
        pv_checked: false,
    };
    if complete && lower == upper {
        let v = lower;
        out.value = Some(v);
        let (pv, ok) = principal_variation(solver, line, v);
        out.best_move = pv.first().copied();
        out.pv = pv;
        out.pv_checked = ok;
    }
    out
}

/// Where the next question goes: galloping from the guess g (thresholds g, g + 1, g + 2,
/// g + 3, g + 5, g + 9, … while Black keeps winning; g − 1, g − 2, … while White does), then
/// bisection once both sides have won a question. With a right guess the first two
/// questions are the two deciding proofs; a guess off by d costs about log2(d) more.
struct QuestionOrder {
    guess: i32,
    step: i32,
    taken: u32,
    black_won: bool,
    white_won: bool,
}

impl QuestionOrder {
    fn new(guess: i32) -> Self {
        QuestionOrder {
            guess,
            step: 1,
            taken: 0,
            black_won: false,
            white_won: false,
        }
    }

    /// The next threshold u (the question "v ≥ u?", komi u − ½), within (lower, upper].
    fn next(&mut self, lower: i32, upper: i32) -> i32 {
        let u = match (self.black_won, self.white_won) {
            (false, false) => self.guess,
            (true, false) => lower + self.step,
            (false, true) => upper + 1 - self.step,
            (true, true) => lower + (upper - lower + 1) / 2,
        };
        if self.black_won != self.white_won {
            // Steps 1, 1, 2, 4, …: a guess is most often off by one or two.
            self.taken += 1;
            if self.taken >= 2 {
                self.step = self.step.saturating_mul(2);
            }
        }
        u.clamp(lower + 1, upper)
    }
}

/// Expansions of one probe of [`probe_guess`] on a board of `points` points: 50 a point, the
/// fewest expansions over the bench boards among the budgets tried (the sweep:
/// docs/log/2026-12-06-bench-boards.md, "The probes' budget").
#[must_use]
pub const fn probe_budget(points: u32) -> u64 {
    50 * points as u64
}

/// A first guess of the value from short searches, each a df-pn question cut off after
/// [`probe_budget`] expansions:
///
/// 1. the side to move's full-board claim (Black: v = R·C, komi R·C − ½; White: v = −R·C),
///    as a trial ([`Solver::prove_trial`]). On boards small enough for a probe to prove it,
///    that is the one question a full-board value needs (2x4 and 3x3 are proven by it
///    alone). When it ends unknown it takes what it stored out of the table again, so on a
///    fresh table the solve then runs exactly as without it, for the budget more: a trial
///    that kept its proofs moved the probes after it (docs/log/2026-12-06-ablations.md, "The
///    first question");
/// 2. a bisection over the thresholds u in (lower, upper], each step the question "does
///    the side to move win at komi u − ½?". A probe that ends proven is a real answer and
///    moves `lower`/`upper`, and the next probe then asks the proven side's full-board claim
///    (a trial, once a side); an unknown one is asked again of the other side, and the two
///    roots' numbers place the value (the side to move more likely wins when its proof
///    number is below its disproof number).
///
/// The probes go in `probes`. The guess only orders the questions that follow, never the
/// value.
///
/// # Panics
/// As [`solve_value`].
pub fn probe_guess(
    solver: &mut Solver,
    root: &impl Root,
    lower: &mut i32,
    upper: &mut i32,
    probes: &mut Vec<Proof>,
) -> i32 {
    let line = &*root.line(solver.geometry());
    let points = solver.geometry().points() as u32;
    let saved = solver.config().limits.max_expansions;
    let budget = probe_budget(points);
    solver.config_mut().limits.max_expansions = if saved == 0 {
        budget
    } else {
        saved.min(budget)
    };
    let mover = line.position.to_move;
    let (mut lo, mut hi) = (*lower, *upper);
    // The full-board claim to ask next, and whose claims were asked.
    let mut extreme = Some(mover);
    let mut tried = [false; 2];
    while lo < hi {
        let claim = extreme.take();
        let u = match claim {
            Some(Player::Black) => *upper,
            Some(Player::White) => *lower + 1,
            None => lo + (hi - lo + 1) / 2,
        };
        let p = match claim {
            Some(w) => {
                tried[w.index()] = true;
                solver.prove_trial(line, mover, Komi::from_half_points(2 * u - 1))
            }
            None => solver.prove(line, mover, Komi::from_half_points(2 * u - 1)),
        };
        probes.push(p);
        // A proven probe: the range moves to the proven bound, and the winner's claim is next.
        let mut proven = |w: Player, lower: i32, upper: i32, lo: &mut i32, hi: &mut i32| {
            match w {
                Player::Black => *lo = lower,
                Player::White => *hi = upper,
            }
            if !tried[w.index()] {
                extreme = Some(w);
            }
        };
        match tighten(&p, lower, upper) {
            Some(w) => proven(w, *lower, *upper, &mut lo, &mut hi),
            None if cancelled(solver) => break,
            // A claim left unknown says nothing about where the value lies.
            None if claim.is_some() => {}
            None => {
                // The same komi asked of the other side: each search's proof number of its
                // own side's win (the root's φ, then its δ) estimates that side's effort.
                let (pn, _) = solver.root_numbers();
                let q = solver.prove(line, mover.opponent(), Komi::from_half_points(2 * u - 1));
                probes.push(q);
                let dn = match tighten(&q, lower, upper) {
                    Some(w) => {
                        proven(w, *lower, *upper, &mut lo, &mut hi);
                        continue;
                    }
                    None if cancelled(solver) => break,
                    None => solver.root_numbers().1,
                };
                // u lies in (lo, hi]: a bisection step.
                if (pn < dn) == (mover == Player::Black) {
                    lo = u;
                } else {
                    hi = u - 1;
                }
            }
        }
    }
    solver.config_mut().limits.max_expansions = saved;
    lo
}

/// Moves `lower` or `upper` by a proven answer, as far as its [`Proof::holds`] reaches
/// (questions are asked inside (lower, upper], so the bound never moves back); returns the
/// proven winner, `None` when the answer is unknown.
fn tighten(p: &Proof, lower: &mut i32, upper: &mut i32) -> Option<Player> {
    let (w, b) = p.bound()?;
    match w {
        Player::Black => *lower = b.clamp(*lower, *upper),
        Player::White => *upper = b.clamp(*lower, *upper),
    }
    Some(w)
}

fn cancelled(solver: &Solver) -> bool {
    solver.config().limits.cancelled()
}

/// [`Solver::prove`] with winner-side pruning switched off for this one question.
fn prove_unpruned(solver: &mut Solver, line: &Line, winner: Player, komi2: i32) -> Proof {
    let prune = solver.config().prune;
    solver.config_mut().prune = false;
    let p = solver.prove(line, winner, Komi::from_half_points(komi2));
    solver.config_mut().prune = prune;
    p
}

/// The principal variation of a position of known value `v`, and whether it replayed legally
/// to a finished game scored exactly `v`.
///
/// # Panics
/// As [`solve_value`].
pub fn principal_variation(solver: &mut Solver, root: &impl Root, v: i32) -> (Vec<Move>, bool) {
    let geo = solver.geometry().clone();
    let (pv, ok) = fast_principal_variation(solver, &root.line(&geo), v);
    let pv = pv
        .iter()
        .map(|&m| reference::to_reference(&geo, m))
        .collect();
    (pv, ok)
}

/// [`principal_variation`] of the back end's superko game, in its moves.
fn fast_principal_variation(solver: &mut Solver, line: &Line, v: i32) -> (Vec<FastMove>, bool) {
    let n = solver.geometry().points() as i32;
    let geo = solver.geometry().clone();
    let mut l = line.clone();
    let mut pv = Vec::new();
    let limit = 64 * n as usize + 64;
    while !l.over && pv.len() < limit {
        let mover = l.position.to_move;
        // The side whose bound is the trivial one (full-board values) has no proof: pass.
        let trivial = (mover == Player::White && v == n) || (mover == Player::Black && v == -n);
        let m = if trivial {
            FastMove::PASS
        } else {
            let k2 = if mover == Player::Black {
                2 * v - 1
            } else {
                2 * v + 1
            };
            let mut p = solver.prove(&l, mover, Komi::from_half_points(k2));
            if p.pruned_loss {
                p = prove_unpruned(solver, &l, mover, k2);
            }
            match (p.answer, p.best_move) {
                (Answer::Proven, Some(m)) => reference::to_fast(&geo, m),
                _ => return (pv, false),
            }
        };
        if l.play(&geo, m).is_err() {
            return (pv, false);
        }
        pv.push(m);
    }
    let ok = l.over && l.score(&geo) == v;
    (pv, ok)
}
