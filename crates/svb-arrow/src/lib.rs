//! Arrow record batches of nanopore reads: POD5 and BLOW5 files as one row per read.
//!
//! [`ReadBatches`] reads one or many files of one format (detected from their first bytes)
//! and yields [`RecordBatch`]es: the metadata columns, named as `svb view` names them (for
//! POD5 the columns of ONT's `pod5 view`, then the calibration and the run's acquisition id;
//! for BLOW5 the record's primary fields, then its auxiliary fields with their C types), and
//! when asked the signal as `list<int16>` (raw ADC) or `list<float32>` (calibrated pA). A
//! projection ([`Options::columns`]) picks columns; without the signal column no signal is
//! decoded. Each batch's reads are decoded on every core of the current rayon pool.
//!
//! ```no_run
//! use svb_arrow::{Options, ReadBatches, SignalColumn};
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let options = Options {
//!     columns: Some(vec!["read_id".into(), "channel".into()]),
//!     signal: SignalColumn::PicoAmps,
//!     ..Options::default()
//! };
//! let mut batches = ReadBatches::open(["run/a.pod5", "run/b.pod5"], options)?;
//! println!("{}", batches.schema());
//! while let Some(batch) = batches.next_batch()? {
//!     println!("{} reads", batch.num_rows());
//! }
//! # Ok(())
//! # }
//! ```
//!
//! [`ReadBatches`] is an [`arrow_array::RecordBatchReader`], so anything that takes one
//! (Arrow IPC writers, Parquet writers, the C stream interface) takes it as it is.
#![forbid(unsafe_code)]

mod blow5;
mod columns;
mod fast5;
mod pod5;
mod signal;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use arrow_array::{RecordBatch, RecordBatchOptions, RecordBatchReader};
use arrow_schema::{ArrowError, Field, Schema, SchemaRef};

pub use svb_blow5::Blow5Error;
use svb_model::{Format, ReadSource};
pub use svb_pod5::Pod5Error;
pub use svb_reads::ReadsError;
use svb_reads::{AnyReader, ByFormat};

/// The POD5 columns of ONT's `pod5 view`, in its order: the first of a POD5 file's columns
/// (`calibration_offset`, `calibration_scale`, `end_reason_forced` and `acquisition_id`
/// follow them).
pub fn pod5_view_columns() -> impl Iterator<Item = &'static str> {
    svb_model::POD5_FIELDS[..svb_model::POD5_VIEW_FIELDS].iter().map(|c| c.0)
}

/// The signal column.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SignalColumn {
    /// No signal column; no signal is decoded.
    #[default]
    None,
    /// `signal`: the raw ADC samples, `list<int16>`.
    Raw,
    /// `signal_pa`: calibrated picoamps, `list<float32>` (POD5: `(adc + offset) * scale`;
    /// BLOW5: `(adc + offset) * range / digitisation`).
    PicoAmps,
}

impl SignalColumn {
    /// The column's name (`None` without one).
    pub fn column(self) -> Option<&'static str> {
        match self {
            SignalColumn::None => None,
            SignalColumn::Raw => Some("signal"),
            SignalColumn::PicoAmps => Some("signal_pa"),
        }
    }
}

/// What [`ReadBatches`] yields.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// The metadata columns, in this order (`None`: all of them). The signal column, when
    /// [`signal`](Options::signal) asks for one, comes last.
    pub columns: Option<Vec<String>>,
    /// The signal column.
    pub signal: SignalColumn,
    /// At most this many reads a batch (at least 1).
    pub batch_reads: usize,
    /// With a signal column, a batch ends before its samples would pass this many (a read
    /// longer than that is a batch of its own): the memory a batch holds.
    pub batch_samples: u64,
}

impl Default for Options {
    /// All metadata columns, no signal, batches of up to 1024 reads and 4M samples (a
    /// batch's buffer stays under the size at which allocators map fresh pages for every
    /// allocation: measured here, 1206 Msamples/s at 4M against 1024 at 16M).
    fn default() -> Self {
        Options {
            columns: None,
            signal: SignalColumn::None,
            batch_reads: 1024,
            batch_samples: 4 << 20,
        }
    }
}

/// Why reads could not be read as Arrow batches.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ArrowReadError {
    /// A file could not be opened or read, or is of no format svb reads, or another than
    /// the first input's (the error names the file, and the read, table or record).
    #[error(transparent)]
    Reads(Box<ReadsError>),
    /// No input files.
    #[error("no input files")]
    NoInput,
    /// A column that the files do not have.
    #[error("no column {name}; the columns are {available}")]
    NoColumn {
        /// The column asked for.
        name: String,
        /// Those there are, comma-separated.
        available: String,
    },
    /// A file whose columns differ from the first input's (BLOW5 files with other auxiliary
    /// fields).
    #[error("{}: its columns differ from {}'s: {what}", path.display(), first.display())]
    SchemaMismatch {
        /// The file.
        path: PathBuf,
        /// The first input.
        first: PathBuf,
        /// The first difference.
        what: String,
    },
    /// A read with more samples than one Arrow list holds (2^31 - 1).
    #[error("{}: read {read_id}: {samples} samples, more than an Arrow list holds", path.display())]
    ReadTooLong {
        /// The file.
        path: PathBuf,
        /// The read.
        read_id: String,
        /// Its samples.
        samples: u64,
    },
}

impl From<ReadsError> for ArrowReadError {
    fn from(e: ReadsError) -> ArrowReadError {
        ArrowReadError::Reads(Box::new(e))
    }
}

impl From<Pod5Error> for ArrowReadError {
    fn from(e: Pod5Error) -> ArrowReadError {
        ReadsError::from(e).into()
    }
}

impl From<Blow5Error> for ArrowReadError {
    fn from(e: Blow5Error) -> ArrowReadError {
        ReadsError::from(e).into()
    }
}

impl From<ArrowReadError> for ArrowError {
    fn from(e: ArrowReadError) -> ArrowError {
        ArrowError::ExternalError(Box::new(e))
    }
}

/// Record batches of the reads of one or many files of one format, file after file, in
/// file order (see the [crate] docs). Files are opened one at a time, as they are reached.
pub struct ReadBatches {
    paths: Vec<PathBuf>,
    format: Format,
    options: Options,
    /// Every metadata column of the files (the first file's, for BLOW5).
    all: columns::Columns,
    /// The chosen ones: indices into `all`.
    picked: Vec<usize>,
    schema: SchemaRef,
    /// The next file to open.
    next_file: usize,
    /// The open file and its next read.
    current: Option<(Arc<AnyReader>, usize)>,
}

impl ReadBatches {
    /// Opens `paths` (all of one format; the first is opened now to learn the columns).
    pub fn open<P: AsRef<Path>>(
        paths: impl IntoIterator<Item = P>, options: Options,
    ) -> Result<ReadBatches, ArrowReadError> {
        let paths: Vec<PathBuf> = paths.into_iter().map(|p| p.as_ref().into()).collect();
        let first = paths.first().ok_or(ArrowReadError::NoInput)?;
        let format = svb_reads::one_format(first, &paths[1..])?;
        let opened = AnyReader::open_as(first, format)?;
        ReadBatches::start(paths, Arc::new(opened), options)
    }

    /// The reads of `reader`, a file already open (nothing is opened or parsed again: a
    /// POD5's tables, a BLOW5's index of ids are the reader's).
    ///
    /// ```no_run
    /// use std::sync::Arc;
    /// let file = Arc::new(svb_reads::AnyReader::open("reads.pod5".as_ref())?);
    /// let batches = svb_arrow::ReadBatches::of_reader(file.clone(), Default::default())?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn of_reader(
        reader: Arc<AnyReader>, options: Options,
    ) -> Result<ReadBatches, ArrowReadError> {
        let paths = vec![reader.path().to_path_buf()];
        ReadBatches::start(paths, reader, options)
    }

    /// Batches of `paths`, the first of which is `opened`.
    fn start(
        paths: Vec<PathBuf>, opened: Arc<AnyReader>, options: Options,
    ) -> Result<ReadBatches, ArrowReadError> {
        let format = opened.format();
        let all = match opened.by_format() {
            ByFormat::Pod5(_) => columns::Columns::pod5(),
            ByFormat::Blow5(r) => columns::Columns::blow5(r.header()),
            ByFormat::Fast5(_) => columns::Columns::fast5(),
        };
        let picked: Vec<usize> = match &options.columns {
            None => (0..all.len()).collect(),
            Some(names) => names
                .iter()
                .map(|n| {
                    all.position(n).ok_or_else(|| ArrowReadError::NoColumn {
                        name: n.clone(),
                        available: all.names().join(","),
                    })
                })
                .collect::<Result<_, _>>()?,
        };
        let mut fields: Vec<Field> = picked.iter().map(|&i| all.field(i)).collect();
        if let Some(name) = options.signal.column() {
            fields.push(signal::field(name, options.signal));
            // Every read's signal is decoded in order: an object is fetched ahead.
            opened.expect_scan();
        }
        Ok(ReadBatches {
            schema: Arc::new(Schema::new(fields)),
            paths,
            format,
            options: Options { batch_reads: options.batch_reads.max(1), ..options },
            all,
            picked,
            next_file: 1,
            current: Some((opened, 0)),
        })
    }

    /// The batches' schema.
    pub fn schema(&self) -> SchemaRef {
        self.schema.clone()
    }

    /// The inputs' format.
    pub fn format(&self) -> Format {
        self.format
    }

    /// How many input files have been opened so far (the first at [`open`](Self::open)):
    /// what a progress display counts.
    pub fn files_opened(&self) -> usize {
        self.next_file.min(self.paths.len())
    }

    /// Every metadata column name the files have (what [`Options::columns`] may list).
    pub fn column_names(&self) -> Vec<&str> {
        self.all.names()
    }

    /// The next batch, or `None` after the last file's last read. After an error there are
    /// no more batches (the error names the file and read).
    pub fn next_batch(&mut self) -> Result<Option<RecordBatch>, ArrowReadError> {
        let r = self.try_next_batch();
        if r.is_err() {
            self.current = None;
            self.next_file = self.paths.len();
        }
        r
    }

    fn try_next_batch(&mut self) -> Result<Option<RecordBatch>, ArrowReadError> {
        loop {
            let (file, start) = match &mut self.current {
                Some((file, start)) if *start < file.len() => (file, start),
                _ => {
                    let Some(path) = self.paths.get(self.next_file) else {
                        self.current = None;
                        return Ok(None);
                    };
                    let opened = AnyReader::open_as(path, self.format)?;
                    if self.options.signal.column().is_some() {
                        opened.expect_scan();
                    }
                    if let Some(r) = opened.blow5() {
                        self.all.check_blow5(r.header()).map_err(|what| {
                            ArrowReadError::SchemaMismatch {
                                path: path.clone(),
                                first: self.paths[0].clone(),
                                what,
                            }
                        })?;
                    }
                    self.next_file += 1;
                    self.current = Some((Arc::new(opened), 0));
                    continue;
                }
            };
            let wanted = columns::Wanted { all: &self.all, picked: &self.picked };
            let (columns, end) = match file.by_format() {
                ByFormat::Pod5(r) => pod5::batch(r, *start, &self.options, &wanted)?,
                ByFormat::Blow5(r) => blow5::batch(r, *start, &self.options, &wanted)?,
                ByFormat::Fast5(r) => fast5::batch(r, *start, &self.options, &wanted)?,
            };
            let rows = end - *start;
            *start = end;
            let batch = RecordBatch::try_new_with_options(
                self.schema.clone(),
                columns,
                &RecordBatchOptions::new().with_row_count(Some(rows)),
            )
            .expect("columns built to the schema");
            return Ok(Some(batch));
        }
    }
}

impl Iterator for ReadBatches {
    type Item = Result<RecordBatch, ArrowError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.next_batch().map_err(ArrowError::from).transpose()
    }
}

impl RecordBatchReader for ReadBatches {
    fn schema(&self) -> SchemaRef {
        self.schema.clone()
    }
}

/// A batch's columns and the index after its last read.
type Batch = Result<(Vec<arrow_array::ArrayRef>, usize), ArrowReadError>;

/// The reads of `[start, ..)` that make the next batch: at most `batch_reads`, and with a
/// signal column at most `batch_samples` samples (at least one read). Returns the end.
fn batch_end(start: usize, len: usize, options: &Options, samples: impl Fn(usize) -> u64) -> usize {
    let max_samples = match options.signal {
        SignalColumn::None => u64::MAX,
        _ => options.batch_samples,
    };
    svb_io::window_end(start, len, options.batch_reads, max_samples, samples)
}
