//! What a u32 encode kernel packs for each input value: the value itself ([`Values`], the
//! plain codecs), its wrapping difference from the value before it ([`Deltas`],
//! lemire/streamvbyte's `streamvbyte_delta_encode`) or its zigzag code ([`Zigzags`], an i32
//! as lemire/streamvbyte's `zigzag_encode` maps it). The encode loops are generic over it, as
//! the decode loops are over their [`Finish`](super::finish::Finish) step, so the delta
//! encoder is the plain loop with each load replaced by a load of the differences (two loads
//! and a subtraction, in registers): no pass that writes the deltas out and reads them back,
//! and `Values` compiles to exactly the plain loop.

#[cfg(target_arch = "aarch64")]
use core::arch::aarch64::*;
#[cfg(target_arch = "x86")]
use core::arch::x86::*;
#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;

/// Where the u32 codes of an encode come from. Implemented by the unit types below.
pub(crate) trait Source: 'static {
    /// Whether a value's code reads the value before it. The SIMD loops of such a source
    /// start after their first block or group, whose first codes are made with `prev`
    /// (`sse_first`, `neon_first`); every other load reads one value before the values it
    /// loads.
    const PREV: bool;

    /// The code of value `i` of `values`; `prev` stands for the value before the first.
    fn code(values: &[u32], i: usize, prev: u32) -> u32;

    /// The codes of the four values at `p`.
    ///
    /// # Safety
    /// The CPU must support SSSE3; the four values at `p`, and when [`Source::PREV`] the one
    /// before them, must be readable.
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    unsafe fn sse(p: *const u32) -> __m128i;

    /// The codes of the first four values, at `p` (`prev` the value before them; only a
    /// source that reads the value before overrides this).
    ///
    /// # Safety
    /// The CPU must support SSSE3; the four values at `p` must be readable.
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    #[inline(always)]
    unsafe fn sse_first(p: *const u32, prev: u32) -> __m128i {
        let _ = prev;
        // SAFETY: the caller's contract, less the value before.
        unsafe { Self::sse(p) }
    }

    /// The codes of the eight values at `p`.
    ///
    /// # Safety
    /// The CPU must support AVX2; the eight values at `p`, and when [`Source::PREV`] the one
    /// before them, must be readable.
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    unsafe fn avx2(p: *const u32) -> __m256i;

    /// The codes of the four values at `p`.
    ///
    /// # Safety
    /// The CPU must support NEON; the four values at `p`, and when [`Source::PREV`] the one
    /// before them, must be readable.
    #[cfg(target_arch = "aarch64")]
    unsafe fn neon(p: *const u32) -> uint32x4_t;

    /// The codes of the first four values, at `p` (`prev` the value before them; only a
    /// source that reads the value before overrides this).
    ///
    /// # Safety
    /// The CPU must support NEON; the four values at `p` must be readable.
    #[cfg(target_arch = "aarch64")]
    #[inline(always)]
    unsafe fn neon_first(p: *const u32, prev: u32) -> uint32x4_t {
        let _ = prev;
        // SAFETY: the caller's contract, less the value before.
        unsafe { Self::neon(p) }
    }
}

/// The values themselves (U32Classic, U32Variant0124).
pub(crate) struct Values;

/// The wrapping difference of each value from the one before it (U32Delta).
pub(crate) struct Deltas;

/// The zigzag code of each value taken as an i32 (I32Zigzag): `(v << 1) ^ (v >> 31)`, the
/// shift arithmetic.
pub(crate) struct Zigzags;

impl Source for Zigzags {
    const PREV: bool = false;

    #[inline(always)]
    fn code(values: &[u32], i: usize, _: u32) -> u32 {
        let v = values[i];
        (v << 1) ^ ((v as i32 >> 31) as u32)
    }

    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    #[inline(always)]
    unsafe fn sse(p: *const u32) -> __m128i {
        // SAFETY: four readable values at p (caller).
        unsafe {
            let v = _mm_loadu_si128(p.cast());
            _mm_xor_si128(_mm_slli_epi32::<1>(v), _mm_srai_epi32::<31>(v))
        }
    }

    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    #[inline(always)]
    unsafe fn avx2(p: *const u32) -> __m256i {
        // SAFETY: AVX2 and eight readable values at p (caller).
        unsafe {
            let v = _mm256_loadu_si256(p.cast());
            _mm256_xor_si256(_mm256_slli_epi32::<1>(v), _mm256_srai_epi32::<31>(v))
        }
    }

    #[cfg(target_arch = "aarch64")]
    #[inline(always)]
    unsafe fn neon(p: *const u32) -> uint32x4_t {
        // SAFETY: NEON and four readable values at p (caller).
        unsafe {
            let v = vld1q_u32(p);
            let sign = vreinterpretq_u32_s32(vshrq_n_s32::<31>(vreinterpretq_s32_u32(v)));
            veorq_u32(vshlq_n_u32::<1>(v), sign)
        }
    }
}

impl Source for Values {
    const PREV: bool = false;

    #[inline(always)]
    fn code(values: &[u32], i: usize, _: u32) -> u32 {
        values[i]
    }

    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    #[inline(always)]
    unsafe fn sse(p: *const u32) -> __m128i {
        // SAFETY: four readable values at p (caller).
        unsafe { _mm_loadu_si128(p.cast()) }
    }

    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    #[inline(always)]
    unsafe fn avx2(p: *const u32) -> __m256i {
        // SAFETY: AVX2 and eight readable values at p (caller).
        unsafe { _mm256_loadu_si256(p.cast()) }
    }

    #[cfg(target_arch = "aarch64")]
    #[inline(always)]
    unsafe fn neon(p: *const u32) -> uint32x4_t {
        // SAFETY: NEON and four readable values at p (caller).
        unsafe { vld1q_u32(p) }
    }
}

impl Source for Deltas {
    const PREV: bool = true;

    #[inline(always)]
    fn code(values: &[u32], i: usize, prev: u32) -> u32 {
        let before = if i == 0 { prev } else { values[i - 1] };
        values[i].wrapping_sub(before)
    }

    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    #[inline(always)]
    unsafe fn sse(p: *const u32) -> __m128i {
        // SAFETY: the values from p - 1 to p + 3 are readable (caller).
        unsafe { _mm_sub_epi32(_mm_loadu_si128(p.cast()), _mm_loadu_si128(p.sub(1).cast())) }
    }

    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    #[inline(always)]
    unsafe fn sse_first(p: *const u32, prev: u32) -> __m128i {
        // SAFETY: SSSE3 and four readable values at p (caller).
        unsafe {
            let v = _mm_loadu_si128(p.cast());
            // [prev, v0, v1, v2]: the top lane of the broadcast prev, then v's low three.
            _mm_sub_epi32(v, _mm_alignr_epi8::<12>(v, _mm_set1_epi32(prev as i32)))
        }
    }

    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    #[inline(always)]
    unsafe fn avx2(p: *const u32) -> __m256i {
        // SAFETY: AVX2; the values from p - 1 to p + 7 are readable (caller).
        unsafe {
            _mm256_sub_epi32(_mm256_loadu_si256(p.cast()), _mm256_loadu_si256(p.sub(1).cast()))
        }
    }

    #[cfg(target_arch = "aarch64")]
    #[inline(always)]
    unsafe fn neon(p: *const u32) -> uint32x4_t {
        // SAFETY: NEON; the values from p - 1 to p + 3 are readable (caller).
        unsafe { vsubq_u32(vld1q_u32(p), vld1q_u32(p.sub(1))) }
    }

    #[cfg(target_arch = "aarch64")]
    #[inline(always)]
    unsafe fn neon_first(p: *const u32, prev: u32) -> uint32x4_t {
        // SAFETY: NEON and four readable values at p (caller).
        unsafe {
            let v = vld1q_u32(p);
            // [prev, v0, v1, v2]: the top lane of the broadcast prev, then v's low three.
            vsubq_u32(v, vextq_u32::<3>(vdupq_n_u32(prev), v))
        }
    }
}
