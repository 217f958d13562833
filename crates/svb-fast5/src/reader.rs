//! [`Reader`]: a FAST5 file's reads, their attributes and their signal.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use hdf5_reader::error::Error as Hdf5Error;
use hdf5_reader::group::Group;
use hdf5_reader::{Datatype, FilterRegistry, Hdf5File, OpenOptions};
use rayon::prelude::*;
use svb_io::Threads;

use crate::attrs::{value, AttrValue, Attrs};
use crate::storage::FileStorage;
use crate::vbz_chunks::{self, ChunkError, MAX_CHUNK_BYTES, VBZ_FILTER_ID};
use crate::Fast5Error;

/// The most samples a read's signal may declare (2^32 - 1: the counts of every FAST5 writer
/// are 32-bit; a larger declaration is refused before anything is allocated).
pub const MAX_SAMPLES: u64 = u32::MAX as u64;

/// Samples a signal's buffer is sized for before its chunks are decoded (1 Mi: 2 MiB), at
/// most: a longer read's buffer grows with the samples its chunks really hold.
const RESERVE_SAMPLES: usize = 1 << 20;

/// How the file lays out its reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Layout {
    /// `/read_<id>/{Raw,channel_id,tracking_id,context_tags}`: MinKNOW's files since 2018.
    MultiRead,
    /// `/Raw/Reads/Read_<n>` with `/UniqueGlobalKey/{channel_id,tracking_id,context_tags}`:
    /// one read a file, the older form.
    SingleRead,
}

/// Why a read ended, as the file stores it: an HDF5 enum's label and number, or a plain
/// integer or string some writers store instead.
#[derive(Clone, Debug, PartialEq)]
pub struct EndReason {
    /// The label (`signal_positive`, `unblock_mux_change`, ...); `None` for a number no label
    /// names (a plain integer, or a value outside the enum).
    pub label: Option<String>,
    /// The stored number (`None` for a string).
    pub value: Option<i64>,
    /// The enum type's labels in its order (empty for a plain integer or string).
    pub labels: Vec<String>,
}

/// One read: every attribute the converters map, as the file stores it.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Read {
    /// The read's id (`Raw/read_id`).
    pub read_id: String,
    /// MinKNOW's read number.
    pub read_number: i64,
    /// The read's first sample, counted from the start of the run.
    pub start_time: u64,
    /// Samples in the read.
    pub duration: u64,
    /// The well (mux) the read started in.
    pub start_mux: u64,
    /// Current before the read (pA); `None` where the attribute is absent.
    pub median_before: Option<f64>,
    /// Why the read ended; `None` where the attribute is absent (older files).
    pub end_reason: Option<EndReason>,
    /// The channel (`channel_id/channel_number`, a string in every FAST5 version).
    pub channel_number: String,
    /// ADC steps of the digitiser (`channel_id/digitisation`).
    pub digitisation: f64,
    /// Calibration offset (`channel_id/offset`): pA = (sample + offset) * range / digitisation.
    pub offset: f64,
    /// Calibration range (`channel_id/range`).
    pub range: f64,
    /// Samples a second (`channel_id/sampling_rate`).
    pub sampling_rate: f64,
    /// The run: the read group's `run_id` attribute, else the tracking group's.
    pub run_id: String,
    /// The read group's `pore_type` attribute, where present.
    pub pore_type: Option<String>,
    /// The `Raw` group's attributes, every one (the mapped ones included).
    pub raw: Attrs,
    /// The `channel_id` group's attributes.
    pub channel_id: Attrs,
    /// The `tracking_id` group's attributes (shared between reads where the file shares the
    /// group).
    pub tracking_id: Attrs,
    /// The `context_tags` group's attributes (shared likewise).
    pub context_tags: Attrs,
}

impl Read {
    /// The signal's calibration scale, `range / digitisation`.
    pub fn scale(&self) -> f64 {
        self.range / self.digitisation
    }
}

/// A read's groups, each looked up once: the read group (multi-read files), `Raw`, and the
/// shared groups with their paths (`None` where the file lacks one).
struct ReadGroups {
    read: Option<Group>,
    raw: Group,
    channel_id: Option<(Group, String)>,
    tracking_id: Option<(Group, String)>,
    context_tags: Option<(Group, String)>,
}

/// Where a read's groups are.
#[derive(Clone)]
pub(crate) struct Entry {
    /// The read's id (from the group name in a multi-read file, from `Raw/read_id` in a
    /// single-read one).
    read_id: String,
    /// The read group (`/read_<id>`), or the root of a single-read file.
    group: String,
    /// The `Raw` group (`/read_<id>/Raw`, `/Raw/Reads/Read_<n>`).
    raw: String,
    /// The group holding `channel_id`, `tracking_id` and `context_tags`.
    shared: String,
    /// The read group itself (multi-read files).
    handle: Option<Group>,
}

/// An open FAST5 file: its reads found and listed; each read's attributes and signal read
/// when asked for. HDF5 is read in pure Rust; VBZ chunks (filter 32020) are decoded by
/// `svb_vbz::hdf5_filter`, gzip ones by the HDF5 layer.
///
/// ```no_run
/// let file = svb_fast5::Reader::open("reads.fast5")?;
/// for i in 0..file.len() {
///     let read = file.read(i)?;
///     let signal = file.signal(i)?;
///     println!("{} ch {} {} samples", read.read_id, read.channel_number, signal.len());
/// }
/// # Ok::<(), svb_fast5::Fast5Error>(())
/// ```
pub struct Reader {
    path: PathBuf,
    pub(crate) file: Hdf5File,
    layout: Layout,
    reads: Vec<Entry>,
    by_id: HashMap<String, usize>,
    /// Parsed attribute groups by HDF5 address: the groups that many reads share (hard
    /// links) are read once.
    groups: Mutex<HashMap<u64, Attrs>>,
}

impl std::fmt::Debug for Reader {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Reader")
            .field("path", &self.path)
            .field("layout", &self.layout)
            .field("reads", &self.reads.len())
            .finish_non_exhaustive()
    }
}

/// The filters FAST5 signal uses: the HDF5 built-ins (gzip) and VBZ.
fn filters() -> FilterRegistry {
    let mut registry = FilterRegistry::new();
    registry.register(
        VBZ_FILTER_ID,
        Box::new(|filter, data, _element_size| {
            let options = svb_vbz::hdf5_filter::Options::from_cd_values(&filter.client_data)
                .map_err(|e| Hdf5Error::FilterError(format!("VBZ: {e}")))?;
            let len = svb_vbz::hdf5_filter::decompressed_size(data)
                .map_err(|e| Hdf5Error::FilterError(format!("VBZ: {e}")))?;
            if len > MAX_CHUNK_BYTES {
                return Err(Hdf5Error::FilterError(format!(
                    "VBZ: a chunk of {len} bytes (at most {MAX_CHUNK_BYTES})"
                )));
            }
            svb_vbz::hdf5_filter::decompress_sized(data, &options)
                .map_err(|e| Hdf5Error::FilterError(format!("VBZ: {e}")))
        }),
    );
    registry
}

/// How the HDF5 layer opens a FAST5 file: its filters, the chunk cap, no chunk cache.
fn options() -> OpenOptions {
    OpenOptions::default()
        .with_filter_registry(filters())
        .with_max_chunk_bytes(MAX_CHUNK_BYTES)
        .with_chunk_cache_bytes(0)
}

impl Reader {
    /// Opens `path` and lists its reads. The file is read where it is asked for (positioned
    /// reads, the metadata through 16 KiB blocks of a 4 MiB cache every open FAST5 file
    /// shares: memory holds what is being decoded, not the file), and each chunk is decoded
    /// once, so no decoded chunk is cached.
    pub fn open(path: impl AsRef<Path>) -> Result<Self, Fast5Error> {
        let path = path.as_ref().to_path_buf();
        let storage = match FileStorage::open(&path) {
            Ok(s) => s,
            Err(source) => return Err(Fast5Error::Io { path, source }),
        };
        let file = Hdf5File::from_storage_with_options(Arc::new(storage), options());
        Self::from_file(path, file)
    }

    /// A reader over a FAST5 file already in memory (`path` names it in errors).
    pub fn from_bytes(path: impl Into<PathBuf>, bytes: Vec<u8>) -> Result<Self, Fast5Error> {
        let file = Hdf5File::from_vec_with_options(bytes, options());
        Self::from_file(path.into(), file)
    }

    fn from_file(path: PathBuf, file: Result<Hdf5File, Hdf5Error>) -> Result<Self, Fast5Error> {
        let file = file.map_err(|source| Fast5Error::Hdf5 {
            path: path.clone(),
            what: "not a readable HDF5 file".into(),
            source,
        })?;
        let mut reader = Reader {
            path,
            file,
            layout: Layout::MultiRead,
            reads: Vec::new(),
            by_id: HashMap::new(),
            groups: Mutex::new(HashMap::new()),
        };
        reader.list_reads()?;
        Ok(reader)
    }

    fn hdf5(&self, what: impl Into<String>) -> impl FnOnce(Hdf5Error) -> Fast5Error + '_ {
        let what = what.into();
        move |source| Fast5Error::Hdf5 {
            path: self.path.clone(),
            what,
            source,
        }
    }

    fn list_reads(&mut self) -> Result<(), Fast5Error> {
        let root = self.file.root_group().map_err(self.hdf5("/"))?;
        // The groups themselves, not their names: each read's is then at hand, where a lookup
        // by name from a root of thousands of members walks its B-tree again.
        let groups = root.groups().map_err(self.hdf5("/"))?;
        let mut reads: Vec<Entry> = groups
            .iter()
            .filter_map(|g| g.name().strip_prefix("read_").map(|id| (g, id)))
            .map(|(g, id)| Entry {
                read_id: id.to_string(),
                group: format!("/{}", g.name()),
                raw: format!("/{}/Raw", g.name()),
                shared: format!("/{}", g.name()),
                handle: Some(g.clone()),
            })
            .collect();
        if reads.is_empty() && groups.iter().any(|g| g.name() == "Raw") {
            self.layout = Layout::SingleRead;
            let raw = self
                .file
                .group("/Raw/Reads")
                .map_err(self.hdf5("/Raw/Reads"))?;
            let (names, _) = raw.member_names().map_err(self.hdf5("/Raw/Reads"))?;
            for name in names {
                let raw = format!("/Raw/Reads/{name}");
                let attrs = self.attrs_at(&raw)?;
                let read_id = match find(&attrs, "read_id") {
                    Some(AttrValue::Text(id)) => id.clone(),
                    _ => {
                        return Err(Fast5Error::Field {
                            path: self.path.clone(),
                            read: raw.clone(),
                            field: format!("{raw}/read_id"),
                            what: "missing, or not a string".into(),
                        })
                    }
                };
                reads.push(Entry {
                    read_id,
                    group: "/".into(),
                    raw,
                    shared: "/UniqueGlobalKey".into(),
                    handle: None,
                });
            }
        }
        if reads.is_empty() {
            return Err(Fast5Error::NotFast5 {
                path: self.path.clone(),
                what: "no reads: neither /read_* groups nor /Raw/Reads".into(),
            });
        }
        for (i, e) in reads.iter().enumerate() {
            if self.by_id.insert(e.read_id.clone(), i).is_some() {
                return Err(Fast5Error::Field {
                    path: self.path.clone(),
                    read: e.read_id.clone(),
                    field: e.raw.clone(),
                    what: "a read id that an earlier read of the file has".into(),
                });
            }
        }
        self.reads = reads;
        Ok(())
    }

    /// The attributes of the group at `path`, read once for every read that shares it.
    fn attrs_at(&self, path: &str) -> Result<Attrs, Fast5Error> {
        let group = self.file.group(path).map_err(self.hdf5(path))?;
        self.attrs_of(&group, path)
    }

    fn attrs_of(&self, group: &Group, path: &str) -> Result<Attrs, Fast5Error> {
        let address = group.address();
        if let Some(a) = self.groups.lock().expect("not poisoned").get(&address) {
            return Ok(a.clone());
        }
        let attrs: Attrs = group
            .attributes()
            .map_err(self.hdf5(path))?
            .iter()
            .map(|a| (a.name.clone(), value(a)))
            .collect();
        self.groups
            .lock()
            .expect("not poisoned")
            .insert(address, attrs.clone());
        Ok(attrs)
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The file's layout.
    pub fn layout(&self) -> Layout {
        self.layout
    }

    /// Reads in the file.
    pub fn len(&self) -> usize {
        self.reads.len()
    }

    /// Whether the file has no reads (never: such a file is refused at open).
    pub fn is_empty(&self) -> bool {
        self.reads.is_empty()
    }

    /// Read `index`'s id.
    pub fn read_id(&self, index: usize) -> Result<&str, Fast5Error> {
        Ok(&self.entry(index)?.read_id)
    }

    /// The index of the read `read_id`.
    pub fn find(&self, read_id: &str) -> Option<usize> {
        self.by_id.get(read_id).copied()
    }

    /// The file's root attributes (`file_version`, ...).
    pub fn root_attributes(&self) -> Result<Attrs, Fast5Error> {
        self.attrs_at("/")
    }

    pub(crate) fn entry(&self, index: usize) -> Result<&Entry, Fast5Error> {
        self.reads.get(index).ok_or(Fast5Error::NoRead {
            path: self.path.clone(),
            index,
            len: self.reads.len(),
        })
    }

    /// The groups of read `e`, each looked up once (a multi-read file's from its read group,
    /// not from the root, whose thousands of members make every lookup from it a B-tree
    /// walk).
    fn groups(&self, e: &Entry) -> Result<ReadGroups, Fast5Error> {
        // A lookup's group, `None` when the file has none there.
        let found = |looked: Result<Group, Hdf5Error>, path: &str| match looked {
            Ok(g) => Ok(Some(g)),
            Err(Hdf5Error::GroupNotFound(_)) => Ok(None),
            Err(source) => Err(self.hdf5(path)(source)),
        };
        let child = |parent: &Group, name: &str, path: String| {
            Ok(found(parent.group(name), &path)?.map(|g| (g, path)))
        };
        let missing = || Fast5Error::Field {
            path: self.path.clone(),
            read: e.read_id.clone(),
            field: e.raw.clone(),
            what: "missing group".into(),
        };
        let (read, raw, shared) = match self.layout {
            Layout::MultiRead => {
                let read = match &e.handle {
                    Some(g) => g.clone(),
                    None => self.file.group(&e.group).map_err(self.hdf5(&e.group))?,
                };
                let raw = found(read.group("Raw"), &e.raw)?.ok_or_else(missing)?;
                (Some(read.clone()), raw, Some(read))
            }
            Layout::SingleRead => {
                let raw = found(self.file.group(&e.raw), &e.raw)?.ok_or_else(missing)?;
                let shared = found(self.file.group(&e.shared), &e.shared)?;
                (None, raw, shared)
            }
        };
        let of_shared = |name: &str| -> Result<Option<(Group, String)>, Fast5Error> {
            let path = format!("{}/{name}", e.shared);
            match &shared {
                Some(g) => child(g, name, path),
                None => Ok(None),
            }
        };
        Ok(ReadGroups {
            channel_id: of_shared("channel_id")?,
            tracking_id: of_shared("tracking_id")?,
            context_tags: of_shared("context_tags")?,
            read,
            raw,
        })
    }

    /// Read `index`'s attributes.
    pub fn read(&self, index: usize) -> Result<Read, Fast5Error> {
        let e = self.entry(index)?;
        let groups = self.groups(e)?;
        self.read_in(e, &groups)
    }

    /// Read `index`'s attributes, and its signal into `out` (as
    /// [`signal_into`](Reader::signal_into)), its groups looked up once for both.
    pub fn read_with_signal(&self, index: usize, out: &mut Vec<i16>) -> Result<Read, Fast5Error> {
        let e = self.entry(index)?;
        let groups = self.groups(e)?;
        let read = self.read_in(e, &groups)?;
        let path = format!("{}/Signal", e.raw);
        let ds = groups
            .raw
            .dataset("Signal")
            .map_err(self.hdf5(path.clone()))?;
        self.signal_of(e, ds, path, out)?;
        Ok(read)
    }

    fn read_in(&self, e: &Entry, groups: &ReadGroups) -> Result<Read, Fast5Error> {
        let channel_group = format!("{}/channel_id", e.shared);
        let attrs = |g: &Option<(Group, String)>| -> Result<Option<Attrs>, Fast5Error> {
            g.as_ref()
                .map(|(g, path)| self.attrs_of(g, path))
                .transpose()
        };
        let raw = self.attrs_of(&groups.raw, &e.raw)?;
        let channel_id = attrs(&groups.channel_id)?.ok_or_else(|| Fast5Error::Field {
            path: self.path.clone(),
            read: e.read_id.clone(),
            field: channel_group.clone(),
            what: "missing group".into(),
        })?;
        let none = || Arc::from(Vec::new());
        let tracking_id = attrs(&groups.tracking_id)?.unwrap_or_else(none);
        let context_tags = attrs(&groups.context_tags)?.unwrap_or_else(none);
        let read_group = match &groups.read {
            Some(g) => self.attrs_of(g, &e.group)?,
            None => none(),
        };
        let field = |group: &str, name: &str, what: &str| Fast5Error::Field {
            path: self.path.clone(),
            read: e.read_id.clone(),
            field: format!("{group}/{name}"),
            what: what.to_string(),
        };
        let raw_group = e.raw.as_str();
        fn get<'a>(
            attrs: &'a Attrs,
            name: &str,
            missing: impl FnOnce() -> Fast5Error,
        ) -> Result<&'a AttrValue, Fast5Error> {
            find(attrs, name).ok_or_else(missing)
        }
        let uint = |attrs: &Attrs, group: &str, name: &str| {
            let v = get(attrs, name, || field(group, name, "missing"))?;
            v.as_u64().ok_or_else(|| {
                field(
                    group,
                    name,
                    &format!("not a non-negative integer ({})", v.described()),
                )
            })
        };
        let float = |attrs: &Attrs, group: &str, name: &str| {
            let v = get(attrs, name, || field(group, name, "missing"))?;
            v.as_f64()
                .ok_or_else(|| field(group, name, &format!("not a number ({})", v.described())))
        };
        let read_id = match get(&raw, "read_id", || field(raw_group, "read_id", "missing"))? {
            AttrValue::Text(id) => id.clone(),
            v => {
                return Err(field(
                    raw_group,
                    "read_id",
                    &format!("not a string ({})", v.described()),
                ))
            }
        };
        if read_id != e.read_id {
            return Err(field(
                raw_group,
                "read_id",
                &format!("{read_id:?}, not the id its group is named after"),
            ));
        }
        let read_number = {
            let v = get(&raw, "read_number", || {
                field(raw_group, "read_number", "missing")
            })?;
            v.as_i64().ok_or_else(|| {
                field(
                    raw_group,
                    "read_number",
                    &format!("not an integer ({})", v.described()),
                )
            })?
        };
        let median_before = match find(&raw, "median_before") {
            None => None,
            Some(v) => Some(v.as_f64().ok_or_else(|| {
                field(
                    raw_group,
                    "median_before",
                    &format!("not a number ({})", v.described()),
                )
            })?),
        };
        let end_reason = match find(&raw, "end_reason") {
            None => None,
            Some(AttrValue::Enum {
                label,
                value,
                labels,
            }) => Some(EndReason {
                label: label.clone(),
                value: Some(*value),
                labels: labels.clone(),
            }),
            Some(v @ (AttrValue::Int(_) | AttrValue::UInt(_))) => Some(EndReason {
                label: None,
                value: v.as_i64(),
                labels: Vec::new(),
            }),
            Some(AttrValue::Text(s)) => Some(EndReason {
                label: Some(s.clone()),
                value: None,
                labels: Vec::new(),
            }),
            Some(v) => {
                return Err(field(
                    raw_group,
                    "end_reason",
                    &format!("not an enum, integer or string ({})", v.described()),
                ))
            }
        };
        let missing = || field(&channel_group, "channel_number", "missing");
        let channel_number = match get(&channel_id, "channel_number", missing)? {
            AttrValue::Text(s) => s.clone(),
            v @ (AttrValue::Int(_) | AttrValue::UInt(_)) => v.to_text(),
            v => {
                return Err(field(
                    &channel_group,
                    "channel_number",
                    &format!("not a string ({})", v.described()),
                ))
            }
        };
        let run_id = match find(&read_group, "run_id").or_else(|| find(&tracking_id, "run_id")) {
            Some(AttrValue::Text(s)) => s.clone(),
            Some(v) => {
                return Err(field(
                    &e.group,
                    "run_id",
                    &format!("not a string ({})", v.described()),
                ))
            }
            None => return Err(field(&e.group, "run_id", "missing (and in tracking_id)")),
        };
        let pore_type = match find(&read_group, "pore_type") {
            Some(AttrValue::Text(s)) => Some(s.clone()),
            Some(v) => {
                return Err(field(
                    &e.group,
                    "pore_type",
                    &format!("not a string ({})", v.described()),
                ))
            }
            None => None,
        };
        Ok(Read {
            read_id,
            read_number,
            start_time: uint(&raw, raw_group, "start_time")?,
            duration: uint(&raw, raw_group, "duration")?,
            start_mux: uint(&raw, raw_group, "start_mux")?,
            median_before,
            end_reason,
            channel_number,
            digitisation: float(&channel_id, &channel_group, "digitisation")?,
            offset: float(&channel_id, &channel_group, "offset")?,
            range: float(&channel_id, &channel_group, "range")?,
            sampling_rate: float(&channel_id, &channel_group, "sampling_rate")?,
            run_id,
            pore_type,
            raw,
            channel_id,
            tracking_id,
            context_tags,
        })
    }

    /// Read `index`'s sample count as its signal dataset declares it (its shape: nothing is
    /// decoded; [`signal`](Reader::signal) checks that the chunks hold as many).
    pub fn samples(&self, index: usize) -> Result<u64, Fast5Error> {
        Ok(self.signal_dataset(index)?.3)
    }

    /// Read `index`'s signal dataset, its path, whether it is little-endian, and its declared
    /// samples, the type and shape checked.
    pub(crate) fn signal_dataset(
        &self,
        index: usize,
    ) -> Result<(hdf5_reader::Dataset, String, bool, u64), Fast5Error> {
        let e = self.entry(index)?;
        let (ds, path) = self.signal_of_entry(e)?;
        let (little, n) = self.check_signal(e, &ds)?;
        Ok((ds, path, little, n))
    }

    /// Read `e`'s signal dataset and its path (from its read group where the file has one).
    fn signal_of_entry(&self, e: &Entry) -> Result<(hdf5_reader::Dataset, String), Fast5Error> {
        let path = format!("{}/Signal", e.raw);
        let ds = match &e.handle {
            Some(g) => g.group("Raw").and_then(|raw| raw.dataset("Signal")),
            None => self.file.dataset(&path),
        };
        Ok((ds.map_err(self.hdf5(path.clone()))?, path))
    }

    /// Whether read `e`'s signal dataset `ds` is little-endian, and its declared samples, its
    /// type and shape checked.
    fn check_signal(
        &self,
        e: &Entry,
        ds: &hdf5_reader::Dataset,
    ) -> Result<(bool, u64), Fast5Error> {
        let bad = |what: String| self.signal_error(e, what);
        let little = match ds.dtype() {
            Datatype::FixedPoint {
                size: 2,
                signed: true,
                byte_order,
            } => *byte_order == hdf5_reader::ByteOrder::LittleEndian,
            t => return Err(bad(format!("a dataset of {t:?}, not int16"))),
        };
        if ds.ndim() != 1 {
            let shape = ds.shape();
            return Err(bad(format!(
                "a dataset of shape {shape:?}, not one dimension"
            )));
        }
        let n = ds.shape()[0];
        if n > MAX_SAMPLES {
            return Err(bad(format!("{n} samples declared (at most {MAX_SAMPLES})")));
        }
        Ok((little, n))
    }

    fn signal_error(&self, e: &Entry, what: String) -> Fast5Error {
        Fast5Error::Signal {
            path: self.path.clone(),
            read: e.read_id.clone(),
            what,
        }
    }

    /// Read `index`'s raw signal (ADC samples).
    pub fn signal(&self, index: usize) -> Result<Vec<i16>, Fast5Error> {
        let mut out = Vec::new();
        self.signal_into(index, &mut out).map(|()| out)
    }

    /// Read `index`'s raw signal into `out` (replacing what it held; its capacity is reused).
    /// Chunks are decoded one after another and appended: memory grows with the samples
    /// actually decoded, never with what a header declares.
    pub fn signal_into(&self, index: usize, out: &mut Vec<i16>) -> Result<(), Fast5Error> {
        let e = self.entry(index)?;
        let (ds, path) = self.signal_of_entry(e)?;
        self.signal_of(e, ds, path, out)
    }

    /// The samples of `ds`, read `e`'s signal dataset at `path`, into `out`.
    fn signal_of(
        &self,
        e: &Entry,
        ds: hdf5_reader::Dataset,
        path: String,
        out: &mut Vec<i16>,
    ) -> Result<(), Fast5Error> {
        out.clear();
        let bad = |what: String| self.signal_error(e, what);
        let (little, n) = self.check_signal(e, &ds)?;
        let n = n as usize;
        // The VBZ chunk path reserves what the chunk index justifies (reserving here first
        // would make that a reallocation, a copy of the whole buffer).
        let fast = match little && ds.chunks().is_some() {
            true => vbz_chunks::decode(&self.file, &ds, n, out),
            false => Err(ChunkError::NotHere),
        };
        match fast {
            Ok(()) => {}
            Err(ChunkError::Hdf5(source)) => return Err(self.hdf5(path)(source)),
            Err(ChunkError::Signal(what)) => {
                out.clear();
                return Err(bad(what));
            }
            Err(ChunkError::NotHere) => {
                // Room for the declared samples up to a bound (what a header declares is not
                // trusted further: past it, memory grows with the samples decoded).
                out.reserve(n.min(RESERVE_SAMPLES));
                self.signal_through_hdf5(e, &ds, path, little, n, out)?
            }
        }
        if out.len() != n {
            let got = out.len();
            out.clear();
            return Err(bad(format!("{got} samples stored of the {n} declared")));
        }
        Ok(())
    }

    /// The samples of `ds` decoded by the HDF5 layer's chunk pipeline (any filter it
    /// knows), or read as they are (contiguous or compact), appended to `out`.
    pub(crate) fn signal_through_hdf5(
        &self,
        e: &Entry,
        ds: &hdf5_reader::Dataset,
        path: String,
        little: bool,
        n: usize,
        out: &mut Vec<i16>,
    ) -> Result<(), Fast5Error> {
        let bad = |what: String| self.signal_error(e, what);
        let push = |out: &mut Vec<i16>, bytes: &[u8]| {
            let pairs = bytes.as_chunks::<2>().0.iter();
            match little {
                true => out.extend(pairs.map(|b| i16::from_le_bytes(*b))),
                false => out.extend(pairs.map(|b| i16::from_be_bytes(*b))),
            }
        };
        if ds.chunks().is_some() {
            for chunk in ds.iter_chunks().map_err(self.hdf5(path.clone()))? {
                let chunk = chunk.map_err(self.hdf5(path.clone()))?;
                let at = chunk.offsets().first().copied().unwrap_or(0);
                if at != out.len() as u64 {
                    return Err(bad(format!(
                        "a chunk at sample {at} where sample {} was next",
                        out.len()
                    )));
                }
                let take = (n - out.len()).min(chunk.bytes().len() / 2);
                push(out, &chunk.bytes()[..2 * take]);
            }
        } else {
            // Contiguous or compact: the bytes are in the file as they are.
            if (n as u64) * 2 > self.file.storage().len() {
                return Err(bad(format!("{n} samples declared in a smaller file")));
            }
            let bytes = ds.read_raw_bytes().map_err(self.hdf5(path.clone()))?;
            push(out, &bytes[..bytes.len().min(2 * n)]);
        }
        Ok(())
    }

    /// Every read's attributes and signal on the pool `threads` names, `f(index, read,
    /// signal)` for each (in no particular order); the first error stops it.
    pub fn for_each_parallel<F>(&self, threads: Threads, f: F) -> Result<(), Fast5Error>
    where
        F: Fn(usize, &Read, &[i16]) + Sync + Send,
    {
        threads.run(|| {
            (0..self.len())
                .into_par_iter()
                .try_for_each_init(Vec::new, |signal, i| {
                    let read = self.read_with_signal(i, signal)?;
                    f(i, &read, signal);
                    Ok(())
                })
        })
    }
}

/// The attribute `name` of `attrs` (a group's attributes, as [`Read`] keeps them).
pub fn find<'a>(attrs: &'a Attrs, name: &str) -> Option<&'a AttrValue> {
    attrs.iter().find(|(k, _)| k == name).map(|(_, v)| v)
}
