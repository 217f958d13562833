//! Merging: many files of one format into one. Inputs are opened one at a time (thousands of
//! them hold one file open and one window of reads in memory); POD5 runs and BLOW5 read
//! groups are kept once each (equal ones merged, as `pod5 merge` and `slow5tools merge` do);
//! a read id seen in an earlier input is an error naming both files, or skipped with
//! [`Duplicates::KeepFirst`]. POD5 chunks of the output's compression are copied as stored; so are the BLOW5 records of
//! an input whose compression and read groups the output keeps (their fields are parsed, for
//! the id and a check, but the signal is not decoded); other BLOW5 records are decoded and
//! written under the output's compression (the read group inside a record changes).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::blow5_headers::fields_of_schema;
use crate::blow5_headers::HeaderRules;
use crate::error::ConvertError;
use crate::run::settle;
use crate::run::{Run, Stats};
use crate::stored::copy_pod5_reads;
use crate::windows::weighed;
use svb_model::ReadSource;

/// What a merge does with a read whose id an earlier input (or an earlier read) has.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Duplicates {
    /// Stop: the error names both files.
    #[default]
    Error,
    /// Keep the first read of the id and leave the others out (counted in
    /// [`Merged::duplicates`]).
    KeepFirst,
}

/// What a merge wrote.
#[derive(Debug, Default)]
pub struct Merged {
    /// Reads and samples written; with [`OnError::Skip`](crate::run::OnError::Skip), the inputs
    /// and reads left out.
    pub stats: Stats,
    /// Reads left out with [`Duplicates::KeepFirst`] as a later copy of an id.
    pub duplicates: u64,
}

/// Which input each read id was first seen in, and the policy for a second sighting.
struct Seen<'a, K> {
    first: HashMap<K, usize>,
    inputs: &'a [PathBuf],
    policy: Duplicates,
    skipped: u64,
}

impl<'a, K: std::hash::Hash + Eq> Seen<'a, K> {
    fn new(inputs: &'a [PathBuf], policy: Duplicates) -> Self {
        Seen { first: HashMap::new(), inputs, policy, skipped: 0 }
    }

    /// Whether the read `id` (shown as `shown`) of input `input` is kept: a first sighting
    /// is; a later one is skipped or an error, by the policy.
    fn keep(&mut self, id: K, shown: &str, input: usize) -> Result<bool, ConvertError> {
        match self.first.get(&id) {
            None => {
                self.first.insert(id, input);
                Ok(true)
            }
            Some(_) if self.policy == Duplicates::KeepFirst => {
                self.skipped += 1;
                Ok(false)
            }
            Some(&first) => Err(ConvertError::Mapping(format!(
                "read {shown} is in {} and in {} (--duplicates keep-first keeps the first)",
                self.inputs[first].display(),
                self.inputs[input].display()
            ))),
        }
    }
}

/// Merges POD5 `inputs` into `out` under `options`: every run once, every read (chunks of the
/// output's compression copied as stored), duplicates as `duplicates` says, failures as `how` says (its progress
/// counts inputs done of all inputs).
pub fn merge_pod5(
    inputs: &[PathBuf], out: &Path, options: svb_pod5::WriteOptions, duplicates: Duplicates,
    how: Run<'_>,
) -> Result<Merged, ConvertError> {
    pod5_into_one(inputs, out, options, duplicates, false, how)
}

/// Repacks POD5 `inputs` into one POD5 file `out`: every read's signal decoded and compressed
/// anew under `options` (its zstd profile, its chunk size, VBZ or uncompressed), runs once
/// each; a read id in two inputs is an error naming both. `svb convert x.pod5 -o y.pod5`.
pub(crate) fn pod5_to_pod5(
    inputs: &[PathBuf], out: &Path, options: svb_pod5::WriteOptions, how: Run<'_>,
) -> Result<Stats, ConvertError> {
    pod5_into_one(inputs, out, options, Duplicates::Error, true, how).map(|m| m.stats)
}

fn pod5_into_one(
    inputs: &[PathBuf], out: &Path, options: svb_pod5::WriteOptions, duplicates: Duplicates,
    recompress: bool, mut how: Run<'_>,
) -> Result<Merged, ConvertError> {
    crate::run::check_output(inputs, out)?;
    let mut w = svb_pod5::Writer::create(out, options)?;
    let mut merged = Merged::default();
    let mut seen = Seen::new(inputs, duplicates);
    let on_error = how.on_error;
    // The inputs are opened a group at a time on every core, the next group while the reads
    // of the one before are copied (opening a file, its footer and tables parsed, is most of
    // the work for a file of a few reads). Progress by inputs: their reads are counted only
    // when each is opened.
    let mut groups = inputs.chunks(OPEN_AHEAD).enumerate();
    let mut next = || -> Result<_, ConvertError> {
        Ok(groups.next().map(|(g, paths)| {
            use rayon::prelude::*;
            let opened: Vec<_> = paths
                .par_iter()
                .map(|p| {
                    svb_pod5::Reader::open_with(p, svb_io::Access::ReadAt)
                        .map_err(ConvertError::from)
                })
                .collect();
            (g * OPEN_AHEAD, opened)
        }))
    };
    svb_io::pipeline(&mut next, |(first, opened)| {
        for (k, opened) in (first..).zip(opened) {
            let in_file = ConvertError::of(&inputs[k]);
            let stats = &mut merged.stats;
            if let Some(r) = settle(vec![opened], on_error, &mut stats.failed, &in_file)?.pop() {
                let mut picked = Vec::with_capacity(r.len());
                for (i, read) in r.reads().iter().enumerate() {
                    if seen.keep(read.info.read_id, &read.read_id_string(), k).map_err(&in_file)? {
                        picked.push(i);
                    }
                }
                for window in weighed(&picked, |&i| r.weight(i)) {
                    copy_pod5_reads(&r, window, &mut w, recompress, on_error, stats, &in_file)?;
                }
            }
            how.report(k as u64 + 1, inputs.len() as u64)?;
        }
        Ok(())
    })?;
    w.finish()?;
    merged.duplicates = seen.skipped;
    Ok(merged)
}

/// Inputs opened at a time by a merge (each group while the one before is copied).
const OPEN_AHEAD: usize = 16;

/// Merges BLOW5 or SLOW5 `inputs` into `out` under `options` (BLOW5 with any compression, or
/// SLOW5 text), as slow5tools merge does ([`HeaderRules`]): read groups matched by run id,
/// auxiliary fields the union of the inputs' (or none), every record; duplicates as
/// `duplicates` says, failures as `how` says. Each input is opened twice, one at a time: for
/// its header, then for its records.
pub fn merge_blow5(
    inputs: &[PathBuf], out: &Path, options: svb_blow5::WriteOptions, duplicates: Duplicates,
    rules: HeaderRules, how: Run<'_>,
) -> Result<Merged, ConvertError> {
    merge_blow5_with(inputs, out, |_| options, duplicates, rules, how)
}

/// [`merge_blow5`] under the options `options(first input's header)` gives.
fn merge_blow5_with(
    inputs: &[PathBuf], out: &Path,
    options: impl FnOnce(&svb_blow5::Header) -> svb_blow5::WriteOptions, duplicates: Duplicates,
    rules: HeaderRules, mut how: Run<'_>,
) -> Result<Merged, ConvertError> {
    crate::run::check_output(inputs, out)?;
    let on_error = how.on_error;
    let mut merged = Merged::default();
    // The headers first: a BLOW5 header lists every read group before any record.
    // Each input's header, path, records and position among the inputs.
    // A stream's reader is kept: it cannot be opened again.
    type Opened = (svb_blow5::Header, PathBuf, u64, usize, Option<svb_blow5::Reader>);
    let mut headers: Vec<Opened> = Vec::new();
    for (k, path) in inputs.iter().enumerate() {
        // Positioned reads: records copied as stored are never read into memory.
        let opened = svb_blow5::Reader::open_with(path, svb_io::Access::ReadAt)
            .map(|r| {
                let (h, n) = (r.header().clone(), r.len() as u64);
                (h, path.clone(), n, k, crate::reopen::keep_stream(path, r))
            })
            .map_err(ConvertError::from);
        let in_file = ConvertError::of(path);
        headers.extend(settle(vec![opened], on_error, &mut merged.stats.failed, in_file)?);
    }
    if headers.is_empty() {
        return Err(merged.stats.nothing_opened("merge"));
    }
    let refs: Vec<(&svb_blow5::Header, &Path)> =
        headers.iter().map(|(h, p, ..)| (h, p.as_path())).collect();
    let (schema, group_maps) = crate::blow5_headers::merged_schema(&refs, rules)?;
    let aux = schema.aux.clone();
    let mut w = svb_blow5::Writer::create(out, schema, options(&headers[0].0))?;
    let mut progress =
        crate::windows::Progress { done: 0, total: headers.iter().map(|(_, _, n, ..)| n).sum() };
    let mut seen = Seen::new(inputs, duplicates);
    for ((_, path, _, k, kept), map) in headers.iter().zip(&group_maps) {
        let k = *k;
        let opened = crate::reopen::reopen(kept, path, crate::stored::open_for_copy)
            .map_err(ConvertError::from);
        let in_file = ConvertError::of(path);
        let Some(r) = settle(vec![opened], on_error, &mut merged.stats.failed, in_file)?.pop()
        else {
            continue;
        };
        if crate::stored::keeps_numbers(map) && w.stores_like(r.header()) {
            let (stats, seen) = (&mut merged.stats, &mut seen);
            copy_stored_blow5(&r, path, k, &mut w, seen, &mut progress, &mut how, stats)?;
            continue;
        }
        let convert = |r: &svb_blow5::Reader, i: usize| {
            let mut rec = svb_blow5::Record::default();
            r.record_into(i, &mut rec)?;
            rec.read_group = map[rec.read_group as usize];
            fields_of_schema(&mut rec, &aux);
            Ok(rec)
        };
        let admit =
            |_: &svb_blow5::Reader, rec: svb_blow5::Record| -> crate::windows::AdmitResult<_> {
                Ok(seen.keep(rec.read_id.clone(), &rec.read_id, k)?.then_some(rec))
            };
        let steps = crate::windows::Steps { max_reads: usize::MAX, convert, admit };
        let all: Vec<usize> = (0..r.len()).collect();
        let stats = &mut merged.stats;
        crate::windows::reader_into_sink(
            &*r,
            path,
            &all,
            steps,
            &mut w,
            &mut progress,
            &mut how,
            stats,
        )?;
    }
    w.finish()?;
    merged.duplicates = seen.skipped;
    Ok(merged)
}

/// Copies the records of BLOW5 input `k` (`r`, at `path`) into `w` as they are stored, a
/// window at a time ([`crate::stored::copy_stored_records`]), the first of each read id kept as
/// `seen` says. `w` stores records as `r` does and its read groups index as `r`'s.
#[allow(clippy::too_many_arguments)]
fn copy_stored_blow5(
    r: &svb_blow5::Reader, path: &Path, k: usize, w: &mut svb_blow5::Writer,
    seen: &mut Seen<'_, String>, progress: &mut crate::windows::Progress, how: &mut Run<'_>,
    stats: &mut Stats,
) -> Result<(), ConvertError> {
    let in_file = ConvertError::of(path);
    let indices: Vec<usize> = (0..r.len()).collect();
    for window in weighed(&indices, |&i| r.weight(i)) {
        let keep = |id: &str| seen.keep(id.to_string(), id, k);
        crate::stored::copy_stored_records(
            r,
            window,
            crate::stored::Check::Head,
            w,
            keep,
            how.on_error,
            stats,
            &in_file,
        )?;
        progress.done += window.len() as u64;
        how.report(progress.done, progress.total)?;
    }
    Ok(())
}

/// [`merge_pod5`] or [`merge_blow5`] by the output's extension (`.pod5`, `.blow5`, `.slow5`):
/// POD5 with the default options, BLOW5 with the first input's compression (of the first that
/// opens; slow5tools' zlib and SVB-ZD when it is text), SLOW5 as text; `how.publish` says whether `out` may be replaced and whether it is synced.
pub fn merge(
    inputs: &[PathBuf], out: &Path, duplicates: Duplicates, rules: HeaderRules, how: Run<'_>,
) -> Result<Merged, ConvertError> {
    use svb_model::Format;
    match Format::of_output(out)? {
        Format::Pod5 => {
            let options = svb_pod5::WriteOptions {
                signal_encoding: crate::stored::pod5_copy_encoding(inputs),
                publish: how.publish,
                ..svb_pod5::WriteOptions::default()
            };
            merge_pod5(inputs, out, options, duplicates, how)
        }
        Format::Blow5 | Format::Slow5 => {
            let publish = how.publish;
            let options = |first: &svb_blow5::Header| {
                crate::blow5_headers::blow5_options_like(out, first, publish)
            };
            merge_blow5_with(inputs, out, options, duplicates, rules, how)
        }
        found @ Format::Fast5 => Err(svb_model::OutputFormatError::not_written(out, found).into()),
    }
}
