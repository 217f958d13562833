//! ONT's reads in FAST5 files as the model holds them: a read's attributes as its
//! [`ReadInfo`] and its run's as a [`RunInfo`], as ONT's `pod5 convert fast5` maps them
//! (docs/FORMATS.md), end reasons by label (their numbers changed between FAST5 versions);
//! and the model's reads written as FAST5 reads as `pod5 convert to_fast5` writes them
//! ([`read_of`], [`OntWriter`]).

use std::sync::Arc;

use svb_model::ont::{
    forced, parse_utc_ms, parse_uuid, MappingError, OntRead, OntReadError, OntSource, ReadInfo,
    RunInfo, END_REASONS,
};

use crate::{find, AttrValue, Attrs, EndReason, Fast5Error, ReadAttributes, Reader};

mod writer;

pub use writer::{read_of, OntWriter, RunGroups};

/// Text of attribute `name` of `attrs`, `None` when absent.
fn text(attrs: &Attrs, name: &str) -> Option<String> {
    find(attrs, name).map(AttrValue::to_text)
}

/// Every attribute of `attrs` as text, in file order.
fn all_text(attrs: &Attrs) -> Vec<(String, String)> {
    attrs.iter().map(|(k, v)| (k.clone(), v.to_text())).collect()
}

/// The model's run of a FAST5 read, as ONT's `pod5 convert fast5` maps it: its acquisition id the read's run id, the rest from its
/// tracking and context attributes as ONT's converter takes them (the ADC range and device
/// type guessed from the digitisation: 8192 is a MinION's; text the file lacks empty, times
/// it lacks or that do not parse 0, as ONT's converter leaves them).
pub fn run_info_of(read: &ReadAttributes) -> Result<RunInfo, MappingError> {
    let t = &read.tracking_id;
    let minion = read.digitisation == 8192.0;
    let time = |name: &str| text(t, name).and_then(|s| parse_utc_ms(&s)).unwrap_or(0);
    let sample_rate = u16::try_from(read.sampling_rate as i64)
        .ok()
        .filter(|_| read.sampling_rate >= 0.0)
        .ok_or_else(|| {
            MappingError(format!(
                "read {}: a sampling rate of {} (POD5 holds 0 to 65535)",
                read.read_id, read.sampling_rate
            ))
        })?;
    let (adc_min, adc_max) = if minion { (-4096, 4095) } else { (0, 2047) };
    Ok(RunInfo {
        acquisition_id: read.run_id.clone(),
        acquisition_start_time_ms: time("exp_start_time"),
        adc_max,
        adc_min,
        experiment_name: String::new(),
        flow_cell_id: text(t, "flow_cell_id").unwrap_or_default(),
        flow_cell_product_code: text(t, "flow_cell_product_code").unwrap_or_default(),
        // Older files lack these; ONT's converter (pod5 0.3.49) leaves them empty too.
        protocol_name: text(t, "exp_script_name").unwrap_or_default(),
        protocol_run_id: text(t, "protocol_run_id").unwrap_or_default(),
        protocol_start_time_ms: time("protocol_start_time"),
        sample_id: text(t, "sample_id").unwrap_or_default(),
        sample_rate,
        sequencing_kit: text(&read.context_tags, "sequencing_kit").unwrap_or_default(),
        sequencer_position: text(t, "device_id").unwrap_or_default(),
        sequencer_position_type: text(t, "device_type")
            .unwrap_or_else(|| if minion { "minion" } else { "promethion" }.to_string()),
        software: concat!("svb ", env!("CARGO_PKG_VERSION")).to_string(),
        system_name: text(t, "host_product_serial_number").unwrap_or_default(),
        system_type: text(t, "host_product_code").unwrap_or_default(),
        context_tags: all_text(&read.context_tags),
        tracking_id: all_text(t),
    })
}

/// The POD5 end reason of a FAST5 one: by label where the file names it (`partial`, which
/// POD5 lacks, and labels it does not know are `unknown`), by ONT's converter's numbering
/// where it stores a bare number (the current enum's: 0 and 1 `unknown`, then POD5's order).
fn end_reason_of(e: Option<&EndReason>) -> &'static str {
    let by_label = |label: &str| END_REASONS.iter().find(|&&r| r == label).copied();
    match e {
        None => "unknown",
        Some(EndReason { label: Some(label), .. }) => by_label(label).unwrap_or("unknown"),
        Some(EndReason { label: None, value: Some(v), .. }) => match usize::try_from(*v) {
            Ok(v) if v >= 2 => END_REASONS.get(v - 1).copied().unwrap_or("unknown"),
            _ => "unknown",
        },
        Some(_) => "unknown",
    }
}

/// The model's read of a FAST5 read (of run `read.run_id`; its `num_samples` is for the caller
/// to set from the signal), as ONT's `pod5 convert fast5` maps it: read id, channel and well, pore
/// type (`not_set` where absent), calibration (scale = range / digitisation), read number,
/// start, median before (NaN where absent), the end reason and whether MinKNOW forced it, and
/// the `Raw`
/// attributes newer files add (scalings, counters; ONT's defaults where absent).
pub fn read_info_of(read: &ReadAttributes) -> Result<ReadInfo, MappingError> {
    let bad = |what: String| MappingError(format!("read {}: {what}", read.read_id));
    let id = parse_uuid(&read.read_id)
        .ok_or_else(|| bad("its read id is not a UUID, which POD5 needs".into()))?;
    let mut r = ReadInfo::new(id, read.run_id.as_str());
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

/// FAST5 reads as the model's, by ONT's `pod5 convert fast5` mapping ([`read_info_of`],
/// [`run_info_of`]): each read carries the run its own attributes make, and a writer of
/// several reads of one run keeps the first (as ONT's converter does), so nothing is decided
/// in order.
impl OntSource for Reader {
    type Mapped = OntRead;
    type Runs = ();

    fn map_read(&self, index: usize) -> Result<OntRead, OntReadError<Fast5Error>> {
        let mut signal = Vec::new();
        let read = self.read_with_signal(index, &mut signal).map_err(OntReadError::Read)?;
        let info = read_info_of(&read)?;
        let run = Arc::new(run_info_of(&read)?);
        Ok(OntRead::new(info, run, signal))
    }

    fn samples_mut(mapped: &mut OntRead) -> &mut Vec<i16> {
        &mut mapped.signal
    }

    fn admit(&self, _: &mut (), mapped: OntRead) -> Result<OntRead, OntReadError<Fast5Error>> {
        Ok(mapped)
    }
}
