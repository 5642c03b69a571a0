//! The HTP command loop of the Hex engine (`engine::protocol` with `HtpEngine`): any lines
//! are answered within the framing, with small solve and playout budgets.
#![no_main]

mod common;

use engine::{HexEngine, HexSettings, HtpEngine};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let settings = HexSettings {
        solve_budget: 200,
        solve_seconds: 0.05,
        tt_mib: 1,
        playouts: 4,
        seed: 1,
    };
    let mut h = HtpEngine::new(HexEngine::new(3, 3, settings).unwrap());
    h.quiet = true;
    common::feed(&mut h, data);
});
