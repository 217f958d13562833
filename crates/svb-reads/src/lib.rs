//! Nanopore reads from any raw-signal file svb reads, whatever its format: the read layer the
//! operations (conversion, Arrow batches) and the front ends (the `svb` command, the Python
//! package) stand on, so that none of them knows one format from another where it need not.
//! The read model itself (`Format`, `Read`, `Calibration`, typed `Value`s, the field lists,
//! the `ReadSource` trait each format's reader implements) is `svb_model`'s.
//!
//! - [`detect`]: a file's format by its first bytes; [`expand_inputs`], a command's files and
//!   directories as files of one format.
//! - [`AnyReader`]: one reader over every format (a `ReadSource` itself): count, read by
//!   index, read by id, the format's own reader when a caller needs it.
//! - [`Dataset`]: many files (directories of them) as one set of reads, looked up by read id
//!   through an index kept on disk (the format in [`id_index`'s docs](id_hash)), a bounded
//!   number of files open.
//!
//! Windows of reads (memory bounded whatever a file's size) are cut by
//! [`svb_io::window_end`], with `ReadSource::weight` as each read's weight.
//!
//! A new format is one crate (its reader, a `ReadSource`) plus its variant in `Format` and in
//! [`AnyReader`]; the front ends learn of it here.
//!
//! ```no_run
//! use svb_model::ReadSource;
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
#![forbid(unsafe_code)]

mod dataset;
mod error;
mod id_index;
mod inputs;
mod reader;

pub use dataset::{Dataset, DatasetOptions, Duplicate};
pub use error::ReadsError;
pub use id_index::{id_hash, seal_index};
pub use inputs::{detect, expand, expand_inputs, names_many, one_format, Expanded};
pub use reader::{AnyReader, ByFormat, Found};

/// What the reader of `format` takes a file to be (its format crate's [`svb_io::FileKind`]):
/// the bytes its open checks, and what an object's open fetches with its head.
pub fn file_kind(format: svb_model::Format) -> svb_io::FileKind {
    match format {
        svb_model::Format::Pod5 => svb_pod5::FILE_KIND,
        svb_model::Format::Blow5 | svb_model::Format::Slow5 => svb_blow5::FILE_KIND,
        svb_model::Format::Fast5 => svb_fast5::FILE_KIND,
    }
}
