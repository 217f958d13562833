//! POD5 files, ONT's raw-signal container: the [`Reader`] (the container and its Arrow IPC
//! tables checked, reads and run info as Rust values, every read's signal decoded on demand,
//! into the caller's buffer, or all of them in parallel) and the [`Writer`] (lib_pod5's table
//! layout, VBZ chunks compressed on rayon, published only when complete).
//!
//! The signal wire itself (VBZ: svb16 over zigzag deltas, then zstd) is
//! [`svb_vbz::pod5_blob`]; this crate is the file around it.
//!
//! The [`Reader`] is the read model's `svb_model::ReadSource` ([`model`] maps a read's fields
//! to the model's).
//!
//! ```no_run
//! let reader = svb_pod5::Reader::open("reads.pod5")?;
//! for (i, read) in reader.reads().iter().enumerate() {
//!     let signal = reader.decode_signal(i)?;
//!     println!("{} {} samples", read.read_id_string(), signal.len());
//! }
//! # Ok::<(), svb_pod5::Pod5Error>(())
//! ```

mod columns;
mod container;
mod error;
mod ipc;
pub mod model;
mod read;
mod reader;
mod reads;
mod reads_v0;
mod run_info;
mod schema;
mod signal;
mod writer;

pub use container::{ContentType, EmbeddedFile, Footer, SIGNATURE};
pub use error::{Pod5Error, Pod5WriteError, SignalError, TableKind};
pub use read::ReadRow;
pub use reader::{Reader, SignalChunk, TableVersion};
pub use run_info::RunInfo;
pub use schema::{required_reads_columns, required_run_info_columns};
pub use signal::SignalEncoding;
pub use svb_io::zstd_frame::Profile as ZstdProfile;
pub use svb_io::{Access, OnExisting, Publish, Threads};
pub use svb_model::ont::{parse_uuid, push_uuid, uuid_string};
pub use svb_model::ont::{OntRead, ReadInfo};
pub use writer::{StoredRead, WriteOptions, Writer};

/// What the POD5 reader takes a file to be, checked from its first bytes at open
/// ([`svb_io::Source::open_as`]); an object's open fetches its last 512 KiB with its head (the
/// footer and, in most files, the tables).
pub const FILE_KIND: svb_io::FileKind = svb_io::FileKind {
    name: svb_model::Format::Pod5.name(),
    magic: &[svb_model::Format::Pod5.signature()],
    describe: svb_model::describe,
    look: svb_model::SNIFF_LEN,
    open_tail: svb_io::OPEN_TAIL,
};
