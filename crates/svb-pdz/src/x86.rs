//! The vectorised section's merge on x86: per 8-sample chunk the three pieces ORed into the
//! zig-zag codes, unzigzagged and prefix-summed from the running sample in registers, one
//! pass (ONT's decoder merges, then sums in a scalar loop over the output). SSSE3 and AVX2
//! run the same code (VEX-encoded under AVX2).

#[cfg(target_arch = "x86")]
use core::arch::x86::*;
#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;

use crate::split::{merge_tail, u_len, vector_samples};

/// The merge of the planes into `out` (see [`crate::split::merge`], which it equals).
///
/// # Safety
/// The CPU must support SSSE3.
#[target_feature(enable = "ssse3")]
pub(crate) unsafe fn merge_ssse3(u: &[u8], l: &[u8], h: &[u8], out: &mut [i16]) {
    // SAFETY: SSSE3 (caller).
    unsafe { merge_body(u, l, h, out) }
}

/// As [`merge_ssse3`], compiled for AVX2.
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn merge_avx2(u: &[u8], l: &[u8], h: &[u8], out: &mut [i16]) {
    // SAFETY: AVX2 (caller) includes SSSE3.
    unsafe { merge_body(u, l, h, out) }
}

/// # Safety
/// SSSE3.
#[inline(always)]
unsafe fn merge_body(u: &[u8], l: &[u8], h: &[u8], out: &mut [i16]) {
    let n = out.len();
    assert!(u.len() == u_len(n) && l.len() == n && h.len() == n, "plane lengths");
    let p = vector_samples(n);
    let groups = p / 64;
    // SAFETY: group g reads u[16g..16g + 16], l and h [64g..64g + 64] and writes
    // out[64g..64g + 64]; g < p / 64, and u holds p / 4 = 16 (p / 64) bytes of the
    // vectorised section, l, h and out n >= p (asserted above). SSSE3 (caller).
    let carry = unsafe {
        let mut carry = _mm_setzero_si128();
        for g in 0..groups {
            carry = group(
                u.as_ptr().add(16 * g),
                l.as_ptr().add(64 * g),
                h.as_ptr().add(64 * g),
                out.as_mut_ptr().add(64 * g),
                carry,
            );
        }
        carry
    };
    // SAFETY: SSE2 (caller).
    let x = unsafe { _mm_extract_epi16::<0>(carry) } as u16;
    merge_tail(u, l, h, p, x, out);
}

/// One 64-sample group: returns the carry (its last sample in every lane).
///
/// # Safety
/// SSSE3; 16 bytes readable at `u`, 64 at `l` and `h`, 64 samples writable at `out`.
#[inline(always)]
unsafe fn group(
    u: *const u8, l: *const u8, h: *const u8, out: *mut i16, mut carry: __m128i,
) -> __m128i {
    // SAFETY: the caller's bounds and ISA.
    unsafe {
        let three = _mm_set1_epi16(3);
        let low = _mm_set1_epi16(0x00FF);
        let high = _mm_set1_epi16(0xFF00u16 as i16);
        let one = _mm_set1_epi16(1);
        let last = _mm_set1_epi16(0x0F0E);
        let words = _mm_loadu_si128(u.cast());
        // Unzigzag, prefix-sum from the carry, store chunk `c`; the new carry.
        let finish = |z: __m128i, c: usize, carry: __m128i| {
            let d = _mm_xor_si128(
                _mm_srli_epi16::<1>(z),
                _mm_sub_epi16(_mm_setzero_si128(), _mm_and_si128(z, one)),
            );
            let mut x = _mm_add_epi16(d, _mm_slli_si128::<2>(d));
            x = _mm_add_epi16(x, _mm_slli_si128::<4>(x));
            x = _mm_add_epi16(x, _mm_slli_si128::<8>(x));
            x = _mm_add_epi16(x, carry);
            _mm_storeu_si128(out.add(8 * c).cast(), x);
            _mm_shuffle_epi8(x, last)
        };
        for q in 0..4 {
            let lr = _mm_loadu_si128(l.add(16 * q).cast());
            let hr = _mm_loadu_si128(h.add(16 * q).cast());
            let u_of = |c: usize| {
                _mm_and_si128(_mm_srl_epi16(words, _mm_cvtsi32_si128(2 * c as i32)), three)
            };
            // Chunk 2q: the even bytes of the rows; chunk 2q + 1: the odd bytes.
            let even = _mm_or_si128(
                _mm_or_si128(u_of(2 * q), _mm_slli_epi16::<2>(_mm_and_si128(lr, low))),
                _mm_slli_epi16::<8>(hr),
            );
            let odd = _mm_or_si128(
                _mm_or_si128(u_of(2 * q + 1), _mm_slli_epi16::<2>(_mm_srli_epi16::<8>(lr))),
                _mm_and_si128(hr, high),
            );
            carry = finish(even, 2 * q, carry);
            carry = finish(odd, 2 * q + 1, carry);
        }
        carry
    }
}

/// The split of `samples` into the planes (see [`crate::split::split`], whose bytes it
/// writes): per 8-sample chunk the deltas (`alignr` with the chunk before), zig-zag and the
/// three pieces in registers, two chunks' pieces interleaved into one 16-byte row of each
/// plane.
///
/// # Safety
/// The CPU must support SSSE3.
#[target_feature(enable = "ssse3")]
pub(crate) unsafe fn split_ssse3(samples: &[i16], u: &mut [u8], l: &mut [u8], h: &mut [u8]) {
    // SAFETY: SSSE3 (caller).
    unsafe { split_body(samples, u, l, h) }
}

/// As [`split_ssse3`], compiled for AVX2.
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn split_avx2(samples: &[i16], u: &mut [u8], l: &mut [u8], h: &mut [u8]) {
    // SAFETY: AVX2 (caller) includes SSSE3.
    unsafe { split_body(samples, u, l, h) }
}

/// # Safety
/// SSSE3.
#[inline(always)]
unsafe fn split_body(samples: &[i16], u: &mut [u8], l: &mut [u8], h: &mut [u8]) {
    let n = samples.len();
    assert!(u.len() == u_len(n) && l.len() == n && h.len() == n, "plane lengths");
    let p = vector_samples(n);
    // SAFETY: group g reads samples[64g..64g + 64] and writes u[16g..16g + 16], l and h
    // [64g..64g + 64]; g < p / 64, and samples, l and h hold n >= p, u p / 4 = 16 (p / 64)
    // bytes of the vectorised section (asserted above). SSSE3 (caller).
    unsafe {
        let mut before = _mm_setzero_si128();
        for g in 0..p / 64 {
            before = split_group(
                samples.as_ptr().add(64 * g),
                u.as_mut_ptr().add(16 * g),
                l.as_mut_ptr().add(64 * g),
                h.as_mut_ptr().add(64 * g),
                before,
            );
        }
    }
    let prev = if p == 0 { 0 } else { samples[p - 1] as u16 };
    crate::split::split_tail(samples, u, l, h, p, prev);
}

/// One 64-sample group; `before` holds the sample before it in its last lane. Returns the
/// group's last chunk (the next group's `before`).
///
/// # Safety
/// SSSE3; 64 samples readable at `x`, 16 bytes writable at `u`, 64 at `l` and `h`.
#[inline(always)]
unsafe fn split_group(
    x: *const i16, u: *mut u8, l: *mut u8, h: *mut u8, mut before: __m128i,
) -> __m128i {
    // SAFETY: the caller's bounds and ISA.
    unsafe {
        let three = _mm_set1_epi16(3);
        let low = _mm_set1_epi16(0x00FF);
        let high = _mm_set1_epi16(0xFF00u16 as i16);
        let h_even = _mm_set1_epi16(0x00FC);
        let h_odd = _mm_set1_epi16(0xFC00u16 as i16);
        let mut words = _mm_setzero_si128();
        let mut zigzag = |c: usize| {
            let v = _mm_loadu_si128(x.add(8 * c).cast());
            let d = _mm_sub_epi16(v, _mm_alignr_epi8::<14>(v, before));
            before = v;
            let z = _mm_xor_si128(_mm_slli_epi16::<1>(d), _mm_srai_epi16::<15>(d));
            let piece = _mm_sll_epi16(_mm_and_si128(z, three), _mm_cvtsi32_si128(2 * c as i32));
            words = _mm_or_si128(words, piece);
            z
        };
        for q in 0..4 {
            let (even, odd) = (zigzag(2 * q), zigzag(2 * q + 1));
            // Row q of each plane: chunk 2q in the even bytes, chunk 2q + 1 in the odd ones.
            let l_row = _mm_or_si128(
                _mm_and_si128(_mm_srli_epi16::<2>(even), low),
                _mm_and_si128(_mm_slli_epi16::<6>(odd), high),
            );
            let h_row = _mm_or_si128(
                _mm_and_si128(_mm_srli_epi16::<8>(even), h_even),
                _mm_and_si128(odd, h_odd),
            );
            _mm_storeu_si128(l.add(16 * q).cast(), l_row);
            _mm_storeu_si128(h.add(16 * q).cast(), h_row);
        }
        _mm_storeu_si128(u.cast(), words);
        before
    }
}
