//! Test support: the table's probe and store as one call each (a query per call), as the
//! table's unit tests and its loom model make them.

use super::Table;
use super::entry::PackedAttrs;
use super::query::{NodeKey, Probe, Record, StoreKind};
use super::stats::TableStats;
use games::Player;

/// The table's calls as these tests make them: one query per call (the search builds one
/// per node, [`Table::query`]).
pub(super) trait Direct {
    #[allow(clippy::too_many_arguments)]
    fn probe(
        &self,
        k: &NodeKey,
        mover: Player,
        komi2: i32,
        path: bool,
        transfer: bool,
        stats: &mut TableStats,
        accept: impl FnMut(&PackedAttrs, bool) -> bool,
    ) -> Probe;
    #[allow(clippy::too_many_arguments)]
    fn store(
        &self,
        k: &NodeKey,
        mover: Player,
        komi2: i32,
        what: StoreKind,
        best: u8,
        effort: u64,
        stats: &mut TableStats,
    );
    fn seen(&self, k: &NodeKey) -> bool;
}

impl Direct for Table {
    fn probe(
        &self,
        k: &NodeKey,
        mover: Player,
        komi2: i32,
        path: bool,
        transfer: bool,
        stats: &mut TableStats,
        accept: impl FnMut(&PackedAttrs, bool) -> bool,
    ) -> Probe {
        self.query(k, mover)
            .probe(komi2, path, transfer, stats, accept)
    }
    fn store(
        &self,
        k: &NodeKey,
        mover: Player,
        komi2: i32,
        what: StoreKind,
        best: u8,
        effort: u64,
        stats: &mut TableStats,
    ) {
        let r = Record {
            what,
            komi2,
            best,
            effort,
        };
        self.query(k, mover).store(&r, stats);
    }
    fn seen(&self, k: &NodeKey) -> bool {
        self.query(k, Player::Black).seen()
    }
}
