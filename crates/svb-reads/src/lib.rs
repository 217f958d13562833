//! Nanopore reads from any raw-signal file svb reads, whatever its format: the read layer the
//! operations (conversion, Arrow batches) and the front ends (the `svb` command, the Python
//! package) stand on, so that none of them knows one format from another where it need not.
//!
//! - [`Format`]: the formats svb reads, known by a file's first bytes
//!   ([`Format::detect`]); [`expand_inputs`], a command's files and directories as files of
//!   one format.
//! - [`AnyReader`]: one reader over every format: count, read by index, read by id, the
//!   format's own reader when a caller needs it.
//! - [`Dataset`]: many files (directories of them) as one set of reads, looked up by read id
//!   through an index kept on disk (the format in [`id_index`'s docs](id_hash)), a bounded
//!   number of files open.
//! - The read model: [`Read`] (id, signal, [`Calibration`], named fields of typed
//!   [`Value`]s, named by [`POD5_FIELDS`] and [`BLOW5_PRIMARY_FIELDS`]); [`ont`]: ONT's end reasons and the auxiliary fields of ONT reads in BLOW5
//!   files, defined once.
//!
//! Windows of reads (memory bounded whatever a file's size) are cut by
//! [`svb_io::window_end`], with [`AnyReader::weight`] as each read's weight.
//!
//! A new format is one crate (its reader) plus its variant in [`Format`] and in
//! [`AnyReader`]; the front ends learn of it here.
//!
//! ```no_run
//! use svb_reads::{expand_inputs, AnyReader};
//! let (format, files) = expand_inputs(&["runs/".into()], true)?;
//! for path in &files {
//!     let file = AnyReader::open_as(path, format)?;
//!     for i in 0..file.len() {
//!         let read = file.read(i)?;
//!         let pa = read.signal_pa();
//!         println!("{} {} samples, mean {} pA", read.read_id, pa.len(),
//!             pa.iter().sum::<f32>() / pa.len().max(1) as f32);
//!     }
//! }
//! # Ok::<(), svb_reads::ReadsError>(())
//! ```

mod dataset;
mod error;
mod fields;
mod format;
mod id_index;
pub mod ont;
mod read;
mod reader;

pub use dataset::{Dataset, DatasetOptions, Duplicate};
pub use error::ReadsError;
pub use fields::{FieldKind, BLOW5_PRIMARY_FIELDS, FAST5_FIELDS, POD5_FIELDS, POD5_VIEW_FIELDS};
pub use format::{expand_inputs, one_format, Format};
pub use id_index::id_hash;
pub use read::{
    blow5_calibration, blow5_fields, fast5_calibration, fast5_fields, pod5_fields, Calibration,
    Fields, Read, Signal, Value,
};
pub use reader::{AnyReader, ByFormat};
