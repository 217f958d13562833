//! The file plumbing the svb readers and writers (POD5 in `svb-pod5`, BLOW5 in `svb-blow5`)
//! share, so that no reader trusts more of a file than it has checked and no writer leaves a
//! file that a reader could take for complete:
//!
//! - [`Source`]: a file's bytes, read whole (small files), read on demand by positioned reads
//!   (large files), or memory-mapped under an `unsafe` contract. Offsets are validated against
//!   the length the source had when it was opened, so a file that another process truncates or
//!   rewrites gives an I/O error or wrong bytes, never a read out of bounds.
//! - [`encode_in_order`]: items encoded on rayon and written in order as they complete;
//!   [`window_end`] / [`windows`], the one rule batches of reads are cut by; [`pipeline`], a
//!   decode overlapping the write before it; [`Threads`] and [`run_largest_first`].
//! - [`PartialFile`]: what the writers write, under a hidden temporary name until it is
//!   complete and published under its name, never replacing a file that is there unless
//!   asked to ([`OnExisting`]); [`write_file`] for small outputs, [`Inputs`] to refuse an
//!   output that is one of the inputs.
//! - [`url_of`]: an input or output that is a URL (`s3://`, `gs://`, `az://`, `http(s)://`)
//!   rather than a path; [`Source::open`] opens its object by ranges with the `remote`
//!   feature (`remote`: the stores, credentials, request planning, [`remote::traffic`]).
//! - [`FileKind`]: what a reader takes a file to be (its magic bytes, given by the format's
//!   crate: svb-io knows no format), which [`Source::open_as`] checks before reading more.
//! - [`zstd_frame`]: zstd frames inflated into a buffer that grows with what the frame really
//!   produces (never the size its header declares, which a hostile file may inflate), with one
//!   reused zstd context per thread.
//!
//! ```
//! use svb_io::{zstd_frame, Source};
//! let frame = zstd_frame::compress(1, &[7u8; 10_000]).unwrap();
//! let declared = zstd_frame::content_size(&frame).unwrap();
//! let mut out = Vec::new();
//! zstd_frame::decompress_into(&frame, declared as usize, &mut out).unwrap();
//! assert_eq!(out, [7u8; 10_000]);
//!
//! let src = Source::from_vec(b"header|body".to_vec());
//! assert_eq!(src.read_vec(7, 4).unwrap(), b"body");
//! assert!(src.read_vec(7, 5).is_err()); // past the end: an error, not a panic
//! ```

#[cfg(feature = "remote")]
mod aws_profile;
mod error_chain;
mod file_id;
mod in_order;
mod interrupt;
mod lines;
mod location;
mod objects;
mod parallel;
mod partial;
mod publish;
mod reader_constructors;
#[cfg(feature = "remote")]
pub mod remote;
mod source;
mod stdout;
mod temporary_names;
pub mod zstd_frame;

pub use error_chain::{caused_by, error_chain};
pub use file_id::{FileId, Inputs};
pub use in_order::encode_in_order;
pub use interrupt::{clear_interrupt, interrupt, interrupt_flag, interrupted, interrupted_error};
pub use lines::{excerpt, LineLimit, MAX_LINE};
pub use location::{
    check_writable, credentials_refused, has_credentials, is_url, misspelt_url, shown_url, url_of,
    URL_SCHEMES,
};
pub use objects::{list_objects, names_many_objects, object_version};
pub use parallel::{
    keep_per_thread, pipeline, run_largest_first, trim_scratch, window_end, windows, with_scratch,
    Recycler, Threads,
};
pub use partial::{write_file, OnExisting, PartialFile, Staged};
pub use publish::{publish_all, Publish};
pub use source::{read_head, Access, FileKind, Source, OPEN_TAIL, READ_WHOLE, STREAM_LIMIT};
pub use stdout::{is_stdout, stdout_closed};
pub use temporary_names::{remove_stale_partials, remove_stale_partials_of};
