//! x86 fused SVB-ZD decode. SSSE3, per 8 samples: two `pshufb` (U32Classic unpack of two
//! control bytes), unzigzag in 32-bit lanes, the low 16 bits of each delta packed into one
//! vector, one prefix-sum block of `svb_delta::kernels`. AVX2, per 16 samples: the four
//! groups of four are loaded as two 256-bit vectors (groups 0|2 and 1|3), so one unzigzag
//! per vector and one in-lane pack leave samples 0..8 | 8..16 in order for one 16-lane
//! prefix-sum block (27 vector operations per 16 samples against 42 for two SSSE3 groups).
//! Both end with the last samples decoded from a zero-padded copy, so short streams (128
//! samples) stay in SIMD.

use core::arch::x86_64::*;
use core::mem::MaybeUninit;

use svb_core::stream32::blocks::{data_len, decode_shuffle};
use svb_delta::kernels::x86_64::{prefix_u16x16, prefix_u16x8, unzigzag_u32x4, unzigzag_u32x8};

/// Where a decode stopped: data bytes used, samples written, the last sample.
type Stop = (usize, usize, i16);

/// Decodes all of `out` with the SSSE3 loop when the data holds it; otherwise stops where
/// the scalar tail must take over (to report the exact error).
///
/// # Safety
/// The CPU must support SSSE3; `keys` holds the control bytes of `out.len()` samples.
#[target_feature(enable = "ssse3")]
pub(super) unsafe fn decode_groups(
    keys: &[u8],
    data: &[u8],
    initial: i16,
    out: &mut [MaybeUninit<i16>],
) -> Stop {
    // SAFETY: SSSE3 (caller); `out` and `keys` as the callees require.
    unsafe {
        let (dp, g, carry) = groups8(keys, data, 0, 0, _mm_set1_epi16(initial), out);
        padded_tail(keys, data, (dp, 8 * g, last_lane(carry)), out)
    }
}

/// [`decode_groups`] with the 16-sample AVX2 loop first.
///
/// # Safety
/// The CPU must support AVX2; `keys` holds the control bytes of `out.len()` samples.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn decode_groups_avx2(
    keys: &[u8],
    data: &[u8],
    initial: i16,
    out: &mut [MaybeUninit<i16>],
) -> Stop {
    // SAFETY: AVX2 (caller, implies SSSE3); `out` and `keys` as the callees require.
    unsafe {
        let (dp, q, carry) = groups16(keys, data, initial, out);
        let (dp, g, carry) = groups8(keys, data, dp, 2 * q, carry, out);
        padded_tail(keys, data, (dp, 8 * g, last_lane(carry)), out)
    }
}

/// The sample in lane 0 of a broadcast carry.
#[target_feature(enable = "sse2")]
#[inline]
fn last_lane(carry: __m128i) -> i16 {
    _mm_cvtsi128_si32(carry) as i16
}

/// Decodes 8-sample groups from group `g` (data at `data[dp..]`, `carry` the broadcast
/// previous sample) while both 16-byte loads stay inside `data`; returns `(dp, g, carry)`.
///
/// # Safety
/// The CPU must support SSSE3; `keys` holds the control bytes of `out.len()` samples;
/// `dp <= data.len()`.
#[target_feature(enable = "ssse3")]
#[inline]
unsafe fn groups8(
    keys: &[u8],
    data: &[u8],
    mut dp: usize,
    mut g: usize,
    mut carry: __m128i,
    out: &mut [MaybeUninit<i16>],
) -> (usize, usize, __m128i) {
    let full = out.len() / 8;
    debug_assert!(keys.len() >= 2 * full);
    let dst = out.as_mut_ptr().cast::<i16>();
    let lo = _mm_setr_epi8(0, 1, 4, 5, 8, 9, 12, 13, -1, -1, -1, -1, -1, -1, -1, -1);
    let hi = _mm_setr_epi8(-1, -1, -1, -1, -1, -1, -1, -1, 0, 1, 4, 5, 8, 9, 12, 13);
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
            let d = _mm_or_si128(
                _mm_shuffle_epi8(unzigzag_u32x4(v0), lo),
                _mm_shuffle_epi8(unzigzag_u32x4(v1), hi),
            );
            let (sums, next) = prefix_u16x8(d, carry);
            _mm_storeu_si128(dst.add(8 * g).cast(), sums);
            carry = next;
        }
        dp = d1 + data_len(k1);
        g += 1;
    }
    (dp, g, carry)
}

/// Decodes 16-sample blocks from sample 0 while all four 16-byte loads stay inside `data`;
/// returns `(dp, blocks, carry)` with the carry broadcast to 8 lanes.
///
/// # Safety
/// The CPU must support AVX2; `keys` holds the control bytes of `out.len()` samples.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn groups16(
    keys: &[u8],
    data: &[u8],
    initial: i16,
    out: &mut [MaybeUninit<i16>],
) -> (usize, usize, __m128i) {
    let blocks = out.len() / 16;
    debug_assert!(keys.len() >= 4 * blocks);
    let dst = out.as_mut_ptr().cast::<i16>();
    let src = data.as_ptr();
    let low16 = _mm256_set1_epi32(0xFFFF);
    let mut carry = _mm256_set1_epi16(initial);
    let (mut dp, mut q) = (0usize, 0usize);
    for k in keys[..4 * blocks].chunks_exact(4) {
        if data.len() - dp < 64 {
            break;
        }
        let d1 = dp + data_len(k[0]);
        let d2 = d1 + data_len(k[1]);
        let d3 = d2 + data_len(k[2]);
        // SAFETY: dp + 64 <= data.len() (loop condition) and each group's data is at most
        // 16 bytes, so d3 + 16 <= dp + 64 and all four 16-byte loads are inside data; the
        // shuffle rows are 16 aligned bytes; block q < blocks writes samples 16q..16q+16
        // inside out.
        unsafe {
            // 16 bytes at a in the low lane, at b in the high.
            let pair = |a: *const u8, b: *const u8| _mm256_loadu2_m128i(b.cast(), a.cast());
            // Groups 0 and 2 in one vector, 1 and 3 in the other: packing them lane-wise
            // leaves the samples in order.
            let a = _mm256_shuffle_epi8(
                pair(src.add(dp), src.add(d2)),
                pair(decode_shuffle(k[0]).as_ptr(), decode_shuffle(k[2]).as_ptr()),
            );
            let b = _mm256_shuffle_epi8(
                pair(src.add(d1), src.add(d3)),
                pair(decode_shuffle(k[1]).as_ptr(), decode_shuffle(k[3]).as_ptr()),
            );
            // The low 16 bits of each unzigzagged delta, zero above, so the unsigned
            // saturating pack keeps them exactly.
            let unzigzag = |v: __m256i| _mm256_and_si256(unzigzag_u32x8(v), low16);
            let d = _mm256_packus_epi32(unzigzag(a), unzigzag(b));
            let (sums, next) = prefix_u16x16(d, carry);
            _mm256_storeu_si256(dst.add(16 * q).cast(), sums);
            carry = next;
        }
        dp = d3 + data_len(k[3]);
        q += 1;
    }
    (dp, q, _mm256_castsi256_si128(carry))
}

/// Decodes the samples after `stop` (at most 32 when the stream is whole: the group loop
/// stops with fewer than 32 data bytes left, or fewer than 8 samples) from zero-padded
/// copies of their keys and data with the SSSE3 group loop. Returns `stop` unchanged when
/// they do not fit the copies or the data is too short for them: the scalar tail then
/// decodes them, or names the exact truncation.
///
/// # Safety
/// The CPU must support SSSE3; `keys` holds the control bytes of `out.len()` samples;
/// `stop` came from the group loops (whole groups of 8, `dp <= data.len()`).
#[target_feature(enable = "ssse3")]
#[inline]
unsafe fn padded_tail(keys: &[u8], data: &[u8], stop: Stop, out: &mut [MaybeUninit<i16>]) -> Stop {
    const MAX: usize = 32;
    let (dp, done, prev) = stop;
    let rem = out.len() - done;
    let left = &data[dp..];
    if rem == 0 || rem > MAX {
        return stop;
    }
    // Keys of samples done.. (done is a multiple of 8, so they start at a whole byte); the
    // codes past the last sample are cleared, so each padding sample takes one zero byte.
    let mut k = [0u8; MAX / 4];
    let kn = rem.div_ceil(4);
    k[..kn].copy_from_slice(&keys[done / 4..done / 4 + kn]);
    let part = rem % 4;
    if part != 0 {
        k[kn - 1] &= (1u8 << (2 * part)) - 1;
    }
    // The rem samples take at most 4 bytes each (a stream may go on past them); the group
    // loop wants 32 readable bytes at the last group's start.
    let mut d = [0u8; 4 * MAX + 32];
    let take = left.len().min(4 * MAX);
    d[..take].copy_from_slice(&left[..take]);
    let mut s = [MaybeUninit::new(0i16); MAX + 8];
    let groups = rem.div_ceil(8);
    // SAFETY: SSSE3 (caller); `k` holds the keys of 8 * groups samples, `s` their room.
    let (used, g, _) = unsafe { groups8(&k, &d, 0, 0, _mm_set1_epi16(prev), &mut s[..8 * groups]) };
    // Every padding sample took exactly one byte.
    let needed = used - (8 * groups - rem);
    if g != groups || needed > left.len() {
        return stop;
    }
    out[done..].copy_from_slice(&s[..rem]);
    // The last real sample (padding samples may have read the bytes after the stream).
    // SAFETY: `s` was initialised whole and rem >= 1.
    let last = unsafe { s[rem - 1].assume_init() };
    (dp + needed, out.len(), last)
}
