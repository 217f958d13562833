//! FAST5 -> POD5: ONT's `pod5 convert fast5` mapping (docs/FORMATS.md), with end reasons by
//! label (their numbers changed between FAST5 versions) and single-read files too.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use svb_fast5::{find, AttrValue, Attrs};
use svb_model::ont::END_REASONS;
use svb_model::ReadSink;
use svb_pod5::{ReadRow, RunInfo};

use crate::error::ConvertError;
use crate::f2s;
use crate::mapping::forced;
use crate::run::{Run, Stats};
use crate::windows::{fast5_steps, into_sink};

/// Text of attribute `name` of `attrs`, `None` when absent.
fn text(attrs: &Attrs, name: &str) -> Option<String> {
    find(attrs, name).map(AttrValue::to_text)
}

/// Every attribute of `attrs` as text, in file order.
fn all_text(attrs: &Attrs) -> Vec<(String, String)> {
    attrs.iter().map(|(k, v)| (k.clone(), v.to_text())).collect()
}

/// The POD5 run of a FAST5 read: its acquisition id the read's run id, the rest from its
/// tracking and context attributes as ONT's converter takes them (the ADC range and device
/// type guessed from the digitisation: 8192 is a MinION's; text the file lacks empty, times
/// it lacks or that do not parse 0, as ONT's converter leaves them).
pub fn run_info_of_fast5(read: &svb_fast5::ReadAttributes) -> Result<RunInfo, ConvertError> {
    let t = &read.tracking_id;
    let minion = read.digitisation == 8192.0;
    let time = |name: &str| text(t, name).and_then(|s| crate::time::parse_utc_ms(&s)).unwrap_or(0);
    let mut run = RunInfo::default();
    run.acquisition_id = read.run_id.clone();
    run.acquisition_start_time_ms = time("exp_start_time");
    (run.adc_min, run.adc_max) = if minion { (-4096, 4095) } else { (0, 2047) };
    run.experiment_name = String::new();
    run.flow_cell_id = text(t, "flow_cell_id").unwrap_or_default();
    run.flow_cell_product_code = text(t, "flow_cell_product_code").unwrap_or_default();
    // Older files lack these; ONT's converter (pod5 0.3.49) leaves them empty too.
    run.protocol_name = text(t, "exp_script_name").unwrap_or_default();
    run.protocol_run_id = text(t, "protocol_run_id").unwrap_or_default();
    run.protocol_start_time_ms = time("protocol_start_time");
    run.sample_id = text(t, "sample_id").unwrap_or_default();
    run.sample_rate = u16::try_from(read.sampling_rate as i64)
        .ok()
        .filter(|_| read.sampling_rate >= 0.0)
        .ok_or_else(|| {
            ConvertError::Mapping(format!(
                "read {}: a sampling rate of {} (POD5 holds 0 to 65535)",
                read.read_id, read.sampling_rate
            ))
        })?;
    run.sequencing_kit = text(&read.context_tags, "sequencing_kit").unwrap_or_default();
    run.sequencer_position = text(t, "device_id").unwrap_or_default();
    run.sequencer_position_type = text(t, "device_type")
        .unwrap_or_else(|| if minion { "minion" } else { "promethion" }.to_string());
    run.software = concat!("svb ", env!("CARGO_PKG_VERSION")).to_string();
    run.system_name = text(t, "host_product_serial_number").unwrap_or_default();
    run.system_type = text(t, "host_product_code").unwrap_or_default();
    run.context_tags = all_text(&read.context_tags);
    run.tracking_id = all_text(t);
    Ok(run)
}

/// The POD5 end reason of a FAST5 one: by label where the file names it (`partial`, which
/// POD5 lacks, and labels it does not know are `unknown`), by ONT's converter's numbering
/// where it stores a bare number (the current enum's: 0 and 1 `unknown`, then POD5's order).
fn end_reason_of(e: Option<&svb_fast5::EndReason>) -> &'static str {
    let by_label = |label: &str| END_REASONS.iter().find(|&&r| r == label).copied();
    match e {
        None => "unknown",
        Some(svb_fast5::EndReason { label: Some(label), .. }) => {
            by_label(label).unwrap_or("unknown")
        }
        Some(svb_fast5::EndReason { label: None, value: Some(v), .. }) => match usize::try_from(*v)
        {
            Ok(v) if v >= 2 => END_REASONS.get(v - 1).copied().unwrap_or("unknown"),
            _ => "unknown",
        },
        Some(_) => "unknown",
    }
}

/// The POD5 read of a FAST5 read (of run `read.run_id`; its `num_samples` is for the caller
/// to set from the signal): read id, channel and well, pore
/// type (`not_set` where absent), calibration (scale = range / digitisation), read number,
/// start, median before (NaN where absent), the end reason and whether MinKNOW forced it, and
/// the `Raw`
/// attributes newer files add (scalings, counters; ONT's defaults where absent).
pub fn read_of_fast5(read: &svb_fast5::ReadAttributes) -> Result<ReadRow, ConvertError> {
    let bad = |what: String| ConvertError::Mapping(format!("read {}: {what}", read.read_id));
    let id = svb_pod5::parse_uuid(&read.read_id)
        .ok_or_else(|| bad("its read id is not a UUID, which POD5 needs".into()))?;
    let mut r = ReadRow::new(id, read.run_id.as_str());
    r.channel = read
        .channel_number
        .parse()
        .map_err(|_| bad(format!("channel_number {:?} is not a channel", read.channel_number)))?;
    r.well = u8::try_from(read.start_mux)
        .map_err(|_| bad(format!("start_mux {} is not a well", read.start_mux)))?;
    if let Some(p) = &read.pore_type {
        r.pore_type = p.as_str().into();
    }
    r.calibration_offset = read.offset as f32;
    r.calibration_scale = (read.range / read.digitisation) as f32;
    r.read_number = u32::try_from(read.read_number)
        .map_err(|_| bad(format!("read_number {} is not a read number", read.read_number)))?;
    r.start_sample = read.start_time;
    // Absent in some older files: NaN, POD5's "not known" (as its writers fill it).
    r.median_before = read.median_before.map_or(f32::NAN, |v| v as f32);
    let end = end_reason_of(read.end_reason.as_ref());
    r.end_reason = end.into();
    r.end_reason_forced = forced(end);
    let raw = &read.raw;
    let float = |name: &str, default: f32| {
        find(raw, name).and_then(AttrValue::as_f64).map_or(default, |v| v as f32)
    };
    let count = |name: &str| find(raw, name).and_then(AttrValue::as_u64).unwrap_or(0);
    r.num_minknow_events = Some(count("num_minknow_events"));
    r.tracked_scaling_shift = Some(float("tracked_scaling_shift", f32::NAN));
    r.tracked_scaling_scale = Some(float("tracked_scaling_scale", f32::NAN));
    r.predicted_scaling_shift = Some(float("predicted_scaling_shift", f32::NAN));
    r.predicted_scaling_scale = Some(float("predicted_scaling_scale", f32::NAN));
    r.num_reads_since_mux_change = Some(
        u32::try_from(count("num_reads_since_mux_change"))
            .map_err(|_| bad("num_reads_since_mux_change past 2^32".into()))?,
    );
    r.time_since_mux_change = Some(float("time_since_mux_change", 0.0));
    Ok(r)
}

/// Converts FAST5 `inputs` into one POD5 file `out`: every read (in file order; ids must be
/// UUIDs) with its run (one per run id, from the first read of that run), under `options`
/// (default: VBZ as lib_pod5 writes it). A window of reads is decoded on every core while
/// nothing else is held; a failed input or read stops it, or is left out, as `how` says.
pub fn fast5_to_pod5(
    inputs: &[PathBuf], out: &Path, options: svb_pod5::WriteOptions, how: Run<'_>,
) -> Result<Stats, ConvertError> {
    let (readers, stats) = open_fast5(inputs, out, how.on_error, None, |_, _| {})?;
    picked_to_pod5(readers, stats, out, options, how)
}

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

pub(crate) fn picked_to_pod5(
    readers: Picked, stats: Stats, out: &Path, options: svb_pod5::WriteOptions, how: Run<'_>,
) -> Result<Stats, ConvertError> {
    let w = svb_pod5::Writer::create(out, options)?;
    let convert = |_: usize, r: &svb_fast5::Reader, i: usize| {
        let mut signal = Vec::new();
        let read = r.read_with_signal(i, &mut signal)?;
        let mut row = read_of_fast5(&read)?;
        row.num_samples = signal.len() as u64;
        let run = Arc::new(run_info_of_fast5(&read)?);
        Ok(svb_pod5::NewRead { row, run, signal })
    };
    picked_into(readers, stats, how, convert, w)
}

/// Writes the picked FAST5 reads into `w`, each made by `convert`, then finishes it while
/// the readers are freed ([`finish_freeing`]).
fn picked_into<W: ReadSink + Send>(
    readers: Picked, stats: Stats, how: Run<'_>,
    convert: impl Fn(usize, &svb_fast5::Reader, usize) -> Result<W::Read, ConvertError> + Sync,
    mut w: W,
) -> Result<Stats, ConvertError>
where
    ConvertError: From<W::Error>,
{
    let stats = into_sink(&readers, open_reader, stats, how, fast5_steps(convert), &mut w)?;
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
pub fn fast5_to_blow5(
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
        let read = |&i: &usize| match r.read(i) {
            Ok(read) => Some(read),
            Err(e) => {
                let path = svb_model::ReadSource::path(r);
                failed.get_or_insert_with(|| ConvertError::of(path)(e.into()));
                None
            }
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
                .map(crate::mapping::read_group_of)
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
    picked_into(readers, stats, how, convert, w)
}
