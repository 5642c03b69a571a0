//! Ctrl-C for long runs: one process-wide flag that searches poll. The first Ctrl-C raises it
//! (the command then prints what it knows and exits with status 3); a second one exits at
//! once with status 130.
//!
//! `main` installs the handler before any command runs (so no command dies of the default
//! SIGINT, whose status would be 130 on the first Ctrl-C). A command that does not poll the
//! flag (the GTP and HTP sessions, `check`, `fit-prior`, `campaign`, `play`, `train-hexnet`)
//! is run under [`exit_on_first`], whose watcher ends the process with status 3 and one line
//! on standard error.

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

/// The result of writing files after an answer was printed (`what` names them, e.g.
/// "the certificate c.cert"): a failure while the Ctrl-C flag is raised is the interrupt's
/// doing, an [`crate::exit::Unknown`] (status 3) that says what was not written; any other
/// result is returned as it is.
///
/// # Errors
/// As above.
pub fn unless_interrupted(written: anyhow::Result<()>, what: &str) -> anyhow::Result<()> {
    if written.is_err() && cancel_flag().load(Ordering::Relaxed) {
        return Err(crate::exit::unknown(format!(
            "interrupted: {what} not written (the answer stands)"
        )));
    }
    written
}

/// For a command that does not poll the flag: a watcher thread that, on the first Ctrl-C,
/// prints "interrupted: `command` stopped" on standard error and
/// exits with status 3 (a second Ctrl-C before that still exits with 130).
pub fn exit_on_first(command: &'static str) {
    let flag = cancel_flag();
    std::thread::spawn(move || {
        while !flag.load(Ordering::Relaxed) {
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        // Standard output is not flushed here: the command may hold its lock (the GTP
        // session does, for its whole life); it is line-buffered, so whole lines are out.
        eprintln!("interrupted: {command} stopped by Ctrl-C");
        std::process::exit(crate::exit::UNKNOWN);
    });
}
