//! The SGF reader (`games::go` SGF): any bytes are read or refused with an error, never a
//! panic; a position read is written back and read again to the same position.
#![no_main]

use games::go::{KoRule, position_from_sgf_bytes, position_from_sgf_bytes_before, position_to_sgf};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let ko = KoRule::PositionalSuperko;
    if let Ok(p) = position_from_sgf_bytes(data, ko) {
        let text = position_to_sgf(&p);
        let again = position_from_sgf_bytes(text.as_bytes(), ko)
            .unwrap_or_else(|e| panic!("the writer's SGF is refused: {e}\n{text}"));
        assert_eq!(again.board(), p.board(), "{text}");
    }
    let n = u32::from(data.first().copied().unwrap_or(0));
    let _ = position_from_sgf_bytes_before(data, ko, n);
});
