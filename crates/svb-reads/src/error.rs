//! [`ReadsError`]: why a file's reads could not be read, with the file and the read.

use std::path::PathBuf;

use svb_blow5::Blow5Error;
use svb_fast5::Fast5Error;
use svb_pod5::Pod5Error;

use svb_model::Format;

/// Why reads could not be read. A variant that wraps another error returns it from
/// `source()`; the format crates' errors (which name the file, table, row, record) are
/// passed through as they are.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ReadsError {
    /// A POD5 file failed (its error names the file, table and row).
    #[error(transparent)]
    Pod5(Box<Pod5Error>),
    /// A BLOW5 file failed (its error names the file and record).
    #[error(transparent)]
    Blow5(Box<Blow5Error>),
    /// A FAST5 file failed (its error names the file, read and attribute).
    #[error(transparent)]
    Fast5(Box<Fast5Error>),
    /// A file or directory could not be read.
    #[error("{}", path.display())]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// What the OS said.
        source: std::io::Error,
    },
    /// A stream (a FIFO, a device) with no extension of a format svb reads.
    #[error(
        "{}: not a regular file, and no .pod5, .blow5, .slow5 or .fast5 extension to tell its format",
        path.display()
    )]
    NotRegular {
        /// The path.
        path: PathBuf,
    },
    /// A file of no format svb knows.
    #[error("{}: not a POD5, BLOW5, SLOW5 or FAST5 file: {}", path.display(), svb_model::describe(head))]
    UnknownFormat {
        /// The file.
        path: PathBuf,
        /// Its first bytes (up to 16).
        head: Vec<u8>,
    },
    /// No input file among the inputs.
    #[error("{}", no_input(inputs, *recursive))]
    NoInput {
        /// The inputs given.
        inputs: Vec<PathBuf>,
        /// Whether subdirectories were searched.
        recursive: bool,
    },
    /// Files of two formats among the inputs.
    #[error(
        "{}: a {found} file, and {} a {expected} file (one format at a time)",
        path.display(),
        first.display()
    )]
    MixedFormats {
        /// The file of the other format.
        path: PathBuf,
        /// The first input.
        first: PathBuf,
        /// The first input's format.
        expected: Format,
        /// This file's.
        found: Format,
    },
    /// A dataset's read id index could not be used or kept.
    #[error("{}: {what}", path.display())]
    DatasetIndex {
        /// The index (or the file it could not hold).
        path: PathBuf,
        /// What is wrong.
        what: String,
    },
}

impl From<Pod5Error> for ReadsError {
    fn from(e: Pod5Error) -> ReadsError {
        ReadsError::Pod5(Box::new(e))
    }
}

impl From<Fast5Error> for ReadsError {
    fn from(e: Fast5Error) -> ReadsError {
        ReadsError::Fast5(Box::new(e))
    }
}

impl From<Blow5Error> for ReadsError {
    fn from(e: Blow5Error) -> ReadsError {
        ReadsError::Blow5(Box::new(e))
    }
}

fn no_input(inputs: &[PathBuf], recursive: bool) -> String {
    format!(
        "no .pod5, .blow5, .slow5 or .fast5 file in {}{}",
        inputs.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", "),
        if recursive { "" } else { " (-r looks in subdirectories)" }
    )
}
