//! x86 ex-zd run decode: plain bytes widened to u16, unzigzagged, prefix-summed with
//! `svb_delta::kernels` and shifted left by `q`; SSSE3 8 bytes per step, AVX2 16.

use core::arch::x86_64::*;
use core::mem::MaybeUninit;

use svb_delta::kernels::x86_64::{prefix_u16x16, prefix_u16x8, unzigzag_u16x16, unzigzag_u16x8};

/// Decodes whole groups of 8 bytes of `bytes` into `out` (same length), continuing from the
/// unshifted sample `acc`; returns the samples written and the new `acc`.
///
/// # Safety
/// The CPU must support SSSE3; `out.len() == bytes.len()`.
#[target_feature(enable = "ssse3")]
pub(super) unsafe fn run(
    bytes: &[u8], acc: i16, q: u32, out: &mut [MaybeUninit<i16>],
) -> (usize, i16) {
    // SAFETY: SSSE3 and the lengths (caller).
    unsafe { run8(bytes, 0, _mm_set1_epi16(acc), q, out) }
}

/// Decodes whole groups of 16 bytes, then of 8, as [`run`].
///
/// # Safety
/// The CPU must support AVX2; `out.len() == bytes.len()`.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn run_avx2(
    bytes: &[u8], acc: i16, q: u32, out: &mut [MaybeUninit<i16>],
) -> (usize, i16) {
    debug_assert_eq!(bytes.len(), out.len());
    let blocks = bytes.len() / 16;
    let dst = out.as_mut_ptr().cast::<i16>();
    let shift = _mm_cvtsi32_si128(q as i32);
    let mut carry = _mm256_set1_epi16(acc);
    for b in 0..blocks {
        // SAFETY: 16b + 16 <= bytes.len() == out.len(): the 16-byte load and the 32-byte
        // (16-sample) store stay inside their slices.
        unsafe {
            let z = _mm256_cvtepu8_epi16(_mm_loadu_si128(bytes.as_ptr().add(16 * b).cast()));
            let (sums, next) = prefix_u16x16(unzigzag_u16x16(z), carry);
            _mm256_storeu_si256(dst.add(16 * b).cast(), _mm256_sll_epi16(sums, shift));
            carry = next;
        }
    }
    // SAFETY: AVX2 implies SSSE3; 16 * blocks <= bytes.len().
    unsafe { run8(bytes, 16 * blocks, _mm256_castsi256_si128(carry), q, out) }
}

/// Decodes whole groups of 8 bytes from byte `from`, the previous unshifted sample in every
/// lane of `carry`; returns the samples written in all and the new unshifted sample.
///
/// # Safety
/// The CPU must support SSSE3; `out.len() == bytes.len()`, `from <= bytes.len()`.
#[target_feature(enable = "ssse3")]
#[inline]
unsafe fn run8(
    bytes: &[u8], from: usize, mut carry: __m128i, q: u32, out: &mut [MaybeUninit<i16>],
) -> (usize, i16) {
    debug_assert_eq!(bytes.len(), out.len());
    let end = from + (bytes.len() - from) / 8 * 8;
    let dst = out.as_mut_ptr().cast::<i16>();
    let zero = _mm_setzero_si128();
    let shift = _mm_cvtsi32_si128(q as i32);
    for at in (from..end).step_by(8) {
        // SAFETY: at + 8 <= end <= bytes.len() == out.len(): the 8-byte load and the
        // 16-byte (8-sample) store stay inside their slices.
        unsafe {
            let z = _mm_unpacklo_epi8(_mm_loadl_epi64(bytes.as_ptr().add(at).cast()), zero);
            let (sums, next) = prefix_u16x8(unzigzag_u16x8(z), carry);
            _mm_storeu_si128(dst.add(at).cast(), _mm_sll_epi16(sums, shift));
            carry = next;
        }
    }
    (end, _mm_cvtsi128_si32(carry) as i16)
}
