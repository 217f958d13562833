//! NEON prefix sums: one 128-bit block (8 x u16, 4 x u32, 2 x u64) per step.

use core::arch::aarch64::*;

use crate::kernels::aarch64::{prefix_u16x8, prefix_u32x4, prefix_u64x2};

macro_rules! io {
    ($t:ty, $v:ty, $load:ident, $store:ident, $splat:ident, $first:ident, $ld:ident, $st:ident, $dup:ident, $get:ident) => {
        /// Loads one vector.
        ///
        /// # Safety
        /// The CPU supports NEON; 16 bytes at `p` are readable.
        #[target_feature(enable = "neon")]
        #[inline]
        unsafe fn $load(p: *const $t) -> $v {
            // SAFETY: the caller guarantees 16 readable bytes at p.
            unsafe { $ld(p) }
        }
        /// Stores one vector.
        ///
        /// # Safety
        /// The CPU supports NEON; 16 bytes at `p` are writable.
        #[target_feature(enable = "neon")]
        #[inline]
        unsafe fn $store(p: *mut $t, v: $v) {
            // SAFETY: the caller guarantees 16 writable bytes at p.
            unsafe { $st(p, v) }
        }
        #[target_feature(enable = "neon")]
        #[inline]
        fn $splat(x: $t) -> $v {
            $dup(x)
        }
        #[target_feature(enable = "neon")]
        #[inline]
        fn $first(v: $v) -> $t {
            $get::<0>(v)
        }
    };
}

io!(
    u16,
    uint16x8_t,
    load16,
    store16,
    splat16,
    first16,
    vld1q_u16,
    vst1q_u16,
    vdupq_n_u16,
    vgetq_lane_u16
);
io!(
    u32,
    uint32x4_t,
    load32,
    store32,
    splat32,
    first32,
    vld1q_u32,
    vst1q_u32,
    vdupq_n_u32,
    vgetq_lane_u32
);
io!(
    u64,
    uint64x2_t,
    load64,
    store64,
    splat64,
    first64,
    vld1q_u64,
    vst1q_u64,
    vdupq_n_u64,
    vgetq_lane_u64
);

prefix_loops! { "neon":
    u16 x 8 in uint16x8_t by prefix_u16x8,
    u32 x 4 in uint32x4_t by prefix_u32x4,
    u64 x 2 in uint64x2_t by prefix_u64x2,
}
