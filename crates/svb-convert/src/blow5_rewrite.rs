//! BLOW5 / SLOW5 rewritten as BLOW5 / SLOW5 (BLOW5 <-> SLOW5, recompression): every record
//! and field kept exactly, the read groups merged.

use std::path::{Path, PathBuf};

use svb_blow5::Record;

use crate::blow5_headers::{fields_of_schema, merged_schema, HeaderRules};
use crate::error::ConvertError;
use crate::run::{look_at_inputs, Run, Stats};
use crate::windows::{self, all_reads};

/// Copies every record of BLOW5 or SLOW5 `inputs` into one file `out` under `options`
/// (BLOW5 with any compression, or [`WriteOptions::slow5`](svb_blow5::WriteOptions::slow5)
/// text): BLOW5 to SLOW5 and back, or a recompression. Read groups are merged (equal groups
/// once) and the auxiliary fields must be the same in every input; every field is kept
/// exactly; one input keeps its version where the output's compression allows it
/// ([`WriteOptions::versioned_like`](svb_blow5::WriteOptions::versioned_like), as slow5tools
/// view). A failed input or record stops it, or is left out, as `how` says.
pub(crate) fn rewrite_blow5(
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
