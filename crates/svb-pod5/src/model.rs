//! The POD5 reader as the read model's [`ReadSource`]: a read's fields under
//! [`POD5_FIELDS`](svb_model::POD5_FIELDS)' names.

use std::path::Path;

use svb_model::{per_read, per_read_names, Calibration, Fields, Format, ReadSource, Value};

use crate::{Pod5Error, ReadRow, Reader, RunInfo};

impl ReadSource for Reader {
    type Error = Pod5Error;

    fn expect_scan(&self) {
        self.source().expect_scan();
    }

    /// Their chunks, fetched together.
    fn plan(&self, indices: &[usize]) {
        self.plan_signals(indices);
    }

    fn format(&self) -> Format {
        Format::Pod5
    }

    fn path(&self) -> &Path {
        Reader::path(self)
    }

    fn len(&self) -> usize {
        Reader::len(self)
    }

    /// Its sample count (the reads table's `num_samples`).
    fn weight(&self, index: usize) -> u64 {
        self.reads().get(index).map_or(0, |x| x.num_samples)
    }

    fn read_id(&self, index: usize) -> Result<String, Pod5Error> {
        Ok(self.read(index)?.read_id_string())
    }

    fn find(&self, read_id: &str) -> Result<Option<usize>, Pod5Error> {
        Ok(Reader::find(self, read_id))
    }

    fn signal_into(&self, index: usize, samples: &mut Vec<i16>) -> Result<Calibration, Pod5Error> {
        let read = self.read(index)?;
        samples.clear();
        self.decode_signal_into(index, samples)?;
        Ok(calibration(read))
    }

    fn fields(&self, index: usize) -> Result<Fields, Pod5Error> {
        Ok(fields(self.read(index)?, self.run_of(index)?))
    }
}

/// A POD5 read's calibration, as the reads table stores it.
pub fn calibration(read: &ReadRow) -> Calibration {
    Calibration { offset: read.calibration_offset, scale: read.calibration_scale }
}

/// The fields of a POD5 read and of its run, in the order of
/// [`POD5_FIELDS`](svb_model::POD5_FIELDS) after `read_id` and `filename`, with the values ONT's
/// reader and `pod5 view` give:
/// - a column the file's table version predates takes lib_pod5's migration value: counters
///   (`minknow_events`, `num_reads_since_mux_change`) 0, `time_since_mux_change` 0, scalings
///   and levels NaN;
/// - the run's `sample_id`, `experiment_id` and `flow_cell_id` are `not_set` when empty;
/// - `start_time` and `duration` are samples at the run's rate, in seconds.
///
/// A read whose run the file lacks has no fields: [`Reader::run_of`](crate::Reader::run_of)
/// is its error. `svb_arrow`'s POD5 columns hold the same values.
pub fn fields(read: &ReadRow, run: &RunInfo) -> Fields {
    let text = |get: fn(&RunInfo) -> &str| Value::Text(get(run).into());
    let not_set = |get: fn(&RunInfo) -> &str| Value::Text(not_set(get(run)).into());
    // Samples as seconds at the run's rate (NaN at a rate of 0).
    let seconds = |n: u64| Value::Float(seconds(n, run.sample_rate));
    let nan = |v: Option<f32>| Value::Float(v.map_or(f64::NAN, f64::from));
    per_read(&svb_model::POD5_FIELDS)
        .iter()
        .zip(per_read_names(Format::Pod5))
        .map(|(&(name, _), key)| {
            let v = match name {
                "read_number" => Value::UInt(read.read_number.into()),
                "channel" => Value::UInt(read.channel.into()),
                "mux" => Value::UInt(read.well.into()),
                "end_reason" => Value::Text(read.end_reason.to_string()),
                "start_time" => seconds(read.start_sample),
                "start_sample" => Value::UInt(read.start_sample),
                "duration" => seconds(read.num_samples),
                "num_samples" => Value::UInt(read.num_samples),
                "minknow_events" => Value::UInt(read.num_minknow_events.unwrap_or(0)),
                "sample_rate" => Value::UInt(run.sample_rate.into()),
                "median_before" => Value::Float(read.median_before.into()),
                "predicted_scaling_scale" => nan(read.predicted_scaling_scale),
                "predicted_scaling_shift" => nan(read.predicted_scaling_shift),
                "tracked_scaling_scale" => nan(read.tracked_scaling_scale),
                "tracked_scaling_shift" => nan(read.tracked_scaling_shift),
                "num_reads_since_mux_change" => {
                    Value::UInt(read.num_reads_since_mux_change.unwrap_or(0).into())
                }
                "time_since_mux_change" => {
                    Value::Float(read.time_since_mux_change.unwrap_or(0.0).into())
                }
                "run_id" => text(|x| &x.protocol_run_id),
                "sample_id" => not_set(|x| &x.sample_id),
                "experiment_id" => not_set(|x| &x.experiment_name),
                "flow_cell_id" => not_set(|x| &x.flow_cell_id),
                "pore_type" => Value::Text(read.pore_type.to_string()),
                "open_pore_level" => nan(read.open_pore_level),
                "expected_open_pore_level" => nan(read.expected_open_pore_level),
                "selected_read_level" => nan(read.selected_read_level),
                "calibration_offset" => Value::Float(read.calibration_offset.into()),
                "calibration_scale" => Value::Float(read.calibration_scale.into()),
                "end_reason_forced" => Value::Bool(read.end_reason_forced),
                "acquisition_id" => Value::Text(read.run_info.to_string()),
                other => unreachable!("{other} is not a POD5 field"),
            };
            (key.clone(), v)
        })
        .collect()
}

/// A run's text field as `pod5 view` shows it: `not_set` when empty.
pub fn not_set(s: &str) -> &str {
    if s.is_empty() {
        "not_set"
    } else {
        s
    }
}

/// `n` samples as seconds at `rate` (NaN at a rate of 0).
pub fn seconds(n: u64, rate: u16) -> f64 {
    match rate {
        0 => f64::NAN,
        rate => n as f64 / f64::from(rate),
    }
}
