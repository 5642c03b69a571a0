//! `tsumi prove hex --algo fdfpn --order policy --widen value` (FDFPN-policy and FDFPN-CNN
//! with the shipped networks) through the built binary: the four runs of Table 2 give the
//! values of the published map (data/hex-opening-maps.tsv, whose 6x6 row is
//! data/hex-6x6-openings.tsv) with a best move that wins, and the options' misuse
//! is a clear error.

mod common;

use common::{assert_clear_error, json, opening_winner};

/// The winner named by a proven `prove` JSON: the mover on a win, the other on a loss.
fn proven_winner(v: &serde_json::Value) -> &'static str {
    assert_eq!(v["status"], "proven", "{v}");
    let black_moves = v["to_move"] == "black";
    let mover_wins = match v["result"].as_str().unwrap() {
        "win" => true,
        "loss" => false,
        r => panic!("{r}: {v}"),
    };
    if black_moves == mover_wins {
        "black"
    } else {
        "white"
    }
}

/// The winner of hex `size` after the opening `mv` by one run of `prove`. A win's best move
/// is checked by a second proof: after it, the opponent to move loses.
fn winner(size: &str, mv: &str, run: &[&str]) -> &'static str {
    let mut args = vec!["prove", "hex", size, "--moves", mv, "--json"];
    args.extend(run);
    let v = json(&args);
    if v["result"] == "win" {
        let best = v["best_move"].as_str().expect("a win names its move");
        assert_ne!(best, mv, "{args:?}: the best move is an occupied cell");
        let line = format!("{mv},{best}");
        let mut after = vec!["prove", "hex", size, "--moves", &line, "--json"];
        after.extend(run);
        let w = json(&after);
        assert_eq!(w["result"], "loss", "{after:?}: {w}");
    }
    proven_winner(&v)
}

const RUNS: [&[&str]; 4] = [
    &["--algo", "dfpn"],
    &["--algo", "fdfpn"],
    &["--algo", "fdfpn", "--order", "policy"],
    &["--algo", "fdfpn", "--order", "policy", "--widen", "value"],
];

#[test]
fn the_four_runs_of_table_2_agree_with_the_6x6_map() {
    // Both winners, acute and obtuse corners, an edge and the centre.
    for mv in ["a1", "f1", "a2", "f5", "b4", "c3"] {
        for run in RUNS {
            assert_eq!(
                winner("6x6", mv, run),
                opening_winner("6x6", mv),
                "{mv} {run:?}"
            );
        }
    }
}

#[test]
fn the_shipped_7x7_networks_prove_an_opening() {
    // d1: White wins (data/hex-opening-maps.tsv).
    let cnn = ["--algo", "fdfpn", "--order", "policy", "--widen", "value"];
    assert_eq!(winner("7x7", "d1", &cnn), "white");
}

#[test]
fn misused_network_options_are_clear_errors() {
    assert_clear_error(
        &[
            "prove", "hex", "8x8", "--algo", "fdfpn", "--order", "policy",
        ],
        "no shipped policy network for 8x8",
    );
    assert_clear_error(
        &["prove", "hex", "8x8", "--algo", "fdfpn", "--widen", "value"],
        "no shipped value network for 8x8",
    );
    assert_clear_error(
        &["prove", "hex", "6x6", "--algo", "dfpn", "--order", "policy"],
        "--order does not apply to --algo dfpn",
    );
    assert_clear_error(
        &["prove", "hex", "6x6", "--algo", "fdfpn", "--order", "cnn"],
        "unknown --order 'cnn'",
    );
    let with_policy_net = |net: &str, needle: &str| {
        let args = [
            "prove",
            "hex",
            "6x6",
            "--algo",
            "fdfpn",
            "--order",
            "policy",
            "--policy-net",
            net,
        ];
        assert_clear_error(&args, needle);
    };
    with_policy_net("/nonexistent/policy.txt", "/nonexistent/policy.txt");
    let seven = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../data/hexnet/policy-7x7.txt"
    );
    with_policy_net(seven, "the policy network is for 7x7, the board is 6x6");
    assert_clear_error(
        &["prove", "go", "2x2", "--komi", "0.5", "--widen", "value"],
        "--widen applies to hex only",
    );
}

/// FDFPN-CNN with the shipped 7x7 networks on every opening (or those in
/// `TSUMI_HEX_OPENINGS`), `TSUMI_HEX_SECONDS` each (default 900): each must be proved and
/// match the published map. Run with `cargo test --release -p tsumi --test hex_nets_cli --
/// --ignored --nocapture`.
#[test]
#[ignore = "long: FDFPN-CNN on the 49 openings of 7x7 (about half an hour)"]
fn fdfpn_cnn_solves_the_7x7_openings() {
    let only = std::env::var("TSUMI_HEX_OPENINGS").unwrap_or_default();
    let seconds = std::env::var("TSUMI_HEX_SECONDS").unwrap_or_else(|_| "900".into());
    let cnn = [
        "--algo",
        "fdfpn",
        "--order",
        "policy",
        "--widen",
        "value",
        "--tt-mib",
        "1024",
        "--seconds",
        &seconds,
    ];
    let (mut total, mut count) = (0, 0);
    for row in 1..=7 {
        for col in "abcdefg".chars() {
            let mv = format!("{col}{row}");
            if !only.is_empty() && !only.split_whitespace().any(|o| o == mv) {
                continue;
            }
            let mut args = vec!["prove", "hex", "7x7", "--moves", &mv, "--json"];
            args.extend(cnn);
            let v = json(&args);
            let winner = proven_winner(&v);
            assert_eq!(winner, opening_winner("7x7", &mv), "{mv}");
            let e = v["expansions"].as_u64().unwrap();
            eprintln!("7x7 {mv}: {winner}, {e} expansions");
            total += e;
            count += 1;
        }
    }
    eprintln!("7x7 FDFPN-CNN: {count} openings, {total} expansions");
}
