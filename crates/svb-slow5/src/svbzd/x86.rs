//! SSSE3 fused SVB-ZD decode (and the same loop compiled with AVX2): per 8 samples, two
//! `pshufb` (U32Classic unpack of two control bytes), unzigzag in 32-bit lanes, the low 16
//! bits of each delta packed into one vector, one prefix-sum block of `svb_delta::kernels`.

use core::arch::x86_64::*;
use core::mem::MaybeUninit;

use svb_core::stream32::blocks::{data_len, decode_shuffle};
use svb_delta::kernels::x86::prefix_u16x8;

/// Decodes whole 8-sample groups while both 16-byte loads stay inside `data`; returns
/// `(data bytes used, samples written, last sample)`.
///
/// # Safety
/// The CPU must support SSSE3; `keys` holds the control bytes of `out.len()` samples.
#[target_feature(enable = "ssse3")]
pub(super) unsafe fn decode_groups(
    keys: &[u8],
    data: &[u8],
    initial: i16,
    out: &mut [MaybeUninit<i16>],
) -> (usize, usize, i16) {
    let full = out.len() / 8;
    debug_assert!(keys.len() >= 2 * full);
    let dst = out.as_mut_ptr().cast::<i16>();
    let lo = _mm_setr_epi8(0, 1, 4, 5, 8, 9, 12, 13, -1, -1, -1, -1, -1, -1, -1, -1);
    let hi = _mm_setr_epi8(-1, -1, -1, -1, -1, -1, -1, -1, 0, 1, 4, 5, 8, 9, 12, 13);
    let one = _mm_set1_epi32(1);
    let mut carry = _mm_set1_epi16(initial);
    let (mut dp, mut g) = (0usize, 0usize);
    while g < full && data.len() - dp >= 32 {
        let (k0, k1) = (keys[2 * g], keys[2 * g + 1]);
        let d1 = dp + data_len(k0);
        // SAFETY: dp + 32 <= data.len() (loop condition) and data_len(k0) <= 16, so both
        // 16-byte loads are inside data; the shuffle rows are 16 aligned bytes; group g <
        // full writes samples 8g..8g+8 inside out.
        unsafe {
            let v0 = _mm_shuffle_epi8(
                _mm_loadu_si128(data.as_ptr().add(dp).cast()),
                _mm_load_si128(decode_shuffle(k0).as_ptr().cast()),
            );
            let v1 = _mm_shuffle_epi8(
                _mm_loadu_si128(data.as_ptr().add(d1).cast()),
                _mm_load_si128(decode_shuffle(k1).as_ptr().cast()),
            );
            let u0 = _mm_xor_si128(
                _mm_srli_epi32::<1>(v0),
                _mm_sub_epi32(_mm_setzero_si128(), _mm_and_si128(v0, one)),
            );
            let u1 = _mm_xor_si128(
                _mm_srli_epi32::<1>(v1),
                _mm_sub_epi32(_mm_setzero_si128(), _mm_and_si128(v1, one)),
            );
            let d = _mm_or_si128(_mm_shuffle_epi8(u0, lo), _mm_shuffle_epi8(u1, hi));
            let (sums, next) = prefix_u16x8(d, carry);
            _mm_storeu_si128(dst.add(8 * g).cast(), sums);
            carry = next;
        }
        dp = d1 + data_len(k1);
        g += 1;
    }
    (dp, 8 * g, _mm_cvtsi128_si32(carry) as i16)
}

/// [`decode_groups`] compiled for AVX2.
///
/// # Safety
/// The CPU must support AVX2; as [`decode_groups`].
#[target_feature(enable = "avx2")]
pub(super) unsafe fn decode_groups_avx2(
    keys: &[u8],
    data: &[u8],
    initial: i16,
    out: &mut [MaybeUninit<i16>],
) -> (usize, usize, i16) {
    // SAFETY: AVX2 implies SSSE3; the caller's bounds hold.
    unsafe { decode_groups(keys, data, initial, out) }
}
