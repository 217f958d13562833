//! Saving what a damaged POD5 file holds: a footer rebuilt from the tables a scan finds,
//! or the tables a killed writer left in its hidden files.

use std::path::{Path, PathBuf};

use arrow_buffer::Buffer;
use svb_io::{Access, Source};

use super::tables::{check_identifier_of, footer_version, table_error, Tables};
use super::Reader;
use crate::container::{self, ContentType, EmbeddedFile, Footer};
use crate::error::{Pod5Error, TableKind};
use crate::ipc;
use crate::signal::{self, SignalTable};

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
        if footer.contents.iter().all(|c| c.content_type != f.content_type) {
            footer.contents.push(f);
        }
    }
    for (want, what) in [(ContentType::SignalTable, "signal"), (ContentType::ReadsTable, "reads")] {
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
    let head_ok =
        src.read_vec(0, container::HEAD_LEN).is_ok_and(|h| h[..8] == container::SIGNATURE);
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

impl Reader {
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
        let src = Source::open_as(&path, Access::ReadAt, &crate::FILE_KIND)
            .map_err(|source| Pod5Error::Io { path: path.clone(), source })?;
        Self::recovering_from_source(path, src, true)
    }

    /// [`open_recovering`](Reader::open_recovering) of a file already in memory (`path`
    /// names it in errors; no file beside it is looked for).
    pub fn from_bytes_recovering(
        path: impl Into<PathBuf>, bytes: Vec<u8>,
    ) -> Result<(Self, Option<String>), Pod5Error> {
        Self::recovering_from_source(path.into(), Source::from_vec(bytes), false)
    }

    /// The recovering open; `beside` looks for a killed writer's hidden files beside `path`.
    fn recovering_from_source(
        path: PathBuf, src: Source, beside: bool,
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

    /// The hidden files ONT's writer keeps beside the POD5 file at `path` while it writes it
    /// (`.FILE_ID.tmp-reads`, `.FILE_ID.tmp-run-info`, found by the file identifier its signal
    /// table's schema carries), those that are there: what a killed writer left, which
    /// [`open_recovering`](Reader::open_recovering) reads and `pod5 recover --cleanup`
    /// removes once the file is recovered. Empty for any other file.
    pub fn writer_side_files(path: impl AsRef<Path>) -> Vec<PathBuf> {
        let path = path.as_ref();
        let Ok(src) = Source::open_as(path, Access::ReadAt, &crate::FILE_KIND) else {
            return Vec::new();
        };
        let Ok((_, id)) = salvaged_signal(path, &src) else {
            return Vec::new();
        };
        let dir = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        ["tmp-reads", "tmp-run-info"]
            .iter()
            .map(|kind| dir.join(format!(".{id}.{kind}")))
            .filter(|p| p.is_file())
            .collect()
    }

    /// A file ONT's writer (lib_pod5) left when it was killed, with the hidden files it keeps
    /// beside it until it closes (see [`from_killed_writer_bytes`]), found by the file
    /// identifier the signal table's schema carries (`.FILE_ID.tmp-reads`,
    /// `.FILE_ID.tmp-run-info`). `None` when the file is not such a file or the reads file
    /// is not there.
    ///
    /// [`from_killed_writer_bytes`]: Reader::from_killed_writer_bytes
    fn killed_writer(
        path: PathBuf, src: Source, fault: &str,
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
            std::fs::read(p).map_err(|source| Pod5Error::Io { path: p.to_path_buf(), source })
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
        path: impl Into<PathBuf>, bytes: Vec<u8>, reads: Vec<u8>, run_info: Vec<u8>,
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
        path: PathBuf, src: Source, (signal, id): (SignalTable, String),
        (reads_path, reads): (PathBuf, Vec<u8>), (run_info_path, run_info): (PathBuf, Vec<u8>),
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
        let tables = Tables { signal: super::Signal::parsed(signal), reads, run_info };
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
}
