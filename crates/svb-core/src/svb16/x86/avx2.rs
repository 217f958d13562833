//! AVX2 kernels of Svb16: two key bytes (16 values) per 256-bit shuffle.

#[cfg(target_arch = "x86")]
use core::arch::x86::*;
#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;
use core::mem::MaybeUninit;

use super::ssse3;
use crate::error::{DecodeError, EncodeError};
use crate::svb16::scalar::{check_out_len, decode_tail, encode_tail, split_keys};
use crate::svb16::{lens8, DECODE, ENCODE, LENS};

pub(crate) fn decode(input: &[u8], out: &mut [MaybeUninit<u16>]) -> Result<usize, DecodeError> {
    let (keys, data) = split_keys(input, out.len())?;
    // SAFETY: reachable only through the `Kernels` table handed out after
    // `Isa::Avx2.is_available()` confirmed AVX2 (and SSSE3) on this CPU.
    let (dp, g) = unsafe {
        let (dp, g) = decode_groups(keys, data, out);
        ssse3::decode_groups(keys, data, out, dp, g)
    };
    let used = decode_tail(keys, data, dp, 8 * g, out)?;
    Ok(keys.len() + used)
}

#[target_feature(enable = "avx2")]
unsafe fn decode_groups(keys: &[u8], data: &[u8], out: &mut [MaybeUninit<u16>]) -> (usize, usize) {
    let full = out.len() / 8;
    let src = data.as_ptr();
    let dst = out.as_mut_ptr().cast::<u16>();
    let mut dp = 0usize;
    let mut g = 0usize;
    while g + 8 <= full && data.len() - dp >= 128 {
        // SAFETY: g + 8 <= full <= keys.len().
        let kw = u64::from_le(unsafe { keys.as_ptr().add(g).cast::<u64>().read_unaligned() });
        let lens = lens8(kw);
        for k in 0..4 {
            let k0 = (kw >> (16 * k)) as u8 as usize;
            let k1 = (kw >> (16 * k + 8)) as u8 as usize;
            let l0 = ((lens >> (16 * k)) & 0xFF) as usize;
            let l1 = ((lens >> (16 * k + 8)) & 0xFF) as usize;
            // SAFETY: the 8 groups of this step use at most 128 data bytes and
            // data.len() - dp >= 128 held at its start, so both loads (at dp and dp + l0)
            // end inside data; groups g+2k, g+2k+1 < full write 16 values inside out.
            unsafe {
                let v = _mm256_loadu2_m128i(src.add(dp + l0).cast(), src.add(dp).cast());
                let m = _mm256_inserti128_si256::<1>(
                    _mm256_castsi128_si256(_mm_load_si128(DECODE[k0].0.as_ptr().cast())),
                    _mm_load_si128(DECODE[k1].0.as_ptr().cast()),
                );
                _mm256_storeu_si256(dst.add(8 * (g + 2 * k)).cast(), _mm256_shuffle_epi8(v, m));
            }
            dp += l0 + l1;
        }
        g += 8;
    }
    (dp, g)
}

pub(crate) fn encode(values: &[u16], out: &mut [MaybeUninit<u8>]) -> Result<usize, EncodeError> {
    let klen = check_out_len(values.len(), out.len())?;
    // SAFETY: reachable only after AVX2 was detected (see `decode`); `out` holds at least
    // `max_encoded_len(n)` bytes (checked above).
    let (dp, g) = unsafe {
        let (dp, g) = encode_groups(values, out, klen);
        ssse3::encode_groups(values, out, klen, dp, g)
    };
    let used = encode_tail(values, out, klen, dp, 8 * g);
    Ok(klen + used)
}

#[target_feature(enable = "avx2")]
unsafe fn encode_groups(
    values: &[u16],
    out: &mut [MaybeUninit<u8>],
    klen: usize,
) -> (usize, usize) {
    let full = values.len() / 8;
    let room = out.len() - klen;
    let base = out.as_mut_ptr().cast::<u8>();
    let high = _mm256_set1_epi16(0xFF00u16 as i16);
    let zero = _mm256_setzero_si256();
    let mut dp = 0usize;
    let mut g = 0usize;
    while g + 2 <= full && room - dp >= 32 {
        // SAFETY: g + 2 <= full so values 8g..8g+16 exist; the halves are stored at dp and
        // dp + l0 <= dp + 16, both ending by dp + 32 <= room; key bytes g, g+1 < klen.
        unsafe {
            let v = _mm256_loadu_si256(values.as_ptr().add(8 * g).cast());
            let narrow = _mm256_cmpeq_epi16(_mm256_and_si256(v, high), zero);
            // Per 128-bit lane the pack puts the 8 flags in bytes 0..8 (and again 8..16).
            let flags = !_mm256_movemask_epi8(_mm256_packs_epi16(narrow, narrow)) as u32;
            let k0 = (flags & 0xFF) as usize;
            let k1 = ((flags >> 16) & 0xFF) as usize;
            let l0 = LENS[k0] as usize;
            let m = _mm256_inserti128_si256::<1>(
                _mm256_castsi128_si256(_mm_load_si128(ENCODE[k0].0.as_ptr().cast())),
                _mm_load_si128(ENCODE[k1].0.as_ptr().cast()),
            );
            let r = _mm256_shuffle_epi8(v, m);
            let out_data = base.add(klen + dp);
            _mm_storeu_si128(out_data.cast(), _mm256_castsi256_si128(r));
            _mm_storeu_si128(out_data.add(l0).cast(), _mm256_extracti128_si256::<1>(r));
            base.add(g)
                .cast::<u16>()
                .write_unaligned((k0 | (k1 << 8)) as u16);
            dp += l0 + LENS[k1] as usize;
        }
        g += 2;
    }
    (dp, g)
}
