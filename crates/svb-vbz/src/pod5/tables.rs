//! The POD5 tables as Rust values: the reads table (every table version: the dictionary-of-
//! struct columns of version 0 and the flat columns of version 1 and later) and the run-info
//! table. The signal table is [`super::signal`]'s.

use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::types::{
    Float32Type, Int16Type, TimestampMillisecondType, UInt16Type, UInt32Type, UInt64Type, UInt8Type,
};
use arrow_array::{
    Array, ArrayRef, ArrowPrimitiveType, FixedSizeBinaryArray, PrimitiveArray, RecordBatch,
    StructArray,
};
use arrow_schema::DataType;

/// One read of the reads table.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Read {
    /// The read's UUID (16 bytes; [`Read::read_id_string`] formats it).
    pub read_id: [u8; 16],
    /// Rows of the signal table holding the read's chunks, in signal order.
    pub signal_rows: Vec<u64>,
    /// MinKNOW's read number.
    pub read_number: u32,
    /// Sample index of the read's start since the acquisition began.
    pub start_sample: u64,
    /// Current level before the read (pA).
    pub median_before: f32,
    /// Number of samples (from the `num_samples` column; version 0 files lack it and get the
    /// sum of the signal rows' counts).
    pub num_samples: u64,
    /// Channel (the 32-bit column of newer writers when present).
    pub channel: u32,
    /// Well.
    pub well: u8,
    /// Pore type.
    pub pore_type: Arc<str>,
    /// Calibration: picoamps = (adc + offset) * scale.
    pub calibration_offset: f32,
    /// Calibration scale.
    pub calibration_scale: f32,
    /// Why the read ended.
    pub end_reason: Arc<str>,
    /// Whether the end was forced.
    pub end_reason_forced: bool,
    /// The acquisition id of the read's run (key into [`RunInfo`]).
    pub run_info: Arc<str>,
    /// MinKNOW events (table version 1 and later).
    pub num_minknow_events: Option<u64>,
    /// Tracked scaling scale (version 1+).
    pub tracked_scaling_scale: Option<f32>,
    /// Tracked scaling shift (version 1+).
    pub tracked_scaling_shift: Option<f32>,
    /// Predicted scaling scale (version 1+).
    pub predicted_scaling_scale: Option<f32>,
    /// Predicted scaling shift (version 1+).
    pub predicted_scaling_shift: Option<f32>,
    /// Reads since the last mux change (version 1+).
    pub num_reads_since_mux_change: Option<u32>,
    /// Seconds since the last mux change (version 1+).
    pub time_since_mux_change: Option<f32>,
    /// Open pore level (version 3+).
    pub open_pore_level: Option<f32>,
    /// Expected open pore level (pod5 0.3.49 writers).
    pub expected_open_pore_level: Option<f32>,
    /// Selected read level (pod5 0.3.49 writers).
    pub selected_read_level: Option<f32>,
}

impl Read {
    /// The read id as a hyphenated lowercase UUID.
    pub fn read_id_string(&self) -> String {
        uuid_string(&self.read_id)
    }
}

/// Formats 16 bytes as `8-4-4-4-12` lowercase hex.
pub fn uuid_string(id: &[u8; 16]) -> String {
    let mut s = String::with_capacity(36);
    for (i, b) in id.iter().enumerate() {
        if matches!(i, 4 | 6 | 8 | 10) {
            s.push('-');
        }
        s.push_str(&format!("{b:02x}"));
    }
    s
}

/// Parses a hyphenated (or bare 32-digit) UUID.
pub fn parse_uuid(s: &str) -> Option<[u8; 16]> {
    let hex: Vec<u8> = s.bytes().filter(|&b| b != b'-').collect();
    if hex.len() != 32 || s.len() - hex.len() > 4 {
        return None;
    }
    let mut out = [0u8; 16];
    for (o, pair) in out.iter_mut().zip(hex.chunks(2)) {
        *o = u8::from_str_radix(std::str::from_utf8(pair).ok()?, 16).ok()?;
    }
    Some(out)
}

/// One acquisition (run) of the run-info table.
#[derive(Debug, Clone, PartialEq, Default)]
#[non_exhaustive]
pub struct RunInfo {
    /// The key reads refer to.
    pub acquisition_id: String,
    /// Milliseconds since the Unix epoch.
    pub acquisition_start_time_ms: i64,
    /// Largest ADC value.
    pub adc_max: i16,
    /// Smallest ADC value.
    pub adc_min: i16,
    /// Experiment name.
    pub experiment_name: String,
    /// Flow cell id.
    pub flow_cell_id: String,
    /// Flow cell product code.
    pub flow_cell_product_code: String,
    /// Protocol name.
    pub protocol_name: String,
    /// Protocol run id.
    pub protocol_run_id: String,
    /// Milliseconds since the Unix epoch.
    pub protocol_start_time_ms: i64,
    /// Sample id.
    pub sample_id: String,
    /// Samples per second.
    pub sample_rate: u16,
    /// Sequencing kit.
    pub sequencing_kit: String,
    /// Sequencer position.
    pub sequencer_position: String,
    /// Sequencer position type.
    pub sequencer_position_type: String,
    /// Acquisition software.
    pub software: String,
    /// System name.
    pub system_name: String,
    /// System type.
    pub system_type: String,
    /// Context tags, in stored order.
    pub context_tags: Vec<(String, String)>,
    /// Tracking ids, in stored order.
    pub tracking_id: Vec<(String, String)>,
}

/// A table-level error: the row it concerns (if one) and what is wrong.
pub(crate) type TableError = (Option<u64>, String);

fn at<T>(row: u64, what: impl Into<String>) -> Result<T, TableError> {
    Err((Some(row), what.into()))
}

fn whole<T>(what: impl Into<String>) -> Result<T, TableError> {
    Err((None, what.into()))
}

/// Named columns of a record batch or of a struct array.
struct Columns<'a> {
    names: Vec<&'a str>,
    arrays: Vec<&'a ArrayRef>,
}

impl<'a> Columns<'a> {
    fn of_batch(b: &'a RecordBatch) -> Self {
        Columns {
            names: b
                .schema_ref()
                .fields()
                .iter()
                .map(|f| f.name().as_str())
                .collect(),
            arrays: b.columns().iter().collect(),
        }
    }

    fn of_struct(s: &'a StructArray) -> Self {
        Columns {
            names: s.column_names(),
            arrays: s.columns().iter().collect(),
        }
    }

    fn get(&self, name: &str) -> Option<&'a ArrayRef> {
        let i = self.names.iter().position(|n| *n == name)?;
        Some(self.arrays[i])
    }

    fn prim<T: ArrowPrimitiveType>(
        &self,
        name: &str,
    ) -> Result<Option<&'a PrimitiveArray<T>>, TableError> {
        match self.get(name) {
            None => Ok(None),
            Some(a) => match a.as_primitive_opt::<T>() {
                Some(p) if *a.data_type() == T::DATA_TYPE => Ok(Some(p)),
                _ => whole(format!(
                    "column {name} is {}, expected {}",
                    a.data_type(),
                    T::DATA_TYPE
                )),
            },
        }
    }

    fn required<T: ArrowPrimitiveType>(
        &self,
        name: &str,
    ) -> Result<&'a PrimitiveArray<T>, TableError> {
        self.prim::<T>(name)?
            .map_or_else(|| whole(format!("column {name} missing")), Ok)
    }
}

/// Value of a nullable primitive at `row` (None when null or the column is absent).
fn value<T: ArrowPrimitiveType>(a: Option<&PrimitiveArray<T>>, row: usize) -> Option<T::Native> {
    a.filter(|a| a.is_valid(row)).map(|a| a.value(row))
}

/// A string, dictionary-of-string, or missing column, resolved per row to shared strings.
struct StringColumn {
    /// Per row: index into `values`, or None.
    keys: Vec<Option<usize>>,
    values: Vec<Arc<str>>,
}

impl StringColumn {
    fn new(a: Option<&ArrayRef>, name: &str) -> Result<Self, TableError> {
        let Some(a) = a else {
            return Ok(StringColumn {
                keys: Vec::new(),
                values: Vec::new(),
            });
        };
        if let Some(d) = a.as_any_dictionary_opt() {
            let values = strings(d.values(), name)?;
            let keys = if values.is_empty() {
                vec![None; a.len()]
            } else {
                let nk = d.normalized_keys();
                (0..a.len()).map(|i| a.is_valid(i).then(|| nk[i])).collect()
            };
            return Ok(StringColumn { keys, values });
        }
        let values = strings(a, name)?;
        let keys = (0..a.len()).map(|i| a.is_valid(i).then_some(i)).collect();
        Ok(StringColumn { keys, values })
    }

    fn get(&self, row: usize) -> Arc<str> {
        match self.keys.get(row).copied().flatten() {
            Some(k) => self.values[k].clone(),
            None => Arc::from(""),
        }
    }
}

fn strings(a: &ArrayRef, name: &str) -> Result<Vec<Arc<str>>, TableError> {
    match a.data_type() {
        DataType::Utf8 => Ok(a
            .as_string::<i32>()
            .iter()
            .map(|s| Arc::from(s.unwrap_or("")))
            .collect()),
        DataType::LargeUtf8 => Ok(a
            .as_string::<i64>()
            .iter()
            .map(|s| Arc::from(s.unwrap_or("")))
            .collect()),
        t => whole(format!("column {name} is {t}, expected strings")),
    }
}

/// A dictionary-of-struct column of table version 0, resolved to (keys, struct values);
/// `None` when absent or of another type (the flat columns of later versions are read
/// instead).
fn dict_struct<'a>(c: &Columns<'a>, name: &str) -> Dict<'a> {
    let a = c.get(name)?;
    let d = a.as_any_dictionary_opt()?;
    let s = d.values().as_struct_opt()?;
    let keys = if s.is_empty() {
        vec![None; a.len()]
    } else {
        let nk = d.normalized_keys();
        (0..a.len()).map(|i| a.is_valid(i).then(|| nk[i])).collect()
    };
    Some((keys, s))
}

/// Parses every batch of the reads table. `signal_samples(row)` gives a signal row's sample
/// count (for version 0, which has no `num_samples` column).
pub(crate) fn parse_reads(
    batches: &[RecordBatch],
    signal_samples: impl Fn(u64) -> Option<u64>,
) -> Result<(Vec<Read>, Vec<RunInfo>), TableError> {
    let mut reads = Vec::new();
    let mut embedded_runs = Vec::new();
    for batch in batches {
        let base = reads.len() as u64;
        let c = Columns::of_batch(batch);
        let ids = fixed16(c.get("read_id"), "read_id").map_err(|(_, w)| (Some(base), w))?;
        let signal = match c.get("signal") {
            Some(a) => match a.as_list_opt::<i32>() {
                Some(l) if l.value_type() == DataType::UInt64 => l,
                _ => {
                    return whole(format!(
                        "column signal is {}, expected list<uint64>",
                        a.data_type()
                    ))
                }
            },
            None => return whole("column signal missing"),
        };
        let read_number = c.required::<UInt32Type>("read_number")?;
        let start = c.required::<UInt64Type>("start")?;
        let median_before = c.prim::<Float32Type>("median_before")?;
        let num_samples = c.prim::<UInt64Type>("num_samples")?;
        let channel = c.prim::<UInt16Type>("channel")?;
        let channel32 = c.prim::<UInt32Type>("channel_32bit")?;
        let well = c.prim::<UInt8Type>("well")?;
        let cal_offset = c.prim::<Float32Type>("calibration_offset")?;
        let cal_scale = c.prim::<Float32Type>("calibration_scale")?;
        let forced = match c.get("end_reason_forced") {
            Some(a) => Some(a.as_boolean_opt().ok_or_else(|| {
                (
                    None,
                    format!("column end_reason_forced is {}", a.data_type()),
                )
            })?),
            None => None,
        };
        let events = c.prim::<UInt64Type>("num_minknow_events")?;
        let tss = c.prim::<Float32Type>("tracked_scaling_scale")?;
        let tsh = c.prim::<Float32Type>("tracked_scaling_shift")?;
        let pss = c.prim::<Float32Type>("predicted_scaling_scale")?;
        let psh = c.prim::<Float32Type>("predicted_scaling_shift")?;
        let mux_reads = c.prim::<UInt32Type>("num_reads_since_mux_change")?;
        let mux_time = c.prim::<Float32Type>("time_since_mux_change")?;
        let open_pore = c.prim::<Float32Type>("open_pore_level")?;
        let expected_open = c.prim::<Float32Type>("expected_open_pore_level")?;
        let selected = c.prim::<Float32Type>("selected_read_level")?;

        // Version 0 keeps these as dictionaries of structs; later versions as flat columns.
        let v0_pore = dict_struct(&c, "pore");
        let v0_cal = dict_struct(&c, "calibration");
        let v0_end = dict_struct(&c, "end_reason");
        let v0_run = dict_struct(&c, "run_info");
        let pore_type = StringColumn::new(c.get("pore_type"), "pore_type")?;
        let end_reason = if v0_end.is_none() {
            StringColumn::new(c.get("end_reason"), "end_reason")?
        } else {
            StringColumn::new(None, "")?
        };
        let run_info = if v0_run.is_none() {
            StringColumn::new(c.get("run_info"), "run_info")?
        } else {
            StringColumn::new(None, "")?
        };
        let v0 = V0Columns::new(v0_pore, v0_cal, v0_end, v0_run.as_ref())?;
        if let Some((_, runs)) = &v0_run {
            embedded_runs.extend(parse_run_infos(&Columns::of_struct(runs), runs.len())?);
        }

        for i in 0..batch.num_rows() {
            let row = base + i as u64;
            if !ids.is_valid(i) {
                return at(row, "read_id is null");
            }
            let read_id: [u8; 16] = ids.value(i).try_into().expect("16-byte ids");
            if signal.is_null(i) {
                return at(row, "signal row list is null");
            }
            let rows = signal.value(i);
            let rows = rows.as_primitive::<UInt64Type>();
            if rows.null_count() > 0 {
                return at(row, "signal row list holds a null");
            }
            let signal_rows: Vec<u64> = rows.values().to_vec();
            let num_samples = match value(num_samples, i) {
                Some(n) => n,
                None => {
                    let mut total = 0u64;
                    for &r in &signal_rows {
                        let Some(n) = signal_samples(r) else {
                            return at(row, format!("signal row {r} is past the signal table"));
                        };
                        total += n;
                    }
                    total
                }
            };
            let mut read = Read {
                read_id,
                signal_rows,
                read_number: read_number.value(i),
                start_sample: start.value(i),
                median_before: value(median_before, i).unwrap_or(f32::NAN),
                num_samples,
                channel: value(channel32, i)
                    .or(value(channel, i).map(u32::from))
                    .unwrap_or(0),
                well: value(well, i).unwrap_or(0),
                pore_type: pore_type.get(i),
                calibration_offset: value(cal_offset, i).unwrap_or(0.0),
                calibration_scale: value(cal_scale, i).unwrap_or(1.0),
                end_reason: end_reason.get(i),
                end_reason_forced: forced.is_some_and(|f| f.is_valid(i) && f.value(i)),
                run_info: run_info.get(i),
                num_minknow_events: value(events, i),
                tracked_scaling_scale: value(tss, i),
                tracked_scaling_shift: value(tsh, i),
                predicted_scaling_scale: value(pss, i),
                predicted_scaling_shift: value(psh, i),
                num_reads_since_mux_change: value(mux_reads, i),
                time_since_mux_change: value(mux_time, i),
                open_pore_level: value(open_pore, i),
                expected_open_pore_level: value(expected_open, i),
                selected_read_level: value(selected, i),
            };
            v0.apply(i, &mut read);
            reads.push(read);
        }
    }
    Ok((reads, embedded_runs))
}

/// The version-0 dictionary-of-struct columns, resolved.
struct V0Columns<'a> {
    pore: Option<(Vec<Option<usize>>, Columns<'a>, StringColumn)>,
    cal: Option<(Vec<Option<usize>>, Columns<'a>)>,
    end: Option<(Vec<Option<usize>>, StringColumn, Columns<'a>)>,
    run: Option<(Vec<Option<usize>>, StringColumn)>,
}

type Dict<'a> = Option<(Vec<Option<usize>>, &'a StructArray)>;

impl<'a> V0Columns<'a> {
    fn new(
        pore: Dict<'a>,
        cal: Dict<'a>,
        end: Dict<'a>,
        run: Option<&(Vec<Option<usize>>, &'a StructArray)>,
    ) -> Result<Self, TableError> {
        let pore = match pore {
            Some((k, s)) => {
                let c = Columns::of_struct(s);
                let t = StringColumn::new(c.get("pore_type"), "pore.pore_type")?;
                Some((k, c, t))
            }
            None => None,
        };
        let end = match end {
            Some((k, s)) => {
                let c = Columns::of_struct(s);
                let n = StringColumn::new(c.get("name"), "end_reason.name")?;
                Some((k, n, c))
            }
            None => None,
        };
        let run = match run {
            Some((k, s)) => {
                let c = Columns::of_struct(s);
                let id = StringColumn::new(c.get("acquisition_id"), "run_info.acquisition_id")?;
                Some((k.clone(), id))
            }
            None => None,
        };
        Ok(V0Columns {
            pore,
            cal: cal.map(|(k, s)| (k, Columns::of_struct(s))),
            end,
            run,
        })
    }

    fn apply(&self, row: usize, r: &mut Read) {
        if let Some((keys, c, types)) = &self.pore {
            if let Some(k) = keys[row] {
                let ch = c.prim::<UInt16Type>("channel").ok().flatten();
                let well = c.prim::<UInt8Type>("well").ok().flatten();
                r.channel = value(ch, k).map_or(0, u32::from);
                r.well = value(well, k).unwrap_or(0);
                r.pore_type = types.get(k);
            }
        }
        if let Some((keys, c)) = &self.cal {
            if let Some(k) = keys[row] {
                let off = c.prim::<Float32Type>("offset").ok().flatten();
                let scale = c.prim::<Float32Type>("scale").ok().flatten();
                r.calibration_offset = value(off, k).unwrap_or(0.0);
                r.calibration_scale = value(scale, k).unwrap_or(1.0);
            }
        }
        if let Some((keys, names, c)) = &self.end {
            if let Some(k) = keys[row] {
                r.end_reason = names.get(k);
                r.end_reason_forced = c
                    .get("forced")
                    .and_then(|a| a.as_boolean_opt())
                    .is_some_and(|f| f.is_valid(k) && f.value(k));
            }
        }
        if let Some((keys, ids)) = &self.run {
            if let Some(k) = keys[row] {
                r.run_info = ids.get(k);
            }
        }
    }
}

fn fixed16<'a>(
    a: Option<&'a ArrayRef>,
    name: &str,
) -> Result<&'a FixedSizeBinaryArray, TableError> {
    match a {
        Some(a) => match a.as_fixed_size_binary_opt() {
            Some(f) if f.value_length() == 16 => Ok(f),
            _ => whole(format!(
                "column {name} is {}, expected fixed_size_binary[16]",
                a.data_type()
            )),
        },
        None => whole(format!("column {name} missing")),
    }
}

/// The run-info table (or version 0's embedded run-info dictionary).
pub(crate) fn parse_run_infos_batches(batches: &[RecordBatch]) -> Result<Vec<RunInfo>, TableError> {
    let mut out = Vec::new();
    for b in batches {
        out.extend(parse_run_infos(&Columns::of_batch(b), b.num_rows())?);
    }
    Ok(out)
}

fn parse_run_infos(c: &Columns<'_>, rows: usize) -> Result<Vec<RunInfo>, TableError> {
    let s = |name: &str| StringColumn::new(c.get(name), name);
    let acquisition_id = s("acquisition_id")?;
    let experiment_name = s("experiment_name")?;
    let flow_cell_id = s("flow_cell_id")?;
    let flow_cell_product_code = s("flow_cell_product_code")?;
    let protocol_name = s("protocol_name")?;
    let protocol_run_id = s("protocol_run_id")?;
    let sample_id = s("sample_id")?;
    let sequencing_kit = s("sequencing_kit")?;
    let sequencer_position = s("sequencer_position")?;
    let sequencer_position_type = s("sequencer_position_type")?;
    let software = s("software")?;
    let system_name = s("system_name")?;
    let system_type = s("system_type")?;
    let acq_start = timestamp(c, "acquisition_start_time")?;
    let proto_start = timestamp(c, "protocol_start_time")?;
    let adc_max = c.prim::<Int16Type>("adc_max")?;
    let adc_min = c.prim::<Int16Type>("adc_min")?;
    let sample_rate = c.prim::<UInt16Type>("sample_rate")?;
    let context_tags = c.get("context_tags");
    let tracking_id = c.get("tracking_id");
    (0..rows)
        .map(|i| {
            Ok(RunInfo {
                acquisition_id: acquisition_id.get(i).to_string(),
                acquisition_start_time_ms: value(acq_start, i).unwrap_or(0),
                adc_max: value(adc_max, i).unwrap_or(0),
                adc_min: value(adc_min, i).unwrap_or(0),
                experiment_name: experiment_name.get(i).to_string(),
                flow_cell_id: flow_cell_id.get(i).to_string(),
                flow_cell_product_code: flow_cell_product_code.get(i).to_string(),
                protocol_name: protocol_name.get(i).to_string(),
                protocol_run_id: protocol_run_id.get(i).to_string(),
                protocol_start_time_ms: value(proto_start, i).unwrap_or(0),
                sample_id: sample_id.get(i).to_string(),
                sample_rate: value(sample_rate, i).unwrap_or(0),
                sequencing_kit: sequencing_kit.get(i).to_string(),
                sequencer_position: sequencer_position.get(i).to_string(),
                sequencer_position_type: sequencer_position_type.get(i).to_string(),
                software: software.get(i).to_string(),
                system_name: system_name.get(i).to_string(),
                system_type: system_type.get(i).to_string(),
                context_tags: map_pairs(context_tags, i, "context_tags")?,
                tracking_id: map_pairs(tracking_id, i, "tracking_id")?,
            })
        })
        .collect()
}

fn timestamp<'a>(
    c: &Columns<'a>,
    name: &str,
) -> Result<Option<&'a PrimitiveArray<TimestampMillisecondType>>, TableError> {
    match c.get(name) {
        None => Ok(None),
        Some(a) => match a.data_type() {
            DataType::Timestamp(arrow_schema::TimeUnit::Millisecond, _) => {
                Ok(a.as_primitive_opt::<TimestampMillisecondType>())
            }
            t => whole(format!("column {name} is {t}, expected timestamp[ms]")),
        },
    }
}

fn map_pairs(
    a: Option<&ArrayRef>,
    row: usize,
    name: &str,
) -> Result<Vec<(String, String)>, TableError> {
    let Some(a) = a else {
        return Ok(Vec::new());
    };
    let Some(m) = a.as_map_opt() else {
        return whole(format!(
            "column {name} is {}, expected a map",
            a.data_type()
        ));
    };
    if m.is_null(row) {
        return Ok(Vec::new());
    }
    let entries = m.value(row);
    let (keys, values) = (entries.column(0), entries.column(1));
    let keys = strings(keys, name)?;
    let values = strings(values, name)?;
    Ok(keys
        .iter()
        .zip(values.iter())
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect())
}
