//! The VBZ integer stage on i16 signal, without zstd: `svb16(zigzag16(delta16(samples)))`,
//! the deltas wrapping in 16 bits and taken from 0 (or a caller's initial value).

use svb_core::{Codec, Svb16};
use svb_delta::{delta, zigzag};
use svb_dispatch::uninit;

use crate::fused;
use crate::VbzError;

/// Largest VBZ stream of `n` samples (svb16 keys plus two bytes a sample).
pub fn max_encoded_len(n: usize) -> usize {
    Svb16.max_encoded_len(n)
}

/// Appends the VBZ stream of `samples` to `out`.
pub fn encode_vbz_into(samples: &[i16], out: &mut Vec<u8>) {
    svb_io::with_scratch(&CODES, |codes| {
        codes.clear();
        codes.reserve(samples.len());
        codes.extend(samples.first().map(|&s0| zigzag::Zigzag::zigzag(s0)));
        // Two overlapping views of the samples: LLVM vectorises the delta and zigzag (and
        // nothing is zero-filled first).
        let rest = samples.get(1..).unwrap_or_default();
        codes.extend(
            rest.iter()
                .zip(samples)
                .map(|(&cur, &prev)| zigzag::Zigzag::zigzag(cur.wrapping_sub(prev))),
        );
        Svb16.encode_into(codes, out);
    })
}

std::thread_local! {
    /// The zigzag codes of the samples being encoded (reused: a writer encodes chunk after
    /// chunk on each thread).
    static CODES: std::cell::RefCell<Vec<u16>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// The VBZ stream of `samples`.
///
/// ```
/// // The example of ONT's svb16 sources.
/// let v = svb_vbz::encode_vbz(&[10, 12, 11, 11, 13, 14, 15, 16, 300, -300]);
/// assert_eq!(v, [0x00, 0x03, 0x14, 0x04, 0x01, 0x00, 0x04, 0x02, 0x02, 0x02, 0x38, 0x02, 0xaf, 0x04]);
/// ```
pub fn encode_vbz(samples: &[i16]) -> Vec<u8> {
    let mut out = Vec::new();
    encode_vbz_into(samples, &mut out);
    out
}

/// 3-pass decode (svb16, then zigzag, then prefix sum), appending `n` samples to `out`.
/// `data` must be exactly one stream. The reference for [`decode_vbz_fused_into`].
pub fn decode_vbz_into(data: &[u8], n: usize, out: &mut Vec<i16>) -> Result<(), VbzError> {
    let mut codes = Vec::new();
    let used = Svb16.decode_into(data, n, &mut codes)?;
    check_consumed(n, used, data.len())?;
    let deltas: Vec<i16> = zigzag::decode(&codes);
    delta::decode_into(&deltas, out);
    Ok(())
}

/// 3-pass decode of `n` samples.
pub fn decode_vbz(data: &[u8], n: usize) -> Result<Vec<i16>, VbzError> {
    crate::filled(|out| decode_vbz_into(data, n, out))
}

/// Fused decode (one SIMD loop: svb16, zigzag, prefix sum) of `n` samples whose first delta
/// is taken from `initial`, appended to `out`. `data` must be exactly one stream; input too
/// short for `n` samples is refused before `out` grows.
pub fn decode_vbz_fused_from_into(
    data: &[u8], n: usize, initial: i16, out: &mut Vec<i16>,
) -> Result<(), VbzError> {
    Svb16.check_plausible(data, n)?;
    let (keys, body) = fused::split_stream(data, n)?;
    // SAFETY: on `Ok` the fused decoder has written all n samples.
    unsafe {
        uninit::append_with(out, n, |spare| {
            let used = keys.len()
                + fused::best().decode_split_uninit(keys, body, initial, &mut spare[..n])?;
            check_consumed(n, used, data.len())?;
            Ok::<_, VbzError>(n)
        })?;
    }
    Ok(())
}

/// Fused decode of `n` samples from `initial`.
pub fn decode_vbz_fused_from(data: &[u8], n: usize, initial: i16) -> Result<Vec<i16>, VbzError> {
    crate::filled(|out| decode_vbz_fused_from_into(data, n, initial, out))
}

/// Fused decode of `n` samples (deltas from 0), appended to `out`.
pub fn decode_vbz_fused_into(data: &[u8], n: usize, out: &mut Vec<i16>) -> Result<(), VbzError> {
    decode_vbz_fused_from_into(data, n, 0, out)
}

/// Fused decode of `n` samples (deltas from 0).
///
/// ```
/// let signal: Vec<i16> = (0..1000).map(|i| (i % 90) as i16 * 11 - 400).collect();
/// let v = svb_vbz::encode_vbz(&signal);
/// assert_eq!(svb_vbz::decode_vbz_fused(&v, signal.len())?, signal);
/// assert_eq!(svb_vbz::decode_vbz(&v, signal.len())?, signal);
/// # Ok::<(), svb_vbz::VbzError>(())
/// ```
pub fn decode_vbz_fused(data: &[u8], n: usize) -> Result<Vec<i16>, VbzError> {
    decode_vbz_fused_from(data, n, 0)
}

/// Fused decode into a caller's slice (`out.len()` samples); `data` must be exactly one
/// stream. Allocates nothing.
pub(crate) fn decode_vbz_fused_to_slice(data: &[u8], out: &mut [i16]) -> Result<(), VbzError> {
    let n = out.len();
    let (keys, body) = fused::split_stream(data, n)?;
    // SAFETY: the fused decoder writes only initialised samples.
    let out = unsafe { uninit::as_uninit_mut(out) };
    let used = keys.len() + fused::best().decode_split_uninit(keys, body, 0, out)?;
    check_consumed(n, used, data.len())
}

fn check_consumed(samples: usize, consumed: usize, len: usize) -> Result<(), VbzError> {
    if consumed == len {
        Ok(())
    } else {
        Err(VbzError::LengthMismatch { samples, consumed, len })
    }
}
