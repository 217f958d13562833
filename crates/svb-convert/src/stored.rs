//! The stored-copy fast paths: POD5 chunks and BLOW5 records copied as they are stored, where
//! the reader and the writer agree on the wire (checked, never decoded).

use std::path::{Path, PathBuf};

use rayon::prelude::*;
use svb_blow5::{Blow5WriteError, Record};

use crate::error::ConvertError;
use crate::run::{each_written, settle, OnError, Stats};

/// Whether a read-group map (an input's group -> the output's) keeps every number: the
/// condition, with [`svb_blow5::Writer::stores_like`], for copying records as stored.
pub(crate) fn keeps_numbers(map: &[u32]) -> bool {
    map.iter().enumerate().all(|(g, &to)| to as usize == g)
}

/// A BLOW5 input opened for its records' copy: by positioned reads, so that nothing is read
/// whole. An index beside it is not used: what a copy keeps of a record (its id, its read
/// group) is read from the record itself, never taken from a side file that may be stale.
pub(crate) fn open_for_copy(path: &Path) -> Result<svb_blow5::Reader, svb_blow5::Blow5Error> {
    svb_blow5::Reader::open_with(path, svb_io::Access::ReadAt)
}

/// What [`copy_stored_records`] reads of each record it copies as stored.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Check {
    /// Its id and read group, from its first bytes.
    Head,
    /// Its fields, not its signal (subset: a record whose fields are damaged is refused).
    Fields,
    /// The whole record, signal decoded (recover: only records that decode are saved).
    Whole,
}

/// Copies the records `window` of `r` (ascending indices) that `keep` keeps (asked in order,
/// with each one's read id) into `w` as they are stored, as `check` says: with
/// [`Check::Head`] each record's id and read group come from the record's first bytes
/// ([`svb_blow5::Reader::record_head`]), and the samples go uncounted; with [`Check::Fields`] or [`Check::Whole`] each record's fields, or the whole
/// record with its signal, are decoded first (a record that does not decode fails) and its
/// samples counted. The kept records are
/// then copied a run of neighbours at a time ([`svb_blow5::Writer::add_stored_span`]: by the
/// kernel where it can), or one by one where they cannot be (a stream). `w` must store
/// records as `r` does ([`svb_blow5::Writer::stores_like`]) with the same read-group
/// numbering. A record that fails stops the copy, or goes to `stats.failed`, as `on_error`
/// says (named by `in_file`). Returns the ids of the records written.
#[allow(clippy::too_many_arguments)]
pub(crate) fn copy_stored_records(
    r: &svb_blow5::Reader, window: &[usize], check: Check, w: &mut svb_blow5::Writer,
    mut keep: impl FnMut(&str) -> Result<bool, ConvertError>, on_error: OnError, stats: &mut Stats,
    in_file: &impl Fn(ConvertError) -> ConvertError,
) -> Result<Vec<String>, ConvertError> {
    // An object's records of the window, fetched at once as the ranges they are: the heads
    // and the spans below are then read from them (each read alone fetched a megabyte around
    // a head, then the span again).
    svb_model::ReadSource::plan(r, window);
    // Each record's index, id, read group and sample count (where counted).
    type Head = (usize, String, u32, Option<u64>);
    let heads: Vec<Result<Head, ConvertError>> = window
        .par_iter()
        .map(|&i| match check {
            Check::Head => {
                let (id, group) = r.record_head(i)?;
                Ok((i, id, group, None))
            }
            Check::Fields => {
                let mut rec = Record::default();
                let samples = r.fields_into(i, &mut rec)?;
                Ok((i, rec.read_id, rec.read_group, Some(samples)))
            }
            Check::Whole => {
                let rec = r.record(i)?;
                let samples = rec.raw_signal.len() as u64;
                Ok((i, rec.read_id, rec.read_group, Some(samples)))
            }
        })
        .collect();
    let heads = settle(heads, on_error, &mut stats.failed, in_file)?;
    let mut kept = Vec::with_capacity(heads.len());
    for head in heads {
        if keep(&head.1).map_err(in_file)? {
            kept.push(head);
        }
    }
    let mut written = Vec::with_capacity(kept.len());
    let mut rest = &kept[..];
    while let Some(first) = rest.first() {
        // A run of neighbouring records.
        let n = 1 + rest.windows(2).take_while(|p| p[1].0 == p[0].0 + 1).count();
        let (run, after) = rest.split_at(n);
        rest = after;
        let records: Vec<(&str, u32)> = run.iter().map(|(_, id, g, _)| (id.as_str(), *g)).collect();
        let range = first.0..first.0 + n;
        if r.stored_span(range.clone()).is_some() {
            match w.add_stored_span(r, range, &records) {
                Ok(()) => {
                    written.extend(run);
                    continue;
                }
                // A record the output refuses (checked before anything is written): with
                // `OnError::Skip`, the run goes one by one below, each refusal named.
                Err(e) if on_error == OnError::Skip && !matches!(e, Blow5WriteError::Io { .. }) => {
                }
                Err(e) => return Err(in_file(e.into())),
            }
        }
        let stored: Vec<Result<_, ConvertError>> =
            run.par_iter().map(|head| Ok((head, r.stored_record(head.0)?))).collect();
        let ok = settle(stored, on_error, &mut stats.failed, in_file)?;
        let records: Vec<(&str, u32, &[u8])> =
            ok.iter().map(|((_, id, g, _), bytes)| (id.as_str(), *g, bytes.as_slice())).collect();
        let outcome = w.add_stored_records(&records).map_err(|e| in_file(e.into()))?;
        let added = each_written(ok.iter().map(|(head, _)| *head), outcome);
        written.extend(settle(added, on_error, &mut stats.failed, in_file)?);
    }
    stats.reads += written.len() as u64;
    for (.., samples) in &written {
        match samples {
            Some(n) => stats.samples += n,
            None => stats.samples_uncounted += 1,
        }
    }
    Ok(written.into_iter().map(|(_, id, ..)| id.clone()).collect())
}

/// A read's VBZ chunks as stored: (samples, bytes) each.
type StoredChunks = Vec<(u32, Vec<u8>)>;

/// The signal compression of a POD5 copy of `inputs` (subset, merge, split): the first
/// input's where it is PDZ, so that PDZ blocks are copied as stored; VBZ otherwise (an
/// uncompressed input is compressed, as `pod5` copies do). Only a regular file is looked at
/// ahead (its footer and signal schema): a FIFO or a stream can be read once, by the copy
/// itself, and an object store's input costs no extra request; those give VBZ, as does an
/// input whose footer cannot be read (its own open reports it).
pub(crate) fn pod5_copy_encoding(inputs: &[PathBuf]) -> svb_pod5::SignalEncoding {
    let first = inputs.first().filter(|p| std::fs::metadata(p).is_ok_and(|m| m.is_file()));
    match first.map(svb_pod5::Reader::signal_encoding_of) {
        Some(Ok(svb_pod5::SignalEncoding::Pdz)) => svb_pod5::SignalEncoding::Pdz,
        _ => svb_pod5::SignalEncoding::Vbz,
    }
}

/// Copies reads `window` of the POD5 reader `r` into `w` with their runs: chunks of the
/// writer's compression (VBZ or PDZ) as stored (checked as they are added, not
/// recompressed), other signal decoded and compressed on every core; with `recompress` (a
/// repack), every read's signal decoded and compressed anew under the writer's options. A read that fails stops the copy, or goes to
/// `stats.failed` (named by `in_file`), as `on_error` says. Returns the ids written.
pub(crate) fn copy_pod5_reads(
    r: &svb_pod5::Reader, window: &[usize], w: &mut svb_pod5::Writer, recompress: bool,
    on_error: crate::run::OnError, stats: &mut Stats,
    in_file: &impl Fn(ConvertError) -> ConvertError,
) -> Result<Vec<String>, ConvertError> {
    for &i in window {
        let run = r.run_of(i).map_err(|e| in_file(e.into()))?;
        w.add_run_info(run).map_err(|e| in_file(e.into()))?;
    }
    // An object's chunks of the window, fetched at once as the ranges they are (read one by
    // one, each miss fetched at least a megabyte around it).
    svb_model::ReadSource::plan(r, window);
    let mut written = Vec::with_capacity(window.len());
    let encoding = r.signal_encoding();
    if encoding == w.signal_encoding()
        && encoding != svb_pod5::SignalEncoding::Uncompressed
        && !recompress
    {
        let stored: Vec<Result<StoredChunks, svb_pod5::Pod5Error>> = window
            .par_iter()
            .map(|&i| {
                r.chunks(i)?
                    .iter()
                    .enumerate()
                    .map(|(c, info)| Ok((info.samples as u32, r.chunk_bytes(i, c)?)))
                    .collect()
            })
            .collect();
        // The reads whose chunks were read, then all of them checked (on every core) and
        // added at once.
        let fetched = window
            .iter()
            .zip(stored)
            .map(|(&i, chunks)| chunks.map(|c| (i, c)).map_err(ConvertError::from))
            .collect();
        let fetched = settle(fetched, on_error, &mut stats.failed, in_file)?;
        let refs: Vec<svb_pod5::StoredRead<'_>> = fetched
            .iter()
            .map(|(i, chunks)| {
                let chunks = chunks.iter().map(|(n, b)| (*n, b.as_slice())).collect();
                (&r.reads()[*i].info, chunks)
            })
            .collect();
        let outcome = w.add_reads_stored_chunks(&refs).map_err(|e| in_file(e.into()))?;
        let added = crate::run::each_written(refs.iter().map(|(read, _)| *read), outcome);
        for read in settle(added, on_error, &mut stats.failed, in_file)? {
            stats.reads += 1;
            stats.samples += read.num_samples;
            written.push(read.read_id_string());
        }
    } else {
        let decoded: Vec<Result<(&svb_pod5::ReadInfo, Vec<i16>), ConvertError>> =
            window.par_iter().map(|&i| Ok((&r.reads()[i].info, r.decode_signal(i)?))).collect();
        let reads = settle(decoded, on_error, &mut stats.failed, in_file)?;
        w.add_reads(&reads).map_err(|e| in_file(e.into()))?;
        stats.reads += reads.len() as u64;
        stats.samples += reads.iter().map(|(_, s)| s.len() as u64).sum::<u64>();
        written.extend(reads.iter().map(|(read, _)| read.read_id_string()));
    }
    Ok(written)
}
