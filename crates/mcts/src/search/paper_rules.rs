//! One test per rule of the MCPS paper's Algorithms 1 and 2, on hand-made playouts (issue 36).
//!
//! The rules tested elsewhere, on playouts checked against brute force: freezing at `n(s) = ρ`
//! on a non-root node, once, over the path's codes (`tests.rs`,
//! `permutation_statistics_are_computed_at_rho_and_frozen`); the references of a descendant
//! (`grave_reference_is_nearest_ancestor_with_more_than_rho_visits`); moves with `ñ = 0` first
//! (`moves_without_amaf_samples_are_tried_first`); Equation 1 (`stat.rs`, `equation1`); the
//! AMAF update (`amaf_counts_the_first_occurrence_only`).

use super::*;
use crate::params::{Algorithm, Budget, Params};
use crate::rollout::Uniform;
use crate::stat::mcps_value;
use games::atarigo::AtariGo;
use games::tictactoe::TicTacToe;

/// Codes of the hand-made playouts below.
const A: u32 = 0;
const B: u32 = 1;
const C: u32 = 2;
const D: u32 = 3;
const E: u32 = 4;

/// Four playouts (codes in playing order, reward in half-points for Black): P0 a b c (Black
/// wins), P1 b a d (White wins), P2 a c (Black wins), P3 b c a c (draw).
fn four_playouts() -> Vec<(Vec<u32>, u32)> {
    vec![
        (vec![A, B, C], 2),
        (vec![B, A, D], 0),
        (vec![A, C], 2),
        (vec![B, C, A, C], 1),
    ]
}

fn stats(w: &mut PlayoutWindow, path: &[u32]) -> Vec<Stat> {
    let mut out = vec![Stat::default(); 5];
    w.permutation_stats(path, &mut out);
    out
}

/// Algorithm 2, lines 3–6 and 8–11: `V` is the AND of the path codes' bitsets, so a playout
/// counts when it holds every path code in any order (P0 plays a then b, P1 b then a, P3 b
/// … a), and `n̂(s,a)`, `ŵ(s,a)` count the playouts of `V` that also hold `a` (repeated codes
/// once: P3 plays c twice).
#[test]
fn v_is_the_and_of_the_path_codes_in_any_order() {
    let mut w = PlayoutWindow::new(5, 10);
    for (p, r) in four_playouts() {
        w.push(&p, r);
    }
    let s = stats(&mut w, &[A, B]);
    // V = {P0, P1, P3}; c in P0 (win) and P3 (draw); d in P1 (loss); e in none.
    assert_eq!(s[C as usize], Stat { n: 2, w: 2 + 1 });
    assert_eq!(s[D as usize], Stat { n: 1, w: 0 });
    assert_eq!(s[E as usize], Stat::default());
    // The path's own codes: every playout of V.
    assert_eq!(s[A as usize], Stat { n: 3, w: 3 });
    // The order of the path does not matter either.
    assert_eq!(stats(&mut w, &[B, A]), s);
    // One code: P0, P2, P3 hold a.
    assert_eq!(stats(&mut w, &[A])[C as usize], Stat { n: 3, w: 2 + 2 + 1 });
}

/// The window holds the W most recent playouts: the (W+1)-th replaces the first, its codes
/// and its outcome (bit `p mod W`).
#[test]
fn the_window_keeps_the_w_most_recent_playouts() {
    let mut w = PlayoutWindow::new(5, 3);
    for (p, r) in four_playouts() {
        w.push(&p, r);
    }
    assert_eq!(w.len(), 3);
    // P0 is gone: V(a, b) = {P1, P3}.
    let s = stats(&mut w, &[A, B]);
    assert_eq!(s[C as usize], Stat { n: 1, w: 1 });
    assert_eq!(s[D as usize], Stat { n: 1, w: 0 });
    // A fifth playout replaces P1 (slot 1): d leaves the window with it.
    w.push(&[E, A, B], 2);
    let s = stats(&mut w, &[A, B]);
    assert_eq!(s[D as usize], Stat::default());
    assert_eq!(s[E as usize], Stat { n: 1, w: 2 });
    assert_eq!(s[C as usize], Stat { n: 1, w: 1 });
}

/// Algorithm 2, line 13 and Equation 1: `Q̂ = 1` when `n̂ = 0` is the "optimistic default",
/// yet it has weight `n̂ = 0` in Equation 1, and `Q = 1` when `n = 0` has weight `n = 0`:
/// an unvisited move is valued by its AMAF and permutation samples alone.
#[test]
fn empty_sources_have_no_weight_in_equation_1() {
    let none = Stat::default();
    let amaf = Stat { n: 10, w: 5 }; // Q̃ = 0.25 for Black
    let perm = Stat { n: 30, w: 45 }; // Q̂ = 0.75 for Black
    let v = mcps_value(Player::Black, none, amaf, perm);
    assert!((v - (10.0 * 0.25 + 30.0 * 0.75) / 40.0).abs() < 1e-12);
    assert!((mcps_value(Player::Black, none, amaf, none) - 0.25).abs() < 1e-12);
    // Negated for the opponent: White's value is one minus Black's.
    assert!((mcps_value(Player::White, none, amaf, perm) - (1.0 - v)).abs() < 1e-12);
}

fn mcps(playouts: u64, window: usize) -> Params {
    let mut p = Params::new(Algorithm::Mcps).with_budget(Budget::Playouts(playouts));
    p.window = window;
    p
}

/// Algorithm 1, line 24: what enters the window is the whole game from the root, tree moves
/// and playout moves of both players (`P(root) ← P(root) ∪ s`), with its reward.
#[test]
fn the_window_receives_the_whole_game_from_the_root() {
    let game = TicTacToe::from_size("3").unwrap();
    let root = game.initial();
    let mut s = Searcher::new(&game, mcps(1, 100), Uniform, 3);
    s.begin(&game, &root);
    let mut st = SearchStats::default();
    for _ in 0..5 {
        s.iterate(&game, &root, &mut st);
    }
    let codes = game.num_move_codes();
    let mut before = vec![Stat::default(); codes];
    s.window.permutation_stats(&[], &mut before);
    s.iterate(&game, &root, &mut st);
    // The game just played: the tree moves then the playout moves, from the root.
    let seq = s.seq.clone();
    assert!(seq.len() >= 5, "a tic-tac-toe game has at least 5 moves");
    let mut after = vec![Stat::default(); codes];
    s.window.permutation_stats(&[], &mut after);
    assert_eq!(s.window.len(), 6);
    // With the empty path n̂_c counts the held games containing c: exactly the codes of the
    // new game went up by one, with its reward.
    for c in 0..codes as u32 {
        let (b, a) = (before[c as usize], after[c as usize]);
        if seq.contains(&c) {
            assert_eq!((a.n, a.w), (b.n + 1, b.w + s.last_reward), "code {c}");
        } else {
            assert_eq!(a, b, "code {c}");
        }
    }
}

/// The window is the current search's (`P(root)`): it is emptied at the start of every move,
/// so it never holds more playouts than the search has run.
#[test]
fn the_window_is_emptied_at_every_move() {
    let game = TicTacToe::from_size("3").unwrap();
    let root = game.initial();
    let mut s = Searcher::new(&game, mcps(40, 100), Uniform, 3);
    s.search(&game, &root).unwrap();
    assert_eq!(s.window.len(), 40);
    let mut after = root.clone();
    let (mv, _) = s.search(&game, &root).unwrap();
    game.play(&mut after, mv);
    s.search(&game, &after).unwrap();
    assert_eq!(s.window.len(), 40, "only the last search's playouts");
}

/// The AtariGo capture feature (the paper's Introduction and section AtariGo): a capturing
/// move and a quiet move on the same point by the same player have different codes.
#[test]
fn atarigo_codes_carry_the_capture_feature() {
    let game = AtariGo::from_size("5").unwrap();
    // Rows from the top: White's B4 has C4 as its last liberty, so Black's C4 captures.
    let capture = game
        .setup(".X...\nXO...\n.X...\n.....\n.....", Player::Black)
        .unwrap();
    // Without Black's A4, White's B4 keeps A4: C4 is a quiet move.
    let quiet = game
        .setup(".X...\n.O...\n.X...\n.....\n.....", Player::Black)
        .unwrap();
    let mv = game.parse_move(&capture, "C4").unwrap();
    assert!(game.is_capture(&capture, mv));
    let quiet_mv = game.parse_move(&quiet, "C4").unwrap();
    assert!(!game.is_capture(&quiet, quiet_mv));
    assert_ne!(
        game.move_code(&capture, mv),
        game.move_code(&quiet, quiet_mv)
    );
    // Same point, same player: the codes differ by the capture bit only.
    assert_eq!(
        game.move_code(&capture, mv) ^ game.move_code(&quiet, quiet_mv),
        1
    );
}

/// Diagnostic, not a rule (`cargo test --release -p mcts -- --ignored --nocapture
/// permutation_weight_share`): over one 10,000-playout MCPS search from the start of NoGo,
/// AtariGo and Hex 7×7, the mean shares `n : ñ : n̂` of Equation 1 at the selected move of
/// every descent step under a frozen node, and the spread (standard deviation over the
/// node's moves) of `Q̃` and `Q̂` there: a permutation term with a large share and a small
/// spread pulls every move towards one value. Also NoGo and Hex 5×5 and Go 5×5 (eye-rule
/// playouts), with how saturated the window is: the mean share of all codes one playout
/// holds, and the codes held by over 90% of the playouts (Go's two pass codes).
#[test]
#[ignore = "a diagnostic that prints figures (about a second in release)"]
fn permutation_weight_share() {
    fn run<G: Game, R: crate::rollout::Rollout<G>>(name: &str, game: &G, rollout: R) {
        let root = game.initial();
        let mut s = Searcher::new(game, mcps(1, 10_000), rollout, 36);
        s.begin(game, &root);
        let mut st = SearchStats::default();
        let (mut steps, mut share) = (0u64, [0.0f64; 3]);
        let (mut spread_amaf, mut spread_perm) = (0.0, 0.0);
        // Saturation: the mean share of all codes that one pushed playout holds.
        let (mut held, mut seen) = (0.0f64, vec![false; s.codes]);
        let mut holding = vec![0u32; s.codes];
        for _ in 0..10_000 {
            s.iterate(game, &root, &mut st);
            seen.fill(false);
            for &c in &s.seq {
                seen[c as usize] = true;
            }
            held += seen.iter().filter(|&&b| b).count() as f64 / s.codes as f64;
            for (h, &b) in holding.iter_mut().zip(&seen) {
                *h += u32::from(b);
            }
            for (k, &(node, amaf_ref, perm_ref)) in s.trace.iter().enumerate() {
                if perm_ref == NONE {
                    continue;
                }
                let nd = s.nodes[node as usize];
                let p = nd.to_move;
                let codes = s.codes;
                let amaf = &s.amaf[amaf_ref as usize * codes..][..codes];
                let slot = s.nodes[perm_ref as usize].perm as usize * codes;
                let perm = &s.perm[slot..slot + codes];
                let e = s.edges[s.path[k].1 as usize];
                let (n, na, nh) = (
                    f64::from(e.stat.n),
                    f64::from(amaf[e.code as usize].n),
                    f64::from(perm[e.code as usize].n),
                );
                let t = n + na + nh;
                if t == 0.0 {
                    continue;
                }
                steps += 1;
                share[0] += n / t;
                share[1] += na / t;
                share[2] += nh / t;
                let edges = &s.edges[nd.first_edge as usize..][..nd.num_edges as usize];
                let sd = |f: &dyn Fn(&Edge<G::Move>) -> Option<f64>| {
                    let v: Vec<f64> = edges.iter().filter_map(f).collect();
                    if v.len() < 2 {
                        return 0.0;
                    }
                    let m = v.iter().sum::<f64>() / v.len() as f64;
                    (v.iter().map(|x| (x - m).powi(2)).sum::<f64>() / v.len() as f64).sqrt()
                };
                spread_amaf += sd(&|x| {
                    let a = amaf[x.code as usize];
                    (a.n > 0).then(|| a.mean_for(p, 0.0))
                });
                spread_perm += sd(&|x| {
                    let h = perm[x.code as usize];
                    (h.n > 0).then(|| h.mean_for(p, 0.0))
                });
            }
        }
        let k = steps.max(1) as f64;
        println!(
            "{name}: {steps} steps under a frozen node; shares n {:.3} ñ {:.3} n̂ {:.3}; spread of Q̃ {:.3}, of Q̂ {:.3}; a playout holds {:.3} of the codes, {} codes are in over 90% of the playouts (the most common in {:.3})",
            share[0] / k,
            share[1] / k,
            share[2] / k,
            spread_amaf / k,
            spread_perm / k,
            held / 10_000.0,
            holding.iter().filter(|&&h| h > 9_000).count(),
            f64::from(holding.iter().copied().max().unwrap_or(0)) / 10_000.0
        );
        assert!(steps > 0);
    }
    run(
        "nogo 7x7",
        &games::nogo::NoGo::from_size("7").unwrap(),
        Uniform,
    );
    run("atarigo 7x7", &AtariGo::from_size("7").unwrap(), Uniform);
    run(
        "hex 7x7",
        &games::hex::Hex::from_size("7").unwrap(),
        Uniform,
    );
    run(
        "nogo 5x5",
        &games::nogo::NoGo::from_size("5").unwrap(),
        Uniform,
    );
    run(
        "hex 5x5",
        &games::hex::Hex::from_size("5").unwrap(),
        Uniform,
    );
    let komi = games::go::Komi::from_half_points(13);
    let go = games::fastgo::FastGo::new(5, 5, komi).unwrap();
    run("go 5x5", &go, crate::rollout::GoRollout::default());
}
