//! The reads table: one [`Read`] per row, every table version (the flat columns of version
//! 1 and later; version 0's dictionary-of-struct columns through [`crate::reads_v0`]).

use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::types::{Float32Type, UInt16Type, UInt32Type, UInt64Type, UInt8Type};
use arrow_array::{Array, RecordBatch};
use arrow_schema::DataType;

use crate::columns::{at, fixed16, value, whole, Columns, StringColumn, TableError};
use crate::reads_v0::{dict_struct, V0Columns};
use crate::run_info::{parse_run_infos, RunInfo};

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
    /// A read to write: its id and the acquisition id of its run (a [`RunInfo`] added to the
    /// writer), every other field as ONT's writer fills an unknown one: no samples, read
    /// number, start, channel and well 0, pore type `not_set`, calibration offset 0 and scale
    /// 1, end reason `unknown` (not forced), median before and the levels and scalings NaN,
    /// the counters 0. Set the public fields that are known.
    ///
    /// ```
    /// use svb_pod5::Read;
    /// let mut read = Read::new([7; 16], "run-1");
    /// read.channel = 412;
    /// read.num_samples = 4000;
    /// assert_eq!(&*read.end_reason, "unknown");
    /// ```
    pub fn new(read_id: [u8; 16], run_info: impl Into<Arc<str>>) -> Read {
        Read {
            read_id,
            signal_rows: Vec::new(),
            read_number: 0,
            start_sample: 0,
            median_before: f32::NAN,
            num_samples: 0,
            channel: 0,
            well: 0,
            pore_type: Arc::from("not_set"),
            calibration_offset: 0.0,
            calibration_scale: 1.0,
            end_reason: Arc::from("unknown"),
            end_reason_forced: false,
            run_info: run_info.into(),
            num_minknow_events: Some(0),
            tracked_scaling_scale: Some(f32::NAN),
            tracked_scaling_shift: Some(f32::NAN),
            predicted_scaling_scale: Some(f32::NAN),
            predicted_scaling_shift: Some(f32::NAN),
            num_reads_since_mux_change: Some(0),
            time_since_mux_change: Some(0.0),
            open_pore_level: Some(f32::NAN),
            expected_open_pore_level: Some(f32::NAN),
            selected_read_level: Some(f32::NAN),
        }
    }

    /// This read with `signal_rows` in place of its own: what the writer queues for the reads
    /// table, without copying the row list it replaces. Every field is named, so a field
    /// added to `Read` fails to compile here until it is copied.
    pub(crate) fn with_rows(&self, signal_rows: Vec<u64>) -> Read {
        Read {
            read_id: self.read_id,
            signal_rows,
            read_number: self.read_number,
            start_sample: self.start_sample,
            median_before: self.median_before,
            num_samples: self.num_samples,
            channel: self.channel,
            well: self.well,
            pore_type: Arc::clone(&self.pore_type),
            calibration_offset: self.calibration_offset,
            calibration_scale: self.calibration_scale,
            end_reason: Arc::clone(&self.end_reason),
            end_reason_forced: self.end_reason_forced,
            run_info: Arc::clone(&self.run_info),
            num_minknow_events: self.num_minknow_events,
            tracked_scaling_scale: self.tracked_scaling_scale,
            tracked_scaling_shift: self.tracked_scaling_shift,
            predicted_scaling_scale: self.predicted_scaling_scale,
            predicted_scaling_shift: self.predicted_scaling_shift,
            num_reads_since_mux_change: self.num_reads_since_mux_change,
            time_since_mux_change: self.time_since_mux_change,
            open_pore_level: self.open_pore_level,
            expected_open_pore_level: self.expected_open_pore_level,
            selected_read_level: self.selected_read_level,
        }
    }

    /// The read id as a hyphenated lowercase UUID.
    pub fn read_id_string(&self) -> String {
        uuid_string(&self.read_id)
    }
}

/// Formats 16 bytes as `8-4-4-4-12` lowercase hex.
pub fn uuid_string(id: &[u8; 16]) -> String {
    let mut s = String::with_capacity(36);
    push_uuid(id, &mut s);
    s
}

/// Appends 16 bytes as `8-4-4-4-12` lowercase hex to `out` (no allocation once `out` has
/// room: for ids written read after read into one string).
///
/// ```
/// let mut s = String::from("id=");
/// svb_pod5::push_uuid(&[0xAB; 16], &mut s);
/// assert_eq!(s, "id=abababab-abab-abab-abab-abababababab");
/// ```
pub fn push_uuid(id: &[u8; 16], out: &mut String) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    for (i, b) in id.iter().enumerate() {
        if matches!(i, 4 | 6 | 8 | 10) {
            out.push('-');
        }
        out.push(char::from(HEX[usize::from(b >> 4)]));
        out.push(char::from(HEX[usize::from(b & 15)]));
    }
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

/// Parses every batch of the reads table: the rows whose read id `keep` accepts (any other
/// row costs only the look at its id). `signal_samples(row)` gives a signal row's sample
/// count (for version 0, which has no `num_samples` column).
pub(crate) fn parse_reads(
    batches: &[RecordBatch],
    signal_samples: impl Fn(u64) -> Option<u64>,
    keep: &dyn Fn(&[u8; 16]) -> bool,
) -> Result<(Vec<Read>, Vec<RunInfo>), TableError> {
    let mut base = 0u64;
    let mut reads = Vec::new();
    let mut embedded_runs = Vec::new();
    for batch in batches {
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
            if !keep(&read_id) {
                continue;
            }
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
        base += batch.num_rows() as u64;
    }
    Ok((reads, embedded_runs))
}
