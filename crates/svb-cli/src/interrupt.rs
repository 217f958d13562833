//! Ctrl-C (SIGINT) and SIGTERM for the commands that write outputs through
//! `svb_convert::Run` (convert, merge, split, subset, degrade, recover): the first asks the
//! operation to stop ([`svb_io::interrupt`]): it ends between two windows of reads, or an
//! upload to an object store aborts its multipart upload, publishing nothing; the exit status
//! is then 130. A second ends the process at once (as a signal does where it is not caught:
//! an output's hidden temporary file is left for the next run to remove). Other commands keep
//! the signals' default.

/// Catches SIGINT and SIGTERM as the module says. An error where a handler cannot be set.
pub fn catch() -> Result<(), String> {
    use signal_hook::consts::{SIGINT, SIGTERM};
    let flag = svb_io::interrupt_flag();
    for (signal, status) in [(SIGINT, 130), (SIGTERM, 143)] {
        // The second signal: the flag is set by the first.
        signal_hook::flag::register_conditional_shutdown(signal, status, flag.clone())
            .and_then(|_| signal_hook::flag::register(signal, flag.clone()))
            .map_err(|e| format!("cannot catch signal {signal}: {e}"))?;
    }
    Ok(())
}
