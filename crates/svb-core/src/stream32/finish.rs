//! What a u32 decode kernel does to each group of four values before it stores them: nothing
//! ([`Plain`], the plain codecs), a running sum ([`Delta`], lemire/streamvbyte's
//! `streamvbyte_delta_decode`) or zigzag decoding ([`Unzigzag`]). The kernels are generic over
//! it, so a fused decoder is the plain loop with one more step per group in registers, and
//! `Plain` compiles to exactly the plain loop.
//!
//! The running value is carried as a broadcast vector in the SIMD loops (every lane holds
//! it) and as a `u32` in the scalar tail; for `Plain` and `Unzigzag` it is never read.

#[cfg(target_arch = "aarch64")]
use core::arch::aarch64::*;
#[cfg(target_arch = "x86")]
use core::arch::x86::*;
#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;
use svb_delta::zigzag::Zigzag;

/// The step after the unpack of a group. Implemented by the three unit types below.
pub(crate) trait Finish: 'static {
    /// One value: `v` as unpacked, `acc` the running value (the previous output for
    /// [`Delta`]); returns the value to store.
    fn one(v: u32, acc: &mut u32) -> u32;

    /// Four values in `v`; `carry` holds the running value in every lane (updated to the
    /// last stored value for [`Delta`]).
    ///
    /// # Safety
    /// The CPU must support SSSE3.
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    unsafe fn sse(v: __m128i, carry: &mut __m128i) -> __m128i;

    /// Four values in `v`, as [`Finish::sse`].
    ///
    /// # Safety
    /// The CPU must support NEON.
    #[cfg(target_arch = "aarch64")]
    unsafe fn neon(v: uint32x4_t, carry: &mut uint32x4_t) -> uint32x4_t;
}

/// The values as unpacked.
pub(crate) struct Plain;
/// Each value added to the running sum (wrapping): the stream holds deltas.
pub(crate) struct Delta;
/// Each value zigzag-decoded (`(z >> 1) ^ -(z & 1)`): the stream holds zigzag codes of i32.
pub(crate) struct Unzigzag;

impl Finish for Plain {
    #[inline(always)]
    fn one(v: u32, _: &mut u32) -> u32 {
        v
    }

    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    #[inline(always)]
    unsafe fn sse(v: __m128i, _: &mut __m128i) -> __m128i {
        v
    }

    #[cfg(target_arch = "aarch64")]
    #[inline(always)]
    unsafe fn neon(v: uint32x4_t, _: &mut uint32x4_t) -> uint32x4_t {
        v
    }
}

impl Finish for Delta {
    #[inline(always)]
    fn one(v: u32, acc: &mut u32) -> u32 {
        *acc = acc.wrapping_add(v);
        *acc
    }

    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    #[inline(always)]
    unsafe fn sse(v: __m128i, carry: &mut __m128i) -> __m128i {
        // SAFETY: SSSE3 (caller).
        let (sums, next) = unsafe { svb_delta::kernels::x86_64::prefix_u32x4(v, *carry) };
        *carry = next;
        sums
    }

    #[cfg(target_arch = "aarch64")]
    #[inline(always)]
    unsafe fn neon(v: uint32x4_t, carry: &mut uint32x4_t) -> uint32x4_t {
        // SAFETY: NEON (caller).
        let (sums, next) = unsafe { svb_delta::kernels::aarch64::prefix_u32x4(v, *carry) };
        *carry = next;
        sums
    }
}

impl Finish for Unzigzag {
    #[inline(always)]
    fn one(v: u32, _: &mut u32) -> u32 {
        i32::unzigzag(v) as u32
    }

    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    #[inline(always)]
    unsafe fn sse(v: __m128i, _: &mut __m128i) -> __m128i {
        // SAFETY: SSSE3 (caller) includes SSE2.
        unsafe { svb_delta::kernels::x86_64::unzigzag_u32x4(v) }
    }

    #[cfg(target_arch = "aarch64")]
    #[inline(always)]
    unsafe fn neon(v: uint32x4_t, _: &mut uint32x4_t) -> uint32x4_t {
        // (v >> 1) ^ -(v & 1): the negation of the low bit is all ones or zero.
        // SAFETY: NEON (caller).
        unsafe {
            let low = vandq_u32(v, vdupq_n_u32(1));
            let mask = vreinterpretq_u32_s32(vnegq_s32(vreinterpretq_s32_u32(low)));
            veorq_u32(vshrq_n_u32::<1>(v), mask)
        }
    }
}
