//! Inputs read in more than one pass (merge's headers then records, split's keys then each
//! batch of outputs): a regular file is opened again by its path for each pass, so a bounded
//! number are open at a time; a stream (a FIFO, a device), whose bytes a second open would not
//! give (or would wait for forever), is kept from its one open, its bytes already in memory
//! (streams are read whole, bounded, when they are opened).

use std::path::Path;

/// `reader` when `path` is not a regular file (a stream: it must not be opened again), else
/// `None` (it is opened again when it is needed).
pub(crate) fn keep_stream<R>(path: &Path, reader: R) -> Option<R> {
    let regular = std::fs::metadata(path).is_ok_and(|m| m.is_file());
    (!regular).then_some(reader)
}

/// An input for a later pass: the reader kept from its first open, or opened again.
pub(crate) enum Reopened<'a, R> {
    /// A stream's reader, kept.
    Kept(&'a R),
    /// A regular file, opened again.
    Opened(R),
}

impl<R> std::ops::Deref for Reopened<'_, R> {
    type Target = R;

    fn deref(&self) -> &R {
        match self {
            Reopened::Kept(r) => r,
            Reopened::Opened(r) => r,
        }
    }
}

/// The input at `path` for a later pass: `kept` when its first open kept it
/// ([`keep_stream`]), else `open(path)`.
pub(crate) fn reopen<'a, R, E>(
    kept: &'a Option<R>, path: &Path, open: impl FnOnce(&Path) -> Result<R, E>,
) -> Result<Reopened<'a, R>, E> {
    match kept {
        Some(r) => Ok(Reopened::Kept(r)),
        None => open(path).map(Reopened::Opened),
    }
}
