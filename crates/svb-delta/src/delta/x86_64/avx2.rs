//! AVX2 prefix sums: one 256-bit block (16 x u16, 8 x u32, 4 x u64) per step.

use core::arch::x86_64::*;

use crate::kernels::x86_64::{prefix_u16x16, prefix_u32x8, prefix_u64x4};

macro_rules! io {
    ($t:ty, $load:ident, $store:ident, $splat:ident, $first:ident, |$x:ident| $set1:expr) => {
        /// Loads one vector.
        ///
        /// # Safety
        /// The CPU supports AVX2; 32 bytes at `p` are readable.
        #[target_feature(enable = "avx2")]
        #[inline]
        unsafe fn $load(p: *const $t) -> __m256i {
            // SAFETY: the caller guarantees 32 readable bytes at p.
            unsafe { _mm256_loadu_si256(p.cast()) }
        }
        /// Stores one vector.
        ///
        /// # Safety
        /// The CPU supports AVX2; 32 bytes at `p` are writable.
        #[target_feature(enable = "avx2")]
        #[inline]
        unsafe fn $store(p: *mut $t, v: __m256i) {
            // SAFETY: the caller guarantees 32 writable bytes at p.
            unsafe { _mm256_storeu_si256(p.cast(), v) }
        }
        #[target_feature(enable = "avx2")]
        #[inline]
        fn $splat($x: $t) -> __m256i {
            $set1
        }
        #[target_feature(enable = "avx2")]
        #[inline]
        fn $first(v: __m256i) -> $t {
            _mm_cvtsi128_si64(_mm256_castsi256_si128(v)) as $t
        }
    };
}

io!(u16, load16, store16, splat16, first16, |x| _mm256_set1_epi16(x as i16));
io!(u32, load32, store32, splat32, first32, |x| _mm256_set1_epi32(x as i32));
io!(u64, load64, store64, splat64, first64, |x| _mm256_set1_epi64x(x as i64));

prefix_loops! { "avx2":
    u16 x 16 in __m256i by prefix_u16x16,
    u32 x 8 in __m256i by prefix_u32x8,
    u64 x 4 in __m256i by prefix_u64x4,
}
