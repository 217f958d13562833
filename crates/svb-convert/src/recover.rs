//! Recovery: every whole record of a BLOW5 or SLOW5 file whose writer died (its end marker
//! missing, its last record or line cut), or every read of a POD5 file whose footer is
//! missing or damaged, into a new file, with a report of what was saved and what was lost.

use std::path::Path;

use svb_model::Format;

use crate::error::ConvertError;
use crate::run::{OnError, Run, Stats};
use svb_model::ReadSource;

/// What a recovery saved and lost.
#[derive(Debug, Default)]
pub struct Recovered {
    /// Records and samples saved; in `failed`, each whole record that did not decode.
    pub stats: Stats,
    /// Whole records found before the cut (saved, or in `stats.failed`).
    pub records: usize,
    /// Where the file ends early (`None`: it was whole).
    pub cut: Option<svb_blow5::Cut>,
}

/// Saves every whole record of the BLOW5 or SLOW5 file `input` into `out` (SLOW5 text when it
/// ends in `.slow5`; BLOW5 under the input's compression otherwise, zstd and SVB-ZD for a text
/// input): the records before a cut, each decoded (one that does not is left out and named),
/// the header as it was; into BLOW5 of the input's compression, the records that decode are
/// copied as stored. `how.publish` says whether `out` may be replaced.
pub fn recover_blow5(
    input: &Path, out: &Path, mut how: Run<'_>,
) -> Result<Recovered, ConvertError> {
    recovery_output(input, out, Format::Blow5)?;
    let in_file = ConvertError::of(input);
    let (r, cut) = svb_blow5::Reader::open_recovering(input).map_err(|e| in_file(e.into()))?;
    let h = r.header().clone();
    let options = crate::blow5_headers::blow5_options_like(out, &h, how.publish);
    let mut w = svb_blow5::Writer::create(out, svb_blow5::Schema::of(&h), options)?;
    let records = r.len();
    // A recovery saves what it can: a record that does not decode is left out and named.
    how.on_error = OnError::Skip;
    let mut stats = Stats::default();
    let mut progress = crate::windows::Progress { done: 0, total: records as u64 };
    if w.stores_like(&h) {
        // Each record decoded whole, then those that decode copied as stored (not
        // compressed again).
        let indices: Vec<usize> = (0..records).collect();
        for window in crate::windows::weighed(&indices, |&i| r.weight(i)) {
            let all = |_: &str| Ok(true);
            let (check, skip) = (crate::stored::Check::Whole, OnError::Skip);
            crate::stored::copy_stored_records(
                &r, window, check, &mut w, all, skip, &mut stats, &in_file,
            )?;
            progress.done += window.len() as u64;
            how.report(progress.done, progress.total)?;
        }
        w.finish()?;
        return Ok(Recovered { stats, records, cut });
    }
    // The salvaged reader itself (a damaged file is not opened again).
    let convert = |r: &svb_blow5::Reader, i: usize| {
        let mut rec = svb_blow5::Record::default();
        r.record_into(i, &mut rec)?;
        Ok(rec)
    };
    let steps = crate::windows::every_read(convert);
    let all: Vec<usize> = (0..records).collect();
    crate::windows::reader_into_sink(
        &r,
        input,
        &all,
        steps,
        &mut w,
        &mut progress,
        &mut how,
        &mut stats,
    )?;
    w.finish()?;
    Ok(Recovered { stats, records, cut })
}

/// What a recovery saved, by the input's format ([`recover`]).
#[derive(Debug)]
pub enum Recovery {
    /// A BLOW5 or SLOW5 file's ([`recover_blow5`]).
    Blow5(Recovered),
    /// A POD5 file's ([`recover_pod5`]).
    Pod5(RecoveredPod5),
}

/// Saves what can be saved of the damaged file `input` into `out`, by its format (known by its
/// first bytes): [`recover_blow5`] for BLOW5 and SLOW5 text, [`recover_pod5`] for POD5; a
/// FAST5 file is refused, saying which formats are recovered.
///
/// ```no_run
/// use svb_convert::{recover, Recovery, Run};
/// match recover("cut.blow5".as_ref(), "saved.blow5".as_ref(), Run::default())? {
///     Recovery::Blow5(got) => println!("{} of {} records saved", got.stats.reads, got.records),
///     Recovery::Pod5(got) => println!("{} of {} reads saved", got.stats.reads, got.reads),
/// }
/// # Ok::<(), svb_convert::ConvertError>(())
/// ```
pub fn recover(input: &Path, out: &Path, how: Run<'_>) -> Result<Recovery, ConvertError> {
    match svb_reads::detect(input)? {
        Format::Blow5 | Format::Slow5 => recover_blow5(input, out, how).map(Recovery::Blow5),
        Format::Pod5 => recover_pod5(input, out, how).map(Recovery::Pod5),
        other => Err(ConvertError::Mapping(format!(
            "{}: a {} file; svb recovers BLOW5, SLOW5 and POD5 files",
            input.display(),
            other.name()
        ))),
    }
}

/// `Err` unless `out` may be the recovery of `input`, a file of `format`: not `input` itself
/// (`check_output`), and named by its extension as of `format` (BLOW5 and SLOW5 text either
/// way): a recovery copies what it finds as stored, so its output is of the input's format,
/// and a name that says otherwise would hold bytes of another format.
fn recovery_output(input: &Path, out: &Path, format: Format) -> Result<(), ConvertError> {
    match Format::of_output(out)? {
        to if to.same_reader(format) => crate::run::check_output(&[input.to_path_buf()], out),
        to => Err(ConvertError::Mapping(format!(
            "{}: a {} file, but a {} file is recovered into its own format (.{}; `svb convert` \
             it after)",
            out.display(),
            to.name(),
            format.name(),
            format.extension()
        ))),
    }
}

/// What a POD5 recovery saved.
#[derive(Debug, Default)]
pub struct RecoveredPod5 {
    /// Reads and samples saved; in `failed`, each read whose signal did not copy.
    pub stats: Stats,
    /// Reads the recovered tables list.
    pub reads: usize,
    /// What was wrong with the file's footer (`None`: it was whole).
    pub fault: Option<String>,
}

/// Saves every read of the POD5 file `input` whose footer is missing or damaged into `out`
/// (its runs, its reads with their chunks copied as stored, VBZ or PDZ as the input's): the footer rebuilt from the
/// embedded tables a scan of the file finds ([`svb_pod5::Reader::open_recovering`]), or for a
/// file ONT's writer left when it was killed, the tables salvaged from it and from the hidden
/// files beside it; a read
/// whose signal does not copy is left out and named. A file whose reads table is cut short
/// is an error saying so. `how.publish` says whether `out` may be replaced.
pub fn recover_pod5(
    input: &Path, out: &Path, mut how: Run<'_>,
) -> Result<RecoveredPod5, ConvertError> {
    recovery_output(input, out, Format::Pod5)?;
    let in_file = ConvertError::of(input);
    let (r, fault) = svb_pod5::Reader::open_recovering(input).map_err(|e| in_file(e.into()))?;
    let options = svb_pod5::WriteOptions {
        signal_encoding: r.signal_encoding(),
        publish: how.publish,
        ..svb_pod5::WriteOptions::default()
    };
    let mut w = svb_pod5::Writer::create(out, options)?;
    let mut stats = Stats::default();
    let all: Vec<usize> = (0..r.len()).collect();
    let total = all.len() as u64;
    let mut done = 0;
    for window in crate::windows::weighed(&all, |&i| r.weight(i)) {
        how.report(done, total)?;
        done += window.len() as u64;
        crate::stored::copy_pod5_reads(
            &r,
            window,
            &mut w,
            false,
            OnError::Skip,
            &mut stats,
            &in_file,
        )?;
    }
    how.report(total, total)?;
    w.finish()?;
    Ok(RecoveredPod5 { stats, reads: r.len(), fault })
}
