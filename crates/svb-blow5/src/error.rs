//! The error types of the BLOW5 reader and writer.

use std::path::PathBuf;

use svb_slow5_signal::SignalError;

/// Why a BLOW5 file could not be read: the file, and where in it.
///
/// A variant that wraps another error returns it from `source()` and does not repeat its text
/// in `Display`: print the whole chain (`{:#}` with anyhow, or walk `source()`).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Blow5Error {
    /// The file could not be opened or read.
    #[error("{path}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The OS error.
        source: std::io::Error,
    },
    /// The binary or text header is malformed.
    #[error("{path}: header: {what}")]
    Header {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        what: String,
    },
    /// A record is malformed (record number, its byte offset in the file, why).
    #[error("{path}: record {index} at byte {offset}: {what}")]
    Record {
        /// The file.
        path: PathBuf,
        /// Record number (0-based).
        index: usize,
        /// Offset of its size field.
        offset: u64,
        /// What is wrong.
        what: String,
    },
    /// A record's bytes could not be read.
    #[error("{}: record {index} at byte {offset}: reading its {len} bytes", path.display())]
    RecordIo {
        /// The file.
        path: PathBuf,
        /// Record number (0-based).
        index: usize,
        /// Offset of its size field.
        offset: u64,
        /// Its stored size.
        len: u64,
        /// The OS error.
        source: std::io::Error,
    },
    /// A record could not be decompressed.
    #[error("{}: record {index} at byte {offset}: record decompression", path.display())]
    Inflate {
        /// The file.
        path: PathBuf,
        /// Record number (0-based).
        index: usize,
        /// Offset of its size field.
        offset: u64,
        /// Why.
        source: InflateError,
    },
    /// A record's signal failed to decode.
    #[error("{path}: record {index} ({read_id}) at byte {offset}: signal")]
    Signal {
        /// The file.
        path: PathBuf,
        /// Record number.
        index: usize,
        /// The read's id.
        read_id: String,
        /// Offset of its size field.
        offset: u64,
        /// Why.
        source: SignalError,
    },
    /// A record index past the file's last record.
    #[error("{}: no record {index} (the file has {len})", path.display())]
    NoRecord {
        /// The file.
        path: PathBuf,
        /// The index asked for.
        index: usize,
        /// Records in the file.
        len: usize,
    },
    /// The index a file was opened through does not place its records where they are (a
    /// stale index, or another file's): the file must be opened without it.
    #[error(
        "{}: the index it was opened through does not place its records where they are \
         ({what}): open it without that index",
        path.display()
    )]
    IndexMisfit {
        /// The file.
        path: PathBuf,
        /// What does not fit (the error reading a record where the index places it).
        what: String,
    },
    /// The end-of-file marker is missing or wrong.
    #[error("{path}: end of file at byte {offset}: {what}")]
    Eof {
        /// The file.
        path: PathBuf,
        /// Where the marker should be.
        offset: u64,
        /// What is there instead.
        what: String,
    },
}

/// Why a record's zstd frame or zlib stream could not be decompressed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum InflateError {
    /// The zstd frame is malformed (the frame error is the source).
    #[error("zstd frame")]
    Zstd(#[from] svb_io::zstd_frame::FrameError),
    /// A zstd frame declaring more than any real record holds (8 GiB).
    #[error("a zstd frame of {len} bytes declares {declared} bytes, more than any record holds")]
    TooLarge {
        /// The frame's length.
        len: usize,
        /// Its declared content size.
        declared: u64,
    },
    /// The zlib stream is malformed.
    #[error("zlib: invalid stream")]
    ZlibInvalid,
    /// A zlib stream expanding past the most a real record can (1032 times its length,
    /// at most 8 GiB).
    #[error("zlib stream expands past any real record")]
    ZlibTooLarge,
    /// Bytes after the zlib stream (or a trailer that is not its checksum).
    #[error("bytes after the zlib stream")]
    ZlibTrailing,
}

/// Why a BLOW5 file could not be written: a schema or record the format cannot hold (found
/// before anything of it is written), or the file system.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Blow5WriteError {
    /// The file could not be created, written or renamed.
    #[error("{path}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The OS error.
        source: std::io::Error,
    },
    /// The read groups, the auxiliary fields or the options cannot be written.
    #[error("schema: {what}")]
    Schema {
        /// What is wrong.
        what: String,
    },
    /// A record does not fit the schema or the format.
    #[error("record {read_id}: {what}")]
    Record {
        /// The read's id.
        read_id: String,
        /// What is wrong.
        what: String,
    },
    /// A record could not be compressed.
    #[error("record {read_id}: zstd")]
    Compress {
        /// The read's id.
        read_id: String,
        /// zstd's error.
        source: svb_io::zstd_frame::FrameError,
    },
    /// A read id that the file already holds.
    #[error("read id {read_id} is already in the file")]
    DuplicateReadId {
        /// The read's id.
        read_id: String,
    },
}
