//! Feeding an engine: each input line is one command; every reply must keep GTP's framing.

use engine::protocol::{Flow, Handler, preprocess, respond};

/// Sends the lines of `data` (at most 64) to `handler` and checks every reply's framing.
pub fn feed<H: Handler>(handler: &mut H, data: &[u8]) {
    for raw in data.split(|&b| b == b'\n').take(64) {
        // Commands that write files get no file name (a fuzzer must not write files).
        let text = String::from_utf8_lossy(raw);
        let raw: &[u8] = if text.contains("printsgf") || text.contains("savesgf") {
            b"printsgf"
        } else {
            raw
        };
        let blank = preprocess(raw).trim().is_empty();
        match respond(handler, raw) {
            None => assert!(blank, "a command line was not answered: {raw:?}"),
            Some((reply, flow)) => {
                assert!(
                    reply.starts_with('=') || reply.starts_with('?'),
                    "{reply:?}"
                );
                assert!(reply.ends_with("\n\n"), "{reply:?}");
                assert!(!reply[..reply.len() - 2].contains("\n\n"), "{reply:?}");
                if flow == Flow::Quit {
                    return;
                }
            }
        }
    }
}
