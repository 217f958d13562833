//! Standard output as an output (`-o -`): written as it goes, with no temporary name.

use std::io;
use std::path::Path;

/// Whether `path` names standard output (`-`): an output written as it goes, with no
/// temporary name, nothing to publish and nothing at a name to replace.
pub fn is_stdout(path: &Path) -> bool {
    path == Path::new("-")
}

/// Set when an output to standard output found its pipe closed by its reader.
static STDOUT_CLOSED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// `e`, an error writing to standard output, noted where it is the pipe's reader that closed
/// it ([`stdout_closed`]).
pub(crate) fn stdout_error(e: io::Error) -> io::Error {
    if e.kind() == io::ErrorKind::BrokenPipe {
        STDOUT_CLOSED.store(true, std::sync::atomic::Ordering::Relaxed);
    }
    e
}

/// Whether an output to standard output (`-`) stopped because the reader of the pipe closed
/// it (`svb convert ... -o - | head`): a command then ends quietly. Set only by such an
/// output, so that a broken pipe anywhere else (a connection to a store) stays an error.
pub fn stdout_closed() -> bool {
    STDOUT_CLOSED.load(std::sync::atomic::Ordering::Relaxed)
}
