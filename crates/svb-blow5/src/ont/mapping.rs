//! ONT's reads as BLOW5 records and their runs as read groups, and back: blue-crab's mapping
//! (docs/FORMATS.md has the table) between the model's [`ReadInfo`] and [`RunInfo`] and a
//! [`Record`] and a read group's attributes, plus two attributes that let a read group give
//! every context tag and tracking id back where it came from.

use std::fmt::Write;
use std::sync::Arc;

use svb_model::ont::{
    forced, format_utc_ms, parse_utc_ms, parse_uuid, push_uuid, MappingError, ReadInfo, RunInfo,
    END_REASONS,
};

use crate::{AuxValue, Record};

/// The read-group attribute listing the keys that came from the run's `context_tags`, comma
/// separated, in order (svb's addition; without it, blue-crab's list of MinKNOW's context
/// keys decides).
pub const CONTEXT_KEYS_ATTRIBUTE: &str = "pod5_context_tags";
/// The same for `tracking_id`.
pub const TRACKING_KEYS_ATTRIBUTE: &str = "pod5_tracking_id";

/// The header attributes blue-crab and svb write from a POD5 run's own fields (beside its
/// tracking ids and context tags), and svb's two key lists: never a tracking id.
pub const RUN_KEYS: [&str; 15] = [
    "acquisition_id",
    "acquisition_start_time",
    "adc_max",
    "adc_min",
    "experiment_name",
    "protocol_name",
    "protocol_start_time",
    "sample_rate",
    "sequencer_position",
    "sequencer_position_type",
    "software",
    "system_name",
    "system_type",
    CONTEXT_KEYS_ATTRIBUTE,
    TRACKING_KEYS_ATTRIBUTE,
];

/// Attributes as `(key, value)`, in order.
type KeyValues = Vec<(String, String)>;

/// A read group's attributes split into its run's `(context tags, tracking ids)`, each
/// `(key, value)` in order, `.` (slow5lib's empty value) empty: by svb's key lists where the
/// attributes hold them; else a key `is_context` names is a context tag, and every other key
/// but those `not_tracking` names a tracking id (a file from another tool).
pub fn context_and_tracking(
    attrs: &[(String, String)], is_context: impl Fn(&str) -> bool,
    not_tracking: impl Fn(&str) -> bool,
) -> (KeyValues, KeyValues) {
    let get = |k: &str| {
        attrs.iter().find(|(key, _)| key == k).map(|(_, v)| v.as_str()).filter(|v| *v != ".")
    };
    let pairs = |keys: Vec<&str>| -> KeyValues {
        keys.into_iter()
            .filter(|k| attrs.iter().any(|(key, _)| key == k))
            .map(|k| (k.to_string(), get(k).unwrap_or("").to_string()))
            .collect()
    };
    let listed = |k: &str| get(k).map(|v| v.split(',').collect::<Vec<_>>());
    match (listed(CONTEXT_KEYS_ATTRIBUTE), listed(TRACKING_KEYS_ATTRIBUTE)) {
        (context, tracking) if context.is_some() || tracking.is_some() => {
            (pairs(context.unwrap_or_default()), pairs(tracking.unwrap_or_default()))
        }
        _ => {
            let keys = |f: &dyn Fn(&str) -> bool| -> Vec<&str> {
                attrs.iter().map(|(k, _)| k.as_str()).filter(|k| f(k)).collect()
            };
            (pairs(keys(&is_context)), pairs(keys(&|k| !is_context(k) && !not_tracking(k))))
        }
    }
}

/// The context tags MinKNOW writes (blue-crab's list): where a BLOW5 file without svb's
/// key lists puts them back.
pub const CONTEXT_KEYS: [&str; 13] = [
    "barcoding_enabled",
    "basecall_model_simplex",
    "basecall_models_modified",
    "estimate_poly_a",
    "basecall_config_filename",
    "experiment_duration_set",
    "experiment_type",
    "local_basecalling",
    "package",
    "package_version",
    "sample_frequency",
    "selected_speed_bases_per_second",
    "sequencing_kit",
];

/// A BLOW5 attribute value: `.` for an empty one.
fn value(v: &str) -> String {
    if v.is_empty() {
        ".".into()
    } else {
        v.into()
    }
}

/// The read-group attributes of a run, in blue-crab's order: `acquisition_id`, `run_id`
/// (the same), the time, the ADC range, the context tags, the run's other fields, the
/// tracking ids (a key seen before keeps its place and takes the later value), then svb's
/// two key lists.
pub fn read_group_of(run: &RunInfo) -> Result<Vec<(String, String)>, MappingError> {
    let mut attrs: Vec<(String, String)> = Vec::new();
    let mut set = |k: &str, v: String| {
        match attrs.iter_mut().find(|(key, _)| key == k) {
            Some(slot) => slot.1 = v,
            None => attrs.push((k.to_string(), v)),
        };
    };
    set("acquisition_id", value(&run.acquisition_id));
    set("run_id", value(&run.acquisition_id));
    set("acquisition_start_time", format_utc_ms(run.acquisition_start_time_ms));
    set("adc_max", run.adc_max.to_string());
    set("adc_min", run.adc_min.to_string());
    for (k, v) in &run.context_tags {
        set(k, value(v));
    }
    for (k, v) in [
        ("experiment_name", value(&run.experiment_name)),
        ("flow_cell_id", value(&run.flow_cell_id)),
        ("flow_cell_product_code", value(&run.flow_cell_product_code)),
        ("protocol_name", value(&run.protocol_name)),
        ("protocol_run_id", value(&run.protocol_run_id)),
        ("protocol_start_time", format_utc_ms(run.protocol_start_time_ms)),
        ("sample_id", value(&run.sample_id)),
        ("sample_rate", run.sample_rate.to_string()),
        ("sequencing_kit", value(&run.sequencing_kit)),
        ("sequencer_position", value(&run.sequencer_position)),
        ("sequencer_position_type", value(&run.sequencer_position_type)),
        ("software", value(&run.software)),
        ("system_name", value(&run.system_name)),
        ("system_type", value(&run.system_type)),
    ] {
        set(k, v);
    }
    for (k, v) in &run.tracking_id {
        set(k, value(v));
    }
    let keys = |pairs: &[(String, String)], what: &str| -> Result<String, MappingError> {
        if let Some((k, _)) = pairs.iter().find(|(k, _)| k.contains(',') || k.is_empty()) {
            return Err(MappingError(format!(
                "run {}: {what} key {k:?} cannot be a BLOW5 attribute",
                run.acquisition_id
            )));
        }
        Ok(value(&pairs.iter().map(|(k, _)| k.as_str()).collect::<Vec<_>>().join(",")))
    };
    let context = keys(&run.context_tags, "context tag")?;
    let tracking = keys(&run.tracking_id, "tracking id")?;
    set(CONTEXT_KEYS_ATTRIBUTE, context);
    set(TRACKING_KEYS_ATTRIBUTE, tracking);
    if let Some((k, v)) =
        attrs.iter().find(|(k, v)| k.contains(['\t', '\n', '\r']) || v.contains(['\t', '\n', '\r']))
    {
        return Err(MappingError(format!(
            "run {}: attribute {k:?} = {v:?} holds a tab or newline, which a BLOW5 header cannot",
            run.acquisition_id
        )));
    }
    Ok(attrs)
}

/// The acquisition id of a read group's attributes: `acquisition_id` (blue-crab's), else
/// `run_id` (slow5tools f2s's), empty where neither is there (`.` is empty).
///
/// ```
/// let group = vec![("run_id".to_string(), "r1".to_string())];
/// assert_eq!(svb_blow5::ont::acquisition_id_of(&group), "r1");
/// ```
pub fn acquisition_id_of(attrs: &[(String, String)]) -> String {
    let get = |k: &str| -> Option<&str> {
        attrs.iter().find(|(key, _)| key == k).map(|(_, v)| v.as_str()).filter(|v| *v != ".")
    };
    get("acquisition_id").or(get("run_id")).unwrap_or("").to_string()
}

/// The run of a read group's attributes (`.` is empty). `digitisation` and `sampling_rate`
/// are a record's, for files whose header lacks the ADC range or the rate.
pub fn run_info_of(attrs: &[(String, String)], digitisation: f64, sampling_rate: f64) -> RunInfo {
    let get = |k: &str| -> Option<&str> {
        attrs.iter().find(|(key, _)| key == k).map(|(_, v)| v.as_str()).filter(|v| *v != ".")
    };
    let text = |k: &str| get(k).unwrap_or("").to_string();
    // A key of blue-crab's, or the older name slow5tools' f2s writes.
    let text_or = |k: &str, old: &str| get(k).or(get(old)).unwrap_or("").to_string();
    let time = |k: &str| get(k).and_then(parse_utc_ms).unwrap_or(0);
    // blue-crab's choice for headers without the range: MinION's or PromethION's ADC.
    let (adc_min, adc_max) = if digitisation == 8192.0 {
        (-4096, 4095)
    } else {
        (0, (digitisation - 1.0).clamp(0.0, 32767.0) as i16)
    };
    // The header attributes that are run fields of POD5's own, besides those below.
    const OTHER_FIELDS: [&str; 4] =
        ["flow_cell_product_code", "pore_type", "sequencing_kit", "file_format"];
    let (context_tags, tracking_id) = context_and_tracking(
        attrs,
        |k| CONTEXT_KEYS.contains(&k),
        |k| RUN_KEYS.contains(&k) || OTHER_FIELDS.contains(&k),
    );
    RunInfo {
        acquisition_id: acquisition_id_of(attrs),
        acquisition_start_time_ms: get("acquisition_start_time")
            .or(get("exp_start_time"))
            .and_then(parse_utc_ms)
            .unwrap_or(0),
        adc_max: get("adc_max").and_then(|v| v.parse().ok()).unwrap_or(adc_max),
        adc_min: get("adc_min").and_then(|v| v.parse().ok()).unwrap_or(adc_min),
        experiment_name: text("experiment_name"),
        flow_cell_id: text("flow_cell_id"),
        flow_cell_product_code: text("flow_cell_product_code"),
        protocol_name: text_or("protocol_name", "exp_script_name"),
        protocol_run_id: text("protocol_run_id"),
        protocol_start_time_ms: time("protocol_start_time"),
        sample_id: text("sample_id"),
        sample_rate: get("sample_rate")
            .and_then(|v| v.parse().ok())
            .unwrap_or(sampling_rate.clamp(0.0, 65535.0) as u16),
        sequencing_kit: text("sequencing_kit"),
        sequencer_position: text_or("sequencer_position", "device_id"),
        sequencer_position_type: text_or("sequencer_position_type", "device_type"),
        software: text("software"),
        system_name: text_or("system_name", "host_product_serial_number"),
        system_type: text_or("system_type", "host_product_code"),
        context_tags,
        tracking_id,
    }
}

/// A POD5 read as a BLOW5 record of read group `group` (aux fields of
/// [`pod5_aux`](super::pod5_aux)). The calibration becomes
/// slow5's: digitisation = adc_max - adc_min + 1, range = scale x digitisation.
pub fn record_of(read: &ReadInfo, run: &RunInfo, group: u32, signal: Vec<i16>) -> Record {
    let mut record = Record { raw_signal: signal, ..Record::default() };
    record_fields_into(read, run, group, &mut record);
    record
}

/// [`record_of`] into `record`, all but its signal (`raw_signal` is left as it is): a record
/// reused from read to read keeps its strings and aux list, and nothing is allocated once
/// they have grown.
pub fn record_fields_into(read: &ReadInfo, run: &RunInfo, group: u32, record: &mut Record) {
    let digitisation = run.digitisation();
    let end = END_REASONS.iter().position(|r| **r == *read.end_reason).unwrap_or(0);
    let f = |v: Option<f32>| AuxValue::Float(v.map_or(f64::NAN, f64::from));
    let aux = [
        ("channel_number", None),
        ("median_before", Some(AuxValue::Float(read.median_before.into()))),
        ("read_number", Some(AuxValue::Int(i64::from(read.read_number as i32)))),
        ("start_mux", Some(AuxValue::UInt(read.well.into()))),
        ("start_time", Some(AuxValue::UInt(read.start_sample))),
        ("end_reason", None),
        ("tracked_scaling_shift", Some(f(read.tracked_scaling_shift))),
        ("tracked_scaling_scale", Some(f(read.tracked_scaling_scale))),
        ("predicted_scaling_shift", Some(f(read.predicted_scaling_shift))),
        ("predicted_scaling_scale", Some(f(read.predicted_scaling_scale))),
        (
            "num_reads_since_mux_change",
            Some(AuxValue::UInt(read.num_reads_since_mux_change.unwrap_or(0).into())),
        ),
        (
            "time_since_mux_change",
            Some(AuxValue::Float(read.time_since_mux_change.map_or(0.0, f64::from))),
        ),
        ("num_minknow_events", Some(AuxValue::UInt(read.num_minknow_events.unwrap_or(0)))),
        ("open_pore_level", Some(f(read.open_pore_level))),
        ("expected_open_pore_level", Some(f(read.expected_open_pore_level))),
        ("selected_read_level", Some(f(read.selected_read_level))),
    ];
    record.aux.truncate(aux.len());
    for (i, (name, value)) in aux.into_iter().enumerate() {
        if record.aux.len() == i {
            record.aux.push((String::new(), AuxValue::UInt(0)));
        }
        let slot = &mut record.aux[i];
        if slot.0 != name {
            slot.0.clear();
            slot.0.push_str(name);
        }
        match value {
            Some(v) => slot.1 = v,
            // The two text values, written into the slot's string when it has one.
            None if name == "channel_number" => {
                if let AuxValue::Text(t) = &mut slot.1 {
                    t.clear();
                    write!(t, "{}", read.channel).expect("a String takes any write");
                } else {
                    slot.1 = AuxValue::Text(read.channel.to_string());
                }
            }
            None => match &mut slot.1 {
                AuxValue::Enum(k, Some(label)) => {
                    *k = end as u8;
                    label.clear();
                    label.push_str(END_REASONS[end]);
                }
                v => *v = AuxValue::Enum(end as u8, Some(END_REASONS[end].to_string())),
            },
        }
    }
    record.read_id.clear();
    push_uuid(&read.read_id, &mut record.read_id);
    record.read_group = group;
    record.digitisation = digitisation;
    record.offset = read.calibration_offset.into();
    record.range = f64::from(read.calibration_scale) * digitisation;
    record.sampling_rate = run.sample_rate.into();
}

/// A BLOW5 record as an ONT read of run `run_id` (the acquisition id of its read group's
/// run). Auxiliary fields it lacks take ONT's defaults; an end reason ONT's formats do not
/// know (`partial`, from old fast5 files) is `unknown`.
pub fn read_info_of(rec: &Record, run_id: &str) -> Result<ReadInfo, MappingError> {
    let bad = |what: String| MappingError(format!("record {}: {what}", rec.read_id));
    let id = parse_uuid(&rec.read_id)
        .ok_or_else(|| bad("its read id is not a UUID, which POD5 needs".into()))?;
    let mut read = ReadInfo::new(id, run_id);
    let aux = |k: &str| rec.aux.iter().find(|(n, _)| n == k).map(|(_, v)| v);
    let float = |k: &str| match aux(k) {
        Some(AuxValue::Float(f)) => Some(*f as f32),
        _ => None,
    };
    let uint = |k: &str| match aux(k) {
        Some(AuxValue::UInt(u)) => Some(*u),
        Some(AuxValue::Int(i)) => u64::try_from(*i).ok(),
        _ => None,
    };
    read.num_samples = rec.raw_signal.len() as u64;
    read.channel = match aux("channel_number") {
        Some(AuxValue::Text(t)) => t.trim().parse().unwrap_or(0),
        _ => uint("channel_number").unwrap_or(0) as u32,
    };
    read.well = uint("start_mux").unwrap_or(0).min(255) as u8;
    read.read_number = match aux("read_number") {
        Some(AuxValue::Int(i)) => *i as u32,
        _ => uint("read_number").unwrap_or(0) as u32,
    };
    read.start_sample = uint("start_time").unwrap_or(0);
    read.median_before = float("median_before").unwrap_or(f32::NAN);
    let reason = match aux("end_reason") {
        Some(AuxValue::Enum(_, Some(label))) => label.as_str(),
        _ => "unknown",
    };
    let reason = if END_REASONS.contains(&reason) { reason } else { "unknown" };
    read.end_reason = Arc::from(reason);
    read.end_reason_forced = forced(reason);
    read.calibration_offset = rec.offset as f32;
    read.calibration_scale =
        if rec.digitisation == 0.0 { 0.0 } else { (rec.range / rec.digitisation) as f32 };
    let or_nan = |k: &str| Some(float(k).unwrap_or(f32::NAN));
    read.tracked_scaling_shift = or_nan("tracked_scaling_shift");
    read.tracked_scaling_scale = or_nan("tracked_scaling_scale");
    read.predicted_scaling_shift = or_nan("predicted_scaling_shift");
    read.predicted_scaling_scale = or_nan("predicted_scaling_scale");
    read.num_reads_since_mux_change = Some(uint("num_reads_since_mux_change").unwrap_or(0) as u32);
    read.time_since_mux_change = Some(float("time_since_mux_change").unwrap_or(0.0));
    read.num_minknow_events = Some(uint("num_minknow_events").unwrap_or(0));
    read.open_pore_level = or_nan("open_pore_level");
    read.expected_open_pore_level = or_nan("expected_open_pore_level");
    read.selected_read_level = or_nan("selected_read_level");
    Ok(read)
}
