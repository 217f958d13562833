//! The Python exceptions: every Rust error becomes one, with the Rust error's whole message
//! (file, table, row, read); a file the OS refuses is the `OSError` Python itself raises.

use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::prelude::*;

create_exception!(
    svb,
    SvbError,
    PyException,
    "Base of the errors svb raises for bad files and bad encoded data."
);
create_exception!(
    svb,
    FileFormatError,
    SvbError,
    "A file that is not a valid POD5, BLOW5 or FAST5 file, or a read in it that cannot be decoded."
);
create_exception!(
    svb,
    CodecError,
    SvbError,
    "Encoded bytes that do not decode to the values asked for."
);

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("SvbError", py.get_type::<SvbError>())?;
    m.add("FileFormatError", py.get_type::<FileFormatError>())?;
    m.add("CodecError", py.get_type::<CodecError>())?;
    Ok(())
}

/// The error's message with its sources (`a: b: c`, each text once), as the `svb` command
/// prints it.
pub use svb_io::error_chain as chain;

/// A file reader's error (a file the OS refused is raised as its `OSError` before a reader
/// opens it).
pub fn file_error(e: &(dyn std::error::Error + 'static)) -> PyErr {
    FileFormatError::new_err(chain(e))
}

/// A codec's error.
pub fn codec_error(e: &(dyn std::error::Error + 'static)) -> PyErr {
    CodecError::new_err(chain(e))
}

/// The `OSError` subclass Python raises for an OS error of this kind.
pub fn os_error(kind: std::io::ErrorKind, msg: String) -> PyErr {
    use pyo3::exceptions::{PyFileExistsError, PyFileNotFoundError, PyOSError, PyPermissionError};
    match kind {
        std::io::ErrorKind::NotFound => PyFileNotFoundError::new_err(msg),
        std::io::ErrorKind::PermissionDenied => PyPermissionError::new_err(msg),
        std::io::ErrorKind::AlreadyExists => PyFileExistsError::new_err(msg),
        _ => PyOSError::new_err(msg),
    }
}

/// A read layer error: what the OS refused as its `OSError`, a bad file as `FileFormatError`.
pub fn reads_error(e: &svb_reads::ReadsError) -> PyErr {
    match e {
        svb_reads::ReadsError::Io { source, .. } => os_error(source.kind(), chain(e)),
        _ => file_error(e),
    }
}
