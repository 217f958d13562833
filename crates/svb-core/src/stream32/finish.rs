//! What a u32 decode kernel does to each group of four values before it stores them: nothing
//! ([`Plain`], the plain codecs), a running sum ([`Delta`], lemire/streamvbyte's
//! `streamvbyte_delta_decode`), a constant added ([`Offset`]) or zigzag decoding
//! ([`Unzigzag`]). The kernels are generic over
//! it, so a fused decoder is the plain loop with one more step per group in registers, and
//! `Plain` compiles to exactly the plain loop.
//!
//! The running value is carried as a broadcast vector in the SIMD loops (every lane holds
//! it) and as a `u32` in the scalar tail; for `Plain` and `Unzigzag` it is never read, for
//! `Offset` it is the base and never changes.

#[cfg(target_arch = "aarch64")]
use core::arch::aarch64::*;
#[cfg(target_arch = "x86")]
use core::arch::x86::*;
#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;
use svb_delta::zigzag::Zigzag;

/// The step after the unpack of a group. Implemented by the unit types below.
pub(crate) trait Finish: 'static {
    /// What is stored: `u32` lanes, or for [`ZigzagDelta16`] the low 16 bits of each.
    type Out: Lane32;

    /// Whether the SIMD loops hand this step two groups at a time
    /// ([`Finish::sse_pair`] / [`Finish::neon_pair`]): eight 16-bit outputs, one store.
    const PAIRS: bool = false;

    /// Whether the values as unpacked must not be zero (a strictly increasing list's
    /// deltas): the SIMD block loops then OR a compare of each group with zero into a vector
    /// of their own, which [`ZeroCheck`] reports. Not with [`Finish::PAIRS`].
    const NONZERO: bool = false;

    /// Whether the x86 block loop hands a block of 32 one-byte values (control word 0) to
    /// [`Finish::sse_ones8`], eight at a time, instead of unpacking its 8 groups.
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    const ONES: bool = false;

    /// One value: `v` as unpacked, `acc` the running value (the previous output for
    /// [`Delta`]); returns the value to store (as [`Finish::Out`] takes it).
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

    /// Eight one-byte values (the low 8 bytes of `bytes`) finished into two vectors of four,
    /// when [`Finish::ONES`].
    ///
    /// # Safety
    /// The CPU must support SSSE3.
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    #[inline(always)]
    unsafe fn sse_ones8(bytes: __m128i, carry: &mut __m128i) -> (__m128i, __m128i) {
        let _ = (bytes, carry);
        unreachable!("only steps with ONES take one-byte blocks")
    }

    /// Two groups (`v0` then `v1`) into eight 16-bit outputs, when [`Finish::PAIRS`].
    ///
    /// # Safety
    /// The CPU must support SSSE3.
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    #[inline(always)]
    unsafe fn sse_pair(v0: __m128i, v1: __m128i, carry: &mut __m128i) -> __m128i {
        let _ = (v0, v1, carry);
        unreachable!("only steps with PAIRS take groups in pairs")
    }

    /// As [`Finish::sse_pair`], for NEON.
    ///
    /// # Safety
    /// The CPU must support NEON.
    #[cfg(target_arch = "aarch64")]
    #[inline(always)]
    unsafe fn neon_pair(v0: uint32x4_t, v1: uint32x4_t, carry: &mut uint32x4_t) -> uint32x4_t {
        let _ = (v0, v1, carry);
        unreachable!("only steps with PAIRS take groups in pairs")
    }
}

/// An output lane of the u32 loops: `u32` (the codecs) or `i16` (SVB-ZD's samples, the low
/// 16 bits of each value).
pub(crate) trait Lane32: Copy + Default + 'static {
    /// The lane holding `v` (its low 16 bits for `i16`).
    fn from_u32(v: u32) -> Self;

    /// The lane's value as the loops' running value (`acc`).
    fn to_u32(self) -> u32;

    /// Stores the four values of a finished group at `dst`.
    ///
    /// # Safety
    /// The CPU must support SSSE3; four lanes must be writable at `dst`.
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    unsafe fn store4(dst: *mut Self, v: __m128i);

    /// As [`Lane32::store4`], for NEON.
    ///
    /// # Safety
    /// The CPU must support NEON; four lanes must be writable at `dst`.
    #[cfg(target_arch = "aarch64")]
    unsafe fn store4_neon(dst: *mut Self, v: uint32x4_t);
}

impl Lane32 for u32 {
    #[inline(always)]
    fn from_u32(v: u32) -> u32 {
        v
    }

    #[inline(always)]
    fn to_u32(self) -> u32 {
        self
    }

    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    #[inline(always)]
    unsafe fn store4(dst: *mut u32, v: __m128i) {
        // SAFETY: four u32 (16 bytes) writable at dst (caller); SSE2 (caller's SSSE3).
        unsafe { _mm_storeu_si128(dst.cast(), v) }
    }

    #[cfg(target_arch = "aarch64")]
    #[inline(always)]
    unsafe fn store4_neon(dst: *mut u32, v: uint32x4_t) {
        // SAFETY: four u32 writable at dst (caller); NEON (caller).
        unsafe { vst1q_u32(dst, v) }
    }
}

impl Lane32 for i16 {
    #[inline(always)]
    fn from_u32(v: u32) -> i16 {
        v as i16
    }

    /// In both halves, as [`ZigzagDelta16`]'s running value is kept: a u32 broadcast of it is
    /// the sample in every 16-bit lane.
    #[inline(always)]
    fn to_u32(self) -> u32 {
        u32::from(self as u16) * 0x0001_0001
    }

    /// `v` holds the group's four values in its low four 16-bit lanes (as
    /// [`ZigzagDelta16`] leaves them).
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    #[inline(always)]
    unsafe fn store4(dst: *mut i16, v: __m128i) {
        // SAFETY: four i16 (8 bytes) writable at dst (caller); SSE2 (caller's SSSE3).
        unsafe { _mm_storel_epi64(dst.cast(), v) }
    }

    #[cfg(target_arch = "aarch64")]
    #[inline(always)]
    unsafe fn store4_neon(dst: *mut i16, v: uint32x4_t) {
        // SAFETY: four i16 writable at dst (caller); NEON (caller).
        unsafe { vst1_u16(dst.cast(), vget_low_u16(vreinterpretq_u16_u32(v))) }
    }
}

/// What a decode with a [`Finish::NONZERO`] step reports besides the values: the bytes it
/// consumed, how many leading values (`checked`, a multiple of 4) its block loop compared
/// with zero, whether one of those was zero, and whether one of them took 4 bytes (code 3
/// of the classic wire, the only wire these steps run on). The values after `checked`
/// (decoded by the tails, or every value by the scalar kernel: `checked` 0) were not
/// looked at: the caller checks them itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ZeroCheck {
    pub(crate) used: usize,
    pub(crate) checked: usize,
    pub(crate) zero: bool,
    pub(crate) long: bool,
}

/// The values as unpacked.
pub(crate) struct Plain;
/// Each value added to the running sum (wrapping): the stream holds deltas.
pub(crate) struct Delta;
/// Each value plus a base (wrapping): the carry holds the base in every lane and never
/// changes. Frame-of-reference streams (values stored minus a base), counts stored minus one.
pub(crate) struct Offset;
/// [`Delta`] whose unpacked values (the deltas) are also compared with zero
/// ([`Finish::NONZERO`]): the decode of a list that must strictly increase.
pub(crate) struct DeltaNonZero;
/// Each value zigzag-decoded (`(z >> 1) ^ -(z & 1)`): the stream holds zigzag codes of i32.
pub(crate) struct Unzigzag;
/// SVB-ZD's samples: each value zigzag-decoded and added to the running sum, the low 16 bits
/// stored (the differences were taken in 32 bits, so a jump past 32767 is one value). The
/// SIMD loops narrow to 16-bit lanes first and sum those, two groups at a time: the carry is
/// the running sample in every 16-bit lane.
pub(crate) struct ZigzagDelta16;

impl Finish for Plain {
    type Out = u32;

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

impl Finish for Offset {
    type Out = u32;

    #[inline(always)]
    fn one(v: u32, base: &mut u32) -> u32 {
        v.wrapping_add(*base)
    }

    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    #[inline(always)]
    unsafe fn sse(v: __m128i, base: &mut __m128i) -> __m128i {
        // SAFETY: SSSE3 (caller) includes SSE2.
        unsafe { _mm_add_epi32(v, *base) }
    }

    #[cfg(target_arch = "aarch64")]
    #[inline(always)]
    unsafe fn neon(v: uint32x4_t, base: &mut uint32x4_t) -> uint32x4_t {
        // SAFETY: NEON (caller).
        unsafe { vaddq_u32(v, *base) }
    }
}

impl Finish for Delta {
    type Out = u32;
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    const ONES: bool = true;

    /// Sums of up to four bytes fit 16-bit lanes: two shift-adds there give each lane the sum
    /// of its value and the three before it, so the low four lanes are prefix sums and each
    /// high lane plus the low lane four before it is one too (one shift-add fewer than a full
    /// eight-lane prefix, as the C reference does for its all-one-byte blocks).
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    #[inline(always)]
    unsafe fn sse_ones8(bytes: __m128i, carry: &mut __m128i) -> (__m128i, __m128i) {
        // SAFETY: SSSE3 (caller) includes SSE2.
        unsafe {
            let zero = _mm_setzero_si128();
            let v = _mm_unpacklo_epi8(bytes, zero);
            let v = _mm_add_epi16(v, _mm_slli_si128::<2>(v));
            let v = _mm_add_epi16(v, _mm_slli_si128::<4>(v));
            let lo = _mm_add_epi32(_mm_unpacklo_epi16(v, zero), *carry);
            let hi = _mm_add_epi32(_mm_unpackhi_epi16(v, zero), lo);
            *carry = _mm_shuffle_epi32::<0xFF>(hi);
            (lo, hi)
        }
    }

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

impl Finish for DeltaNonZero {
    type Out = u32;
    const NONZERO: bool = true;
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    const ONES: bool = true;

    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    #[inline(always)]
    unsafe fn sse_ones8(bytes: __m128i, carry: &mut __m128i) -> (__m128i, __m128i) {
        // SAFETY: SSSE3 (caller).
        unsafe { Delta::sse_ones8(bytes, carry) }
    }

    #[inline(always)]
    fn one(v: u32, acc: &mut u32) -> u32 {
        Delta::one(v, acc)
    }

    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    #[inline(always)]
    unsafe fn sse(v: __m128i, carry: &mut __m128i) -> __m128i {
        // SAFETY: SSSE3 (caller).
        unsafe { Delta::sse(v, carry) }
    }

    #[cfg(target_arch = "aarch64")]
    #[inline(always)]
    unsafe fn neon(v: uint32x4_t, carry: &mut uint32x4_t) -> uint32x4_t {
        // SAFETY: NEON (caller).
        unsafe { Delta::neon(v, carry) }
    }
}

impl Finish for Unzigzag {
    type Out = u32;

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

/// The low 16 bits of each 32-bit lane of `v` into its low four 16-bit lanes (zero above),
/// or into its high four with `HIGH`.
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
#[inline(always)]
unsafe fn narrow<const HIGH: bool>(v: __m128i) -> __m128i {
    // SAFETY: SSSE3 (caller).
    unsafe {
        let m = if HIGH {
            _mm_setr_epi8(-1, -1, -1, -1, -1, -1, -1, -1, 0, 1, 4, 5, 8, 9, 12, 13)
        } else {
            _mm_setr_epi8(0, 1, 4, 5, 8, 9, 12, 13, -1, -1, -1, -1, -1, -1, -1, -1)
        };
        _mm_shuffle_epi8(v, m)
    }
}

/// `(z >> 1) ^ -(z & 1)` in each 32-bit lane.
#[cfg(target_arch = "aarch64")]
#[inline(always)]
unsafe fn unzigzag_neon(v: uint32x4_t) -> uint32x4_t {
    // SAFETY: NEON (caller).
    unsafe {
        let low = vandq_u32(v, vdupq_n_u32(1));
        let mask = vreinterpretq_u32_s32(vnegq_s32(vreinterpretq_s32_u32(low)));
        veorq_u32(vshrq_n_u32::<1>(v), mask)
    }
}

impl Finish for ZigzagDelta16 {
    type Out = i16;
    const PAIRS: bool = true;

    #[inline(always)]
    fn one(v: u32, acc: &mut u32) -> u32 {
        *acc = acc.wrapping_add(i32::unzigzag(v) as u32);
        *acc
    }

    /// A lone group: its four samples in the low 16-bit lanes; the zero lanes above add
    /// nothing, so the carry out is the last sample.
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    #[inline(always)]
    unsafe fn sse(v: __m128i, carry: &mut __m128i) -> __m128i {
        use svb_delta::kernels::x86_64::{prefix_u16x8, unzigzag_u32x4};
        // SAFETY: SSSE3 (caller).
        let (sums, next) = unsafe { prefix_u16x8(narrow::<false>(unzigzag_u32x4(v)), *carry) };
        *carry = next;
        sums
    }

    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    #[inline(always)]
    unsafe fn sse_pair(v0: __m128i, v1: __m128i, carry: &mut __m128i) -> __m128i {
        use svb_delta::kernels::x86_64::{prefix_u16x8, unzigzag_u32x4};
        // SAFETY: SSSE3 (caller).
        let (sums, next) = unsafe {
            let d = _mm_or_si128(
                narrow::<false>(unzigzag_u32x4(v0)),
                narrow::<true>(unzigzag_u32x4(v1)),
            );
            prefix_u16x8(d, *carry)
        };
        *carry = next;
        sums
    }

    #[cfg(target_arch = "aarch64")]
    #[inline(always)]
    unsafe fn neon(v: uint32x4_t, carry: &mut uint32x4_t) -> uint32x4_t {
        // SAFETY: NEON (caller).
        unsafe {
            let d = vcombine_u16(vmovn_u32(unzigzag_neon(v)), vdup_n_u16(0));
            let (sums, next) =
                svb_delta::kernels::aarch64::prefix_u16x8(d, vreinterpretq_u16_u32(*carry));
            *carry = vreinterpretq_u32_u16(next);
            vreinterpretq_u32_u16(sums)
        }
    }

    #[cfg(target_arch = "aarch64")]
    #[inline(always)]
    unsafe fn neon_pair(v0: uint32x4_t, v1: uint32x4_t, carry: &mut uint32x4_t) -> uint32x4_t {
        // SAFETY: NEON (caller).
        unsafe {
            let d = vcombine_u16(vmovn_u32(unzigzag_neon(v0)), vmovn_u32(unzigzag_neon(v1)));
            let (sums, next) =
                svb_delta::kernels::aarch64::prefix_u16x8(d, vreinterpretq_u16_u32(*carry));
            *carry = vreinterpretq_u32_u16(next);
            vreinterpretq_u32_u16(sums)
        }
    }
}
