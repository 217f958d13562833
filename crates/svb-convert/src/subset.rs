//! Subsetting: the reads named in a list, from any number of files of one format, into one
//! file of that format, a window of reads at a time (memory holds one window whatever the
//! inputs' size). POD5 chunks of the output's compression (VBZ; PDZ into PDZ) are copied as
//! stored (checked, not recompressed); other signal is decoded and compressed on every core. Only the wanted rows of a POD5 reads table
//! are parsed, and BLOW5 files are read through slow5lib's index (built and written beside
//! the file when missing), so only the wanted records are read.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use crate::compression::Compression;
use crate::error::ConvertError;
use crate::fast5::{open_fast5, picked_to_blow5, picked_to_pod5, F2sHeader};
use crate::run::missing;
use crate::run::settle;
use crate::run::{Run, Stats};
use crate::stored::copy_pod5_reads;
use crate::stored::pod5_copy_encoding;
use crate::windows::weighed;
use svb_model::ReadSource;

/// What a subset wrote.
#[derive(Debug, Default)]
pub struct Subset {
    /// Reads and samples written; with [`OnError::Skip`](crate::run::OnError::Skip), the inputs
    /// and reads left out.
    pub stats: Stats,
    /// The wanted ids found in no input, in the list's order.
    pub missing: Vec<String>,
    /// What went less well than it could without being an error (a BLOW5 index that did not
    /// fit its file and was rebuilt, or could not be written).
    pub notes: Vec<String>,
}

/// The order a subset writes its reads in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ReadOrder {
    /// The inputs' order, each input's reads as they are stored in it (the fastest: each
    /// input read once, front to back).
    #[default]
    Files,
    /// The list's order (`slow5tools get`'s): reads are found in whichever input holds them
    /// and written as the list names them (an id listed twice, once).
    List,
}

impl ReadOrder {
    /// [`List`](ReadOrder::List) when `in_order` (an `--in-order` flag), else
    /// [`Files`](ReadOrder::Files).
    pub fn list_if(in_order: bool) -> Self {
        match in_order {
            true => ReadOrder::List,
            false => ReadOrder::Files,
        }
    }
}

/// The reads `wanted` (UUID strings) of POD5 `inputs` into `out` (VBZ chunks copied as they
/// are stored, uncompressed signal re-encoded), under `how`.
pub fn subset_pod5(
    inputs: &[PathBuf], wanted: &[String], out: &Path, order: ReadOrder, mut how: Run<'_>,
) -> Result<Subset, ConvertError> {
    crate::run::check_output(inputs, out)?;
    let mut ids = HashSet::with_capacity(wanted.len());
    for id in wanted {
        let uuid = svb_pod5::parse_uuid(id).ok_or_else(|| {
            ConvertError::Mapping(format!("read id {id:?} is not a UUID, as POD5 read ids are"))
        })?;
        ids.insert(uuid);
    }
    let options = svb_pod5::WriteOptions {
        signal_encoding: pod5_copy_encoding(inputs),
        publish: how.publish,
        ..svb_pod5::WriteOptions::default()
    };
    let mut w = svb_pod5::Writer::create(out, options)?;
    let mut result = Subset::default();
    let mut found = HashSet::new();
    let on_error = how.on_error;
    if order == ReadOrder::List {
        pod5_in_list_order(inputs, wanted, &ids, &mut w, &mut result, &mut found, &mut how)?;
        w.finish()?;
        result.missing = missing(wanted, &found);
        return Ok(result);
    }
    for path in inputs {
        let in_file = ConvertError::of(path);
        // Only the wanted rows of the reads table are parsed.
        let opened = svb_pod5::Reader::open_filtered(path, |id| ids.contains(id))
            .map_err(ConvertError::from);
        let Some(r) = settle(vec![opened], on_error, &mut result.stats.failed, &in_file)?.pop()
        else {
            continue;
        };
        let picked: Vec<usize> = (0..r.len()).collect();
        for window in weighed(&picked, |&i| r.weight(i)) {
            let stats = &mut result.stats;
            let ids = copy_pod5_reads(&r, window, &mut w, false, on_error, stats, &in_file)?;
            found.extend(ids);
            how.report(found.len() as u64, wanted.len() as u64)?;
        }
    }
    w.finish()?;
    result.missing = missing(wanted, &found);
    Ok(result)
}

/// [`subset_pod5`] in the list's order: each input's wanted rows found first (its reads
/// table parsed for them alone; the input then closed unless few), then the reads written
/// as `wanted` names them, each run of reads of one input copied from it (reopened when its
/// turn comes again).
fn pod5_in_list_order(
    inputs: &[PathBuf], wanted: &[String], ids: &HashSet<[u8; 16]>, w: &mut svb_pod5::Writer,
    result: &mut Subset, found: &mut HashSet<String>, how: &mut Run<'_>,
) -> Result<(), ConvertError> {
    use std::collections::HashMap;
    let on_error = how.on_error;
    let open = |path: &Path| {
        svb_pod5::Reader::open_filtered(path, |id| ids.contains(id)).map_err(ConvertError::from)
    };
    let keep_all = inputs.len() <= 16;
    let mut kept: Vec<Option<svb_pod5::Reader>> = Vec::new();
    let mut place: HashMap<[u8; 16], (usize, usize)> = HashMap::new();
    for (k, path) in inputs.iter().enumerate() {
        let in_file = ConvertError::of(path);
        let opened = settle(vec![open(path)], on_error, &mut result.stats.failed, &in_file)?.pop();
        if let Some(r) = &opened {
            for (i, read) in r.reads().iter().enumerate() {
                place.entry(read.info.read_id).or_insert((k, i));
            }
        }
        kept.push(opened.filter(|_| keep_all));
    }
    let mut listed = HashSet::new();
    let placed: Vec<(usize, usize)> = wanted
        .iter()
        .filter_map(|id| svb_pod5::parse_uuid(id))
        .filter(|u| listed.insert(*u))
        .filter_map(|u| place.get(&u).copied())
        .collect();
    let mut reopened: Option<(usize, svb_pod5::Reader)> = None;
    for run in placed.chunk_by(|a, b| a.0 == b.0) {
        let k = run[0].0;
        let in_file = ConvertError::of(&inputs[k]);
        if kept[k].is_none() && reopened.as_ref().is_none_or(|(at, _)| *at != k) {
            reopened = Some((k, open(&inputs[k]).map_err(&in_file)?));
        }
        let r = match &kept[k] {
            Some(r) => r,
            None => &reopened.as_ref().expect("reopened above").1,
        };
        let indices: Vec<usize> = run.iter().map(|&(_, i)| i).collect();
        for window in weighed(&indices, |&i| r.weight(i)) {
            let stats = &mut result.stats;
            let ids = copy_pod5_reads(r, window, w, false, on_error, stats, &in_file)?;
            found.extend(ids);
            how.report(found.len() as u64, wanted.len() as u64)?;
        }
    }
    Ok(())
}

/// The records `wanted` of BLOW5 or SLOW5 `inputs` into `out` (SLOW5 text when it ends in
/// `.slow5`), under `how`: their read groups merged (equal groups once), their auxiliary
/// fields the same in every input; a BLOW5 output takes the first input's compression
/// (slow5tools' zlib and SVB-ZD when that input is text).
pub fn subset_blow5(
    inputs: &[PathBuf], wanted: &[String], out: &Path, order: ReadOrder, how: Run<'_>,
) -> Result<Subset, ConvertError> {
    subset_blow5_with(inputs, None, wanted, out, order, &Compression::default(), how)
}

/// [`subset_blow5`], through the slow5lib index kept at `index` where one is named (never
/// rebuilt or replaced: one whose positions do not fit the file is an error, one whose read
/// ids do not is set aside for the records' own, with a note), with a BLOW5 output's record
/// and signal compression chosen
/// (`slow5tools get`'s `-c` / `-s`): records stored otherwise than the output stores them are
/// decoded and compressed anew; what `compression` leaves unchosen is the first input's.
pub fn subset_blow5_with(
    inputs: &[PathBuf], index: Option<&Path>, wanted: &[String], out: &Path, order: ReadOrder,
    compression: &Compression, mut how: Run<'_>,
) -> Result<Subset, ConvertError> {
    compression.check(svb_model::Format::of_output(out)?, out)?;
    crate::run::check_output(inputs, out)?;
    let on_error = how.on_error;
    let ids: HashSet<&str> = wanted.iter().map(String::as_str).collect();
    let mut result = Subset::default();
    // Each through its slow5lib index: only the wanted records are read (each checked to be
    // the read the index says; an index that does not fit is set aside for the records' ids).
    let mut opened: Vec<(svb_blow5::Indexed, &PathBuf)> = Vec::new();
    // Each input's record of each wanted id.
    let mut places: Vec<Vec<Option<usize>>> = Vec::new();
    for p in inputs {
        let o = svb_blow5::find_reads(p, wanted, index).map_err(ConvertError::from);
        if let Some((o, at)) =
            settle(vec![o], on_error, &mut result.stats.failed, ConvertError::of(p))?.pop()
        {
            result.notes.extend(o.note.clone());
            opened.push((o, p));
            places.push(at);
        }
    }
    let Some(first) = opened.first().map(|(o, _)| o.reader.header().clone()) else {
        return Err(result.stats.nothing_opened("subset"));
    };
    let headers: Vec<(&svb_blow5::Header, &Path)> =
        opened.iter().map(|(o, p)| (o.reader.header(), p.as_path())).collect();
    let (schema, group_maps) = crate::blow5_headers::merged_schema(
        &headers,
        crate::blow5_headers::HeaderRules::default(),
    )?;
    let aux = schema.aux.clone();
    // The output's form by its extension; a BLOW5 output keeps the first input's compression.
    let options =
        compression.over(crate::blow5_headers::blow5_options_like(out, &first, how.publish));
    // One input keeps its version where the output's compression allows it, as slow5tools
    // get writes it (a 0.1.0 SLOW5 gives a 0.1.0 SLOW5).
    let options = match opened.as_slice() {
        [_] => options.versioned_like(first.version),
        _ => options,
    };
    let mut w = svb_blow5::Writer::create(out, schema, options)?;
    let mut found = HashSet::new();
    let decoded = Decoded {
        opened: &opened,
        group_maps: &group_maps,
        aux: &aux,
        ids: &ids,
        wanted: wanted.len() as u64,
    };
    if order == ReadOrder::List {
        // Each wanted id's record, in the list's order (an id once, from the first input
        // that holds it).
        let mut listed = HashSet::new();
        let mut placed = Vec::new();
        for (n, id) in wanted.iter().enumerate() {
            if listed.insert(id.as_str()) {
                placed.extend(places.iter().enumerate().find_map(|(k, at)| Some((k, at[n]?))));
            }
        }
        for window in weighed(&placed, |&(k, i)| opened[k].0.reader.weight(i)) {
            decoded.write(window, &mut w, &mut result, &mut found, &mut how)?;
        }
    }
    let each_input = opened.iter().zip(&group_maps).enumerate();
    for (k, ((o, path), map)) in each_input.filter(|_| order == ReadOrder::Files) {
        let in_file = ConvertError::of(path);
        let r = &o.reader;
        let mut picked: Vec<usize> = places[k].iter().flatten().copied().collect();
        picked.sort_unstable();
        picked.dedup();
        // Records stored as the output stores them, whose read groups keep their numbers, are
        // copied as stored.
        if crate::stored::keeps_numbers(map) && w.stores_like(r.header()) {
            for window in weighed(&picked, |&i| r.weight(i)) {
                let keep = |id: &str| Ok(ids.contains(id));
                let stats = &mut result.stats;
                let written = crate::stored::copy_stored_records(
                    r,
                    window,
                    crate::stored::Check::Fields,
                    &mut w,
                    keep,
                    on_error,
                    stats,
                    &in_file,
                )?;
                // Found: written (a record that failed is counted as failed, not found).
                found.extend(written);
                how.report(found.len() as u64, wanted.len() as u64)?;
            }
            continue;
        }
        let placed: Vec<(usize, usize)> = picked.iter().map(|&i| (k, i)).collect();
        for window in weighed(&placed, |&(k, i)| opened[k].0.reader.weight(i)) {
            decoded.write(window, &mut w, &mut result, &mut found, &mut how)?;
        }
    }
    w.finish()?;
    result.missing = missing(wanted, &found);
    Ok(result)
}

/// What a BLOW5 subset needs to decode records of its inputs and write them.
struct Decoded<'a> {
    opened: &'a [(svb_blow5::Indexed, &'a PathBuf)],
    group_maps: &'a [Vec<u32>],
    aux: &'a [svb_blow5::AuxField],
    ids: &'a HashSet<&'a str>,
    wanted: u64,
}

impl Decoded<'_> {
    /// Decodes records `window` ((input, record) each) on every core and writes those of
    /// wanted ids in this order (a stale index can point at another record), each under the
    /// output's read group and fields; a record that fails stops it, or goes to `failed`.
    fn write(
        &self, window: &[(usize, usize)], w: &mut svb_blow5::Writer, result: &mut Subset,
        found: &mut HashSet<String>, how: &mut Run<'_>,
    ) -> Result<(), ConvertError> {
        let in_file = |k: usize| ConvertError::of(self.opened[k].1);
        let decoded: Vec<Result<(usize, svb_blow5::Record), ConvertError>> = window
            .par_iter()
            .map(|&(k, i)| {
                let rec = self.opened[k].0.reader.record(i);
                rec.map(|rec| (k, rec)).map_err(|e| in_file(k)(e.into()))
            })
            .collect();
        let kept = settle(decoded, how.on_error, &mut result.stats.failed, |e| e)?;
        let mut records = Vec::with_capacity(kept.len());
        for (k, mut rec) in kept {
            if self.ids.contains(rec.read_id.as_str()) {
                rec.read_group = self.group_maps[k][rec.read_group as usize];
                crate::blow5_headers::fields_of_schema(&mut rec, self.aux);
                records.push(rec);
            }
        }
        let written = w.add_records(&records).map_err(ConvertError::from);
        // A write error is named by the input when the window holds one input's records.
        let one_input = window.iter().all(|&(k, _)| k == window[0].0);
        match (written, window.first()) {
            (Err(e), Some(&(k, _))) if one_input => return Err(in_file(k)(e)),
            (written, _) => written?,
        }
        result.stats.reads += records.len() as u64;
        result.stats.samples += records.iter().map(|x| x.raw_signal.len() as u64).sum::<u64>();
        found.extend(records.into_iter().map(|rec| rec.read_id));
        how.report(found.len() as u64, self.wanted)
    }
}

/// [`subset_pod5`] or [`subset_blow5`] by the output's extension (`.pod5`, or `.blow5` /
/// `.slow5`), the reads in `order`; the inputs must be of that format (BLOW5 and SLOW5 mix),
/// or FAST5 ([`subset_fast5`](subset_fast5), into any of them, in the files' order).
pub fn subset(
    inputs: &[PathBuf], wanted: &[String], out: &Path, order: ReadOrder, how: Run<'_>,
) -> Result<Subset, ConvertError> {
    use svb_model::Format;
    let to = Format::of_output(out)?;
    // FAST5 inputs become a file of the output's format (svb writes no FAST5).
    let fast5 =
        inputs.first().is_some_and(|p| svb_reads::detect(p).is_ok_and(|f| f == Format::Fast5));
    if fast5 {
        if order == ReadOrder::List {
            return Err(ConvertError::Mapping(
                "FAST5 inputs are subset in their files' order; convert them first for the \
                 list's order"
                    .into(),
            ));
        }
        return subset_fast5(inputs, wanted, out, how);
    }
    match to {
        Format::Pod5 => subset_pod5(inputs, wanted, out, order, how),
        Format::Blow5 | Format::Slow5 => subset_blow5(inputs, wanted, out, order, how),
        found @ Format::Fast5 => Err(svb_model::OutputFormatError::not_written(out, found).into()),
    }
}

/// The reads `wanted` of FAST5 `inputs` converted into `out`, by its extension, as
/// [`convert`](crate::convert) converts FAST5: POD5 by ONT's mapping, BLOW5 (zstd records,
/// SVB-ZD signal) or SLOW5 text by slow5tools f2s's; under `how` (its `on_existing` says
/// whether `out` may be replaced). svb writes no FAST5, so a FAST5 subset is one of these.
pub fn subset_fast5(
    inputs: &[PathBuf], wanted: &[String], out: &Path, how: Run<'_>,
) -> Result<Subset, ConvertError> {
    let ids: HashSet<String> = wanted.iter().cloned().collect();
    let format = svb_model::Format::of_output(out)?;
    let mut found: HashSet<String> = HashSet::new();
    let mut header = F2sHeader::default();
    let look = |r: &svb_fast5::Reader, keep: &[usize]| {
        let ids = keep.iter().filter_map(|&i| r.read_id(i).ok());
        found.extend(ids.map(str::to_owned));
        if format != svb_model::Format::Pod5 {
            header.add(r, keep);
        }
    };
    let (readers, stats) = open_fast5(inputs, out, how.on_error, Some(&ids), look)?;
    let publish = how.publish;
    let stats = match format {
        svb_model::Format::Pod5 => {
            let options = svb_pod5::WriteOptions { publish, ..svb_pod5::WriteOptions::default() };
            picked_to_pod5(readers, stats, out, options, how)?
        }
        f @ (svb_model::Format::Blow5 | svb_model::Format::Slow5) => {
            let options = match f {
                svb_model::Format::Slow5 => svb_blow5::WriteOptions::slow5(),
                _ => svb_blow5::WriteOptions::default(),
            };
            let options = svb_blow5::WriteOptions { publish, ..options };
            picked_to_blow5(readers, header, stats, out, options, how)?
        }
        found @ svb_model::Format::Fast5 => {
            return Err(svb_model::OutputFormatError::not_written(out, found).into())
        }
    };
    Ok(Subset { stats, missing: missing(wanted, &found), notes: Vec::new() })
}
