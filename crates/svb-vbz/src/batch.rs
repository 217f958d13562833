//! Batches of chunks decoded on rayon: a read's chunks (or any list of them) into one output,
//! every chunk its own slice of it, largest tasks first. The POD5 reader's parallel decode
//! and the VBZ / VBZ-K batch decoders share this machinery.

use crate::VbzError;
pub(crate) use svb_io::run_largest_first;
pub use svb_io::Threads;

/// One compressed chunk of a batch and its sample count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Chunk<'a> {
    /// The encoded chunk.
    pub data: &'a [u8],
    /// Its sample count (stored beside it, as POD5's signal table does).
    pub samples: usize,
}

/// Splits `out` into one slice per chunk, checking the total.
pub(crate) fn split_batch<'o, T>(
    chunks: &[Chunk<'_>], mut out: &'o mut [T],
) -> Result<Vec<&'o mut [T]>, VbzError> {
    let needed = chunks.iter().try_fold(0usize, |acc, c| acc.checked_add(c.samples));
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
    move |e| VbzError::Chunk { index, source: Box::new(e) }
}

/// Decodes a batch of plain VBZ chunks into `out` (their samples back to back) with the
/// fused decoder, one chunk per task on rayon. `out.len()` must be the sum of the chunks'
/// samples.
pub fn decode_vbz_batch(
    chunks: &[Chunk<'_>], out: &mut [i16], threads: Threads<'_>,
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
