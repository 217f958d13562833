//! SSSE3 prefix sums: one 128-bit block (8 x u16, 4 x u32, 2 x u64) per step.

use core::arch::x86_64::*;

use crate::kernels::x86_64::{prefix_u16x8, prefix_u32x4, prefix_u64x2};

macro_rules! io {
    ($t:ty, $load:ident, $store:ident, $splat:ident, $first:ident, |$x:ident| $set1:expr, |$v:ident| $cvt:expr) => {
        /// Loads one vector.
        ///
        /// # Safety
        /// The CPU supports SSSE3; 16 bytes at `p` are readable.
        #[target_feature(enable = "ssse3")]
        #[inline]
        unsafe fn $load(p: *const $t) -> __m128i {
            // SAFETY: the caller guarantees 16 readable bytes at p.
            unsafe { _mm_loadu_si128(p.cast()) }
        }
        /// Stores one vector.
        ///
        /// # Safety
        /// The CPU supports SSSE3; 16 bytes at `p` are writable.
        #[target_feature(enable = "ssse3")]
        #[inline]
        unsafe fn $store(p: *mut $t, v: __m128i) {
            // SAFETY: the caller guarantees 16 writable bytes at p.
            unsafe { _mm_storeu_si128(p.cast(), v) }
        }
        #[target_feature(enable = "ssse3")]
        #[inline]
        fn $splat($x: $t) -> __m128i {
            $set1
        }
        #[target_feature(enable = "ssse3")]
        #[inline]
        fn $first($v: __m128i) -> $t {
            $cvt
        }
    };
}

io!(u16, load16, store16, splat16, first16, |x| _mm_set1_epi16(x as i16), |v| _mm_cvtsi128_si32(v)
    as u16);
io!(u32, load32, store32, splat32, first32, |x| _mm_set1_epi32(x as i32), |v| _mm_cvtsi128_si32(v)
    as u32);
io!(
    u64,
    load64,
    store64,
    splat64,
    first64,
    |x| _mm_set1_epi64x(x as i64),
    |v| _mm_cvtsi128_si64(v) as u64
);

prefix_loops! { "ssse3":
    u16 x 8 in __m128i by prefix_u16x8,
    u32 x 4 in __m128i by prefix_u32x4,
    u64 x 2 in __m128i by prefix_u64x2,
}
