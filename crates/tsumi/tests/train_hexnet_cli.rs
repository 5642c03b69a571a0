//! `tsumi train-hexnet` through the built binary: the solver walks give the same data and
//! the same weights on one thread and on two, and bad options are clear errors.

mod common;

use common::{assert_clear_error, tsumi};
use std::path::Path;

fn train(out: &Path, threads: &str) {
    let o = tsumi(&[
        "train-hexnet",
        "--size",
        "6x6",
        "--walks",
        "40",
        "--label-expansions",
        "800",
        "--epochs",
        "2",
        "--channels",
        "4",
        "--layers",
        "1",
        "--hidden",
        "4",
        "--threads",
        threads,
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

/// The weights' lines without the `meta` ones (which hold the training time).
fn weights(path: &Path) -> String {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with("meta"))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn walks_on_one_thread_and_on_two_give_the_same_data_and_weights() {
    let dir = common::temp_folder("train-hexnet");
    let (one, two) = (dir.join("one"), dir.join("two"));
    train(&one, "1");
    train(&two, "2");
    let held = |d: &Path| std::fs::read_to_string(d.join("heldout-6x6.tsv")).unwrap();
    assert!(
        held(&one).lines().count() > 10,
        "too few held-out positions"
    );
    assert_eq!(held(&one), held(&two));
    for f in ["policy-6x6.txt", "value-6x6.txt"] {
        assert_eq!(weights(&one.join(f)), weights(&two.join(f)), "{f}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_options_are_clear_errors() {
    assert_clear_error(&["train-hexnet", "--size", "2x2"], "--size 2x2");
    assert_clear_error(&["train-hexnet", "--size", "5x6"], "--size 5x6");
    assert_clear_error(
        &["train-hexnet", "--games", "0", "--walks", "0"],
        "no training data",
    );
    assert_clear_error(&["train-hexnet", "--epochs", "0"], "--epochs");
}
