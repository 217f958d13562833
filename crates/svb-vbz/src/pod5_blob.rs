//! The POD5 signal wire: one zstd level-1 frame of the VBZ stream, no size header; the
//! sample count comes from the POD5 signal table's `samples` column. Byte-compatible with
//! ONT's lib_pod5 (`compress_signal` reproduces its bytes: libzstd 1.5.7, level 1).
//!
//! Decompression reuses one zstd context and one scratch buffer per thread, refuses a frame
//! whose declared size exceeds what `n` samples can need before allocating anything, and
//! requires the svb16 stream to use exactly the decompressed bytes. Zero samples may be
//! stored as an empty blob or as an empty zstd frame; both decode.

use std::cell::RefCell;

pub use svb_io::zstd_frame::Profile as ZstdProfile;

use crate::vbz::{decode_vbz_fused_to_slice, encode_vbz_into, max_encoded_len};
use crate::{zstd_io, VbzError};

/// zstd level of POD5's VBZ.
pub const ZSTD_LEVEL: i32 = 1;

thread_local! {
    static SCRATCH: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// Appends the POD5 blob of `samples` to `out`.
pub fn compress_signal_into(samples: &[i16], out: &mut Vec<u8>) {
    compress_signal_with_into(samples, ZstdProfile::Standard, out);
}

/// Appends the POD5 blob of `samples` under a zstd `profile` to `out`:
/// [`ZstdProfile::Standard`] writes lib_pod5's bytes, [`ZstdProfile::DecodeFast`] a frame of
/// raw literals that every POD5 reader decodes, faster, at some cost in size.
///
/// ```
/// use svb_vbz::pod5_blob::ZstdProfile;
/// let signal: Vec<i16> = (0..20_000).map(|i| 450 + ((i * 7919) % 23) as i16).collect();
/// let mut fast = Vec::new();
/// svb_vbz::pod5_blob::compress_signal_with_into(&signal, ZstdProfile::DecodeFast, &mut fast);
/// assert_eq!(svb_vbz::pod5_blob::decompress_signal_to_vec(&fast, signal.len())?, signal);
/// # Ok::<(), svb_vbz::VbzError>(())
/// ```
pub fn compress_signal_with_into(samples: &[i16], profile: ZstdProfile, out: &mut Vec<u8>) {
    svb_io::with_scratch(&SCRATCH, |vbz| {
        vbz.clear();
        encode_vbz_into(samples, vbz);
        zstd_io::compress_with_into(ZSTD_LEVEL, profile, vbz, out)
            .expect("zstd level 1 compresses any input");
    });
}

/// The POD5 blob of `samples` (what lib_pod5's `compress_signal` writes).
pub fn compress_signal(samples: &[i16]) -> Vec<u8> {
    let mut out = Vec::new();
    compress_signal_into(samples, &mut out);
    out
}

/// Validates the frame header against `n` samples before anything is allocated; returns the
/// declared content size.
fn check_frame(blob: &[u8], n: usize) -> Result<usize, VbzError> {
    let min = svb_core::Codec::min_encoded_len(&svb_core::Svb16, n);
    zstd_io::checked_content_size(blob, min, max_encoded_len(n), n)
}

/// Checks, without decompressing it, that `blob` can be a POD5 chunk of `n` samples: one
/// whole zstd frame (its block headers lead exactly to the blob's end) whose header declares
/// a size that `n` samples of VBZ can have. What a copy of stored chunks into another file
/// checks; only decoding (e.g. [`decompress_signal`]) proves the samples.
///
/// ```
/// let signal: Vec<i16> = (0..5000).map(|i| (i % 77) as i16).collect();
/// let blob = svb_vbz::pod5_blob::compress_signal(&signal);
/// assert!(svb_vbz::pod5_blob::check_signal(&blob, 5000).is_ok());
/// assert!(svb_vbz::pod5_blob::check_signal(&blob[..blob.len() - 1], 5000).is_err());
/// assert!(svb_vbz::pod5_blob::check_signal(&blob, 50_000).is_err());
/// ```
pub fn check_signal(blob: &[u8], n: usize) -> Result<(), VbzError> {
    if blob.is_empty() && n == 0 {
        return Ok(());
    }
    check_frame(blob, n)?;
    svb_io::zstd_frame::check_whole(blob)?;
    Ok(())
}

/// Decompresses a POD5 blob into `out`, which must have the chunk's sample count.
pub fn decompress_signal(blob: &[u8], out: &mut [i16]) -> Result<(), VbzError> {
    let n = out.len();
    if blob.is_empty() && n == 0 {
        return Ok(());
    }
    let declared = check_frame(blob, n)?;
    svb_io::with_scratch(&SCRATCH, |vbz| {
        zstd_io::decompress_into(blob, declared, vbz)?;
        decode_vbz_fused_to_slice(vbz, out)
    })
}

/// Decompresses a POD5 blob of `n` samples, appending them to `out`. The frame header is
/// checked against `n` first, and `out` grows only once zstd has produced a stream that can
/// hold `n` samples (a header that lies about the size fails before they are allocated);
/// `out` is left as it was on an error.
pub fn decompress_signal_into(blob: &[u8], n: usize, out: &mut Vec<i16>) -> Result<(), VbzError> {
    if blob.is_empty() && n == 0 {
        return Ok(());
    }
    let declared = check_frame(blob, n)?;
    svb_io::with_scratch(&SCRATCH, |vbz| {
        zstd_io::decompress_into(blob, declared, vbz)?;
        // At least one byte a sample is there: the n samples are justified.
        crate::vbz::decode_vbz_fused_from_into(vbz, n, 0, out)
    })
}

/// Decompresses a POD5 blob of `n` samples into a new vector.
pub fn decompress_signal_to_vec(blob: &[u8], n: usize) -> Result<Vec<i16>, VbzError> {
    crate::filled(|out| decompress_signal_into(blob, n, out))
}

/// Decompresses a batch of POD5 blobs into `out` (their samples back to back, as a read's
/// chunks are), one blob per task on rayon (each worker reuses its own zstd context and
/// scratch). `out.len()` must be the sum of the chunks' samples; a failing chunk is named
/// by its index.
///
/// ```
/// use svb_vbz::{pod5_blob, Chunk, Threads};
/// let a: Vec<i16> = (0..3000).map(|i| (i % 90) as i16).collect();
/// let b: Vec<i16> = (0..500).map(|i| 400 - i as i16).collect();
/// let (ba, bb) = (svb_vbz::pod5_blob::compress_signal(&a), svb_vbz::pod5_blob::compress_signal(&b));
/// let chunks = [Chunk { data: &ba, samples: a.len() }, Chunk { data: &bb, samples: b.len() }];
/// let mut out = vec![0i16; a.len() + b.len()];
/// svb_vbz::pod5_blob::decompress_batch(&chunks, &mut out, Threads::Current)?;
/// assert_eq!(out, [a, b].concat());
/// # Ok::<(), svb_vbz::VbzError>(())
/// ```
pub fn decompress_batch(
    chunks: &[crate::Chunk<'_>], out: &mut [i16], threads: crate::Threads<'_>,
) -> Result<(), VbzError> {
    let parts = crate::batch::split_batch(chunks, out)?;
    let tasks: Vec<_> = chunks.iter().zip(parts).enumerate().collect();
    threads.run(|| {
        crate::batch::run_largest_first(
            tasks,
            |(index, (c, _))| (c.samples, *index),
            |(index, (c, part))| {
                decompress_signal(c.data, part).map_err(crate::batch::chunk_error(index))
            },
        )
    })
}
