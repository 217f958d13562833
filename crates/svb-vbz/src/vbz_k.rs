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

use svb_delta::delta::kchain_len;
use svb_dispatch::uninit;

use crate::batch::{chunk_error, run_largest_first, split_batch, Chunk, Threads};
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
    /// From the sub-stream's first data byte to the end of the stream's data.
    data: &'a [u8],
    /// Data bytes of this sub-stream (between its split points).
    len: usize,
}

impl SubStream<'_> {
    /// Decodes into `out` (`self.samples` long).
    fn decode(&self, out: &mut [MaybeUninit<i16>]) -> Result<(), VbzError> {
        debug_assert_eq!(out.len(), self.samples);
        // The kernel may look past this sub-stream's data (into the next one's, still inside
        // the stream) for whole 16-byte loads; it uses exactly `self.len` bytes or fails.
        let used = fused::best()
            .decode_split_uninit(self.keys, self.data, self.initial, out)
            .map_err(|source| VbzError::SubStream {
                index: self.index,
                first_sample: self.first,
                source,
            })?;
        if used != self.len {
            return Err(VbzError::SubStreamLength {
                index: self.index,
                consumed: used,
                len: self.len,
            });
        }
        Ok(())
    }
}

/// A sub-stream and the part of the output it decodes into.
type Task<'a, 'o> = (SubStream<'a>, &'o mut [MaybeUninit<i16>]);

/// A parsed split stream: the VBZ stream's keys and data, and where the header's split points
/// are. Its sub-streams are validated as they are produced.
struct Layout<'a> {
    keys: &'a [u8],
    body: &'a [u8],
    n: usize,
    sub: usize,
    k: usize,
    /// The `(carry: i16 LE, data_offset: u32 LE)` records of sub-streams `1..k`.
    points: &'a [u8],
}

impl<'a> Layout<'a> {
    /// `svb` is the VBZ stream of `n` samples; `points` holds `k - 1` six-byte split points;
    /// `sub` is the length of every sub-stream but the last. Every data offset must be the
    /// data length the keys give the samples before its split (a sum over the key bytes).
    fn new(svb: &'a [u8], n: usize, sub: usize, points: &'a [u8]) -> Result<Self, VbzError> {
        // Before anyone reserves n samples: the keys and the least data n samples need.
        svb_core::Codec::check_plausible(&svb_core::Svb16, svb, n)?;
        let (keys, body) = fused::split_stream(svb, n)?;
        // The keys give the exact stream length: a stream of another length is truncated or
        // has trailing bytes, refused before any split point is trusted.
        let (full, partial) = (n / 8, n % 8);
        let mut exact = keys.len() + data_len_of(&keys[..full]);
        if partial != 0 {
            exact += partial + (keys[full] & ((1u8 << partial) - 1)).count_ones() as usize;
        }
        if exact != svb.len() {
            return Err(VbzError::LengthMismatch { samples: n, consumed: exact, len: svb.len() });
        }
        let layout = Layout { keys, body, n, sub, k: points.len() / 6 + 1, points };
        let (mut expected, mut g) = (0usize, 0usize);
        for i in 1..layout.k {
            let split_key = i * sub / 8;
            expected += data_len_of(&keys[g..split_key]);
            g = split_key;
            let (_, offset) = layout.point(i);
            if offset as usize != expected {
                return Err(VbzError::BadSplitOffset { index: i, offset: offset.into(), expected });
            }
        }
        Ok(layout)
    }

    /// Split point `i` (1..k): the carry into sub-stream `i` and its data offset.
    fn point(&self, i: usize) -> (i16, u32) {
        let p = &self.points[6 * (i - 1)..6 * i];
        (i16::from_le_bytes([p[0], p[1]]), u32::from_le_bytes([p[2], p[3], p[4], p[5]]))
    }

    /// Every sub-stream, each with its part of `out` (all `n` samples).
    fn tasks<'o>(&self, mut out: &'o mut [MaybeUninit<i16>]) -> Vec<Task<'a, 'o>> {
        let mut tasks = Vec::with_capacity(self.k);
        let (mut start, mut initial) = (0usize, 0i16);
        for index in 0..self.k {
            let first = index * self.sub;
            let samples = if index + 1 < self.k { self.sub } else { self.n - first };
            let (next_initial, end) = if index + 1 < self.k {
                let (carry, offset) = self.point(index + 1);
                (carry, offset as usize)
            } else {
                (0, self.body.len())
            };
            let (head, rest) = core::mem::take(&mut out).split_at_mut(samples);
            out = rest;
            let key_start = first / 8;
            let sub = SubStream {
                index,
                first,
                samples,
                initial,
                keys: &self.keys[key_start..key_start + samples.div_ceil(8)],
                data: &self.body[start..],
                len: end - start,
            };
            tasks.push((sub, head));
            start = end;
            initial = next_initial;
        }
        tasks
    }

    /// Reserves the stream's samples in `out`, lets `fill` write all of them, and keeps them
    /// only when it succeeds and the carries check out.
    fn append(
        &self, out: &mut Vec<i16>,
        fill: impl FnOnce(&Self, &mut [MaybeUninit<i16>]) -> Result<(), VbzError>,
    ) -> Result<(), VbzError> {
        let (len, n) = (out.len(), self.n);
        // SAFETY: when `fill` succeeds every sub-stream wrote all of its samples, and the
        // sub-streams tile the n samples.
        unsafe {
            uninit::append_with(out, n, |spare| {
                fill(self, &mut spare[..n])?;
                Ok::<_, VbzError>(n)
            })?;
        }
        let r = self.check_carries(&out[len..]);
        if r.is_err() {
            out.truncate(len);
        }
        r
    }

    /// Decodes on this thread as one chain (the split points were checked against the keys,
    /// so the sub-streams sit exactly where one pass finds them); allocates nothing.
    fn decode_serial(&self, out: &mut [MaybeUninit<i16>]) -> Result<(), VbzError> {
        let used = fused::best().decode_split_uninit(self.keys, self.body, 0, out)?;
        if used != self.body.len() {
            let last = self.k - 1;
            let start = if last == 0 { 0 } else { self.point(last).1 as usize };
            return Err(VbzError::SubStreamLength {
                index: last,
                consumed: used - start,
                len: self.body.len() - start,
            });
        }
        Ok(())
    }

    /// Checks every split point's carry against the decoded sample before its split.
    fn check_carries(&self, samples: &[i16]) -> Result<(), VbzError> {
        for i in 1..self.k {
            let (carry, _) = self.point(i);
            // A split at 0 (VBZ2 of fewer than 16 samples) follows the initial value 0.
            let decoded = match i * self.sub {
                0 => 0,
                at => samples[at - 1],
            };
            if carry != decoded {
                return Err(VbzError::BadSplitCarry { index: i, carry, decoded });
            }
        }
        Ok(())
    }
}

/// svb16 data bytes of the 8-sample groups of `keys`: 8 + popcount each.
fn data_len_of(keys: &[u8]) -> usize {
    let mut words = keys.chunks_exact(8);
    let mut ones = 0u32;
    for w in &mut words {
        ones += u64::from_le_bytes(w.try_into().expect("8 bytes")).count_ones();
    }
    ones += words.remainder().iter().map(|b| b.count_ones()).sum::<u32>();
    8 * keys.len() + ones as usize
}

/// Parses a VBZ2 stream of `n` samples.
fn vbz2_layout(data: &[u8], n: usize) -> Result<Layout<'_>, VbzError> {
    if data.len() < VBZ2_HEADER_LEN {
        return Err(VbzError::HeaderTruncated {
            format: "VBZ2",
            needed: VBZ2_HEADER_LEN,
            available: data.len(),
        });
    }
    let (points, svb) = data.split_at(VBZ2_HEADER_LEN);
    Layout::new(svb, n, kchain_len(n, 2), points)
}

/// Parses a VBZ-K stream of `n` samples.
fn vbzk_layout(data: &[u8], n: usize) -> Result<Layout<'_>, VbzError> {
    let Some(&k) = data.first() else {
        return Err(VbzError::HeaderTruncated { format: "VBZ-K", needed: 1, available: 0 });
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
    Layout::new(&data[header_len..], n, sub, &data[1..header_len])
}

/// The `(carry, data offset)` of each split of `samples` into chunks of `sub` samples (the
/// last one taking the rest), read from the encoded VBZ stream `svb`.
fn split_points(samples: &[i16], svb: &[u8], sub: usize, k: usize) -> Vec<(i16, u32)> {
    let keys = &svb[..samples.len().div_ceil(8)];
    let mut points = Vec::with_capacity(k.saturating_sub(1));
    let (mut offset, mut g) = (0usize, 0usize);
    for i in 1..k {
        let at = i * sub;
        offset += data_len_of(&keys[g..at / 8]);
        g = at / 8;
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
    vbz2_layout(data, n)?.append(out, Layout::decode_serial)
}

/// Decodes a VBZ2 stream of `n` samples.
pub fn decode_vbz2(data: &[u8], n: usize) -> Result<Vec<i16>, VbzError> {
    crate::filled(|out| decode_vbz2_into(data, n, out))
}

/// Appends the VBZ-K stream of `samples` with `k` sub-streams to `out` (`k` falls back to 1
/// when `(samples.len() / k) & !7` is 0).
///
/// # Panics
/// When `k` is 0 or above [`MAX_K`], or with 2^31 samples or more.
pub fn encode_vbzk_into(samples: &[i16], k: usize, out: &mut Vec<u8>) {
    assert!((1..=MAX_K).contains(&k), "VBZ-K needs 1 <= k <= 255, got {k}");
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
    vbzk_layout(data, n)?.append(out, Layout::decode_serial)
}

/// Decodes a VBZ-K stream of `n` samples on this thread.
pub fn decode_vbzk(data: &[u8], n: usize) -> Result<Vec<i16>, VbzError> {
    crate::filled(|out| decode_vbzk_into(data, n, out))
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
    data: &[u8], n: usize, out: &mut Vec<i16>,
) -> Result<(), VbzError> {
    vbzk_layout(data, n)?.append(out, |layout, spare| {
        let tasks = layout.tasks(spare);
        run_largest_first(tasks, |(s, _)| (s.samples, s.index), |(s, part)| s.decode(part))
    })
}

/// Decodes a VBZ-K stream of `n` samples with its sub-streams in parallel.
pub fn decode_vbzk_parallel(data: &[u8], n: usize) -> Result<Vec<i16>, VbzError> {
    crate::filled(|out| decode_vbzk_parallel_into(data, n, out))
}

/// Chunks per worker from which a VBZ-K batch is decoded one task per chunk.
const CHUNKS_PER_WORKER: usize = 4;

/// Decodes a batch of VBZ-K chunks into `out` (their samples back to back, as a read's
/// chunks are) on rayon, largest tasks first. `out.len()` must be the sum of the chunks'
/// samples. With at least 4 chunks per worker each chunk is one task
/// (header, decode, carry checks while its samples are in cache): the chunks alone share the
/// cores evenly, and a task per sub-stream only added scheduling (a 64-chunk batch of k=2
/// decoded 1.2x faster so here). With fewer, every sub-stream of every chunk is a task. On
/// failure the error names the first failing chunk.
pub fn decode_vbzk_batch(
    chunks: &[Chunk<'_>], out: &mut [i16], threads: Threads<'_>,
) -> Result<(), VbzError> {
    let mut parts = split_batch(chunks, out)?;
    threads.run(|| {
        if chunks.len() < CHUNKS_PER_WORKER * rayon::current_num_threads() {
            return decode_vbzk_sub_streams(chunks, &mut parts);
        }
        let tasks: Vec<_> = chunks.iter().zip(parts).enumerate().collect();
        run_largest_first(
            tasks,
            |(index, (c, _))| (c.samples, *index),
            |(index, (c, part))| decode_vbzk_to_slice(c.data, part).map_err(chunk_error(index)),
        )
    })
}

/// Decodes one VBZ-K chunk of `out.len()` samples on this thread.
fn decode_vbzk_to_slice(data: &[u8], out: &mut [i16]) -> Result<(), VbzError> {
    let layout = vbzk_layout(data, out.len())?;
    // SAFETY: the fused decoder writes only initialised samples.
    layout.decode_serial(unsafe { uninit::as_uninit_mut(&mut *out) })?;
    layout.check_carries(out)
}

/// Decodes a batch with every sub-stream of every chunk one task, after every header is
/// validated; then checks the carries.
fn decode_vbzk_sub_streams(chunks: &[Chunk<'_>], parts: &mut [&mut [i16]]) -> Result<(), VbzError> {
    let layouts = chunks
        .iter()
        .enumerate()
        .map(|(index, c)| vbzk_layout(c.data, c.samples).map_err(chunk_error(index)))
        .collect::<Result<Vec<_>, _>>()?;
    let mut tasks = Vec::with_capacity(chunks.len() * 2);
    for (index, (layout, part)) in layouts.iter().zip(parts.iter_mut()).enumerate() {
        // SAFETY: the fused decoder writes only initialised samples.
        let subs = layout.tasks(unsafe { uninit::as_uninit_mut(part) });
        tasks.extend(subs.into_iter().map(|t| (index, t)));
    }
    run_largest_first(
        tasks,
        |(index, (s, _))| (s.samples, *index),
        |(index, (s, part))| s.decode(part).map_err(chunk_error(index)),
    )?;
    for (index, (layout, part)) in layouts.iter().zip(parts.iter()).enumerate() {
        layout.check_carries(part).map_err(chunk_error(index))?;
    }
    Ok(())
}
