//! The POD5 writer: the container as ONT's pod5 0.3.49 writes it (signature, section markers,
//! the signal, run-info and reads tables as embedded Arrow IPC files with its schemas and
//! table versions, the footer flatbuffer), signal in chunks of 102400 samples compressed as
//! lib_pod5 compresses them, on rayon a batch at a time.
//!
//! The signal table streams into the file, the reads table into a scratch file beside it
//! (both a batch at a time, so memory is bounded by a batch whatever the file's size); the
//! run-info table, the reads table and the footer follow on [`Writer::finish`], which then
//! renames the file into place. A writer dropped early (or a process killed mid-write) leaves
//! no file under the destination's name, and removes its temporary files on drop.

mod tables;

use std::borrow::Borrow;
use std::collections::HashSet;
use std::hash::BuildHasher;
use std::io::Write;
use std::path::Path;

use arrow_array::RecordBatch;
use arrow_ipc::writer::{DictionaryHandling, FileWriter, IpcWriteOptions};
use arrow_schema::{ArrowError, SchemaRef};
use rayon::prelude::*;
use svb_io::{PartialFile, Publish};
use svb_model::ont::{OntRead, ReadInfo};

use super::container::{self, ContentType, EmbeddedFile, Footer, MARKER_LEN, SIGNATURE};
use super::error::{Pod5WriteError, TableKind};
use super::read::ReadRow;
use super::run_info::RunInfo;
use super::signal::SignalEncoding;
use super::ZstdProfile;
use svb_model::ont::uuid_string;
use tables::{
    ChunkRef, CompressedBatch, Dictionary, OwnedChunk, PendingRow, ReadDictionaries, POD5_VERSION,
};

use svb_model::ont::END_REASONS;

/// A read and its signal as stored chunks (`(samples, blob)` each), for
/// [`Writer::add_reads_stored_chunks`].
pub type StoredRead<'a> = (&'a ReadInfo, Vec<(u32, &'a [u8])>);

/// How a [`Writer`] stores signal and how much it buffers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WriteOptions {
    /// VBZ (default; each chunk the bytes lib_pod5 writes for it), PDZ (each chunk the block
    /// ONT's PDZ codec writes for it) or uncompressed int16.
    pub signal_encoding: SignalEncoding,
    /// Samples per signal-table row: a read's signal is split into chunks of this many, the
    /// last one the remainder (default 102400, as MinKNOW and ONT's writer).
    pub chunk_samples: usize,
    /// Rows per signal-table batch (default 100, as ONT's writer). Chunks are compressed on
    /// rayon's pool a batch at a time: memory holds about one batch of samples.
    pub signal_batch_rows: usize,
    /// Rows per reads-table batch (default 1000, as ONT's writer).
    pub read_batch_rows: usize,
    /// The software named in the footer and the tables' metadata.
    pub software: String,
    /// The zstd profile of VBZ chunks: [`ZstdProfile::Standard`] (default) writes lib_pod5's
    /// bytes; [`ZstdProfile::DecodeFast`] raw literals, which every POD5 reader decodes
    /// faster, in larger files (docs/PERFORMANCE.md). Needs VBZ signal.
    pub zstd_profile: ZstdProfile,
    /// How [`Writer::finish`] publishes the file: synced first (default) or not, replacing a
    /// file at the path or not (default refuse).
    pub publish: Publish,
}

impl Default for WriteOptions {
    fn default() -> Self {
        WriteOptions {
            signal_encoding: SignalEncoding::Vbz,
            chunk_samples: 102_400,
            signal_batch_rows: 100,
            read_batch_rows: 1000,
            software: concat!("svb ", env!("CARGO_PKG_VERSION")).to_string(),
            zstd_profile: ZstdProfile::Standard,
            publish: Publish::default(),
        }
    }
}

/// A read's signal as given to the writer.
#[derive(Clone, Copy)]
enum ReadSignal<'a> {
    /// Samples, cut into chunks and compressed by the writer.
    Samples(&'a [i16]),
    /// Chunks of the file's compression (sample count, blob), checked, stored as they are.
    Stored(&'a [(u32, &'a [u8])]),
}

/// Where the signal table starts: after the signature and the first section marker.
const SIGNAL_TABLE_OFFSET: u64 = (SIGNATURE.len() + MARKER_LEN) as u64;

/// Writes a POD5 file read by read, in bounded memory.
///
/// Every read names the run it belongs to by acquisition id; add that [`RunInfo`] first.
/// A read's `num_samples` must be the length of the signal given with it (its `signal_rows`
/// are ignored: the writer assigns them), its `end_reason` one of [`END_REASONS`]; an
/// optional field left `None` is written as ONT's writer writes an unknown one (NaN, or 0 for
/// the counters).
///
/// ```
/// use svb_pod5::{ReadInfo, Reader, RunInfo, WriteOptions, Writer};
/// let dir = std::env::temp_dir().join(format!("svb-pod5-doc-{}", std::process::id()));
/// std::fs::create_dir_all(&dir)?;
/// let path = dir.join("reads.pod5");
///
/// let mut w = Writer::create(&path, WriteOptions::default())?;
/// let mut run = RunInfo::default();
/// run.acquisition_id = "run-1".into();
/// run.sample_rate = 5000;
/// w.add_run_info(&run)?;
/// let signal: Vec<i16> = (0..250_000).map(|i| 480 + (i % 37) as i16).collect();
/// let mut read = ReadInfo::new([1; 16], "run-1");
/// read.channel = 42;
/// read.num_samples = signal.len() as u64;
/// w.add_read(&read, &signal)?;
/// w.finish()?;
///
/// let r = Reader::open(&path)?;
/// assert_eq!(r.reads()[0].info.channel, 42);
/// assert_eq!(r.decode_signal(0)?, signal); // three chunks: 102400, 102400, 45200
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Writer {
    signal: FileWriter<PartialFile>,
    reads: FileWriter<PartialFile>,
    signal_schema: SchemaRef,
    reads_schema: SchemaRef,
    options: WriteOptions,
    file_identifier: String,
    marker: [u8; MARKER_LEN],
    /// Chunks not yet in a signal batch (fewer than a batch), copied from their reads.
    pending_chunks: Vec<OwnedChunk>,
    /// The last VBZ batch compressed, written while the next one compresses.
    compressed: CompressedBatch,
    pending_reads: Vec<PendingRow>,
    dicts: ReadDictionaries,
    run_infos: Vec<RunInfo>,
    ids: HashSet<[u8; 16]>,
    next_row: u64,
    reads_added: u64,
}

impl std::fmt::Debug for Writer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Writer")
            .field("path", &self.signal.get_ref().destination())
            .field("reads", &self.reads_added)
            .field("signal_rows", &self.next_row)
            .finish()
    }
}

/// 16 random bytes (std's per-process random hash keys), as a version-4 UUID.
fn random_uuid() -> [u8; 16] {
    let state = std::collections::hash_map::RandomState::new();
    let hi = state.hash_one((std::process::id(), std::time::SystemTime::now()));
    let lo = state.hash_one(hi);
    let mut id = [0u8; 16];
    id[..8].copy_from_slice(&hi.to_le_bytes());
    id[8..].copy_from_slice(&lo.to_le_bytes());
    id[6] = (id[6] & 0x0f) | 0x40;
    id[8] = (id[8] & 0x3f) | 0x80;
    id
}

fn ipc_options() -> IpcWriteOptions {
    IpcWriteOptions::default().with_dictionary_handling(DictionaryHandling::Delta)
}

impl Writer {
    /// Starts a file at `path` (written under a temporary name beside it until
    /// [`finish`](Writer::finish)). The options are checked first: no file is created for
    /// bad ones.
    pub fn create(path: impl AsRef<Path>, options: WriteOptions) -> Result<Writer, Pod5WriteError> {
        let path = path.as_ref();
        let bad = |what: &str| Err(Pod5WriteError::Options { what: what.to_string() });
        if options.chunk_samples == 0 || options.chunk_samples > u32::MAX as usize {
            return bad("chunk_samples must be 1 to 2^32-1 (the samples column is 32-bit)");
        }
        if options.signal_batch_rows == 0 {
            return bad("signal_batch_rows must be at least 1");
        }
        if options.read_batch_rows == 0 {
            return bad("read_batch_rows must be at least 1");
        }
        if options.zstd_profile != ZstdProfile::Standard
            && options.signal_encoding != SignalEncoding::Vbz
        {
            return bad(&format!(
                "a zstd profile needs VBZ signal (this file's is {})",
                options.signal_encoding
            ));
        }
        let file_identifier = uuid_string(&random_uuid());
        let marker = random_uuid();
        let meta = tables::metadata(&file_identifier, &options.software);
        let signal_schema = tables::signal_schema(options.signal_encoding, meta.clone());
        let reads_schema = tables::reads_schema(meta);

        // Errors name the destination: the temporary files mean nothing to the user.
        let io = |source| Pod5WriteError::Io { path: path.to_path_buf(), source };
        let mut main = options.publish.create(path).map_err(io)?;
        main.write_all(&SIGNATURE).map_err(io)?;
        main.write_all(&marker).map_err(io)?;
        let signal = FileWriter::try_new_with_options(main, &signal_schema, ipc_options())
            .map_err(arrow_error(TableKind::Signal, path))?;
        let scratch = PartialFile::scratch(path, "reads").map_err(io)?;
        let reads = FileWriter::try_new_with_options(scratch, &reads_schema, ipc_options())
            .map_err(arrow_error(TableKind::Reads, path))?;
        Ok(Writer {
            signal,
            reads,
            signal_schema,
            reads_schema,
            options,
            file_identifier,
            marker,
            pending_chunks: Vec::new(),
            compressed: CompressedBatch::default(),
            pending_reads: Vec::new(),
            dicts: ReadDictionaries {
                pore_type: Dictionary::default(),
                end_reason: Dictionary::with(&END_REASONS),
                run_info: Dictionary::default(),
            },
            run_infos: Vec::new(),
            ids: HashSet::new(),
            next_row: 0,
            reads_added: 0,
        })
    }

    /// The reads added so far.
    pub fn len(&self) -> u64 {
        self.reads_added
    }

    /// Whether no read was added yet.
    pub fn is_empty(&self) -> bool {
        self.reads_added == 0
    }

    /// The file identifier (a UUID) written into the footer and every table.
    pub fn file_identifier(&self) -> &str {
        &self.file_identifier
    }

    /// Adds the run (acquisition) that reads name by its acquisition id. Adding the same run
    /// info again is allowed; another one under the same acquisition id is an error.
    pub fn add_run_info(&mut self, run: &RunInfo) -> Result<(), Pod5WriteError> {
        let bad = |what: &str| {
            Err(Pod5WriteError::RunInfo {
                acquisition_id: run.acquisition_id.clone(),
                what: what.to_string(),
            })
        };
        if let Some(known) = self.run_infos.iter().find(|r| r.acquisition_id == run.acquisition_id)
        {
            return if known == run {
                Ok(())
            } else {
                bad("another run info with this acquisition id was added")
            };
        }
        if self.dicts.run_info.key(&run.acquisition_id).is_none() {
            return bad("a file holds at most 32768 run infos (16-bit dictionary keys)");
        }
        self.run_infos.push(run.clone());
        Ok(())
    }

    /// The run infos added so far.
    pub fn run_infos(&self) -> &[RunInfo] {
        &self.run_infos
    }

    /// Adds one read and its signal (checked first: a bad read is an error and nothing of
    /// it is written). Its chunks are compressed on rayon's pool a batch at a time.
    pub fn add_read(&mut self, read: &ReadInfo, signal: &[i16]) -> Result<(), Pod5WriteError> {
        self.check(read, signal.len() as u64)?;
        self.push(&[(read, ReadSignal::Samples(signal))])
    }

    /// Adds one read whose signal is already chunks as a POD5 file of this file's signal
    /// compression stores them (each `(samples, blob)`, e.g. from
    /// [`Reader::chunk_bytes`](super::Reader::chunk_bytes)): the blobs are stored as given,
    /// neither decompressed nor recompressed, after each is checked to be what its sample
    /// count can have: a VBZ blob one whole zstd frame of a possible size
    /// ([`svb_vbz::pod5_blob::check_signal`]), a PDZ block one that passes
    /// [`svb_pdz::check_stored`] (decoding a read is what proves its samples). The file's
    /// signal must be compressed (VBZ or PDZ).
    ///
    /// ```
    /// use svb_pod5::{ReadInfo, RunInfo, WriteOptions, Writer};
    /// # let dir = std::env::temp_dir().join(format!("svb-pod5-chunks-{}", std::process::id()));
    /// # std::fs::create_dir_all(&dir)?;
    /// let signal: Vec<i16> = (0..5000).map(|i| 400 + (i % 13) as i16).collect();
    /// let blob = svb_vbz::pod5_blob::compress_signal(&signal);
    /// let mut w = Writer::create(dir.join("copy.pod5"), WriteOptions::default())?;
    /// let mut run = RunInfo::default();
    /// run.acquisition_id = "run".into();
    /// w.add_run_info(&run)?;
    /// let mut read = ReadInfo::new([3; 16], "run");
    /// read.num_samples = 5000;
    /// w.add_read_stored_chunks(&read, &[(5000, &blob)])?;
    /// w.finish()?;
    /// let back = svb_pod5::Reader::open(dir.join("copy.pod5"))?;
    /// assert_eq!(back.chunk_bytes(0, 0)?, blob);
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn add_read_stored_chunks(
        &mut self, read: &ReadInfo, chunks: &[(u32, &[u8])],
    ) -> Result<(), Pod5WriteError> {
        let mut outcome = self.add_reads_stored_chunks(&[(read, chunks.to_vec())])?;
        outcome.pop().expect("one read's outcome")
    }

    /// Adds reads whose signal is already stored chunks of this file's compression, as
    /// [`add_read_stored_chunks`] does one, with every chunk of every read checked as that
    /// says. Returns each read's outcome in order: the reads that pass are written, a read
    /// that fails (a run the file lacks, an id twice, a chunk that cannot be its samples'
    /// blob) is not, and says why. The outer error is the file's (its signal is
    /// uncompressed, or writing failed).
    ///
    /// [`add_read_stored_chunks`]: Writer::add_read_stored_chunks
    #[allow(clippy::type_complexity)] // an outcome per read, in a result for the file
    pub fn add_reads_stored_chunks(
        &mut self, reads: &[StoredRead<'_>],
    ) -> Result<Vec<Result<(), Pod5WriteError>>, Pod5WriteError> {
        let encoding = self.options.signal_encoding;
        if encoding == SignalEncoding::Uncompressed {
            return Err(Pod5WriteError::Read {
                read_id: reads.first().map(|(r, _)| r.read_id_string()).unwrap_or_default(),
                what: "stored chunks go into a file of their compression; this one stores \
                       uncompressed signal"
                    .into(),
            });
        }
        let mut batch = HashSet::new();
        let outcome: Vec<Result<(), Pod5WriteError>> = reads
            .iter()
            .map(|(read, chunks)| {
                let total: u64 = chunks.iter().map(|(n, _)| u64::from(*n)).sum();
                self.check(read, total)?;
                if !batch.insert(read.read_id) {
                    return Err(Pod5WriteError::DuplicateReadId { read_id: read.read_id_string() });
                }
                for (i, (n, blob)) in chunks.iter().enumerate() {
                    let checked = match encoding {
                        SignalEncoding::Pdz => svb_pdz::check_stored(blob, *n as usize)
                            .map(drop)
                            .map_err(|e| e.to_string()),
                        _ => svb_vbz::pod5_blob::check_signal(blob, *n as usize)
                            .map_err(|e| e.to_string()),
                    };
                    checked.map_err(|e| Pod5WriteError::Read {
                        read_id: read.read_id_string(),
                        what: format!(
                            "chunk {i} cannot be the {} of {n} samples: {e}",
                            encoding.to_string().to_uppercase()
                        ),
                    })?;
                }
                Ok(())
            })
            .collect();
        let good: Vec<(&ReadInfo, ReadSignal<'_>)> = reads
            .iter()
            .zip(&outcome)
            .filter(|(_, o)| o.is_ok())
            .map(|((read, chunks), _)| (*read, ReadSignal::Stored(chunks)))
            .collect();
        self.push(&good)?;
        Ok(outcome)
    }

    /// Adds reads in order; every read is checked (against the file and against each other)
    /// before any of them is written. The fast way to write many reads: their chunks are
    /// compressed straight from `reads` (only a last incomplete batch is copied), and each
    /// batch is written while the next one compresses.
    pub fn add_reads<R: Borrow<ReadInfo>, S: AsRef<[i16]>>(
        &mut self, reads: &[(R, S)],
    ) -> Result<(), Pod5WriteError> {
        let mut batch_ids = HashSet::with_capacity(reads.len());
        for (read, signal) in reads {
            let read = read.borrow();
            self.check(read, signal.as_ref().len() as u64)?;
            if !batch_ids.insert(read.read_id) {
                return Err(Pod5WriteError::DuplicateReadId { read_id: read.read_id_string() });
            }
        }
        let reads: Vec<(&ReadInfo, ReadSignal<'_>)> =
            reads.iter().map(|(r, s)| (r.borrow(), ReadSignal::Samples(s.as_ref()))).collect();
        self.push(&reads)
    }

    /// How this file stores signal.
    pub fn signal_encoding(&self) -> SignalEncoding {
        self.options.signal_encoding
    }

    fn check(&self, read: &ReadInfo, samples: u64) -> Result<(), Pod5WriteError> {
        let bad = |what: String| Err(Pod5WriteError::Read { read_id: read.read_id_string(), what });
        if self.ids.contains(&read.read_id) {
            return Err(Pod5WriteError::DuplicateReadId { read_id: read.read_id_string() });
        }
        if read.num_samples != samples {
            return bad(format!(
                "num_samples is {} but {samples} samples were given",
                read.num_samples
            ));
        }
        if self.dicts.end_reason.get(&read.end_reason).is_none() {
            return bad(format!(
                "end reason {:?} is not one of POD5's: {}",
                read.end_reason,
                END_REASONS.join(", ")
            ));
        }
        if self.dicts.run_info.get(&read.run_info).is_none() {
            return bad(format!("run info {:?} was not added (add_run_info first)", read.run_info));
        }
        if self.dicts.pore_type.get(&read.pore_type).is_none()
            && self.dicts.pore_type.len() > i16::MAX as usize
        {
            return bad("a file holds at most 32768 pore types (16-bit dictionary keys)".into());
        }
        Ok(())
    }

    /// Stores checked reads: their rows queued for the reads table, their chunks written in
    /// whole signal batches (the pending chunks first), the rest kept for the next call.
    fn push(&mut self, reads: &[(&ReadInfo, ReadSignal<'_>)]) -> Result<(), Pod5WriteError> {
        let owned = std::mem::take(&mut self.pending_chunks);
        let mut chunks: Vec<ChunkRef<'_>> = owned.iter().map(OwnedChunk::as_ref).collect();
        for &(read, signal) in reads {
            self.ids.insert(read.read_id);
            let mut row = PendingRow {
                pore_type: self.dicts.pore_type.key(&read.pore_type).expect("checked"),
                end_reason: self.dicts.end_reason.get(&read.end_reason).expect("checked"),
                run_info: self.dicts.run_info.get(&read.run_info).expect("checked"),
                read: ReadRow::of_info(read.clone(), Vec::new()),
            };
            let first = chunks.len();
            match signal {
                ReadSignal::Samples(signal) => {
                    chunks.extend(
                        signal.chunks(self.options.chunk_samples).map(|samples| ChunkRef {
                            read_id: read.read_id,
                            samples,
                            stored: None,
                        }),
                    );
                }
                ReadSignal::Stored(stored) => {
                    chunks.extend(stored.iter().map(|&(n, blob)| ChunkRef {
                        read_id: read.read_id,
                        samples: &[],
                        stored: Some((blob, n)),
                    }));
                }
            }
            for _ in first..chunks.len() {
                row.read.signal_rows.push(self.next_row);
                self.next_row += 1;
            }
            self.pending_reads.push(row);
            self.reads_added += 1;
            if self.pending_reads.len() >= self.options.read_batch_rows {
                self.write_reads_batch()?;
            }
        }
        let batch = self.options.signal_batch_rows;
        let whole = chunks.len() / batch * batch;
        for b in chunks[..whole].chunks(batch) {
            self.write_signal_batch(b)?;
        }
        // The chunks left for the next call: the pending ones stay where they are when no
        // batch was written (each chunk is kept once, however many calls it waits). A VBZ
        // file keeps a chunk compressed, on every core now rather than with its batch: its
        // samples are never copied, and the blob it keeps is about half their size.
        let carried = if whole == 0 { owned.len() } else { 0 };
        let left = &chunks[whole.max(carried)..];
        let tail: Vec<OwnedChunk> = match self.options.signal_encoding {
            SignalEncoding::Uncompressed => left.iter().map(OwnedChunk::of).collect(),
            encoding => {
                let profile = self.options.zstd_profile;
                left.par_iter().map(|c| OwnedChunk::compressed(c, encoding, profile)).collect()
            }
        };
        drop(chunks);
        let mut owned = owned;
        owned.truncate(carried);
        owned.extend(tail);
        self.pending_chunks = owned;
        Ok(())
    }

    /// Stores one signal batch. VBZ: the batch is compressed on rayon's pool while the one
    /// before it is written.
    fn write_signal_batch(&mut self, chunks: &[ChunkRef<'_>]) -> Result<(), Pod5WriteError> {
        match self.options.signal_encoding {
            SignalEncoding::Uncompressed => {
                let batch = tables::uncompressed_batch(&self.signal_schema, chunks);
                write_batch(&mut self.signal, TableKind::Signal, batch)
            }
            encoding => {
                let before = std::mem::take(&mut self.compressed);
                let (signal, schema) = (&mut self.signal, &self.signal_schema);
                let profile = self.options.zstd_profile;
                let (written, compressed) = rayon::join(
                    || write_compressed(signal, schema, before),
                    || compress(chunks, encoding, profile),
                );
                self.compressed = compressed;
                written
            }
        }
    }

    fn write_reads_batch(&mut self) -> Result<(), Pod5WriteError> {
        if self.pending_reads.is_empty() {
            return Ok(());
        }
        let rows = std::mem::take(&mut self.pending_reads);
        let batch = tables::reads_batch(&self.reads_schema, &rows, &self.dicts);
        write_batch(&mut self.reads, TableKind::Reads, batch)
    }

    /// Writes what is buffered, the run-info and reads tables and the footer, then gives the
    /// file its name. Returns the number of reads.
    pub fn finish(self) -> Result<u64, Pod5WriteError> {
        let io = |path, source| Pod5WriteError::Io { path, source };
        svb_io::Staged::publish_finished(self.finish_staged()?, io)
    }

    /// [`finish`](Writer::finish) without giving the file its name: the complete file, for
    /// one of several outputs published together ([`svb_io::publish_all`]).
    pub fn finish_staged(mut self) -> Result<(u64, svb_io::Staged), Pod5WriteError> {
        let last = std::mem::take(&mut self.pending_chunks);
        let last: Vec<ChunkRef<'_>> = last.iter().map(OwnedChunk::as_ref).collect();
        if !last.is_empty() {
            self.write_signal_batch(&last)?;
        }
        let compressed = std::mem::take(&mut self.compressed);
        write_compressed(&mut self.signal, &self.signal_schema, compressed)?;
        self.write_reads_batch()?;
        let written = self.signal.get_ref().destination().to_path_buf();
        let io = |source| Pod5WriteError::Io { path: written.clone(), source };
        let mut main =
            self.signal.into_inner().map_err(arrow_error(TableKind::Signal, &written))?;
        let mut contents = Vec::with_capacity(3);
        let mut close_embedded =
            |main: &mut PartialFile, start: u64, content_type| -> std::io::Result<()> {
                let length = main.position() - start;
                contents.push(EmbeddedFile { offset: start, length, content_type });
                main.write_all(container::padding(length))?;
                main.write_all(&self.marker)
            };
        close_embedded(&mut main, SIGNAL_TABLE_OFFSET, ContentType::SignalTable).map_err(io)?;

        let start = main.position();
        let meta = tables::metadata(&self.file_identifier, &self.options.software);
        let schema = tables::run_info_schema(meta);
        let mut w = FileWriter::try_new_with_options(&mut main, &schema, ipc_options())
            .map_err(arrow_error(TableKind::RunInfo, &written))?;
        for r in &self.run_infos {
            tables::run_info_batch(&schema, r)
                .and_then(|b| w.write(&b))
                .map_err(arrow_error(TableKind::RunInfo, &written))?;
        }
        w.finish().map_err(arrow_error(TableKind::RunInfo, &written))?;
        drop(w);
        close_embedded(&mut main, start, ContentType::RunInfoTable).map_err(io)?;

        let mut scratch =
            self.reads.into_inner().map_err(arrow_error(TableKind::Reads, &written))?;
        let start = main.position();
        scratch.copy_to(&mut main).map_err(io)?;
        drop(scratch);
        close_embedded(&mut main, start, ContentType::ReadsTable).map_err(io)?;

        let footer = Footer {
            file_identifier: self.file_identifier.clone(),
            software: self.options.software.clone(),
            pod5_version: POD5_VERSION.to_string(),
            contents,
        };
        main.write_all(&container::closing_bytes(&footer, &self.marker)).map_err(io)?;
        let path = main.destination().to_path_buf();
        let staged = self
            .options
            .publish
            .stage(main)
            .map_err(|source| Pod5WriteError::Io { path, source })?;
        Ok((self.reads_added, staged))
    }
}

/// Compresses chunks on rayon's pool into one signal batch, in order; stored chunks are
/// copied into it as they are.
fn compress(
    chunks: &[ChunkRef<'_>], encoding: SignalEncoding, profile: ZstdProfile,
) -> CompressedBatch {
    // Each chunk's fresh blob (empty, and not allocated, for a stored one).
    let fresh: Vec<Vec<u8>> = chunks
        .par_iter()
        .map(|c| {
            let mut blob = Vec::new();
            if c.stored.is_none() {
                tables::compress_chunk(c.samples, encoding, profile, &mut blob);
            }
            blob
        })
        .collect();
    let rows: Vec<(&[u8], u32)> = chunks
        .iter()
        .zip(&fresh)
        .map(|(c, blob)| c.stored.unwrap_or((blob, c.samples.len() as u32)))
        .collect();
    let bytes = rows.iter().map(|(blob, _)| blob.len()).sum();
    let mut batch = CompressedBatch::with_capacity(chunks.len(), bytes);
    for (c, (blob, samples)) in chunks.iter().zip(rows) {
        batch.push(c.read_id, samples, blob);
    }
    batch
}

/// Writes a compressed batch (an empty one: nothing) to the signal table.
fn write_compressed(
    signal: &mut FileWriter<PartialFile>, schema: &SchemaRef, rows: CompressedBatch,
) -> Result<(), Pod5WriteError> {
    if rows.is_empty() {
        return Ok(());
    }
    write_batch(signal, TableKind::Signal, rows.into_batch(schema))
}

fn write_batch(
    w: &mut FileWriter<PartialFile>, table: TableKind, batch: Result<RecordBatch, ArrowError>,
) -> Result<(), Pod5WriteError> {
    batch.and_then(|b| w.write(&b)).map_err(|e| arrow_error(table, w.get_ref().destination())(e))
}

/// An Arrow error of `table`: an I/O error names the file, anything else is the table's.
fn arrow_error(table: TableKind, path: &Path) -> impl Fn(ArrowError) -> Pod5WriteError + '_ {
    move |e| match e {
        ArrowError::IoError(_, source) => Pod5WriteError::Io { path: path.to_path_buf(), source },
        e => Pod5WriteError::Table { table, what: e.to_string() },
    }
}

/// The writer of ONT's model reads ([`OntRead`], what a conversion makes of an input's read
/// on any thread). A read's run is added to the file the first time a read names its
/// acquisition id; a later read's run of that id is the one added first (as ONT's converters
/// keep the first run info of an acquisition: a source that must refuse two differing runs
/// does so as it admits its reads, [`svb_model::ont::OntSource::admit`]).
impl svb_model::ReadSink for Writer {
    type Error = Pod5WriteError;
    type Read = OntRead;

    fn format(&self) -> svb_model::Format {
        svb_model::Format::Pod5
    }

    fn len(&self) -> u64 {
        Writer::len(self)
    }

    fn samples(read: &OntRead) -> u64 {
        read.signal.len() as u64
    }

    fn add_reads(&mut self, reads: Vec<OntRead>) -> Result<(), Pod5WriteError> {
        let mut last: Option<&std::sync::Arc<RunInfo>> = None;
        for read in &reads {
            if *read.info.run_info != *read.run.acquisition_id {
                return Err(Pod5WriteError::RunInfo {
                    acquisition_id: read.run.acquisition_id.clone(),
                    what: format!(
                        "read {} names run {}, not this one",
                        read.info.read_id_string(),
                        read.info.run_info
                    ),
                });
            }
            if !last.is_some_and(|run| std::sync::Arc::ptr_eq(run, &read.run)) {
                let id = &read.run.acquisition_id;
                if self.run_infos.iter().all(|r| r.acquisition_id != *id) {
                    self.add_run_info(&read.run)?;
                }
                last = Some(&read.run);
            }
        }
        let rows: Vec<(&ReadInfo, &[i16])> =
            reads.iter().map(|r| (&r.info, r.signal.as_slice())).collect();
        Writer::add_reads(self, &rows)
    }

    fn finish(self) -> Result<u64, Pod5WriteError> {
        Writer::finish(self)
    }
}
