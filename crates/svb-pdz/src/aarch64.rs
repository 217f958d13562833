//! The vectorised section's merge on AArch64: the x86 merge's steps in NEON (pieces ORed,
//! unzigzag, prefix sum from the running sample, one pass a chunk).

use core::arch::aarch64::*;

use crate::split::{merge_tail, u_len, vector_samples};

/// The merge of the planes into `out` (see [`crate::split::merge`], which it equals).
///
/// # Safety
/// The CPU must support NEON.
#[target_feature(enable = "neon")]
pub(crate) unsafe fn merge_neon(u: &[u8], l: &[u8], h: &[u8], out: &mut [i16]) {
    let n = out.len();
    assert!(u.len() == u_len(n) && l.len() == n && h.len() == n, "plane lengths");
    let p = vector_samples(n);
    let mut carry = vdupq_n_u16(0);
    for g in 0..p / 64 {
        // SAFETY: group g reads u[16g..16g + 16], l and h [64g..64g + 64] and writes
        // out[64g..64g + 64]; g < p / 64, and u holds p / 4 bytes of the vectorised
        // section, l, h and out n >= p (asserted above). NEON (caller).
        carry = unsafe {
            group(
                u.as_ptr().add(16 * g),
                l.as_ptr().add(64 * g),
                h.as_ptr().add(64 * g),
                out.as_mut_ptr().add(64 * g),
                carry,
            )
        };
    }
    merge_tail(u, l, h, p, vgetq_lane_u16::<0>(carry), out);
}

/// One 64-sample group: returns the carry (its last sample in every lane).
///
/// # Safety
/// NEON; 16 bytes readable at `u`, 64 at `l` and `h`, 64 samples writable at `out`.
#[inline(always)]
unsafe fn group(
    u: *const u8, l: *const u8, h: *const u8, out: *mut i16, mut carry: uint16x8_t,
) -> uint16x8_t {
    // SAFETY: the caller's bounds and ISA.
    unsafe {
        let zero = vdupq_n_u16(0);
        let words = vreinterpretq_u16_u8(vld1q_u8(u));
        let finish = |z: uint16x8_t, c: usize, carry: uint16x8_t| {
            let sign = vreinterpretq_u16_s16(vnegq_s16(vreinterpretq_s16_u16(vandq_u16(
                z,
                vdupq_n_u16(1),
            ))));
            let d = veorq_u16(vshrq_n_u16::<1>(z), sign);
            let mut x = vaddq_u16(d, vextq_u16::<7>(zero, d));
            x = vaddq_u16(x, vextq_u16::<6>(zero, x));
            x = vaddq_u16(x, vextq_u16::<4>(zero, x));
            x = vaddq_u16(x, carry);
            vst1q_s16(out.add(8 * c), vreinterpretq_s16_u16(x));
            vdupq_laneq_u16::<7>(x)
        };
        for q in 0..4 {
            let lr = vreinterpretq_u16_u8(vld1q_u8(l.add(16 * q)));
            let hr = vreinterpretq_u16_u8(vld1q_u8(h.add(16 * q)));
            let u_of =
                |c: usize| vandq_u16(vshlq_u16(words, vdupq_n_s16(-2 * c as i16)), vdupq_n_u16(3));
            let even = vorrq_u16(
                vorrq_u16(u_of(2 * q), vshlq_n_u16::<2>(vandq_u16(lr, vdupq_n_u16(0x00FF)))),
                vshlq_n_u16::<8>(hr),
            );
            let odd = vorrq_u16(
                vorrq_u16(u_of(2 * q + 1), vshlq_n_u16::<2>(vshrq_n_u16::<8>(lr))),
                vandq_u16(hr, vdupq_n_u16(0xFF00)),
            );
            carry = finish(even, 2 * q, carry);
            carry = finish(odd, 2 * q + 1, carry);
        }
        carry
    }
}

/// The split of `samples` into the planes (see [`crate::split::split`], whose bytes it
/// writes): the x86 split's steps in NEON.
///
/// # Safety
/// The CPU must support NEON.
#[target_feature(enable = "neon")]
pub(crate) unsafe fn split_neon(samples: &[i16], u: &mut [u8], l: &mut [u8], h: &mut [u8]) {
    let n = samples.len();
    assert!(u.len() == u_len(n) && l.len() == n && h.len() == n, "plane lengths");
    let p = vector_samples(n);
    let mut before = vdupq_n_s16(0);
    for g in 0..p / 64 {
        // SAFETY: group g reads samples[64g..64g + 64] and writes u[16g..16g + 16], l and h
        // [64g..64g + 64]; g < p / 64, and samples, l and h hold n >= p, u p / 4 bytes of
        // the vectorised section (asserted above). NEON (caller).
        before = unsafe {
            split_group(
                samples.as_ptr().add(64 * g),
                u.as_mut_ptr().add(16 * g),
                l.as_mut_ptr().add(64 * g),
                h.as_mut_ptr().add(64 * g),
                before,
            )
        };
    }
    let prev = if p == 0 { 0 } else { samples[p - 1] as u16 };
    crate::split::split_tail(samples, u, l, h, p, prev);
}

/// One 64-sample group; `before` holds the sample before it in its last lane. Returns the
/// group's last chunk.
///
/// # Safety
/// NEON; 64 samples readable at `x`, 16 bytes writable at `u`, 64 at `l` and `h`.
#[inline(always)]
unsafe fn split_group(
    x: *const i16, u: *mut u8, l: *mut u8, h: *mut u8, mut before: int16x8_t,
) -> int16x8_t {
    // SAFETY: the caller's bounds and ISA.
    unsafe {
        let mut words = vdupq_n_u16(0);
        let mut zigzag = |c: usize| {
            let v = vld1q_s16(x.add(8 * c));
            let d = vsubq_s16(v, vextq_s16::<7>(before, v));
            before = v;
            let z = vreinterpretq_u16_s16(veorq_s16(vshlq_n_s16::<1>(d), vshrq_n_s16::<15>(d)));
            let piece = vshlq_u16(vandq_u16(z, vdupq_n_u16(3)), vdupq_n_s16(2 * c as i16));
            words = vorrq_u16(words, piece);
            z
        };
        for q in 0..4 {
            let (even, odd) = (zigzag(2 * q), zigzag(2 * q + 1));
            let l_row = vorrq_u16(
                vandq_u16(vshrq_n_u16::<2>(even), vdupq_n_u16(0x00FF)),
                vandq_u16(vshlq_n_u16::<6>(odd), vdupq_n_u16(0xFF00)),
            );
            let h_row = vorrq_u16(
                vandq_u16(vshrq_n_u16::<8>(even), vdupq_n_u16(0x00FC)),
                vandq_u16(odd, vdupq_n_u16(0xFC00)),
            );
            vst1q_u8(l.add(16 * q), vreinterpretq_u8_u16(l_row));
            vst1q_u8(h.add(16 * q), vreinterpretq_u8_u16(h_row));
        }
        vst1q_u8(u, vreinterpretq_u8_u16(words));
        before
    }
}
