//! The BLOW5 writer: version 0.2.0 as slow5lib writes it (the 64-byte binary header, the text
//! header of read-group attributes and the record schema, one `u64 size | record` per read,
//! the `5WOLB` end-of-file marker), records compressed none / zlib / zstd and signals none /
//! SVB-ZD / ex-zd, both on rayon a batch of records at a time.
//!
//! [`WriteOptions::slow5`] writes slow5lib's text form instead: the same header after its
//! `#slow5_version` and `#num_read_groups` lines, a line per record, no end marker.
//!
//! The file is written under a temporary name beside the destination and renamed when
//! [`Writer::finish`] has written the end-of-file marker: a writer dropped early (or a process
//! killed mid-write) leaves no file under the destination name, and its partial file is
//! removed on drop.

use std::borrow::Borrow;
use std::collections::HashSet;
use std::io::Write;
use std::path::Path;

use svb_io::{PartialFile, Publish};
use svb_model::Form;

use super::header::{AuxField, FieldType, RecordCompression, SignalCompression, MAGIC, PRIMARY};
use super::record::{AuxValue, Record};
use super::{ZstdProfile, EOF_MARKER};
use crate::error::Blow5WriteError;

/// The `#types` of the primary fields.
const PRIMARY_TYPES: [&str; 8] =
    ["char*", "uint32_t", "double", "double", "double", "double", "uint64_t", "int16_t*"];

/// The zstd level slow5lib compresses records with.
const ZSTD_LEVEL: i32 = 1;

/// How a [`Writer`] compresses, and how many records it compresses at once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WriteOptions {
    /// Record compression (default zstd, as slow5tools writes).
    pub record_compression: RecordCompression,
    /// Signal compression (default SVB-ZD, as slow5tools writes).
    pub signal_compression: SignalCompression,
    /// Records buffered before a batch is compressed on rayon's pool and written (default
    /// 1024): memory is bounded by one batch.
    pub batch_records: usize,
    /// The zstd profile of zstd records: [`ZstdProfile::Standard`] (default) compresses as
    /// slow5lib does; [`ZstdProfile::DecodeFast`] stores raw literals, which every BLOW5
    /// reader decodes faster, in larger files (docs/PERFORMANCE.md). Needs zstd records.
    pub zstd_profile: ZstdProfile,
    /// How [`Writer::finish`] publishes the file: synced first (default) or not, replacing a
    /// file at the path or not (default refuse).
    pub publish: Publish,
    /// [`Form::Binary`] (BLOW5, default), or [`Form::Text`] for slow5lib's SLOW5 text form,
    /// which has no compression: both compressions must then be `None`
    /// ([`WriteOptions::slow5`]).
    pub form: Form,
    /// The version the header says (default 0.2.0, the one slow5lib writes for new files;
    /// [`WriteOptions::versioned_like`] keeps an input's, as slow5lib does when it rewrites a
    /// file). The layout written is the same for every version from 0.1.0 up.
    pub version: (u8, u8, u8),
    /// Refuse a read id the file holds already (default). `false` writes every record given,
    /// as slow5tools view rewrites a file whose ids repeat; slow5lib's index of such a file
    /// cannot be built.
    pub unique_read_ids: bool,
    /// How SLOW5 text writes floating-point values: exactly (default), or with slow5lib's six
    /// decimals, byte for byte as slow5tools writes them ([`FloatText`](crate::FloatText)).
    pub float_text: crate::FloatText,
}

impl WriteOptions {
    /// These options with the version slow5lib writes when it rewrites a file of version
    /// `input` (slow5tools view, degrade): the input's, except that binary output whose
    /// compression needs 0.2.0 (signal compression, or records other than none and zlib) says
    /// at least 0.2.0.
    ///
    /// ```
    /// use svb_blow5::{RecordCompression, SignalCompression, WriteOptions};
    /// let zlib = WriteOptions { record_compression: RecordCompression::Zlib, signal_compression: SignalCompression::None, ..WriteOptions::default() };
    /// assert_eq!(zlib.versioned_like((0, 1, 0)).version, (0, 1, 0));
    /// assert_eq!(WriteOptions::default().versioned_like((0, 1, 0)).version, (0, 2, 0));
    /// assert_eq!(WriteOptions::slow5().versioned_like((0, 1, 0)).version, (0, 1, 0));
    /// ```
    pub fn versioned_like(self, input: (u8, u8, u8)) -> WriteOptions {
        let needs_0_2 = self.form == Form::Binary
            && (self.signal_compression != SignalCompression::None
                || !matches!(
                    self.record_compression,
                    RecordCompression::None | RecordCompression::Zlib
                ));
        let version = match needs_0_2 && input < (0, 2, 0) {
            true => (0, 2, 0),
            false => input,
        };
        WriteOptions { version, ..self }
    }

    /// The options of a SLOW5 text file: no record or signal compression.
    pub fn slow5() -> WriteOptions {
        WriteOptions {
            record_compression: RecordCompression::None,
            signal_compression: SignalCompression::None,
            form: Form::Text,
            ..WriteOptions::default()
        }
    }
}

impl Default for WriteOptions {
    fn default() -> Self {
        WriteOptions {
            record_compression: RecordCompression::Zstd,
            signal_compression: SignalCompression::SvbZd,
            batch_records: 1024,
            zstd_profile: ZstdProfile::Standard,
            publish: Publish::default(),
            form: Form::Binary,
            version: (0, 2, 0),
            unique_read_ids: true,
            float_text: crate::FloatText::Exact,
        }
    }
}

/// What every record of a file shares: its read groups' attributes and its auxiliary fields.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Schema {
    /// Per read group, its `@key` attributes (`.` for unset). Every group lists the keys of
    /// the first in the same order (a key missing from a group is written as `.`).
    pub read_groups: Vec<Vec<(String, String)>>,
    /// The auxiliary fields after the primary ones, in record order.
    pub aux: Vec<AuxField>,
}

impl Schema {
    /// The schema of an existing file: its header's read groups and auxiliary fields.
    pub fn of(header: &super::Header) -> Schema {
        Schema { read_groups: header.read_groups.clone(), aux: header.aux.clone() }
    }

    /// The text header: one `@key` line per attribute (a tab-separated value per read group),
    /// the attributes in name order (byte order) as slow5lib writes them whatever order they
    /// were read in (so a merge of groups with different attributes gives slow5tools' bytes),
    /// then the `#types` and `#names` lines (what follows the version and read group count
    /// lines in SLOW5 text, and the text header of a BLOW5 file); an error where a value
    /// cannot be a header field.
    pub fn text(&self) -> Result<String, Blow5WriteError> {
        let bad = |what: String| Blow5WriteError::Schema { what };
        let Some(first) = self.read_groups.first() else {
            return Err(bad("no read groups (a BLOW5 file has at least one)".into()));
        };
        let mut keys: Vec<&str> = first.iter().map(|(k, _)| k.as_str()).collect();
        for group in &self.read_groups[1..] {
            for (k, _) in group {
                if !keys.contains(&k.as_str()) {
                    keys.push(k);
                }
            }
        }
        keys.sort_unstable();
        let mut text = String::new();
        for key in keys {
            if !is_token(key) {
                return Err(bad(format!("attribute name {key:?} (empty, or a tab or newline)")));
            }
            text.push('@');
            text.push_str(key);
            for (g, group) in self.read_groups.iter().enumerate() {
                // Missing, or empty (slow5lib reads an empty value and writes it back as its
                // missing value): `.`.
                let value = group.iter().find(|(k, _)| k == key).map_or(".", |(_, v)| v.as_str());
                let value = if value.is_empty() { "." } else { value };
                if !is_token(value) {
                    return Err(bad(format!(
                        "attribute @{key} of read group {g}: {value:?} (a tab or newline)"
                    )));
                }
                text.push('\t');
                text.push_str(value);
            }
            text.push('\n');
        }
        let mut seen: HashSet<&str> = PRIMARY.into_iter().collect();
        for f in &self.aux {
            if !is_token(&f.name) || f.name.contains(',') {
                return Err(bad(format!("auxiliary field name {:?}", f.name)));
            }
            if !seen.insert(&f.name) {
                return Err(bad(format!("auxiliary field {} declared twice", f.name)));
            }
            if let FieldType::Enum(labels) = &f.ty {
                if labels.is_empty() || labels.len() > 256 {
                    return Err(bad(format!(
                        "enum field {} has {} labels (1 to 256)",
                        f.name,
                        labels.len()
                    )));
                }
                if let Some(l) = labels.iter().find(|l| !is_token(l) || l.contains([',', '}'])) {
                    return Err(bad(format!("enum field {}: label {l:?}", f.name)));
                }
            }
        }
        text.push('#');
        text.push_str(&PRIMARY_TYPES.join("\t"));
        for f in &self.aux {
            text.push('\t');
            text.push_str(&f.ty.spelling());
        }
        text.push_str("\n#");
        text.push_str(&PRIMARY.join("\t"));
        for f in &self.aux {
            text.push('\t');
            text.push_str(&f.name);
        }
        text.push('\n');
        Ok(text)
    }
}

/// Non-empty, and no tab or newline (the text header's separators).
fn is_token(s: &str) -> bool {
    !s.is_empty() && !s.contains(['\t', '\n', '\r'])
}

/// The 64-byte binary header and the length-prefixed text header.
fn header_bytes(schema: &Schema, options: &WriteOptions) -> Result<Vec<u8>, Blow5WriteError> {
    let text = schema.text()?;
    let groups = u32::try_from(schema.read_groups.len()).map_err(|_| Blow5WriteError::Schema {
        what: format!("{} read groups", schema.read_groups.len()),
    })?;
    let text_len = u32::try_from(text.len()).map_err(|_| Blow5WriteError::Schema {
        what: format!("a text header of {} bytes", text.len()),
    })?;
    let mut h = MAGIC.to_vec();
    let (major, minor, patch) = options.version;
    h.extend([major, minor, patch]);
    h.push(match options.record_compression {
        RecordCompression::None => 0,
        RecordCompression::Zlib => 1,
        RecordCompression::Zstd => 2,
    });
    h.extend(groups.to_le_bytes());
    h.push(match options.signal_compression {
        SignalCompression::None => 0,
        SignalCompression::SvbZd => 1,
        SignalCompression::ExZd => 2,
    });
    h.resize(64, 0);
    h.extend(text_len.to_le_bytes());
    h.extend(text.as_bytes());
    Ok(h)
}

/// Writes a BLOW5 file record by record, in bounded memory.
///
/// ```
/// use svb_blow5::{AuxField, AuxValue, FieldType, Reader, Record, Schema, WriteOptions, Writer};
/// let dir = std::env::temp_dir().join(format!("svb-doc-{}", std::process::id()));
/// std::fs::create_dir_all(&dir)?;
/// let path = dir.join("reads.blow5");
/// let schema = Schema {
///     read_groups: vec![vec![("run_id".into(), "run1".into())]],
///     aux: vec![AuxField { name: "channel_number".into(), ty: FieldType::Array { name: "char".into(), size: 1 } }],
/// };
/// let mut w = Writer::create(&path, schema, WriteOptions::default())?;
/// w.add_record(&Record {
///     read_id: "read-1".into(),
///     digitisation: 8192.0,
///     offset: 10.0,
///     range: 1400.0,
///     sampling_rate: 4000.0,
///     raw_signal: vec![512, 518, 497, 505],
///     aux: vec![("channel_number".into(), AuxValue::Text("42".into()))],
///     ..Record::default()
/// })?;
/// w.finish()?;
/// let r = Reader::open(&path)?;
/// assert_eq!(r.record(0)?.raw_signal, [512, 518, 497, 505]);
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Writer {
    out: PartialFile,
    groups: u32,
    aux: Vec<AuxField>,
    options: WriteOptions,
    pending: Vec<Record>,
    ids: HashSet<String>,
    written: u64,
}

impl Writer {
    /// Starts a file at `path` (written under a temporary name beside it until
    /// [`finish`](Writer::finish)). The schema is checked first: no file is created for a
    /// bad one.
    pub fn create(
        path: impl AsRef<Path>, schema: Schema, options: WriteOptions,
    ) -> Result<Writer, Blow5WriteError> {
        let path = path.as_ref().to_path_buf();
        if options.batch_records == 0 {
            return Err(Blow5WriteError::Schema { what: "a batch of 0 records".into() });
        }
        if options.zstd_profile != ZstdProfile::Standard
            && options.record_compression != RecordCompression::Zstd
        {
            return Err(Blow5WriteError::Schema {
                what: format!(
                    "a zstd profile needs zstd records (these are {:?})",
                    options.record_compression
                ),
            });
        }
        let header = match options.form {
            Form::Binary => header_bytes(&schema, &options)?,
            Form::Text => {
                if options.record_compression != RecordCompression::None
                    || options.signal_compression != SignalCompression::None
                {
                    return Err(Blow5WriteError::Schema {
                        what: format!(
                            "SLOW5 text has no compression ({} records, {} signal asked for)",
                            options.record_compression, options.signal_compression
                        ),
                    });
                }
                super::text::header_bytes(
                    options.version,
                    schema.read_groups.len(),
                    &schema.text()?,
                )
            }
        };
        let out =
            options.publish.create(&path).map_err(|source| Blow5WriteError::Io { path, source })?;
        let mut w = Writer {
            out,
            groups: schema.read_groups.len() as u32,
            aux: schema.aux,
            options,
            pending: Vec::new(),
            ids: HashSet::new(),
            written: 0,
        };
        w.write_all(&header)?;
        Ok(w)
    }

    /// The records written or buffered so far.
    pub fn len(&self) -> u64 {
        self.written + self.pending.len() as u64
    }

    /// Whether no record was added yet.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Adds one record (checked now: a bad one is an error and nothing of it is written).
    /// Records are compressed a batch at a time on rayon's pool.
    pub fn add_record(&mut self, record: &Record) -> Result<(), Blow5WriteError> {
        self.check(record)?;
        if self.options.unique_read_ids {
            self.ids.insert(record.read_id.clone());
        }
        self.pending.push(record.clone());
        if self.pending.len() >= self.options.batch_records {
            self.flush_pending()?;
        }
        Ok(())
    }

    /// Adds records in order, compressing them on rayon's pool a batch at a time; every
    /// record is checked before any of them is written. `records` may be the records or
    /// references to them (buffers the caller reuses for the next batch).
    pub fn add_records<R: Borrow<Record> + Sync>(
        &mut self, records: &[R],
    ) -> Result<(), Blow5WriteError> {
        let mut batch_ids = HashSet::with_capacity(records.len());
        for r in records {
            let r = r.borrow();
            self.check(r)?;
            if self.options.unique_read_ids && !batch_ids.insert(r.read_id.as_str()) {
                return Err(Blow5WriteError::DuplicateReadId { read_id: r.read_id.clone() });
            }
        }
        if self.options.unique_read_ids {
            self.ids.extend(records.iter().map(|r| r.borrow().read_id.clone()));
        }
        self.flush_pending()?;
        for batch in records.chunks(self.options.batch_records) {
            self.write_batch(batch)?;
        }
        Ok(())
    }

    /// Whether records of a file with `header` can be copied into this one as they are stored
    /// ([`add_stored_records`](Writer::add_stored_records)): both BLOW5 of version 0.2, the
    /// same record and signal compression, the same auxiliary fields in the same order, and
    /// this file not asked for zstd's decode-fast profile (its records are recompressed).
    pub fn stores_like(&self, header: &super::Header) -> bool {
        self.options.form == Form::Binary
            && self.options.zstd_profile == ZstdProfile::Standard
            && header.form == Form::Binary
            && (header.version.0, header.version.1) == (0, 2)
            && header.record_compression == self.options.record_compression
            && header.signal_compression == self.options.signal_compression
            && header.aux == self.aux
    }

    /// Adds records as another file stores them ([`Reader::stored_record`](super::Reader::stored_record),
    /// each with the id and read group its fields hold), written as they are: nothing is
    /// decompressed or recompressed. The source file must store records as this one does
    /// ([`stores_like`](Writer::stores_like)), and each record's read group index must name
    /// the same read group in this file as in its source (the caller merges the schemas so).
    /// Returns each record's outcome in order: a record whose read group this file lacks,
    /// whose id is here already (or twice in `records`) or whose bytes are not one sized
    /// record is left out and says why. The outer error is the file's.
    ///
    /// ```
    /// use svb_blow5::{Reader, Record, Schema, WriteOptions, Writer};
    /// # let dir = std::env::temp_dir().join(format!("svb-blow5-stored-{}", std::process::id()));
    /// # std::fs::create_dir_all(&dir)?;
    /// let schema = Schema { read_groups: vec![vec![("run_id".into(), "r1".into())]], aux: vec![] };
    /// let mut w = Writer::create(dir.join("a.blow5"), schema.clone(), WriteOptions::default())?;
    /// w.add_record(&Record { read_id: "x".into(), raw_signal: vec![5, 9, 7], ..Record::default() })?;
    /// w.finish()?;
    /// let a = Reader::open(dir.join("a.blow5"))?;
    /// let mut copy = Writer::create(dir.join("b.blow5"), schema, WriteOptions::default())?;
    /// assert!(copy.stores_like(a.header()));
    /// let bytes = a.stored_record(0)?;
    /// for outcome in copy.add_stored_records(&[("x", 0, &bytes)])? {
    ///     outcome?;
    /// }
    /// copy.finish()?;
    /// assert_eq!(Reader::open(dir.join("b.blow5"))?.record(0)?.raw_signal, [5, 9, 7]);
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[allow(clippy::type_complexity)] // an outcome per record, in a result for the file
    pub fn add_stored_records(
        &mut self, records: &[(&str, u32, &[u8])],
    ) -> Result<Vec<Result<(), Blow5WriteError>>, Blow5WriteError> {
        if self.options.form != Form::Binary {
            return Err(Blow5WriteError::Schema {
                what: "stored BLOW5 records go into a BLOW5 file, not SLOW5 text".into(),
            });
        }
        self.flush_pending()?;
        let mut outcome = Vec::with_capacity(records.len());
        for &(read_id, group, bytes) in records {
            let bad = |what: String| Blow5WriteError::Record { read_id: read_id.to_string(), what };
            let checked = if group >= self.groups {
                Err(bad(format!("read group {group} of a file with {}", self.groups)))
            } else if self.options.unique_read_ids && self.ids.contains(read_id) {
                Err(Blow5WriteError::DuplicateReadId { read_id: read_id.to_string() })
            } else {
                match bytes.split_first_chunk::<8>() {
                    Some((size, rest))
                        if u64::from_le_bytes(*size) == rest.len() as u64 && !rest.is_empty() =>
                    {
                        Ok(())
                    }
                    _ => Err(bad(format!(
                        "{} bytes are not one stored record (a u64 size, then that many bytes)",
                        bytes.len()
                    ))),
                }
            };
            if checked.is_ok() {
                if self.options.unique_read_ids {
                    self.ids.insert(read_id.to_string());
                }
                self.write_all(bytes)?;
                self.written += 1;
            }
            outcome.push(checked);
        }
        Ok(outcome)
    }

    /// Adds records `range` of `from` as they are stored, each named by its `(read id, read
    /// group)` in `records`, in order: a file read by positioned reads has them copied by the
    /// kernel where it can ([`svb_io::PartialFile::append_range_of`]), never read by this
    /// process; a file in memory has them written from there. `from` must store records as
    /// this file does ([`stores_like`](Writer::stores_like)), its size fields read at open
    /// (not located through an index). Every record is checked first (its read group, its
    /// id new to the file); one that fails is an error and nothing is written.
    pub fn add_stored_span(
        &mut self, from: &crate::Reader, range: std::ops::Range<usize>, records: &[(&str, u32)],
    ) -> Result<(), Blow5WriteError> {
        if self.options.form != Form::Binary {
            return Err(Blow5WriteError::Schema {
                what: "stored BLOW5 records go into a BLOW5 file, not SLOW5 text".into(),
            });
        }
        let span = from.stored_span(range.clone()).filter(|_| range.len() == records.len());
        let Some((offset, len)) = span else {
            return Err(Blow5WriteError::Schema {
                what: format!(
                    "records {range:?} of {} ({} named) are not stored records of it with their sizes read",
                    from.path().display(),
                    records.len()
                ),
            });
        };
        let mut batch = HashSet::with_capacity(records.len());
        for &(read_id, group) in records {
            if group >= self.groups {
                return Err(Blow5WriteError::Record {
                    read_id: read_id.to_string(),
                    what: format!("read group {group} of a file with {}", self.groups),
                });
            }
            if self.options.unique_read_ids
                && (self.ids.contains(read_id) || !batch.insert(read_id))
            {
                return Err(Blow5WriteError::DuplicateReadId { read_id: read_id.to_string() });
            }
        }
        self.flush_pending()?;
        let src = from.source();
        let copied = match src.file() {
            Some(file) => self.out.append_range_of(file, offset, len),
            None => src
                .with_bytes(offset, len as usize, |bytes| self.out.write_all(bytes))
                .and_then(|written| written),
        };
        copied.map_err(|source| {
            // Bytes missing from the source are its fault; anything else the output's.
            let path = match source.kind() {
                std::io::ErrorKind::UnexpectedEof => from.path().to_path_buf(),
                _ => self.out.destination().to_path_buf(),
            };
            Blow5WriteError::Io { path, source }
        })?;
        if self.options.unique_read_ids {
            self.ids.extend(records.iter().map(|(id, _)| id.to_string()));
        }
        self.written += records.len() as u64;
        Ok(())
    }

    /// Writes what is buffered and the end-of-file marker, then gives the file its name.
    /// Returns the number of records.
    pub fn finish(self) -> Result<u64, Blow5WriteError> {
        let io = |path, source| Blow5WriteError::Io { path, source };
        svb_io::Staged::publish_finished(self.finish_staged()?, io)
    }

    /// [`finish`](Writer::finish) without giving the file its name: the complete file, for
    /// one of several outputs published together ([`svb_io::publish_all`]).
    pub fn finish_staged(mut self) -> Result<(u64, svb_io::Staged), Blow5WriteError> {
        self.flush_pending()?;
        if self.options.form == Form::Binary {
            self.write_all(EOF_MARKER)?;
        }
        let path = self.out.destination().to_path_buf();
        let publish = self.options.publish;
        let staged =
            publish.stage(self.out).map_err(|source| Blow5WriteError::Io { path, source })?;
        Ok((self.written, staged))
    }

    fn check(&self, r: &Record) -> Result<(), Blow5WriteError> {
        self.check_holding(r, r.raw_signal.len())
    }

    /// The checks of [`check`](Writer::check) of record `r` holding `samples` samples (its
    /// `raw_signal` is not looked at: a caller that has the samples elsewhere checks the
    /// record's other fields without copying them in).
    pub(crate) fn check_holding(&self, r: &Record, samples: usize) -> Result<(), Blow5WriteError> {
        let bad = |what: String| Blow5WriteError::Record { read_id: r.read_id.clone(), what };
        if r.read_id.is_empty() || r.read_id.len() > u16::MAX as usize {
            return Err(bad(format!("a read id of {} bytes (1 to 65535)", r.read_id.len())));
        }
        if samples == 0 && self.options.signal_compression == SignalCompression::ExZd {
            return Err(bad(
                "an empty signal cannot be stored as ex-zd: slow5lib cannot read one back \
                 (SVB-ZD or no signal compression can)"
                    .into(),
            ));
        }
        if self.options.signal_compression != SignalCompression::None
            && u32::try_from(samples).is_err()
        {
            return Err(bad(format!(
                "{samples} samples: slow5lib's compressed signals hold fewer than 2^32"
            )));
        }
        if r.read_group >= self.groups {
            return Err(bad(format!("read group {} of a file with {}", r.read_group, self.groups)));
        }
        if self.options.unique_read_ids && self.ids.contains(&r.read_id) {
            return Err(Blow5WriteError::DuplicateReadId { read_id: r.read_id.clone() });
        }
        for (name, _) in &r.aux {
            if !self.aux.iter().any(|f| &f.name == name) {
                return Err(bad(format!("auxiliary field {name} is not in the schema")));
            }
        }
        for f in &self.aux {
            let Some((_, v)) = r.aux.iter().find(|(n, _)| n == &f.name) else {
                return Err(bad(format!("auxiliary field {} missing", f.name)));
            };
            check_aux(&f.ty, v).map_err(|w| bad(format!("auxiliary field {}: {w}", f.name)))?;
        }
        if self.options.form == Form::Text {
            super::text::check_record(r, &self.aux).map_err(bad)?;
        }
        Ok(())
    }

    fn flush_pending(&mut self) -> Result<(), Blow5WriteError> {
        let pending = std::mem::take(&mut self.pending);
        let r = self.write_batch(&pending);
        self.pending = pending;
        self.pending.clear();
        r
    }

    /// Compresses `records` on rayon's pool and writes them in order, each as soon as it
    /// and those before it are compressed.
    fn write_batch<R: Borrow<Record> + Sync>(
        &mut self, records: &[R],
    ) -> Result<(), Blow5WriteError> {
        let (aux, options, out) = (&self.aux, &self.options, &mut self.out);
        svb_io::encode_in_order(
            records,
            |r| encode_record(r.borrow(), aux, options),
            |bytes| write_to(out, &bytes),
        )?;
        self.written += records.len() as u64;
        Ok(())
    }

    fn write_all(&mut self, bytes: &[u8]) -> Result<(), Blow5WriteError> {
        write_to(&mut self.out, bytes)
    }
}

fn write_to(out: &mut PartialFile, bytes: &[u8]) -> Result<(), Blow5WriteError> {
    out.write_all(bytes)
        .map_err(|source| Blow5WriteError::Io { path: out.destination().to_path_buf(), source })
}

/// About the bytes an auxiliary value takes in a record (a capacity hint).
fn aux_len(v: &AuxValue) -> usize {
    match v {
        AuxValue::Text(t) => 2 + t.len(),
        AuxValue::Array(b) => 8 + b.len(),
        _ => 8,
    }
}

/// Checks that `v` fits the field type `ty`.
fn check_aux(ty: &FieldType, v: &AuxValue) -> Result<(), String> {
    match (ty, v) {
        (FieldType::Enum(labels), AuxValue::Enum(i, _)) => {
            // 255 is slow5lib's missing value.
            if (*i as usize) < labels.len() || *i == u8::MAX {
                Ok(())
            } else {
                Err(format!("label {i} of an enum of {}", labels.len()))
            }
        }
        (FieldType::Scalar { name, size }, v) => match (name.as_str(), v) {
            ("char", AuxValue::Char(_)) => Ok(()),
            ("float" | "double", AuxValue::Float(_)) => Ok(()),
            (n, AuxValue::UInt(u)) if n.starts_with('u') => {
                if *size == 8 || *u < 1u64 << (8 * size) {
                    Ok(())
                } else {
                    Err(format!("{u} does not fit {n}"))
                }
            }
            (n, AuxValue::Int(i)) if n.starts_with("int") => {
                let bits = 8 * *size as u32;
                if bits == 64 || (*i >= -(1i64 << (bits - 1)) && *i < 1i64 << (bits - 1)) {
                    Ok(())
                } else {
                    Err(format!("{i} does not fit {n}"))
                }
            }
            (n, v) => Err(format!("a {} value for a {n} field", kind(v))),
        },
        (FieldType::Array { name, .. }, AuxValue::Text(_)) if name == "char" => Ok(()),
        (FieldType::Array { name, size }, AuxValue::Array(b)) => {
            if b.len() % size == 0 {
                Ok(())
            } else {
                Err(format!("{} bytes, not whole {name} items", b.len()))
            }
        }
        (ty, v) => Err(format!("a {} value for a {} field", kind(v), ty.spelling())),
    }
}

fn kind(v: &AuxValue) -> &'static str {
    match v {
        AuxValue::Int(_) => "signed integer",
        AuxValue::UInt(_) => "unsigned integer",
        AuxValue::Float(_) => "floating-point",
        AuxValue::Text(_) => "text",
        AuxValue::Char(_) => "char",
        AuxValue::Array(_) => "array",
        AuxValue::Enum(..) => "enum",
    }
}

/// One record as the file stores it: `u64 size | record` (the record compressed as the
/// options say). The record was checked against the schema.
fn encode_record(
    r: &Record, aux: &[AuxField], options: &WriteOptions,
) -> Result<Vec<u8>, Blow5WriteError> {
    if options.form == Form::Text {
        let mut line = Vec::new();
        super::text::record_line(r, aux, &mut line, options.float_text);
        return Ok(line);
    }
    // Room for the largest signal encoding, so that no encoder grows (and copies) the body.
    let n = r.raw_signal.len();
    let signal_room = match options.signal_compression {
        SignalCompression::None => 2 * n,
        SignalCompression::SvbZd => 4 + svb_slow5_signal::svbzd::max_encoded_len(n),
        SignalCompression::ExZd => 4 * n,
    };
    let aux_room: usize = r.aux.iter().map(|(_, v)| aux_len(v)).sum();
    let mut body = Vec::with_capacity(64 + r.read_id.len() + signal_room + aux_room);
    body.extend((r.read_id.len() as u16).to_le_bytes());
    body.extend(r.read_id.as_bytes());
    body.extend(r.read_group.to_le_bytes());
    for v in [r.digitisation, r.offset, r.range, r.sampling_rate] {
        body.extend(v.to_le_bytes());
    }
    let len_at = body.len();
    body.extend(0u64.to_le_bytes());
    let signal_start = body.len();
    let len_raw_signal = match options.signal_compression {
        SignalCompression::None => {
            body.extend(r.raw_signal.iter().flat_map(|s| s.to_le_bytes()));
            r.raw_signal.len()
        }
        SignalCompression::SvbZd => {
            svb_slow5_signal::svbzd::encode_blob_into(&r.raw_signal, &mut body);
            body.len() - signal_start
        }
        SignalCompression::ExZd => {
            svb_slow5_signal::exzd::encode_exzd_into(&r.raw_signal, &mut body);
            body.len() - signal_start
        }
    };
    body[len_at..len_at + 8].copy_from_slice(&(len_raw_signal as u64).to_le_bytes());
    for f in aux {
        write_aux(&f.ty, r.checked_aux(&f.name), &mut body);
    }
    let mut out = Vec::with_capacity(match options.record_compression {
        RecordCompression::Zstd => 8 + svb_io::zstd_frame::compress_bound(body.len()),
        _ => 8 + body.len() + body.len() / 64 + 64,
    });
    out.extend(0u64.to_le_bytes());
    match options.record_compression {
        RecordCompression::None => out.extend(&body),
        RecordCompression::Zstd => svb_io::zstd_frame::compress_with_into(
            ZSTD_LEVEL,
            options.zstd_profile,
            &body,
            &mut out,
        )
        .map_err(|source| Blow5WriteError::Compress { read_id: r.read_id.clone(), source })?,
        RecordCompression::Zlib => super::compress::zlib_compress_into(&body, &mut out),
    }
    let size = (out.len() - 8) as u64;
    out[..8].copy_from_slice(&size.to_le_bytes());
    Ok(out)
}

/// Appends a checked auxiliary value.
fn write_aux(ty: &FieldType, v: &AuxValue, out: &mut Vec<u8>) {
    match (ty, v) {
        (FieldType::Enum(_), AuxValue::Enum(i, _)) => out.push(*i),
        (FieldType::Scalar { name, size }, v) => {
            out.extend(super::record::scalar_bytes(name, *size, v));
        }
        (FieldType::Array { .. }, AuxValue::Text(t)) => {
            out.extend((t.len() as u64).to_le_bytes());
            out.extend(t.as_bytes());
        }
        (FieldType::Array { size, .. }, AuxValue::Array(b)) => {
            out.extend(((b.len() / size) as u64).to_le_bytes());
            out.extend(b);
        }
        _ => unreachable!("checked against the field type"),
    }
}

impl svb_model::ReadSink for Writer {
    type Error = Blow5WriteError;
    type Read = Record;

    fn format(&self) -> svb_model::Format {
        match self.options.form {
            Form::Binary => svb_model::Format::Blow5,
            Form::Text => svb_model::Format::Slow5,
        }
    }

    fn len(&self) -> u64 {
        Writer::len(self)
    }

    fn samples(read: &Record) -> u64 {
        read.raw_signal.len() as u64
    }

    /// The checks [`add_records`](Writer::add_records) makes of one record.
    fn check(&self, read: &Record) -> Result<(), Blow5WriteError> {
        Writer::check(self, read)
    }

    fn add_reads(&mut self, reads: Vec<Record>) -> Result<(), Blow5WriteError> {
        self.add_records(&reads)
    }

    fn finish(self) -> Result<u64, Blow5WriteError> {
        Writer::finish(self)
    }
}
