//! Statistics of the Wargame's biased random games: length, winner, how they end.
//!
//! `cargo run --release -p mcts --example wargame_stats -- 9 2000`

use games::wargame::WarGame;
use games::{Game, Outcome, Player};
use mcts::{Rollout, WargameRollout};
use rand::SeedableRng;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n: u8 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(9);
    let games: u32 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(2000);
    let game = WarGame::new(n).unwrap();
    let mut rollout = WargameRollout::default();
    let mut rng = mcts::PlayerRng::seed_from_u64(1);
    let mut moves = Vec::new();
    let (mut red, mut base, mut elim_blue, mut elim_red, mut limit, mut plies) =
        (0, 0, 0, 0, 0, 0u64);
    for _ in 0..games {
        let mut s = game.initial();
        while game.outcome(&s).is_none() {
            game.legal_moves(&s, &mut moves);
            let i = rollout.choose(&game, &s, &moves, &mut rng);
            game.play(&mut s, moves[i]);
        }
        plies += u64::from(s.ply());
        match game.outcome(&s) {
            Some(Outcome::Win(Player::Black)) => {
                red += 1;
                if s.units(Player::Black).contains(&game.base()) {
                    base += 1;
                } else {
                    elim_blue += 1;
                }
            }
            _ => {
                if s.units(Player::Black).is_empty() {
                    elim_red += 1;
                } else {
                    limit += 1;
                }
            }
        }
    }
    println!(
        "wargame {n}: {games} biased random games, mean length {:.1} plies; Red wins {red} (base {base}, elimination {elim_blue}); Blue wins {} (elimination {elim_red}, move limit {limit})",
        plies as f64 / f64::from(games),
        games - red
    );
}
