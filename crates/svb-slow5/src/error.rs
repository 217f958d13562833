//! The error types of the slow5 signal codecs and of the BLOW5 reader.

use std::path::PathBuf;

/// Why an SVB-ZD or ex-zd signal blob could not be decoded.
///
/// A variant that wraps another error returns it from `source()` and does not repeat its text
/// in `Display`: print the whole chain (`{:#}` with anyhow, or walk `source()`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SignalError {
    /// The blob is shorter than its fixed header.
    #[error("{codec} blob of {available} bytes, its header needs {needed}")]
    HeaderTruncated {
        /// `svb-zd` or `ex-zd`.
        codec: &'static str,
        /// Header bytes.
        needed: usize,
        /// Bytes in the blob.
        available: usize,
    },
    /// The sample count in the header cannot fit in the blob (checked before allocating).
    #[error("{codec} header declares {declared} samples, the {len}-byte blob holds at most {max}")]
    CountTooLarge {
        /// `svb-zd` or `ex-zd`.
        codec: &'static str,
        /// Declared samples.
        declared: u64,
        /// Bytes in the blob.
        len: usize,
        /// Most samples such a blob can hold.
        max: u64,
    },
    /// The StreamVByte stream inside is malformed (the position is inside that stream).
    #[error("{codec} StreamVByte stream")]
    StreamVByte {
        /// `svb-zd` or `ex-zd` (positions or exceptions).
        codec: &'static str,
        /// What is wrong.
        source: svb_core::DecodeError,
    },
    /// The blob does not end where its content does.
    #[error("{codec} blob: content ends at byte {consumed}, the blob has {len}")]
    LengthMismatch {
        /// `svb-zd` or `ex-zd`.
        codec: &'static str,
        /// Bytes the content uses.
        consumed: usize,
        /// Bytes in the blob.
        len: usize,
    },
    /// An ex-zd version this crate does not know.
    #[error("ex-zd version {0} (only 0 exists)")]
    UnknownVersion(u8),
    /// An ex-zd bit shift above 5.
    #[error("ex-zd bit shift q = {0}, at most 5")]
    BadShift(u8),
    /// An ex-zd exception position outside the signal or out of order.
    #[error("ex-zd exception {index} at position {position}, past {limit}")]
    BadException {
        /// Exception number.
        index: usize,
        /// Its position (in the samples after the first).
        position: u64,
        /// Where positions must stay below.
        limit: u64,
    },
    /// The ex-zd blob decodes to another sample count than its header declares.
    #[error("ex-zd blob declares {declared} samples and holds {found}")]
    CountMismatch {
        /// Header count.
        declared: u64,
        /// Samples in the content.
        found: u64,
    },
}

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
    /// A read id that the file already holds.
    #[error("read id {read_id} is already in the file")]
    DuplicateReadId {
        /// The read's id.
        read_id: String,
    },
}
