//! A position's value from two proofs, found by bisection over komi.
//!
//! The value v is Black's area minus White's under optimal play. It is established by two
//! proofs: Black wins at komi v − ½ and White wins at komi v + ½. Every answer of the solver at
//! a komi k = u − ½ is one of the two bounds: Black wins (v ≥ u) or White wins (v ≤ u − 1).
//! Starting from the sure bounds −R·C ≤ v ≤ R·C, the first question is asked at the current
//! area margin (0 on the empty board), then the interval is halved. A bound at ±R·C needs no
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

use crate::board::Move;
use crate::position::Line;
use crate::search::{Answer, Proof, Solver};
use games::Player;

/// What the bisection established.
#[derive(Clone, Debug, PartialEq)]
pub struct Solved {
    /// Proven lower bound on the value.
    pub lower: i32,
    /// Proven upper bound on the value.
    pub upper: i32,
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
    /// that exist.
    #[must_use]
    pub fn deciding_proofs(&self) -> Vec<Proof> {
        let mut out = Vec::new();
        let Some(v) = self.value else { return out };
        for (w, k2) in [(Player::Black, 2 * v - 1), (Player::White, 2 * v + 1)] {
            if let Some(p) = self.proofs.iter().rev().find(|p| {
                p.komi2 == k2 && p.answer != Answer::Unknown && p.proven_winner() == Some(w)
            }) {
                out.push(*p);
            }
        }
        out
    }
}

impl Proof {
    /// The player proven to win, if any.
    #[must_use]
    pub fn proven_winner(&self) -> Option<Player> {
        match self.answer {
            Answer::Win => Some(self.winner),
            Answer::Loss => Some(self.winner.opponent()),
            Answer::Unknown => None,
        }
    }
}

/// Finds the value of the end of `line` by bisection over komi. `on_proof` is called after
/// each question (for progress output; [`Proof::pruned`] tells a pruned question from its
/// unpruned repeat). Stops early, with the bounds known so far, when a question comes back
/// unknown (budget or Ctrl-C).
pub fn solve_value(solver: &mut Solver, line: &Line, on_proof: impl FnMut(&Proof)) -> Solved {
    solve_value_from(solver, line, None, on_proof)
}

/// [`solve_value`] with a first guess `g` of the value (points, clamped to the board): the
/// first question is "does Black win at komi g − ½?", then the bisection goes on as usual.
/// A guess only orders the questions; the value needs the same two proofs whatever it is
/// (one, for a full-board value such as 4x5's: `Some(20)` settles it with Black's proof at
/// komi 19.5).
pub fn solve_value_from(
    solver: &mut Solver,
    line: &Line,
    first_guess: Option<i32>,
    mut on_proof: impl FnMut(&Proof),
) -> Solved {
    let n = solver.geometry().points() as i32;
    let (mut lower, mut upper) = (-n, n);
    let mut proofs = Vec::new();
    if line.over {
        let s = line.score(solver.geometry());
        return Solved {
            lower: s,
            upper: s,
            proofs,
            value: Some(s),
            best_move: None,
            pv: Vec::new(),
            pv_checked: true,
        };
    }
    let mut guess = Some(
        first_guess
            .unwrap_or_else(|| line.score(solver.geometry()))
            .clamp(lower + 1, upper),
    );
    let mut complete = true;
    while lower < upper {
        let u = guess.take().unwrap_or(lower + (upper - lower + 1) / 2);
        // Ask the side to move: its question is the natural one for the first move.
        let mover = line.position.to_move;
        let mut p = solver.prove(line, mover, 2 * u - 1);
        if p.pruned_loss {
            // Winner-side pruning: a loss of the pruned side proves nothing; ask the other
            // side, with its own moves pruned.
            on_proof(&p);
            proofs.push(p);
            p = solver.prove(line, mover.opponent(), 2 * u - 1);
        }
        if p.pruned_loss {
            // Both pruned searches lost: ask again without pruning.
            on_proof(&p);
            proofs.push(p);
            p = prove_unpruned(solver, line, mover, 2 * u - 1);
        }
        on_proof(&p);
        proofs.push(p);
        match p.proven_winner() {
            Some(Player::Black) => lower = u,
            Some(Player::White) => upper = u - 1,
            None => {
                complete = false;
                break;
            }
        }
    }
    let mut out = Solved {
        lower,
        upper,
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

/// [`Solver::prove`] with winner-side pruning switched off for this one question.
fn prove_unpruned(solver: &mut Solver, line: &Line, winner: Player, komi2: i32) -> Proof {
    let prune = solver.config().prune;
    solver.config_mut().prune = false;
    let p = solver.prove(line, winner, komi2);
    solver.config_mut().prune = prune;
    p
}

/// The principal variation of a position of known value `v`, and whether it replayed legally
/// to a finished game scored exactly `v`.
pub fn principal_variation(solver: &mut Solver, line: &Line, v: i32) -> (Vec<Move>, bool) {
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
            Move::PASS
        } else {
            let k2 = if mover == Player::Black {
                2 * v - 1
            } else {
                2 * v + 1
            };
            let mut p = solver.prove(&l, mover, k2);
            if p.pruned_loss {
                p = prove_unpruned(solver, &l, mover, k2);
            }
            match (p.answer, p.best_move) {
                (Answer::Win, Some(m)) => m,
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
