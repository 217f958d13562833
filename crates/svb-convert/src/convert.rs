//! [`convert`]: files of any format svb reads into one output of any format it writes, the
//! pair of formats picked here once (for the command line, Python and Rust callers alike).

use std::path::{Path, PathBuf};

use svb_model::Format;

use svb_model::ont::{OntRead, OntSource, RunInfo};
use svb_model::ReadSink;

use crate::compression::Compression;
use crate::error::ConvertError;
use crate::run::{look_at_inputs, Looked, Run, Stats};
use crate::windows::{all_reads, into_sink, ont_steps};

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
                Format::Pod5 => {
                    // A read group per run, each acquisition id once (a BLOW5 header lists them
                    // before any record).
                    let open = |p: &Path| svb_pod5::Reader::open(p);
                    let mut runs = svb_pod5::model::FileRuns::default();
                    let look = |r: &svb_pod5::Reader, _: &Path| Ok(runs.add_file(r).map(drop)?);
                    let (looked, stats) = look_at_inputs(inputs, out, how.on_error, open, look)?;
                    let runs: Vec<RunInfo> = runs.runs().cloned().collect();
                    let w = svb_blow5::ont::OntWriter::create(out, &runs, options)?;
                    model_write(looked, stats, open, how, w)
                }
                Format::Blow5 | Format::Slow5 => {
                    crate::blow5_rewrite::rewrite_blow5(inputs, out, options, how)
                }
            }
        }
        Format::Pod5 => {
            let options = compression.pod5(&how);
            match from {
                Format::Fast5 => {
                    let (readers, stats) =
                        crate::fast5::open_fast5(inputs, out, how.on_error, None, |_, _| {})?;
                    crate::fast5::picked_to_pod5(readers, stats, out, options, how)
                }
                Format::Pod5 => crate::merge::pod5_to_pod5(inputs, out, options, how),
                Format::Blow5 | Format::Slow5 => {
                    let open = |p: &Path| svb_blow5::Reader::open(p);
                    let (looked, stats) =
                        look_at_inputs(inputs, out, how.on_error, open, |_, _| Ok(()))?;
                    let w = svb_pod5::Writer::create(out, options)?;
                    model_write(looked, stats, open, how, w)
                }
            }
        }
        Format::Fast5 => {
            let options = compression.fast5(&how);
            crate::to_fast5::to_fast5(inputs, from, out, options, how)
        }
    }
}

/// Every read of the inputs `looked` at (each opened again by `open` unless kept) written
/// into `sink` as the model's reads ([`OntSource`]: mapped on every core, admitted in order),
/// then `sink` finished.
fn model_write<R, E, W>(
    looked: Vec<Looked<R>>, stats: Stats, open: impl Fn(&Path) -> Result<R, E>, how: Run<'_>,
    mut sink: W,
) -> Result<Stats, ConvertError>
where
    R: OntSource + Sync,
    E: Into<ConvertError>,
    W: ReadSink<Read = OntRead> + Send,
    ConvertError: From<R::Error> + From<W::Error>,
{
    let steps = ont_steps::<R>(usize::MAX);
    let stats = into_sink(&all_reads(looked), open, stats, how, steps, &mut sink)?;
    sink.finish()?;
    Ok(stats)
}
