//! The solver's counters and proofs as JSON objects and as lines for people: table
//! statistics, proof-transfer and static-knowledge counters, a proof, a komi in points.

use games::Player;
use games::go::Komi;
use gosolve::{Answer, Proof, Solver};
use serde::{Deserialize, Serialize};
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
        "komi": komi_number(Komi::from_half_points(p.komi.half_points())),
        "result": p.answer.outcome_name(),
        "expansions": p.expansions,
        "nodes": p.nodes,
        "revisit_factor": p.revisit_factor(),
        "time_s": p.time_s,
        "threads": p.threads,
        "pruned": p.pruned,
        // The strongest komi the proof holds at for its winner (its scores and areas).
        "holds_komi": (p.answer != Answer::Unknown)
            .then(|| p.holds.to_string().parse::<f64>().unwrap_or(0.0)),
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
        "depth_expansions": trimmed(&k.depth_expansions),
        "depth_nodes": trimmed(&k.depth_nodes),
        "region_games": {
            "calls": k.regions.calls,
            "wins": k.regions.wins,
            "games_solved": k.regions.games_solved,
            "games_aborted": k.regions.games_aborted,
            "nodes": k.regions.nodes,
            "memo_hits": k.regions.memo_hits,
            "memo_size": k.regions.memo_size,
            "memo_overwrites": k.regions.memo_overwrites,
        },
    })
}

/// A per-depth count without its trailing zeros.
fn trimmed(counts: &[u64]) -> &[u64] {
    let end = counts.iter().rposition(|&c| c != 0).map_or(0, |i| i + 1);
    &counts[..end]
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

/// The answer of `tsumi prove go` as `--json` prints it and `--out FILE` writes it: the
/// record a campaign's jobs leave and `campaign status`/`merge` and `selftest` read back.
/// Writers fill it, readers deserialize it, so that both name each field once. Every field
/// has a default, so a file from an older version or one missing a field still reads (with
/// zeros, `false` and `None` for what it lacks). Printed through `serde_json::Value`, so the
/// keys come out sorted as before.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ProveRecord {
    /// "go".
    pub game: String,
    /// The board, "RxC".
    pub board: String,
    /// The SGF file the position came from, if any.
    pub sgf: Option<String>,
    /// The `--moves` played before the question, as the board names them.
    pub moves: Vec<String>,
    /// Komi in points.
    pub komi: f64,
    /// The side to move at the question.
    pub to_move: String,
    /// The player asked about: "black" or "white".
    pub winner: String,
    /// "proven" or "unknown".
    pub status: String,
    /// "win", "loss" or "unknown" (for `winner`).
    pub result: String,
    /// The winning move of the side to move, when it wins.
    pub best_move: Option<String>,
    /// Expansions of the question.
    pub expansions: u64,
    /// Nodes of the question.
    pub nodes: u64,
    /// Expansions per node.
    pub revisit_factor: f64,
    /// Search time in seconds.
    pub time_s: f64,
    /// Search threads.
    pub threads: usize,
    /// CPU time of the process in seconds.
    pub cpu_s: f64,
    /// Whether Ctrl-C stopped the search.
    pub interrupted: bool,
    /// Table statistics ([`table_json`] with the size's reason, `chosen`).
    pub table: serde_json::Value,
    /// Proof-transfer and static-knowledge counters ([`knowledge_json`]).
    pub knowledge: serde_json::Value,
    /// Whether the pruned search found no win (then asked again unpruned).
    pub pruned_loss: bool,
    /// Whether the answer came from a pruned search.
    pub pruned: bool,
    /// The pruned first attempt ([`proof_json`]), when there was one.
    pub pruned_first: Option<serde_json::Value>,
    /// Why there is no answer (only when `status` is "unknown").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Resident memory at the end, in bytes.
    pub resident_bytes: u64,
    /// Peak resident memory, in bytes.
    pub peak_resident_bytes: u64,
    /// The command line that wrote the file (`--out` only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
    /// The version of tsumi that wrote the file (`--out` only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
}

impl ProveRecord {
    /// The record of a result file's JSON, if it is an object of this shape.
    #[must_use]
    pub fn from_value(v: &serde_json::Value) -> Option<Self> {
        serde_json::from_value(v.clone()).ok()
    }

    /// The record as a JSON object (keys sorted, as `json!` printed it).
    #[must_use]
    pub fn to_value(&self) -> serde_json::Value {
        serde_json::to_value(self).expect("a record of plain fields serializes")
    }
}

#[cfg(test)]
mod tests {
    use super::ProveRecord;

    #[test]
    fn a_record_reads_back_what_it_writes_and_tolerates_missing_fields() {
        let r = ProveRecord {
            game: "go".into(),
            board: "2x3".into(),
            moves: vec!["B1".into()],
            komi: 0.5,
            winner: "black".into(),
            status: "proven".into(),
            result: "win".into(),
            expansions: 250,
            ..ProveRecord::default()
        };
        let v = r.to_value();
        assert!(v.get("reason").is_none() && v.get("command").is_none());
        assert!(v["sgf"].is_null() && v["best_move"].is_null());
        assert_eq!(ProveRecord::from_value(&v), Some(r));
        let old: serde_json::Value =
            serde_json::from_str(r#"{"board":"2x2","result":"loss","reason":"budget"}"#).unwrap();
        let read = ProveRecord::from_value(&old).unwrap();
        assert_eq!((read.result.as_str(), read.expansions), ("loss", 0));
        assert_eq!(read.reason.as_deref(), Some("budget"));
        assert_eq!(ProveRecord::from_value(&serde_json::json!([1, 2])), None);
        assert_eq!(
            ProveRecord::from_value(&serde_json::json!({"expansions": "x"})),
            None
        );
    }
}
