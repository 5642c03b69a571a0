//! Every algorithm agrees with plain minimax, and so with every other algorithm, on seeded
//! random positions a few moves from the end of each game; every best move keeps the value.

mod common;

use common::{every_setting, label};
use games::Game;
use games::atarigo::AtariGo;
use games::connect4::Connect4;
use games::hex::Hex;
use games::nogo::NoGo;
use games::tictactoe::TicTacToe;
use pns::minimax::minimax;
use pns::{Budget, HexThreats, MoveOrder, NaturalOrder, Prior, ResistanceOrder, Settings, solve};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// Random non-terminal positions reached by `plies` random moves (retrying games that end).
fn positions<G: Game>(
    game: &G,
    seed: u64,
    count: usize,
    plies: std::ops::RangeInclusive<usize>,
) -> Vec<G::State> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut out = Vec::new();
    let mut moves = Vec::new();
    while out.len() < count {
        let target = rng.random_range(plies.clone());
        let mut s = game.initial();
        for _ in 0..target {
            game.legal_moves(&s, &mut moves);
            if moves.is_empty() {
                break;
            }
            game.play(&mut s, moves[rng.random_range(0..moves.len())]);
        }
        if game.outcome(&s).is_none() {
            out.push(s);
        }
    }
    out
}

fn agree<G: Game>(
    game: &G,
    states: &[G::State],
    draws: bool,
    order: &dyn Fn() -> Box<dyn MoveOrder<G>>,
) {
    agree_with(game, states, draws, order, None);
}

/// As [`agree`], with one prior for every setting (`None`: each setting's own).
fn agree_with<G: Game>(
    game: &G,
    states: &[G::State],
    draws: bool,
    order: &dyn Fn() -> Box<dyn MoveOrder<G>>,
    prior: Option<&dyn Fn() -> Box<dyn Prior<G>>>,
) {
    let settings: Vec<Settings> = every_setting();
    for (i, s) in states.iter().enumerate() {
        let want = minimax(game, s);
        for set in &settings {
            let mut p = match prior {
                Some(make) => set.prover_with(order(), make()),
                None => set.prover(order()),
            };
            let sol = solve(p.as_mut(), game, s, &Budget::default(), draws);
            assert_eq!(
                sol.value,
                Some(want),
                "{} position {i} by {}:\n{}",
                game.name(),
                label(set),
                game.render(s)
            );
            let mv = sol.best_move.expect("a best move");
            let mut child = s.clone();
            game.play(&mut child, mv);
            assert_eq!(
                minimax(game, &child).negate(),
                want,
                "{} position {i} by {}: best move {mv} changes the value\n{}",
                game.name(),
                label(set),
                game.render(s)
            );
        }
    }
}

#[test]
fn tictactoe_random_positions() {
    let g = TicTacToe;
    agree(&g, &positions(&g, 1, 40, 0..=6), true, &|| {
        Box::new(NaturalOrder)
    });
}

#[test]
fn connect4_random_positions() {
    let g = Connect4::new(4, 4).unwrap();
    agree(&g, &positions(&g, 2, 25, 6..=11), true, &|| {
        Box::new(NaturalOrder)
    });
    let g = Connect4::new(5, 4).unwrap();
    agree(&g, &positions(&g, 3, 10, 11..=15), true, &|| {
        Box::new(NaturalOrder)
    });
}

#[test]
fn hex_random_positions() {
    for (n, plies) in [(2, 0..=2), (3, 0..=6), (4, 5..=10)] {
        let g = Hex::new(n, n).unwrap();
        agree(&g, &positions(&g, 4 + n as u64, 20, plies), false, &|| {
            Box::new(ResistanceOrder)
        });
    }
    let g = Hex::new(5, 3).unwrap();
    agree(&g, &positions(&g, 9, 15, 3..=8), false, &|| {
        Box::new(ResistanceOrder)
    });
    let g = Hex::new(2, 5).unwrap();
    agree(&g, &positions(&g, 10, 15, 0..=5), false, &|| {
        Box::new(ResistanceOrder)
    });
}

#[test]
fn hex_random_positions_with_hex_threats() {
    for (n, plies) in [(3, 0..=5), (4, 4..=10)] {
        let g = Hex::new(n, n).unwrap();
        agree_with(
            &g,
            &positions(&g, 40 + n as u64, 20, plies),
            false,
            &|| Box::new(ResistanceOrder),
            Some(&|| Box::new(HexThreats)),
        );
    }
}

#[test]
fn nogo_random_positions() {
    let g = NoGo::new(4, 4).unwrap();
    agree(&g, &positions(&g, 5, 15, 5..=9), false, &|| {
        Box::new(NaturalOrder)
    });
    let g = NoGo::new(3, 3).unwrap();
    agree(&g, &positions(&g, 6, 15, 0..=4), false, &|| {
        Box::new(NaturalOrder)
    });
}

#[test]
fn atarigo_random_positions() {
    let g = AtariGo::new(4, 4).unwrap();
    agree(&g, &positions(&g, 7, 15, 3..=8), false, &|| {
        Box::new(NaturalOrder)
    });
    let g = AtariGo::new(3, 3).unwrap();
    agree(&g, &positions(&g, 8, 15, 0..=3), false, &|| {
        Box::new(NaturalOrder)
    });
}
