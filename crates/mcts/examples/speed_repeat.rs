//! The `speed` example's search, repeated in one process for steadier numbers: a fresh
//! searcher (seed 7) searches the start position `REPS` times; prints the best and the median
//! wall-clock rates and the rate per CPU second of the thread over all searches (the thread's
//! CPU time may advance in scheduler ticks, too coarse for one short search).
//!
//! `cargo run --release -p mcts --example speed_repeat -- go 5 grave 3000 20`
//! (games: go, nogo, atarigo)

use games::Game;
use games::atarigo::AtariGo;
use games::fastgo::FastGo;
use games::go::Komi;
use games::nogo::NoGo;
use mcts::{Algorithm, Budget, GoRollout, Params, Rollout, Searcher, Uniform};

fn thread_cpu_seconds() -> f64 {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").unwrap_or_default();
    text.split_whitespace()
        .next()
        .and_then(|s| s.parse::<f64>().ok())
        .unwrap_or(0.0)
        / 1e9
}

fn bench<G: Game, R: Rollout<G>>(
    game: &G,
    rollout: impl Fn() -> R,
    algo: Algorithm,
    playouts: u64,
    reps: usize,
) {
    let mut rates = Vec::new();
    let (mut cpu, mut total) = (0.0, 0u64);
    for _ in 0..reps {
        let params = Params::new(algo).with_budget(Budget::Playouts(playouts));
        let mut searcher = Searcher::new(game, params, rollout(), 7);
        let c0 = thread_cpu_seconds();
        let (_, st) = searcher.search(game, &game.initial()).unwrap();
        cpu += thread_cpu_seconds() - c0;
        total += st.playouts;
        rates.push(st.playouts_per_second());
    }
    rates.sort_by(f64::total_cmp);
    println!(
        "wall-clock: best {:.0}/s, median {:.0}/s; per CPU second over all searches: {:.0}/s",
        rates[rates.len() - 1],
        rates[rates.len() / 2],
        total as f64 / cpu
    );
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let game = args.get(1).map_or("go", String::as_str);
    let n: u8 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(5);
    let algo: Algorithm = args.get(3).map_or("grave", String::as_str).parse().unwrap();
    let playouts: u64 = args.get(4).and_then(|s| s.parse().ok()).unwrap_or(3000);
    let reps: usize = args.get(5).and_then(|s| s.parse().ok()).unwrap_or(20);
    let size = format!("{n}");
    match game {
        "go" => bench(
            &FastGo::new(n, n, Komi::from_half_points(13)).unwrap(),
            GoRollout::default,
            algo,
            playouts,
            reps,
        ),
        "nogo" => bench(
            &NoGo::from_size(&size).unwrap(),
            || Uniform,
            algo,
            playouts,
            reps,
        ),
        "atarigo" => bench(
            &AtariGo::from_size(&size).unwrap(),
            || Uniform,
            algo,
            playouts,
            reps,
        ),
        other => panic!("unknown game {other}"),
    }
}
