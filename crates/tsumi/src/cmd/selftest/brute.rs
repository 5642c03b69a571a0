//! Brute force over all prefixes: every prefix of seeded random games, on one shared table
//! per board (one [`Solver`] reused for every question, so proofs stored for one prefix are
//! found, transferred or rejected at the others), against the exact-state minimax of
//! [`Oracle`] (its memo is keyed on the board, the side, the pass and the whole set of
//! earlier boards; one oracle per board, the prefixes of a game taken from the last to the
//! first). Each prefix's exact value v is checked with two questions: Black wins at komi
//! v − ½ and loses at v + ½.

use super::{Mode, Rng, empty_position, random_move};
use games::go::Komi;

use games::Player;
use games::go;
use gosolve::oracle::Oracle;
use gosolve::{Answer, Config, Solver};

/// Runs the brute force; returns the disagreements.
pub(super) fn run(mode: Mode, seed: u64) -> anyhow::Result<u64> {
    let (boards, games, oracle_nodes): (&[(u32, u32)], usize, u64) = match mode {
        Mode::Quick => (&[(1, 3), (1, 4), (1, 5), (2, 2)], 12, 300_000),
        Mode::Long => (
            &[(1, 5), (1, 6), (1, 7), (2, 3), (2, 4), (3, 3)],
            40,
            5_000_000,
        ),
    };
    let start = std::time::Instant::now();
    let mut rng = Rng(seed ^ 0x0062_7275_7465);
    let (mut prefixes, mut questions, mut agree, mut skipped) = (0u64, 0u64, 0u64, 0u64);
    let mut disagreements = 0;
    for &(r, c) in boards {
        let size = go::Size::new(r, c)?;
        let mut solver = Solver::for_size(size, 16, Config::reference())?;
        let mut oracle = Oracle::new().with_max_nodes(oracle_nodes);
        for _ in 0..games {
            if super::interrupted() {
                break;
            }
            // The game first, then its prefixes from the last to the first: the oracle's
            // memo (exact states) then holds most of each earlier prefix's tree.
            let mut pos = empty_position(size);
            let mut game = vec![(pos.clone(), Vec::<String>::new())];
            while let Some(m) = random_move(&pos, &mut rng) {
                if game.len() > 4 * size.points() || pos.play(m).is_err() {
                    break;
                }
                let mut moves = game[game.len() - 1].1.clone();
                moves.push(m.to_string());
                game.push((pos.clone(), moves));
            }
            for (pos, moves) in game.iter().rev() {
                prefixes += 1;
                let Ok(v) = oracle.value(pos) else {
                    skipped += 1;
                    continue;
                };
                for (k2, want) in [(2 * v - 1, Answer::Proven), (2 * v + 1, Answer::Disproven)] {
                    questions += 1;
                    let a = solver
                        .prove(pos, Player::Black, Komi::from_half_points(k2))
                        .answer;
                    if a == want {
                        agree += 1;
                    } else {
                        disagreements += 1;
                        println!(
                            "DISAGREE brute force: {}: {} vs oracle value {v}",
                            super::case_name(size, moves, k2),
                            a.outcome_name()
                        );
                    }
                }
            }
        }
    }
    println!(
        "brute force: {prefixes} prefixes of {} random games on {} boards, one table per board ({skipped} skipped: oracle budget); {:.1} s",
        games * boards.len(),
        boards.len(),
        start.elapsed().as_secs_f64()
    );
    println!("  exact values confirmed by two questions each: {agree}/{questions}");
    Ok(disagreements)
}
