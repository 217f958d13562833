//! POD5 batches: the reads table's rows (already parsed at open) as columns, with the values
//! of the read model's POD5 fields (`svb_pod5::model::fields`: ONT's `pod5 view` values,
//! missing counters 0, missing levels and scalings NaN, run fields `not_set` when empty; a
//! read whose run the file lacks is the reader's error), and the signal decoded on rayon.

use arrow_array::types::{Float32Type, Float64Type, UInt16Type, UInt32Type, UInt64Type, UInt8Type};
use arrow_array::ArrayRef;
use svb_pod5::{ReadRow, Reader, RunInfo};

use svb_pod5::model::{not_set, seconds};

use crate::columns::{boolean, file_name, prim, text, Wanted};
use crate::signal::{self, Calibration};
use crate::{batch_end, ArrowReadError, Batch, Options};

/// The next batch of `r` from read `start`: its columns and its end.
pub(crate) fn batch(r: &Reader, start: usize, options: &Options, wanted: &Wanted) -> Batch {
    let end = batch_end(start, r.len(), options, |i| r.reads()[i].info.num_samples);
    let reads = &r.reads()[start..end];
    let runs = (start..end).map(|i| r.run_of(i)).collect::<Result<Vec<&RunInfo>, _>>()?;
    let filename = file_name(r.path());
    let mut columns: Vec<ArrayRef> = wanted
        .picked
        .iter()
        .map(|&c| column(wanted.all.name(c), reads, &runs, &filename))
        .collect();
    if options.signal.column().is_some() {
        columns.push(signal_column(r, start, end, options)?);
    }
    Ok((columns, end))
}

/// The column `name` of `reads` (one of [`svb_model::POD5_FIELDS`]).
fn column(name: &str, reads: &[ReadRow], runs: &[&RunInfo], filename: &str) -> ArrayRef {
    let it = || reads.iter();
    let with_run = || reads.iter().zip(runs.iter().copied());
    let run_text = |get: fn(&RunInfo) -> &str| text(runs.iter().map(move |r| get(r)));
    let not_set_text = |get: fn(&RunInfo) -> &str| text(runs.iter().map(move |r| not_set(get(r))));
    // Samples as seconds at the run's rate.
    let run_seconds = |n: fn(&ReadRow) -> u64| {
        prim::<Float64Type>(with_run().map(move |(x, r)| seconds(n(x), r.sample_rate)))
    };
    let level = |get: fn(&ReadRow) -> Option<f32>| {
        prim::<Float32Type>(it().map(move |x| get(x).unwrap_or(f32::NAN)))
    };
    match name {
        "read_id" => text(it().map(ReadRow::read_id_string)),
        "filename" => text(it().map(|_| filename)),
        "read_number" => prim::<UInt32Type>(it().map(|x| x.info.read_number)),
        "channel" => prim::<UInt32Type>(it().map(|x| x.info.channel)),
        "mux" => prim::<UInt8Type>(it().map(|x| x.info.well)),
        "end_reason" => text(it().map(|x| &*x.info.end_reason)),
        "start_time" => run_seconds(|x| x.info.start_sample),
        "start_sample" => prim::<UInt64Type>(it().map(|x| x.info.start_sample)),
        "duration" => run_seconds(|x| x.info.num_samples),
        "num_samples" => prim::<UInt64Type>(it().map(|x| x.info.num_samples)),
        "minknow_events" => {
            prim::<UInt64Type>(it().map(|x| x.info.num_minknow_events.unwrap_or(0)))
        }
        "sample_rate" => prim::<UInt16Type>(runs.iter().map(|r| r.sample_rate)),
        "median_before" => prim::<Float32Type>(it().map(|x| x.info.median_before)),
        "predicted_scaling_scale" => level(|x| x.info.predicted_scaling_scale),
        "predicted_scaling_shift" => level(|x| x.info.predicted_scaling_shift),
        "tracked_scaling_scale" => level(|x| x.info.tracked_scaling_scale),
        "tracked_scaling_shift" => level(|x| x.info.tracked_scaling_shift),
        "num_reads_since_mux_change" => {
            prim::<UInt32Type>(it().map(|x| x.info.num_reads_since_mux_change.unwrap_or(0)))
        }
        "time_since_mux_change" => {
            prim::<Float32Type>(it().map(|x| x.info.time_since_mux_change.unwrap_or(0.0)))
        }
        "run_id" => run_text(|r| &r.protocol_run_id),
        "sample_id" => not_set_text(|r| &r.sample_id),
        "experiment_id" => not_set_text(|r| &r.experiment_name),
        "flow_cell_id" => not_set_text(|r| &r.flow_cell_id),
        "pore_type" => text(it().map(|x| &*x.info.pore_type)),
        "open_pore_level" => level(|x| x.info.open_pore_level),
        "expected_open_pore_level" => level(|x| x.info.expected_open_pore_level),
        "selected_read_level" => level(|x| x.info.selected_read_level),
        "calibration_offset" => prim::<Float32Type>(it().map(|x| x.info.calibration_offset)),
        "calibration_scale" => prim::<Float32Type>(it().map(|x| x.info.calibration_scale)),
        "end_reason_forced" => boolean(it().map(|x| x.info.end_reason_forced)),
        "acquisition_id" => text(it().map(|x| &*x.info.run_info)),
        other => unreachable!("{other} is not a POD5 column"),
    }
}

/// The signal column of reads `start..end`. Their sample counts (from the reads table) size
/// the batch's buffer when they fit in a batch (the batch bounds that allocation); a single
/// read claiming more is decoded on its own, its buffer growing with what its chunks hold.
fn signal_column(
    r: &Reader, start: usize, end: usize, options: &Options,
) -> Result<ArrayRef, ArrowReadError> {
    let calibration = |i: usize| Calibration {
        offset: r.reads()[i].info.calibration_offset,
        scale: r.reads()[i].info.calibration_scale,
    };
    let too_long = |i: usize, samples: u64| ArrowReadError::ReadTooLong {
        path: r.path().to_path_buf(),
        read_id: r.reads()[i].read_id_string(),
        samples,
    };
    let reads = &r.reads()[start..end];
    if reads.len() == 1 && reads[0].info.num_samples > options.batch_samples {
        let samples = r.decode_signal(start)?;
        signal::check_total(&[samples.len()]).map_err(|(_, n)| too_long(start, n))?;
        return Ok(signal::single(samples, calibration(start), options.signal));
    }
    let lens: Vec<usize> = reads.iter().map(|x| x.info.num_samples as usize).collect();
    signal::check_total(&lens).map_err(|(k, n)| too_long(start + k, n))?;
    signal::decode_known(
        &lens,
        options.signal,
        |k, out| r.decode_signal_to_slice(start + k, out).map_err(ArrowReadError::from),
        |k| calibration(start + k),
    )
}
