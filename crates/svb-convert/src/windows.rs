//! The one loop that writes reads converted from inputs of any format into an output of any
//! format: windows of reads mapped on every core, each window added to the output's
//! [`ReadSink`] while the next one is mapped ([`reader_into_sink`] for one open input,
//! [`into_sink`] for every picked read of many).

use std::path::Path;

use rayon::prelude::*;
use svb_model::ont::{OntRead, OntSource};
use svb_model::{ReadSink, ReadSource};

use crate::error::ConvertError;
use crate::run::settle;
use crate::run::Looked;
use crate::run::{OnError, Run, Stats};

/// The inputs looked at (a bounded number kept open: the others are opened again when their
/// turn comes), each with the indices of its reads to convert (all of them, or those picked).
pub(crate) type Picked<R> = Vec<(Looked<R>, Vec<usize>)>;

/// Reads mapped at once where FAST5 is read or written (at most; and at most
/// [`WINDOW_SAMPLES`](crate::run::WINDOW_SAMPLES) samples as their readers weigh them), as the
/// FAST5 conversions had it before their loops were one.
pub(crate) const FAST5_WINDOW_READS: usize = 64;

/// Reads copied or decoded at once by the operations that take them a window at a time
/// (subset, merge, split, recover), at most; and at most
/// [`WINDOW_SAMPLES`](crate::run::WINDOW_SAMPLES) samples as their readers weigh them
/// ([`weighed`]).
pub(crate) const WINDOW_READS: usize = 256;

/// `items` in windows of at most [`WINDOW_READS`] items and about
/// [`WINDOW_SAMPLES`](crate::run::WINDOW_SAMPLES) samples as `weight` weighs each (one item at
/// least): what an operation copies or decodes at once, so that its memory follows the
/// samples and not the number of reads (256 reads of 2 million samples would be 1 GB).
pub(crate) fn weighed<T>(items: &[T], weight: impl Fn(&T) -> u64) -> impl Iterator<Item = &[T]> {
    let cuts = svb_io::windows(items.len(), WINDOW_READS, crate::run::WINDOW_SAMPLES, |k| {
        weight(&items[k])
    });
    cuts.into_iter().map(move |w| &items[w])
}

/// Every read of each input.
pub(crate) fn all_reads<R>(looked: Vec<Looked<R>>) -> Picked<R> {
    looked
        .into_iter()
        .map(|l| {
            let all = (0..l.reads).collect();
            (l, all)
        })
        .collect()
}

/// Where an operation is: reads done of `total` (the progress reported to its [`Run`]).
#[derive(Clone, Copy, Default)]
pub(crate) struct Progress {
    pub(crate) done: u64,
    pub(crate) total: u64,
}

/// How one input's reads are written: mapped on every core by `convert(reader, index)`, then
/// in read order `admit(reader, mapped)` gives the read to add (`None`: left out; what must be
/// decided in order, e.g. the first of a read id or a run's first read).
pub(crate) struct Steps<C, A> {
    /// At most this many reads in a window.
    pub(crate) max_reads: usize,
    pub(crate) convert: C,
    pub(crate) admit: A,
}

/// Steps that add every read `convert` makes, windows bounded by samples only.
pub(crate) fn every_read<R, C, T>(convert: C) -> Steps<C, impl FnMut(&R, T) -> AdmitResult<T>> {
    Steps { max_reads: usize::MAX, convert, admit: |_: &R, read| Ok(Some(read)) }
}

/// Steps that add every read `convert` makes, [`FAST5_WINDOW_READS`] at most in a window:
/// the steps of a conversion that reads or writes FAST5.
pub(crate) fn fast5_steps<R, C, T>(convert: C) -> Steps<C, impl FnMut(&R, T) -> AdmitResult<T>> {
    Steps { max_reads: FAST5_WINDOW_READS, ..every_read(convert) }
}

/// Steps that write the model's reads of an [`OntSource`] (`max_reads` at most in a window):
/// each read mapped on every core ([`OntSource::map_read`]), then admitted in order with the
/// runs seen over every input ([`OntSource::admit`]).
#[allow(clippy::type_complexity)] // the two steps' closures, as Steps names them
pub(crate) fn ont_steps<R>(
    max_reads: usize,
) -> Steps<
    impl Fn(usize, &R, usize) -> Result<R::Mapped, ConvertError> + Sync,
    impl FnMut(&R, R::Mapped) -> AdmitResult<OntRead> + Send,
>
where
    R: OntSource + Sync,
    ConvertError: From<R::Error>,
{
    let mut runs = R::Runs::default();
    Steps {
        max_reads,
        convert: |_: usize, r: &R, i: usize| Ok(r.map_read(i)?),
        admit: move |r: &R, mapped| Ok(Some(r.admit(&mut runs, mapped)?)),
    }
}

/// [`ont_steps`] of an operation that changes the samples (`edit`, on every core, as each read
/// is mapped) and checks each admitted read (`check`, in order): a read that fails the check
/// stops the operation, or with [`OnError::Skip`] is left out, its error (naming its file)
/// put in `failed`.
#[allow(clippy::type_complexity)] // the two steps' closures, as Steps names them
pub(crate) fn ont_steps_editing<'a, R>(
    max_reads: usize, edit: impl Fn(&mut [i16]) + Sync + 'a,
    mut check: impl FnMut(&OntRead) -> Result<(), ConvertError> + Send + 'a, on_error: OnError,
    failed: &'a mut Vec<ConvertError>,
) -> Steps<
    impl Fn(usize, &R, usize) -> Result<R::Mapped, ConvertError> + Sync + 'a,
    impl FnMut(&R, R::Mapped) -> AdmitResult<OntRead> + Send + 'a,
>
where
    R: OntSource + Sync + 'a,
    R::Runs: 'a,
    ConvertError: From<R::Error>,
{
    let mut runs = R::Runs::default();
    Steps {
        max_reads,
        convert: move |_: usize, r: &R, i: usize| {
            let mut mapped = r.map_read(i)?;
            edit(R::samples_mut(&mut mapped));
            Ok(mapped)
        },
        admit: move |r: &R, mapped| {
            let read = r.admit(&mut runs, mapped)?;
            match check(&read) {
                Ok(()) => Ok(Some(read)),
                Err(e) if on_error == OnError::Skip => {
                    failed.push(ConvertError::of(r.path())(e));
                    Ok(None)
                }
                Err(e) => Err(e),
            }
        },
    }
}

/// What `admit` gives: the read to add, or `None`.
pub(crate) type AdmitResult<T> = Result<Option<T>, ConvertError>;

/// Writes reads `indices` of the open input `r` (at `path`) into `sink` a window at a time,
/// cut by the readers' weights: each window mapped on every core while the one before it is
/// admitted and added in read order. A read that fails to map stops it, or goes to the
/// stats' `failed`, as `how` says; the reads and samples added are counted in `stats`, the
/// progress advanced and reported to `how` after each window. `sink` is left to be finished.
#[allow(clippy::too_many_arguments)] // one input's parts, each used once
pub(crate) fn reader_into_sink<R, T, W>(
    r: &R, path: &Path, indices: &[usize],
    steps: Steps<
        impl Fn(&R, usize) -> Result<T, ConvertError> + Sync,
        impl FnMut(&R, T) -> AdmitResult<W::Read> + Send,
    >,
    sink: &mut W, progress: &mut Progress, how: &mut Run<'_>, stats: &mut Stats,
) -> Result<(), ConvertError>
where
    R: ReadSource + Sync,
    T: Send,
    W: ReadSink + Send,
    ConvertError: From<W::Error>,
{
    let in_file = ConvertError::of(path);
    let Steps { max_reads, convert, mut admit } = steps;
    let weight = |k: usize| r.weight(indices[k]);
    let mut windows = svb_io::windows(indices.len(), max_reads, crate::run::WINDOW_SAMPLES, weight)
        .into_iter()
        .map(|w| &indices[w]);
    let mut next = || -> Result<_, ConvertError> {
        Ok(windows.next().map(|window| {
            let mapped: Vec<Result<T, ConvertError>> =
                window.par_iter().map(|&i| convert(r, i)).collect();
            (window.len(), mapped)
        }))
    };
    let on_error = how.on_error;
    svb_io::pipeline(&mut next, |(len, mapped)| {
        progress.done += len as u64;
        let mapped = settle(mapped, on_error, &mut stats.failed, &in_file)?;
        let mut reads = Vec::with_capacity(mapped.len());
        for m in mapped {
            reads.extend(admit(r, m).map_err(&in_file)?);
        }
        if on_error == OnError::Skip {
            // A read the output cannot hold is named and left out.
            reads.retain(|read| match sink.check(read) {
                Ok(()) => true,
                Err(e) => {
                    stats.failed.push(in_file(ConvertError::from(e)));
                    false
                }
            });
        }
        stats.reads += reads.len() as u64;
        stats.samples += reads.iter().map(W::samples).sum::<u64>();
        sink.add_reads(reads).map_err(|e| in_file(ConvertError::from(e)))?;
        how.report(progress.done, progress.total)?;
        Ok(())
    })
}

/// [`reader_into_sink`] for the picked reads of every input (each opened again by `open`
/// unless kept; one that no longer opens stops it, or is left out, as `how` says), `convert`
/// told the input's position among `readers`; the progress counted over all of them.
pub(crate) fn into_sink<R, E, T, W>(
    readers: &Picked<R>, open: impl Fn(&Path) -> Result<R, E>, mut stats: Stats, mut how: Run<'_>,
    steps: Steps<
        impl Fn(usize, &R, usize) -> Result<T, ConvertError> + Sync,
        impl FnMut(&R, T) -> AdmitResult<W::Read> + Send,
    >,
    sink: &mut W,
) -> Result<Stats, ConvertError>
where
    R: ReadSource + Sync,
    E: Into<ConvertError>,
    T: Send,
    W: ReadSink + Send,
    ConvertError: From<W::Error>,
{
    let mut progress =
        Progress { done: 0, total: readers.iter().map(|(_, keep)| keep.len() as u64).sum() };
    let Steps { max_reads, convert, mut admit } = steps;
    for (k, (looked, keep)) in readers.iter().enumerate() {
        let Some(r) = looked.reopen(&open, how.on_error, &mut stats.failed)? else {
            progress.done += keep.len() as u64;
            continue;
        };
        let steps = Steps { max_reads, convert: |r: &R, i| convert(k, r, i), admit: &mut admit };
        let (path, stats) = (&looked.path, &mut stats);
        reader_into_sink(&*r, path, keep, steps, sink, &mut progress, &mut how, stats)?;
    }
    Ok(stats)
}
