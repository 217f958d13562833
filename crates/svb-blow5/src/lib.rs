//! BLOW5 files (slow5lib's binary container): the header, then records of
//! `u64 size | record bytes` (each record compressed alone), then the end-of-file marker
//! `5WOLB`. The [`Reader`] reads versions 0.1 and 0.2, record compression none, zlib and
//! zstd, signal compression none, SVB-ZD and ex-zd; the [`Writer`] writes version 0.2.0
//! with any of them. The signal codecs inside records are `svb-slow5-signal`'s.
//!
//! SLOW5, slow5lib's text form of the same header and records (a line per record), is read
//! by the same [`Reader`] (told apart by its first bytes: [`Header::form`]) and written by
//! the [`Writer`] with [`WriteOptions::slow5`].
//!
//! The [`Reader`] is the read model's `svb_model::ReadSource` ([`model`] maps a record's
//! fields to the model's); [`ont`] holds the auxiliary fields of ONT reads.
//!
//! ```no_run
//! use svb_blow5::{Reader, Threads};
//! let reader = Reader::open("reads.blow5")?;
//! for record in reader.records() {
//!     let r = record?;
//!     println!("{} {} samples", r.read_id, r.raw_signal.len());
//! }
//! // Every record on rayon's pool, each worker reusing one `Record`:
//! reader.for_each_parallel(Threads::Current, |index, r| {
//!     println!("{index}: {}", r.raw_signal.len())
//! })?;
//! let all = reader.decode_all(Threads::Current)?; // or all of them in one vector
//! # Ok::<(), svb_blow5::Blow5Error>(())
//! ```

mod compress;
mod error;
mod header;
mod index;
mod inflate;
mod lookup;
pub mod model;
pub mod ont;
mod reader;
mod record;
mod text;
mod writer;

pub use error::{Blow5Error, Blow5WriteError, InflateError};
pub use header::{
    group_attribute, AuxField, FieldType, Header, RecordCompression, SignalCompression, MAGIC,
};
pub use index::{find_reads, open_with_index, open_with_index_at, Index, Indexed};
pub use reader::{Cut, Reader};
pub use record::{AuxValue, Record};
pub use svb_io::zstd_frame::Profile as ZstdProfile;
pub use svb_io::{Access, OnExisting, Publish, Threads};
pub use svb_slow5_signal::SignalError;
pub use text::{skim_line, skim_names, FloatText};
pub use writer::{Schema, WriteOptions, Writer};

/// What the BLOW5 reader takes a file to be, checked from its first bytes at open
/// ([`svb_io::Source::open_as`]): BLOW5 or SLOW5 text; an object's open fetches its last 16 KiB
/// with its head (the end marker).
pub const FILE_KIND: svb_io::FileKind = svb_io::FileKind {
    name: svb_model::Format::Blow5.name(),
    magic: &[svb_model::Format::Blow5.signature(), svb_model::Format::Slow5.signature()],
    describe: svb_model::describe,
    look: svb_model::SNIFF_LEN,
    open_tail: 16 << 10,
};

/// The end-of-file marker.
pub const EOF_MARKER: &[u8; 5] = b"5WOLB";
