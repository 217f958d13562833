//! The POD5 reader's error: what went wrong, in which file, table and row.

use std::path::PathBuf;

use svb_vbz::VbzError;

/// A table of a POD5 file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TableKind {
    /// The reads table.
    Reads,
    /// The signal table.
    Signal,
    /// The run-info table.
    RunInfo,
}

impl std::fmt::Display for TableKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            TableKind::Reads => "reads",
            TableKind::Signal => "signal",
            TableKind::RunInfo => "run-info",
        })
    }
}

/// Why a POD5 file could not be opened or a read's signal decoded. Every variant names the
/// file; table errors name the table and, where one row is at fault, the row.
///
/// A variant that wraps another error returns it from `source()` and does not repeat its text
/// in `Display`: print the whole chain (`{:#}` with anyhow, or walk `source()`).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Pod5Error {
    /// The file could not be opened or read.
    #[error("{path}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The operating system's error.
        source: std::io::Error,
    },
    /// The container (signature, markers, footer) is malformed.
    #[error("{path}: POD5 container, byte {offset}: {what}")]
    Container {
        /// The file.
        path: PathBuf,
        /// Byte offset in the file.
        offset: u64,
        /// What is wrong.
        what: String,
    },
    /// A table (its Arrow file, schema or columns) is malformed.
    #[error("{path}: {table} table: {what}")]
    Table {
        /// The file.
        path: PathBuf,
        /// The table.
        table: TableKind,
        /// What is wrong.
        what: String,
    },
    /// One row of a table is malformed.
    #[error("{path}: {table} table, row {row}: {what}")]
    Row {
        /// The file.
        path: PathBuf,
        /// The table.
        table: TableKind,
        /// The row (0-based, across batches).
        row: u64,
        /// What is wrong.
        what: String,
    },
    /// A chunk of a read's signal failed to decode.
    #[error("{path}: read {read_id} (reads table row {row}): signal table row {signal_row}")]
    Signal {
        /// The file.
        path: PathBuf,
        /// The read id.
        read_id: String,
        /// The read's row in the reads table.
        row: u64,
        /// The failing chunk's row in the signal table.
        signal_row: u64,
        /// The codec's error.
        source: SignalError,
    },
    /// A read index past the file's last read.
    #[error("{}: no read {index} (the file has {len})", path.display())]
    NoRead {
        /// The file.
        path: PathBuf,
        /// The index asked for.
        index: usize,
        /// Reads in the file.
        len: usize,
    },
    /// A chunk index past the read's last chunk.
    #[error("read {read_id} has {chunks} chunks, no chunk {chunk}")]
    NoChunk {
        /// The read id.
        read_id: String,
        /// The chunk asked for.
        chunk: usize,
        /// The read's chunks.
        chunks: usize,
    },
    /// The caller's buffer does not fit the read.
    #[error("read {read_id} has {expected} samples, the output holds {got}")]
    OutputLength {
        /// The read id.
        read_id: String,
        /// The read's sample count.
        expected: u64,
        /// The output's length.
        got: usize,
    },
}

/// Why a POD5 file could not be written. A bad read, run info or option is reported before
/// any of it is written; the file stays under its temporary name until
/// [`Writer::finish`](super::Writer::finish) renames it.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Pod5WriteError {
    /// The file could not be created, written or renamed.
    #[error("{path}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The operating system's error.
        source: std::io::Error,
    },
    /// The options cannot be written (a chunk or batch size of 0, ...).
    #[error("options: {what}")]
    Options {
        /// What is wrong.
        what: String,
    },
    /// A run info cannot be added.
    #[error("run info {acquisition_id}: {what}")]
    RunInfo {
        /// Its acquisition id.
        acquisition_id: String,
        /// What is wrong.
        what: String,
    },
    /// A read does not fit the format or the file.
    #[error("read {read_id}: {what}")]
    Read {
        /// The read id.
        read_id: String,
        /// What is wrong.
        what: String,
    },
    /// A read id that the file already holds.
    #[error("read id {read_id} is already in the file")]
    DuplicateReadId {
        /// The read id.
        read_id: String,
    },
    /// Arrow refused a table (a bug of this writer, not of its input).
    #[error("{table} table: {what}")]
    Table {
        /// The table.
        table: TableKind,
        /// Arrow's message.
        what: String,
    },
}

/// A signal codec's error: the one of the file's signal compression.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SignalError {
    /// A VBZ blob.
    #[error(transparent)]
    Vbz(#[from] VbzError),
    /// A PDZ block.
    #[error(transparent)]
    Pdz(#[from] svb_pdz::PdzError),
}
