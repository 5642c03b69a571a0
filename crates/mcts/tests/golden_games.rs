//! Golden games: seeded single-thread games whose moves and search statistics are pinned, so a
//! speed-up of the search or of the boards that changes a single random draw, tie-break or
//! floating-point comparison fails here. (The Wargame and Hex keep their own rules code and
//! playout policy, and are left out.)
//!
//! The fingerprints were recorded with the code before the Go 5×5 speed work (commit
//! `c2f6d9a`); they change only when a change is meant to alter the games, and then the
//! report says so.

use games::Game;
use games::atarigo::AtariGo;
use games::fastgo::FastGo;
use games::go::Komi;
use games::nogo::NoGo;
use mcts::arena::play_game;
use mcts::{Algorithm, Budget, GoRollout, Params, Rollout, Uniform};

/// FNV-1a over bytes.
fn fnv(h: &mut u64, bytes: &[u8]) {
    for &b in bytes {
        *h ^= u64::from(b);
        *h = h.wrapping_mul(0x100_0000_01b3);
    }
}

/// The fingerprint of two games (colours swapped) between `a` and `b` at `playouts` per move:
/// every move, the outcome and both players' search statistics (playouts, new leaves, leaf
/// depths and playout lengths).
fn fingerprint<G, R, F>(game: &G, a: Algorithm, b: Algorithm, playouts: u64, rollout: F) -> u64
where
    G: Game,
    R: Rollout<G>,
    F: Fn() -> R,
{
    let p = |algo| Params::new(algo).with_budget(Budget::Playouts(playouts));
    fingerprint_params(game, [p(a), p(b)], rollout)
}

/// [`fingerprint`] with the two players' parameters given.
fn fingerprint_params<G, R, F>(game: &G, params: [Params; 2], rollout: F) -> u64
where
    G: Game,
    R: Rollout<G>,
    F: Fn() -> R,
{
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for (i, a_is_black) in [true, false].into_iter().enumerate() {
        let g = play_game(
            game,
            params,
            a_is_black,
            [100 + i as u64, 200 + i as u64],
            &rollout,
            i as u64,
        );
        for m in &g.moves {
            fnv(&mut h, m.as_bytes());
            fnv(&mut h, b";");
        }
        fnv(&mut h, format!("{:?}", g.outcome).as_bytes());
        for t in &g.totals {
            let s = t.stats;
            for x in [
                t.moves,
                s.playouts,
                s.new_leaves,
                s.leaf_depth_sum,
                s.playout_length_sum,
            ] {
                fnv(&mut h, &x.to_le_bytes());
            }
        }
    }
    h
}

fn go(n: u8) -> FastGo {
    FastGo::new(n, n, Komi::from_half_points(13)).unwrap()
}

#[test]
fn go_5x5_games_are_pinned() {
    let g = go(5);
    let got = [
        fingerprint(
            &g,
            Algorithm::Grave,
            Algorithm::Mcps,
            400,
            GoRollout::default,
        ),
        fingerprint(&g, Algorithm::Uct, Algorithm::Rave, 400, GoRollout::default),
    ];
    assert_eq!(got, [4049494129139994929, 11657949564164428530]);
}

#[test]
fn go_7x7_games_are_pinned() {
    let g = go(7);
    let got = fingerprint(
        &g,
        Algorithm::Mcps,
        Algorithm::Grave,
        200,
        GoRollout::default,
    );
    assert_eq!(got, 16875399474072466860);
}

#[test]
fn nogo_and_atarigo_games_are_pinned() {
    let nogo = NoGo::from_size("7").unwrap();
    let atari = AtariGo::from_size("7").unwrap();
    let got = [
        fingerprint(&nogo, Algorithm::Mcps, Algorithm::Grave, 300, || Uniform),
        fingerprint(&atari, Algorithm::Grave, Algorithm::Mcps, 300, || Uniform),
    ];
    assert_eq!(got, [8676123811696759151, 14042968014917930389]);
}

/// MCPS with a window smaller than a search (500 playouts of 1,500), so that slots are
/// reused and nodes freeze over a full window; Go with komi 0 has draws, the window's third
/// outcome. Recorded with the code before the permutation counts were rewritten (issue 36's
/// speed work, on commit `0d4aee5`).
#[test]
fn mcps_games_over_a_full_window_are_pinned() {
    let p = |algo, playouts| {
        let mut p = Params::new(algo).with_budget(Budget::Playouts(playouts));
        p.window = 500;
        p
    };
    let mcps_grave = |playouts| [p(Algorithm::Mcps, playouts), p(Algorithm::Grave, playouts)];
    let got = [
        fingerprint_params(&NoGo::from_size("5").unwrap(), mcps_grave(1_500), || {
            Uniform
        }),
        fingerprint_params(&AtariGo::from_size("5").unwrap(), mcps_grave(1_500), || {
            Uniform
        }),
        fingerprint_params(
            &FastGo::new(5, 5, Komi::from_half_points(0)).unwrap(),
            mcps_grave(800),
            GoRollout::default,
        ),
    ];
    assert_eq!(
        got,
        [
            8892547249178108179,
            17554867287871796263,
            5222147657272740519
        ]
    );
}
