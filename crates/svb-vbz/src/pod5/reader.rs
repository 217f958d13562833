//! [`Reader`]: a memory-mapped POD5 file, its reads, and the decode of their signal.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use arrow_array::cast::AsArray;
use arrow_array::types::Int16Type;
use arrow_array::Array;
use arrow_buffer::Buffer;
use rayon::prelude::*;

use super::container::{self, ContentType, EmbeddedFile, Footer};
use super::error::{Pod5Error, TableKind};
use super::ipc;
use super::tables::{self, Read, RunInfo, SignalColumn, SignalEncoding, SignalTable};
use crate::Threads;

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
/// Rust values, the signal table mapped (zero-copy) and decoded on demand.
///
/// ```no_run
/// use svb_vbz::pod5::Reader;
/// let file = Reader::open("reads.pod5")?;
/// let mut signal = Vec::new();
/// for (i, read) in file.reads().iter().enumerate() {
///     signal.clear();
///     file.decode_signal_into(i, &mut signal)?;
///     println!("{}: {} samples", read.read_id_string(), signal.len());
/// }
/// # Ok::<(), svb_vbz::pod5::Pod5Error>(())
/// ```
pub struct Reader {
    path: PathBuf,
    footer: Footer,
    reads: Vec<Read>,
    by_id: HashMap<[u8; 16], usize>,
    signal: SignalTable,
    run_infos: Vec<RunInfo>,
    table_version: TableVersion,
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
            .field("signal_rows", &self.signal.rows())
            .finish()
    }
}

impl Reader {
    /// Opens and memory-maps `path`, checks the container and parses the tables.
    ///
    /// The map is read-only; as with any mapped file, another process truncating it while
    /// it is open is outside what this reader can guard against.
    pub fn open(path: impl AsRef<Path>) -> Result<Self, Pod5Error> {
        let path = path.as_ref().to_path_buf();
        let io = |source| Pod5Error::Io {
            path: path.clone(),
            source,
        };
        let file = std::fs::File::open(&path).map_err(io)?;
        // SAFETY: the map is only ever read, through bounds-checked slices; the file is opened
        // read-only. A concurrent writer changing the file is the documented caveat above.
        let map = unsafe { memmap2::Mmap::map(&file) }.map_err(io)?;
        let bytes = bytes::Bytes::from_owner(map);
        Self::from_buffer(path, Buffer::from_bytes(bytes.into()))
    }

    /// A reader over a POD5 file already in memory (`path` names it in errors).
    pub fn from_bytes(path: impl Into<PathBuf>, bytes: Vec<u8>) -> Result<Self, Pod5Error> {
        Self::from_buffer(path.into(), Buffer::from_vec(bytes))
    }

    fn from_buffer(path: PathBuf, data: Buffer) -> Result<Self, Pod5Error> {
        let footer = container::parse(&data).map_err(|(offset, what)| Pod5Error::Container {
            path: path.clone(),
            offset,
            what,
        })?;
        let table_err = |table: TableKind| {
            let path = path.clone();
            move |(row, what): tables::TableError| match row {
                Some(row) => Pod5Error::Row {
                    path: path.clone(),
                    table,
                    row,
                    what,
                },
                None => Pod5Error::Table {
                    path: path.clone(),
                    table,
                    what,
                },
            }
        };
        let find =
            |want: ContentType, table: TableKind| -> Result<Option<EmbeddedFile>, Pod5Error> {
                let mut found = footer.contents.iter().filter(|f| f.content_type == want);
                let first = found.next().copied();
                if found.next().is_some() {
                    return Err(table_err(table)((None, "the footer lists it twice".into())));
                }
                Ok(first)
            };
        let open_table =
            |want: ContentType, table: TableKind| -> Result<Option<ipc::IpcFile>, Pod5Error> {
                let Some(f) = find(want, table)? else {
                    return Ok(None);
                };
                let bytes = data.slice_with_length(f.offset as usize, f.length as usize);
                let file = ipc::read(&bytes).map_err(|what| table_err(table)((None, what)))?;
                if let Some(id) = file.schema.metadata().get("MINKNOW:file_identifier") {
                    if *id != footer.file_identifier {
                        return Err(table_err(table)((
                            None,
                            format!(
                                "file identifier {id} differs from the footer's {}",
                                footer.file_identifier
                            ),
                        )));
                    }
                }
                Ok(Some(file))
            };
        let missing = |table: TableKind| table_err(table)((None, "missing from the footer".into()));

        let signal_file = open_table(ContentType::SignalTable, TableKind::Signal)?
            .ok_or(missing(TableKind::Signal))?;
        let signal =
            tables::parse_signal(&signal_file.batches).map_err(table_err(TableKind::Signal))?;
        let reads_file = open_table(ContentType::ReadsTable, TableKind::Reads)?
            .ok_or(missing(TableKind::Reads))?;
        let table_version = if reads_file.schema.column_with_name("pore").is_some() {
            TableVersion::V0
        } else {
            TableVersion::V1OrLater
        };
        let (reads, embedded_runs) =
            tables::parse_reads(&reads_file.batches, |r| signal.samples(r))
                .map_err(table_err(TableKind::Reads))?;
        let mut run_infos = match open_table(ContentType::RunInfoTable, TableKind::RunInfo)? {
            Some(f) => tables::parse_run_infos_batches(&f.batches)
                .map_err(table_err(TableKind::RunInfo))?,
            None => Vec::new(),
        };
        for r in embedded_runs {
            if !run_infos
                .iter()
                .any(|x| x.acquisition_id == r.acquisition_id)
            {
                run_infos.push(r);
            }
        }

        let mut by_id = HashMap::with_capacity(reads.len());
        for (i, read) in reads.iter().enumerate() {
            by_id.entry(read.read_id).or_insert(i);
            check_layout(read, &signal).map_err(|what| Pod5Error::Row {
                path: path.clone(),
                table: TableKind::Reads,
                row: i as u64,
                what: format!("read {}: {what}", read.read_id_string()),
            })?;
        }
        Ok(Reader {
            path,
            footer,
            reads,
            by_id,
            signal,
            run_infos,
            table_version,
        })
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

    /// Rows of the signal table.
    pub fn signal_rows(&self) -> u64 {
        self.signal.rows()
    }

    /// The acquisitions (run-info table, or version 0's embedded run info).
    pub fn run_infos(&self) -> &[RunInfo] {
        &self.run_infos
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
    pub fn reads(&self) -> &[Read] {
        &self.reads
    }

    /// The index of the read with this id (hyphenated UUID), or `None`. With duplicate ids,
    /// the first.
    pub fn find(&self, read_id: &str) -> Option<usize> {
        self.by_id.get(&tables::parse_uuid(read_id)?).copied()
    }

    /// The read with this id, or `None`.
    pub fn read_by_id(&self, read_id: &str) -> Option<&Read> {
        self.find(read_id).map(|i| &self.reads[i])
    }

    /// The stored chunks of read `index`, in signal order.
    ///
    /// # Panics
    /// If `index >= self.len()`.
    pub fn chunks(&self, index: usize) -> Vec<SignalChunk> {
        self.chunk_rows(index)
            .map(|(row, b, i, samples)| {
                let stored_bytes = match &self.signal.batches[b].column {
                    SignalColumn::Vbz(a) => a.value_length(i) as u64,
                    SignalColumn::Uncompressed(l) => 2 * l.value_length(i) as u64,
                };
                SignalChunk {
                    row,
                    samples: samples as u64,
                    stored_bytes,
                }
            })
            .collect()
    }

    /// Read `index`'s stored chunks in order: `(signal row, batch, index in the batch,
    /// samples)`.
    fn chunk_rows(&self, index: usize) -> impl Iterator<Item = (u64, usize, usize, usize)> + '_ {
        self.reads[index].signal_rows.iter().map(|&row| {
            let (b, i) = self.signal.locate(row).expect("rows checked at open");
            (row, b, i, self.signal.batches[b].samples.value(i) as usize)
        })
    }

    /// Decodes read `index`'s signal (its chunks in order) into `out`, whose length must be
    /// the read's `num_samples`.
    ///
    /// # Panics
    /// If `index >= self.len()`.
    pub fn decode_signal_to_slice(&self, index: usize, out: &mut [i16]) -> Result<(), Pod5Error> {
        let read = &self.reads[index];
        if out.len() as u64 != read.num_samples {
            return Err(Pod5Error::OutputLength {
                read_id: read.read_id_string(),
                expected: read.num_samples,
                got: out.len(),
            });
        }
        let mut at = 0usize;
        for (row, b, i, n) in self.chunk_rows(index) {
            self.decode_chunk(index, row, b, i, &mut out[at..at + n])?;
            at += n;
        }
        Ok(())
    }

    /// Decodes read `index`'s signal, appending it to `out`. Every VBZ chunk's frame header
    /// is checked against its sample count before `out` grows.
    ///
    /// # Panics
    /// If `index >= self.len()`.
    pub fn decode_signal_into(&self, index: usize, out: &mut Vec<i16>) -> Result<(), Pod5Error> {
        let read = &self.reads[index];
        self.check_frames(index)?;
        let start = out.len();
        out.resize(start + read.num_samples as usize, 0);
        let r = self.decode_signal_to_slice(index, &mut out[start..]);
        if r.is_err() {
            out.truncate(start);
        }
        r
    }

    /// Every VBZ chunk's frame header of read `index` against its sample count: what
    /// justifies allocating the read's samples.
    fn check_frames(&self, index: usize) -> Result<(), Pod5Error> {
        for (row, b, i, n) in self.chunk_rows(index) {
            if let SignalColumn::Vbz(a) = &self.signal.batches[b].column {
                let blob = a.value(i);
                if !(blob.is_empty() && n == 0) {
                    super::check_frame(blob, n).map_err(|e| self.chunk_error(index, row, e))?;
                }
            }
        }
        Ok(())
    }

    fn chunk_error(&self, index: usize, signal_row: u64, source: crate::VbzError) -> Pod5Error {
        Pod5Error::Signal {
            path: self.path.clone(),
            read_id: self.reads[index].read_id_string(),
            row: index as u64,
            signal_row,
            source,
        }
    }

    /// Read `index`'s signal in a new vector.
    ///
    /// # Panics
    /// If `index >= self.len()`.
    pub fn decode_signal(&self, index: usize) -> Result<Vec<i16>, Pod5Error> {
        let mut out = Vec::new();
        self.decode_signal_into(index, &mut out)?;
        Ok(out)
    }

    /// Decodes every read on rayon (`threads`) and calls `f(index, read, signal)` for each,
    /// in parallel, in no particular order. Reads are taken in windows of about 4 million
    /// samples (at least one read): every chunk of a window is decoded on every core, largest
    /// first, into one buffer (kept by the calling thread for the next call), then `f` sees
    /// the window's reads. Memory stays at one window whatever the file's size.
    ///
    /// At the first window holding a read that fails, the error of its lowest failing read
    /// is returned; `f` has then been called for every read of the windows before it only.
    pub fn decode_all_parallel<F>(&self, threads: Threads<'_>, f: F) -> Result<(), Pod5Error>
    where
        F: Fn(usize, &Read, &[i16]) + Sync,
    {
        threads.run(|| {
            let mut buf = WINDOW_BUFFER.take();
            let r = self.decode_windows(&mut buf, &f);
            if buf.len() <= KEEP_WINDOW_BUFFER {
                WINDOW_BUFFER.set(buf);
            }
            r
        })
    }

    fn decode_windows<F>(&self, buf: &mut Vec<i16>, f: &F) -> Result<(), Pod5Error>
    where
        F: Fn(usize, &Read, &[i16]) + Sync,
    {
        let mut start = 0;
        while start < self.reads.len() {
            // The window: reads start..end, offsets of each read's samples in `buf`.
            let mut offsets = vec![0usize];
            let mut end = start;
            while end < self.reads.len() {
                let n = self.reads[end].num_samples as usize;
                let total = *offsets.last().expect("non-empty");
                if end > start && total + n > WINDOW_SAMPLES {
                    break;
                }
                // A failing header makes this the window's last read: the reads before it
                // decode first, so their errors (lower reads) come first.
                if let Err(e) = self.check_frames(end) {
                    self.decode_window(start, end, &offsets, buf)?;
                    return Err(e);
                }
                offsets.push(total + n);
                end += 1;
            }
            self.decode_window(start, end, &offsets, buf)?;
            let buf = &buf[..];
            (start..end).into_par_iter().for_each(|i| {
                let (a, b) = (offsets[i - start], offsets[i - start + 1]);
                f(i, &self.reads[i], &buf[a..b]);
            });
            start = end;
        }
        Ok(())
    }

    /// Decodes reads `start..end` into `buf` at `offsets`, every chunk one task.
    fn decode_window(
        &self,
        start: usize,
        end: usize,
        offsets: &[usize],
        buf: &mut Vec<i16>,
    ) -> Result<(), Pod5Error> {
        let total = offsets[end - start];
        if buf.len() < total {
            // Grown, never shrunk: no zero-filling once the largest window is seen.
            buf.resize(total, 0);
        }
        let mut tasks = Vec::new();
        let mut rest = &mut buf[..total];
        for index in start..end {
            for (row, b, i, n) in self.chunk_rows(index) {
                let (part, tail) = rest.split_at_mut(n);
                tasks.push((tasks.len(), (index, row, b, i, part)));
                rest = tail;
            }
        }
        crate::split::run_largest_first(
            tasks,
            |(order, (_, _, _, _, part))| (part.len(), *order),
            |(_, (index, row, b, i, part))| self.decode_chunk(index, row, b, i, part),
        )
    }

    /// Decodes one stored chunk (batch `b`, index `i`, signal row `row`) of read `index`.
    fn decode_chunk(
        &self,
        index: usize,
        row: u64,
        b: usize,
        i: usize,
        part: &mut [i16],
    ) -> Result<(), Pod5Error> {
        match &self.signal.batches[b].column {
            SignalColumn::Vbz(a) => super::decompress_signal(a.value(i), part)
                .map_err(|e| self.chunk_error(index, row, e)),
            SignalColumn::Uncompressed(l) => {
                let v = l.value(i);
                let v = v.as_primitive::<Int16Type>();
                if v.null_count() > 0 || v.len() != part.len() {
                    return Err(Pod5Error::Row {
                        path: self.path.clone(),
                        table: TableKind::Signal,
                        row,
                        what: format!(
                            "{} samples ({} null) where the samples column says {}",
                            v.len(),
                            v.null_count(),
                            part.len()
                        ),
                    });
                }
                part.copy_from_slice(v.values());
                Ok(())
            }
        }
    }
}

thread_local! {
    /// The calling thread's window buffer, kept between calls (a fresh one would be
    /// zero-filled and page-faulted in again for every file).
    static WINDOW_BUFFER: std::cell::Cell<Vec<i16>> = const { std::cell::Cell::new(Vec::new()) };
}

/// Samples decoded together by [`Reader::decode_all_parallel`] (8 MiB of int16).
const WINDOW_SAMPLES: usize = 4 << 20;

/// A window buffer up to this many samples (32 MiB) stays with its thread (a single read
/// longer than a window makes a larger one, which is dropped).
const KEEP_WINDOW_BUFFER: usize = 16 << 20;

/// A read's signal rows must exist and their sample counts add up to `num_samples`.
fn check_layout(read: &Read, signal: &SignalTable) -> Result<(), String> {
    let mut total = 0u64;
    for &row in &read.signal_rows {
        let Some((b, i)) = signal.locate(row) else {
            return Err(format!(
                "signal row {row} is past the signal table ({} rows)",
                signal.rows()
            ));
        };
        let s = &signal.batches[b].samples;
        if s.is_null(i) {
            return Err(format!("signal row {row} has no sample count"));
        }
        total += u64::from(s.value(i));
    }
    if total != read.num_samples {
        return Err(format!(
            "num_samples is {}, its signal rows hold {total}",
            read.num_samples
        ));
    }
    Ok(())
}
