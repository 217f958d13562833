//! File-to-file operations over POD5, BLOW5 / SLOW5 and FAST5: conversion ([`convert`]),
//! subsetting by read id ([`subset`]), [`merge`], [`split`], [`recover`] and [`degrade`].
//!
//! A conversion maps each input's reads into ONT's read model once
//! ([`svb_model::ont::OntSource`]: a POD5 read as its table holds it, a BLOW5 record by
//! blue-crab's mapping, a FAST5 read by ONT's `pod5 convert fast5`) and writes the model's
//! reads ([`svb_model::ont::OntRead`]) into the output; docs/FORMATS.md has the field tables.
//! Where the reference converters map a pair of formats in a way of their own (slow5tools
//! `f2s` and `s2f`, `pod5 convert to_fast5`), that mapping is kept.
//!
//! Files are converted a window of reads at a time, each window decoded and re-encoded on
//! every core, so memory holds one window whatever the inputs' size; the output keeps a
//! hidden temporary name until it is complete.
//!
//! ```no_run
//! use svb_convert::{convert, Compression, OnError, Run};
//! use svb_model::Format;
//! let stats = convert(&["reads.pod5".into()], Format::Pod5, "reads.blow5".as_ref(), Format::Blow5, Compression::default(), Run::default())?;
//! println!("{} reads, {} samples", stats.reads, stats.samples);
//! // Reads that fail are left out and listed instead of stopping the conversion.
//! let mut progress = |done: u64, total: u64| eprint!("\r{done}/{total} reads");
//! let how = Run { on_error: OnError::Skip, progress: Some(&mut progress), ..Run::default() };
//! let stats = convert(&["reads.blow5".into()], Format::Blow5, "back.pod5".as_ref(), Format::Pod5, Compression::default(), how)?;
//! for e in &stats.failed {
//!     eprintln!("left out: {e}");
//! }
//! # Ok::<(), svb_convert::ConvertError>(())
//! ```
#![forbid(unsafe_code)]

mod blow5_headers;
mod blow5_rewrite;
mod compression;
mod convert;
mod degrade;
mod error;
mod f2s;
mod fast5;
mod merge;
mod recover;
mod reopen;
mod run;
mod split;
mod stored;
mod subset;
mod table;
mod to_fast5;
mod windows;

pub use blow5_headers::{merge_schemas, HeaderRules};
pub use compression::Compression;
pub use convert::convert;
pub use degrade::{degrade, round_low_bits, suggest_bits, Dataset, Degraded, DATASETS};
pub use error::ConvertError;
pub use fast5::blow5_schema;
pub use merge::{merge, merge_blow5, merge_pod5, Duplicates, Merged};
pub use recover::{recover, recover_blow5, recover_pod5, Recovered, RecoveredPod5, Recovery};
pub use run::{OnError, Run, Stats};
pub use split::{split, split_blow5, split_pod5, Split, SplitBy, SplitOptions, KEY};
pub use subset::{
    subset, subset_blow5, subset_blow5_with, subset_fast5, subset_pod5, ReadOrder, Subset,
};
pub use table::{Several, TableFile, Unknown, Unlisted};
pub use to_fast5::{to_fast5, to_fast5_files};
