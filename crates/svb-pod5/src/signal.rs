//! The POD5 signal table, read without Arrow arrays: its Arrow IPC footer and each record
//! batch's metadata are verified (as [`crate::ipc`] does for the other tables), then the
//! `samples` column and the signal column's offsets are copied out and every row checked
//! once. What stays in the file is only the signal bytes themselves, each row's as a range
//! checked against the file's length, so that decoding never trusts an offset read from the
//! file after open (a file changed by another process gives wrong samples or an error).

use arrow_schema::{DataType, Schema};
use svb_io::Source;

use crate::columns::TableError;
use crate::ipc;

/// How the signal table stores samples.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SignalEncoding {
    /// VBZ blobs (`large_binary`, extension `minknow.vbz`).
    Vbz,
    /// Plain int16 samples (`large_list<int16>`).
    Uncompressed,
    /// PDZ blocks (`large_binary`, extension `minknow.pdz`: ONT's second compression,
    /// [`svb_pdz`]).
    Pdz,
}

impl SignalEncoding {
    /// The Arrow extension name of a compressed signal column (`None` uncompressed).
    pub fn extension_name(self) -> Option<&'static str> {
        match self {
            SignalEncoding::Vbz => Some("minknow.vbz"),
            SignalEncoding::Pdz => Some("minknow.pdz"),
            SignalEncoding::Uncompressed => None,
        }
    }
}

impl std::fmt::Display for SignalEncoding {
    /// `vbz`, `pdz` or `uncompressed`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            SignalEncoding::Vbz => "vbz",
            SignalEncoding::Pdz => "pdz",
            SignalEncoding::Uncompressed => "uncompressed",
        })
    }
}

/// One row of the signal table: where its bytes are in the file, and its sample count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct SignalRow {
    /// Byte offset of the row's VBZ blob, PDZ block or int16 samples in the file.
    pub offset: u64,
    /// Its length in bytes (2 a sample uncompressed, checked against `samples` at open).
    pub bytes: u64,
    /// The `samples` column (`None` where it, or the signal, is null).
    pub samples: Option<u32>,
}

/// The signal table: every row, in table order.
pub(crate) struct SignalTable {
    pub encoding: SignalEncoding,
    pub rows: Vec<SignalRow>,
}

impl SignalTable {
    pub fn rows(&self) -> u64 {
        self.rows.len() as u64
    }

    pub fn get(&self, row: u64) -> Option<&SignalRow> {
        self.rows.get(usize::try_from(row).ok()?)
    }

    /// Sample count of `row` (`None` when the row is missing or null).
    pub fn samples(&self, row: u64) -> Option<u64> {
        self.get(row)?.samples.map(u64::from)
    }
}

fn whole<T>(what: impl Into<String>) -> Result<T, TableError> {
    Err((None, what.into()))
}

/// Reads of the embedded Arrow file `at..at + len` of `src`, checked against its length.
struct Embedded<'a> {
    src: &'a Source,
    at: u64,
    len: u64,
}

impl Embedded<'_> {
    fn read(&self, offset: u64, n: u64, what: &str) -> Result<Vec<u8>, TableError> {
        if offset.checked_add(n).is_none_or(|end| end > self.len) {
            return whole(format!(
                "{what}: {n} bytes at {offset} run past the {}-byte Arrow file",
                self.len
            ));
        }
        self.src.read_vec(self.at + offset, n as usize).map_err(|e| (None, format!("{what}: {e}")))
    }
}

/// Fetches at once what parsing the record batches reads, when `file` is an object's (a
/// local file's reads cost no round trip): each batch's metadata with the row ids and offsets
/// that open its body, and the samples column that ends the batch before it (the last
/// batch's ends where the Arrow footer starts). The windows are sized by the first batch's
/// rows (ONT writes batches of equal rows); a batch that needs more is read as it is parsed.
fn plan_batches(
    file: &Embedded<'_>, footer_start: u64, blocks: &flatbuffers::Vector<'_, arrow_ipc::Block>,
) -> Result<(), TableError> {
    if !file.src.is_remote() || blocks.is_empty() {
        return Ok(());
    }
    let (offset, meta_len, _) =
        ipc::block_range(footer_start as usize, blocks.get(0), "record batch 0")
            .map_err(|w| (None, w))?;
    let meta = file.read(offset as u64, meta_len as u64, "record batch 0")?;
    let rows = ipc::message(&meta, "record batch 0")
        .ok()
        .and_then(|m| m.header_as_record_batch())
        .map_or(1_000, |b| b.length().clamp(1, 100_000) as u64);
    // Samples (u32) and their validity, padded; row ids (16 bytes), i64 offsets and two
    // validities, padded.
    let before = 4 * rows + rows / 8 + 128;
    let after = 16 * rows + 8 * (rows + 1) + rows / 4 + 256;
    let (start, end) = (file.at, file.at + footer_start);
    let mut plan: Vec<std::ops::Range<u64>> = blocks
        .iter()
        .filter_map(|b| {
            let at = file.at + u64::try_from(b.offset()).ok()?;
            let meta = u64::try_from(b.metaDataLength()).ok()?;
            Some(at.saturating_sub(before).max(start)..(at + meta + after).min(end))
        })
        .collect();
    plan.push(end.saturating_sub(before).max(start)..end);
    file.src.prefetch(&plan).map_err(|e| (None, format!("reading the record batches: {e}")))
}

/// A buffer of a record batch: offset in the body and length.
fn buffer(batch: &arrow_ipc::RecordBatch<'_>, i: usize) -> (u64, u64) {
    let b = batch.buffers().expect("checked").get(i);
    (b.offset() as u64, b.length() as u64)
}

/// A field node: length and null count.
fn node(batch: &arrow_ipc::RecordBatch<'_>, i: usize) -> (u64, u64) {
    let n = batch.nodes().expect("checked").get(i);
    (n.length() as u64, n.null_count() as u64)
}

/// Whether bit `i` of a validity bitmap is set (no bitmap: every value is valid).
fn valid(bitmap: &Option<Vec<u8>>, i: usize) -> bool {
    bitmap.as_ref().is_none_or(|b| b.get(i / 8).is_some_and(|byte| byte >> (i % 8) & 1 == 1))
}

/// Where the footer of the embedded Arrow file starts, and its bytes, found from the file's
/// first and last bytes.
fn arrow_footer(file: &Embedded<'_>) -> Result<(u64, Vec<u8>), TableError> {
    let len = file.len;
    if len < (8 + ipc::TAIL_LEN) as u64 {
        return whole(format!("not an Arrow IPC file ({len} bytes)"));
    }
    let head = file.read(0, 6, "Arrow magic")?;
    let tail =
        file.read(len - ipc::TAIL_LEN as u64, ipc::TAIL_LEN as u64, "Arrow footer length")?;
    let footer = ipc::footer_range(len as usize, &head, &tail).map_err(|w| (None, w))?;
    let (footer_start, footer_len) = (footer.start as u64, footer.len() as u64);
    Ok((footer_start, file.read(footer_start, footer_len, "Arrow footer")?))
}

/// The schema an Arrow footer holds, checked against the types POD5 uses.
fn schema_of(footer: &arrow_ipc::Footer<'_>) -> Result<Schema, TableError> {
    let fb_schema = footer.schema().ok_or((None, "Arrow footer without a schema".to_string()))?;
    ipc::check_schema(&fb_schema).map_err(|w| (None, w))?;
    arrow_ipc::convert::try_fb_to_schema(fb_schema)
        .map_err(|e| (None, format!("Arrow schema: {e}")))
}

/// The schema of the embedded Arrow file of `len` bytes at `at` in `src`, read from its
/// footer alone (none of its record batches is read): what tells the tables of a POD5 file
/// whose own footer is lost, whatever their size.
pub(crate) fn embedded_schema(src: &Source, at: u64, len: u64) -> Result<Schema, TableError> {
    let (_, footer_bytes) = arrow_footer(&Embedded { src, at, len })?;
    let footer = arrow_ipc::root_as_footer(&footer_bytes)
        .map_err(|e| (None, format!("Arrow footer: {e}")))?;
    schema_of(&footer)
}

/// How a signal column of this field's type stores samples.
pub(crate) fn encoding_of(field: &arrow_schema::Field) -> Result<SignalEncoding, TableError> {
    let extension = field.metadata().get("ARROW:extension:name");
    Ok(match field.data_type() {
        // A compressed column names its codec in its extension type; ONT's first writers
        // (and ours before PDZ) always wrote minknow.vbz, and a column without the name is
        // read as VBZ, as it always was.
        DataType::LargeBinary => match extension.map(String::as_str) {
            None | Some("minknow.vbz") => SignalEncoding::Vbz,
            Some("minknow.pdz") => SignalEncoding::Pdz,
            Some(other) => {
                return whole(format!(
                "column signal is of extension type {other}, expected minknow.vbz or minknow.pdz"
            ))
            }
        },
        DataType::LargeList(f) if *f.data_type() == DataType::Int16 => SignalEncoding::Uncompressed,
        t => {
            return whole(format!(
                "column signal is {t}, expected large_binary (VBZ, PDZ) or large_list<int16>"
            ))
        }
    })
}

/// The signal table's compression, from the embedded Arrow file's footer alone (no record
/// batch is read): what a copy that keeps its input's compression asks before it writes.
pub(crate) fn encoding_from_footer(
    src: &Source, at: u64, len: u64,
) -> Result<SignalEncoding, TableError> {
    let schema = embedded_schema(src, at, len)?;
    let field = schema
        .fields()
        .iter()
        .find(|f| f.name() == "signal")
        .ok_or((None, "column signal missing".to_string()))?;
    encoding_of(field)
}

/// Parses the signal table, the Arrow IPC file of `len` bytes at `at` in `src`, whose schema
/// must carry the footer's file identifier when it carries one.
pub(crate) fn parse(
    src: &Source, at: u64, len: u64, file_identifier: &str,
) -> Result<SignalTable, TableError> {
    let file = Embedded { src, at, len };
    let (footer_start, footer_bytes) = arrow_footer(&file)?;
    parse_with_footer(&file, footer_start, &footer_bytes, file_identifier)
}

/// The signal table a writer left without its Arrow footer (killed before closing the file):
/// the Arrow IPC file from `at` to the end of `src`, its whole record batches listed by a
/// footer rebuilt from its messages ([`ipc::salvage`]). Returns the table and the file
/// identifier its schema carries.
pub(crate) fn parse_salvaged(src: &Source, at: u64) -> Result<(SignalTable, String), TableError> {
    let file = Embedded { src, at, len: src.len().saturating_sub(at) };
    let salvaged = ipc::salvage(file.len, |offset, n| {
        file.read(offset, n, "Arrow message").map_err(|(_, w)| w)
    })
    .map_err(|w| (None, w))?;
    let id = salvaged
        .schema
        .metadata()
        .get("MINKNOW:file_identifier")
        .cloned()
        .ok_or((None, "schema without MINKNOW:file_identifier".to_string()))?;
    let table = parse_with_footer(&file, salvaged.end, &salvaged.footer, &id)?;
    Ok((table, id))
}

/// The signal table of `file` whose Arrow footer (`footer_bytes`) starts at `footer_start`.
fn parse_with_footer(
    file: &Embedded<'_>, footer_start: u64, footer_bytes: &[u8], file_identifier: &str,
) -> Result<SignalTable, TableError> {
    TableFooter::of(file, footer_start, footer_bytes.to_vec(), file_identifier)?.parse(file.src)
}

/// The signal table's Arrow file as its footer describes it, checked (its schema, the
/// columns POD5 reads, the file identifier), none of its record batches read yet: what an
/// object's reader keeps until a read's signal is asked for, so that `view` and `info` of a
/// POD5 object fetch no batch of its signal table ([`TableFooter::parse`] reads them all).
pub(crate) struct TableFooter {
    at: u64,
    len: u64,
    footer_start: u64,
    footer_bytes: Vec<u8>,
    /// The columns' types, and where the `samples` and `signal` columns are.
    types: Vec<DataType>,
    samples_col: usize,
    signal_col: usize,
    pub(crate) encoding: SignalEncoding,
}

/// The signal table's Arrow file of `len` bytes at `at` in `src`, its footer read and checked
/// (its schema must carry `file_identifier` when it carries one), no record batch read.
pub(crate) fn open_footer(
    src: &Source, at: u64, len: u64, file_identifier: &str,
) -> Result<TableFooter, TableError> {
    let file = Embedded { src, at, len };
    let (footer_start, footer_bytes) = arrow_footer(&file)?;
    TableFooter::of(&file, footer_start, footer_bytes, file_identifier)
}

impl TableFooter {
    fn of(
        file: &Embedded<'_>, footer_start: u64, footer_bytes: Vec<u8>, file_identifier: &str,
    ) -> Result<TableFooter, TableError> {
        let footer = arrow_ipc::root_as_footer(&footer_bytes)
            .map_err(|e| (None, format!("Arrow footer: {e}")))?;
        let (types, encoding, samples_col, signal_col) = checked_schema(&footer, file_identifier)?;
        footer.recordBatches().ok_or((None, "Arrow footer lists no record batches".to_string()))?;
        let (at, len) = (file.at, file.len);
        Ok(TableFooter {
            at,
            len,
            footer_start,
            footer_bytes,
            types,
            samples_col,
            signal_col,
            encoding,
        })
    }

    /// Every record batch of the table read and checked, its rows listed.
    pub(crate) fn parse(&self, src: &Source) -> Result<SignalTable, TableError> {
        let file = Embedded { src, at: self.at, len: self.len };
        // Parsed and checked when the footer was read.
        let footer = arrow_ipc::root_as_footer(&self.footer_bytes)
            .map_err(|e| (None, format!("Arrow footer: {e}")))?;
        let (types, cols) = (&self.types, (self.samples_col, self.signal_col));
        parse_batches(&file, self.footer_start, &footer, types, self.encoding, cols)
    }
}

/// The column types, the signal's encoding and the `samples` and `signal` columns of the
/// table whose Arrow footer is `footer`, checked; its schema must carry `file_identifier`
/// when it carries one.
fn checked_schema(
    footer: &arrow_ipc::Footer<'_>, file_identifier: &str,
) -> Result<(Vec<DataType>, SignalEncoding, usize, usize), TableError> {
    let schema = schema_of(footer)?;
    if let Some(id) = schema.metadata().get("MINKNOW:file_identifier") {
        if id != file_identifier {
            return whole(format!(
                "file identifier {id} differs from the footer's {file_identifier}"
            ));
        }
    }
    let types: Vec<DataType> = schema.fields().iter().map(|f| f.data_type().clone()).collect();
    let column = |name: &str| schema.fields().iter().position(|f| f.name() == name);
    let Some(samples_col) = column("samples") else {
        return whole("column samples missing");
    };
    if types[samples_col] != DataType::UInt32 {
        return whole(format!("column samples is {}, expected uint32", types[samples_col]));
    }
    let Some(signal_col) = column("signal") else {
        return whole("column signal missing");
    };
    let encoding = encoding_of(&schema.fields()[signal_col])?;
    Ok((types, encoding, samples_col, signal_col))
}

/// The rows of every record batch of `file` (the Arrow footer `footer` starting at
/// `footer_start`), each batch's metadata and its columns' places checked.
fn parse_batches(
    file: &Embedded<'_>, footer_start: u64, footer: &arrow_ipc::Footer<'_>, types: &[DataType],
    encoding: SignalEncoding, (samples_col, signal_col): (usize, usize),
) -> Result<SignalTable, TableError> {
    let mut rows = Vec::new();
    let blocks =
        footer.recordBatches().ok_or((None, "Arrow footer lists no record batches".to_string()))?;
    plan_batches(file, footer_start, &blocks)?;
    for (i, block) in blocks.iter().enumerate() {
        let what = format!("record batch {i}");
        let (offset, meta_len, body_len) =
            ipc::block_range(footer_start as usize, block, &what).map_err(|w| (None, w))?;
        let meta = file.read(offset as u64, meta_len as u64, &what)?;
        let message = ipc::message(&meta, &what).map_err(|w| (None, w))?;
        let batch = message
            .header_as_record_batch()
            .ok_or_else(|| (None, format!("{what}: not a record batch")))?;
        let starts = ipc::check_buffers(&batch, body_len, types, &what).map_err(|w| (None, w))?;
        let body = (offset + meta_len) as u64;
        let base = rows.len() as u64;
        let n = batch.length() as u64;
        let at_row = |row: u64, what: String| -> TableError { (Some(base + row), what) };
        let bad_batch = |w: String| -> TableError { (Some(base), format!("{what}: {w}")) };

        // The samples column: u32 values, and their validity when some are null.
        let (node_i, buf_i) = starts[samples_col];
        let (s_len, s_nulls) = node(&batch, node_i);
        let (validity_at, validity_len) = buffer(&batch, buf_i);
        let (values_at, values_len) = buffer(&batch, buf_i + 1);
        if s_len != n || values_len < 4 * n {
            return Err(bad_batch(format!(
                "samples column of {s_len} values in {values_len} bytes for {n} rows"
            )));
        }
        let samples = file.read(body + values_at, 4 * n, &what)?;
        let samples_valid = (s_nulls > 0)
            .then(|| file.read(body + validity_at, validity_len.min(n.div_ceil(8)), &what))
            .transpose()?;

        // The signal column: validity, i64 offsets, then the bytes (VBZ) or the int16 child.
        let (node_i, buf_i) = starts[signal_col];
        let (g_len, g_nulls) = node(&batch, node_i);
        let (validity_at, validity_len) = buffer(&batch, buf_i);
        let (offsets_at, offsets_len) = buffer(&batch, buf_i + 1);
        if g_len != n || (n > 0 && offsets_len < 8 * (n + 1)) {
            return Err(bad_batch(format!(
                "signal column of {g_len} rows with {offsets_len} bytes of offsets for {n} rows"
            )));
        }
        let signal_valid = (g_nulls > 0)
            .then(|| file.read(body + validity_at, validity_len.min(n.div_ceil(8)), &what))
            .transpose()?;
        let (data_at, data_len, width) = match encoding {
            SignalEncoding::Vbz | SignalEncoding::Pdz => {
                let (at, len) = buffer(&batch, buf_i + 2);
                (at, len, 1u64)
            }
            SignalEncoding::Uncompressed => {
                let (c_len, c_nulls) = node(&batch, node_i + 1);
                let (at, len) = buffer(&batch, buf_i + 3);
                if c_nulls > 0 {
                    return Err(bad_batch(format!("{c_nulls} null samples in the signal")));
                }
                if len < 2 * c_len {
                    return Err(bad_batch(format!("{c_len} samples in a {len}-byte buffer")));
                }
                (at, c_len, 2u64)
            }
        };
        let offsets =
            if n > 0 { file.read(body + offsets_at, 8 * (n + 1), &what)? } else { Vec::new() };
        let offset =
            |r: usize| i64::from_le_bytes(offsets[8 * r..8 * r + 8].try_into().expect("8"));
        for r in 0..n as usize {
            let (start, end) = (offset(r), offset(r + 1));
            if start < 0 || start > end || end as u64 > data_len {
                return Err(at_row(
                    r as u64,
                    format!(
                        "signal offsets {start}..{end} outside the {data_len} values of the batch"
                    ),
                ));
            }
            let count = (end - start) as u64;
            let s = u32::from_le_bytes(samples[4 * r..4 * r + 4].try_into().expect("4"));
            let present = valid(&samples_valid, r) && valid(&signal_valid, r);
            if present && encoding == SignalEncoding::Uncompressed && u64::from(s) != count {
                return Err(at_row(
                    r as u64,
                    format!("the samples column says {s}, the row holds {count} samples"),
                ));
            }
            rows.push(SignalRow {
                offset: file.at + body + data_at + start as u64 * width,
                bytes: count * width,
                samples: present.then_some(s),
            });
        }
    }
    Ok(SignalTable { encoding, rows })
}
