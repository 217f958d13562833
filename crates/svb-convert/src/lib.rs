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

mod convert;
mod degrade;
mod f2s;
mod fast5;
mod mapping;
mod merge;
mod recover;
mod reopen;
mod split;
mod subset;
mod table;
mod time;
mod to_fast5;
mod windows;

use std::path::{Path, PathBuf};

use std::sync::Arc;

use rayon::prelude::*;
use svb_blow5::{Blow5WriteError, Record, Schema};
use svb_pod5::RunInfo;
use windows::all_reads;

pub use convert::{convert, Compression};
pub use degrade::{degrade, round_low_bits, suggest_bits, Dataset, Degraded, DATASETS};
pub use fast5::{
    blow5_schema, fast5_to_blow5, fast5_to_pod5, read_of_fast5, run_info_of_fast5, subset_fast5,
};
pub use mapping::{
    read_group_of, read_of, record_fields_into, record_of, run_info_of, CONTEXT_KEYS_ATTRIBUTE,
    TRACKING_KEYS_ATTRIBUTE,
};
pub(crate) use merge::fields_of_schema;
pub use merge::{merge, merge_blow5, merge_pod5, pod5_to_pod5, Duplicates, HeaderRules, Merged};
pub use recover::{recover, recover_blow5, recover_pod5, Recovered, RecoveredPod5, Recovery};
pub use split::{split, split_blow5, split_pod5, Split, SplitBy, KEY};
pub use subset::{subset, subset_blow5, subset_blow5_with, subset_pod5, ReadOrder, Subset};
pub use table::{TableFile, Unknown};
pub use time::{format_utc_ms, parse_utc_ms};
pub use to_fast5::{to_fast5, to_fast5_files};

/// Samples (or, for BLOW5 inputs, stored bytes) decoded at once (at least one read): with the
/// window being written, the memory bound of a conversion.
const WINDOW_SAMPLES: u64 = 8 << 20;

/// Why a conversion failed: the file and what went wrong there.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ConvertError {
    /// An input could not be read (the read layer's error: it names the file, and the read,
    /// table or record).
    #[error(transparent)]
    Reads(Box<svb_reads::ReadsError>),
    /// The POD5 output could not be written.
    #[error(transparent)]
    Pod5Write(#[from] svb_pod5::Pod5WriteError),
    /// The BLOW5 output could not be written.
    #[error(transparent)]
    Blow5Write(#[from] svb_blow5::Blow5WriteError),
    /// The FAST5 output could not be written.
    #[error(transparent)]
    Fast5Write(#[from] svb_fast5::Fast5WriteError),
    /// The output's extension names no format svb writes.
    #[error(transparent)]
    OutputFormat(#[from] svb_model::OutputFormatError),
    /// Stopped when [`Run::interrupted`] said so; nothing was published.
    #[error("interrupted; nothing was written")]
    Interrupted,
    /// A field has no place on the other side (a read id that is not a UUID, a key that
    /// cannot be a BLOW5 attribute, two runs under one acquisition id).
    #[error("{0}")]
    Mapping(String),
    /// The output cannot be written where asked: it is one of the inputs (by any path or
    /// link), which is refused whatever the replace setting.
    #[error("{}", path.display())]
    Output {
        /// The output.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// An input's error, named by the file.
    #[error("{}", path.display())]
    Input {
        /// The input.
        path: PathBuf,
        /// What went wrong in it.
        #[source]
        source: Box<ConvertError>,
    },
}

impl From<svb_reads::ReadsError> for ConvertError {
    fn from(e: svb_reads::ReadsError) -> ConvertError {
        ConvertError::Reads(Box::new(e))
    }
}

impl From<svb_pod5::Pod5Error> for ConvertError {
    fn from(e: svb_pod5::Pod5Error) -> ConvertError {
        svb_reads::ReadsError::from(e).into()
    }
}

impl From<svb_blow5::Blow5Error> for ConvertError {
    fn from(e: svb_blow5::Blow5Error) -> ConvertError {
        svb_reads::ReadsError::from(e).into()
    }
}

impl From<svb_fast5::Fast5Error> for ConvertError {
    fn from(e: svb_fast5::Fast5Error) -> ConvertError {
        svb_reads::ReadsError::from(e).into()
    }
}

impl Stats {
    /// Why an operation that opened none of its inputs stops: the last input's error (the
    /// others are in `failed`), or, with no input at all, that there was nothing to `job`.
    pub(crate) fn nothing_opened(&mut self, job: &str) -> ConvertError {
        self.failed.pop().unwrap_or_else(|| ConvertError::Mapping(format!("no input to {job}")))
    }

    /// The samples written, where every read's were counted (`None` where some reads were
    /// copied as stored: [`samples_uncounted`](Stats::samples_uncounted)).
    pub fn samples_counted(&self) -> Option<u64> {
        (self.samples_uncounted == 0).then_some(self.samples)
    }
}

impl ConvertError {
    fn of(path: &Path) -> impl Fn(ConvertError) -> ConvertError + '_ {
        move |e| ConvertError::Input { path: path.to_path_buf(), source: Box::new(e) }
    }
}

/// What a conversion wrote.
#[derive(Debug, Default)]
pub struct Stats {
    /// Reads written.
    pub reads: u64,
    /// Samples written (of the reads whose sample count was read: see
    /// `samples_uncounted`).
    pub samples: u64,
    /// Reads copied as stored without their records parsed (BLOW5 records by merge and
    /// split): their samples are not in `samples`.
    pub samples_uncounted: u64,
    /// With [`OnError::Skip`]: the inputs and reads left out, each error naming its file
    /// (and read), in input order.
    pub failed: Vec<ConvertError>,
}

/// What a conversion does when an input cannot be opened or one of its reads cannot be
/// decoded or mapped.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum OnError {
    /// Stop: the conversion returns the error and leaves no output.
    #[default]
    Stop,
    /// Leave the input or read out, list the error in [`Stats::failed`], and go on.
    Skip,
}

impl OnError {
    /// [`Skip`](OnError::Skip) when `keep_going` (a `--keep-going` flag), else
    /// [`Stop`](OnError::Stop).
    pub fn skip_if(keep_going: bool) -> Self {
        match keep_going {
            true => OnError::Skip,
            false => OnError::Stop,
        }
    }
}

/// How a conversion runs: what it does with a failed input or read, and whom it tells of
/// its progress.
#[derive(Default)]
pub struct Run<'a> {
    /// A failed input or read stops the conversion, or is left out.
    pub on_error: OnError,
    /// Called after each window of reads is written: `(reads done, reads in all inputs)`
    /// (reads left out count as done).
    pub progress: Option<&'a mut (dyn FnMut(u64, u64) + Send)>,
    /// How outputs are published: whether one replaces a file at its path (default: refused)
    /// and whether it is synced to the disk first (default: synced). The conversions take
    /// this from their writer options (`publish`).
    pub publish: svb_io::Publish,
    /// Asked after each window of reads whether to stop (a user's Ctrl-C): when it says so,
    /// the operation ends with [`ConvertError::Interrupted`] and publishes nothing.
    pub interrupted: Option<&'a (dyn Fn() -> bool + Sync)>,
}

/// Refuses an output that is one of the inputs (the same file by any path or link): writing
/// it would destroy what is being read, whatever the replace setting.
fn check_output(inputs: &[PathBuf], out: &Path) -> Result<(), ConvertError> {
    let output = |source| ConvertError::Output { path: out.to_path_buf(), source };
    // An input that does not exist is reported when it is opened; an object (a URL) is
    // known by its URL whether or not it exists.
    let existing = inputs.iter().filter(|p| svb_io::is_url(p) || p.exists());
    svb_io::Inputs::new(existing).and_then(|ids| ids.check_output(out)).map_err(output)
}

impl<'a> Run<'a> {
    /// Reports `done` of `total`; `Err(Interrupted)` when [`Run::interrupted`] says to stop.
    fn report(&mut self, done: u64, total: u64) -> Result<(), ConvertError> {
        if let Some(p) = self.progress.as_mut() {
            p(done, total);
        }
        match self.interrupted {
            Some(stop) if stop() => Err(ConvertError::Interrupted),
            _ => Ok(()),
        }
    }
}

/// Inputs at most this many are kept open from their first look to their conversion; more
/// are opened again one at a time when their turn comes (a thousand files under a limit of
/// open files).
const KEEP_OPEN: usize = 16;

/// An input a conversion has looked at: its path, its reads, and its reader when it is kept
/// open (a stream, whose bytes a second open would not give, or one of few inputs).
struct Looked<R> {
    path: PathBuf,
    reads: usize,
    kept: Option<R>,
}

impl<R> Looked<R> {
    /// The input for its conversion: its kept reader, or its file opened again; one that no
    /// longer opens stops the conversion, or is left out (`None`) and listed in `failed`, as
    /// `on_error` says.
    fn reopen<E: Into<ConvertError>>(
        &self, open: impl FnOnce(&Path) -> Result<R, E>, on_error: OnError,
        failed: &mut Vec<ConvertError>,
    ) -> Result<Option<reopen::Reopened<'_, R>>, ConvertError> {
        let opened = reopen::reopen(&self.kept, &self.path, open).map_err(Into::into);
        Ok(settle(vec![opened], on_error, failed, ConvertError::of(&self.path))?.pop())
    }
}

/// Refuses an output that is an input ([`check_output`]), then opens every input in turn,
/// `look(reader, path)` at it (what a header needs of it) and, unless it must be kept, closes
/// it again: a bounded number of files are open at any time. With [`OnError::Skip`] an input
/// that fails to open is listed in the returned stats' `failed` and left out (when none
/// opens, the first one's error is returned: there is nothing to convert). A conversion reads
/// every read of each input in order, and says so to its reader
/// ([`ReadSource::expect_scan`](svb_model::ReadSource::expect_scan): an object is fetched
/// ahead).
fn look_at_inputs<R: svb_model::ReadSource, E: Into<ConvertError>>(
    inputs: &[PathBuf], output: &Path, on_error: OnError, open: impl Fn(&Path) -> Result<R, E>,
    mut look: impl FnMut(&R, &Path) -> Result<(), ConvertError>,
) -> Result<(Vec<Looked<R>>, Stats), ConvertError> {
    let keep_all = inputs.len() <= KEEP_OPEN;
    let open = |p: &Path| open(p).inspect(R::expect_scan);
    check_output(inputs, output)?;
    let (mut out, mut stats) = (Vec::new(), Stats::default());
    for p in inputs {
        let r = match (open(p).map_err(Into::into), on_error) {
            (Ok(r), _) => r,
            (Err(e), OnError::Skip) => {
                stats.failed.push(ConvertError::of(p)(e));
                continue;
            }
            (Err(e), OnError::Stop) => return Err(e),
        };
        look(&r, p).map_err(ConvertError::of(p))?;
        let n = r.len();
        let kept = match keep_all {
            true => Some(r),
            false => reopen::keep_stream(p, r),
        };
        out.push(Looked { path: p.clone(), reads: n, kept });
    }
    if out.is_empty() && !stats.failed.is_empty() {
        return Err(stats.failed.remove(0));
    }
    Ok((out, stats))
}

/// Each of `items` paired with what a writer said of it (`outcomes`, in the same order): the
/// item where it was written, the writer's error where not; for [`settle`].
fn each_written<T, E: Into<ConvertError>>(
    items: impl IntoIterator<Item = T>, outcomes: Vec<Result<(), E>>,
) -> Vec<Result<T, ConvertError>> {
    items
        .into_iter()
        .zip(outcomes)
        .map(|(item, added)| added.map(|()| item).map_err(Into::into))
        .collect()
}

/// The values of `items`; an error stops the conversion, or with [`OnError::Skip`] goes to
/// `failed` (named by `in_file`).
fn settle<T>(
    items: Vec<Result<T, ConvertError>>, on_error: OnError, failed: &mut Vec<ConvertError>,
    in_file: impl Fn(ConvertError) -> ConvertError,
) -> Result<Vec<T>, ConvertError> {
    let mut out = Vec::with_capacity(items.len());
    for item in items {
        match (item, on_error) {
            (Ok(v), _) => out.push(v),
            (Err(e), OnError::Skip) => failed.push(in_file(e)),
            (Err(e), OnError::Stop) => return Err(in_file(e)),
        }
    }
    Ok(out)
}

/// Converts POD5 `inputs` into one BLOW5 file `out`: every run a read group, every read a
/// record (in input order) under `options` (default: zstd records, SVB-ZD signal, as
/// slow5tools and blue-crab write); a failed input or read stops it, or is left out, as
/// `how` says.
pub fn pod5_to_blow5(
    inputs: &[PathBuf], out: &Path, options: svb_blow5::WriteOptions, how: Run<'_>,
) -> Result<Stats, ConvertError> {
    let open = |p: &Path| svb_pod5::Reader::open(p);
    let mut runs: Vec<RunInfo> = Vec::new();
    let look = |r: &svb_pod5::Reader, _: &Path| {
        for run in r.run_infos() {
            match runs.iter().find(|x| x.acquisition_id == run.acquisition_id) {
                Some(known) if known != run => {
                    return Err(ConvertError::Mapping(format!(
                        "run {} differs from the run of that acquisition id in an earlier input",
                        run.acquisition_id
                    )))
                }
                Some(_) => {}
                None => runs.push(run.clone()),
            }
        }
        Ok(())
    };
    let (inputs, stats) = look_at_inputs(inputs, out, how.on_error, open, look)?;
    let schema = Schema {
        read_groups: runs.iter().map(read_group_of).collect::<Result<_, _>>()?,
        aux: svb_blow5::ont::pod5_aux(),
    };
    let mut w = svb_blow5::Writer::create(out, schema, options)?;
    let convert = |_: usize, r: &svb_pod5::Reader, i: usize| {
        let read = &r.reads()[i];
        let acquisition = &r.run_of(i)?.acquisition_id;
        let (group, run) = runs
            .iter()
            .enumerate()
            .find(|(_, x)| x.acquisition_id == *acquisition)
            // Every run of an input was read for the header, unless the file changed since.
            .ok_or_else(|| {
                ConvertError::Mapping(format!(
                    "run {acquisition} was not in the file when its runs were read \
                     (was it changed meanwhile?)"
                ))
            })?;
        let mut rec = Record::default();
        r.decode_signal_into(i, &mut rec.raw_signal)?;
        record_fields_into(read, run, group as u32, &mut rec);
        Ok(rec)
    };
    let steps = windows::every_read(convert);
    let stats = windows::into_sink(&all_reads(inputs), open, stats, how, steps, &mut w)?;
    w.finish()?;
    Ok(stats)
}

/// Converts BLOW5 `inputs` into one POD5 file `out`: every read group a run, every record a
/// read (in input order; read ids must be UUIDs) under `options` (default: VBZ as lib_pod5
/// writes it); a failed input or read stops it, or is left out, as `how` says.
pub fn blow5_to_pod5(
    inputs: &[PathBuf], out: &Path, options: svb_pod5::WriteOptions, how: Run<'_>,
) -> Result<Stats, ConvertError> {
    let open = |p: &Path| svb_blow5::Reader::open(p);
    let mut groups: Vec<Vec<Vec<(String, String)>>> = Vec::new();
    let look = |r: &svb_blow5::Reader, _: &Path| {
        groups.push(r.header().read_groups.clone());
        Ok(())
    };
    let (inputs, stats) = look_at_inputs(inputs, out, how.on_error, open, look)?;
    let mut w = svb_pod5::Writer::create(out, options)?;
    // Each input's read groups' acquisition ids (their attributes' alone).
    let acquisitions: Vec<Vec<String>> = groups
        .iter()
        .map(|g| g.iter().map(|a| run_info_of(a, 0.0, 0.0).acquisition_id).collect())
        .collect();
    let convert = |k: usize, r: &svb_blow5::Reader, i: usize| {
        let mut rec = Record::default();
        r.record_into(i, &mut rec)?;
        let g = rec.read_group;
        let acquisition = acquisitions[k].get(g as usize).ok_or_else(|| {
            ConvertError::Mapping(format!(
                "record {}: read group {g} is not in the header",
                rec.read_id
            ))
        })?;
        let row = read_of(&rec, acquisition)?;
        Ok((k, g, (rec.digitisation, rec.sampling_rate), row, rec.raw_signal))
    };
    // A read group's run, made from its attributes and its first record (in file order, so
    // made as each window is added).
    let mut runs: std::collections::HashMap<(usize, u32), Arc<RunInfo>> = Default::default();
    let mut by_acquisition: std::collections::HashMap<String, Arc<RunInfo>> = Default::default();
    type Mapped = (usize, u32, (f64, f64), svb_pod5::ReadRow, Vec<i16>);
    let admit = |(k, g, first, row, signal): Mapped| -> windows::AdmitResult<_> {
        let run = match runs.get(&(k, g)) {
            Some(run) => run.clone(),
            None => {
                let run = run_info_of(&groups[k][g as usize], first.0, first.1);
                let run = match by_acquisition.get(&run.acquisition_id) {
                    Some(known) if **known != run => {
                        return Err(ConvertError::Mapping(format!(
                            "run {}: read group {g} differs from the run of that acquisition \
                             id made of an earlier read group",
                            run.acquisition_id
                        )))
                    }
                    Some(known) => known.clone(),
                    None => Arc::new(run),
                };
                by_acquisition.insert(run.acquisition_id.clone(), run.clone());
                runs.insert((k, g), run.clone());
                run
            }
        };
        Ok(Some(svb_pod5::NewRead { row, run, signal }))
    };
    let steps = windows::Steps { max_reads: usize::MAX, convert, admit };
    let stats = windows::into_sink(&all_reads(inputs), open, stats, how, steps, &mut w)?;
    w.finish()?;
    Ok(stats)
}

/// The options of a BLOW5 or SLOW5 output `out` made of files whose first is `first`: SLOW5
/// text when `out` ends in `.slow5`, else BLOW5 under `first`'s compression (slow5tools'
/// zstd and SVB-ZD when `first` is text); published as `publish` says.
fn blow5_options_like(
    out: &Path, first: &svb_blow5::Header, publish: svb_io::Publish,
) -> svb_blow5::WriteOptions {
    use svb_model::{Form, Format};
    let options = if Format::of_output(out).is_ok_and(|f| f == Format::Slow5) {
        svb_blow5::WriteOptions::slow5()
    } else if first.form == Form::Text {
        svb_blow5::WriteOptions::default()
    } else {
        svb_blow5::WriteOptions {
            record_compression: first.record_compression,
            signal_compression: first.signal_compression,
            ..svb_blow5::WriteOptions::default()
        }
    };
    svb_blow5::WriteOptions { publish, ..options }
}

/// The schema of one file holding the records of files with `headers` (each with its path):
/// [`merge_schemas`] of their schemas under `rules`.
fn merged_schema(
    headers: &[(&svb_blow5::Header, &Path)], rules: HeaderRules,
) -> Result<(Schema, Vec<Vec<u32>>), ConvertError> {
    let schemas: Vec<(Schema, &Path)> = headers.iter().map(|(h, p)| (Schema::of(h), *p)).collect();
    merge_schemas(&schemas, rules)
}

/// The BLOW5 schema of one file holding the records of files with `schemas` (each with its
/// path), as `svb merge` writes it, by slow5tools merge's rules ([`HeaderRules`]): read
/// groups matched by run id, in order of appearance (a group without a run id is matched by
/// all its attributes); two groups of one run whose attributes differ are an error naming
/// them, or with `rules.allow_differing_attributes` one group, what differs left empty.
/// Auxiliary fields are the union of the files', in order of appearance (a field whose type
/// differs between two files, enum labels included, an error naming both), or none with
/// `rules.drop_aux`. Returns it with, per file, its read groups' indices in it.
///
/// ```
/// use svb_blow5::Schema;
/// use svb_convert::HeaderRules;
/// let group = |run: &str| vec![("run_id".to_string(), run.to_string())];
/// let a = Schema { read_groups: vec![group("r1"), group("r2")], aux: vec![] };
/// let b = Schema { read_groups: vec![group("r2"), group("r3")], aux: vec![] };
/// let inputs = [(a, "a.blow5".as_ref()), (b, "b.blow5".as_ref())];
/// let (merged, maps) = svb_convert::merge_schemas(&inputs, HeaderRules::default())?;
/// assert_eq!(merged.read_groups, [group("r1"), group("r2"), group("r3")]);
/// assert_eq!(maps, [vec![0, 1], vec![1, 2]]);
/// # Ok::<(), svb_convert::ConvertError>(())
/// ```
pub fn merge_schemas(
    schemas: &[(Schema, &Path)], rules: HeaderRules,
) -> Result<(Schema, Vec<Vec<u32>>), ConvertError> {
    merge::merge_schemas(schemas, rules)
}

/// Copies every record of BLOW5 or SLOW5 `inputs` into one file `out` under `options`
/// (BLOW5 with any compression, or [`WriteOptions::slow5`](svb_blow5::WriteOptions::slow5)
/// text): BLOW5 to SLOW5 and back, or a recompression. Read groups are merged (equal groups
/// once) and the auxiliary fields must be the same in every input; every field is kept
/// exactly. A failed input or record stops it, or is left out, as `how` says.
pub fn blow5_to_blow5(
    inputs: &[PathBuf], out: &Path, options: svb_blow5::WriteOptions, how: Run<'_>,
) -> Result<Stats, ConvertError> {
    let open = |p: &Path| svb_blow5::Reader::open(p);
    let mut headers = Vec::new();
    let look = |r: &svb_blow5::Reader, p: &Path| {
        headers.push((r.header().clone(), p.to_path_buf()));
        Ok(())
    };
    let (inputs, stats) = look_at_inputs(inputs, out, how.on_error, open, look)?;
    let headers: Vec<(&svb_blow5::Header, &Path)> =
        headers.iter().map(|(h, p)| (h, p.as_path())).collect();
    let (schema, group_maps) = merged_schema(&headers, HeaderRules::default())?;
    let aux = schema.aux.clone();
    // One file rewritten keeps its records as they are, a read id that repeats included (as
    // slow5tools view rewrites it); several are merged, and an id in two is refused.
    let options = svb_blow5::WriteOptions { unique_read_ids: headers.len() > 1, ..options };
    let mut w = svb_blow5::Writer::create(out, schema, options)?;
    let convert = |k: usize, r: &svb_blow5::Reader, i: usize| {
        let mut rec = Record::default();
        r.record_into(i, &mut rec)?;
        rec.read_group = group_maps[k][rec.read_group as usize];
        fields_of_schema(&mut rec, &aux);
        Ok(rec)
    };
    let steps = windows::every_read(convert);
    let stats = windows::into_sink(&all_reads(inputs), open, stats, how, steps, &mut w)?;
    w.finish()?;
    Ok(stats)
}

/// Whether a read-group map (an input's group -> the output's) keeps every number: the
/// condition, with [`svb_blow5::Writer::stores_like`], for copying records as stored.
fn keeps_numbers(map: &[u32]) -> bool {
    map.iter().enumerate().all(|(g, &to)| to as usize == g)
}

/// A BLOW5 input opened for its records' copy: by positioned reads, so that nothing is read
/// whole. An index beside it is not used: what a copy keeps of a record (its id, its read
/// group) is read from the record itself, never taken from a side file that may be stale.
pub(crate) fn open_for_copy(path: &Path) -> Result<svb_blow5::Reader, svb_blow5::Blow5Error> {
    svb_blow5::Reader::open_with(path, svb_io::Access::ReadAt)
}

/// What [`copy_stored_records`] reads of each record it copies as stored.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Check {
    /// Its id and read group, from its first bytes.
    Head,
    /// Its fields, not its signal (subset: a record whose fields are damaged is refused).
    Fields,
    /// The whole record, signal decoded (recover: only records that decode are saved).
    Whole,
}

/// Copies the records `window` of `r` (ascending indices) that `keep` keeps (asked in order,
/// with each one's read id) into `w` as they are stored, as `check` says: with
/// [`Check::Head`] each record's id and read group come from the record's first bytes
/// ([`svb_blow5::Reader::record_head`]), and the samples go uncounted; with [`Check::Fields`] or [`Check::Whole`] each record's fields, or the whole
/// record with its signal, are decoded first (a record that does not decode fails) and its
/// samples counted. The kept records are
/// then copied a run of neighbours at a time ([`svb_blow5::Writer::add_stored_span`]: by the
/// kernel where it can), or one by one where they cannot be (a stream). `w` must store
/// records as `r` does ([`svb_blow5::Writer::stores_like`]) with the same read-group
/// numbering. A record that fails stops the copy, or goes to `stats.failed`, as `on_error`
/// says (named by `in_file`). Returns the ids of the records written.
#[allow(clippy::too_many_arguments)]
fn copy_stored_records(
    r: &svb_blow5::Reader, window: &[usize], check: Check, w: &mut svb_blow5::Writer,
    mut keep: impl FnMut(&str) -> Result<bool, ConvertError>, on_error: OnError, stats: &mut Stats,
    in_file: &impl Fn(ConvertError) -> ConvertError,
) -> Result<Vec<String>, ConvertError> {
    // Each record's index, id, read group and sample count (where counted).
    type Head = (usize, String, u32, Option<u64>);
    let heads: Vec<Result<Head, ConvertError>> = window
        .par_iter()
        .map(|&i| match check {
            Check::Head => {
                let (id, group) = r.record_head(i)?;
                Ok((i, id, group, None))
            }
            Check::Fields => {
                let mut rec = Record::default();
                let samples = r.fields_into(i, &mut rec)?;
                Ok((i, rec.read_id, rec.read_group, Some(samples)))
            }
            Check::Whole => {
                let rec = r.record(i)?;
                let samples = rec.raw_signal.len() as u64;
                Ok((i, rec.read_id, rec.read_group, Some(samples)))
            }
        })
        .collect();
    let heads = settle(heads, on_error, &mut stats.failed, in_file)?;
    let mut kept = Vec::with_capacity(heads.len());
    for head in heads {
        if keep(&head.1).map_err(in_file)? {
            kept.push(head);
        }
    }
    let mut written = Vec::with_capacity(kept.len());
    let mut rest = &kept[..];
    while let Some(first) = rest.first() {
        // A run of neighbouring records.
        let n = 1 + rest.windows(2).take_while(|p| p[1].0 == p[0].0 + 1).count();
        let (run, after) = rest.split_at(n);
        rest = after;
        let records: Vec<(&str, u32)> = run.iter().map(|(_, id, g, _)| (id.as_str(), *g)).collect();
        let range = first.0..first.0 + n;
        if r.stored_span(range.clone()).is_some() {
            match w.add_stored_span(r, range, &records) {
                Ok(()) => {
                    written.extend(run);
                    continue;
                }
                // A record the output refuses (checked before anything is written): with
                // `OnError::Skip`, the run goes one by one below, each refusal named.
                Err(e) if on_error == OnError::Skip && !matches!(e, Blow5WriteError::Io { .. }) => {
                }
                Err(e) => return Err(in_file(e.into())),
            }
        }
        let stored: Vec<Result<_, ConvertError>> =
            run.par_iter().map(|head| Ok((head, r.stored_record(head.0)?))).collect();
        let ok = settle(stored, on_error, &mut stats.failed, in_file)?;
        let records: Vec<(&str, u32, &[u8])> =
            ok.iter().map(|((_, id, g, _), bytes)| (id.as_str(), *g, bytes.as_slice())).collect();
        let outcome = w.add_stored_records(&records).map_err(|e| in_file(e.into()))?;
        let added = each_written(ok.iter().map(|(head, _)| *head), outcome);
        written.extend(settle(added, on_error, &mut stats.failed, in_file)?);
    }
    stats.reads += written.len() as u64;
    for (.., samples) in &written {
        match samples {
            Some(n) => stats.samples += n,
            None => stats.samples_uncounted += 1,
        }
    }
    Ok(written.into_iter().map(|(_, id, ..)| id.clone()).collect())
}
