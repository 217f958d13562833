//! [`OntWriter`]: a BLOW5 (or SLOW5 text) file of ONT's model reads, by blue-crab's mapping.

use std::collections::HashMap;
use std::path::Path;

use svb_model::ont::{OntRead, RunInfo};
use svb_model::{Format, ReadSink};

use super::mapping::{read_group_of, record_of};
use super::pod5_aux;
use crate::{Blow5WriteError, Record, Schema, WriteOptions, Writer};

/// A BLOW5 or SLOW5 file of the model's reads ([`OntRead`]), as blue-crab writes POD5 reads:
/// a read group per run ([`read_group_of`]), made when the file is created (a BLOW5 header
/// lists them before any record), and [`pod5_aux`]'s auxiliary fields; each read a record of
/// its run's group ([`record_of`]). A read of a run the file was not created with is an error
/// naming it.
///
/// ```
/// use std::sync::Arc;
/// use svb_model::ont::{OntRead, ReadInfo, RunInfo};
/// use svb_model::ReadSink;
/// # let dir = std::env::temp_dir().join(format!("svb-blow5-ont-{}", std::process::id()));
/// # std::fs::create_dir_all(&dir)?;
/// let run = Arc::new(RunInfo { acquisition_id: "run-1".into(), adc_min: -4096, adc_max: 4095, ..RunInfo::default() });
/// let path = dir.join("reads.blow5");
/// let mut w = svb_blow5::ont::OntWriter::create(&path, &[(*run).clone()], Default::default())?;
/// w.add_reads(vec![OntRead::new(ReadInfo::new([1; 16], "run-1"), run, vec![10, 11, 12])])?;
/// w.finish()?;
/// let r = svb_blow5::Reader::open(&path)?;
/// assert_eq!(r.record(0)?.raw_signal, [10, 11, 12]);
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct OntWriter {
    writer: Writer,
    /// Each run's read group, by acquisition id.
    groups: HashMap<String, u32>,
}

impl OntWriter {
    /// A new file at `path` (published when finished, as [`Writer::create`] says) whose read
    /// groups are `runs`, in their order; a run that has no place in a BLOW5 header (an
    /// attribute with a tab or newline) is refused, as is an acquisition id twice.
    pub fn create(
        path: impl AsRef<Path>, runs: &[RunInfo], options: WriteOptions,
    ) -> Result<OntWriter, Blow5WriteError> {
        let schema_error = |what: String| Blow5WriteError::Schema { what };
        let mut groups = HashMap::with_capacity(runs.len());
        let mut read_groups = Vec::with_capacity(runs.len());
        for (g, run) in runs.iter().enumerate() {
            if groups.insert(run.acquisition_id.clone(), g as u32).is_some() {
                return Err(schema_error(format!("run {} twice", run.acquisition_id)));
            }
            read_groups.push(read_group_of(run).map_err(|e| schema_error(e.0))?);
        }
        let schema = Schema { read_groups, aux: pod5_aux() };
        Ok(OntWriter { writer: Writer::create(path, schema, options)?, groups })
    }

    /// `read` as the record it is written as (its samples moved into it).
    fn record(&self, read: OntRead) -> Result<Record, Blow5WriteError> {
        let group = self.group(&read)?;
        Ok(record_of(&read.info, &read.run, group, read.signal))
    }

    /// The read group of `read`'s run.
    fn group(&self, read: &OntRead) -> Result<u32, Blow5WriteError> {
        self.groups.get(&read.run.acquisition_id).copied().ok_or_else(|| Blow5WriteError::Record {
            read_id: read.info.read_id_string(),
            what: format!(
                "run {} is not one of the file's read groups (was its input changed since its \
                 runs were read?)",
                read.run.acquisition_id
            ),
        })
    }
}

impl ReadSink for OntWriter {
    type Error = Blow5WriteError;
    type Read = OntRead;

    fn format(&self) -> Format {
        ReadSink::format(&self.writer)
    }

    fn len(&self) -> u64 {
        self.writer.len()
    }

    fn samples(read: &OntRead) -> u64 {
        read.signal.len() as u64
    }

    fn check(&self, read: &OntRead) -> Result<(), Blow5WriteError> {
        let group = self.group(read)?;
        // The record's fields without its samples: what the writer checks of it.
        let record = record_of(&read.info, &read.run, group, Vec::new());
        self.writer.check_holding(&record, read.signal.len())
    }

    fn add_reads(&mut self, reads: Vec<OntRead>) -> Result<(), Blow5WriteError> {
        let records = reads.into_iter().map(|r| self.record(r)).collect::<Result<Vec<_>, _>>()?;
        self.writer.add_records(&records)
    }

    fn finish(self) -> Result<u64, Blow5WriteError> {
        self.writer.finish()
    }
}
