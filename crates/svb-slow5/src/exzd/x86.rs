//! SSSE3 ex-zd run decode: 8 plain bytes at a time widened to u16, unzigzagged,
//! prefix-summed with `svb_delta::kernels` and shifted left by `q`.

use core::arch::x86_64::*;
use core::mem::MaybeUninit;

use svb_delta::kernels::x86::prefix_u16x8;

/// Decodes whole groups of 8 bytes of `bytes` into `out` (same length), continuing from the
/// unshifted sample `acc`; returns the samples written and the new `acc`.
///
/// # Safety
/// The CPU must support SSSE3; `out.len() == bytes.len()`.
#[target_feature(enable = "ssse3")]
pub(super) unsafe fn run(
    bytes: &[u8],
    acc: i16,
    q: u32,
    out: &mut [MaybeUninit<i16>],
) -> (usize, i16) {
    debug_assert_eq!(bytes.len(), out.len());
    let groups = bytes.len() / 8;
    let dst = out.as_mut_ptr().cast::<i16>();
    let zero = _mm_setzero_si128();
    let one = _mm_set1_epi16(1);
    let shift = _mm_cvtsi32_si128(q as i32);
    let mut carry = _mm_set1_epi16(acc);
    for g in 0..groups {
        // SAFETY: 8g + 8 <= bytes.len() == out.len(): the 8-byte load and the 16-byte
        // (8-sample) store stay inside their slices.
        unsafe {
            let z = _mm_unpacklo_epi8(_mm_loadl_epi64(bytes.as_ptr().add(8 * g).cast()), zero);
            let d = _mm_xor_si128(
                _mm_srli_epi16::<1>(z),
                _mm_sub_epi16(zero, _mm_and_si128(z, one)),
            );
            let (sums, next) = prefix_u16x8(d, carry);
            _mm_storeu_si128(dst.add(8 * g).cast(), _mm_sll_epi16(sums, shift));
            carry = next;
        }
    }
    (8 * groups, _mm_cvtsi128_si32(carry) as i16)
}
