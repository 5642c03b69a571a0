//! Statistics of the Wargame's random games from the start position, per board size and
//! playout policy (uniform and the paper's biased policy): mean length in plies, split into
//! placement and movement plies; the mean number of plies left from a position of the game
//! (the average over its plies of `length − ply`, what a search at every ply would see as
//! "tree depth + playout length"); the winner and how the games end.
//!
//! `cargo run --release -p mcts --example wargame_stats -- [games] [sizes…]`
//! (defaults: 2000 games on 5, 7, 9, 11 and 13).
//!
//! `… -- weighting [games] [sizes…]`: how the way a search's playouts are averaged changes
//! the mean "plies left" of the paper's tables (tree depth + playout length). Along biased
//! random games (stand-ins for the match), each position gets playouts to the end either
//! `FIXED` of them (a playout budget: every position weighs the same, an arithmetic mean
//! over the match) or until `WORK` plies are spent, counting `OVERHEAD` plies per playout
//! for the descent (a time budget: positions with long playouts get fewer, so the mean over
//! all playouts leans towards the short, late ones).
//!
//! `… -- search SIZE GAMES (pN | sSECONDS)…`: GRAVE self-play with each budget, giving the
//! searches' mean playout length and new-leaf depth, as the paper's Tables 32 and 34.

use games::wargame::{WarGame, WarState};
use games::{Game, Outcome, Player};
use mcts::{
    Algorithm, Budget, Params, PlayerRng, Rollout, SearchStats, Uniform, WargameRollout, play_game,
};
use rand::SeedableRng;

/// Playouts per position under the playout-budget model.
const FIXED: u32 = 16;
/// Plies of playout per position under the time-budget model.
const WORK: u64 = 4000;
/// Plies' worth of work per playout for the tree descent and backup.
const OVERHEAD: u64 = 12;

/// Totals over the games of one size and policy.
#[derive(Default)]
struct Totals {
    games: u64,
    plies: u64,
    placement: u64,
    /// Sum over games of the mean plies left from each ply of the game.
    left: f64,
    red_base: u64,
    red_elim: u64,
    blue_elim: u64,
    blue_limit: u64,
}

fn run<R: Rollout<WarGame>>(game: &WarGame, rollout: &mut R, games: u64) -> Totals {
    let mut rng = PlayerRng::seed_from_u64(1);
    let mut moves = Vec::new();
    let mut t = Totals::default();
    for _ in 0..games {
        let mut s = game.initial();
        let mut placement = 0u64;
        while game.outcome(&s).is_none() {
            let m = rollout.playout_move(game, &s, &mut moves, &mut rng);
            placement += u64::from(m.is_placement());
            game.play(&mut s, m);
        }
        let len = u64::from(s.ply());
        t.games += 1;
        t.plies += len;
        t.placement += placement;
        // Mean of `len − k` over k = 0..len: (len + 1) / 2.
        t.left += (len + 1) as f64 / 2.0;
        match game.outcome(&s) {
            Some(Outcome::Win(Player::Black)) => {
                if s.units(Player::White).is_empty() {
                    t.red_elim += 1;
                } else {
                    t.red_base += 1;
                }
            }
            _ => {
                if s.units(Player::Black).is_empty() {
                    t.blue_elim += 1;
                } else {
                    t.blue_limit += 1;
                }
            }
        }
    }
    t
}

/// The plies from `s` to the end of one biased random game.
fn playout(game: &WarGame, s: &WarState, rollout: &mut WargameRollout, rng: &mut PlayerRng) -> u64 {
    let mut s = s.clone();
    let mut moves = Vec::new();
    let start = s.ply();
    while game.outcome(&s).is_none() {
        let m = rollout.playout_move(game, &s, &mut moves, rng);
        game.play(&mut s, m);
    }
    u64::from(s.ply() - start)
}

/// The two averaging models (see the module documentation) along `games` biased games.
fn weighting(args: &[String]) {
    let games: u64 = args.first().and_then(|s| s.parse().ok()).unwrap_or(50);
    let sizes = sizes(&args[1.min(args.len())..]);
    println!(
        "size   match plies   playout budget ({FIXED}/position)   time budget ({WORK} plies/position)"
    );
    for n in sizes {
        let game = WarGame::new(n).expect("supported size");
        let mut rollout = WargameRollout::default();
        let mut rng = PlayerRng::seed_from_u64(2);
        let (mut match_plies, mut fixed, mut fixed_n, mut timed, mut timed_n) = (0, 0, 0, 0, 0);
        let mut moves = Vec::new();
        for _ in 0..games {
            let mut s = game.initial();
            while game.outcome(&s).is_none() {
                for _ in 0..FIXED {
                    fixed += playout(&game, &s, &mut rollout, &mut rng);
                    fixed_n += 1;
                }
                let mut spent = 0;
                while spent < WORK {
                    let len = playout(&game, &s, &mut rollout, &mut rng);
                    spent += len + OVERHEAD;
                    timed += len;
                    timed_n += 1;
                }
                let m = rollout.playout_move(&game, &s, &mut moves, &mut rng);
                game.play(&mut s, m);
            }
            match_plies += u64::from(s.ply());
        }
        println!(
            "{:>5} {:>12.1} {:>30.1} {:>34.1}",
            format!("{n}x{n}"),
            match_plies as f64 / games as f64,
            fixed as f64 / fixed_n as f64,
            timed as f64 / timed_n as f64
        );
    }
}

/// GRAVE self-play with each budget: mean playout length and new-leaf depth.
fn search(args: &[String]) {
    let n: u8 = args.first().and_then(|s| s.parse().ok()).unwrap_or(9);
    let games: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(2);
    let game = WarGame::new(n).expect("supported size");
    for b in &args[2.min(args.len())..] {
        let budget = match b.split_at(1) {
            ("p", x) => Budget::Playouts(x.parse().expect("playouts")),
            ("s", x) => Budget::Seconds(x.parse().expect("seconds")),
            _ => panic!("budget {b:?}: pN or sSECONDS"),
        };
        let params = Params::new(Algorithm::Grave).with_budget(budget);
        let (mut stats, mut plies) = (SearchStats::default(), 0);
        for i in 0..games {
            let r = play_game(
                &game,
                [params; 2],
                true,
                [2 * i + 1, 2 * i + 2],
                &WargameRollout::default,
                i,
            );
            plies += r.moves.len();
            stats.add(&r.totals[0].stats);
            stats.add(&r.totals[1].stats);
        }
        println!(
            "{n}x{n} GRAVE self-play, budget {b}: {:.1} plies per game, playout length {:.1}, new-leaf depth {:.1}, {:.0} playouts/s",
            plies as f64 / games as f64,
            stats.mean_playout_length(),
            stats.mean_leaf_depth(),
            stats.playouts_per_second()
        );
    }
}

fn sizes(args: &[String]) -> Vec<u8> {
    let sizes: Vec<u8> = args.iter().filter_map(|s| s.parse().ok()).collect();
    if sizes.is_empty() {
        vec![5, 7, 9, 11, 13]
    } else {
        sizes
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    match args.get(1).map(String::as_str) {
        Some("weighting") => return weighting(&args[2..]),
        Some("search") => return search(&args[2..]),
        _ => {}
    }
    let games: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(2000);
    let sizes = sizes(&args[2.min(args.len())..]);
    println!(
        "{:>5} {:>7} {:>6} {:>9} {:>8} {:>7} {:>5} | {:>6} {:>6} | {:>6} {:>6}",
        "size",
        "policy",
        "plies",
        "placement",
        "movement",
        "left",
        "limit",
        "R-base",
        "R-elim",
        "B-elim",
        "B-lim"
    );
    for n in sizes {
        let game = WarGame::new(n).expect("supported size");
        let rows = [
            ("uniform", run(&game, &mut Uniform, games)),
            ("biased", run(&game, &mut WargameRollout::default(), games)),
        ];
        for (name, t) in rows {
            let g = t.games as f64;
            let pct = |x: u64| 100.0 * x as f64 / g;
            println!(
                "{:>5} {:>7} {:>6.1} {:>9.1} {:>8.1} {:>7.1} {:>5} | {:>5.1}% {:>5.1}% | {:>5.1}% {:>5.1}%",
                format!("{n}x{n}"),
                name,
                t.plies as f64 / g,
                t.placement as f64 / g,
                (t.plies - t.placement) as f64 / g,
                t.left / g,
                game.move_limit(),
                pct(t.red_base),
                pct(t.red_elim),
                pct(t.blue_elim),
                pct(t.blue_limit)
            );
        }
    }
}
