//! `tsumi selftest --faults` (a build with `--features fault-injection`): the campaign of
//! `gosolve::faults`, printed as the paper's Table 4 rows (faults per kind, how many
//! changed a result, the 95% upper bound on the probability that one fault changes a
//! value). Reversed winners are expected to change results; the count is reported, not
//! failed on: this part reports, it has no disagreements of its own.

use super::Mode;
use gosolve::faults::{Campaign, run as campaign};

/// Runs the campaign and prints the table; returns 0 (no disagreements are defined here).
pub(super) fn run(mode: Mode, seed: u64) -> anyhow::Result<u64> {
    let start = std::time::Instant::now();
    println!(
        "fault injection: each kind at its rate of chances; 'changed': solves whose result differs; 95% upper bounds on the chance that one fault, or one solve with faults, changes a value"
    );
    let c = match mode {
        Mode::Quick => Campaign {
            boards: vec![(2, 3), (3, 3), (2, 4), (3, 4)],
            solves: 60,
            per_million: [500_000, 200_000, 10_000],
            seed,
            max_expansions: 2_000_000,
        },
        Mode::Long => Campaign {
            boards: vec![
                (2, 3),
                (3, 3),
                (2, 4),
                (1, 6),
                (1, 7),
                (3, 4),
                (2, 5),
                (4, 4),
            ],
            solves: 300,
            per_million: [500_000, 200_000, 10_000],
            seed,
            max_expansions: 20_000_000,
        },
    };
    let reports = campaign(&c)?;
    let names: Vec<String> = c.boards.iter().map(|(r, k)| format!("{r}x{k}")).collect();
    println!(
        "fault injection on {} (seed {seed}); a solve = two questions establishing the value of an un-faulted solve; {:.1} s",
        names.join(", "),
        start.elapsed().as_secs_f64()
    );
    println!(
        "  {:<30} {:>6} {:>6} {:>8} {:>8} {:>7} {:>10} {:>10}",
        "kind", "rate", "solves", "faulted", "faults", "changed", "per fault", "per solve"
    );
    for (r, rate) in reports.iter().zip(c.per_million) {
        println!(
            "  {:<30} {:>5.1}% {:>6} {:>8} {:>8} {:>7} {:>10.2e} {:>10.2e}",
            r.kind.name(),
            f64::from(rate) / 1e4,
            r.solves,
            r.solves_with_faults,
            r.faults,
            r.changed,
            r.upper95,
            r.upper95_solve
        );
    }
    let collisions: Vec<_> = reports
        .iter()
        .filter(|r| r.kind != gosolve::table::FaultKind::Reversed)
        .collect();
    let (f, x) = collisions
        .iter()
        .fold((0, 0), |(f, x), r| (f + r.faults, x + r.changed));
    println!(
        "  the two collision kinds together: {x} of {f} faults changed a result; 95% bound {:.2e}",
        gosolve::faults::clopper_pearson_upper(x, f)
    );
    Ok(0)
}
