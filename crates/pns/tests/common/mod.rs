//! Shared helpers of the pns integration tests: the data files and every algorithm.

#![allow(dead_code)]

use games::Game;
use pns::{Algorithm, MoveOrder, Prover, Settings};
use std::path::PathBuf;

/// `data/NAME` of the repository.
pub fn data_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../data")
        .join(name)
}

/// The rows of a tab-separated data file, comments (`#`) and blank lines skipped.
pub fn read_tsv(name: &str) -> Vec<Vec<String>> {
    let text = std::fs::read_to_string(data_path(name))
        .unwrap_or_else(|e| panic!("read data/{name}: {e}"));
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| l.split('\t').map(|f| f.trim().to_string()).collect())
        .collect()
}

/// The value column of `data/small-games.tsv` for a game and size: "first", "second" or "draw".
pub fn small_game_value(game: &str, size: &str) -> String {
    read_tsv("small-games.tsv")
        .into_iter()
        .find(|r| r[0] == game && r[1] == size)
        .unwrap_or_else(|| panic!("{game} {size} not in small-games.tsv"))[2]
        .clone()
}

/// Every algorithm, with default settings, plus variants with mobility initialisation and
/// the weak rule for the depth-first ones.
pub fn every_setting() -> Vec<Settings> {
    let mut v: Vec<Settings> = Algorithm::ALL.iter().map(|&a| Settings::new(a)).collect();
    for a in [Algorithm::DfPn, Algorithm::Pds, Algorithm::Pn2] {
        let mut s = Settings::new(a);
        s.mobility = true;
        s.weak = true;
        v.push(s);
    }
    let mut wide = Settings::new(Algorithm::FocusedDfPn);
    wide.base = 2;
    wide.factor = 0.5;
    v.push(wide);
    let mut nagai = Settings::new(Algorithm::DfPn);
    nagai.epsilon = 0.0;
    v.push(nagai);
    v
}

/// A label for failure messages.
pub fn label(s: &Settings) -> String {
    format!(
        "{}{}{} eps {} base {} factor {}",
        s.algorithm,
        if s.mobility { "+mobility" } else { "" },
        if s.weak { "+weak" } else { "" },
        s.epsilon,
        s.base,
        s.factor
    )
}

/// The prover for settings `s` with ordering `order`.
pub fn prover<'a, G: Game + 'a>(
    s: &Settings,
    order: Box<dyn MoveOrder<G> + 'a>,
) -> Box<dyn Prover<G> + 'a> {
    s.prover(order)
}
