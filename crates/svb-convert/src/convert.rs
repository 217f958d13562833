//! [`convert`]: files of any format svb reads into one output of any format it writes, the
//! pair of formats picked here once (for the command line, Python and Rust callers alike).

use std::path::{Path, PathBuf};

use svb_model::Format;

use crate::compression::Compression;
use crate::error::ConvertError;
use crate::run::{Run, Stats};

/// The reads of `inputs` (files of `from`; BLOW5 and SLOW5 text mix) written into `out` as a
/// file of `to`, compressed as `compression` says and published as `how.publish` says: POD5
/// and BLOW5 with blue-crab's field mapping, FAST5 with ONT's (to POD5) or slow5tools f2s's
/// (to BLOW5 / SLOW5), BLOW5 to BLOW5 recompressed or as text, POD5 to POD5 repacked, and
/// any of them to multi-read FAST5 ([`to_fast5`](crate::to_fast5::to_fast5): POD5 as `pod5 convert
/// to_fast5` maps it).
///
/// ```no_run
/// use svb_convert::{convert, Compression, Run};
/// use svb_model::Format;
/// let out = std::path::Path::new("reads.blow5");
/// let to = Format::of_output(out)?;
/// let stats = convert(&["reads.pod5".into()], Format::Pod5, out, to, Compression::default(), Run::default())?;
/// println!("{} reads", stats.reads);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn convert(
    inputs: &[PathBuf], from: Format, out: &Path, to: Format, compression: Compression,
    how: Run<'_>,
) -> Result<Stats, ConvertError> {
    compression.check(to, out)?;
    match to {
        Format::Blow5 | Format::Slow5 => {
            let options = compression.blow5(to, &how);
            match from {
                Format::Fast5 => crate::fast5::fast5_to_blow5(inputs, out, options, how),
                Format::Pod5 => crate::blow5_pod5::pod5_to_blow5(inputs, out, options, how),
                Format::Blow5 | Format::Slow5 => {
                    crate::blow5_pod5::blow5_to_blow5(inputs, out, options, how)
                }
            }
        }
        Format::Pod5 => {
            let options = compression.pod5(&how);
            match from {
                Format::Fast5 => crate::fast5::fast5_to_pod5(inputs, out, options, how),
                Format::Pod5 => crate::merge::pod5_to_pod5(inputs, out, options, how),
                Format::Blow5 | Format::Slow5 => {
                    crate::blow5_pod5::blow5_to_pod5(inputs, out, options, how)
                }
            }
        }
        Format::Fast5 => {
            let options = compression.fast5(&how);
            crate::to_fast5::to_fast5(inputs, from, out, options, how)
        }
    }
}
