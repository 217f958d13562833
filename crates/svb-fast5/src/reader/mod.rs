//! [`Reader`]: a FAST5 file's reads, their attributes and their signal.
//!
//! Opening a file and listing its reads is `open.rs`'s; a read's attributes `attributes.rs`'s;
//! its signal `signal.rs`'s.
mod attributes;

pub use attributes::find;
mod open;
mod signal;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use hdf5_reader::error::Error as Hdf5Error;
use hdf5_reader::group::Group;
use hdf5_reader::Hdf5File;

use crate::attrs::Attrs;
use crate::Fast5Error;

/// The most samples a read's signal may declare (2^32 - 1: the counts of every FAST5 writer
/// are 32-bit; a larger declaration is refused before anything is allocated).
pub const MAX_SAMPLES: u64 = u32::MAX as u64;

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
pub struct ReadAttributes {
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
    /// The read group's own attributes (`/read_<id>`: `run_id`, `pore_type`, ...; none in a
    /// single-read file).
    pub read_group: Attrs,
    /// The names of the groups in the read group (`Raw`, `channel_id`, `context_tags`,
    /// `tracking_id`, `Analyses`, ...; none in a single-read file).
    pub subgroups: Vec<String>,
}

impl ReadAttributes {
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

impl Reader {
    fn hdf5(&self, what: impl Into<String>) -> impl FnOnce(Hdf5Error) -> Fast5Error + '_ {
        let what = what.into();
        move |source| Fast5Error::Hdf5 { path: self.path.clone(), what, source }
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

    pub(crate) fn entry(&self, index: usize) -> Result<&Entry, Fast5Error> {
        self.reads.get(index).ok_or(Fast5Error::NoRead {
            path: self.path.clone(),
            index,
            len: self.reads.len(),
        })
    }
}
