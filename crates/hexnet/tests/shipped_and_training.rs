//! A tiny net trained in seconds beats the constant policy on held-out positions; the
//! shipped 6x6 networks load, have their shape, and reproduce their reported held-out
//! accuracy and MSE on `data/hexnet/heldout-6x6.tsv`.

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
    let text = std::fs::read_to_string(data("heldout-6x6.tsv")).unwrap();
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

#[test]
fn shipped_networks_have_their_shape_and_reported_figures() {
    let hex = Hex::new(6, 6).unwrap();
    let (pol, val) = held_out(&hex);
    let p = Weights::load(&data("policy-6x6.txt")).unwrap();
    let v = Weights::load(&data("value-6x6.txt")).unwrap();
    assert_eq!(p.net.shape.kind, Kind::Policy);
    assert_eq!(v.net.shape.kind, Kind::Value);
    assert_eq!(p.net.shape.n, 6);
    assert_eq!(
        p.meta["heldout_examples"].parse::<usize>().unwrap(),
        pol.len()
    );
    assert_eq!(
        v.meta["heldout_examples"].parse::<usize>().unwrap(),
        val.len()
    );
    let acc = format!("{:.6}", policy_accuracy(&p.net, &pol));
    assert_eq!(acc, p.meta["heldout_accuracy"]);
    let mse = format!("{:.6}", value_mse(&v.net, &val));
    assert_eq!(mse, v.meta["heldout_mse"]);
    let base: f64 = p.meta["heldout_constant_accuracy"].parse().unwrap();
    assert!(
        acc.parse::<f64>().unwrap() > base + 0.2,
        "{acc} vs constant {base}"
    );
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
