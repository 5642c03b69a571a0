//! Uniform random games from the start position: their mean length in moves, for the five
//! games of the MCPS paper at several sizes, beside the rules variant of NoGo in which a
//! capture or a suicide is a legal move that loses at once.
//!
//! `cargo run --release -p mcts --example playout_lengths -- 2000 5,7,9,11,13`
//! (random games per cell, default 2,000; board sizes, default 5,7,9,11,13). Prints one
//! tab-separated line per game and size: game, size, games, mean length, standard error.
//!
//! The variant is played on our NoGo: at each move a uniformly random *empty* point is drawn;
//! if standard NoGo forbids it (it would capture or be suicide) the game ends there, that
//! move counted, else it is played. This is the game some general-game-playing descriptions
//! of NoGo give, and its playouts are the shortest a rules reading of NoGo allows.

use games::Game;
use games::atarigo::AtariGo;
use games::fastgo::FastGo;
use games::go::Komi;
use games::hex::Hex;
use games::nogo::NoGo;
use games::wargame::WarGame;
use mcts::{GoRollout, PlayerRng, Rollout, Uniform, WargameRollout};
use rand::{Rng, SeedableRng};

/// Mean and standard error of the lengths of `n` random games of `game` under `rollout`.
fn lengths<G: Game, R: Rollout<G>>(game: &G, mut rollout: R, n: u64) -> (f64, f64) {
    let mut rng = PlayerRng::seed_from_u64(36);
    let mut moves = Vec::new();
    let (mut sum, mut sq) = (0.0, 0.0);
    for _ in 0..n {
        let mut s = game.initial();
        let mut plies = 0u64;
        while game.outcome(&s).is_none() {
            let m = rollout.playout_move(game, &s, &mut moves, &mut rng);
            game.play(&mut s, m);
            plies += 1;
        }
        sum += plies as f64;
        sq += (plies * plies) as f64;
    }
    mean_se(sum, sq, n)
}

fn mean_se(sum: f64, sq: f64, n: u64) -> (f64, f64) {
    let n = n as f64;
    let mean = sum / n;
    let var = (sq / n - mean * mean).max(0.0);
    (mean, (var / n).sqrt())
}

/// The NoGo variant "a capture or a suicide is legal and loses at once": moves until a
/// uniformly drawn empty point is one standard NoGo forbids (that move counted), or until
/// the player to move has no empty point.
fn nogo_capture_loses(size: usize, n: u64) -> (f64, f64) {
    let game = NoGo::new(size, size).expect("a NoGo size");
    let mut rng = PlayerRng::seed_from_u64(36);
    let mut legal = Vec::new();
    let (mut sum, mut sq) = (0.0, 0.0);
    for _ in 0..n {
        let mut s = game.initial();
        let mut plies = 0u64;
        loop {
            // NoGo never removes a stone: the empty points are the board less the plies.
            let empty = (size * size) as u64 - plies;
            if empty == 0 {
                break;
            }
            game.legal_moves(&s, &mut legal);
            let u = rng.random_range(0..empty);
            plies += 1;
            if u >= legal.len() as u64 {
                break; // a forbidden point: a capture or a suicide, which loses
            }
            game.play(&mut s, legal[u as usize]);
        }
        sum += plies as f64;
        sq += (plies * plies) as f64;
    }
    mean_se(sum, sq, n)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(2_000);
    let sizes: Vec<u8> = args
        .get(2)
        .map_or("5,7,9,11,13", String::as_str)
        .split(',')
        .map(|s| s.parse().expect("a board size"))
        .collect();
    let print = |name: &str, size: u8, (m, se): (f64, f64)| {
        println!("{name}\t{size}\t{n}\t{m:.1}\t{se:.2}");
    };
    for &k in &sizes {
        let t = format!("{k}");
        print("hex", k, lengths(&Hex::from_size(&t).unwrap(), Uniform, n));
        print(
            "go",
            k,
            lengths(
                &FastGo::new(k, k, Komi::from_half_points(13)).unwrap(),
                GoRollout::default(),
                n,
            ),
        );
        print(
            "atarigo",
            k,
            lengths(&AtariGo::from_size(&t).unwrap(), Uniform, n),
        );
        print(
            "nogo",
            k,
            lengths(&NoGo::from_size(&t).unwrap(), Uniform, n),
        );
        print(
            "nogo-capture-loses",
            k,
            nogo_capture_loses(usize::from(k), n),
        );
        if let Ok(w) = WarGame::new(k) {
            print("wargame", k, lengths(&w, WargameRollout::default(), n));
        }
    }
}
