//! The AVX2 kernel of [`U32Delta`](crate::U32Delta)'s fused decode. Per 16 values: the four
//! groups are unpacked as two 256-bit vectors (groups 0|1 and 2|3, one `vpshufb` each, their
//! data and shuffle rows paired by 128-bit inserts), each lane's prefix sum is taken
//! in-lane, and the lanes' totals are moved up with lane permutes. The running value is the
//! only serial dependency between blocks (one add a block: each block's total is computed
//! from the block alone). Blocks whose 16 deltas all take one byte (dense posting lists)
//! take a 16-bit path: one widening load and three shift-adds.
//!
//! Measured on Zen 3 the general loop is bound by dispatch width and the two shuffle pipes
//! (llvm-mca: about 60 uops, 17 of them shuffles, per 16 values), not by its carry chain;
//! docs/PERFORMANCE.md has its ratio to the C reference.
//!
//! What the block loop leaves (the last 64 data bytes) is decoded by the SSSE3 group loop,
//! window and scalar tail with the [`Delta`] step, which report any truncation exactly.

#[cfg(target_arch = "x86")]
use core::arch::x86::*;
#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;
use core::mem::MaybeUninit;

use super::ssse3::{decode_groups, finish_decode};
use crate::error::DecodeError;
use crate::stream32::finish::Delta;
use crate::stream32::scalar::split_control;
use crate::stream32::{Classic, Scheme32};

/// The fused delta decode: `out.len()` values from the front of `input`, the first delta from
/// `prev`; returns the bytes consumed and the last value.
///
/// # Safety
/// The CPU must support AVX2 (and so SSSE3).
pub(crate) unsafe fn decode(
    input: &[u8],
    prev: u32,
    out: &mut [MaybeUninit<u32>],
) -> Result<(usize, u32), DecodeError> {
    let (ctrl, data) = split_control(input, out.len())?;
    // SAFETY: the caller guarantees AVX2 (and so SSSE3); each loop starts where the one
    // before it stopped.
    unsafe {
        let (dp, g, carry) = decode_all(ctrl, data, prev, out);
        finish_decode::<Classic, Delta>(ctrl, data, dp, g, carry, out)
    }
}

/// # Safety
/// The CPU must support AVX2. `ctrl` must hold the control bytes of `out.len()` values (as
/// `split_control` returns them); the loops keep every load inside `data` and every store
/// inside `out` themselves.
#[target_feature(enable = "avx2")]
unsafe fn decode_all(
    ctrl: &[u8],
    data: &[u8],
    prev: u32,
    out: &mut [MaybeUninit<u32>],
) -> (usize, usize, __m128i) {
    // SAFETY: AVX2 (caller) implies SSSE3; the callees check their own bounds.
    unsafe {
        let (dp, g, carry) = blocks16(ctrl, data, prev, out);
        decode_groups::<Classic, Delta>(ctrl, data, out, dp, g, carry)
    }
}

/// Decodes 16-value blocks from value 0 while all four 16-byte loads of a block stay inside
/// `data`; returns `(dp, groups decoded, carry)` with the running value broadcast.
///
/// # Safety
/// The CPU must support AVX2; `ctrl` holds the control bytes of `out.len()` values.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn blocks16(
    ctrl: &[u8],
    data: &[u8],
    prev: u32,
    out: &mut [MaybeUninit<u32>],
) -> (usize, usize, __m128i) {
    let blocks = out.len() / 16;
    let dst = out.as_mut_ptr().cast::<u32>();
    let src = data.as_ptr();
    let mut carry = _mm256_set1_epi32(prev as i32);
    let last = _mm256_set1_epi32(7);
    let (mut dp, mut q) = (0usize, 0usize);
    let len = |k: u8| Classic::CTRL_LENS[k as usize] as usize;
    let shuffle = |k: u8| Classic::DECODE[k as usize].0.as_ptr();
    for k in ctrl[..4 * blocks].chunks_exact(4) {
        if data.len() - dp < 64 {
            break;
        }
        if k == [0; 4] {
            // 16 one-byte deltas (the common block of a dense list): their prefix sums fit
            // 16-bit lanes, so one widening load and three shift-adds take all 16.
            // SAFETY: dp + 64 <= data.len() (checked above), so the 16-byte load is inside
            // data; block q < blocks writes values 16q..16q+16 inside out.
            unsafe {
                let v = _mm256_cvtepu8_epi16(_mm_loadu_si128(src.add(dp).cast()));
                let v = _mm256_add_epi16(v, _mm256_slli_si256::<2>(v));
                let v = _mm256_add_epi16(v, _mm256_slli_si256::<4>(v));
                let v = _mm256_add_epi16(v, _mm256_slli_si256::<8>(v));
                let lo = _mm256_cvtepu16_epi32(_mm256_castsi256_si128(v));
                let hi = _mm256_cvtepu16_epi32(_mm256_extracti128_si256::<1>(v));
                let hi = _mm256_add_epi32(hi, _mm256_permutevar8x32_epi32(lo, last));
                let total = _mm256_permutevar8x32_epi32(hi, last);
                let p = dst.add(16 * q);
                _mm256_storeu_si256(p.cast(), _mm256_add_epi32(lo, carry));
                _mm256_storeu_si256(p.add(8).cast(), _mm256_add_epi32(hi, carry));
                carry = _mm256_add_epi32(carry, total);
            }
            dp += 16;
            q += 1;
            continue;
        }
        let d1 = dp + len(k[0]);
        let d2 = d1 + len(k[1]);
        let d3 = d2 + len(k[2]);
        // SAFETY: dp + 64 <= data.len() (checked above) and each group's data is at most 16
        // bytes, so d3 + 16 <= dp + 64 and the four 16-byte loads are inside data; the
        // shuffle rows are 16 bytes; block q < blocks writes values 16q..16q+16 inside out.
        unsafe {
            // 16 bytes at `a` in the low lane and 16 at `b` in the high.
            let pair = |a: *const u8, b: *const u8| _mm256_loadu2_m128i(b.cast(), a.cast());
            // Groups 0 | 1 and 2 | 3, in order.
            let a = _mm256_shuffle_epi8(
                pair(src.add(dp), src.add(d1)),
                pair(shuffle(k[0]), shuffle(k[1])),
            );
            let b = _mm256_shuffle_epi8(
                pair(src.add(d2), src.add(d3)),
                pair(shuffle(k[2]), shuffle(k[3])),
            );
            // In-lane prefix sums: each lane one group's.
            let a = _mm256_add_epi32(a, _mm256_slli_si256::<4>(a));
            let a = _mm256_add_epi32(a, _mm256_slli_si256::<8>(a));
            let b = _mm256_add_epi32(b, _mm256_slli_si256::<4>(b));
            let b = _mm256_add_epi32(b, _mm256_slli_si256::<8>(b));
            // Each lane's total in all its elements; the low lane's moved up to the high
            // lane (zero below), and both lanes' sum in every element.
            let ta = _mm256_shuffle_epi32::<0xFF>(a);
            let tb = _mm256_shuffle_epi32::<0xFF>(b);
            let a_up = _mm256_permute2x128_si256::<0x08>(ta, ta);
            let b_up = _mm256_permute2x128_si256::<0x08>(tb, tb);
            let a_sum = _mm256_add_epi32(ta, _mm256_permute2x128_si256::<0x01>(ta, ta));
            let b_sum = _mm256_add_epi32(tb, _mm256_permute2x128_si256::<0x01>(tb, tb));
            let a = _mm256_add_epi32(a, _mm256_add_epi32(carry, a_up));
            let b = _mm256_add_epi32(b, _mm256_add_epi32(_mm256_add_epi32(carry, a_sum), b_up));
            carry = _mm256_add_epi32(carry, _mm256_add_epi32(a_sum, b_sum));
            let p = dst.add(16 * q);
            _mm256_storeu_si256(p.cast(), a);
            _mm256_storeu_si256(p.add(8).cast(), b);
        }
        dp = d3 + len(k[3]);
        q += 1;
    }
    (dp, 4 * q, _mm256_castsi256_si128(carry))
}
