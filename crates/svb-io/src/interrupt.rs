//! A process-wide request to stop, made by a signal (the CLI's Ctrl-C handler, Python's
//! `KeyboardInterrupt`): what a long piece of plumbing that cannot be left half done looks at
//! between its steps. An upload to an object store aborts its multipart upload (no parts left
//! behind) and writes nothing when asked ([`crate::remote::upload`]).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

static FLAG: OnceLock<Arc<AtomicBool>> = OnceLock::new();

/// The flag itself, for a signal handler to set (e.g. `signal_hook::flag::register`).
pub fn interrupt_flag() -> Arc<AtomicBool> {
    FLAG.get_or_init(|| Arc::new(AtomicBool::new(false))).clone()
}

/// Asks everything that looks to stop.
pub fn interrupt() {
    interrupt_flag().store(true, Ordering::SeqCst);
}

/// Whether a stop was asked (and not cleared since).
pub fn interrupted() -> bool {
    FLAG.get().is_some_and(|f| f.load(Ordering::SeqCst))
}

/// Forgets an earlier request (a library caller starting new work after an interrupted one).
pub fn clear_interrupt() {
    if let Some(f) = FLAG.get() {
        f.store(false, Ordering::SeqCst);
    }
}

/// The error of work stopped by [`interrupt`]: [`std::io::ErrorKind::Interrupted`], saying
/// what was left undone.
pub fn interrupted_error(what: &str) -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::Interrupted, format!("interrupted: {what}"))
}
