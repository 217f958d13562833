//! BLOW5 records as the model's reads ([`OntSource`]), by blue-crab's mapping: a record's
//! fields by [`read_info_of`], its read group's run by [`run_info_of`] made of the group's
//! attributes and the group's first record (in file order: the record gives what a header
//! may lack, the ADC range and the rate).

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;

use svb_model::ont::{MappingError, OntRead, OntReadError, OntSource, ReadInfo, RunInfo};

use super::mapping::{acquisition_id_of, read_info_of, run_info_of};
use crate::{Blow5Error, Reader, Record};

/// A record mapped on any thread, before its run is found ([`OntSource::admit`]).
#[derive(Debug)]
pub struct MappedRecord {
    group: u32,
    /// The record's digitisation and sampling rate, which make its group's run when it is the
    /// group's first.
    first: (f64, f64),
    info: ReadInfo,
    signal: Vec<i16>,
}

/// The runs made of the read groups seen so far, over every input: each (file, read group)'s
/// run, and each acquisition id's (a read group of another file or of the same file with the
/// same acquisition id must make the same run: POD5 holds one run an acquisition id).
#[derive(Debug, Default)]
pub struct GroupRuns {
    by_group: HashMap<PathBuf, Vec<Option<Arc<RunInfo>>>>,
    by_acquisition: HashMap<String, Arc<RunInfo>>,
}

impl OntSource for Reader {
    type Mapped = MappedRecord;
    type Runs = GroupRuns;

    fn map_read(&self, index: usize) -> Result<MappedRecord, OntReadError<Blow5Error>> {
        let mut rec = Record::default();
        self.record_into(index, &mut rec).map_err(OntReadError::Read)?;
        let g = rec.read_group;
        let attrs = self.header().read_groups.get(g as usize).ok_or_else(|| {
            MappingError(format!("record {}: read group {g} is not in the header", rec.read_id))
        })?;
        let info = read_info_of(&rec, &acquisition_id_of(attrs))?;
        let first = (rec.digitisation, rec.sampling_rate);
        Ok(MappedRecord { group: g, first, info, signal: rec.raw_signal })
    }

    fn samples_mut(mapped: &mut MappedRecord) -> &mut Vec<i16> {
        &mut mapped.signal
    }

    fn admit(
        &self, runs: &mut GroupRuns, mapped: MappedRecord,
    ) -> Result<OntRead, OntReadError<Blow5Error>> {
        let MappedRecord { group: g, first, info, signal } = mapped;
        let groups = match runs.by_group.get_mut(self.path()) {
            Some(groups) => groups,
            None => runs.by_group.entry(self.path().to_path_buf()).or_default(),
        };
        if groups.len() <= g as usize {
            groups.resize(g as usize + 1, None);
        }
        let run = match &groups[g as usize] {
            Some(run) => run.clone(),
            None => {
                // The map_read of this record found its group in the header.
                let attrs = &self.header().read_groups[g as usize];
                let run = run_info_of(attrs, first.0, first.1);
                let run = match runs.by_acquisition.get(&run.acquisition_id) {
                    Some(known) if **known != run => {
                        return Err(MappingError(format!(
                            "run {}: read group {g} differs from the run of that acquisition \
                             id made of an earlier read group",
                            run.acquisition_id
                        ))
                        .into())
                    }
                    Some(known) => known.clone(),
                    None => Arc::new(run),
                };
                runs.by_acquisition.insert(run.acquisition_id.clone(), run.clone());
                groups[g as usize] = Some(run.clone());
                run
            }
        };
        Ok(OntRead { info, run, signal })
    }
}
