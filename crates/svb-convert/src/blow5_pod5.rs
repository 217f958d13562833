//! POD5 <-> BLOW5 / SLOW5 with blue-crab's field mapping (`mapping.rs`), and BLOW5 <-> SLOW5
//! and recompression.

use std::path::{Path, PathBuf};

use svb_blow5::{Record, Schema};
use svb_pod5::RunInfo;

use crate::blow5_headers::{fields_of_schema, merged_schema, HeaderRules};
use crate::error::ConvertError;
use crate::run::{look_at_inputs, Run, Stats};
use crate::windows::{self, all_reads};
use svb_blow5::ont::{read_group_of, record_fields_into};

/// Converts POD5 `inputs` into one BLOW5 file `out`: every run a read group, every read a
/// record (in input order) under `options` (default: zstd records, SVB-ZD signal, as
/// slow5tools and blue-crab write); a failed input or read stops it, or is left out, as
/// `how` says.
pub fn pod5_to_blow5(
    inputs: &[PathBuf], out: &Path, options: svb_blow5::WriteOptions, how: Run<'_>,
) -> Result<Stats, ConvertError> {
    let open = |p: &Path| svb_pod5::Reader::open(p);
    let mut runs: Vec<RunInfo> = Vec::new();
    let look = |r: &svb_pod5::Reader, _: &Path| {
        for run in r.run_infos() {
            match runs.iter().find(|x| x.acquisition_id == run.acquisition_id) {
                Some(known) if known != run => {
                    return Err(ConvertError::Mapping(format!(
                        "run {} differs from the run of that acquisition id in an earlier input",
                        run.acquisition_id
                    )))
                }
                Some(_) => {}
                None => runs.push(run.clone()),
            }
        }
        Ok(())
    };
    let (inputs, stats) = look_at_inputs(inputs, out, how.on_error, open, look)?;
    let schema = Schema {
        read_groups: runs.iter().map(read_group_of).collect::<Result<_, _>>()?,
        aux: svb_blow5::ont::pod5_aux(),
    };
    let mut w = svb_blow5::Writer::create(out, schema, options)?;
    let convert = |_: usize, r: &svb_pod5::Reader, i: usize| {
        let read = &r.reads()[i];
        let acquisition = &r.run_of(i)?.acquisition_id;
        let (group, run) = runs
            .iter()
            .enumerate()
            .find(|(_, x)| x.acquisition_id == *acquisition)
            // Every run of an input was read for the header, unless the file changed since.
            .ok_or_else(|| {
                ConvertError::Mapping(format!(
                    "run {acquisition} was not in the file when its runs were read \
                     (was it changed meanwhile?)"
                ))
            })?;
        let mut rec = Record::default();
        r.decode_signal_into(i, &mut rec.raw_signal)?;
        record_fields_into(&read.info, run, group as u32, &mut rec);
        Ok(rec)
    };
    let steps = windows::every_read(convert);
    let stats = windows::into_sink(&all_reads(inputs), open, stats, how, steps, &mut w)?;
    w.finish()?;
    Ok(stats)
}

/// Copies every record of BLOW5 or SLOW5 `inputs` into one file `out` under `options`
/// (BLOW5 with any compression, or [`WriteOptions::slow5`](svb_blow5::WriteOptions::slow5)
/// text): BLOW5 to SLOW5 and back, or a recompression. Read groups are merged (equal groups
/// once) and the auxiliary fields must be the same in every input; every field is kept
/// exactly; one input keeps its version where the output's compression allows it
/// ([`WriteOptions::versioned_like`](svb_blow5::WriteOptions::versioned_like), as slow5tools
/// view). A failed input or record stops it, or is left out, as `how` says.
pub fn blow5_to_blow5(
    inputs: &[PathBuf], out: &Path, options: svb_blow5::WriteOptions, how: Run<'_>,
) -> Result<Stats, ConvertError> {
    let open = |p: &Path| svb_blow5::Reader::open(p);
    let mut headers = Vec::new();
    let look = |r: &svb_blow5::Reader, p: &Path| {
        headers.push((r.header().clone(), p.to_path_buf()));
        Ok(())
    };
    let (inputs, stats) = look_at_inputs(inputs, out, how.on_error, open, look)?;
    let headers: Vec<(&svb_blow5::Header, &Path)> =
        headers.iter().map(|(h, p)| (h, p.as_path())).collect();
    let (schema, group_maps) = merged_schema(&headers, HeaderRules::default())?;
    let aux = schema.aux.clone();
    // One file rewritten keeps its records as they are, a read id that repeats included (as
    // slow5tools view rewrites it); several are merged, and an id in two is refused.
    let options = svb_blow5::WriteOptions { unique_read_ids: headers.len() > 1, ..options };
    // One file rewritten (slow5tools view) keeps its version where the output's compression
    // allows it, as slow5lib does: a 0.1.0 BLOW5 gives a 0.1.0 SLOW5.
    let options = match headers.as_slice() {
        [(only, _)] => options.versioned_like(only.version),
        _ => options,
    };
    let mut w = svb_blow5::Writer::create(out, schema, options)?;
    let convert = |k: usize, r: &svb_blow5::Reader, i: usize| {
        let mut rec = Record::default();
        r.record_into(i, &mut rec)?;
        rec.read_group = group_maps[k][rec.read_group as usize];
        fields_of_schema(&mut rec, &aux);
        Ok(rec)
    };
    let steps = windows::every_read(convert);
    let stats = windows::into_sink(&all_reads(inputs), open, stats, how, steps, &mut w)?;
    w.finish()?;
    Ok(stats)
}
