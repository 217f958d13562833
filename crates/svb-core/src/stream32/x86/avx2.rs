//! AVX2 kernels of the u32 codecs: two control bytes (8 values) per 256-bit shuffle.

#[cfg(target_arch = "x86")]
use core::arch::x86::*;
#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;
use core::mem::MaybeUninit;

use super::ssse3;
use crate::error::{DecodeError, EncodeError};
use crate::stream32::scalar::{check_out_len, decode_tail, encode_tail, split_control};
use crate::stream32::Scheme32;

pub(crate) fn decode<S: Scheme32>(
    input: &[u8],
    out: &mut [MaybeUninit<u32>],
) -> Result<usize, DecodeError> {
    let (ctrl, data) = split_control(input, out.len())?;
    // SAFETY: this kernel is only reachable through the `Kernels` table that `for_isa` hands
    // out after `Isa::Avx2.is_available()` confirmed AVX2 (and SSSE3) on this CPU.
    let (dp, g) = unsafe {
        let (dp, g) = decode_groups::<S>(ctrl, data, out);
        ssse3::decode_groups::<S>(ctrl, data, out, dp, g)
    };
    let used = decode_tail::<S>(ctrl, data, dp, 4 * g, out)?;
    Ok(ctrl.len() + used)
}

#[target_feature(enable = "avx2")]
unsafe fn decode_groups<S: Scheme32>(
    ctrl: &[u8],
    data: &[u8],
    out: &mut [MaybeUninit<u32>],
) -> (usize, usize) {
    let full = out.len() / 4;
    let src = data.as_ptr();
    let dst = out.as_mut_ptr().cast::<u32>();
    let mut dp = 0usize;
    let mut g = 0usize;
    while g + 8 <= full && data.len() - dp >= 128 {
        // SAFETY: g + 8 <= full <= ctrl.len().
        let cw = u64::from_le(unsafe { ctrl.as_ptr().add(g).cast::<u64>().read_unaligned() });
        let lens = S::lens8(cw);
        for k in 0..4 {
            let c0 = (cw >> (16 * k)) as u8 as usize;
            let c1 = (cw >> (16 * k + 8)) as u8 as usize;
            let l0 = ((lens >> (16 * k)) & 0xFF) as usize;
            let l1 = ((lens >> (16 * k + 8)) & 0xFF) as usize;
            // SAFETY: the 8 groups of this step use at most 128 data bytes and
            // data.len() - dp >= 128 held at its start, so both 16-byte loads (at dp and
            // dp + l0) end inside data; groups g+2k, g+2k+1 < full, so 8 lanes fit in out.
            unsafe {
                let v = _mm256_loadu2_m128i(src.add(dp + l0).cast(), src.add(dp).cast());
                let m = _mm256_inserti128_si256::<1>(
                    _mm256_castsi128_si256(_mm_load_si128(S::DECODE[c0].0.as_ptr().cast())),
                    _mm_load_si128(S::DECODE[c1].0.as_ptr().cast()),
                );
                _mm256_storeu_si256(dst.add(4 * (g + 2 * k)).cast(), _mm256_shuffle_epi8(v, m));
            }
            dp += l0 + l1;
        }
        g += 8;
    }
    (dp, g)
}

pub(crate) fn encode<S: Scheme32>(
    values: &[u32],
    out: &mut [MaybeUninit<u8>],
) -> Result<usize, EncodeError> {
    let ctrl_len = check_out_len(values.len(), out.len())?;
    // SAFETY: reachable only after AVX2 was detected (see `decode`); `out` holds at least
    // `max_encoded_len(n)` bytes (checked above).
    let (dp, g) = unsafe {
        let (dp, g) = encode_groups::<S>(values, out, ctrl_len);
        ssse3::encode_groups::<S>(values, out, ctrl_len, dp, g)
    };
    let used = encode_tail::<S>(values, out, ctrl_len, dp, 4 * g);
    Ok(ctrl_len + used)
}

#[target_feature(enable = "avx2")]
unsafe fn encode_groups<S: Scheme32>(
    values: &[u32],
    out: &mut [MaybeUninit<u8>],
    ctrl_len: usize,
) -> (usize, usize) {
    let full = values.len() / 4;
    let room = out.len() - ctrl_len;
    let base = out.as_mut_ptr().cast::<u8>();
    let zero = _mm256_setzero_si256();
    let mut dp = 0usize;
    let mut g = 0usize;
    while g + 2 <= full && room - dp >= 32 {
        // SAFETY: g + 2 <= full so values 4g..4g+8 exist; the first half is stored at dp and
        // the second at dp + l0 <= dp + 16, both ending by dp + 32 <= room; control bytes
        // g, g+1 < full <= ctrl_len.
        unsafe {
            let v = _mm256_loadu_si256(values.as_ptr().add(4 * g).cast());
            let z = _mm256_movemask_epi8(_mm256_cmpeq_epi8(v, zero)) as u32 as usize;
            let e0 = S::ENCODE_PAIR[z & 0xFF] as usize;
            let e1 = S::ENCODE_PAIR[(z >> 8) & 0xFF] as usize;
            let e2 = S::ENCODE_PAIR[(z >> 16) & 0xFF] as usize;
            let e3 = S::ENCODE_PAIR[(z >> 24) & 0xFF] as usize;
            let c0 = (e0 & 0xF) | ((e1 & 0xF) << 4);
            let c1 = (e2 & 0xF) | ((e3 & 0xF) << 4);
            let l0 = (e0 >> 8) + (e1 >> 8);
            let l1 = (e2 >> 8) + (e3 >> 8);
            let m = _mm256_inserti128_si256::<1>(
                _mm256_castsi128_si256(_mm_load_si128(S::ENCODE[c0].0.as_ptr().cast())),
                _mm_load_si128(S::ENCODE[c1].0.as_ptr().cast()),
            );
            let r = _mm256_shuffle_epi8(v, m);
            let out_data = base.add(ctrl_len + dp);
            _mm_storeu_si128(out_data.cast(), _mm256_castsi256_si128(r));
            _mm_storeu_si128(out_data.add(l0).cast(), _mm256_extracti128_si256::<1>(r));
            base.add(g)
                .cast::<u16>()
                .write_unaligned((c0 | (c1 << 8)) as u16);
            dp += l0 + l1;
        }
        g += 2;
    }
    (dp, g)
}
