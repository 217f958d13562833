//! Batches of chunks decoded on rayon: a read's chunks (or any list of them) into one output,
//! every chunk its own slice of it, largest tasks first. The POD5 reader's parallel decode
//! and the VBZ / VBZ-K batch decoders share this machinery.

use crate::VbzError;

/// One compressed chunk of a batch and its sample count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Chunk<'a> {
    /// The encoded chunk.
    pub data: &'a [u8],
    /// Its sample count (stored beside it, as POD5's signal table does).
    pub samples: usize,
}

/// How a batch decode finds its threads: the current rayon pool (the global one unless a
/// pool's `install` is running) or a given pool.
#[derive(Clone, Copy, Debug, Default)]
pub enum Threads<'p> {
    /// The current rayon pool.
    #[default]
    Current,
    /// This pool.
    Pool(&'p rayon::ThreadPool),
}

impl Threads<'_> {
    pub(crate) fn run<R: Send>(self, f: impl FnOnce() -> R + Send) -> R {
        match self {
            Threads::Current => f(),
            Threads::Pool(p) => p.install(f),
        }
    }
}

/// Splits `out` into one slice per chunk, checking the total.
pub(crate) fn split_batch<'o, T>(
    chunks: &[Chunk<'_>],
    mut out: &'o mut [T],
) -> Result<Vec<&'o mut [T]>, VbzError> {
    let needed = chunks
        .iter()
        .try_fold(0usize, |acc, c| acc.checked_add(c.samples));
    if needed != Some(out.len()) {
        return Err(VbzError::OutputLength {
            needed: needed.unwrap_or(usize::MAX),
            len: out.len(),
        });
    }
    let mut parts = Vec::with_capacity(chunks.len());
    for c in chunks {
        let (head, rest) = core::mem::take(&mut out).split_at_mut(c.samples);
        parts.push(head);
        out = rest;
    }
    Ok(parts)
}

pub(crate) fn chunk_error(index: usize) -> impl Fn(VbzError) -> VbzError {
    move |e| VbzError::Chunk {
        index,
        source: Box::new(e),
    }
}

/// Decodes a batch of plain VBZ chunks into `out` (their samples back to back) with the
/// fused decoder, one chunk per task on rayon. `out.len()` must be the sum of the chunks'
/// samples.
pub fn decode_vbz_batch(
    chunks: &[Chunk<'_>],
    out: &mut [i16],
    threads: Threads<'_>,
) -> Result<(), VbzError> {
    let parts = split_batch(chunks, out)?;
    let tasks: Vec<_> = chunks.iter().zip(parts).enumerate().collect();
    threads.run(|| {
        run_largest_first(
            tasks,
            |(index, (c, _))| (c.samples, *index),
            |(index, (c, part))| {
                crate::vbz::decode_vbz_fused_to_slice(c.data, part).map_err(chunk_error(index))
            },
        )
    })
}

/// Runs `work` on every task on the current rayon pool, largest first (`size_and_order`
/// gives a task's size and its place in the batch), each worker taking the next task as it
/// frees up, so unequal tasks still share the cores evenly. Returns the error of the first
/// failing task in batch order, the same on every run.
pub(crate) fn run_largest_first<T: Send, E: Send>(
    mut tasks: Vec<T>,
    size_and_order: impl Fn(&T) -> (usize, usize),
    work: impl Fn(T) -> Result<(), E> + Sync,
) -> Result<(), E> {
    let workers = rayon::current_num_threads().min(tasks.len());
    if workers <= 1 {
        // In batch order, so the first error is the first failing task's.
        return tasks.into_iter().try_for_each(work);
    }
    tasks.sort_by_key(|t| core::cmp::Reverse(size_and_order(t).0));
    let order: Vec<usize> = tasks.iter().map(|t| size_and_order(t).1).collect();
    let queue = std::sync::Mutex::new(tasks.into_iter().zip(order).rev().collect::<Vec<_>>());
    let failed = std::sync::Mutex::new(None::<(usize, E)>);
    rayon::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|_| loop {
                let next = queue.lock().unwrap_or_else(|e| e.into_inner()).pop();
                let Some((task, at)) = next else { break };
                if let Err(e) = work(task) {
                    let mut f = failed.lock().unwrap_or_else(|e| e.into_inner());
                    if f.as_ref().is_none_or(|(first, _)| at < *first) {
                        *f = Some((at, e));
                    }
                }
            });
        }
    });
    match failed.into_inner().unwrap_or_else(|e| e.into_inner()) {
        Some((_, e)) => Err(e),
        None => Ok(()),
    }
}
