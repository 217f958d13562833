//! The read model under every raw-signal format svb reads: what a format crate (POD5, BLOW5 /
//! SLOW5, FAST5) gives and what the read layer, the operations and the front ends take, with
//! no format's code in it.
//!
//! - [`Format`]: the formats, known by a file's first bytes ([`Format::detect`]), with their
//!   names and extensions, and the rule that picks an output's format by its extension
//!   ([`Format::of_output`]); [`Form`]: slow5lib's two forms of one format (binary BLOW5, SLOW5
//!   text).
//! - [`Read`]: id, raw signal, [`Calibration`], and named fields of typed [`Value`]s in the
//!   order of each format's field list ([`POD5_FIELDS`], [`BLOW5_PRIMARY_FIELDS`],
//!   [`FAST5_FIELDS`]); [`Signal`]: a read without its fields.
//! - [`ont`]: ONT's end reasons, defined once.
//! - [`ReadSource`]: the reader every format crate implements (count, ids, lookup by id,
//!   signal into a caller's buffer, fields, a read's weight for windows), and [`ReadSink`],
//!   the writer every format crate implements (reads in the format's own form, added in
//!   order, the output named when finished), so that what is written over them is written
//!   once for every format.
//!
//! ```
//! use svb_model::{Calibration, Format};
//! assert_eq!(Format::detect(b"\x8bPOD\r\n\x1a\n\0\0"), Some(Format::Pod5));
//! assert_eq!(Format::of_output("run/out.BLOW5".as_ref()).unwrap(), Format::Blow5);
//! let c = Calibration { offset: 10.0, scale: 0.5 };
//! assert_eq!(c.to_pa(2), 6.0);
//! ```

#![forbid(unsafe_code)]

mod fields;
mod format;
pub mod ont;
mod read;
mod sink;
mod source;

pub use fields::{
    fields_of, per_read, per_read_names, FieldKind, BLOW5_PRIMARY_FIELDS, FAST5_FIELDS,
    POD5_FIELDS, POD5_VIEW_FIELDS,
};
pub use format::{describe, Form, Format, OutputFormatError, UnknownFormatName, SNIFF_LEN};
pub use read::{Calibration, Fields, Read, Signal, Value};
pub use sink::ReadSink;
pub use source::ReadSource;
