//! The reads table: one [`ReadRow`] per row, every table version (the flat columns of version
//! 1 and later; version 0's dictionary-of-struct columns through [`crate::reads_v0`]).

use arrow_array::cast::AsArray;
use arrow_array::types::{Float32Type, UInt16Type, UInt32Type, UInt64Type, UInt8Type};
use arrow_array::{Array, RecordBatch};
use arrow_schema::DataType;

use crate::columns::{at, fixed16, value, whole, Columns, StringColumn, TableError};
use crate::read::ReadRow;
use crate::reads_v0::{dict_struct, V0Columns};
use crate::run_info::{parse_run_infos, RunInfo};
use svb_model::ont::ReadInfo;

/// Parses every batch of the reads table: the rows whose read id `keep` accepts (any other
/// row costs only the look at its id). `signal_samples(row)` gives a signal row's sample
/// count (for version 0, which has no `num_samples` column).
pub(crate) fn parse_reads(
    batches: &[RecordBatch], signal_samples: impl Fn(u64) -> Option<u64>,
    keep: &dyn Fn(&[u8; 16]) -> bool,
) -> Result<(Vec<ReadRow>, Vec<RunInfo>), TableError> {
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
        let forced =
            match c.get("end_reason_forced") {
                Some(a) => Some(a.as_boolean_opt().ok_or_else(|| {
                    (None, format!("column end_reason_forced is {}", a.data_type()))
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
            // The runs of version 0 are a dictionary of structs in the reads table, whose
            // fields are the run-info table's (a field missing is damage, not a default).
            let fields = arrow_schema::Schema::new(runs.fields().clone());
            crate::schema::check_run_info(&fields)
                .map_err(|what| (None, format!("run_info dictionary: {what}")))?;
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
            let num_samples = match value(num_samples, i, row, "num_samples")? {
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
            let mut info = ReadInfo {
                read_id,
                read_number: value(Some(read_number), i, row, "read_number")?.unwrap_or(0),
                start_sample: value(Some(start), i, row, "start")?.unwrap_or(0),
                median_before: value(median_before, i, row, "median_before")?.unwrap_or(f32::NAN),
                num_samples,
                channel: match value(channel32, i, row, "channel_32bit")? {
                    Some(c) => c,
                    None => value(channel, i, row, "channel")?.map_or(0, u32::from),
                },
                well: value(well, i, row, "well")?.unwrap_or(0),
                pore_type: pore_type.get(i),
                calibration_offset: value(cal_offset, i, row, "calibration_offset")?.unwrap_or(0.0),
                calibration_scale: value(cal_scale, i, row, "calibration_scale")?.unwrap_or(1.0),
                end_reason: end_reason.get(i),
                end_reason_forced: forced.is_some_and(|f| f.is_valid(i) && f.value(i)),
                run_info: run_info.get(i),
                num_minknow_events: value(events, i, row, "num_minknow_events")?,
                tracked_scaling_scale: value(tss, i, row, "tracked_scaling_scale")?,
                tracked_scaling_shift: value(tsh, i, row, "tracked_scaling_shift")?,
                predicted_scaling_scale: value(pss, i, row, "predicted_scaling_scale")?,
                predicted_scaling_shift: value(psh, i, row, "predicted_scaling_shift")?,
                num_reads_since_mux_change: value(mux_reads, i, row, "num_reads_since_mux_change")?,
                time_since_mux_change: value(mux_time, i, row, "time_since_mux_change")?,
                open_pore_level: value(open_pore, i, row, "open_pore_level")?,
                expected_open_pore_level: value(expected_open, i, row, "expected_open_pore_level")?,
                selected_read_level: value(selected, i, row, "selected_read_level")?,
            };
            v0.apply(i, row, &mut info)?;
            reads.push(ReadRow::of_info(info, signal_rows));
        }
        base += batch.num_rows() as u64;
    }
    Ok((reads, embedded_runs))
}
