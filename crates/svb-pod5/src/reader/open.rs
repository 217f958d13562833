//! Opening a POD5 file: the container and footer checked, the tables read.

use std::path::{Path, PathBuf};

use arrow_buffer::Buffer;
use svb_io::{Access, Source};

use super::tables::{check_identifier, footer_version, table_error, Tables};
use super::Reader;
use crate::container::{self, ContentType, EmbeddedFile, Footer};
use crate::error::{Pod5Error, TableKind};
use crate::ipc;
use crate::signal::{self, SignalEncoding};

impl Reader {
    /// Opens `path`, checks the container and parses the tables; each chunk's bytes are read
    /// when it is decoded (positioned reads, [`Access::ReadAt`]), by the thread that decodes
    /// it. Measured here on ONT's 1.3 MB files, a parallel decode of the whole file is as fast
    /// as from a memory map this way, and 5% slower when the opening thread reads the file
    /// whole first (the other cores then fetch every chunk from its cache).
    pub fn open(path: impl AsRef<Path>) -> Result<Self, Pod5Error> {
        Self::open_with(path, Access::ReadAt)
    }

    svb_io::reader_constructors!(svb_pod5, Pod5Error, crate::FILE_KIND, "chunk", "reads.pod5");

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
        path: impl AsRef<Path>, keep: impl Fn(&[u8; 16]) -> bool,
    ) -> Result<Self, Pod5Error> {
        let path = path.as_ref().to_path_buf();
        match Source::open_as(&path, Access::ReadAt, &crate::FILE_KIND) {
            Ok(src) => Self::from_source_keeping(path, src, &keep),
            Err(source) => Err(Pod5Error::Io { path, source }),
        }
    }

    /// How the file at `path` stores signal, read from its footer and its signal table's
    /// schema alone (a few KiB whatever the file's size; no table is parsed).
    ///
    /// ```no_run
    /// let encoding = svb_pod5::Reader::signal_encoding_of("reads.pod5")?;
    /// println!("signal: {encoding}");
    /// # Ok::<(), svb_pod5::Pod5Error>(())
    /// ```
    pub fn signal_encoding_of(path: impl AsRef<Path>) -> Result<SignalEncoding, Pod5Error> {
        let path = path.as_ref().to_path_buf();
        let src = Source::open_as(&path, Access::ReadAt, &crate::FILE_KIND)
            .map_err(|source| Pod5Error::Io { path: path.clone(), source })?;
        let footer = container::parse(&src).map_err(|(offset, what)| Pod5Error::Container {
            path: path.clone(),
            offset,
            what,
        })?;
        let table = footer
            .contents
            .iter()
            .find(|f| f.content_type == ContentType::SignalTable)
            .ok_or_else(|| {
                table_error(&path, TableKind::Signal)((None, "missing from the footer".into()))
            })?;
        signal::encoding_from_footer(&src, table.offset, table.length)
            .map_err(table_error(&path, TableKind::Signal))
    }

    fn from_source(path: PathBuf, src: Source) -> Result<Self, Pod5Error> {
        Self::from_source_keeping(path, src, &|_| true)
    }

    fn from_source_keeping(
        path: PathBuf, src: Source, keep: &dyn Fn(&[u8; 16]) -> bool,
    ) -> Result<Self, Pod5Error> {
        let footer = container::parse(&src).map_err(|(offset, what)| Pod5Error::Container {
            path: path.clone(),
            offset,
            what,
        })?;
        Self::from_footer(path, src, footer, keep)
    }

    pub(super) fn from_footer(
        path: PathBuf, src: Source, footer: Footer, keep: &dyn Fn(&[u8; 16]) -> bool,
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
        plan_tables(&path, &src, &footer, &signal_file)?;
        // An object's signal table is read when a read's signal is first asked for (`view`
        // and `info` fetch none of it); a local file's now, every read's layout checked.
        let (at, len, id) = (signal_file.offset, signal_file.length, &footer.file_identifier);
        let signal = match src.is_remote() {
            true => signal::open_footer(&src, at, len, id).map(super::Signal::deferred),
            false => signal::parse(&src, at, len, id).map(super::Signal::parsed),
        }
        .map_err(table_err(TableKind::Signal))?;
        let version = footer_version(&path, &footer)?;
        let reads_file = open_table(ContentType::ReadsTable, TableKind::Reads)?
            .ok_or(missing(TableKind::Reads))?;
        check_identifier(&path, &footer, TableKind::Reads, &reads_file)?;
        let run_info_file = open_table(ContentType::RunInfoTable, TableKind::RunInfo)?;
        let tables = Tables { signal, reads: reads_file, run_info: run_info_file };
        Self::from_tables(path, src, footer, version, tables, keep, false).map(|(r, _)| r)
    }
}

/// Fetches at once what opening reads after the footer, when `src` is an object's (a local
/// file's reads cost no round trip): the reads and run-info tables (up to 4 MiB each; a
/// larger one is read whole as one request anyway) and the signal table's Arrow footer:
/// exactly, by its length field, where the end of the table was fetched with the file's
/// tail, else its last 256 KiB. Most files' tables and signal footer lie in the tail
/// fetched with the footer, and this asks for nothing.
fn plan_tables(
    path: &Path, src: &Source, footer: &Footer, signal: &EmbeddedFile,
) -> Result<(), Pod5Error> {
    const TABLE: u64 = 4 << 20;
    const ARROW_FOOTER: u64 = 256 << 10;
    if !src.is_remote() {
        return Ok(());
    }
    let mut plan: Vec<std::ops::Range<u64>> = footer
        .contents
        .iter()
        .filter(|f| {
            matches!(f.content_type, ContentType::ReadsTable | ContentType::RunInfoTable)
                && f.length <= TABLE
        })
        .map(|f| f.offset..f.offset.saturating_add(f.length))
        .collect();
    let end = signal.offset.saturating_add(signal.length);
    let speculative = end.saturating_sub(ARROW_FOOTER).max(signal.offset)..end;
    // An Arrow file ends in its footer, the footer's i32 length, and 6 magic bytes.
    let last = end.saturating_sub(10).max(signal.offset)..end;
    let exact = match src.has_fetched(last.clone()) {
        true => src
            .read_vec(last.start, 10)
            .ok()
            .and_then(|t| u32::try_from(i32::from_le_bytes(t[..4].try_into().ok()?)).ok())
            .map(|n| last.start.saturating_sub(u64::from(n))..end)
            .filter(|r| r.start >= signal.offset),
        false => None,
    };
    plan.push(exact.unwrap_or(speculative));
    src.prefetch(&plan).map_err(|source| Pod5Error::Io { path: path.to_path_buf(), source })
}
