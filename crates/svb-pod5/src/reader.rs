//! [`Reader`]: a POD5 file, its reads, and the decode of their signal.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use arrow_buffer::Buffer;
use rayon::prelude::*;
use svb_io::{Access, Source};
use svb_model::Format;

use crate::columns::TableError;
use crate::container::{self, ContentType, EmbeddedFile, Footer};
use crate::error::{Pod5Error, TableKind};
use crate::ipc;
use crate::reads::{self, Read};
use crate::run_info::{self, RunInfo};
use crate::schema;
use crate::signal::{self, SignalEncoding, SignalRow, SignalTable};
use svb_vbz::Threads;

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

/// The footer of a POD5 file rebuilt from the embedded tables a scan finds: each told by
/// its columns (signal: `signal` and `samples`; reads: `read_id`; run info:
/// `acquisition_id`), the file identifier, software and version from their schemas'
/// metadata, as lib_pod5 writes them into every table.
fn rebuilt_footer(path: &Path, src: &Source) -> Result<Footer, Pod5Error> {
    let container_err = |(offset, what): (u64, String)| Pod5Error::Container {
        path: path.to_path_buf(),
        offset,
        what,
    };
    let (found, stop) = container::scan(src).map_err(container_err)?;
    let mut footer = Footer {
        file_identifier: String::new(),
        software: String::new(),
        pod5_version: String::new(),
        contents: Vec::new(),
    };
    for mut f in found {
        // Its schema alone, from its Arrow footer: the tables themselves are parsed (and
        // checked) when the reader is built from the rebuilt footer.
        let Ok(schema) = signal::embedded_schema(src, f.offset, f.length) else {
            break;
        };
        let has = |c: &str| schema.column_with_name(c).is_some();
        f.content_type = if has("signal") && has("samples") {
            ContentType::SignalTable
        } else if has("read_id") {
            ContentType::ReadsTable
        } else if has("acquisition_id") {
            ContentType::RunInfoTable
        } else {
            continue;
        };
        let meta = schema.metadata();
        let take = |key: &str, into: &mut String| {
            if into.is_empty() {
                if let Some(v) = meta.get(key) {
                    into.clone_from(v);
                }
            }
        };
        take("MINKNOW:file_identifier", &mut footer.file_identifier);
        take("MINKNOW:software", &mut footer.software);
        take("MINKNOW:pod5_version", &mut footer.pod5_version);
        if footer
            .contents
            .iter()
            .all(|c| c.content_type != f.content_type)
        {
            footer.contents.push(f);
        }
    }
    for (want, what) in [
        (ContentType::SignalTable, "signal"),
        (ContentType::ReadsTable, "reads"),
    ] {
        if footer.contents.iter().all(|c| c.content_type != want) {
            return Err(container_err((
                stop,
                format!(
                    "no whole {what} table before byte {stop}: its reads cannot be \
                     recovered from this file"
                ),
            )));
        }
    }
    Ok(footer)
}

/// The signal table a killed writer left in `src` (a POD5 head, then the table without its
/// Arrow footer), read up to its last whole record batch, and the file identifier its schema
/// carries.
fn salvaged_signal(path: &Path, src: &Source) -> Result<(SignalTable, String), Pod5Error> {
    let head_ok = src
        .read_vec(0, container::HEAD_LEN)
        .is_ok_and(|h| h[..8] == container::SIGNATURE);
    if !head_ok {
        return Err(Pod5Error::Container {
            path: path.to_path_buf(),
            offset: 0,
            what: "not a POD5 file (signature mismatch)".into(),
        });
    }
    signal::parse_salvaged(src, container::HEAD_LEN as u64)
        .map_err(table_error(path, TableKind::Signal))
}

/// The parsed tables a reader is built from.
struct Tables {
    signal: SignalTable,
    reads: ipc::IpcFile,
    run_info: Option<ipc::IpcFile>,
}

/// The error of a table of `path`: a row's, or the whole table's.
fn table_error(path: &Path, table: TableKind) -> impl Fn(TableError) -> Pod5Error + '_ {
    move |(row, what): TableError| match row {
        Some(row) => Pod5Error::Row {
            path: path.to_path_buf(),
            table,
            row,
            what,
        },
        None => Pod5Error::Table {
            path: path.to_path_buf(),
            table,
            what,
        },
    }
}

/// The writer's version in the footer: which layout the tables have (lib_pod5 migrates by
/// it).
fn footer_version(path: &Path, footer: &Footer) -> Result<(u16, u16, u16), Pod5Error> {
    schema::parse_version(&footer.pod5_version).ok_or_else(|| Pod5Error::Container {
        path: path.to_path_buf(),
        offset: 0,
        what: format!(
            "footer pod5_version {:?} is not a version number (as 0.3.49)",
            footer.pod5_version
        ),
    })
}

/// A table's schema must carry the footer's file identifier when it carries one.
fn check_identifier(
    path: &Path,
    footer: &Footer,
    table: TableKind,
    file: &ipc::IpcFile,
) -> Result<(), Pod5Error> {
    check_identifier_of(path, &footer.file_identifier, "the footer's", table, file)
}

/// A table's schema must carry the file identifier `want` (`whose` it is) when it carries one.
fn check_identifier_of(
    path: &Path,
    want: &str,
    whose: &str,
    table: TableKind,
    file: &ipc::IpcFile,
) -> Result<(), Pod5Error> {
    match file.schema.metadata().get("MINKNOW:file_identifier") {
        Some(id) if id != want => Err(table_error(path, table)((
            None,
            format!("file identifier {id} differs from {whose} {want}"),
        ))),
        _ => Ok(()),
    }
}

impl Reader {
    /// Opens `path`, checks the container and parses the tables; each chunk's bytes are read
    /// when it is decoded (positioned reads, [`Access::ReadAt`]), by the thread that decodes
    /// it. Measured here on ONT's 1.3 MB files, a parallel decode of the whole file is as fast
    /// as from a memory map this way, and 5% slower when the opening thread reads the file
    /// whole first (the other cores then fetch every chunk from its cache).
    pub fn open(path: impl AsRef<Path>) -> Result<Self, Pod5Error> {
        Self::open_with(path, Access::ReadAt)
    }

    svb_io::reader_constructors!(svb_pod5, Pod5Error, Format::Pod5, "chunk", "reads.pod5");

    /// Opens `path` as [`open`](Reader::open) does, keeping only the reads whose id `keep`
    /// accepts: [`reads`](Reader::reads) holds those, in file order, and every index of this
    /// reader counts them alone (a file of the kept reads). The other rows of the reads table
    /// cost only the look at their id; what a lookup of a few reads in a merged file of
    /// millions needs.
    ///
    /// ```no_run
    /// use svb_pod5::{parse_uuid, Reader};
    /// let want = parse_uuid("0000173c-bf67-44e7-9a9c-1ad0bc728e74").unwrap();
    /// let file = Reader::open_filtered("merged.pod5", |id| *id == want)?;
    /// if let Some(i) = file.find("0000173c-bf67-44e7-9a9c-1ad0bc728e74") {
    ///     let signal = file.decode_signal(i)?;
    ///     println!("{} samples", signal.len());
    /// }
    /// # Ok::<(), svb_pod5::Pod5Error>(())
    /// ```
    pub fn open_filtered(
        path: impl AsRef<Path>,
        keep: impl Fn(&[u8; 16]) -> bool,
    ) -> Result<Self, Pod5Error> {
        let path = path.as_ref().to_path_buf();
        match Source::open_as(&path, Access::ReadAt, Format::Pod5) {
            Ok(src) => Self::from_source_keeping(path, src, &keep),
            Err(source) => Err(Pod5Error::Io { path, source }),
        }
    }

    fn from_source(path: PathBuf, src: Source) -> Result<Self, Pod5Error> {
        Self::from_source_keeping(path, src, &|_| true)
    }

    fn from_source_keeping(
        path: PathBuf,
        src: Source,
        keep: &dyn Fn(&[u8; 16]) -> bool,
    ) -> Result<Self, Pod5Error> {
        let footer = container::parse(&src).map_err(|(offset, what)| Pod5Error::Container {
            path: path.clone(),
            offset,
            what,
        })?;
        Self::from_footer(path, src, footer, keep)
    }

    /// Opens `path` as [`open`](Reader::open) does, and when its footer is missing or
    /// damaged (a writer that died while closing the file, a copy cut short) rebuilds it from
    /// the embedded tables found by scanning the file: every read is there when the signal,
    /// reads and run info tables are whole. A file ONT's writer left when it was killed (the
    /// signal table alone, the reads and run info in its hidden `.FILE_ID.tmp-reads` and
    /// `.FILE_ID.tmp-run-info` files beside it) gives the reads whose rows and signal were
    /// written (see [`from_killed_writer_bytes`](Reader::from_killed_writer_bytes)). Returns
    /// the reader and, for a rebuilt footer, what was wrong with the file. A table cut short
    /// is an error naming it.
    pub fn open_recovering(path: impl AsRef<Path>) -> Result<(Self, Option<String>), Pod5Error> {
        let path = path.as_ref().to_path_buf();
        let src = Source::open_as(&path, Access::ReadAt, Format::Pod5).map_err(|source| {
            Pod5Error::Io {
                path: path.clone(),
                source,
            }
        })?;
        Self::recovering_from_source(path, src, true)
    }

    /// [`open_recovering`](Reader::open_recovering) of a file already in memory (`path`
    /// names it in errors; no file beside it is looked for).
    pub fn from_bytes_recovering(
        path: impl Into<PathBuf>,
        bytes: Vec<u8>,
    ) -> Result<(Self, Option<String>), Pod5Error> {
        Self::recovering_from_source(path.into(), Source::from_vec(bytes), false)
    }

    /// The recovering open; `beside` looks for a killed writer's hidden files beside `path`.
    fn recovering_from_source(
        path: PathBuf,
        src: Source,
        beside: bool,
    ) -> Result<(Self, Option<String>), Pod5Error> {
        let fault = match container::parse(&src) {
            Ok(footer) => {
                return Self::from_footer(path, src, footer, &|_| true).map(|r| (r, None))
            }
            Err((offset, what)) => format!("at byte {offset}: {what}"),
        };
        let footer = match rebuilt_footer(&path, &src) {
            Ok(footer) => footer,
            Err(e) if !beside => return Err(e),
            Err(e) => {
                return match Self::killed_writer(path, src, &fault)? {
                    Some(r) => Ok(r),
                    None => Err(e),
                }
            }
        };
        let r = Self::from_footer(path, src, footer, &|_| true)?;
        Ok((r, Some(fault)))
    }

    /// A file ONT's writer (lib_pod5) left when it was killed, with the hidden files it keeps
    /// beside it until it closes (see [`from_killed_writer_bytes`]), found by the file
    /// identifier the signal table's schema carries (`.FILE_ID.tmp-reads`,
    /// `.FILE_ID.tmp-run-info`). `None` when the file is not such a file or the reads file
    /// is not there.
    ///
    /// [`from_killed_writer_bytes`]: Reader::from_killed_writer_bytes
    fn killed_writer(
        path: PathBuf,
        src: Source,
        fault: &str,
    ) -> Result<Option<(Self, Option<String>)>, Pod5Error> {
        let Ok((signal, id)) = salvaged_signal(&path, &src) else {
            return Ok(None);
        };
        let dir = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        let reads_path = dir.join(format!(".{id}.tmp-reads"));
        let run_info_path = dir.join(format!(".{id}.tmp-run-info"));
        if !reads_path.is_file() {
            return Ok(None);
        }
        let read = |p: &Path| {
            std::fs::read(p).map_err(|source| Pod5Error::Io {
                path: p.to_path_buf(),
                source,
            })
        };
        let reads = (reads_path.clone(), read(&reads_path)?);
        let run_info = (run_info_path.clone(), read(&run_info_path)?);
        let (r, said) = Self::killed_writer_parts(path, src, (signal, id), reads, run_info)?;
        Ok(Some((r, Some(format!("{fault}; {said}")))))
    }

    /// The reads of a POD5 file ONT's writer (lib_pod5) left when it was killed, its files
    /// already in memory: `bytes` the file itself (the signal table alone, without its Arrow
    /// footer), `reads` and `run_info` the hidden `.FILE_ID.tmp-reads` and
    /// `.FILE_ID.tmp-run-info` files it keeps beside it until it closes (Arrow IPC files
    /// without their footers). Each table is read up to its last whole record batch; a read
    /// whose signal rows were never written is left out and counted. Returns the reader and
    /// what was found and left out. [`open_recovering`](Reader::open_recovering) finds the
    /// hidden files itself.
    pub fn from_killed_writer_bytes(
        path: impl Into<PathBuf>,
        bytes: Vec<u8>,
        reads: Vec<u8>,
        run_info: Vec<u8>,
    ) -> Result<(Self, String), Pod5Error> {
        let path = path.into();
        let name = |ext: &str| path.with_extension(ext);
        let reads = (name("tmp-reads"), reads);
        let run_info = (name("tmp-run-info"), run_info);
        let src = Source::from_vec(bytes);
        let signal = salvaged_signal(&path, &src)?;
        Self::killed_writer_parts(path, src, signal, reads, run_info)
    }

    /// The reader over a killed writer's signal table (parsed by [`salvaged_signal`], with
    /// the file identifier its schema carries) and its hidden reads and run-info files.
    fn killed_writer_parts(
        path: PathBuf,
        src: Source,
        (signal, id): (SignalTable, String),
        (reads_path, reads): (PathBuf, Vec<u8>),
        (run_info_path, run_info): (PathBuf, Vec<u8>),
    ) -> Result<(Self, String), Pod5Error> {
        let at = container::HEAD_LEN as u64;
        let salvage = |p: &Path, bytes: &[u8], table: TableKind| {
            let (whole, batches) =
                ipc::completed(bytes).map_err(|what| table_error(p, table)((None, what)))?;
            let file = ipc::read(&Buffer::from_vec(whole))
                .map_err(|what| table_error(p, table)((None, what)))?;
            check_identifier_of(p, &id, "the signal table's", table, &file)?;
            Ok::<_, Pod5Error>((file, batches))
        };
        let (reads, read_batches) = salvage(&reads_path, &reads, TableKind::Reads)?;
        let run_info = Some(salvage(&run_info_path, &run_info, TableKind::RunInfo)?.0);
        let meta = reads.schema.metadata();
        let get = |key: &str| meta.get(key).cloned().unwrap_or_default();
        let footer = Footer {
            file_identifier: id,
            software: get("MINKNOW:software"),
            pod5_version: get("MINKNOW:pod5_version"),
            contents: vec![EmbeddedFile {
                offset: at,
                length: src.len() - at,
                content_type: ContentType::SignalTable,
            }],
        };
        let version = footer_version(&path, &footer)?;
        let signal_rows = signal.rows();
        let tables = Tables {
            signal,
            reads,
            run_info,
        };
        let (r, dropped) = Self::from_tables(path, src, footer, version, tables, &|_| true, true)?;
        let said = format!(
            "left by a writer that was killed: the signal table without its Arrow footer \
             ({signal_rows} rows in whole record batches), the reads from {} ({} reads in \
             {read_batches} whole record batches){}",
            reads_path.display(),
            r.len() + dropped,
            if dropped > 0 {
                format!(", {dropped} of them left out: their signal was never written")
            } else {
                String::new()
            }
        );
        Ok((r, said))
    }

    fn from_footer(
        path: PathBuf,
        src: Source,
        footer: Footer,
        keep: &dyn Fn(&[u8; 16]) -> bool,
    ) -> Result<Self, Pod5Error> {
        let table_err = |table: TableKind| table_error(&path, table);
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
                // A private copy: Arrow's arrays trust their offsets, so they must not point
                // into bytes another process could change.
                let bytes = src
                    .read_vec(f.offset, f.length as usize)
                    .map_err(|e| table_err(table)((None, format!("reading it: {e}"))))?;
                let file = ipc::read(&Buffer::from_vec(bytes))
                    .map_err(|what| table_err(table)((None, what)))?;
                Ok(Some(file))
            };
        let missing = |table: TableKind| table_err(table)((None, "missing from the footer".into()));

        let signal_file =
            find(ContentType::SignalTable, TableKind::Signal)?.ok_or(missing(TableKind::Signal))?;
        let signal = signal::parse(
            &src,
            signal_file.offset,
            signal_file.length,
            &footer.file_identifier,
        )
        .map_err(table_err(TableKind::Signal))?;
        let version = footer_version(&path, &footer)?;
        let reads_file = open_table(ContentType::ReadsTable, TableKind::Reads)?
            .ok_or(missing(TableKind::Reads))?;
        check_identifier(&path, &footer, TableKind::Reads, &reads_file)?;
        let run_info_file = open_table(ContentType::RunInfoTable, TableKind::RunInfo)?;
        let tables = Tables {
            signal,
            reads: reads_file,
            run_info: run_info_file,
        };
        Self::from_tables(path, src, footer, version, tables, keep, false).map(|(r, _)| r)
    }

    /// The reader over parsed tables. With `drop_unwritten`, a read whose signal rows are not
    /// all in the signal table (a writer killed before it wrote them) is left out and counted
    /// (the second value) instead of failing the open.
    fn from_tables(
        path: PathBuf,
        src: Source,
        footer: Footer,
        version: (u16, u16, u16),
        tables: Tables,
        keep: &dyn Fn(&[u8; 16]) -> bool,
        drop_unwritten: bool,
    ) -> Result<(Self, usize), Pod5Error> {
        let table_err = |table: TableKind| table_error(&path, table);
        let missing = |table: TableKind| table_err(table)((None, "missing from the footer".into()));
        let Tables {
            signal,
            reads: reads_file,
            run_info,
        } = tables;
        schema::check_reads(&reads_file.schema, version)
            .map_err(|what| table_err(TableKind::Reads)((None, what)))?;
        let table_version = if reads_file.schema.column_with_name("pore").is_some() {
            TableVersion::V0
        } else {
            TableVersion::V1OrLater
        };
        let (mut reads, embedded_runs) =
            reads::parse_reads(&reads_file.batches, |r| signal.samples(r), keep)
                .map_err(table_err(TableKind::Reads))?;
        let mut run_infos = match run_info {
            Some(f) => {
                check_identifier(&path, &footer, TableKind::RunInfo, &f)?;
                schema::check_run_info(&f.schema)
                    .map_err(|what| table_err(TableKind::RunInfo)((None, what)))?;
                run_info::parse_run_infos_batches(&f.batches)
                    .map_err(table_err(TableKind::RunInfo))?
            }
            None if schema::has_run_info_table(version) => {
                return Err(missing(TableKind::RunInfo));
            }
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

        let mut rows = Vec::new();
        let mut dropped = 0;
        if drop_unwritten {
            let before = reads.len();
            reads.retain(|read| {
                read.signal_rows
                    .iter()
                    .all(|&row| signal.get(row).is_some())
            });
            dropped = before - reads.len();
        }
        let mut by_id = HashMap::with_capacity(reads.len());
        for (i, read) in reads.iter().enumerate() {
            by_id.entry(read.read_id).or_insert(i);
            check_layout(read, &signal, &mut rows).map_err(|what| Pod5Error::Row {
                path: path.clone(),
                table: TableKind::Reads,
                row: i as u64,
                what: format!("read {}: {what}", read.read_id_string()),
            })?;
        }
        Ok((
            Reader {
                path,
                src,
                footer,
                reads,
                by_id,
                signal,
                run_infos,
                table_version,
            },
            dropped,
        ))
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

    /// The run `read` names (its `run_info` acquisition id), when the file has it.
    pub fn run_info_of(&self, read: &Read) -> Option<&RunInfo> {
        self.run_infos
            .iter()
            .find(|r| *r.acquisition_id == *read.run_info)
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
        self.by_id.get(&reads::parse_uuid(read_id)?).copied()
    }

    /// The read with this id, or `None`.
    pub fn read_by_id(&self, read_id: &str) -> Option<&Read> {
        self.find(read_id).map(|i| &self.reads[i])
    }

    /// Read `index` (file order); an index past the last read is [`Pod5Error::NoRead`].
    pub fn read(&self, index: usize) -> Result<&Read, Pod5Error> {
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
        &self,
        index: usize,
    ) -> Result<impl ExactSizeIterator<Item = (u64, &SignalRow)> + '_, Pod5Error> {
        self.read(index)?;
        Ok(self.rows(index))
    }

    /// [`chunk_rows`](Reader::chunk_rows) of an index known to be in range.
    fn rows(&self, index: usize) -> impl ExactSizeIterator<Item = (u64, &SignalRow)> + '_ {
        self.reads[index]
            .signal_rows
            .iter()
            .map(|&row| (row, self.signal.get(row).expect("rows checked at open")))
    }

    /// Decodes read `index`'s signal (its chunks in order) into `out`, whose length must be
    /// the read's `num_samples`.
    pub fn decode_signal_to_slice(&self, index: usize, out: &mut [i16]) -> Result<(), Pod5Error> {
        let read = self.read(index)?;
        if out.len() as u64 != read.num_samples {
            return Err(Pod5Error::OutputLength {
                read_id: read.read_id_string(),
                expected: read.num_samples,
                got: out.len(),
            });
        }
        let mut at = 0usize;
        for (row, r) in self.chunk_rows(index)? {
            let n = samples(r);
            self.decode_chunk(index, row, r, &mut out[at..at + n])?;
            at += n;
        }
        Ok(())
    }

    /// Decodes read `index`'s signal, appending it to `out`, which grows chunk by chunk with
    /// what is decoded (a chunk whose header lies about its size fails before its samples
    /// are allocated). `out` is left as it was on an error.
    pub fn decode_signal_into(&self, index: usize, out: &mut Vec<i16>) -> Result<(), Pod5Error> {
        let start = out.len();
        let r = self
            .chunk_rows(index)?
            .try_for_each(|(row, r)| self.append_chunk(index, row, r, out));
        if r.is_err() {
            out.truncate(start);
        }
        r
    }

    /// Appends one chunk's samples to `out`.
    fn append_chunk(
        &self,
        index: usize,
        row: u64,
        r: &SignalRow,
        out: &mut Vec<i16>,
    ) -> Result<(), Pod5Error> {
        let n = samples(r);
        self.with_chunk(index, row, r, |bytes| match self.signal.encoding {
            SignalEncoding::Vbz => svb_vbz::pod5_blob::decompress_signal_into(bytes, n, out)
                .map_err(|e| self.chunk_error(index, row, e)),
            SignalEncoding::Uncompressed => {
                // The row's bytes (checked at open to be 2 a sample) justify the samples.
                out.extend(
                    bytes
                        .chunks_exact(2)
                        .map(|c| i16::from_le_bytes([c[0], c[1]])),
                );
                Ok(())
            }
        })
    }

    /// Runs `f` on the stored bytes of one chunk.
    fn with_chunk<R>(
        &self,
        index: usize,
        row: u64,
        r: &SignalRow,
        f: impl FnOnce(&[u8]) -> Result<R, Pod5Error>,
    ) -> Result<R, Pod5Error> {
        self.src
            .with_bytes(r.offset, r.bytes as usize, f)
            .map_err(|e| Pod5Error::Row {
                path: self.path.clone(),
                table: TableKind::Signal,
                row,
                what: format!(
                    "read {}: reading {} bytes at byte {}: {e}",
                    self.reads[index].read_id_string(),
                    r.bytes,
                    r.offset
                ),
            })?
    }

    fn chunk_error(&self, index: usize, signal_row: u64, source: svb_vbz::VbzError) -> Pod5Error {
        Pod5Error::Signal {
            path: self.path.clone(),
            read_id: self.reads[index].read_id_string(),
            row: index as u64,
            signal_row,
            source,
        }
    }

    /// Read `index`'s signal in a new vector.
    pub fn decode_signal(&self, index: usize) -> Result<Vec<i16>, Pod5Error> {
        let mut out = Vec::new();
        self.decode_signal_into(index, &mut out)?;
        Ok(out)
    }

    /// Decodes every read on rayon (`threads`) and calls `f(index, read, signal)` for each,
    /// in parallel, in no particular order. Reads are taken in windows of about 4 million
    /// samples (at least one read): every chunk of a window is decoded on every core, largest
    /// first, into one buffer (kept by the calling thread for the next call), then `f` sees
    /// the window's reads. Memory stays at one window whatever the file's size; a read longer
    /// than a window is its own window, and its buffer grows a window's worth of chunks at a
    /// time, each only once the chunks before it have decoded.
    ///
    /// At the first window holding a read that fails, the error of its lowest failing read
    /// is returned; `f` has then been called for every read of the windows before it only.
    pub fn for_each_parallel<F>(&self, threads: Threads<'_>, f: F) -> Result<(), Pod5Error>
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
            let end = svb_io::window_end(
                start,
                self.reads.len(),
                usize::MAX,
                WINDOW_SAMPLES as u64,
                |i| self.reads[i].num_samples,
            );
            let mut offsets = Vec::with_capacity(end - start + 1);
            offsets.push(0usize);
            for read in &self.reads[start..end] {
                let total = *offsets.last().expect("non-empty");
                offsets.push(total.saturating_add(read.num_samples as usize));
            }
            let len = offsets[end - start];
            if len > WINDOW_SAMPLES {
                self.decode_long_read(start, buf)?;
            } else {
                let chunks = (start..end)
                    .flat_map(|index| self.rows(index).map(move |(row, r)| (index, row, r)));
                self.decode_chunks_at(buf, 0, len, chunks)?;
            }
            let buf = &buf[..len];
            (start..end).into_par_iter().for_each(|i| {
                let (a, b) = (offsets[i - start], offsets[i - start + 1]);
                f(i, &self.reads[i], &buf[a..b]);
            });
            start = end;
        }
        Ok(())
    }

    /// Decodes read `index`, longer than a window, into `buf[..num_samples]`: its chunks in
    /// groups of up to a window's samples, each group on every core once the groups before it
    /// have decoded (a chunk longer than a window alone, growing with what it decodes), so
    /// that `buf` never holds more than a window of samples not yet decoded.
    fn decode_long_read(&self, index: usize, buf: &mut Vec<i16>) -> Result<(), Pod5Error> {
        let rows: Vec<(u64, &SignalRow)> = self.rows(index).collect();
        let mut at = 0usize;
        let mut first = 0;
        while first < rows.len() {
            let mut last = first;
            let mut group = 0usize;
            while last < rows.len()
                && (last == first || group + samples(rows[last].1) <= WINDOW_SAMPLES)
            {
                group += samples(rows[last].1);
                last += 1;
            }
            if group > WINDOW_SAMPLES {
                let (row, r) = rows[first];
                buf.truncate(at);
                self.append_chunk(index, row, r, buf)?;
            } else {
                let chunks = rows[first..last].iter().map(|&(row, r)| (index, row, r));
                self.decode_chunks_at(buf, at, group, chunks)?;
            }
            at += group;
            first = last;
        }
        Ok(())
    }

    /// Decodes `chunks` (read index, signal row, row), holding `len` samples, back to back into
    /// `buf[at..]` on rayon, one task each, largest first; the error is the first chunk's in
    /// the given order. `buf` is grown to hold them, never shrunk: no zero-filling once the
    /// largest window is seen.
    fn decode_chunks_at<'r>(
        &'r self,
        buf: &mut Vec<i16>,
        at: usize,
        len: usize,
        chunks: impl Iterator<Item = (usize, u64, &'r SignalRow)>,
    ) -> Result<(), Pod5Error> {
        if buf.len() < at + len {
            buf.resize(at + len, 0);
        }
        let mut tasks = Vec::new();
        let mut rest = &mut buf[at..at + len];
        for (order, (index, row, r)) in chunks.enumerate() {
            let (part, tail) = rest.split_at_mut(samples(r));
            tasks.push((order, (index, row, r, part)));
            rest = tail;
        }
        svb_io::run_largest_first(
            tasks,
            |(order, (_, _, _, part))| (part.len(), *order),
            |(_, (index, row, r, part))| self.decode_chunk(index, row, r, part),
        )
    }

    /// Decodes one stored chunk (signal row `row`) of read `index` into `part`.
    fn decode_chunk(
        &self,
        index: usize,
        row: u64,
        r: &SignalRow,
        part: &mut [i16],
    ) -> Result<(), Pod5Error> {
        self.with_chunk(index, row, r, |bytes| match self.signal.encoding {
            SignalEncoding::Vbz => svb_vbz::pod5_blob::decompress_signal(bytes, part)
                .map_err(|e| self.chunk_error(index, row, e)),
            SignalEncoding::Uncompressed => {
                // Checked at open: 2 bytes a sample.
                for (s, c) in part.iter_mut().zip(bytes.chunks_exact(2)) {
                    *s = i16::from_le_bytes([c[0], c[1]]);
                }
                Ok(())
            }
        })
    }
}

/// A row's sample count (rows a read refers to were checked at open to have one).
fn samples(r: &SignalRow) -> usize {
    r.samples.unwrap_or(0) as usize
}

thread_local! {
    /// The calling thread's window buffer, kept between calls (a fresh one would be
    /// zero-filled and page-faulted in again for every file).
    static WINDOW_BUFFER: std::cell::Cell<Vec<i16>> = const { std::cell::Cell::new(Vec::new()) };
}

/// Samples decoded together by [`Reader::for_each_parallel`] (8 MiB of int16).
const WINDOW_SAMPLES: usize = 4 << 20;

/// A window buffer up to this many samples (32 MiB) stays with its thread (a single read
/// longer than a window makes a larger one, which is dropped).
const KEEP_WINDOW_BUFFER: usize = 16 << 20;

/// A read's signal rows must exist, have a sample count, be distinct, and their sample
/// counts add up to `num_samples`. `sorted` is scratch space, reused across reads.
fn check_layout(read: &Read, signal: &SignalTable, sorted: &mut Vec<u64>) -> Result<(), String> {
    let mut total = 0u64;
    for &row in &read.signal_rows {
        let Some(r) = signal.get(row) else {
            return Err(format!(
                "signal row {row} is past the signal table ({} rows)",
                signal.rows()
            ));
        };
        let Some(n) = r.samples else {
            return Err(format!("signal row {row} is null or has no sample count"));
        };
        total += u64::from(n);
    }
    if total != read.num_samples {
        return Err(format!(
            "num_samples is {}, its signal rows hold {total}",
            read.num_samples
        ));
    }
    sorted.clear();
    sorted.extend_from_slice(&read.signal_rows);
    sorted.sort_unstable();
    if let Some(w) = sorted.windows(2).find(|w| w[0] == w[1]) {
        return Err(format!("signal row {} is listed twice", w[0]));
    }
    Ok(())
}
