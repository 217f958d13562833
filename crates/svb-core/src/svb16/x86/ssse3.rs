//! SSSE3 kernels of Svb16: one `pshufb` per key byte (8 values).

#[cfg(target_arch = "x86")]
use core::arch::x86::*;
#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;
use core::mem::MaybeUninit;

use crate::error::{DecodeError, EncodeError};
use crate::svb16::scalar::{check_out_len, decode_tail, encode_tail, split_keys};
use crate::svb16::{lens8, DECODE, ENCODE, LENS};

pub(crate) fn decode(input: &[u8], out: &mut [MaybeUninit<u16>]) -> Result<usize, DecodeError> {
    let (keys, data) = split_keys(input, out.len())?;
    // SAFETY: reachable only through the `Kernels` table handed out after
    // `Isa::Ssse3.is_available()` confirmed SSSE3 on this CPU.
    let (dp, g) = unsafe { decode_groups(keys, data, out, 0, 0) };
    let used = decode_tail(keys, data, dp, 8 * g, out)?;
    Ok(keys.len() + used)
}

/// Decodes whole key groups from group `g` (data at `data[dp..]`) while their loads stay
/// inside `data`; returns where it stopped `(dp, g)`.
#[target_feature(enable = "ssse3")]
#[inline]
pub(crate) unsafe fn decode_groups(
    keys: &[u8],
    data: &[u8],
    out: &mut [MaybeUninit<u16>],
    mut dp: usize,
    mut g: usize,
) -> (usize, usize) {
    let full = out.len() / 8;
    let src = data.as_ptr();
    let dst = out.as_mut_ptr().cast::<u16>();
    while g + 8 <= full && data.len() - dp >= 128 {
        // SAFETY: g + 8 <= full <= keys.len().
        let kw = u64::from_le(unsafe { keys.as_ptr().add(g).cast::<u64>().read_unaligned() });
        let lens = lens8(kw);
        for k in 0..8 {
            let key = (kw >> (8 * k)) as u8 as usize;
            // SAFETY: the 8 groups of this step use at most 128 data bytes and
            // data.len() - dp >= 128 held at its start, so dp + 16 <= data.len(); group
            // g + k < full writes values 8(g+k)..8(g+k)+8 <= out.len().
            unsafe {
                let v = _mm_loadu_si128(src.add(dp).cast());
                let m = _mm_load_si128(DECODE[key].0.as_ptr().cast());
                _mm_storeu_si128(dst.add(8 * (g + k)).cast(), _mm_shuffle_epi8(v, m));
            }
            dp += ((lens >> (8 * k)) & 0xFF) as usize;
        }
        g += 8;
    }
    while g < full && data.len() - dp >= 16 {
        let key = keys[g] as usize;
        // SAFETY: dp + 16 <= data.len() (loop condition); g < full so 8 lanes fit in out.
        unsafe {
            let v = _mm_loadu_si128(src.add(dp).cast());
            let m = _mm_load_si128(DECODE[key].0.as_ptr().cast());
            _mm_storeu_si128(dst.add(8 * g).cast(), _mm_shuffle_epi8(v, m));
        }
        dp += LENS[key] as usize;
        g += 1;
    }
    (dp, g)
}

pub(crate) fn encode(values: &[u16], out: &mut [MaybeUninit<u8>]) -> Result<usize, EncodeError> {
    let klen = check_out_len(values.len(), out.len())?;
    // SAFETY: reachable only after SSSE3 was detected (see `decode`); `out` holds at least
    // `max_encoded_len(n)` bytes (checked above).
    let (dp, g) = unsafe { encode_groups(values, out, klen, 0, 0) };
    let used = encode_tail(values, out, klen, dp, 8 * g);
    Ok(klen + used)
}

/// Encodes whole key groups from group `g` while a 16-byte store fits in `out`.
#[target_feature(enable = "ssse3")]
#[inline]
pub(crate) unsafe fn encode_groups(
    values: &[u16],
    out: &mut [MaybeUninit<u8>],
    klen: usize,
    mut dp: usize,
    mut g: usize,
) -> (usize, usize) {
    let full = values.len() / 8;
    let room = out.len() - klen;
    let base = out.as_mut_ptr().cast::<u8>();
    let high = _mm_set1_epi16(0xFF00u16 as i16);
    let zero = _mm_setzero_si128();
    while g < full && room - dp >= 16 {
        // SAFETY: g < full so values 8g..8g+8 exist; dp + 16 <= room keeps the store in
        // `out`; key byte g < full <= klen.
        unsafe {
            let v = _mm_loadu_si128(values.as_ptr().add(8 * g).cast());
            let narrow = _mm_cmpeq_epi16(_mm_and_si128(v, high), zero);
            let key = !_mm_movemask_epi8(_mm_packs_epi16(narrow, narrow)) as usize & 0xFF;
            let m = _mm_load_si128(ENCODE[key].0.as_ptr().cast());
            _mm_storeu_si128(base.add(klen + dp).cast(), _mm_shuffle_epi8(v, m));
            *base.add(g) = key as u8;
            dp += LENS[key] as usize;
        }
        g += 1;
    }
    (dp, g)
}
