//! SSSE3 kernels of the u32 codecs: one `pshufb` per control byte (4 values).

#[cfg(target_arch = "x86")]
use core::arch::x86::*;
#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;
use core::mem::MaybeUninit;

use crate::error::{DecodeError, EncodeError};
use crate::stream32::scalar::{check_out_len, decode_tail, encode_tail, split_control};
use crate::stream32::Scheme32;

pub(crate) fn decode<S: Scheme32>(
    input: &[u8],
    out: &mut [MaybeUninit<u32>],
) -> Result<usize, DecodeError> {
    let (ctrl, data) = split_control(input, out.len())?;
    // SAFETY: this kernel is only reachable through the `Kernels` table that `for_isa` hands
    // out after `Isa::Ssse3.is_available()` confirmed SSSE3 on this CPU.
    let (dp, g) = unsafe { decode_groups::<S>(ctrl, data, out, 0, 0) };
    let used = decode_tail::<S>(ctrl, data, dp, 4 * g, out)?;
    Ok(ctrl.len() + used)
}

/// Decodes whole groups from group `g` (data at `data[dp..]`) while their loads stay inside
/// `data`; returns where it stopped `(dp, g)`. `ctrl` holds the control bytes of `out.len()`
/// values.
#[target_feature(enable = "ssse3")]
#[inline]
pub(crate) unsafe fn decode_groups<S: Scheme32>(
    ctrl: &[u8],
    data: &[u8],
    out: &mut [MaybeUninit<u32>],
    mut dp: usize,
    mut g: usize,
) -> (usize, usize) {
    let full = out.len() / 4;
    debug_assert!(full <= ctrl.len());
    let src = data.as_ptr();
    let dst = out.as_mut_ptr().cast::<u32>();
    let cp = ctrl.as_ptr();
    while g + 4 <= full && data.len() - dp >= 64 {
        for k in 0..4 {
            // SAFETY: g + k < full <= ctrl.len(). The 4 groups of this step use at most 64
            // data bytes and data.len() - dp >= 64 held at its start, so dp + 16 <=
            // data.len(); group g + k < full writes values 4(g+k)..4(g+k)+4 <= out.len().
            unsafe {
                let c = *cp.add(g + k) as usize;
                let v = _mm_loadu_si128(src.add(dp).cast());
                let m = _mm_load_si128(S::DECODE[c].0.as_ptr().cast());
                _mm_storeu_si128(dst.add(4 * (g + k)).cast(), _mm_shuffle_epi8(v, m));
                dp += S::CTRL_LENS[c] as usize;
            }
        }
        g += 4;
    }
    while g < full && data.len() - dp >= 16 {
        let c = ctrl[g] as usize;
        // SAFETY: dp + 16 <= data.len() (loop condition); g < full so the 4 lanes fit in out.
        unsafe {
            let v = _mm_loadu_si128(src.add(dp).cast());
            let m = _mm_load_si128(S::DECODE[c].0.as_ptr().cast());
            _mm_storeu_si128(dst.add(4 * g).cast(), _mm_shuffle_epi8(v, m));
        }
        dp += S::CTRL_LENS[c] as usize;
        g += 1;
    }
    (dp, g)
}

pub(crate) fn encode<S: Scheme32>(
    values: &[u32],
    out: &mut [MaybeUninit<u8>],
) -> Result<usize, EncodeError> {
    let ctrl_len = check_out_len(values.len(), out.len())?;
    // SAFETY: reachable only after SSSE3 was detected (see `decode`); `out` holds at least
    // `max_encoded_len(n)` bytes (checked above).
    let (dp, g) = unsafe { encode_groups::<S>(values, out, ctrl_len, 0, 0) };
    let used = encode_tail::<S>(values, out, ctrl_len, dp, 4 * g);
    Ok(ctrl_len + used)
}

/// Encodes whole groups from group `g` while a 16-byte store fits in `out`; returns where it
/// stopped `(dp, g)`. `out.len() >= ctrl_len + 4 * values.len()`.
#[target_feature(enable = "ssse3")]
#[inline]
pub(crate) unsafe fn encode_groups<S: Scheme32>(
    values: &[u32],
    out: &mut [MaybeUninit<u8>],
    ctrl_len: usize,
    mut dp: usize,
    mut g: usize,
) -> (usize, usize) {
    let full = values.len() / 4;
    let room = out.len() - ctrl_len;
    let base = out.as_mut_ptr().cast::<u8>();
    while g < full && room - dp >= 16 {
        // SAFETY: g < full so values 4g..4g+4 exist; dp + 16 <= room, so the store stays in
        // `out`; the control byte g < full <= ctrl_len.
        unsafe {
            let v = _mm_loadu_si128(values.as_ptr().add(4 * g).cast());
            let (c, len) = encode_group::<S>(v, base.add(ctrl_len + dp));
            *base.add(g) = c;
            dp += len;
        }
        g += 1;
    }
    (dp, g)
}

/// Packs the four u32 lanes of `v` to `dst` (16 bytes are stored; the caller owns them) and
/// returns the control byte and the bytes used.
#[target_feature(enable = "ssse3")]
#[inline]
pub(crate) unsafe fn encode_group<S: Scheme32>(v: __m128i, dst: *mut u8) -> (u8, usize) {
    let z = _mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_setzero_si128())) as usize;
    let e0 = S::ENCODE_PAIR[z & 0xFF] as usize;
    let e1 = S::ENCODE_PAIR[(z >> 8) & 0xFF] as usize;
    let c = (e0 & 0xF) | ((e1 & 0xF) << 4);
    // SAFETY: the table row is 16 aligned bytes; the caller guarantees 16 writable bytes at dst.
    unsafe {
        let m = _mm_load_si128(S::ENCODE[c].0.as_ptr().cast());
        _mm_storeu_si128(dst.cast(), _mm_shuffle_epi8(v, m));
    }
    (c as u8, (e0 >> 8) + (e1 >> 8))
}
