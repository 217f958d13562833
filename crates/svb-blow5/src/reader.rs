//! [`Reader`]: an open BLOW5 file, its records located at open and decoded on demand.

use std::path::{Path, PathBuf};
use std::sync::{Mutex, RwLock};

use rayon::prelude::*;
use svb_io::{Access, Source, Threads};
use svb_model::Form;

use super::header::{self, Header, RecordCompression, SignalCompression};
use super::inflate;
use super::record::{i16s_le_into, Fields, Record};
use super::text;
use super::EOF_MARKER;
use crate::Blow5Error;
use svb_slow5_signal::{ExZdDecoder, SignalError};

/// Where a file opened by [`Reader::open_recovering`] ends early: the offset of the first
/// byte not in a whole record, the bytes from there to the end, and what is wrong there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cut {
    /// Offset of the first byte after the last whole record.
    pub offset: u64,
    /// Bytes from there to the end of the file (lost).
    pub bytes: u64,
    /// What is there instead of a record or the end marker.
    pub what: String,
}

/// Where a record's bytes are in the file.
#[derive(Clone, Copy, Debug)]
struct Span {
    index: usize,
    /// Offset of the size field.
    at: u64,
    start: u64,
    end: u64,
}

/// Parses the header of a BLOW5 or SLOW5 file (told apart by their first bytes).
fn parse_header(src: &Source) -> std::io::Result<Result<Header, String>> {
    let head = src.read_vec(0, src.len().min(text::SIGNATURE.len() as u64) as usize)?;
    if head != text::SIGNATURE {
        return Ok(header::parse(&header_bytes(src)?));
    }
    // A SLOW5 header ends with its #read_id line: read until that line is whole.
    let mut want = 1u64 << 16;
    loop {
        let bytes = src.read_vec(0, src.len().min(want) as usize)?;
        if let Some(len) = text::header_len(&bytes) {
            return Ok(text::parse_header(&bytes[..len]));
        }
        if bytes.len() as u64 == src.len() {
            return Ok(Err(
                "no #read_id names line ending in a newline: the header is cut short".into()
            ));
        }
        want *= 4;
    }
}

/// The header's bytes: the 68-byte binary block and the text header it announces (as much of
/// them as the file holds).
fn header_bytes(src: &Source) -> std::io::Result<Vec<u8>> {
    let fixed = src.read_vec(0, src.len().min(68) as usize)?;
    let Some(text_len) = fixed.get(64..68) else {
        return Ok(fixed);
    };
    let text_len = u32::from_le_bytes(text_len.try_into().expect("4 bytes"));
    let text = src.read_vec(68, (src.len() - 68).min(u64::from(text_len)) as usize)?;
    Ok([fixed, text].concat())
}

/// The header of the file at `path` whose bytes are `src`, parsed; its errors said of `path`.
fn header_of(path: &Path, src: &Source) -> Result<Header, Blow5Error> {
    parse_header(src)
        .map_err(|source| Blow5Error::Io { path: path.to_path_buf(), source })?
        .map_err(|what| Blow5Error::Header { path: path.to_path_buf(), what })
}

/// Sequential small reads from a source: slices of an in-memory file, or reads through a
/// window read on demand: 1 MiB where the reads lie close together (many small records to
/// a read), 4 KiB where they lie far apart on average (large records: a 1 MiB window would
/// read 8 records' bytes for each 8-byte size field it serves).
struct ByteWindow<'a> {
    src: &'a Source,
    start: u64,
    bytes: Vec<u8>,
    /// Where the last read was, and the distance between reads, averaged (each new
    /// distance weighing a quarter).
    last: u64,
    stride: u64,
}

impl<'a> ByteWindow<'a> {
    /// The window where reads lie close together.
    const SIZE: u64 = 1 << 20;
    /// The window where they lie further apart than [`FAR`](Self::FAR).
    const SMALL: u64 = 4096;
    const FAR: u64 = 16 << 10;

    fn new(src: &'a Source) -> Self {
        ByteWindow { src, start: 0, bytes: Vec::new(), last: 0, stride: 0 }
    }

    /// `n` bytes at `at` (which the caller checked lie in the file).
    fn get(&mut self, at: u64, n: usize) -> std::io::Result<&[u8]> {
        if let Some(all) = self.src.as_slice() {
            let r = self.src.check_range(at, n as u64)?;
            return Ok(&all[r]);
        }
        self.stride = (3 * self.stride + at.abs_diff(self.last)) / 4;
        self.last = at;
        let inside = at >= self.start && at + n as u64 <= self.start + self.bytes.len() as u64;
        if !inside {
            let size = match self.stride > Self::FAR {
                true => Self::SMALL,
                false => Self::SIZE,
            };
            let len = size.max(n as u64).min(self.src.len().saturating_sub(at));
            self.bytes = self.src.read_vec(at, len as usize)?;
            self.start = at;
        }
        let from = (at - self.start) as usize;
        self.bytes.get(from..from + n).ok_or_else(|| std::io::ErrorKind::UnexpectedEof.into())
    }
}

/// An open BLOW5 file: its header parsed and every record located; records are decoded when
/// asked for.
///
/// [`Reader::open`] reads a file of up to 64 MiB into memory and reads larger ones record by
/// record (positioned reads), so another process rewriting or truncating the file gives
/// wrong records or errors, never undefined behaviour. [`Reader::open_mapped`] maps the file
/// instead, under an `unsafe` contract.
#[derive(Debug)]
pub struct Reader {
    path: PathBuf,
    src: Source,
    header: Header,
    spans: Vec<Span>,
    /// Whether every span's size field was read at open; a reader opened through an index
    /// reads it with the record instead, and checks it there.
    sizes_read: bool,
    /// Read id -> record, for lookups by id: given ([`Reader::use_index`]: checked against
    /// the records it leads to) or read from the records on the first lookup.
    pub(crate) lookup: RwLock<super::lookup::Lookup>,
}

impl Reader {
    /// The file's bytes (for the model's reads: [`ReadSource::expect_scan`](svb_model::ReadSource::expect_scan)).
    pub(crate) fn source(&self) -> &Source {
        &self.src
    }

    /// Opens `path` (read whole up to 64 MiB, by positioned reads above), parses the header
    /// and finds every record and the end marker. Records are decoded when asked for.
    pub fn open(path: impl AsRef<Path>) -> Result<Self, Blow5Error> {
        Self::open_with(path, Access::Auto)
    }

    svb_io::reader_constructors!(svb_blow5, Blow5Error, crate::FILE_KIND, "record", "reads.blow5");

    fn from_source(path: PathBuf, src: Source) -> Result<Self, Blow5Error> {
        Self::from_source_with(path, src, false).map(|(r, _)| r)
    }

    /// Opens `path` as [`open`](Reader::open) does, but a file that ends early (its end
    /// marker missing, its last record or line cut) is opened with the whole records before
    /// the cut, and the cut is returned: what `svb recover` saves from a file whose writer
    /// died. A record whose size fits but whose bytes are damaged is still an error when it
    /// is decoded.
    pub fn open_recovering(path: impl AsRef<Path>) -> Result<(Reader, Option<Cut>), Blow5Error> {
        let path = path.as_ref().to_path_buf();
        match Source::open_as(&path, Access::Auto, &crate::FILE_KIND) {
            Ok(src) => Self::from_source_with(path, src, true),
            Err(source) => Err(Blow5Error::Io { path, source }),
        }
    }

    /// [`open_recovering`](Reader::open_recovering) of a file already in memory (`path` names
    /// it in errors).
    pub fn from_bytes_recovering(
        path: impl Into<PathBuf>, bytes: Vec<u8>,
    ) -> Result<(Reader, Option<Cut>), Blow5Error> {
        Self::from_source_with(path.into(), Source::from_vec(bytes), true)
    }

    fn from_source_with(
        path: PathBuf, src: Source, recover: bool,
    ) -> Result<(Self, Option<Cut>), Blow5Error> {
        let io = |source| Blow5Error::Io { path: path.clone(), source };
        let header = header_of(&path, &src)?;
        // SLOW5 text is read whole to find its lines: an object's is copied once into a
        // temporary file and read from there, rather than fetched again for its records.
        let src = match header.form {
            Form::Text => src.spooled().map_err(io)?,
            Form::Binary => src,
        };
        let len = src.len();
        let mut cut = None;
        let spans = if header.form == Form::Text {
            let (spans, rest) = text_lines(&src, header.data_start as u64).map_err(io)?;
            if let Some(offset) = rest {
                let what = "the file ends inside this line (no newline after it): cut short?";
                if !recover {
                    return Err(Blow5Error::Record {
                        path,
                        index: spans.len(),
                        offset,
                        what: what.into(),
                    });
                }
                cut = Some(Cut { offset, bytes: len - offset, what: what.into() });
            }
            spans
        } else {
            let mut spans = Vec::new();
            let mut at = header.data_start as u64;
            let mut window = ByteWindow::new(&src);
            loop {
                let left = len - at.min(len);
                if left == EOF_MARKER.len() as u64
                    && window.get(at, EOF_MARKER.len()).map_err(io)? == EOF_MARKER
                {
                    break;
                }
                if left < 8 {
                    let rest = window.get(at, left as usize).map_err(io)?;
                    let what = format!("{} bytes left, not the 5-byte marker 5WOLB", rest.len());
                    if !recover {
                        return Err(Blow5Error::Eof { path, offset: at, what });
                    }
                    cut = Some(Cut {
                        offset: at,
                        bytes: left,
                        what: format!("the end marker is missing: {what}"),
                    });
                    break;
                }
                let size =
                    u64::from_le_bytes(window.get(at, 8).map_err(io)?.try_into().expect("8 bytes"));
                let start = at + 8;
                if size > len - start {
                    let what = format!(
                        "size {size} runs past the end of the file ({} bytes left)",
                        len - start
                    );
                    if !recover {
                        return Err(Blow5Error::Record {
                            path,
                            index: spans.len(),
                            offset: at,
                            what,
                        });
                    }
                    cut = Some(Cut {
                        offset: at,
                        bytes: len - at,
                        what: format!("record {} is cut: {what}", spans.len()),
                    });
                    break;
                }
                let end = start + size;
                spans.push(Span { index: spans.len(), at, start, end });
                at = end;
            }
            spans
        };
        let lookup = RwLock::default();
        let reader = Reader { path, src, header, spans, sizes_read: true, lookup };
        Ok((reader, cut))
    }

    /// Opens `path` with the record positions of `index` (slow5lib's `FILE.idx` of it)
    /// instead of reading every record's size field: the header is parsed, the index's
    /// records checked to run back to back from the first record to the end marker, and the
    /// end marker read; no record is read until it is decoded (by positioned reads), when
    /// its own size field is checked against the index. What a lookup of a few reads in a
    /// large file needs: `svb get` of one read of a 2000-read file reads a few KiB.
    ///
    /// An index of another file, or of an older version of this one, is an error here when
    /// its positions do not fit the file, and otherwise an error when a record is decoded
    /// (its size field is not the index's). Its read ids are not taken from it: a lookup by
    /// id through it ([`Reader::use_index`]) checks the record's own.
    pub fn open_indexed(path: impl AsRef<Path>, index: &super::Index) -> Result<Self, Blow5Error> {
        let path = path.as_ref().to_path_buf();
        let io = |source| Blow5Error::Io { path: path.clone(), source };
        let src = Source::open_as(&path, Access::ReadAt, &crate::FILE_KIND).map_err(io)?;
        let header = header_of(&path, &src)?;
        let text = header.form == Form::Text;
        let misfit = |what: String| Blow5Error::Header {
            path: path.clone(),
            what: format!("the index does not fit the file: {what}"),
        };
        let len = src.len();
        let mut spans = Vec::with_capacity(index.len());
        let mut at = header.data_start as u64;
        for (i, (offset, size)) in index.positions().enumerate() {
            if offset != at {
                return Err(misfit(format!(
                    "record {i} at byte {offset}, the one before it ends at {at}"
                )));
            }
            let end = offset
                .checked_add(size)
                .filter(|&e| size >= if text { 1 } else { 8 } && e <= len)
                .ok_or_else(|| misfit(format!("record {i}: {size} bytes at byte {offset}")))?;
            spans.push(Span { index: i, at, start: if text { at } else { at + 8 }, end });
            at = end;
        }
        if text && at != len {
            return Err(misfit(format!("the records end at byte {at}, the file at {len}")));
        }
        if !text
            && (len.checked_sub(at) != Some(EOF_MARKER.len() as u64)
                || src.read_vec(at, EOF_MARKER.len()).map_err(io)? != EOF_MARKER)
        {
            return Err(misfit(format!(
                "the records end at byte {at}, not at the end marker ({len} bytes)"
            )));
        }
        Ok(Reader { path, src, header, spans, sizes_read: false, lookup: RwLock::default() })
    }

    /// The header.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Number of records.
    pub fn len(&self) -> usize {
        self.spans.len()
    }

    /// Whether the file holds no record.
    pub fn is_empty(&self) -> bool {
        self.spans.is_empty()
    }

    /// The records in file order, each decoded when the iterator reaches it.
    pub fn records(&self) -> impl Iterator<Item = Result<Record, Blow5Error>> + '_ {
        let mut exzd = ExZdDecoder::new();
        self.spans.iter().map(move |s| self.decode(s, &mut exzd))
    }

    /// Record `index` (file order); an index past the last record is
    /// [`Blow5Error::NoRecord`].
    pub fn record(&self, index: usize) -> Result<Record, Blow5Error> {
        self.decode(self.span(index)?, &mut ExZdDecoder::new())
    }

    /// Record `index`'s span, or the error naming an index past the last record.
    fn span(&self, index: usize) -> Result<&Span, Blow5Error> {
        self.spans.get(index).ok_or_else(|| Blow5Error::NoRecord {
            path: self.path.clone(),
            index,
            len: self.spans.len(),
        })
    }

    /// Where record `index` lies: `(offset of its u64 size field, size with that field)`, as
    /// slow5lib's index gives it.
    pub fn record_span(&self, index: usize) -> Option<(u64, u64)> {
        let s = self.spans.get(index)?;
        Some((s.at, s.end - s.at))
    }

    /// The index of the record whose size field is at `offset` and which takes `size` bytes
    /// with it (a position from an index; `None` when no record is there).
    pub fn record_at(&self, offset: u64, size: u64) -> Option<usize> {
        let i = self.spans.partition_point(|s| s.at < offset);
        (self.record_span(i)? == (offset, size)).then_some(i)
    }

    /// Where records `records` lie when they follow each other in the file: `(offset of the
    /// first one's size field, bytes up to the end of the last)`; `None` for SLOW5 text, an
    /// empty range, one past the end, or a file opened through an index (whose size fields
    /// were not read).
    pub fn stored_span(&self, records: std::ops::Range<usize>) -> Option<(u64, u64)> {
        if self.is_text() || records.is_empty() || !self.sizes_read {
            return None;
        }
        let first = self.spans.get(records.start)?;
        let last = self.spans.get(records.end - 1)?;
        Some((first.at, last.end - first.at))
    }

    /// Record `index`'s read id: only the id is parsed, as slow5lib's index builder does, so
    /// a record whose other fields are damaged still has an id; and only the record's first
    /// bytes are read for it ([`record_head`](Reader::record_head)'s way), so that reading
    /// every record's id (an index built, or one that came with the file checked) reads a
    /// few KiB a record, not the records.
    pub fn read_id(&self, index: usize) -> Result<String, Blow5Error> {
        let s = self.span(index)?;
        if self.is_text() {
            return self.with_body(s, |body| {
                text::read_id(body).map(str::to_owned).map_err(|w| self.record_error(s, w))
            });
        }
        Ok(self.head(s, false)?.0)
    }

    /// Record `index`'s read id and read group, from the record's first bytes only: what a
    /// copy of stored records needs to know of each (a zstd record has its first block
    /// inflated, a zlib one its first bytes; the rest is neither read nor checked). The read
    /// group is checked against the header's.
    pub fn record_head(&self, index: usize) -> Result<(String, u32), Blow5Error> {
        let s = self.span(index)?;
        let (id, group) = if self.is_text() {
            self.with_body(s, |body| {
                let err = |what: String| self.record_error(s, what);
                let mut record = Record::default();
                text::parse_record(body, &self.header, false, &mut record).map_err(err)?;
                Ok((record.read_id, record.read_group))
            })?
        } else {
            let (id, group) = self.head(s, true)?;
            (id, group.expect("read with the id"))
        };
        if group as usize >= self.header.read_groups.len() {
            let what = format!(
                "read group {group}, the header declares {}",
                self.header.read_groups.len()
            );
            return Err(self.record_error(s, what));
        }
        Ok((id, group))
    }

    /// The read id at the start of BLOW5 record `s` and, with `group`, the read group after
    /// it, from the record's first bytes: the first 4 KiB; then, where they do not inflate to
    /// that much, a zstd record's first block (the first bytes say where it ends), or the
    /// whole record. A record located through an index has its size field read with it and
    /// checked.
    fn head(&self, s: &Span, group: bool) -> Result<(String, Option<u32>), Blow5Error> {
        // Its length, then the id (at most 65535 bytes), then the read group.
        let after = if group { 4 } else { 0 };
        let needs = |body: &[u8]| {
            body.get(..2).map(|l| 2 + after + u16::from_le_bytes([l[0], l[1]]) as usize)
        };
        let parse = |body: &[u8]| -> Result<Option<(String, Option<u32>)>, String> {
            let Some(n) = needs(body) else { return Ok(None) };
            let Some(head) = body.get(2..n) else { return Ok(None) };
            let (id, rest) = head.split_at(n - 2 - after);
            let id = std::str::from_utf8(id).map_err(|e| format!("read_id: {e}"))?;
            let group = group.then(|| u32::from_le_bytes(rest.try_into().expect("4 bytes")));
            Ok(Some((id.to_string(), group)))
        };
        // Opened through an index: the size field comes first, and is checked.
        let size_field = if self.sizes_read { 0 } else { 8 };
        let stored = (s.end - s.start) as usize;
        let mut take = stored.min(4 << 10);
        let mut want = 512;
        loop {
            let found = self
                .src
                .with_bytes(s.start - size_field, take + size_field as usize, |raw| {
                    let raw = match size_field {
                        0 => raw,
                        _ => self.sized_prefix(s, raw)?,
                    };
                    let inflate_err = |source| Blow5Error::Inflate {
                        path: self.path.clone(),
                        index: s.index,
                        offset: s.at,
                        source,
                    };
                    let f = |body: &[u8]| {
                        let got = parse(body).map_err(|what| self.record_error(s, what))?;
                        Ok((got, needs(body)))
                    };
                    let compression = self.header.record_compression;
                    let found = inflate::head(compression, raw, stored, want, f, inflate_err)?;
                    let block = match compression {
                        RecordCompression::Zstd => svb_io::zstd_frame::first_block_end(raw),
                        _ => None,
                    };
                    Ok::<_, Blow5Error>((found, block))
                })
                .map_err(self.record_io(s))??;
            match found {
                ((Some(got), _), _) => return Ok(got),
                ((None, Some(needs)), _) if needs > want => want = needs,
                (_, Some(end)) if end > take && end < stored => take = end,
                _ if take < stored => take = stored,
                _ => {
                    let what = match group {
                        true => "the record ends inside its read id or group",
                        false => "the record ends inside its read id",
                    };
                    return Err(self.record_error(s, what.into()));
                }
            }
        }
    }

    /// Decodes record `index` into `record`, reusing its buffers (signal, read id, auxiliary
    /// fields): once they have grown, decoding allocates nothing. On an error `record`'s
    /// contents are unspecified.
    pub fn record_into(&self, index: usize, record: &mut Record) -> Result<(), Blow5Error> {
        self.decode_into(self.span(index)?, &mut ExZdDecoder::new(), record)
    }

    /// Every record, decoded in parallel on `threads`, in file order; the error, if any, is
    /// the first failing record's.
    ///
    /// A file read into memory whose records and signal are both uncompressed is copied out
    /// on the calling thread: there is nothing to decode, and moving the bytes the opening
    /// thread just read to another core costs more than the copy (measured here, open then
    /// decode of a 3 MB file: 254 us all on one thread, 340 us decoding on 2 cores, 424 us
    /// decoding on one other core).
    pub fn decode_all(&self, threads: Threads<'_>) -> Result<Vec<Record>, Blow5Error> {
        if self.is_plain_copy() {
            return self.records().collect();
        }
        let mut decoded: Vec<(usize, Result<Record, Blow5Error>)> = threads.run(|| {
            self.largest_first()
                .into_par_iter()
                .with_max_len(1)
                .map_init(ExZdDecoder::new, |dec, s| (s.index, self.decode(s, dec)))
                .collect()
        });
        decoded.sort_unstable_by_key(|&(index, _)| index);
        decoded.into_iter().map(|(_, r)| r).collect()
    }

    /// Decodes every record on `threads` and calls `f(index, record)` for each,
    /// in parallel, in no particular order. Each worker thread decodes into a `Record` it
    /// keeps (up to a signal of 4M samples), so memory stays at one record per worker
    /// whatever the file's size, and nothing is allocated per record once the buffers have
    /// grown.
    ///
    /// `f` sees every record that decodes; if any fail, the error of the lowest failing
    /// record is returned after the others have been seen.
    pub fn for_each_parallel<F>(&self, threads: Threads<'_>, f: F) -> Result<(), Blow5Error>
    where
        F: Fn(usize, &Record) + Sync,
    {
        threads.run(|| self.for_each_here(&f))
    }

    fn for_each_here<F>(&self, f: F) -> Result<(), Blow5Error>
    where
        F: Fn(usize, &Record) + Sync,
    {
        let first_error: Mutex<Option<(usize, Blow5Error)>> = Mutex::new(None);
        self.largest_first().into_par_iter().with_max_len(1).for_each(|s| {
            // Taken out while in use: a nested call from `f` finds none and makes its own.
            let (mut dec, mut record) = WORKER_RECORD.take().unwrap_or_default();
            match self.decode_into(s, &mut dec, &mut record) {
                Ok(()) => f(s.index, &record),
                Err(e) => {
                    let mut first = first_error.lock().unwrap_or_else(|p| p.into_inner());
                    if first.as_ref().is_none_or(|&(i, _)| s.index < i) {
                        *first = Some((s.index, e));
                    }
                }
            }
            // Kept for the worker's next record up to its share (keep_per_thread).
            svb_io::trim_scratch(&mut record.raw_signal);
            WORKER_RECORD.set(Some((dec, record)));
        });
        match first_error.into_inner().unwrap_or_else(|p| p.into_inner()) {
            Some((_, e)) => Err(e),
            None => Ok(()),
        }
    }

    /// Record `index` of a BLOW5 file as the file stores it: its u64 size field and its
    /// bytes, still compressed. What [`Writer::add_stored_records`](super::Writer::add_stored_records)
    /// copies into a file that stores records the same way, without decoding them. A SLOW5
    /// text record has no such form (an error).
    pub fn stored_record(&self, index: usize) -> Result<Vec<u8>, Blow5Error> {
        let s = self.span(index)?;
        let bytes = self.stored_bytes(s)?;
        self.sized(s, &bytes)?;
        Ok(bytes)
    }

    /// [`stored_record`](Reader::stored_record) with the record's fields parsed from the same
    /// bytes into `record` (its signal not decoded, as [`fields_into`](Reader::fields_into)):
    /// what a copy needs for the id, the read group and a check, the record read once.
    /// Returns the stored bytes and the record's sample count.
    pub fn stored_record_with_fields(
        &self, index: usize, record: &mut Record,
    ) -> Result<(Vec<u8>, u64), Blow5Error> {
        let s = self.span(index)?;
        let bytes = self.stored_bytes(s)?;
        let samples = self
            .inflated(s, self.sized(s, &bytes)?, |body| self.parse_record(s, body, None, record))?;
        Ok((bytes, samples))
    }

    /// A BLOW5 record's bytes from its size field on (a SLOW5 line has no stored form).
    fn stored_bytes(&self, s: &Span) -> Result<Vec<u8>, Blow5Error> {
        if self.is_text() || s.start != s.at + 8 {
            return Err(self.record_error(s, "a SLOW5 text record has no stored form".into()));
        }
        self.src.read_vec(s.at, (s.end - s.at) as usize).map_err(self.record_io(s))
    }

    /// The bytes after the size field of `raw` (record `s` from its size field on), once the
    /// size field is checked against the span (read with the record when the reader was
    /// opened through an index).
    fn sized<'b>(&self, s: &Span, raw: &'b [u8]) -> Result<&'b [u8], Blow5Error> {
        let (size, rest) = raw.split_at(8);
        let size = u64::from_le_bytes(size.try_into().expect("8 bytes"));
        if size != s.end - s.start {
            return Err(self.record_error(
                s,
                format!("its size field says {size} bytes, the index {}", s.end - s.start),
            ));
        }
        Ok(rest)
    }

    /// The bytes after the size field of `raw` (the first bytes of record `s` from its size
    /// field on), once the size field is checked against the span ([`sized`](Self::sized)
    /// for part of a record).
    fn sized_prefix<'b>(&self, s: &Span, raw: &'b [u8]) -> Result<&'b [u8], Blow5Error> {
        if raw.len() < 8 {
            return Err(self.record_error(s, "the record ends inside its size field".into()));
        }
        self.sized(s, raw)
    }

    /// Runs `f` on record `s`'s stored bytes `raw` (after its size field) once inflated.
    fn inflated<R>(
        &self, s: &Span, raw: &[u8], f: impl FnOnce(&[u8]) -> Result<R, Blow5Error>,
    ) -> Result<R, Blow5Error> {
        inflate::body(self.header.record_compression, raw, f, |source| Blow5Error::Inflate {
            path: self.path.clone(),
            index: s.index,
            offset: s.at,
            source,
        })
    }

    /// The signal bytes of record `index` exactly as stored (after record decompression):
    /// i16 samples, or the SVB-ZD / ex-zd blob.
    pub fn signal_blob(&self, index: usize) -> Result<Vec<u8>, Blow5Error> {
        let s = self.span(index)?;
        self.with_body(s, |body| {
            let (at, len) = self.signal_span(s, body)?;
            Ok(body[at..at + len].to_vec())
        })
    }

    fn record_error(&self, s: &Span, what: String) -> Blow5Error {
        Blow5Error::Record { path: self.path.clone(), index: s.index, offset: s.at, what }
    }

    /// Runs `f` on the record's bytes after record decompression (into this thread's
    /// reusable buffer, with this thread's reusable zstd / zlib state).
    fn with_body<R>(
        &self, s: &Span, f: impl FnOnce(&[u8]) -> Result<R, Blow5Error>,
    ) -> Result<R, Blow5Error> {
        if self.is_text() {
            // A line, its newline last: found there at open, or (opened through an index)
            // checked here.
            return self
                .src
                .with_bytes(s.start, (s.end - s.start) as usize, |line| match line.split_last() {
                    Some((b'\n', line)) => f(line),
                    _ => Err(self.record_error(
                        s,
                        "the index's record does not end in a newline here".into(),
                    )),
                })
                .map_err(self.record_io(s))?;
        }
        // Opened through an index: the record's size field is read with it, and checked.
        let from = if self.sizes_read { s.start } else { s.at };
        self.src
            .with_bytes(from, (s.end - from) as usize, |raw| {
                let raw = if self.sizes_read { raw } else { self.sized(s, raw)? };
                self.inflated(s, raw, f)
            })
            .map_err(self.record_io(s))?
    }

    /// The error of record `s`'s bytes failing to be read.
    fn record_io<'a>(&'a self, s: &'a Span) -> impl FnOnce(std::io::Error) -> Blow5Error + 'a {
        move |source| Blow5Error::RecordIo {
            path: self.path.clone(),
            index: s.index,
            offset: s.at,
            len: s.end - s.start,
            source,
        }
    }

    /// Where the signal bytes are in a record body: `(offset, length)`.
    fn signal_span(&self, s: &Span, body: &[u8]) -> Result<(usize, usize), Blow5Error> {
        let err = |what: String| self.record_error(s, what);
        if self.is_text() {
            return text::signal_span(body).map_err(err);
        }
        let mut r = Fields { body, at: 0 };
        let id_len = u16::from_le_bytes(r.take::<2>().map_err(&err)?) as usize;
        r.slice(id_len + 4 + 32).map_err(&err)?;
        let len = u64::from_le_bytes(r.take::<8>().map_err(&err)?);
        let bytes = self.signal_bytes(len, body.len() - r.at).map_err(&err)?;
        Ok((r.at, bytes))
    }

    /// Signal bytes of a record whose `len_raw_signal` is `len`, with `left` bytes left.
    fn signal_bytes(&self, len: u64, left: usize) -> Result<usize, String> {
        match self.header.signal_compression {
            SignalCompression::None => len.checked_mul(2),
            _ => Some(len),
        }
        .filter(|&b| b <= left as u64)
        .map(|b| b as usize)
        .ok_or_else(|| format!("len_raw_signal {len} runs past the record ({left} bytes left)"))
    }

    /// The records, largest (stored size) first: taken in this order, one task each, the
    /// workers of a parallel decode finish together even when a few reads hold most of the
    /// samples (on slow5lib's 10-read zstd files, 2 cores decode 1.4x one in file order,
    /// 1.8x largest first).
    fn largest_first(&self) -> Vec<&Span> {
        let mut spans: Vec<&Span> = self.spans.iter().collect();
        spans.sort_by_key(|s| std::cmp::Reverse(s.end - s.start));
        spans
    }

    /// Whether the file is SLOW5 text (records are lines).
    fn is_text(&self) -> bool {
        self.header.form == Form::Text
    }

    /// Whether decoding is only copying bytes already in memory (read, not mapped; records
    /// and signal uncompressed).
    fn is_plain_copy(&self) -> bool {
        !self.is_text()
            && self.src.is_in_memory()
            && self.header.record_compression == RecordCompression::None
            && self.header.signal_compression == SignalCompression::None
    }

    fn decode(&self, s: &Span, exzd: &mut ExZdDecoder) -> Result<Record, Blow5Error> {
        let mut record = Record::default();
        self.decode_into(s, exzd, &mut record)?;
        Ok(record)
    }

    fn decode_into(
        &self, s: &Span, exzd: &mut ExZdDecoder, record: &mut Record,
    ) -> Result<(), Blow5Error> {
        self.with_body(s, |body| self.parse_record(s, body, Some(exzd), record).map(|_| ()))
    }

    /// Decodes record `index`'s fields into `record` but not its signal (`raw_signal` is left
    /// empty): what a metadata scan needs, without the signal decode. Returns the record's
    /// sample count (from its signal's header, checked against the bytes it has).
    pub fn fields_into(&self, index: usize, record: &mut Record) -> Result<u64, Blow5Error> {
        let s = self.span(index)?;
        self.with_body(s, |body| self.parse_record(s, body, None, record))
    }

    /// Parses a record's fields into `record`, and its signal when an ex-zd decoder is given
    /// (`raw_signal` left empty otherwise); returns the sample count.
    fn parse_record(
        &self, s: &Span, body: &[u8], exzd: Option<&mut ExZdDecoder>, record: &mut Record,
    ) -> Result<u64, Blow5Error> {
        let err = |what: String| self.record_error(s, what);
        if self.is_text() {
            return text::parse_record(body, &self.header, exzd.is_some(), record).map_err(err);
        }
        let mut r = Fields { body, at: 0 };
        let id_len = u16::from_le_bytes(r.take::<2>().map_err(&err)?) as usize;
        let read_id = std::str::from_utf8(r.slice(id_len).map_err(&err)?)
            .map_err(|e| err(format!("read_id: {e}")))?;
        record.read_id.clear();
        record.read_id.push_str(read_id);
        let read_group = u32::from_le_bytes(r.take::<4>().map_err(&err)?);
        if read_group as usize >= self.header.read_groups.len() {
            return Err(err(format!(
                "read group {read_group}, the header declares {}",
                self.header.read_groups.len()
            )));
        }
        let mut f64s = [0f64; 4];
        for v in &mut f64s {
            *v = f64::from_le_bytes(r.take::<8>().map_err(&err)?);
        }
        let len = u64::from_le_bytes(r.take::<8>().map_err(&err)?);
        let signal_bytes = self.signal_bytes(len, body.len() - r.at).map_err(&err)?;
        let blob = r.slice(signal_bytes).map_err(&err)?;
        let signal_err = |source: SignalError| Blow5Error::Signal {
            path: self.path.clone(),
            index: s.index,
            read_id: read_id.to_owned(),
            offset: s.at,
            source,
        };
        let signal = &mut record.raw_signal;
        signal.clear(); // the decoders append
        let samples = match (self.header.signal_compression, exzd) {
            (SignalCompression::None, Some(_)) => {
                i16s_le_into(blob, signal);
                signal.len() as u64
            }
            (SignalCompression::SvbZd, Some(_)) => {
                svb_slow5_signal::svbzd::decode_blob_into(blob, signal).map_err(signal_err)?;
                signal.len() as u64
            }
            (SignalCompression::ExZd, Some(exzd)) => {
                exzd.decode_fused_into(blob, signal).map_err(signal_err)?;
                signal.len() as u64
            }
            (SignalCompression::None, None) => len,
            (SignalCompression::SvbZd, None) => {
                svb_slow5_signal::svbzd::blob_samples(blob).map_err(signal_err)? as u64
            }
            (SignalCompression::ExZd, None) => {
                ExZdDecoder::samples(blob).map_err(signal_err)? as u64
            }
        };
        let fields = &self.header.aux;
        record.aux.truncate(fields.len());
        for (i, field) in fields.iter().enumerate() {
            let value = r.aux(&field.ty).map_err(|w| err(format!("field {}: {w}", field.name)))?;
            record.set_aux(i, &field.name, value);
        }
        if r.at != body.len() {
            return Err(err(format!("{} bytes after the last field", body.len() - r.at)));
        }
        let [digitisation, offset, range, sampling_rate] = f64s;
        record.read_group = read_group;
        record.digitisation = digitisation;
        record.offset = offset;
        record.range = range;
        record.sampling_rate = sampling_rate;
        Ok(samples)
    }
}

/// Every record line of a SLOW5 file from byte `start`: each span from its first byte through
/// its newline, found a 1 MiB window at a time (a file read into memory, in place), and where
/// a last line without its newline starts, if there is one.
fn text_lines(src: &Source, start: u64) -> std::io::Result<(Vec<Span>, Option<u64>)> {
    let mut spans = Vec::new();
    let mut line_start = start;
    let mut push = |end: u64, line_start: &mut u64| {
        spans.push(Span { index: spans.len(), at: *line_start, start: *line_start, end });
        *line_start = end;
    };
    if let Some(all) = src.as_slice() {
        for nl in memchr::memchr_iter(b'\n', &all[start as usize..]) {
            push(start + nl as u64 + 1, &mut line_start);
        }
    } else {
        let mut at = start;
        while at < src.len() {
            let window = src.read_vec(at, (src.len() - at).min(ByteWindow::SIZE) as usize)?;
            for nl in memchr::memchr_iter(b'\n', &window) {
                push(at + nl as u64 + 1, &mut line_start);
            }
            at += window.len() as u64;
        }
    }
    let cut = (line_start != src.len()).then_some(line_start);
    Ok((spans, cut))
}

thread_local! {
    static WORKER_RECORD: std::cell::Cell<Option<(ExZdDecoder, Record)>> = const { std::cell::Cell::new(None) };
}
