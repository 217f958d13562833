//! FAST5 (HDF5) nanopore read files in pure Rust: most of the world's archived nanopore
//! signal. Both layouts (multi-read `/read_<id>` groups, and the older single-read
//! `/Raw/Reads/Read_<n>`), every attribute a converter maps (read, channel, tracking and
//! context attributes, end reasons by label), and the signal of VBZ (HDF5 filter 32020,
//! decoded by `svb_vbz::hdf5_filter`) and gzip datasets. No libhdf5 and no plugin path: HDF5 is
//! read by the `hdf5-reader` crate.
//!
//! Untrusted files: every length is checked before it is trusted, chunks are decoded one at a
//! time and appended (memory follows the samples decoded, not a declared size), and a missing
//! or mistyped field is an error naming the file, the read and the attribute, never a default.
//!
//! [`Writer`] writes multi-read files (VBZ, gzip or plain signal) as ONT's tools lay them
//! out, with no libhdf5 either.
//!
//! The [`Reader`] is the read model's `svb_model::ReadSource` ([`model`] maps a read's
//! attributes to the model's fields).
#![forbid(unsafe_code)]

mod attrs;
mod error;
pub mod model;
pub mod ont;
mod reader;
mod storage;
mod vbz_chunks;
mod writer;

pub use attrs::{AttrValue, Attrs};
pub use error::Fast5Error;
pub use reader::{find, EndReason, Layout, ReadAttributes, Reader, MAX_SAMPLES};
pub use svb_io::Threads;
pub use vbz_chunks::VBZ_FILTER_ID;
pub use writer::{
    check_read, end_reasons, Fast5WriteError, NewRead, ReadGroups, SignalFilter, WriteOptions,
    Writer,
};

/// The `Raw` attributes of a read FAST5 readers take, besides `duration` and `read_id`: ONT's,
/// and the newer ones slow5tools f2s accepts (it refuses a file with any other, "Attribute
/// Raw/... is unexpected").
pub const RAW_ATTRIBUTES: [&str; 12] = [
    "start_time",
    "read_number",
    "start_mux",
    "median_before",
    "end_reason",
    "num_minknow_events",
    "tracked_scaling_scale",
    "tracked_scaling_shift",
    "predicted_scaling_scale",
    "predicted_scaling_shift",
    "num_reads_since_mux_change",
    "time_since_mux_change",
];

/// What the FAST5 reader takes a file to be, checked from its first bytes at open
/// ([`svb_io::Source::open_as`]): HDF5's signature at the file's start; an object's open fetches
/// its last 16 KiB with its head (nothing of a FAST5 file is read from its end).
pub const FILE_KIND: svb_io::FileKind = svb_io::FileKind {
    name: svb_model::Format::Fast5.name(),
    magic: &[svb_model::Format::Fast5.signature()],
    describe: svb_model::describe,
    look: svb_model::SNIFF_LEN,
    open_tail: 16 << 10,
};
