//! Large-board selftests: long random prefixes on the boards whose values we claim (4x5,
//! 3x6, 2x8, 1x12). The solver (full knowledge, the table sizes of the claims' layout scaled
//! down) answers "does Black win?" at a komi near the oracle's value when the oracle
//! finishes within its budget (short remaining games), and otherwise at a random komi, the
//! answer then checked by a re-solve split at the root into fresh processes. Questions the
//! solver's budget does not answer are counted as skipped.

use super::{Mode, Rng, case_name, random_prefix, resolve};
use games::Player;
use games::go;
use games::go::Komi;
use gosolve::oracle::Oracle;
use gosolve::{Answer, Config, Solver};

/// Runs the large-board part; returns the disagreements.
pub(super) fn run(mode: Mode, seed: u64) -> anyhow::Result<u64> {
    // (rows, cols, positions); the quick mode has one cheap 4x5 instance.
    let (boards, max_exp, oracle_nodes): (&[(u32, u32, usize)], u64, u64) = match mode {
        Mode::Quick => (&[(4, 5, 3)], 1_000_000, 20_000),
        Mode::Long => (
            &[(4, 5, 6), (3, 6, 6), (2, 8, 6), (1, 12, 6)],
            1_000_000,
            1_000_000,
        ),
    };
    let start = std::time::Instant::now();
    let mut rng = Rng(seed ^ 0x006c_6172_6765);
    let (mut cases, mut by_oracle, mut by_resolve, mut agree, mut skipped) =
        (0u64, 0u64, 0u64, 0u64, 0u64);
    let mut disagreements = 0;
    for &(r, c, count) in boards {
        let size = go::Size::new(r, c)?;
        let n = size.points();
        let cfg = Config {
            limits: gosolve::Limits {
                max_expansions: max_exp,
                ..gosolve::Limits::default()
            },
            ..Config::reference()
        };
        let mut solver = Solver::for_size(size, 64, cfg)?;
        let mut done = 0;
        let mut tries = 0;
        while done < count && tries < 20 * count {
            if super::interrupted() {
                break;
            }
            tries += 1;
            // Long prefixes: between 2n and 4n plies of a random game.
            let (pos, moves) = random_prefix(size, 4 * n, &mut rng);
            if pos.is_over() || moves.len() < 2 * n {
                continue;
            }
            done += 1;
            let case = |k2| case_name(size, &moves, k2);
            // A fresh oracle per position: its memo of long histories is dropped each time.
            if let Ok(v) = Oracle::new().with_max_nodes(oracle_nodes).value(&pos) {
                for (k2, want) in [(2 * v - 1, Answer::Proven), (2 * v + 1, Answer::Disproven)] {
                    cases += 1;
                    by_oracle += 1;
                    let a = solver
                        .prove(&pos, Player::Black, Komi::from_half_points(k2))
                        .answer;
                    if a == Answer::Unknown {
                        skipped += 1;
                    } else if a == want {
                        agree += 1;
                    } else {
                        disagreements += 1;
                        println!(
                            "DISAGREE large board: {}: {} vs oracle value {v}",
                            case(k2),
                            a.outcome_name()
                        );
                    }
                }
                debug_assert!(Komi::from_half_points(2 * v - 1).black_wins(v) == Some(true));
            } else {
                cases += 1;
                by_resolve += 1;
                let k2 = 2 * (rng.below(n + 1) as i32 - n as i32 / 2) + 1;
                let a = solver
                    .prove(&pos, Player::Black, Komi::from_half_points(k2))
                    .answer;
                if a == Answer::Unknown {
                    skipped += 1;
                    continue;
                }
                let s = resolve::split(size, &pos, &moves, k2, max_exp, 64)?;
                if s.answer == Answer::Unknown {
                    skipped += 1;
                } else if s.answer == a {
                    agree += 1;
                } else {
                    disagreements += 1;
                    println!(
                        "DISAGREE large board re-solve: {}: {} vs branches {}",
                        case(k2),
                        a.outcome_name(),
                        s.answer.outcome_name()
                    );
                }
            }
        }
    }
    let names: Vec<String> = boards.iter().map(|(r, c, _)| format!("{r}x{c}")).collect();
    println!(
        "large boards ({}): {cases} questions after long random prefixes, {by_oracle} against the oracle, {by_resolve} against a re-solve in fresh processes ({skipped} skipped: budget); {:.1} s",
        names.join(", "),
        start.elapsed().as_secs_f64()
    );
    println!("  agree: {agree}/{}", cases - skipped);
    Ok(disagreements)
}
