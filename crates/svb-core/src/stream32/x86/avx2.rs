//! AVX2 kernels of the u32 codecs. Encoding computes the control bytes of 16 values a
//! `movemask` (aqrit's method on 256 bits); the shuffles stay 128-bit (one control byte each), because
//! measured here the 256-bit two-group shuffle (two inserts per store) was slower than two
//! VEX-encoded 128-bit shuffles. Decoding is the SSSE3 block loop compiled with AVX2.

#[cfg(target_arch = "x86")]
use core::arch::x86::*;
#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;
use core::mem::MaybeUninit;

use super::ssse3::Group;
use crate::error::DecodeError;
use crate::stream32::finish::Finish;
use crate::stream32::scalar::split_control;
use crate::stream32::source::Source;
use crate::stream32::Scheme32;

decode_entries!("AVX2", "avx2");

encode_entries!("AVX2", "avx2");

/// The codes of the 16 values at `p` (4 groups) and their 4 control bytes, as a
/// little-endian word: one step of the encoders' loop, the codes made and looked at in two
/// 256-bit vectors.
///
/// # Safety
/// The CPU must support AVX2; 16 `u32` values must be readable at `p` (and the one before
/// them when `Src::PREV`).
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn step<S: Scheme32, Src: Source>(p: *const u32) -> ([__m128i; 4], u32) {
    // SAFETY: the caller guarantees 16 readable values at p (and the one before for Src).
    let (a, b) = unsafe { (Src::avx2(p), Src::avx2(p.add(8))) };
    let halves = |v: __m256i| (_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v));
    let ((a0, a1), (b0, b1)) = (halves(a), halves(b));
    ([a0, a1, b0, b1], keys16::<S>(a, b))
}

/// Control bytes of 32 values (8 groups) held in four vectors, as a little-endian word.
#[target_feature(enable = "avx2")]
#[inline]
pub(crate) fn control_word_of_regs<S: Scheme32>(v: [__m256i; 4]) -> u64 {
    u64::from(keys16::<S>(v[0], v[1])) | (u64::from(keys16::<S>(v[2], v[3])) << 32)
}

/// The four control bytes of the sixteen u32 lanes of `a` then `b`: SSSE3's `keys8` (aqrit's
/// method) on 256 bits, the in-lane pack's quarters (values 0-3, 8-11, 4-7, 12-15) put back
/// in order before the `movemask`.
#[target_feature(enable = "avx2")]
#[inline]
fn keys16<S: Scheme32>(a: __m256i, b: __m256i) -> u32 {
    let ones = _mm256_set1_epi8(1);
    let nonzero = |v: __m256i| {
        let v = if S::ZERO_IS_EMPTY { _mm256_or_si256(v, _mm256_slli_epi32::<8>(v)) } else { v };
        _mm256_min_epu8(v, ones)
    };
    let pairs =
        _mm256_permute4x64_epi64::<0b11_01_10_00>(_mm256_packus_epi16(nonzero(a), nonzero(b)));
    let m = _mm256_adds_epu16(
        _mm256_min_epi16(pairs, _mm256_set1_epi16(0x0101)),
        _mm256_set1_epi16(0x7F00),
    );
    _mm256_movemask_epi8(m) as u32
}

/// Control bytes of 32 values (8 groups) from their codes, negated (each u32 lane `-code`,
/// 0 to -3, in value order), as a little-endian word.
#[target_feature(enable = "avx2")]
#[inline]
pub(crate) fn control_word_of_minus_codes(m: [__m256i; 4]) -> u64 {
    // In-lane packs leave 4-byte runs in the order a0 b0 c0 d0 a1 b1 c1 d1; restore value order.
    let packed = _mm256_packs_epi16(_mm256_packs_epi32(m[0], m[1]), _mm256_packs_epi32(m[2], m[3]));
    let ordered = _mm256_permutevar8x32_epi32(packed, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
    let codes = _mm256_sub_epi8(_mm256_setzero_si256(), ordered);
    // c0 + 4c1 per 16-bit pair, then (c0 + 4c1) + 16(c2 + 4c3) per 32-bit group.
    let quads = _mm256_madd_epi16(
        _mm256_maddubs_epi16(codes, _mm256_set1_epi16(0x0401)),
        _mm256_set1_epi32(0x0010_0001),
    );
    // Byte 0 of every 32-bit group, gathered into the low 4 bytes of each 128-bit lane.
    let gather = _mm256_setr_epi8(
        0, 4, 8, 12, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 0, 4, 8, 12, -1, -1, -1, -1,
        -1, -1, -1, -1, -1, -1, -1, -1,
    );
    let g = _mm256_shuffle_epi8(quads, gather);
    let lo = _mm256_cvtsi256_si32(g) as u32 as u64;
    let hi = _mm256_extract_epi32::<4>(g) as u32 as u64;
    lo | (hi << 32)
}
