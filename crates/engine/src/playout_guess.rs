//! A first guess of a Go position's value from Monte Carlo playouts, for the komi bisection
//! (`gosolve::value`) of `tsumi solve`, `tsumi bench` and the GTP engine's solves.
//!
//! The guess only orders the questions: the value still needs its two proofs, whatever the
//! guess. At each threshold u (komi u − ½) a UCT search ([`mcts`], [`PLAYOUTS`] playouts,
//! the eye-preserving Go rollout, a fixed seed) on [`FastGo`] under positional superko gives
//! Black's win rate r(u): the mean reward of the root's most visited move, seen from Black.
//! r falls as the komi rises; the guess is the largest u with r(u) > ½, found by bisection.
//!
//! The estimate is used only when the playouts can tell komis apart: r at the lowest
//! threshold must be above ½, r at the highest below, and the two must differ by at least
//! [`MIN_SPREAD`]. Random games on small two-dimensional boards mostly end with one side
//! owning the whole board, so their win rate hardly moves with the komi, and the solver's
//! own probes guess there ([`gosolve::value::probe_guess`]); on one-row boards, and on 2x2
//! and 2x3, the playouts separate the komis. The spreads measured and the guesses on the
//! one-row boards are in docs/log/2026-12-04-playout-guess.md.

use games::Game;
use games::fastgo::{FastGo, FastGoState};
use games::go::{KoRule, Komi, Move};
use mcts::{Algorithm, Budget, GoRollout, Params, Searcher};

/// Playouts of each search.
pub const PLAYOUTS: u64 = 5_000;

/// The smallest fall of Black's win rate from the lowest threshold to the highest for the
/// playouts' guess to be used.
pub const MIN_SPREAD: f64 = 0.25;

/// The seed of every search (the guess is reproducible).
const SEED: u64 = 7;

/// What the playouts said.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayoutGuess {
    /// The guessed value (points for Black), `None` when the playouts cannot tell komis apart.
    pub value: Option<i32>,
    /// Black's win rate at each threshold searched, `(u, r(u))`, in the order searched.
    pub rates: Vec<(i32, f64)>,
    /// Playouts run in all.
    pub playouts: u64,
}

/// The playouts' guess of the value of the position reached from the empty `rows`×`cols`
/// board by `moves` (Black first), under positional superko and area scoring.
///
/// Returns a guess with `value: None` (nothing searched or nothing usable) when the board is
/// not one [`FastGo`] plays, a move is not legal there, the game is over, or the win rate
/// does not separate the komis (see the module documentation).
#[must_use]
pub fn playout_guess(rows: usize, cols: usize, moves: &[Move]) -> PlayoutGuess {
    let mut out = PlayoutGuess {
        value: None,
        rates: Vec::new(),
        playouts: 0,
    };
    let n = (rows * cols) as i32;
    let (Ok(r), Ok(c)) = (u8::try_from(rows), u8::try_from(cols)) else {
        return out;
    };
    let game = |u: i32| {
        FastGo::new(r, c, Komi::from_half_points(2 * u - 1))
            .map(|g| g.with_ko_rule(KoRule::PositionalSuperko))
    };
    let Ok(g0) = game(0) else { return out };
    let mut state = g0.initial();
    let mut legal = Vec::new();
    for &m in moves {
        g0.legal_moves(&state, &mut legal);
        if g0.outcome(&state).is_some() || !legal.contains(&m) {
            return out;
        }
        g0.play(&mut state, m);
    }
    if g0.outcome(&state).is_some() {
        return out;
    }
    let rate = |u: i32, out: &mut PlayoutGuess| -> Option<f64> {
        let g = game(u).ok()?;
        let r = black_win_rate(&g, &state, &mut out.playouts)?;
        out.rates.push((u, r));
        Some(r)
    };
    let (mut lo, mut hi) = (-n + 1, n);
    let (Some(r_lo), Some(r_hi)) = (rate(lo, &mut out), rate(hi, &mut out)) else {
        return out;
    };
    if !(r_lo > 0.5 && r_hi < 0.5 && r_lo - r_hi >= MIN_SPREAD) {
        return out;
    }
    // r(lo) > ½ ≥ r(hi) throughout.
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        let Some(r) = rate(mid, &mut out) else {
            return out;
        };
        if r > 0.5 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    out.value = Some(lo);
    out
}

/// Black's win rate at `state` from one UCT search: the mean reward of the most visited root
/// move, seen from Black; `None` when the search has no root moves (a single legal move is
/// answered without playouts).
fn black_win_rate(game: &FastGo, state: &FastGoState, playouts: &mut u64) -> Option<f64> {
    let params = Params::new(Algorithm::Uct).with_budget(Budget::Playouts(PLAYOUTS));
    let mut searcher = Searcher::new(game, params, GoRollout::default(), SEED);
    let (_, stats) = searcher.search(game, state)?;
    *playouts += stats.playouts;
    let (_, _, mover) = searcher.root_moves().into_iter().max_by_key(|m| m.1)?;
    Some(if game.to_move(state) == games::Player::Black {
        mover
    } else {
        1.0 - mover
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_guess_on_one_row_boards_falls_where_the_playouts_cross() {
        // 1x7 (value +2) and 1x9 (value 0): the win rate crosses ½ between the value and
        // the next threshold.
        for (cols, want) in [(7, 2), (9, 0)] {
            let g = playout_guess(1, cols, &[]);
            assert_eq!(g.value, Some(want), "1x{cols}: {g:?}");
            assert!(g.playouts >= 2 * PLAYOUTS);
        }
    }

    #[test]
    fn flat_win_rates_give_no_guess() {
        // 4x4: random games end with one side owning the board at every komi.
        let g = playout_guess(4, 4, &[]);
        assert_eq!(g.value, None, "{g:?}");
        assert_eq!(g.rates.len(), 2);
    }

    #[test]
    fn a_finished_or_illegal_line_gives_no_guess() {
        let size = games::go::Size::new(1, 5).unwrap();
        let a1 = size.parse_move("A1").unwrap();
        // A1 twice: the second is not legal.
        assert_eq!(playout_guess(1, 5, &[a1, a1]).value, None);
        let over = playout_guess(1, 5, &[Move::Pass, Move::Pass]);
        assert_eq!(over.value, None);
        assert!(over.rates.is_empty());
    }
}
