//! The last data bytes of a stream as one 16-byte vector, for the x86 decoders' tails: the
//! groups left after the SIMD loops (fewer than 16 data bytes, or only a last partial group)
//! are shuffled straight from it, each table row moved up to where its group's bytes start.

#[cfg(target_arch = "x86")]
use core::arch::x86::*;
#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;

use crate::tables::Row16;

/// Bytes in a window.
pub(crate) const WINDOW: usize = 16;

/// A window holding `data[dp..dp + k]` for every `k <= min(16, data.len() - dp)`, at offsets
/// from `dp - base`, and that `base`: the 16 bytes at `dp` when there are that many, else
/// the 16 ending at the data's end, else (data of under 16 bytes) a zero-padded copy.
///
/// # Panics
/// When `dp > data.len()`.
#[target_feature(enable = "ssse3")]
#[inline]
pub(crate) fn tail_window(data: &[u8], dp: usize) -> (__m128i, usize) {
    let left = data.len() - dp;
    if left >= WINDOW {
        // SAFETY: dp + 16 <= data.len().
        (unsafe { _mm_loadu_si128(data.as_ptr().add(dp).cast()) }, dp)
    } else if data.len() >= WINDOW {
        let base = data.len() - WINDOW;
        // SAFETY: base + 16 == data.len().
        let v = unsafe { _mm_loadu_si128(data.as_ptr().add(base).cast()) };
        (v, base)
    } else {
        let mut buf = [0u8; WINDOW];
        buf[..left].copy_from_slice(&data[dp..]);
        // SAFETY: reads the 16 bytes of a local array.
        (unsafe { _mm_loadu_si128(buf.as_ptr().cast()) }, dp)
    }
}

/// `pshufb` of `window` by the shuffle `row` moved `off` bytes up (a saturating add, so the
/// row's 0xFF zeroing entries stay 0xFF). Indices that pass the window's end pick bytes the
/// caller must not keep.
#[target_feature(enable = "ssse3")]
#[inline]
pub(crate) fn shuffle_from(window: __m128i, row: &Row16, off: usize) -> __m128i {
    // SAFETY: a Row16 is 16 bytes, 16-aligned.
    let m = unsafe { _mm_load_si128(row.0.as_ptr().cast()) };
    _mm_shuffle_epi8(window, _mm_adds_epu8(m, _mm_set1_epi8(off as i8)))
}
