//! The FAST5 writer: multi-read files as ONT's tools write them (`/read_<id>` groups with
//! `Raw` and its `Signal` dataset, `channel_id`, and `tracking_id` / `context_tags` shared by
//! every read of a run through hard links, as MinKNOW shares them), the signal one chunk a
//! read (MinKNOW's layout) compressed with VBZ (HDF5 filter 32020, `cd_values` `0, 2, 1, 1`
//! as `pod5 convert to_fast5` writes them) or gzip, in pure Rust ([`hdf5`] encodes the HDF5
//! structures). The file keeps a hidden temporary name until [`Writer::finish`].
//!
//! Attributes are written with the types ONT's writers give them (`start_time` uint64,
//! `duration` uint32, `read_number` int32, `start_mux` uint8, `channel_id`'s numbers float64,
//! strings fixed-length ASCII as MinKNOW writes them, `end_reason` an enum); an attribute the
//! table does not know keeps its value's kind (64-bit integers, float64, a string, an enum).

mod hdf5;

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use rayon::prelude::*;
use svb_io::{PartialFile, Publish};

use crate::{AttrValue, Attrs};
use hdf5::{Dtype, Filter, Message};

/// How the signal of a FAST5 output is compressed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SignalFilter {
    /// VBZ (HDF5 filter 32020, ONT's): what MinKNOW and `pod5 convert to_fast5` write;
    /// readers need ONT's `vbz_h5py_plugin` (or svb).
    #[default]
    Vbz,
    /// gzip (HDF5's deflate filter) at this level, 1-9: every HDF5 reader opens it.
    Gzip(u8),
    /// Stored as it is (chunked, unfiltered).
    None,
}

/// How a FAST5 file is written.
#[derive(Clone, Copy, Debug, Default)]
pub struct WriteOptions {
    /// The signal's compression.
    pub signal: SignalFilter,
    /// Whether an existing file is replaced, and whether the file is synced before it is
    /// published.
    pub publish: Publish,
}

/// One read to write: its groups' attributes and its signal. `read` holds the read group's
/// own attributes (`run_id`, `pore_type`); `tracking_id` and `context_tags` are written once
/// per distinct content and linked from every read that has it.
#[derive(Clone, Copy, Debug)]
pub struct ReadGroups<'a> {
    /// The read's id: its group is `read_<id>`.
    pub read_id: &'a str,
    /// The read group's attributes.
    pub read: &'a [(String, AttrValue)],
    /// `Raw`'s attributes (`read_id`, `start_time`, `duration`, ...).
    pub raw: &'a [(String, AttrValue)],
    /// `channel_id`'s attributes.
    pub channel_id: &'a [(String, AttrValue)],
    /// `tracking_id`'s attributes.
    pub tracking_id: &'a Attrs,
    /// `context_tags`' attributes.
    pub context_tags: &'a Attrs,
    /// The samples.
    pub signal: &'a [i16],
}

/// One read to write, owned: [`ReadGroups`]' contents, what a conversion makes of an input's
/// read on any thread and what the writer takes as a [`svb_model::ReadSink`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct NewRead {
    /// The read's id: its group is `read_<id>`.
    pub read_id: String,
    /// The read group's attributes.
    pub read: Vec<(String, AttrValue)>,
    /// `Raw`'s attributes.
    pub raw: Vec<(String, AttrValue)>,
    /// `channel_id`'s attributes.
    pub channel_id: Vec<(String, AttrValue)>,
    /// `tracking_id`'s attributes.
    pub tracking_id: Attrs,
    /// `context_tags`' attributes.
    pub context_tags: Attrs,
    /// The samples.
    pub signal: Vec<i16>,
}

impl NewRead {
    /// The read as [`Writer::add_reads`] takes it.
    pub fn as_groups(&self) -> ReadGroups<'_> {
        ReadGroups {
            read_id: &self.read_id,
            read: &self.read,
            raw: &self.raw,
            channel_id: &self.channel_id,
            tracking_id: &self.tracking_id,
            context_tags: &self.context_tags,
            signal: &self.signal,
        }
    }
}

/// Why a FAST5 file could not be written.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Fast5WriteError {
    /// The file could not be created, written or renamed.
    #[error("{}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The OS error.
        source: std::io::Error,
    },
    /// A read cannot be written as it is.
    #[error("read {read_id}: {what}")]
    Read {
        /// The read's id.
        read_id: String,
        /// What is wrong.
        what: String,
    },
}

/// Samples in one chunk at most (128 MiB of int16): a read is one chunk up to this, as
/// MinKNOW writes it.
const MAX_CHUNK: u64 = 1 << 26;

/// A group written once and linked from several reads.
struct Shared {
    attrs: Attrs,
    address: u64,
    links: u32,
}

/// Writes a multi-read FAST5 file.
///
/// ```
/// use std::sync::Arc;
/// use svb_fast5::{AttrValue, Attrs, ReadGroups, Reader, Writer};
/// let dir = std::env::temp_dir().join(format!("svb-fast5-doc-{}", std::process::id()));
/// std::fs::create_dir_all(&dir)?;
/// let path = dir.join("reads.fast5");
/// let text = |s: &str| AttrValue::Text(s.into());
/// let tracking: Attrs = Arc::from(vec![("run_id".to_string(), text("run1"))]);
/// let context: Attrs = Arc::from(Vec::new());
/// let raw = [
///     ("read_id".to_string(), text("0d624d4b-671f-40b8-9798-84f2ccc4d7fc")),
///     ("read_number".to_string(), AttrValue::Int(7)),
///     ("start_time".to_string(), AttrValue::UInt(4000)),
///     ("duration".to_string(), AttrValue::UInt(4)),
///     ("start_mux".to_string(), AttrValue::UInt(1)),
/// ];
/// let channel = [
///     ("channel_number".to_string(), text("12")),
///     ("digitisation".to_string(), AttrValue::Float(8192.0)),
///     ("offset".to_string(), AttrValue::Float(4.0)),
///     ("range".to_string(), AttrValue::Float(1467.6)),
///     ("sampling_rate".to_string(), AttrValue::Float(4000.0)),
/// ];
/// let mut w = Writer::create(&path, Default::default())?;
/// w.add_reads(&[ReadGroups {
///     read_id: "0d624d4b-671f-40b8-9798-84f2ccc4d7fc",
///     read: &[("run_id".to_string(), text("run1"))],
///     raw: &raw,
///     channel_id: &channel,
///     tracking_id: &tracking,
///     context_tags: &context,
///     signal: &[512, 518, 497, 505],
/// }])?;
/// w.finish()?;
/// let r = Reader::open(&path)?;
/// assert_eq!(r.signal(0)?, [512, 518, 497, 505]);
/// assert_eq!(r.read(0)?.read_number, 7);
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Writer {
    out: PartialFile,
    options: WriteOptions,
    reads: Vec<(String, u64)>,
    ids: HashSet<String>,
    shared: Vec<Shared>,
    heap: Heap,
}

/// The global heap collection being filled with the strings of attributes: its place in the
/// file (reserved when it was opened, written when it is full or the file finishes), its
/// size and its objects.
#[derive(Default)]
struct Heap {
    at: u64,
    capacity: usize,
    used: usize,
    objects: Vec<Vec<u8>>,
}

/// A collection's bytes (16 KiB, or one string's that needs more): about a hundred reads'
/// strings each.
const COLLECTION: usize = 4 * hdf5::MIN_COLLECTION;

/// An attribute message, and for a string the text its heap id (the value's last bytes) is
/// made of once the string is in a collection.
type Attr = (Message, Option<String>);

impl Writer {
    /// Starts a file at `path` (written under a temporary name beside it until
    /// [`finish`](Writer::finish)).
    pub fn create(
        path: impl AsRef<Path>, options: WriteOptions,
    ) -> Result<Writer, Fast5WriteError> {
        let path = path.as_ref();
        if let SignalFilter::Gzip(level) = options.signal {
            if !(1..=9).contains(&level) {
                return Err(Fast5WriteError::Io {
                    path: path.to_path_buf(),
                    source: std::io::Error::new(
                        std::io::ErrorKind::InvalidInput,
                        format!("gzip level {level}: levels are 1 to 9"),
                    ),
                });
            }
        }
        let io = |source| Fast5WriteError::Io { path: path.to_path_buf(), source };
        let mut out = options.publish.create_rewritable(path).map_err(io)?;
        // The superblock, completed by finish.
        std::io::Write::write_all(&mut out, &[0; hdf5::SUPERBLOCK_LEN as usize]).map_err(io)?;
        Ok(Writer {
            out,
            options,
            reads: Vec::new(),
            ids: HashSet::new(),
            shared: Vec::new(),
            heap: Heap::default(),
        })
    }

    /// Reads written so far.
    pub fn len(&self) -> usize {
        self.reads.len()
    }

    /// Whether no read is written yet.
    pub fn is_empty(&self) -> bool {
        self.reads.is_empty()
    }

    /// Writes `reads` (their signal compressed on every core). A read whose id is already in
    /// the file, or holds `/`, or an attribute that cannot be written, is an error and
    /// nothing of this call is written.
    pub fn add_reads(&mut self, reads: &[ReadGroups<'_>]) -> Result<(), Fast5WriteError> {
        let mut seen = HashSet::new();
        for r in reads {
            // Its attributes are typed as they are prepared, below, before any is written.
            check_shape(r)?;
            if self.ids.contains(r.read_id) || !seen.insert(r.read_id) {
                return Err(bad(r.read_id, "is in the file already".into()));
            }
        }
        let filter = self.options.signal;
        let prepared: Vec<Prepared> =
            reads.par_iter().map(|r| prepare(r, filter)).collect::<Result<_, _>>()?;
        for (r, p) in reads.iter().zip(prepared) {
            self.write_read(r, p)?;
        }
        Ok(())
    }

    /// Whether [`add_reads`](Writer::add_reads) would refuse `r`: [`check_read`], or its id
    /// is in the file already.
    pub fn check(&self, r: &ReadGroups<'_>) -> Result<(), Fast5WriteError> {
        check_read(r)?;
        if self.ids.contains(r.read_id) {
            return Err(bad(r.read_id, "is in the file already".into()));
        }
        Ok(())
    }

    fn position(&self) -> u64 {
        self.out.position()
    }

    fn write(&mut self, bytes: &[u8]) -> Result<u64, Fast5WriteError> {
        let at = self.position();
        std::io::Write::write_all(&mut self.out, bytes).map_err(|source| Fast5WriteError::Io {
            path: self.out.destination().to_path_buf(),
            source,
        })?;
        Ok(at)
    }

    /// The global heap id of `text`, put in the collection being filled; a full one is written
    /// and another reserved at the file's end.
    fn intern(&mut self, text: &str) -> Result<[u8; hdf5::HEAP_ID_LEN], Fast5WriteError> {
        let need = hdf5::heap_object_len(text.as_bytes());
        let room = self.heap.capacity.saturating_sub(self.heap.used);
        // What is left after it must hold the free-space object's header, or be nothing.
        let fits = need == room || need + 16 <= room;
        if !fits || self.heap.objects.len() == usize::from(u16::MAX) {
            self.close_heap()?;
            let capacity = COLLECTION.max(16 + need + 16);
            let at = self.write(&vec![0; capacity])?;
            self.heap = Heap { at, capacity, used: 16, objects: Vec::new() };
        }
        self.heap.objects.push(text.as_bytes().to_vec());
        self.heap.used += need;
        let len = u32::try_from(text.len()).map_err(|_| bad("", "a string of 4 GiB".into()))?;
        Ok(hdf5::heap_id(len, self.heap.at, self.heap.objects.len() as u32))
    }

    /// Writes the collection being filled into the place reserved for it.
    fn close_heap(&mut self) -> Result<(), Fast5WriteError> {
        let heap = std::mem::take(&mut self.heap);
        if heap.capacity == 0 {
            return Ok(());
        }
        let objects: Vec<&[u8]> = heap.objects.iter().map(Vec::as_slice).collect();
        let bytes = hdf5::collection(&objects, heap.capacity);
        let path = self.out.destination().to_path_buf();
        self.out.write_at(heap.at, &bytes).map_err(|source| Fast5WriteError::Io { path, source })
    }

    /// The messages of `attrs`, each string's heap id in place.
    fn messages(&mut self, attrs: Vec<Attr>) -> Result<Vec<Message>, Fast5WriteError> {
        attrs
            .into_iter()
            .map(|(mut m, text)| {
                if let Some(t) = text {
                    m.patch_value_end(&self.intern(&t)?);
                }
                Ok(m)
            })
            .collect()
    }

    fn write_read(&mut self, r: &ReadGroups<'_>, p: Prepared) -> Result<(), Fast5WriteError> {
        let mut chunks = Vec::with_capacity(p.chunks.len());
        for c in &p.chunks {
            chunks.push((self.write(c)?, c.len() as u32));
        }
        let btree = match chunks.is_empty() {
            true => hdf5::UNDEFINED,
            false => self.write(&hdf5::chunk_node(&chunks, p.chunk))?,
        };
        let signal = hdf5::dataset(
            &Dtype::Int { size: 2, signed: true },
            r.signal.len() as u64,
            p.chunk,
            btree,
            filter_of(self.options.signal).as_ref(),
        );
        let signal = self.write(&hdf5::object_header(&signal, 1))?;
        let mut raw = hdf5::compact_group(&[("Signal", signal)]);
        raw.extend(self.messages(p.raw)?);
        let raw = self.write(&hdf5::object_header(&raw, 1))?;
        let channel_id = self.messages(p.channel_id)?;
        let channel = self.write(&hdf5::object_header(&group_of(channel_id), 1))?;
        let context = self.shared(r.context_tags, p.context_tags)?;
        let tracking = self.shared(r.tracking_id, p.tracking_id)?;
        let mut group = hdf5::compact_group(&[
            ("Raw", raw),
            ("channel_id", channel),
            ("context_tags", context),
            ("tracking_id", tracking),
        ]);
        group.extend(self.messages(p.read)?);
        let group = self.write(&hdf5::object_header(&group, 1))?;
        self.ids.insert(r.read_id.to_string());
        self.reads.push((format!("read_{}", r.read_id), group));
        Ok(())
    }

    /// The address of a group holding `attrs`: one written before with the same attributes
    /// (another link to it), else written now from `messages`.
    fn shared(&mut self, attrs: &Attrs, messages: Vec<Attr>) -> Result<u64, Fast5WriteError> {
        if let Some(s) = self
            .shared
            .iter_mut()
            .rev()
            .find(|s| std::sync::Arc::ptr_eq(&s.attrs, attrs) || s.attrs == *attrs)
        {
            s.links += 1;
            return Ok(s.address);
        }
        let messages = self.messages(messages)?;
        let address = self.write(&hdf5::object_header(&group_of(messages), 1))?;
        self.shared.push(Shared { attrs: attrs.clone(), address, links: 1 });
        Ok(address)
    }

    /// Writes the root group and the superblock, then gives the file its name. Returns the
    /// number of reads.
    pub fn finish(self) -> Result<u64, Fast5WriteError> {
        let io = |path, source| Fast5WriteError::Io { path, source };
        svb_io::Staged::publish_finished(self.finish_staged()?, io)
    }

    /// [`finish`](Writer::finish) without giving the file its name: the complete file, for
    /// one of several outputs published together ([`svb_io::publish_all`]).
    pub fn finish_staged(mut self) -> Result<(u64, svb_io::Staged), Fast5WriteError> {
        let reads = std::mem::take(&mut self.reads);
        let at = self.position();
        let (table, btree, heap) = hdf5::symbol_table(at, &reads);
        self.write(&table)?;
        let mut root = vec![hdf5::symbol_table_group(btree, heap)];
        let own =
            vec![text_attribute("file_type", "multi-read"), text_attribute("file_version", "3.0")];
        root.extend(self.messages(own)?);
        let root = self.write(&hdf5::object_header(&root, 1))?;
        self.close_heap()?;
        let eof = self.position();
        let path = self.out.destination().to_path_buf();
        let io = |source| Fast5WriteError::Io { path: path.clone(), source };
        for s in &self.shared {
            if s.links > 1 {
                self.out
                    .write_at(s.address + hdf5::LINK_COUNT_OFFSET, &s.links.to_le_bytes())
                    .map_err(io)?;
            }
        }
        self.out.write_at(0, &hdf5::superblock(root, btree, heap, eof)).map_err(io)?;
        let staged = self.options.publish.stage(self.out).map_err(io)?;
        Ok((reads.len() as u64, staged))
    }
}

/// A group of no links holding the attributes `messages` (without the link and group info
/// messages, libhdf5 cannot tell the object is a group).
fn group_of(messages: Vec<Message>) -> Vec<Message> {
    let mut out = hdf5::compact_group(&[]);
    out.extend(messages);
    out
}

/// Whether a FAST5 file can hold `r` as this writer writes it: an id that names an HDF5
/// group, a signal of at most the chunks a read's index holds, and every attribute of a type
/// and size it writes ([`Writer::add_reads`] refuses the read otherwise, before writing any
/// of it).
pub fn check_read(r: &ReadGroups<'_>) -> Result<(), Fast5WriteError> {
    check_shape(r)?;
    let groups = [
        ("", r.read),
        ("Raw", r.raw),
        ("channel_id", r.channel_id),
        ("tracking_id", &**r.tracking_id),
        ("context_tags", &**r.context_tags),
    ];
    for (group, list) in groups {
        for (name, v) in list {
            attribute(group, name, v)
                .map_err(|what| bad(r.read_id, format!("{group}/{name}: {what}")))?;
        }
    }
    Ok(())
}

/// The checks of [`check_read`] that need no attribute typed: an id that names an HDF5 group,
/// a signal of at most the chunks a read's index holds.
fn check_shape(r: &ReadGroups<'_>) -> Result<(), Fast5WriteError> {
    if r.read_id.is_empty() || r.read_id.contains(['/', '\0']) || r.read_id == "." {
        return Err(bad(r.read_id, "a read id cannot name an HDF5 group".into()));
    }
    let n = r.signal.len() as u64;
    if n.div_ceil(n.clamp(1, MAX_CHUNK)) > 2 * hdf5::CHUNK_K as u64 {
        return Err(bad(r.read_id, format!("{n} samples: more than a FAST5 read holds here")));
    }
    Ok(())
}

fn bad(read_id: &str, what: String) -> Fast5WriteError {
    Fast5WriteError::Read { read_id: read_id.to_string(), what }
}

/// A read's parts that take work: its signal's chunks, filtered, and its groups' attribute
/// messages.
struct Prepared {
    chunk: u32,
    chunks: Vec<Vec<u8>>,
    read: Vec<Attr>,
    raw: Vec<Attr>,
    channel_id: Vec<Attr>,
    tracking_id: Vec<Attr>,
    context_tags: Vec<Attr>,
}

fn prepare(r: &ReadGroups<'_>, filter: SignalFilter) -> Result<Prepared, Fast5WriteError> {
    let n = r.signal.len() as u64;
    // Its chunks fit the read's index: checked first (check_shape).
    let chunk = n.clamp(1, MAX_CHUNK);
    let mut chunks = Vec::new();
    let mut bytes = Vec::with_capacity(chunk as usize * 2);
    for part in r.signal.chunks(chunk as usize) {
        bytes.clear();
        bytes.extend(part.iter().flat_map(|s| s.to_le_bytes()));
        // The last chunk of several is whole in the file, its tail zeros.
        bytes.resize(chunk as usize * 2, 0);
        chunks.push(match filter {
            SignalFilter::Vbz => {
                svb_vbz::hdf5_filter::compress_sized(&bytes, &svb_vbz::hdf5_filter::Options::SIGNAL)
                    .map_err(|e| bad(r.read_id, format!("VBZ: {e}")))?
            }
            SignalFilter::Gzip(level) => {
                use std::io::Write;
                let mut z = flate2::write::ZlibEncoder::new(
                    Vec::with_capacity(bytes.len() / 2),
                    flate2::Compression::new(u32::from(level)),
                );
                z.write_all(&bytes)
                    .and_then(|()| z.finish())
                    .map_err(|e| bad(r.read_id, format!("gzip: {e}")))?
            }
            SignalFilter::None => bytes.clone(),
        });
    }
    let attrs = |group: &str, list: &[(String, AttrValue)]| -> Result<Vec<Attr>, Fast5WriteError> {
        list.iter()
            .map(|(name, v)| {
                attribute(group, name, v)
                    .map_err(|what| bad(r.read_id, format!("{group}/{name}: {what}")))
            })
            .collect()
    };
    Ok(Prepared {
        chunk: chunk as u32,
        chunks,
        read: attrs("", r.read)?,
        raw: attrs("Raw", r.raw)?,
        channel_id: attrs("channel_id", r.channel_id)?,
        tracking_id: attrs("tracking_id", r.tracking_id)?,
        context_tags: attrs("context_tags", r.context_tags)?,
    })
}

fn filter_of(signal: SignalFilter) -> Option<Filter> {
    match signal {
        SignalFilter::Vbz => Some(Filter {
            id: crate::VBZ_FILTER_ID,
            name: Some("vbz"),
            optional: true,
            client_data: vec![0, 2, 1, 1],
        }),
        SignalFilter::Gzip(level) => Some(Filter {
            id: hdf5::FILTER_DEFLATE,
            name: None,
            optional: false,
            client_data: vec![u32::from(level)],
        }),
        SignalFilter::None => None,
    }
}

/// The type ONT's writers give an attribute of `group` (`""` for the read group), for a
/// number: `None` where the table has no entry (the value's own kind decides).
fn known_type(group: &str, name: &str) -> Option<Dtype> {
    let int = |size, signed| Some(Dtype::Int { size, signed });
    let float = |size| Some(Dtype::Float { size });
    match (group, name) {
        ("Raw", "start_time" | "num_minknow_events") => int(8, false),
        ("Raw", "duration" | "num_reads_since_mux_change") => int(4, false),
        ("Raw", "read_number") => int(4, true),
        // A number where no enum labels it (slow5tools writes a uint8_t so).
        ("Raw", "start_mux" | "end_reason") => int(1, false),
        ("Raw", "median_before") => float(8),
        (
            "Raw",
            "tracked_scaling_scale"
            | "tracked_scaling_shift"
            | "predicted_scaling_scale"
            | "predicted_scaling_shift"
            | "time_since_mux_change",
        ) => float(4),
        ("channel_id", "digitisation" | "offset" | "range" | "sampling_rate") => float(8),
        _ => None,
    }
}

/// A text attribute of the file's own (`value` holds no NUL).
fn text_attribute(name: &str, value: &str) -> Attr {
    attribute("", name, &AttrValue::Text(value.into())).expect("a plain text attribute")
}

/// An attribute's message, in the type [`known_type`] gives it or its value's own (a
/// one-element array stays one); a string's value is its heap id, filled in when it is
/// written (the text returned with it).
fn attribute(group: &str, name: &str, value: &AttrValue) -> Result<Attr, String> {
    if name.is_empty() || name.contains('\0') || name.len() > u16::MAX as usize - 1 {
        return Err("not a name HDF5 takes".into());
    }
    let (dtype, bytes) = typed(group, name, value)?;
    let text = match value {
        AttrValue::Text(s) => Some(s.clone()),
        AttrValue::OneElement(v) => match &**v {
            AttrValue::Text(s) => Some(s.clone()),
            _ => None,
        },
        _ => None,
    };
    let dims: &[u64] = match value {
        AttrValue::OneElement(_) => &[1],
        _ => &[],
    };
    let message = hdf5::attribute(name, &dtype, dims, &bytes).ok_or_else(|| {
        format!(
            "an attribute of {} bytes: FAST5 files written here keep each attribute in its \
             group's header, which holds {} bytes at most (HDF5's dense attribute storage, \
             which libhdf5 uses for larger ones, is not written)",
            name.len() + bytes.len(),
            hdf5::MAX_MESSAGE
        )
    })?;
    Ok((message, text))
}

/// An attribute value's type and bytes.
fn typed(group: &str, name: &str, value: &AttrValue) -> Result<(Dtype, Vec<u8>), String> {
    Ok(match (value, known_type(group, name)) {
        (AttrValue::OneElement(v), _) if !matches!(**v, AttrValue::OneElement(_)) => {
            return typed(group, name, v);
        }
        (AttrValue::Text(s), _) => {
            if s.contains('\0') {
                return Err("text holding a NUL".into());
            }
            if u32::try_from(s.len()).is_err() {
                return Err("text of 4 GiB".into());
            }
            // As `pod5 convert to_fast5` (h5py) writes them: the run's groups and the channel
            // number UTF-8, the file's and the read's own ASCII (UTF-8 where the text is not).
            let utf8 =
                matches!(group, "tracking_id" | "context_tags" | "channel_id") || !s.is_ascii();
            // The heap id, placed when the attribute is written (Writer::messages).
            (Dtype::VlenText { utf8 }, vec![0; hdf5::HEAP_ID_LEN])
        }
        (AttrValue::Enum { value, labels, values, .. }, _) => {
            let byte = |v: i64| u8::try_from(v).ok();
            let members: Option<Vec<(String, u8)>> = labels
                .iter()
                .zip(values)
                .map(|(l, &v)| byte(v).filter(|_| !l.contains('\0')).map(|b| (l.clone(), b)))
                .collect();
            let members = members
                .filter(|m| m.len() == labels.len())
                .ok_or_else(|| "an enum whose members are not bytes with labels".to_string())?;
            let v = byte(*value).ok_or_else(|| format!("enum value {value} is not a byte"))?;
            (Dtype::Enum { members }, vec![v])
        }
        (AttrValue::OneElement(_), _) | (AttrValue::Other(_), _) => {
            return Err(format!("{} cannot be written", value.described()));
        }
        (v, Some(Dtype::Int { size, signed })) => {
            let out_of_range = || {
                format!("{v:?} does not fit {}{}", if signed { "int" } else { "uint" }, size * 8)
            };
            let bytes = match signed {
                true => {
                    let x = v.as_i64().ok_or_else(out_of_range)?;
                    let bits = u32::from(size) * 8;
                    if bits < 64 && (x < -(1i64 << (bits - 1)) || x >= 1i64 << (bits - 1)) {
                        return Err(out_of_range());
                    }
                    x.to_le_bytes()[..usize::from(size)].to_vec()
                }
                false => {
                    let x = v.as_u64().ok_or_else(out_of_range)?;
                    if size < 8 && x >> (u32::from(size) * 8) != 0 {
                        return Err(out_of_range());
                    }
                    x.to_le_bytes()[..usize::from(size)].to_vec()
                }
            };
            (Dtype::Int { size, signed }, bytes)
        }
        (v, Some(Dtype::Float { size })) => {
            let x = v.as_f64().ok_or_else(|| format!("{v:?} is not a number"))?;
            let bytes = match size {
                4 => (x as f32).to_le_bytes().to_vec(),
                _ => x.to_le_bytes().to_vec(),
            };
            (Dtype::Float { size }, bytes)
        }
        (AttrValue::Int(x), _) => (Dtype::Int { size: 8, signed: true }, x.to_le_bytes().to_vec()),
        (AttrValue::UInt(x), _) => {
            (Dtype::Int { size: 8, signed: false }, x.to_le_bytes().to_vec())
        }
        (AttrValue::Float(x), _) => (Dtype::Float { size: 8 }, x.to_le_bytes().to_vec()),
    })
}

/// FAST5's `end_reason` enum as `pod5 convert to_fast5` writes it, `(label, value)`: POD5's
/// end reasons ([`svb_model::ont::END_REASONS`]) with `partial` at 1 and the others one
/// higher.
pub fn end_reasons() -> Vec<(String, i64)> {
    let pod5 = svb_model::ont::END_REASONS;
    std::iter::once(pod5[0])
        .chain(std::iter::once("partial"))
        .chain(pod5[1..].iter().copied())
        .zip(0..)
        .map(|(l, v)| (l.to_string(), v))
        .collect()
}

impl svb_model::ReadSink for Writer {
    type Error = Fast5WriteError;
    type Read = NewRead;

    fn format(&self) -> svb_model::Format {
        svb_model::Format::Fast5
    }

    fn len(&self) -> u64 {
        self.reads.len() as u64
    }

    fn samples(read: &NewRead) -> u64 {
        read.signal.len() as u64
    }

    fn check(&self, read: &NewRead) -> Result<(), Fast5WriteError> {
        Writer::check(self, &read.as_groups())
    }

    fn add_reads(&mut self, reads: Vec<NewRead>) -> Result<(), Fast5WriteError> {
        let reads: Vec<ReadGroups<'_>> = reads.iter().map(NewRead::as_groups).collect();
        Writer::add_reads(self, &reads)
    }

    fn finish(self) -> Result<u64, Fast5WriteError> {
        Writer::finish(self)
    }
}
