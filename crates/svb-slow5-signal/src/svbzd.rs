//! SVB-ZD, slow5lib's first signal codec: the i16 samples widened to i32, delta-coded from
//! 0 (or a caller's initial value), zigzagged to u32 and packed with StreamVByte-1234
//! ([`U32Classic`]). Because the deltas are taken in 32 bits, a jump of more than 32767
//! stays exact (as a 3-byte value).
//!
//! The bare stream has no header (the seed 000 API takes the count `n`); inside a BLOW5
//! record slow5lib stores [`encode_blob`]: a u32 LE sample count, then the stream. Our
//! [`decode_blob`] checks that count against the blob's size before allocating (slow5lib
//! allocates `4 * count` bytes first).

use core::mem::MaybeUninit;

use svb_core::{Codec, I16ZigzagDelta32, U32Classic, ZigzagDelta32Kernels};
use svb_delta::zigzag::Zigzag;
use svb_dispatch::{uninit, Isa};

use crate::SignalError;

const CODEC: &str = "svb-zd";

/// Bytes of the sample count in front of a slow5lib blob.
pub const BLOB_HEADER_LEN: usize = 4;

fn stream_error(source: svb_core::DecodeError) -> SignalError {
    SignalError::StreamVByte { codec: CODEC, source }
}

/// Appends the SVB-ZD stream of `samples` (no header) to `out`.
pub fn encode_svbzd_into(samples: &[i16], out: &mut Vec<u8>) {
    svb_io::with_scratch(&CODES, |codes| {
        codes.clear();
        let mut prev = 0i32;
        codes.extend(samples.iter().map(|&s| {
            let d = s as i32 - prev;
            prev = s as i32;
            d.zigzag()
        }));
        U32Classic.encode_into(codes, out);
    })
}

/// Largest SVB-ZD stream of `n` samples (no header).
pub fn max_encoded_len(n: usize) -> usize {
    U32Classic.max_encoded_len(n)
}

std::thread_local! {
    /// The zigzag codes of the samples being encoded (reused: a writer encodes record after
    /// record on each thread).
    static CODES: std::cell::RefCell<Vec<u32>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// The SVB-ZD stream of `samples` (no header; the count is kept beside it).
///
/// ```
/// use svb_slow5_signal::{decode_svbzd, decode_svbzd_fused, encode_svbzd};
/// let signal = [500i16, 498, 510, -32000, 32000, 7];
/// let v = encode_svbzd(&signal);
/// assert_eq!(decode_svbzd(&v, signal.len())?, signal);
/// assert_eq!(decode_svbzd_fused(&v, signal.len())?, signal);
/// # Ok::<(), svb_slow5_signal::SignalError>(())
/// ```
pub fn encode_svbzd(samples: &[i16]) -> Vec<u8> {
    let mut out = Vec::new();
    encode_svbzd_into(samples, &mut out);
    out
}

/// 3-pass decode (StreamVByte unpack, unzigzag, prefix sum) of `n` samples, appended to
/// `out`. `data` must be exactly one stream; the reference for the fused decoder.
pub fn decode_svbzd_into(data: &[u8], n: usize, out: &mut Vec<i16>) -> Result<(), SignalError> {
    let mut values = Vec::new();
    let used = U32Classic.decode_into(data, n, &mut values).map_err(stream_error)?;
    check_len(used, data.len())?;
    let deltas: Vec<i16> = values.iter().map(|&z| i32::unzigzag(z) as i16).collect();
    svb_delta::delta::decode_into(&deltas, out);
    Ok(())
}

/// 3-pass decode of `n` samples.
pub fn decode_svbzd(data: &[u8], n: usize) -> Result<Vec<i16>, SignalError> {
    crate::filled(|out| decode_svbzd_into(data, n, out))
}

/// Fused decode (one SIMD pass: unpack, unzigzag, prefix sum) of `n` samples whose
/// first delta is taken from `initial`, appended to `out`. Input too short for `n` samples
/// is refused before `out` grows.
pub fn decode_svbzd_fused_from_into(
    data: &[u8], n: usize, initial: i16, out: &mut Vec<i16>,
) -> Result<(), SignalError> {
    U32Classic.check_plausible(data, n).map_err(stream_error)?;
    // SAFETY: `fused` writes all n samples it is given when it returns Ok.
    unsafe {
        uninit::append_with(out, n, |spare| {
            check_len(fused(data, initial, &mut spare[..n])?, data.len())?;
            Ok(n)
        })?;
    }
    Ok(())
}

/// Fused decode of `n` samples from `initial`.
pub fn decode_svbzd_fused_from(
    data: &[u8], n: usize, initial: i16,
) -> Result<Vec<i16>, SignalError> {
    crate::filled(|out| decode_svbzd_fused_from_into(data, n, initial, out))
}

/// Fused decode of `n` samples (deltas from 0), appended to `out`.
pub fn decode_svbzd_fused_into(
    data: &[u8], n: usize, out: &mut Vec<i16>,
) -> Result<(), SignalError> {
    decode_svbzd_fused_from_into(data, n, 0, out)
}

/// Fused decode of `n` samples (deltas from 0).
pub fn decode_svbzd_fused(data: &[u8], n: usize) -> Result<Vec<i16>, SignalError> {
    decode_svbzd_fused_from(data, n, 0)
}

/// Decodes `out.len()` samples from the front of `data`; returns the bytes used.
fn fused(data: &[u8], initial: i16, out: &mut [MaybeUninit<i16>]) -> Result<usize, SignalError> {
    fused_by(I16ZigzagDelta32.kernels(), data, initial, out)
}

/// The decode through one ISA's kernels: svb-core's u32 loop with the SVB-ZD step.
fn fused_by(
    f: &ZigzagDelta32Kernels, data: &[u8], initial: i16, out: &mut [MaybeUninit<i16>],
) -> Result<usize, SignalError> {
    f.decode_uninit(data, initial, out).map_err(stream_error)
}

/// Fused decode of `n` samples from `initial` with the kernel of `isa` (`None` when this CPU
/// cannot run it): for comparing ISAs in tests and benchmarks. Returns the samples and the
/// bytes consumed (the stream may continue past them).
pub fn decode_svbzd_fused_with(
    isa: Isa, data: &[u8], n: usize, initial: i16,
) -> Option<Result<(Vec<i16>, usize), SignalError>> {
    let f = I16ZigzagDelta32.kernels_for(isa)?;
    if let Err(e) = U32Classic.check_plausible(data, n) {
        return Some(Err(stream_error(e)));
    }
    let mut out = Vec::new();
    let mut used = 0;
    // SAFETY: `fused_by` writes all n samples it is given when it returns Ok.
    let r = unsafe {
        uninit::append_with(&mut out, n, |spare| {
            used = fused_by(f, data, initial, &mut spare[..n])?;
            Ok(n)
        })
    };
    Some(r.map(|_| (out, used)))
}

fn check_len(used: usize, len: usize) -> Result<(), SignalError> {
    if used == len {
        Ok(())
    } else {
        Err(SignalError::LengthMismatch { codec: CODEC, consumed: used, len })
    }
}

/// Appends slow5lib's SVB-ZD blob of `samples` (u32 LE count, then the stream) to `out`.
///
/// # Panics
/// With 2^32 samples or more (the count is a u32).
pub fn encode_blob_into(samples: &[i16], out: &mut Vec<u8>) {
    let n = u32::try_from(samples.len()).expect("an SVB-ZD blob holds fewer than 2^32 samples");
    out.extend_from_slice(&n.to_le_bytes());
    encode_svbzd_into(samples, out);
}

/// slow5lib's SVB-ZD blob of `samples`, as a BLOW5 record stores it.
pub fn encode_blob(samples: &[i16]) -> Vec<u8> {
    let mut out = Vec::new();
    encode_blob_into(samples, &mut out);
    out
}

/// The sample count of a slow5lib SVB-ZD blob, checked against the blob's size (every
/// sample takes at least a quarter key byte and one data byte).
pub fn blob_samples(blob: &[u8]) -> Result<usize, SignalError> {
    let h = crate::error::blob_header::<BLOB_HEADER_LEN>(CODEC, blob)?;
    let n = u32::from_le_bytes(*h) as usize;
    let body = blob.len() - BLOB_HEADER_LEN;
    if U32Classic.min_encoded_len(n) > body {
        return Err(SignalError::CountTooLarge {
            codec: CODEC,
            declared: n as u64,
            len: blob.len(),
            max: (body as u64 * 4) / 5,
        });
    }
    Ok(n)
}

/// Decodes a slow5lib SVB-ZD blob (fused decoder), appending the samples to `out`.
pub fn decode_blob_into(blob: &[u8], out: &mut Vec<i16>) -> Result<(), SignalError> {
    let n = blob_samples(blob)?;
    decode_svbzd_fused_into(&blob[BLOB_HEADER_LEN..], n, out)
}

/// Decodes a slow5lib SVB-ZD blob.
///
/// ```
/// let signal: Vec<i16> = (0..1000).map(|i| 400 + (i % 37) as i16).collect();
/// let blob = svb_slow5_signal::svbzd::encode_blob(&signal);
/// assert_eq!(blob[..4], 1000u32.to_le_bytes());
/// assert_eq!(svb_slow5_signal::svbzd::decode_blob(&blob)?, signal);
/// // A lying count is refused before anything is allocated.
/// let mut bad = blob.clone();
/// bad[..4].copy_from_slice(&u32::MAX.to_le_bytes());
/// assert!(svb_slow5_signal::svbzd::decode_blob(&bad).is_err());
/// # Ok::<(), svb_slow5_signal::SignalError>(())
/// ```
pub fn decode_blob(blob: &[u8]) -> Result<Vec<i16>, SignalError> {
    crate::filled(|out| decode_blob_into(blob, out))
}
