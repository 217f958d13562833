//! File-to-file operations over POD5 and BLOW5: subsetting by read id ([`subset`]), and
//! conversion with blue-crab's field mapping (docs/FORMATS.md has the table): a POD5 read
//! becomes a BLOW5 record with the auxiliary fields pyslow5 and blue-crab write
//! ([`blow5_pod5_aux`](svb_blow5::ont::pod5_aux)), its run a read group whose
//! attributes are the run's fields, context tags and tracking ids; and back. FAST5 reads
//! become POD5 reads as ONT's `pod5 convert fast5` maps them, and BLOW5 / SLOW5 records as
//! slow5tools `f2s` does.
//!
//! Files are converted a window of reads at a time, each window decoded and re-encoded on
//! every core, so memory holds one window whatever the inputs' size; the output keeps a
//! hidden temporary name until it is complete.
//!
//! ```no_run
//! use svb_convert::{blow5_to_pod5, pod5_to_blow5, OnError, Run};
//! let stats = pod5_to_blow5(&["reads.pod5".into()], "reads.blow5".as_ref(), Default::default(), Run::default())?;
//! println!("{} reads, {} samples", stats.reads, stats.samples);
//! // Reads that fail are left out and listed instead of stopping the conversion.
//! let mut progress = |done: u64, total: u64| eprint!("\r{done}/{total} reads");
//! let how = Run { on_error: OnError::Skip, progress: Some(&mut progress), ..Run::default() };
//! let stats = blow5_to_pod5(&["reads.blow5".into()], "back.pod5".as_ref(), Default::default(), how)?;
//! for e in &stats.failed {
//!     eprintln!("left out: {e}");
//! }
//! # Ok::<(), svb_convert::ConvertError>(())
//! ```
#![forbid(unsafe_code)]

mod blow5_headers;
mod blow5_pod5;
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
pub use blow5_pod5::{blow5_to_blow5, blow5_to_pod5, pod5_to_blow5};
pub use compression::Compression;
pub use convert::convert;
pub use degrade::{degrade, round_low_bits, suggest_bits, Dataset, Degraded, DATASETS};
pub use error::ConvertError;
pub use fast5::{blow5_schema, fast5_to_blow5, fast5_to_pod5};
pub use merge::{merge, merge_blow5, merge_pod5, pod5_to_pod5, Duplicates, Merged};
pub use recover::{recover, recover_blow5, recover_pod5, Recovered, RecoveredPod5, Recovery};
pub use run::{OnError, Run, Stats};
pub use split::{split, split_blow5, split_pod5, Split, SplitBy, SplitOptions, KEY};
pub use subset::{
    subset, subset_blow5, subset_blow5_with, subset_fast5, subset_pod5, ReadOrder, Subset,
};
pub use table::{Several, TableFile, Unknown, Unlisted};
pub use to_fast5::{to_fast5, to_fast5_files};
