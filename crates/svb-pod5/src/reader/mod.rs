//! [`Reader`]: a POD5 file, its reads, and the decode of their signal. The reader's
//! state and what it answers live here; opening a file is [`open`], assembling and checking
//! its tables [`tables`], saving what a damaged file or a killed writer left [`recover`],
//! decoding signal [`decode`].

mod decode;
mod open;
mod recover;
mod tables;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use svb_io::Source;

use crate::columns::TableError;
use crate::container::Footer;
use crate::error::{Pod5Error, TableKind};
use crate::read::ReadRow;
use crate::run_info::RunInfo;
use crate::signal::{SignalEncoding, SignalRow, SignalTable, TableFooter};

/// One chunk of a read's signal as stored: its signal-table row, its sample count and its
/// stored size in bytes (the VBZ blob, or 2 bytes per sample uncompressed).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SignalChunk {
    /// Row of the signal table.
    pub row: u64,
    /// Samples in the chunk.
    pub samples: u64,
    /// Bytes stored for the chunk.
    pub stored_bytes: u64,
}

/// An open POD5 file: the container checked, the reads and run-info tables parsed into
/// Rust values, the signal table's rows located and checked; signal decoded on demand.
///
/// Nothing read from the file is trusted after open: every offset was copied out and
/// checked once, and [`Reader::open`] reads each chunk when it is decoded (positioned
/// reads), so another process rewriting or truncating the file gives wrong samples or
/// errors, never undefined behaviour.
///
/// ```no_run
/// use svb_pod5::Reader;
/// let file = Reader::open("reads.pod5")?;
/// let mut signal = Vec::new();
/// for (i, read) in file.reads().iter().enumerate() {
///     signal.clear();
///     file.decode_signal_into(i, &mut signal)?;
///     println!("{}: {} samples", read.read_id_string(), signal.len());
/// }
/// # Ok::<(), svb_pod5::Pod5Error>(())
/// ```
pub struct Reader {
    path: PathBuf,
    src: Source,
    footer: Footer,
    reads: Vec<ReadRow>,
    by_id: HashMap<[u8; 16], usize>,
    signal: Signal,
    run_infos: Vec<RunInfo>,
    table_version: TableVersion,
}

/// A reader's signal table: parsed at open (a local file), or, for an object, when a read's
/// signal is first asked for, so that `view` and `info` of an object fetch none of it (every
/// read's layout is checked against it then, as at a local file's open).
pub(super) struct Signal {
    encoding: SignalEncoding,
    /// The table's footer, kept until the table is parsed (an object's).
    footer: Option<TableFooter>,
    table: std::sync::OnceLock<Result<SignalTable, Deferred>>,
}

/// Why a signal table parsed after open gave no table: its own error, or a read's layout
/// (the row of the reads table and what is wrong), kept to be said at every ask.
#[derive(Clone)]
enum Deferred {
    Table(TableError),
    Layout { row: u64, what: String },
}

impl Signal {
    /// A table parsed at open.
    pub(super) fn parsed(table: SignalTable) -> Signal {
        Signal {
            encoding: table.encoding,
            footer: None,
            table: std::sync::OnceLock::from(Ok(table)),
        }
    }

    /// A table whose batches are read when a read's signal is first asked for.
    pub(super) fn deferred(footer: TableFooter) -> Signal {
        Signal {
            encoding: footer.encoding,
            footer: Some(footer),
            table: std::sync::OnceLock::new(),
        }
    }

    /// The table, when it has been parsed.
    pub(super) fn table(&self) -> Option<&SignalTable> {
        self.table.get().and_then(|t| t.as_ref().ok())
    }
}

/// The reads-table layout a file uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TableVersion {
    /// Version 0: dictionary-of-struct columns `pore`, `calibration`, `end_reason`,
    /// `run_info`; no run-info table.
    V0,
    /// Version 1 and later: flat columns and a run-info table.
    V1OrLater,
}

impl std::fmt::Debug for Reader {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Reader")
            .field("path", &self.path)
            .field("reads", &self.reads.len())
            .field("signal_rows", &self.signal.table().map(SignalTable::rows))
            .finish()
    }
}

impl Reader {
    /// The file's bytes (for the model's reads: [`ReadSource::expect_scan`](svb_model::ReadSource::expect_scan)).
    pub(crate) fn source(&self) -> &Source {
        &self.src
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The container footer: file identifier, writing software, pod5 version, tables.
    pub fn footer(&self) -> &Footer {
        &self.footer
    }

    /// The reads-table layout.
    pub fn table_version(&self) -> TableVersion {
        self.table_version
    }

    /// How the signal table stores samples.
    pub fn signal_encoding(&self) -> SignalEncoding {
        self.signal.encoding
    }

    /// Rows of the signal table (an object's table read first, where it was not yet).
    pub fn signal_rows(&self) -> Result<u64, Pod5Error> {
        Ok(self.signal()?.rows())
    }

    /// Chunks the reads' signal is stored in (from the reads table alone: no signal-table
    /// batch is read).
    pub fn chunk_count(&self) -> u64 {
        self.reads.iter().map(|r| r.signal_rows.len() as u64).sum()
    }

    /// The signal table, parsed (an object's, and every read's layout checked against it,
    /// the first time it is asked for); its error, or a read's, each time.
    pub(crate) fn signal(&self) -> Result<&SignalTable, Pod5Error> {
        let parsed = self.signal.table.get_or_init(|| {
            let footer = self.signal.footer.as_ref().expect("a table not parsed keeps its footer");
            let table = footer.parse(&self.src).map_err(Deferred::Table)?;
            let mut sorted = Vec::new();
            for (i, read) in self.reads.iter().enumerate() {
                tables::check_layout(read, &table, &mut sorted).map_err(|what| {
                    Deferred::Layout {
                        row: i as u64,
                        what: format!("read {}: {what}", read.read_id_string()),
                    }
                })?;
            }
            Ok(table)
        });
        match parsed {
            Ok(table) => Ok(table),
            Err(Deferred::Table(e)) => {
                Err(tables::table_error(&self.path, TableKind::Signal)(e.clone()))
            }
            Err(Deferred::Layout { row, what }) => Err(Pod5Error::Row {
                path: self.path.clone(),
                table: TableKind::Reads,
                row: *row,
                what: what.clone(),
            }),
        }
    }

    /// The acquisitions (run-info table, or version 0's embedded run info).
    pub fn run_infos(&self) -> &[RunInfo] {
        &self.run_infos
    }

    /// The run `read` names (its `run_info` acquisition id), when the file has it.
    pub fn run_info_of(&self, read: &ReadRow) -> Option<&RunInfo> {
        self.run_infos.iter().find(|r| *r.acquisition_id == *read.info.run_info)
    }

    /// The run of read `index`: an error naming the read when the file lacks it (damage: ONT's
    /// reader fails on such a read's `run_info` too), or when there is no read `index`.
    pub fn run_of(&self, index: usize) -> Result<&RunInfo, Pod5Error> {
        let read = self.read(index)?;
        self.run_info_of(read).ok_or_else(|| Pod5Error::Row {
            path: self.path.clone(),
            table: TableKind::Reads,
            row: index as u64,
            what: format!(
                "read {} names run {}, which the file lacks",
                read.read_id_string(),
                read.info.run_info
            ),
        })
    }

    /// Number of reads.
    pub fn len(&self) -> usize {
        self.reads.len()
    }

    /// Whether the file holds no read.
    pub fn is_empty(&self) -> bool {
        self.reads.is_empty()
    }

    /// The reads, in file order.
    pub fn reads(&self) -> &[ReadRow] {
        &self.reads
    }

    /// The index of the read with this id (hyphenated UUID), or `None`. With duplicate ids,
    /// the first.
    pub fn find(&self, read_id: &str) -> Option<usize> {
        self.by_id.get(&svb_model::ont::parse_uuid(read_id)?).copied()
    }

    /// The read with this id, or `None`.
    pub fn read_by_id(&self, read_id: &str) -> Option<&ReadRow> {
        self.find(read_id).map(|i| &self.reads[i])
    }

    /// Read `index` (file order); an index past the last read is [`Pod5Error::NoRead`].
    pub fn read(&self, index: usize) -> Result<&ReadRow, Pod5Error> {
        self.reads.get(index).ok_or_else(|| Pod5Error::NoRead {
            path: self.path.clone(),
            index,
            len: self.reads.len(),
        })
    }

    /// The stored chunks of read `index`, in signal order.
    pub fn chunks(&self, index: usize) -> Result<Vec<SignalChunk>, Pod5Error> {
        Ok(self
            .chunk_rows(index)?
            .map(|(row, r)| SignalChunk {
                row,
                samples: u64::from(r.samples.unwrap_or(0)),
                stored_bytes: r.bytes,
            })
            .collect())
    }

    /// The stored bytes of read `index`'s chunk `chunk` (its VBZ blob, or its int16 samples
    /// little-endian when the file is uncompressed), as [`chunks`](Reader::chunks) lists
    /// them: what a copy of the read into another file can store without recompressing.
    /// A `chunk` the read does not have is [`Pod5Error::NoChunk`].
    pub fn chunk_bytes(&self, index: usize, chunk: usize) -> Result<Vec<u8>, Pod5Error> {
        let mut rows = self.chunk_rows(index)?;
        let chunks = rows.len();
        let (row, r) = rows.nth(chunk).ok_or_else(|| Pod5Error::NoChunk {
            read_id: self.reads[index].read_id_string(),
            chunk,
            chunks,
        })?;
        self.with_chunk(index, row, r, |bytes| Ok(bytes.to_vec()))
    }

    /// Read `index`'s stored chunks in order: `(signal row, the row)`; an index past the
    /// last read is an error.
    fn chunk_rows(
        &self, index: usize,
    ) -> Result<impl ExactSizeIterator<Item = (u64, &SignalRow)> + '_, Pod5Error> {
        self.read(index)?;
        Ok(self.rows(self.signal()?, index))
    }

    /// [`chunk_rows`](Reader::chunk_rows) of an index known to be in range, its rows in
    /// `table` (the parsed table: every read's rows were checked against it).
    fn rows<'a>(
        &'a self, table: &'a SignalTable, index: usize,
    ) -> impl ExactSizeIterator<Item = (u64, &'a SignalRow)> + 'a {
        self.reads[index]
            .signal_rows
            .iter()
            .map(move |&row| (row, table.get(row).expect("rows checked with the table")))
    }
}
