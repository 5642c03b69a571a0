//! Ctrl-C for long runs: one process-wide flag that searches poll. The first Ctrl-C raises it
//! (the command then prints what it knows); a second one exits at once with status 130.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

/// The process's Ctrl-C flag (installed on first use; later calls return the same flag).
pub fn cancel_flag() -> Arc<AtomicBool> {
    static FLAG: OnceLock<Arc<AtomicBool>> = OnceLock::new();
    FLAG.get_or_init(|| {
        let flag = Arc::new(AtomicBool::new(false));
        let f = flag.clone();
        // If a handler cannot be installed, Ctrl-C simply kills the process.
        let _ = ctrlc::set_handler(move || {
            if f.swap(true, Ordering::SeqCst) {
                std::process::exit(130);
            }
        });
        flag
    })
    .clone()
}
