//! Whole games: determinism (seed + one thread ⇒ the same game, bit for bit), thread-count
//! independence of playout-budget matches, and basic strength on small games.

use games::Game;
use games::fastgo::FastGo;
use games::go::Komi;
use games::hex::Hex;
use games::nogo::NoGo;
use games::tictactoe::TicTacToe;
use games::wargame::WarGame;
use mcts::arena::{game_seeds, play_game, run_match};
use mcts::{Algorithm, Budget, GoRollout, Params, Uniform, WargameRollout};

fn params(algo: Algorithm, playouts: u64) -> Params {
    Params::new(algo).with_budget(Budget::Playouts(playouts))
}

#[test]
fn a_seeded_game_is_repeatable_bit_for_bit() {
    let game = WarGame::new(5).unwrap();
    let p = [params(Algorithm::Mcps, 300), params(Algorithm::Grave, 300)];
    let a = play_game(&game, p, true, [11, 12], &WargameRollout::default, 0);
    let b = play_game(&game, p, true, [11, 12], &WargameRollout::default, 0);
    assert_eq!(a.moves, b.moves);
    assert_eq!(a.outcome, b.outcome);
    for i in 0..2 {
        let (x, y) = (a.totals[i].stats, b.totals[i].stats);
        assert_eq!(
            (
                x.playouts,
                x.new_leaves,
                x.leaf_depth_sum,
                x.playout_length_sum
            ),
            (
                y.playouts,
                y.new_leaves,
                y.leaf_depth_sum,
                y.playout_length_sum
            )
        );
    }
    let c = play_game(&game, p, true, [13, 12], &WargameRollout::default, 0);
    assert_ne!(a.moves, c.moves, "another seed plays another game");
    // The same on NoGo with UCT and RAVE.
    let game = NoGo::from_size("5").unwrap();
    let p = [params(Algorithm::Uct, 200), params(Algorithm::Rave, 200)];
    let a = play_game(&game, p, false, [1, 2], &|| Uniform, 0);
    let b = play_game(&game, p, false, [1, 2], &|| Uniform, 0);
    assert_eq!(a.moves, b.moves);
    // And on Go (the fast board, eye-avoiding playouts) with MCPS and GRAVE.
    let game = FastGo::new(5, 5, Komi::from_half_points(13)).unwrap();
    let p = [params(Algorithm::Mcps, 200), params(Algorithm::Grave, 200)];
    let a = play_game(&game, p, true, [3, 4], &GoRollout::default, 0);
    let b = play_game(&game, p, true, [3, 4], &GoRollout::default, 0);
    assert_eq!(a.moves, b.moves);
    assert_eq!(a.outcome, b.outcome);
    assert!(a.moves.len() >= 10, "{:?}", a.moves);
}

#[test]
fn a_playout_match_does_not_depend_on_the_thread_count() {
    let game = WarGame::new(5).unwrap();
    let p = [params(Algorithm::Mcps, 100), params(Algorithm::Grave, 100)];
    let (s1, r1) = run_match(&game, p, 6, 9, 1, WargameRollout::default, |_| {}).unwrap();
    let (s2, r2) = run_match(&game, p, 6, 9, 2, WargameRollout::default, |_| {}).unwrap();
    assert_eq!(s1.games, 6);
    assert_eq!(
        (s1.a_wins, s1.b_wins, s1.draws),
        (s2.a_wins, s2.b_wins, s2.draws)
    );
    for (a, b) in r1.iter().zip(&r2) {
        assert_eq!(a.moves, b.moves);
        assert_eq!(a.seeds, game_seeds(9, a.index));
    }
    // Colours alternate: A is Black in even games.
    assert!(r1.iter().all(|r| r.a_is_black == (r.index % 2 == 0)));
    assert!(s1.totals[0].stats.playouts + s1.totals[1].stats.playouts > 0);
}

#[test]
fn strong_players_do_not_lose_tictactoe_to_a_weak_one() {
    let game = TicTacToe::from_size("3").unwrap();
    for algo in [
        Algorithm::Uct,
        Algorithm::Rave,
        Algorithm::Grave,
        Algorithm::Mcps,
    ] {
        let p = [params(algo, 3000), params(Algorithm::Uct, 30)];
        let (s, _) = run_match(&game, p, 6, 5, 2, || Uniform, |_| {}).unwrap();
        // UCT converges to perfect play; the AMAF-based players keep a bias from their
        // reference node's statistics (Equation 1 has no term that vanishes with visits)
        // and may still miss a tactic now and then.
        let max_losses = if algo == Algorithm::Uct { 0 } else { 1 };
        assert!(
            s.b_wins <= max_losses,
            "{algo} lost {} games at tic-tac-toe to UCT with 30 playouts",
            s.b_wins
        );
        assert!(s.score() >= 0.5, "{algo}");
    }
}

#[test]
fn mcps_and_grave_beat_few_playouts_at_hex() {
    let game = Hex::from_size("5").unwrap();
    for algo in [Algorithm::Grave, Algorithm::Mcps] {
        let p = [params(algo, 2000), params(Algorithm::Uct, 20)];
        let (s, _) = run_match(&game, p, 6, 3, 2, || Uniform, |_| {}).unwrap();
        assert!(s.a_wins >= 5, "{algo}: {} of 6", s.a_wins);
        assert!(game.num_move_codes() > 0);
    }
}
