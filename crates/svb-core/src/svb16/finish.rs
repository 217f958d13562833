//! What an Svb16 decode kernel does to each group of eight values before it stores them:
//! nothing ([`Plain`], the codec) or VBZ's integer stage ([`ZigzagDelta`]: zigzag decoding,
//! then a running sum from the previous sample, wrapping in 16 bits). The kernels' loops are
//! generic over it, so the fused VBZ decoder is the Svb16 loop with one more step per group in
//! registers, and `Plain` compiles to exactly the plain loop.
//!
//! The running value is carried as a broadcast vector in the SIMD loops (every lane holds it)
//! and as a `u16` in the scalar tail; for `Plain` it is never read.

#[cfg(target_arch = "aarch64")]
use core::arch::aarch64::*;
#[cfg(target_arch = "x86")]
use core::arch::x86::*;
#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;

/// The step after the unpack of a group of eight values.
pub(crate) trait Finish16: 'static {
    /// What the SIMD loops carry from group to group: nothing for [`Plain`] (so its loops
    /// pass nothing), the running value in every lane for [`ZigzagDelta`].
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    type Sse: Copy;
    /// As [`Finish16::Sse`], for NEON.
    #[cfg(target_arch = "aarch64")]
    type Neon: Copy;

    /// Whether the x86 block loop unpacks a block's eight groups before it finishes any:
    /// for a step with a long chain per group (the prefix sum) the loads and shuffles then
    /// overlap the chain (measured 6% faster for VBZ), for none the plain order is kept.
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    const UNPACK_AHEAD: bool = false;

    /// One value: `v` as unpacked, `acc` the running value; returns the value to store.
    fn one(v: u16, acc: &mut u16) -> u16;

    /// The carry of the running value `acc`.
    ///
    /// # Safety
    /// The CPU must support SSSE3.
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    unsafe fn sse_carry(acc: u16) -> Self::Sse;
    /// The running value a carry holds.
    ///
    /// # Safety
    /// The CPU must support SSSE3.
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    unsafe fn sse_value(carry: Self::Sse) -> u16;
    /// Eight values in `v`, the carry updated to the last stored value.
    ///
    /// # Safety
    /// The CPU must support SSSE3.
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    unsafe fn sse(v: __m128i, carry: &mut Self::Sse) -> __m128i;

    /// As [`Finish16::sse_carry`], for NEON.
    ///
    /// # Safety
    /// The CPU must support NEON.
    #[cfg(target_arch = "aarch64")]
    unsafe fn neon_carry(acc: u16) -> Self::Neon;
    /// As [`Finish16::sse_value`], for NEON.
    ///
    /// # Safety
    /// The CPU must support NEON.
    #[cfg(target_arch = "aarch64")]
    unsafe fn neon_value(carry: Self::Neon) -> u16;
    /// As [`Finish16::sse`], for NEON.
    ///
    /// # Safety
    /// The CPU must support NEON.
    #[cfg(target_arch = "aarch64")]
    unsafe fn neon(v: uint16x8_t, carry: &mut Self::Neon) -> uint16x8_t;
}

/// The values as unpacked.
pub(crate) struct Plain;
/// Each value zigzag-decoded and added to the running sum (wrapping): VBZ's samples from
/// their zigzag deltas.
pub(crate) struct ZigzagDelta;

impl Finish16 for Plain {
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    type Sse = ();
    #[cfg(target_arch = "aarch64")]
    type Neon = ();

    #[inline(always)]
    fn one(v: u16, _: &mut u16) -> u16 {
        v
    }

    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    #[inline(always)]
    unsafe fn sse_carry(_: u16) {}

    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    #[inline(always)]
    unsafe fn sse_value(_: ()) -> u16 {
        0
    }

    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    #[inline(always)]
    unsafe fn sse(v: __m128i, _: &mut ()) -> __m128i {
        v
    }

    #[cfg(target_arch = "aarch64")]
    #[inline(always)]
    unsafe fn neon_carry(_: u16) {}

    #[cfg(target_arch = "aarch64")]
    #[inline(always)]
    unsafe fn neon_value(_: ()) -> u16 {
        0
    }

    #[cfg(target_arch = "aarch64")]
    #[inline(always)]
    unsafe fn neon(v: uint16x8_t, _: &mut ()) -> uint16x8_t {
        v
    }
}

impl Finish16 for ZigzagDelta {
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    type Sse = __m128i;
    #[cfg(target_arch = "aarch64")]
    type Neon = uint16x8_t;
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    const UNPACK_AHEAD: bool = true;

    #[inline(always)]
    fn one(z: u16, acc: &mut u16) -> u16 {
        *acc = acc.wrapping_add((z >> 1) ^ 0u16.wrapping_sub(z & 1));
        *acc
    }

    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    #[inline(always)]
    unsafe fn sse_carry(acc: u16) -> __m128i {
        // SAFETY: SSSE3 (caller) includes SSE2.
        unsafe { _mm_set1_epi16(acc as i16) }
    }

    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    #[inline(always)]
    unsafe fn sse_value(carry: __m128i) -> u16 {
        // SAFETY: SSSE3 (caller) includes SSE2.
        unsafe { _mm_cvtsi128_si32(carry) as u16 }
    }

    #[cfg(target_arch = "aarch64")]
    #[inline(always)]
    unsafe fn neon_carry(acc: u16) -> uint16x8_t {
        // SAFETY: NEON (caller).
        unsafe { vdupq_n_u16(acc) }
    }

    #[cfg(target_arch = "aarch64")]
    #[inline(always)]
    unsafe fn neon_value(carry: uint16x8_t) -> u16 {
        // SAFETY: NEON (caller).
        unsafe { vgetq_lane_u16::<0>(carry) }
    }

    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    #[inline(always)]
    unsafe fn sse(v: __m128i, carry: &mut __m128i) -> __m128i {
        use svb_delta::kernels::x86_64::{prefix_u16x8, unzigzag_u16x8};
        // SAFETY: SSSE3 (caller), which includes SSE2.
        let (sums, next) = unsafe { prefix_u16x8(unzigzag_u16x8(v), *carry) };
        *carry = next;
        sums
    }

    #[cfg(target_arch = "aarch64")]
    #[inline(always)]
    unsafe fn neon(z: uint16x8_t, carry: &mut uint16x8_t) -> uint16x8_t {
        // SAFETY: NEON (caller).
        unsafe {
            // (z >> 1) ^ -(z & 1): the negation of the low bit is all ones or zero.
            let low = vandq_u16(z, vdupq_n_u16(1));
            let mask = vreinterpretq_u16_s16(vnegq_s16(vreinterpretq_s16_u16(low)));
            let d = veorq_u16(vshrq_n_u16::<1>(z), mask);
            let (sums, next) = svb_delta::kernels::aarch64::prefix_u16x8(d, *carry);
            *carry = next;
            sums
        }
    }
}

/// A 16-bit output lane: `u16` (the codec) or `i16` (VBZ's samples), the same bits.
pub(crate) trait Lane16: Copy + 'static {
    /// The lane holding `bits`.
    fn from_bits(bits: u16) -> Self;
}

impl Lane16 for u16 {
    #[inline(always)]
    fn from_bits(bits: u16) -> u16 {
        bits
    }
}

impl Lane16 for i16 {
    #[inline(always)]
    fn from_bits(bits: u16) -> i16 {
        bits as i16
    }
}
