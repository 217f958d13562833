//! SIMD building blocks for fused pipelines: one block of wrapping inclusive prefix sum with
//! a carry in and a carry out, per ISA and lane width, and (x86) the zigzag decode of a
//! block, `(z >> 1) ^ -(z & 1)` in every lane.
//!
//! Every function takes a block `x` of deltas and a `carry` holding the running value in
//! every lane, and returns `(sums, carry_out)`: `sums[i] = carry + x[0] + ... + x[i]` and
//! `carry_out = carry + total(x)` in every lane. The total is computed from `x` alone, so a
//! loop's only serial dependency is one vector add per block. Signed and unsigned lanes of
//! one width share a function (wrapping addition is the same bits).
//!
//! ```
//! # #[cfg(target_arch = "x86_64")] {
//! use core::arch::x86_64::*;
//! if is_x86_feature_detected!("ssse3") {
//!     // SAFETY: SSSE3 was detected just above.
//!     let (sums, carry) = unsafe {
//!         svb_delta::kernels::x86_64::prefix_u16x8(_mm_set1_epi16(1), _mm_set1_epi16(100))
//!     };
//!     let mut out = [0u16; 8];
//!     unsafe { _mm_storeu_si128(out.as_mut_ptr().cast(), sums) };
//!     assert_eq!(out, [101, 102, 103, 104, 105, 106, 107, 108]);
//!     assert_eq!(unsafe { _mm_extract_epi16::<3>(carry) }, 108);
//! }
//! # }
//! ```

/// x86 blocks: SSSE3 (128-bit) and AVX2 (256-bit), for x86-64 and 32-bit x86 alike.
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
pub mod x86_64 {
    #[cfg(target_arch = "x86")]
    use core::arch::x86::*;
    #[cfg(target_arch = "x86_64")]
    use core::arch::x86_64::*;

    /// 8 x u16 / i16 lanes.
    ///
    /// # Safety
    /// The CPU must support SSSE3.
    #[target_feature(enable = "ssse3")]
    #[inline]
    pub unsafe fn prefix_u16x8(x: __m128i, carry: __m128i) -> (__m128i, __m128i) {
        let x = _mm_add_epi16(x, _mm_slli_si128::<2>(x));
        let x = _mm_add_epi16(x, _mm_slli_si128::<4>(x));
        let x = _mm_add_epi16(x, _mm_slli_si128::<8>(x));
        let total = _mm_shuffle_epi8(x, _mm_set1_epi16(0x0F0E));
        (_mm_add_epi16(x, carry), _mm_add_epi16(carry, total))
    }

    /// 4 x u32 / i32 lanes.
    ///
    /// # Safety
    /// The CPU must support SSSE3.
    #[target_feature(enable = "ssse3")]
    #[inline]
    pub unsafe fn prefix_u32x4(x: __m128i, carry: __m128i) -> (__m128i, __m128i) {
        let x = _mm_add_epi32(x, _mm_slli_si128::<4>(x));
        let x = _mm_add_epi32(x, _mm_slli_si128::<8>(x));
        let total = _mm_shuffle_epi32::<0xFF>(x);
        (_mm_add_epi32(x, carry), _mm_add_epi32(carry, total))
    }

    /// 2 x u64 / i64 lanes.
    ///
    /// # Safety
    /// The CPU must support SSSE3.
    #[target_feature(enable = "ssse3")]
    #[inline]
    pub unsafe fn prefix_u64x2(x: __m128i, carry: __m128i) -> (__m128i, __m128i) {
        let x = _mm_add_epi64(x, _mm_slli_si128::<8>(x));
        let total = _mm_shuffle_epi32::<0xEE>(x);
        (_mm_add_epi64(x, carry), _mm_add_epi64(carry, total))
    }

    /// 16 x u16 / i16 lanes.
    ///
    /// # Safety
    /// The CPU must support AVX2.
    #[target_feature(enable = "avx2")]
    #[inline]
    pub unsafe fn prefix_u16x16(x: __m256i, carry: __m256i) -> (__m256i, __m256i) {
        let x = _mm256_add_epi16(x, _mm256_slli_si256::<2>(x));
        let x = _mm256_add_epi16(x, _mm256_slli_si256::<4>(x));
        let x = _mm256_add_epi16(x, _mm256_slli_si256::<8>(x));
        // Each lane's total in its high four elements; the low lane's moved to the high lane
        // (three shuffles in all, the blend and adds on any vector port).
        let totals = _mm256_shufflehi_epi16::<0xFF>(x);
        let low_total = _mm256_blend_epi32::<0xF0>(
            _mm256_setzero_si256(),
            _mm256_permute4x64_epi64::<0x55>(totals),
        );
        let x = _mm256_add_epi16(x, low_total);
        // The block's total (high lane of totals + low_total) in every element.
        let total = _mm256_permute4x64_epi64::<0xFF>(_mm256_add_epi16(totals, low_total));
        (_mm256_add_epi16(x, carry), _mm256_add_epi16(carry, total))
    }

    /// 8 x u32 / i32 lanes.
    ///
    /// # Safety
    /// The CPU must support AVX2.
    #[target_feature(enable = "avx2")]
    #[inline]
    pub unsafe fn prefix_u32x8(x: __m256i, carry: __m256i) -> (__m256i, __m256i) {
        let x = _mm256_add_epi32(x, _mm256_slli_si256::<4>(x));
        let x = _mm256_add_epi32(x, _mm256_slli_si256::<8>(x));
        let low_total = _mm256_shuffle_epi32::<0xFF>(x);
        let x = _mm256_add_epi32(x, _mm256_permute2x128_si256::<0x08>(low_total, low_total));
        let total = _mm256_permutevar8x32_epi32(x, _mm256_set1_epi32(7));
        (_mm256_add_epi32(x, carry), _mm256_add_epi32(carry, total))
    }

    /// 4 x u64 / i64 lanes.
    ///
    /// # Safety
    /// The CPU must support AVX2.
    #[target_feature(enable = "avx2")]
    #[inline]
    pub unsafe fn prefix_u64x4(x: __m256i, carry: __m256i) -> (__m256i, __m256i) {
        let x = _mm256_add_epi64(x, _mm256_slli_si256::<8>(x));
        let low_total = _mm256_shuffle_epi32::<0xEE>(x);
        let x = _mm256_add_epi64(x, _mm256_permute2x128_si256::<0x08>(low_total, low_total));
        let total = _mm256_permute4x64_epi64::<0xFF>(x);
        (_mm256_add_epi64(x, carry), _mm256_add_epi64(carry, total))
    }

    /// Zigzag decode of 8 x u16 lanes.
    ///
    /// # Safety
    /// The CPU must support SSE2.
    #[target_feature(enable = "sse2")]
    #[inline]
    pub unsafe fn unzigzag_u16x8(z: __m128i) -> __m128i {
        let odd = _mm_and_si128(z, _mm_set1_epi16(1));
        _mm_xor_si128(_mm_srli_epi16::<1>(z), _mm_sub_epi16(_mm_setzero_si128(), odd))
    }

    /// Zigzag decode of 4 x u32 lanes.
    ///
    /// # Safety
    /// The CPU must support SSE2.
    #[target_feature(enable = "sse2")]
    #[inline]
    pub unsafe fn unzigzag_u32x4(z: __m128i) -> __m128i {
        let odd = _mm_and_si128(z, _mm_set1_epi32(1));
        _mm_xor_si128(_mm_srli_epi32::<1>(z), _mm_sub_epi32(_mm_setzero_si128(), odd))
    }

    /// Zigzag decode of 16 x u16 lanes.
    ///
    /// # Safety
    /// The CPU must support AVX2.
    #[target_feature(enable = "avx2")]
    #[inline]
    pub unsafe fn unzigzag_u16x16(z: __m256i) -> __m256i {
        let odd = _mm256_and_si256(z, _mm256_set1_epi16(1));
        _mm256_xor_si256(_mm256_srli_epi16::<1>(z), _mm256_sub_epi16(_mm256_setzero_si256(), odd))
    }

    /// Zigzag decode of 8 x u32 lanes.
    ///
    /// # Safety
    /// The CPU must support AVX2.
    #[target_feature(enable = "avx2")]
    #[inline]
    pub unsafe fn unzigzag_u32x8(z: __m256i) -> __m256i {
        let odd = _mm256_and_si256(z, _mm256_set1_epi32(1));
        _mm256_xor_si256(_mm256_srli_epi32::<1>(z), _mm256_sub_epi32(_mm256_setzero_si256(), odd))
    }
}

/// AArch64 blocks: NEON (128-bit).
#[cfg(target_arch = "aarch64")]
pub mod aarch64 {
    use core::arch::aarch64::*;

    /// 8 x u16 lanes (reinterpret i16 vectors with `vreinterpretq_u16_s16`).
    ///
    /// # Safety
    /// The CPU must support NEON.
    #[target_feature(enable = "neon")]
    #[inline]
    pub unsafe fn prefix_u16x8(x: uint16x8_t, carry: uint16x8_t) -> (uint16x8_t, uint16x8_t) {
        let z = vdupq_n_u16(0);
        let x = vaddq_u16(x, vextq_u16::<7>(z, x));
        let x = vaddq_u16(x, vextq_u16::<6>(z, x));
        let x = vaddq_u16(x, vextq_u16::<4>(z, x));
        let total = vdupq_laneq_u16::<7>(x);
        (vaddq_u16(x, carry), vaddq_u16(carry, total))
    }

    /// 4 x u32 lanes.
    ///
    /// # Safety
    /// The CPU must support NEON.
    #[target_feature(enable = "neon")]
    #[inline]
    pub unsafe fn prefix_u32x4(x: uint32x4_t, carry: uint32x4_t) -> (uint32x4_t, uint32x4_t) {
        let z = vdupq_n_u32(0);
        let x = vaddq_u32(x, vextq_u32::<3>(z, x));
        let x = vaddq_u32(x, vextq_u32::<2>(z, x));
        let total = vdupq_laneq_u32::<3>(x);
        (vaddq_u32(x, carry), vaddq_u32(carry, total))
    }

    /// 2 x u64 lanes.
    ///
    /// # Safety
    /// The CPU must support NEON.
    #[target_feature(enable = "neon")]
    #[inline]
    pub unsafe fn prefix_u64x2(x: uint64x2_t, carry: uint64x2_t) -> (uint64x2_t, uint64x2_t) {
        let x = vaddq_u64(x, vextq_u64::<1>(vdupq_n_u64(0), x));
        let total = vdupq_laneq_u64::<1>(x);
        (vaddq_u64(x, carry), vaddq_u64(carry, total))
    }
}
