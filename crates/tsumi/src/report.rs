//! The solver's counters and proofs as JSON objects and as lines for people: table
//! statistics, proof-transfer and static-knowledge counters, a proof, a komi in points.

use games::Player;
use games::go::Komi;
use gosolve::{Answer, Proof, Solver};
use serde_json::json;

/// The solver's table statistics as JSON.
#[must_use]
pub fn table_json(solver: &Solver) -> serde_json::Value {
    let t = solver.table_stats();
    json!({
        "mib": solver.table_bytes() as f64 / f64::from(1u32 << 20),
        "slots": solver.table_capacity(),
        "used": t.used,
        "proven": t.proven_used,
        "probes": t.probes,
        "proven_hits": t.proven_hits,
        "unproven_hits": t.unproven_hits,
        "cross_komi_hits": t.cross_komi_hits,
        "stores": t.stores,
        "evictions": t.evictions,
    })
}

/// One line of table statistics for people.
#[must_use]
pub fn table_text(solver: &Solver) -> String {
    let t = solver.table_stats();
    format!(
        "table: {:.0} MiB, {} of {} slots used ({} proofs), {} probes, {} proof hits, {} number hits ({} of another komi), {} evictions",
        solver.table_bytes() as f64 / f64::from(1u32 << 20),
        t.used,
        solver.table_capacity(),
        t.proven_used,
        t.probes,
        t.proven_hits,
        t.unproven_hits,
        t.cross_komi_hits,
        t.evictions
    )
}

/// A proof as JSON (the `proofs` items of `solve --json`).
#[must_use]
pub fn proof_json(p: &Proof) -> serde_json::Value {
    json!({
        "winner": p.proven_winner().map_or("unknown", Player::name),
        "asked": p.winner.name(),
        "komi": komi_number(Komi::from_half_points(p.komi2)),
        "result": p.answer.name(),
        "expansions": p.expansions,
        "nodes": p.nodes,
        "revisit_factor": p.revisit_factor(),
        "time_s": p.time_s,
        "threads": p.threads,
        "pruned": p.pruned,
        // The strongest komi the proof holds at for its winner (its scores and areas).
        "holds_komi": (p.answer != Answer::Unknown)
            .then(|| Komi::from_half_points(p.holds).to_string().parse::<f64>().unwrap_or(0.0)),
    })
}

/// A komi as a JSON number of points (e.g. 2.5).
#[must_use]
pub fn komi_number(komi: Komi) -> f64 {
    f64::from(komi.half_points()) / 2.0
}

/// The counters of proof transfer and static knowledge as JSON.
#[must_use]
pub fn knowledge_json(solver: &Solver) -> serde_json::Value {
    let k = solver.knowledge_stats();
    json!({
        "transfer_tests": k.transfer_tests,
        "transfers": k.transfers,
        "static_leaves": k.static_leaves,
        "region_leaves": k.region_leaves,
        "pruned_moves": k.pruned_moves,
        "transferable_proofs": k.transferable_proofs,
        "targeted_proofs": k.targeted_proofs,
        "many_target_proofs": k.many_target_proofs,
    })
}

/// One line of proof-transfer and static-knowledge counters for people.
#[must_use]
pub fn knowledge_text(solver: &Solver) -> String {
    let k = solver.knowledge_stats();
    format!(
        "knowledge: {} transfers of {} transfer tests, {} static leaves, {} region leaves, {} pruned moves; proofs stored: {} transferable, {} with one exclusion target, {} with several or a symmetry merge",
        k.transfers,
        k.transfer_tests,
        k.static_leaves,
        k.region_leaves,
        k.pruned_moves,
        k.transferable_proofs,
        k.targeted_proofs,
        k.many_target_proofs
    )
}
