//! A tiny net trained in seconds beats the constant policy on held-out positions; the
//! shipped networks (6x6 and 7x7) load, have their shape, and reproduce their reported
//! held-out accuracy and MSE on `data/hexnet/heldout-NxN.tsv`.

use games::Game;
use games::hex::{Hex, HexMove};
use hexnet::{
    Example, Kind, Shape, TrainConfig, Weights, constant_policy_accuracy, policy_accuracy, train,
    value_mse,
};
use std::path::PathBuf;

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../data/hexnet")
        .join(name)
}

fn held_out(hex: &Hex) -> (Vec<Example>, Vec<Example>) {
    let n = hex.width();
    let text = std::fs::read_to_string(data(&format!("heldout-{n}x{n}.tsv"))).unwrap();
    let (mut pol, mut val) = (Vec::new(), Vec::new());
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let f: Vec<&str> = line.split('\t').collect();
        let mut s = hex.initial();
        for m in f[0].split(',') {
            let mv: HexMove = hex.parse_move(&s, m).unwrap();
            hex.play(&mut s, mv);
        }
        let value: f32 = f[2].parse().unwrap();
        if f[1] == "-" {
            val.push(Example::new(hex, &s, None, value));
        } else {
            let mv = hex.parse_move(&s, f[1]).unwrap();
            pol.push(Example::new(hex, &s, Some(mv), value));
        }
    }
    (pol, val)
}

fn check_shipped(n: usize) {
    let hex = Hex::new(n, n).unwrap();
    let (pol, val) = held_out(&hex);
    let p = Weights::load(&data(&format!("policy-{n}x{n}.txt"))).unwrap();
    let v = Weights::load(&data(&format!("value-{n}x{n}.txt"))).unwrap();
    assert_eq!(p.net.shape.kind, Kind::Policy);
    assert_eq!(v.net.shape.kind, Kind::Value);
    assert_eq!(p.net.shape.n, n);
    assert_eq!(v.net.shape.n, n);
    assert_eq!(
        p.meta["heldout_examples"].parse::<usize>().unwrap(),
        pol.len()
    );
    assert_eq!(
        v.meta["heldout_examples"].parse::<usize>().unwrap(),
        val.len()
    );
    let acc = format!("{:.6}", policy_accuracy(&p.net, &pol));
    assert_eq!(acc, p.meta["heldout_accuracy"], "{n}x{n} policy");
    let mse = format!("{:.6}", value_mse(&v.net, &val));
    assert_eq!(mse, v.meta["heldout_mse"], "{n}x{n} value");
    let base: f64 = p.meta["heldout_constant_accuracy"].parse().unwrap();
    assert!(
        acc.parse::<f64>().unwrap() > base + 0.2,
        "{n}x{n}: {acc} vs constant {base}"
    );
    let base_mse: f64 = v.meta["heldout_constant_mse"].parse().unwrap();
    assert!(
        mse.parse::<f64>().unwrap() < base_mse * 0.8,
        "{n}x{n}: MSE {mse} vs constant {base_mse}"
    );
}

#[test]
fn shipped_6x6_networks_have_their_shape_and_reported_figures() {
    check_shipped(6);
}

#[test]
fn shipped_7x7_networks_have_their_shape_and_reported_figures() {
    check_shipped(7);
}

#[test]
fn a_tiny_net_trained_in_seconds_beats_the_constant_policy_and_repeats() {
    let hex = Hex::new(6, 6).unwrap();
    let (pol, _) = held_out(&hex);
    let (test, tr) = pol.split_at(pol.len() / 4);
    let shape = Shape {
        kind: Kind::Policy,
        n: 6,
        channels: 6,
        layers: 2,
        hidden: 8,
    };
    let cfg = TrainConfig {
        epochs: 6,
        ..TrainConfig::default()
    };
    let net = train(shape, tr, &cfg, |_| {});
    let acc = policy_accuracy(&net, test);
    let base = constant_policy_accuracy(tr, test);
    assert!(acc > base, "tiny net {acc} vs constant {base}");
    assert_eq!(
        train(shape, tr, &cfg, |_| {}),
        net,
        "same seed, same weights"
    );
}
