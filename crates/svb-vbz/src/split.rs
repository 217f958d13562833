//! VBZ2 and VBZ-K: the VBZ stream behind a small header of split points, so that its
//! sub-streams decode independently (two interleaved chains, or one per core). Wire in
//! docs/FORMATS.md; layouts of seed 000:
//!
//! - VBZ2: `[mid_carry: i16 LE][mid_data_offset: u32 LE][VBZ stream]`, the split at
//!   `n_half = (n / 2) & !7`.
//! - VBZ-K: `[k: u8][(carry: i16 LE, data_offset: u32 LE) x (k - 1)][VBZ stream]`, sub-stream
//!   `i < k - 1` holding `n_sub = (n / k) & !7` samples and the last one the rest; `k` falls
//!   back to 1 when `n_sub` is 0.
//!
//! A carry is the sample just before its sub-stream; a data offset counts the svb16 data
//! bytes (after the keys) of the samples before it. Every sub-stream must use exactly the
//! data bytes between its split points.

use core::mem::MaybeUninit;

use rayon::prelude::*;
use svb_core::svb16::blocks::data_len;
use svb_delta::delta::kchain_len;

use crate::fused;
use crate::vbz::encode_vbz_into;
use crate::VbzError;

/// Largest `k` of VBZ-K (one header byte).
pub const MAX_K: usize = 255;

/// Bytes of the VBZ2 header.
pub const VBZ2_HEADER_LEN: usize = 6;

/// Bytes of the VBZ-K header with `k` sub-streams.
pub const fn vbzk_header_len(k: usize) -> usize {
    1 + 6 * k.saturating_sub(1)
}

/// One independently decodable piece of a split stream.
#[derive(Clone, Copy, Debug)]
struct SubStream<'a> {
    index: usize,
    first: usize,
    samples: usize,
    initial: i16,
    keys: &'a [u8],
    data: &'a [u8],
}

impl SubStream<'_> {
    /// Decodes into `out` (`self.samples` long).
    fn decode(&self, out: &mut [MaybeUninit<i16>]) -> Result<(), VbzError> {
        debug_assert_eq!(out.len(), self.samples);
        let used =
            (fused::best().decode)(self.keys, self.data, self.initial, out).map_err(|source| {
                VbzError::SubStream {
                    index: self.index,
                    first_sample: self.first,
                    source,
                }
            })?;
        if used != self.data.len() {
            return Err(VbzError::SubStreamLength {
                index: self.index,
                consumed: used,
                len: self.data.len(),
            });
        }
        Ok(())
    }
}

/// A parsed, validated split stream: its sub-streams in order.
struct Layout<'a> {
    subs: Vec<SubStream<'a>>,
}

impl<'a> Layout<'a> {
    /// `points` are the `(carry, data offset)` of sub-streams `1..k`, `sub` the length of
    /// every sub-stream but the last; `svb` is the VBZ stream of `n` samples.
    fn new(
        svb: &'a [u8],
        n: usize,
        sub: usize,
        points: impl ExactSizeIterator<Item = (i16, u32)>,
    ) -> Result<Self, VbzError> {
        // Before anyone reserves n samples: the keys and the least data n samples need.
        svb_core::Codec::check_plausible(&svb_core::Svb16, svb, n)?;
        let (keys, body) = fused::split_stream(svb, n)?;
        let k = points.len() + 1;
        let mut subs = Vec::with_capacity(k);
        let (mut start, mut initial) = (0usize, 0i16);
        let mut bounds = points.map(|(c, o)| (c, o as u64)).enumerate();
        for index in 0..k {
            let first = index * sub;
            let samples = if index + 1 < k { sub } else { n - first };
            let (next_initial, end) = match bounds.next() {
                Some((i, (carry, off))) => {
                    if off < start as u64 || off > body.len() as u64 {
                        return Err(VbzError::BadSplitOffset {
                            index: i + 1,
                            offset: off,
                            min: start,
                            max: body.len(),
                        });
                    }
                    (carry, off as usize)
                }
                None => (0, body.len()),
            };
            let key_start = first / 8;
            subs.push(SubStream {
                index,
                first,
                samples,
                initial,
                keys: &keys[key_start..key_start + samples.div_ceil(8)],
                data: &body[start..end],
            });
            start = end;
            initial = next_initial;
        }
        Ok(Layout { subs })
    }

    /// Splits `out` (all `n` samples) into one slice per sub-stream.
    fn split_out<'o>(
        &self,
        mut out: &'o mut [MaybeUninit<i16>],
    ) -> Vec<&'o mut [MaybeUninit<i16>]> {
        let mut parts = Vec::with_capacity(self.subs.len());
        for s in &self.subs {
            let (head, rest) = core::mem::take(&mut out).split_at_mut(s.samples);
            parts.push(head);
            out = rest;
        }
        parts
    }

    fn decode_serial(&self, out: &mut [MaybeUninit<i16>]) -> Result<(), VbzError> {
        for (s, part) in self.subs.iter().zip(self.split_out(out)) {
            s.decode(part)?;
        }
        Ok(())
    }
}

/// Parses a VBZ2 stream of `n` samples.
fn vbz2_layout(data: &[u8], n: usize) -> Result<Layout<'_>, VbzError> {
    let Some((header, svb)) = data.split_first_chunk::<VBZ2_HEADER_LEN>() else {
        return Err(VbzError::HeaderTruncated {
            format: "VBZ2",
            needed: VBZ2_HEADER_LEN,
            available: data.len(),
        });
    };
    let carry = i16::from_le_bytes([header[0], header[1]]);
    let offset = u32::from_le_bytes([header[2], header[3], header[4], header[5]]);
    Layout::new(svb, n, kchain_len(n, 2), core::iter::once((carry, offset)))
}

/// Parses a VBZ-K stream of `n` samples.
fn vbzk_layout(data: &[u8], n: usize) -> Result<Layout<'_>, VbzError> {
    let Some(&k) = data.first() else {
        return Err(VbzError::HeaderTruncated {
            format: "VBZ-K",
            needed: 1,
            available: 0,
        });
    };
    let k = k as usize;
    let sub = kchain_len(n, k);
    if k == 0 || (k > 1 && sub == 0) {
        return Err(VbzError::BadSubStreamCount { k, samples: n });
    }
    let header_len = vbzk_header_len(k);
    if data.len() < header_len {
        return Err(VbzError::HeaderTruncated {
            format: "VBZ-K",
            needed: header_len,
            available: data.len(),
        });
    }
    let points = data[1..header_len].chunks_exact(6).map(|p| {
        (
            i16::from_le_bytes([p[0], p[1]]),
            u32::from_le_bytes([p[2], p[3], p[4], p[5]]),
        )
    });
    Layout::new(&data[header_len..], n, sub, points)
}

/// The `(carry, data offset)` of each split of `samples` into chunks of `sub` samples (the
/// last one taking the rest), read from the encoded VBZ stream `svb`.
fn split_points(samples: &[i16], svb: &[u8], sub: usize, k: usize) -> Vec<(i16, u32)> {
    let keys = &svb[..samples.len().div_ceil(8)];
    let mut points = Vec::with_capacity(k.saturating_sub(1));
    let (mut offset, mut g) = (0usize, 0usize);
    for i in 1..k {
        let at = i * sub;
        while g < at / 8 {
            offset += data_len(keys[g]);
            g += 1;
        }
        // The data of n samples is at most 2n bytes: fits in u32 for any n below 2^31.
        let offset =
            u32::try_from(offset).expect("VBZ2/VBZ-K streams hold fewer than 2^31 samples");
        points.push((samples[at - 1], offset));
    }
    points
}

/// Appends the VBZ2 stream of `samples` to `out`.
///
/// # Panics
/// With 2^31 samples or more (the data offset is a u32).
pub fn encode_vbz2_into(samples: &[i16], out: &mut Vec<u8>) {
    let start = out.len();
    out.extend_from_slice(&[0; VBZ2_HEADER_LEN]);
    encode_vbz_into(samples, out);
    let sub = kchain_len(samples.len(), 2);
    let (carry, offset) = if sub == 0 {
        (0, 0)
    } else {
        split_points(samples, &out[start + VBZ2_HEADER_LEN..], sub, 2)[0]
    };
    out[start..start + 2].copy_from_slice(&carry.to_le_bytes());
    out[start + 2..start + 6].copy_from_slice(&offset.to_le_bytes());
}

/// The VBZ2 stream of `samples`: a 6-byte header of the midpoint carry and data offset,
/// then the VBZ stream.
///
/// ```
/// let signal: Vec<i16> = (0..5000).map(|i| ((i * 7) % 300) as i16 - 150).collect();
/// let v = svb_vbz::encode_vbz2(&signal);
/// assert_eq!(v.len(), 6 + svb_vbz::encode_vbz(&signal).len());
/// assert_eq!(svb_vbz::decode_vbz2(&v, signal.len())?, signal);
/// # Ok::<(), svb_vbz::VbzError>(())
/// ```
pub fn encode_vbz2(samples: &[i16]) -> Vec<u8> {
    let mut out = Vec::new();
    encode_vbz2_into(samples, &mut out);
    out
}

/// Decodes a VBZ2 stream of `n` samples (both halves with the fused decoder), appending
/// them to `out`. The header and the keys are validated before `out` grows.
pub fn decode_vbz2_into(data: &[u8], n: usize, out: &mut Vec<i16>) -> Result<(), VbzError> {
    let layout = vbz2_layout(data, n)?;
    append_with(out, n, |spare| layout.decode_serial(spare))
}

/// Decodes a VBZ2 stream of `n` samples.
pub fn decode_vbz2(data: &[u8], n: usize) -> Result<Vec<i16>, VbzError> {
    let mut out = Vec::new();
    decode_vbz2_into(data, n, &mut out)?;
    Ok(out)
}

/// Appends the VBZ-K stream of `samples` with `k` sub-streams to `out` (`k` falls back to 1
/// when `(samples.len() / k) & !7` is 0).
///
/// # Panics
/// When `k` is 0 or above [`MAX_K`], or with 2^31 samples or more.
pub fn encode_vbzk_into(samples: &[i16], k: usize, out: &mut Vec<u8>) {
    assert!(
        (1..=MAX_K).contains(&k),
        "VBZ-K needs 1 <= k <= 255, got {k}"
    );
    let sub = kchain_len(samples.len(), k);
    let k = if sub == 0 { 1 } else { k };
    let start = out.len();
    let header_len = vbzk_header_len(k);
    out.resize(start + header_len, 0);
    out[start] = k as u8;
    encode_vbz_into(samples, out);
    let points = split_points(samples, &out[start + header_len..], sub, k);
    for (i, (carry, offset)) in points.into_iter().enumerate() {
        let at = start + 1 + 6 * i;
        out[at..at + 2].copy_from_slice(&carry.to_le_bytes());
        out[at + 2..at + 6].copy_from_slice(&offset.to_le_bytes());
    }
}

/// The VBZ-K stream of `samples` with `k` independently decodable sub-streams.
///
/// ```
/// let signal: Vec<i16> = (0..8192).map(|i| ((i * 13) % 500) as i16 - 250).collect();
/// let v = svb_vbz::encode_vbzk(&signal, 4);
/// assert_eq!(v[0], 4);
/// assert_eq!(svb_vbz::decode_vbzk(&v, signal.len())?, signal);
/// assert_eq!(svb_vbz::decode_vbzk_parallel(&v, signal.len())?, signal);
/// # Ok::<(), svb_vbz::VbzError>(())
/// ```
///
/// # Panics
/// When `k` is 0 or above [`MAX_K`], or with 2^31 samples or more.
pub fn encode_vbzk(samples: &[i16], k: usize) -> Vec<u8> {
    let mut out = Vec::new();
    encode_vbzk_into(samples, k, &mut out);
    out
}

/// Decodes a VBZ-K stream of `n` samples on this thread, sub-stream after sub-stream,
/// appending them to `out`. The header and the keys are validated before `out` grows.
pub fn decode_vbzk_into(data: &[u8], n: usize, out: &mut Vec<i16>) -> Result<(), VbzError> {
    let layout = vbzk_layout(data, n)?;
    append_with(out, n, |spare| layout.decode_serial(spare))
}

/// Decodes a VBZ-K stream of `n` samples on this thread.
pub fn decode_vbzk(data: &[u8], n: usize) -> Result<Vec<i16>, VbzError> {
    let mut out = Vec::new();
    decode_vbzk_into(data, n, &mut out)?;
    Ok(out)
}

/// Decodes a VBZ-K stream of `n` samples with its sub-streams in parallel on the current
/// rayon pool (the global one, or the pool whose `install` runs this call; no thread is
/// spawned per call), appending them to `out`. On failure the error names the first failing
/// sub-stream, as the serial decoder's does.
///
/// ```
/// let signal: Vec<i16> = (0..20_000).map(|i| (i % 700) as i16).collect();
/// let v = svb_vbz::encode_vbzk(&signal, 2);
/// let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
/// let mut out = Vec::new();
/// pool.install(|| svb_vbz::decode_vbzk_parallel_into(&v, signal.len(), &mut out))?;
/// assert_eq!(out, signal);
/// # Ok::<(), svb_vbz::VbzError>(())
/// ```
pub fn decode_vbzk_parallel_into(
    data: &[u8],
    n: usize,
    out: &mut Vec<i16>,
) -> Result<(), VbzError> {
    let layout = vbzk_layout(data, n)?;
    append_with(out, n, |spare| {
        let parts = layout.split_out(spare);
        layout
            .subs
            .par_iter()
            .zip(parts)
            .map(|(s, part)| s.decode(part))
            .collect::<Vec<_>>()
            .into_iter()
            .collect()
    })
}

/// Decodes a VBZ-K stream of `n` samples with its sub-streams in parallel.
pub fn decode_vbzk_parallel(data: &[u8], n: usize) -> Result<Vec<i16>, VbzError> {
    let mut out = Vec::new();
    decode_vbzk_parallel_into(data, n, &mut out)?;
    Ok(out)
}

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

/// Decodes a batch of VBZ-K chunks into `out` (their samples back to back, as a read's
/// chunks are), every sub-stream of every chunk one task on rayon. `out.len()` must be the
/// sum of the chunks' samples. Every header is validated before any decoding starts.
pub fn decode_vbzk_batch(
    chunks: &[Chunk<'_>],
    out: &mut [i16],
    threads: Threads<'_>,
) -> Result<(), VbzError> {
    let parts = split_batch(chunks, out)?;
    let mut tasks = Vec::with_capacity(chunks.len() * 2);
    for (index, (c, part)) in chunks.iter().zip(parts).enumerate() {
        let layout = vbzk_layout(c.data, c.samples).map_err(chunk_error(index))?;
        let sub_parts = layout.split_out(fused::as_uninit(part));
        tasks.extend(layout.subs.into_iter().zip(sub_parts).map(|t| (index, t)));
    }
    threads.run(|| {
        tasks
            .into_par_iter()
            .map(|(index, (s, part))| s.decode(part).map_err(chunk_error(index)))
            .collect::<Vec<_>>()
            .into_iter()
            .collect()
    })
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
    threads.run(|| {
        chunks
            .par_iter()
            .zip(parts)
            .enumerate()
            .map(|(index, (c, part))| {
                crate::vbz::decode_vbz_fused_to_slice(c.data, part).map_err(chunk_error(index))
            })
            // In order, so the error named is the first failing chunk's on every run.
            .collect::<Vec<_>>()
            .into_iter()
            .collect()
    })
}

/// Reserves `n` samples in `out`, lets `fill` write all of them, and commits them only when
/// it succeeds.
fn append_with(
    out: &mut Vec<i16>,
    n: usize,
    fill: impl FnOnce(&mut [MaybeUninit<i16>]) -> Result<(), VbzError>,
) -> Result<(), VbzError> {
    out.reserve(n);
    let len = out.len();
    fill(&mut out.spare_capacity_mut()[..n])?;
    // SAFETY: `fill` succeeded, so every sub-stream wrote all of its samples and the
    // sub-streams tile the n reserved samples.
    unsafe { out.set_len(len + n) };
    Ok(())
}
