//! Unit tests of the search statistics (AMAF, references, freezing, priority, determinism).

use super::*;
use crate::params::{Algorithm, Budget, Params};
use crate::rollout::{Uniform, WargameRollout};
use games::wargame::{WarGame, WarMove};
use rand::Rng;

fn params(algo: Algorithm, rho: u32, playouts: u64) -> Params {
    let mut p = Params::new(algo).with_budget(Budget::Playouts(playouts));
    p.rho = rho;
    p
}

/// Brute-force AMAF: node at depth k counts each distinct code of seq[k..] once.
fn amaf_brute(codes: usize, nodes: &[u32], seq: &[u32], reward: u32, amaf: &mut [Stat]) {
    for (k, &n) in nodes.iter().enumerate() {
        let mut seen = vec![false; codes];
        for &c in &seq[k.min(seq.len())..] {
            if !seen[c as usize] {
                seen[c as usize] = true;
                amaf[n as usize * codes + c as usize].add(reward);
            }
        }
    }
}

#[test]
fn amaf_counts_the_first_occurrence_only() {
    let codes = 8;
    let mut amaf = vec![Stat::default(); 2 * codes];
    let mut stamp = vec![0; codes];
    let (mut generation, mut distinct) = (0, Vec::new());
    // Node 0 at depth 0 sees 3 5 3 3 7; node 1 at depth 1 sees 5 3 3 7.
    update_amaf(
        &mut amaf,
        codes,
        &[0, 1],
        &[3, 5, 3, 3, 7],
        2,
        &mut stamp,
        &mut generation,
        &mut distinct,
    );
    assert_eq!(
        amaf[3],
        Stat { n: 1, w: 2 },
        "code 3 occurs three times, counted once"
    );
    assert_eq!(amaf[5], Stat { n: 1, w: 2 });
    assert_eq!(amaf[7], Stat { n: 1, w: 2 });
    assert_eq!(amaf[0], Stat::default());
    assert_eq!(amaf[codes + 3], Stat { n: 1, w: 2 });
    assert_eq!(amaf[codes + 5], Stat { n: 1, w: 2 });
    // A second playout with a White win (reward 0) and a repeated code at node 1 only.
    update_amaf(
        &mut amaf,
        codes,
        &[0, 1],
        &[1, 6, 6],
        0,
        &mut stamp,
        &mut generation,
        &mut distinct,
    );
    assert_eq!(amaf[6], Stat { n: 1, w: 0 });
    assert_eq!(amaf[codes + 6], Stat { n: 1, w: 0 });
    assert_eq!(
        amaf[codes + 1],
        Stat::default(),
        "node 1 does not see the move played above it"
    );
    assert_eq!(amaf[1], Stat { n: 1, w: 0 });
}

#[test]
fn amaf_equals_brute_force_on_random_sequences() {
    let mut rng = PlayerRng::seed_from_u64(11);
    let codes = 10;
    let mut fast = vec![Stat::default(); 6 * codes];
    let mut slow = fast.clone();
    let mut stamp = vec![0; codes];
    let (mut generation, mut distinct) = (0, Vec::new());
    for _ in 0..500 {
        let depth = rng.random_range(1..6usize);
        let nodes: Vec<u32> = (0..depth).map(|_| rng.random_range(0..6)).collect();
        let len = rng.random_range(depth - 1..depth + 12);
        let seq: Vec<u32> = (0..len)
            .map(|_| rng.random_range(0..codes as u32))
            .collect();
        let r = rng.random_range(0..3);
        update_amaf(
            &mut fast,
            codes,
            &nodes,
            &seq,
            r,
            &mut stamp,
            &mut generation,
            &mut distinct,
        );
        amaf_brute(codes, &nodes, &seq, r, &mut slow);
        assert_eq!(fast, slow);
    }
}

/// Runs `iterations` descents on the 5×5 Wargame, checking every descent's references.
fn check_references(algo: Algorithm, rho: u32, iterations: usize) {
    let game = WarGame::new(5).unwrap();
    let state = game.initial();
    let mut s = Searcher::new(&game, params(algo, rho, 1), WargameRollout::default(), 5);
    s.begin(&game, &state);
    let mut stats = SearchStats::default();
    let mut checked_deep = 0;
    for _ in 0..iterations {
        s.iterate(&game, &state, &mut stats);
        // Visits at descent time = visits now − 1 (no position repeats in the Wargame).
        let mut want_amaf = 0u32;
        let mut want_perm = NONE;
        for &(node, amaf_ref, perm_ref) in &s.trace {
            let nd = s.nodes[node as usize];
            let visits_then = nd.visits - 1;
            match algo {
                Algorithm::Rave => want_amaf = node,
                _ if visits_then > rho => want_amaf = node,
                _ => {}
            }
            if algo == Algorithm::Mcps && node != 0 && nd.perm != NONE {
                want_perm = node;
            }
            assert_eq!(amaf_ref, want_amaf, "{algo}: AMAF reference");
            assert_eq!(perm_ref, want_perm, "{algo}: permutation reference");
            if amaf_ref != 0 && amaf_ref != node {
                checked_deep += 1;
            }
        }
    }
    if algo != Algorithm::Rave {
        assert!(
            checked_deep > 0,
            "some descents used a reference strictly between root and node"
        );
    }
}

#[test]
fn grave_reference_is_nearest_ancestor_with_more_than_rho_visits() {
    check_references(Algorithm::Grave, 5, 600);
    check_references(Algorithm::Mcps, 5, 600);
    check_references(Algorithm::Rave, 5, 200);
}

#[test]
fn grave_reference_on_a_path_of_visit_counts() {
    // The rule on its own: visits along a path 100, 40, 31, 30, 5 with ρ = 30 give the
    // references root, 1, 2, 2, 2 (30 is not more than 30).
    let visits = [100u32, 40, 31, 30, 5];
    let mut r = 0;
    let refs: Vec<usize> = visits
        .iter()
        .enumerate()
        .map(|(i, &v)| {
            if v > 30 {
                r = i;
            }
            r
        })
        .collect();
    assert_eq!(refs, vec![0, 1, 2, 2, 2]);
}

#[test]
fn permutation_statistics_are_computed_at_rho_and_frozen() {
    let rho = 6;
    let game = WarGame::new(5).unwrap();
    let state = game.initial();
    let mut s = Searcher::new(
        &game,
        params(Algorithm::Mcps, rho, 1),
        WargameRollout::default(),
        9,
    );
    s.begin(&game, &state);
    let codes = game.num_move_codes();
    let mut stats = SearchStats::default();
    let mut history: Vec<(Vec<u32>, u32)> = Vec::new();
    let mut frozen_checked = 0;
    for it in 0..1500 {
        let slots_before = s.perm.len() / codes;
        let slab_before = s.perm.clone();
        s.iterate(&game, &state, &mut stats);
        // Earlier frozen statistics never change.
        assert_eq!(
            &s.perm[..slab_before.len()],
            &slab_before[..],
            "iteration {it}"
        );
        // New freezes: computed over the earlier playouts from the node's path codes.
        for (k, &(node, _, _)) in s.trace.iter().enumerate() {
            let slot = s.nodes[node as usize].perm;
            if slot != NONE && slot as usize >= slots_before {
                assert_ne!(node, 0, "the root never freezes");
                assert_eq!(
                    s.nodes[node as usize].visits - 1,
                    rho,
                    "frozen on reaching rho"
                );
                let path = &s.seq[..k];
                let start = slot as usize * codes;
                for c in 0..codes {
                    let mut want = Stat::default();
                    for (p, r) in &history {
                        if path.iter().all(|x| p.contains(x)) && p.contains(&(c as u32)) {
                            want.add(*r);
                        }
                    }
                    assert_eq!(s.perm[start + c], want, "code {c}");
                }
                frozen_checked += 1;
            }
        }
        history.push((s.seq.clone(), s.last_reward));
    }
    assert!(frozen_checked >= 5, "only {frozen_checked} freezes checked");
    // Every non-root, non-terminal node visited more than ρ times has frozen statistics.
    for (i, nd) in s.nodes.iter().enumerate().skip(1) {
        if nd.terminal == NOT_TERMINAL && nd.visits > rho {
            assert_ne!(nd.perm, NONE, "node {i} with {} visits", nd.visits);
        }
        if nd.perm != NONE {
            assert!(nd.visits >= rho);
        }
    }
}

#[test]
fn moves_without_amaf_samples_are_tried_first() {
    let game = WarGame::new(5).unwrap();
    let state = game.initial();
    for algo in [Algorithm::Grave, Algorithm::Mcps, Algorithm::Rave] {
        let mut s = Searcher::new(&game, params(algo, 30, 1), Uniform, 1);
        s.begin(&game, &state);
        let codes = game.num_move_codes();
        let root = s.nodes[0];
        let first = root.first_edge as usize;
        let n = root.num_edges as usize;
        // Every code has strong AMAF samples except that of the 4th move.
        for c in 0..codes {
            s.amaf[c] = Stat { n: 1000, w: 2000 };
        }
        let special = first + 3;
        s.amaf[s.edges[special].code as usize] = Stat::default();
        // Give the other moves visits and wins too.
        for i in first..first + n {
            if i != special {
                s.edges[i].stat = Stat { n: 50, w: 100 };
            }
        }
        for _ in 0..20 {
            assert_eq!(s.select(0, 0, NONE) as usize, special, "{algo}");
        }
    }
}

#[test]
fn mcps_selection_uses_equation_1() {
    let game = WarGame::new(5).unwrap();
    let state = game.initial();
    let mut s = Searcher::new(&game, params(Algorithm::Mcps, 30, 1), Uniform, 1);
    s.begin(&game, &state);
    let codes = game.num_move_codes();
    for c in 0..codes {
        s.amaf[c] = Stat { n: 10, w: 10 }; // 0.5 for Black
    }
    // A frozen permutation slab on node 0 (as if), with one code much better for Black.
    s.perm = vec![Stat { n: 10, w: 0 }; codes];
    s.nodes[0].perm = 0;
    let root = s.nodes[0];
    let target = root.first_edge as usize + 2;
    s.perm[s.edges[target].code as usize] = Stat { n: 10, w: 20 };
    assert_eq!(s.select(0, 0, 0) as usize, target);
    // Without the permutation reference every move ties: the first one is chosen.
    assert_eq!(s.select(0, 0, NONE) as usize, root.first_edge as usize);
}

#[test]
fn finds_the_winning_step_into_the_base() {
    let game = WarGame::new(7).unwrap();
    let base = game.base();
    let from = game.cell(3, 5);
    let state = game.position(
        &[(from, 1), (game.cell(0, 0), 2)],
        &[(game.cell(0, 6), 2), (game.cell(6, 6), 2)],
        20,
    );
    for algo in [
        Algorithm::Uct,
        Algorithm::Rave,
        Algorithm::Grave,
        Algorithm::Mcps,
    ] {
        let mut s = Searcher::new(&game, params(algo, 30, 2000), WargameRollout::default(), 3);
        let (mv, st) = s.search(&game, &state).unwrap();
        assert_eq!(mv, WarMove::step(7, from, base), "{algo}");
        assert_eq!(st.playouts, 2000);
        assert!(st.new_leaves > 0 && st.new_leaves <= 2000);
    }
}

#[test]
fn a_seeded_search_is_repeatable() {
    let game = WarGame::new(7).unwrap();
    let mut state = game.initial();
    let mut moves = Vec::new();
    for i in 0..20 {
        game.legal_moves(&state, &mut moves);
        game.play(&mut state, moves[(i * 7) % moves.len()]);
    }
    for algo in [
        Algorithm::Uct,
        Algorithm::Rave,
        Algorithm::Grave,
        Algorithm::Mcps,
    ] {
        let run = |seed| {
            let mut s = Searcher::new(
                &game,
                params(algo, 30, 3000),
                WargameRollout::default(),
                seed,
            );
            let (mv, st) = s.search(&game, &state).unwrap();
            (
                mv,
                st.playouts,
                st.new_leaves,
                st.leaf_depth_sum,
                st.playout_length_sum,
                s.root_moves(),
            )
        };
        let (a, b, c) = (run(42), run(42), run(43));
        assert_eq!(a.0, b.0);
        assert_eq!((a.1, a.2, a.3, a.4), (b.1, b.2, b.3, b.4), "{algo}");
        assert_eq!(a.5, b.5);
        assert_ne!(
            (a.3, a.4),
            (c.3, c.4),
            "{algo}: another seed, another search"
        );
    }
}
