//! The GTP command loop of the Go engine (`engine::protocol` with `GtpEngine`): any lines
//! are answered within GTP's framing, with small solve and playout budgets.
#![no_main]

mod common;

use engine::{GoEngine, GoSettings, GtpEngine};
use games::go::{Komi, Size};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let settings = GoSettings {
        komi: Komi::from_half_points(15),
        solve: true,
        solve_budget: 200,
        solve_seconds: 0.05,
        tt_mib: 1,
        playouts: 4,
        seed: 1,
        resign: false,
    };
    let mut g = GtpEngine::new(GoEngine::new(Size::new(3, 3).unwrap(), settings));
    g.quiet = true;
    common::feed(&mut g, data);
});
