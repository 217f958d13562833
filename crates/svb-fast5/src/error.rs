//! The error type of the FAST5 reader.

use std::path::PathBuf;

/// Why a FAST5 file, or one of its reads, could not be read: the file, the read, the field.
///
/// A variant that wraps another error returns it from `source()` and does not repeat its text
/// in `Display`: print the whole chain (`{:#}` with anyhow, or walk `source()`).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Fast5Error {
    /// The file could not be opened or read.
    #[error("{}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The OS error.
        source: std::io::Error,
    },
    /// The file is not HDF5, or its HDF5 structure could not be read.
    #[error("{}: {what}", path.display())]
    Hdf5 {
        /// The file.
        path: PathBuf,
        /// Where in the file (a group, a dataset or an attribute path).
        what: String,
        /// The HDF5 reader's error.
        source: hdf5_reader::error::Error,
    },
    /// An HDF5 file that holds no FAST5 reads (neither `/read_*` groups nor `/Raw/Reads`).
    #[error("{}: {what}", path.display())]
    NotFast5 {
        /// The file.
        path: PathBuf,
        /// What is missing.
        what: String,
    },
    /// A field of a read is missing or has a type no FAST5 writer gives it.
    #[error("{}: read {read}: {field}: {what}", path.display())]
    Field {
        /// The file.
        path: PathBuf,
        /// The read's id (or its group when the id itself is the problem).
        read: String,
        /// The attribute, as `group/name`.
        field: String,
        /// What is wrong.
        what: String,
    },
    /// A read's signal could not be read or decoded.
    #[error("{}: read {read}: signal: {what}", path.display())]
    Signal {
        /// The file.
        path: PathBuf,
        /// The read's id.
        read: String,
        /// What is wrong.
        what: String,
    },
    /// A read's index past the end of the file.
    #[error("{}: no read {index} (the file has {len})", path.display())]
    NoRead {
        /// The file.
        path: PathBuf,
        /// The index asked for.
        index: usize,
        /// The reads in the file.
        len: usize,
    },
}
