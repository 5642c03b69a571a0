//! Playouts per second: pure random games versus searches, for one game.
//!
//! `cargo run --release -p mcts --example speed -- nogo 7 grave 10000`
//! (games: go, goref (the reference board), nogo, atarigo, hex, wargame; a fifth argument sets
//! the seconds of pure random games first, 2 by default, 0 for none)

use games::Game;
use games::atarigo::AtariGo;
use games::fastgo::FastGo;
use games::go::{GoGame, KoRule, Komi, Rules};
use games::hex::Hex;
use games::nogo::NoGo;
use games::wargame::WarGame;
use mcts::{Algorithm, Budget, GoRollout, Params, Rollout, Searcher, Uniform, WargameRollout};
use rand::SeedableRng;
use std::time::Instant;

fn bench<G: Game, R: Rollout<G>>(
    game: &G,
    mut rollout: R,
    algo: Algorithm,
    playouts: u64,
    random_secs: f64,
) {
    let mut rng = mcts::PlayerRng::seed_from_u64(1);
    let mut moves = Vec::new();
    let t0 = Instant::now();
    let (mut games, mut plies) = (0u64, 0u64);
    while t0.elapsed().as_secs_f64() < random_secs {
        let mut s = game.initial();
        while game.outcome(&s).is_none() {
            let m = rollout.playout_move(game, &s, &mut moves, &mut rng);
            game.play(&mut s, m);
            plies += 1;
        }
        games += 1;
    }
    let secs = t0.elapsed().as_secs_f64();
    if games > 0 {
        println!(
            "random games from the start: {:.0} games/s, {:.1} plies/game",
            games as f64 / secs,
            plies as f64 / games as f64
        );
    }
    let mut searcher = Searcher::new(
        game,
        Params::new(algo).with_budget(Budget::Playouts(playouts)),
        rollout,
        7,
    );
    let cpu0 = thread_cpu_seconds();
    let (mv, st) = searcher.search(game, &game.initial()).unwrap();
    let cpu = thread_cpu_seconds().zip(cpu0).map(|(b, a)| b - a);
    println!(
        "{algo} from the start: {} playouts in {:.2} s = {:.0}/s, playout length {:.1}, leaf depth {:.2}, best {mv}",
        st.playouts,
        st.seconds,
        st.playouts_per_second(),
        st.mean_playout_length(),
        st.mean_leaf_depth()
    );
    if let Some(c) = cpu.filter(|&c| c > 0.0) {
        println!(
            "  per CPU second of this thread: {:.0}/s ({:.2} s of CPU; the wall-clock rate is lower when the cores are shared)",
            st.playouts as f64 / c,
            c
        );
    }
}

/// CPU time of the calling thread in seconds (Linux: `/proc/thread-self/schedstat`, whose first
/// field is the time spent on a CPU in nanoseconds); `None` elsewhere.
fn thread_cpu_seconds() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: f64 = text.split_whitespace().next()?.parse().ok()?;
    Some(ns / 1e9)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let game = args.get(1).map_or("nogo", String::as_str);
    let n: u8 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(7);
    let algo: Algorithm = args.get(3).map_or("grave", String::as_str).parse().unwrap();
    let playouts: u64 = args.get(4).and_then(|s| s.parse().ok()).unwrap_or(10_000);
    let random_secs: f64 = args.get(5).and_then(|s| s.parse().ok()).unwrap_or(2.0);
    let size = format!("{n}");
    match game {
        "nogo" => bench(
            &NoGo::from_size(&size).unwrap(),
            Uniform,
            algo,
            playouts,
            random_secs,
        ),
        "atarigo" => bench(
            &AtariGo::from_size(&size).unwrap(),
            Uniform,
            algo,
            playouts,
            random_secs,
        ),
        "hex" => bench(
            &Hex::from_size(&size).unwrap(),
            Uniform,
            algo,
            playouts,
            random_secs,
        ),
        "wargame" => bench(
            &WarGame::new(n).unwrap(),
            WargameRollout::default(),
            algo,
            playouts,
            random_secs,
        ),
        "go" => bench(
            &FastGo::new(n, n, Komi::from_half_points(13)).unwrap(),
            GoRollout::default(),
            algo,
            playouts,
            random_secs,
        ),
        // The reference board, for comparison.
        "goref" => bench(
            &GoGame::new(
                n,
                n,
                Rules {
                    ko: KoRule::Simple,
                    komi: Komi::from_half_points(13),
                },
            )
            .unwrap(),
            GoRollout::default(),
            algo,
            playouts,
            random_secs,
        ),
        other => panic!("unknown game {other}"),
    }
}
