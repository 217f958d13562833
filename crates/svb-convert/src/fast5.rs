//! FAST5 -> POD5 (ONT's `pod5 convert fast5` mapping, `svb_fast5::ont`) and FAST5 -> BLOW5 /
//! SLOW5 (slow5tools f2s's, `f2s.rs`), single-read files too.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use svb_model::ReadSink;

use crate::error::ConvertError;
use crate::f2s;
use crate::run::{Run, Stats};
use crate::windows::{fast5_steps, into_sink, ont_steps, AdmitResult, Steps, FAST5_WINDOW_READS};

/// The FAST5 inputs looked at, each with the indices of its reads to convert (all of them,
/// or those whose id `wanted` holds).
type Picked = crate::windows::Picked<svb_fast5::Reader>;

/// Looks at each FAST5 input in turn: the reads to convert of each, and `look(reader, those
/// reads)` (what the output's header needs of them).
pub(crate) fn open_fast5(
    inputs: &[PathBuf], out: &Path, on_error: crate::run::OnError,
    wanted: Option<&HashSet<String>>, mut look: impl FnMut(&svb_fast5::Reader, &[usize]),
) -> Result<(Picked, Stats), ConvertError> {
    let mut picks = Vec::new();
    let pick = |r: &svb_fast5::Reader, _: &Path| {
        let keep: Vec<usize> = (0..r.len())
            .filter(|&i| wanted.is_none_or(|w| r.read_id(i).is_ok_and(|id| w.contains(id))))
            .collect();
        look(r, &keep);
        picks.push(keep);
        Ok(())
    };
    let (looked, stats) = crate::run::look_at_inputs(
        inputs,
        out,
        on_error,
        |p: &Path| svb_fast5::Reader::open(p),
        pick,
    )?;
    Ok((looked.into_iter().zip(picks).collect(), stats))
}

/// Converts the picked FAST5 reads into POD5 `out` as the model's reads (ONT's mapping: the
/// FAST5 reader's [`OntSource`](svb_model::ont::OntSource)).
pub(crate) fn picked_to_pod5(
    readers: Picked, stats: Stats, out: &Path, options: svb_pod5::WriteOptions, how: Run<'_>,
) -> Result<Stats, ConvertError> {
    let w = svb_pod5::Writer::create(out, options)?;
    picked_into(readers, stats, how, ont_steps(FAST5_WINDOW_READS), w)
}

/// Writes the picked FAST5 reads into `w` by `steps`, then finishes it while the readers are
/// freed ([`finish_freeing`]).
fn picked_into<W: ReadSink + Send, T: Send>(
    readers: Picked, stats: Stats, how: Run<'_>,
    steps: Steps<
        impl Fn(usize, &svb_fast5::Reader, usize) -> Result<T, ConvertError> + Sync,
        impl FnMut(&svb_fast5::Reader, T) -> AdmitResult<W::Read> + Send,
    >,
    mut w: W,
) -> Result<Stats, ConvertError>
where
    ConvertError: From<W::Error>,
{
    let stats = into_sink(&readers, open_reader, stats, how, steps, &mut w)?;
    finish_freeing(readers, || w.finish().map(drop).map_err(ConvertError::from))?;
    Ok(stats)
}

/// Runs `finish` (an output's last writes and its sync) while `readers` are freed on another
/// thread, which is not waited for: a FAST5 reader holds every HDF5 object it parsed, and
/// freeing them took 100 ms of a 1.6 s conversion of a 2000-read file. The memory is freed
/// all the same, on that thread (or by the end of the process, when it ends first).
fn finish_freeing(
    readers: Picked, finish: impl FnOnce() -> Result<(), ConvertError>,
) -> Result<(), ConvertError> {
    std::thread::spawn(move || drop(readers));
    finish()
}

fn open_reader(p: &Path) -> Result<svb_fast5::Reader, svb_fast5::Fast5Error> {
    svb_fast5::Reader::open(p)
}

/// Converts FAST5 `inputs` into one BLOW5 (or SLOW5 text) file `out` as slow5tools `f2s`
/// maps a FAST5 read (docs/FORMATS.md): a read group per run, its attributes the file's
/// root, `tracking_id` and `context_tags` attributes; the auxiliary fields f2s keeps; under
/// `options` (default: zstd records, SVB-ZD signal). The runs and fields are gathered first
/// (a BLOW5 header lists them before any record); a failed input or read stops it, or is
/// left out, as `how` says.
pub(crate) fn fast5_to_blow5(
    inputs: &[PathBuf], out: &Path, options: svb_blow5::WriteOptions, how: Run<'_>,
) -> Result<Stats, ConvertError> {
    // Every run's read group and every field, from every read's attributes.
    let mut header = F2sHeader::default();
    let add = |r: &svb_fast5::Reader, keep: &[usize]| header.add(r, keep);
    let (readers, stats) = open_fast5(inputs, out, how.on_error, None, add)?;
    picked_to_blow5(readers, header, stats, out, options, how)
}

/// The read groups (one a run) and auxiliary fields of a BLOW5 made of FAST5 reads, as f2s
/// maps them, gathered an input at a time ([`add`](F2sHeader::add)).
#[derive(Default)]
pub(crate) struct F2sHeader {
    /// Each run's id and read group attributes, in the order first seen.
    groups: Vec<(String, Vec<(String, String)>)>,
    fields: Vec<svb_blow5::AuxField>,
    /// The first read whose attributes failed, named by its file: what is said when no read
    /// gave a read group.
    failed: Option<ConvertError>,
}

impl F2sHeader {
    /// Gathers the reads `keep` of `r` (reads whose attributes fail are left out here: they
    /// are named when they are converted).
    pub(crate) fn add(&mut self, r: &svb_fast5::Reader, keep: &[usize]) {
        let root = r.root_attributes().unwrap_or_else(|_| Vec::new().into());
        let failed = &mut self.failed;
        // A read f2s cannot map without a loss is refused when it is converted; its
        // attributes do not join the header either (its refusal is what is said when no read
        // gave one).
        let read = |&i: &usize| {
            let read = r.read(i).map_err(ConvertError::from).and_then(|read| {
                f2s::check_mapped(&read)?;
                Ok(read)
            });
            read.map_err(|e| {
                let path = svb_model::ReadSource::path(r);
                failed.get_or_insert_with(|| ConvertError::of(path)(e));
            })
            .ok()
        };
        for read in keep.iter().filter_map(read) {
            // Attributes some reads of a run have and others lack join the run's group.
            let attrs = f2s::read_group(&root, &read);
            match self.groups.iter_mut().find(|(run, _)| *run == read.run_id) {
                Some((_, known)) => f2s::merge_attributes(known, attrs),
                None => self.groups.push((read.run_id.clone(), attrs)),
            }
            f2s::union(&mut self.fields, f2s::fields_of(&read));
        }
    }

    /// The schema, and the run id of each read group; when no read gave one (a BLOW5 file
    /// has at least one), the first read's failure, or that there was no read.
    fn finish(self) -> Result<(svb_blow5::Schema, Vec<String>), ConvertError> {
        if self.groups.is_empty() {
            return Err(self.failed.unwrap_or_else(|| {
                ConvertError::Mapping(
                    "no read to convert (a BLOW5 file holds at least one read group)".into(),
                )
            }));
        }
        let (runs, read_groups) = self.groups.into_iter().unzip();
        let schema = svb_blow5::Schema { read_groups, aux: self.fields };
        Ok((schema, runs))
    }
}

/// The read groups and auxiliary fields of the BLOW5 that `svb convert` makes of `file`
/// (BLOW5 / SLOW5: its own; POD5: a read group per run and blue-crab's fields; FAST5: a read
/// group per run and f2s's fields): the header metadata pyslow5 users read, for any format.
///
/// ```
/// # let Some(data) = svb_testdata::data_dir() else { return Ok(()) };
/// let file = svb_reads::AnyReader::open(&data.join("pod5/multi_fast5_zip.pod5"))?;
/// let schema = svb_convert::blow5_schema(&file)?;
/// assert_eq!(schema.read_groups.len(), 1);
/// assert!(schema.aux.iter().any(|f| f.name == "end_reason"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn blow5_schema(file: &svb_reads::AnyReader) -> Result<svb_blow5::Schema, ConvertError> {
    match file.by_format() {
        svb_reads::ByFormat::Blow5(r) => Ok(svb_blow5::Schema::of(r.header())),
        svb_reads::ByFormat::Pod5(r) => Ok(svb_blow5::Schema {
            read_groups: r
                .run_infos()
                .iter()
                .map(svb_blow5::ont::read_group_of)
                .collect::<Result<_, _>>()?,
            aux: svb_blow5::ont::pod5_aux(),
        }),
        svb_reads::ByFormat::Fast5(r) => {
            let mut header = F2sHeader::default();
            header.add(r, &(0..r.len()).collect::<Vec<_>>());
            Ok(header.finish()?.0)
        }
    }
}

/// Converts the picked reads into BLOW5 `out`, whose header `header` gathered from them.
pub(crate) fn picked_to_blow5(
    readers: Picked, header: F2sHeader, stats: Stats, out: &Path, options: svb_blow5::WriteOptions,
    how: Run<'_>,
) -> Result<Stats, ConvertError> {
    let (schema, runs) = header.finish()?;
    let fields = schema.aux.clone();
    let w = svb_blow5::Writer::create(out, schema, options)?;
    let convert = |_: usize, r: &svb_fast5::Reader, i: usize| {
        let mut signal = Vec::new();
        let read = r.read_with_signal(i, &mut signal)?;
        // Every read's run was gathered, unless its file changed since.
        let group = runs.iter().position(|run| *run == read.run_id).ok_or_else(|| {
            ConvertError::Mapping(format!(
                "read {} names run {}, which was not in the file when its runs were read \
                 (was it changed meanwhile?)",
                read.read_id, read.run_id
            ))
        })?;
        f2s::record(&read, signal, group as u32, &fields)
    };
    picked_into(readers, stats, how, fast5_steps(convert), w)
}
