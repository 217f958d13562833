//! The POD5 reader as the read model's [`ReadSource`]: a read's fields under
//! [`POD5_FIELDS`](svb_model::POD5_FIELDS)' names.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use svb_model::ont::{MappingError, OntRead, OntReadError, OntSource, ReadInfo};
use svb_model::{per_read, per_read_names, Calibration, Fields, Format, ReadSource, Value};

use crate::{Pod5Error, ReadRow, Reader, RunInfo};

impl ReadSource for Reader {
    type Error = Pod5Error;

    /// An object's signal table is parsed first (its batches' metadata fetched as planned
    /// ranges, one round trip), then the scan announced: read after the announcement, those
    /// scattered ranges started the scan's fetches ahead from the table's start and the
    /// reads then missed one by one (a verify of the 262 MB object: 2,027 requests, 1.95x its
    /// bytes, 71 s, where this order takes 108 requests and 3 s). A failure is the first
    /// read's to report.
    fn expect_scan(&self) {
        let _ = self.signal();
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
        self.reads().get(index).map_or(0, |x| x.info.num_samples)
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
    Calibration { offset: read.info.calibration_offset, scale: read.info.calibration_scale }
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
                "read_number" => Value::UInt(read.info.read_number.into()),
                "channel" => Value::UInt(read.info.channel.into()),
                "mux" => Value::UInt(read.info.well.into()),
                "end_reason" => Value::Text(read.info.end_reason.to_string()),
                "start_time" => seconds(read.info.start_sample),
                "start_sample" => Value::UInt(read.info.start_sample),
                "duration" => seconds(read.info.num_samples),
                "num_samples" => Value::UInt(read.info.num_samples),
                "minknow_events" => Value::UInt(read.info.num_minknow_events.unwrap_or(0)),
                "sample_rate" => Value::UInt(run.sample_rate.into()),
                "median_before" => Value::Float(read.info.median_before.into()),
                "predicted_scaling_scale" => nan(read.info.predicted_scaling_scale),
                "predicted_scaling_shift" => nan(read.info.predicted_scaling_shift),
                "tracked_scaling_scale" => nan(read.info.tracked_scaling_scale),
                "tracked_scaling_shift" => nan(read.info.tracked_scaling_shift),
                "num_reads_since_mux_change" => {
                    Value::UInt(read.info.num_reads_since_mux_change.unwrap_or(0).into())
                }
                "time_since_mux_change" => {
                    Value::Float(read.info.time_since_mux_change.unwrap_or(0.0).into())
                }
                "run_id" => text(|x| &x.protocol_run_id),
                "sample_id" => not_set(|x| &x.sample_id),
                "experiment_id" => not_set(|x| &x.experiment_name),
                "flow_cell_id" => not_set(|x| &x.flow_cell_id),
                "pore_type" => Value::Text(read.info.pore_type.to_string()),
                "open_pore_level" => nan(read.info.open_pore_level),
                "expected_open_pore_level" => nan(read.info.expected_open_pore_level),
                "selected_read_level" => nan(read.info.selected_read_level),
                "calibration_offset" => Value::Float(read.info.calibration_offset.into()),
                "calibration_scale" => Value::Float(read.info.calibration_scale.into()),
                "end_reason_forced" => Value::Bool(read.info.end_reason_forced),
                "acquisition_id" => Value::Text(read.info.run_info.to_string()),
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

/// The runs of the POD5 files seen so far ([`OntSource::Runs`]): each file's run infos, made
/// once into the runs its reads share, and each acquisition id's run (a file whose run of an
/// acquisition id differs from an earlier file's is refused: a BLOW5 header or a merged POD5
/// holds one run an acquisition id).
#[derive(Debug, Default)]
pub struct FileRuns {
    by_file: HashMap<PathBuf, Vec<Arc<RunInfo>>>,
    by_acquisition: HashMap<String, Arc<RunInfo>>,
    /// Every acquisition id's run, in the order first seen.
    order: Vec<Arc<RunInfo>>,
}

impl FileRuns {
    /// `file`'s runs, in its run-info table's order: added the first time the file is seen
    /// (an acquisition id seen before takes its run, and refuses one that differs).
    pub fn add_file(&mut self, file: &Reader) -> Result<&[Arc<RunInfo>], MappingError> {
        if !self.by_file.contains_key(file.path()) {
            let mut runs = Vec::with_capacity(file.run_infos().len());
            for run in file.run_infos() {
                let run = match self.by_acquisition.get(&run.acquisition_id) {
                    Some(known) if **known != *run => {
                        return Err(MappingError(format!(
                            "run {} differs from the run of that acquisition id in an earlier \
                             input",
                            run.acquisition_id
                        )))
                    }
                    Some(known) => known.clone(),
                    None => {
                        let run = Arc::new(run.clone());
                        self.by_acquisition.insert(run.acquisition_id.clone(), run.clone());
                        self.order.push(run.clone());
                        run
                    }
                };
                runs.push(run);
            }
            self.by_file.insert(file.path().to_path_buf(), runs);
        }
        Ok(&self.by_file[file.path()])
    }

    /// Every run added, each acquisition id once, in the order first seen.
    pub fn runs(&self) -> impl Iterator<Item = &RunInfo> {
        self.order.iter().map(|r| &**r)
    }
}

/// POD5 reads as the model's: the reads table's fields as they are, each read's run its
/// file's run info of that acquisition id. A read is mapped with the place of its run in the
/// file's run-info table.
impl OntSource for Reader {
    type Mapped = (usize, ReadInfo, Vec<i16>);
    type Runs = FileRuns;

    fn map_read(
        &self, index: usize,
    ) -> Result<(usize, ReadInfo, Vec<i16>), OntReadError<Pod5Error>> {
        let info = self.read(index).map_err(OntReadError::Read)?.info.clone();
        // A read of a run the file lacks fails here, where an operation may leave it out.
        let own = self.run_of(index).map_err(OntReadError::Read)?;
        let run = self
            .run_infos()
            .iter()
            .position(|r| std::ptr::eq(r, own))
            .expect("run_of gives one of the file's run infos");
        let mut signal = Vec::with_capacity(info.num_samples.min(1 << 24) as usize);
        self.decode_signal_into(index, &mut signal).map_err(OntReadError::Read)?;
        Ok((run, info, signal))
    }

    fn samples_mut(mapped: &mut (usize, ReadInfo, Vec<i16>)) -> &mut Vec<i16> {
        &mut mapped.2
    }

    fn admit(
        &self, runs: &mut FileRuns, (run, info, signal): (usize, ReadInfo, Vec<i16>),
    ) -> Result<OntRead, OntReadError<Pod5Error>> {
        let run = runs.add_file(self)?[run].clone();
        Ok(OntRead { info, run, signal })
    }
}
