//! NEON kernels of the u64 codecs.

use crate::stream64::groups::{decode_kernel, encode_kernel};

decode_kernel!("neon");
encode_kernel!("neon");

/// U64Coder1248: one `tbl` per control nibble (two u64 values).
pub(crate) mod c1248 {
    use core::arch::aarch64::*;

    use crate::group_encode::impl_encode_group;
    use crate::stream64::groups::u64_group;
    use crate::stream64::{DECODE_1248, ENCODE_1248, NIBBLE_LENS_1248, S1248};

    // A group uses at most 32 data bytes; its second load starts at most 16 in.
    u64_group! {
        /// A group of U64Coder1248: one `tbl` per control nibble (two u64 values).
        S1248, window 32, |src, c, dst| {
            let dst = dst.cast::<u8>();
            let (lo, hi) = ((c & 0xF) as usize, (c >> 4) as usize);
            let l0 = NIBBLE_LENS_1248[lo] as usize;
            // SAFETY: NEON and the window (caller): both loads (at 0 and l0 <= 16) stay
            // inside the 32 readable bytes; `dst` holds 32 bytes.
            unsafe {
                let v0 = vld1q_u8(src);
                vst1q_u8(dst, vqtbl1q_u8(v0, vld1q_u8(DECODE_1248[lo].0.as_ptr())));
                let v1 = vld1q_u8(src.add(l0));
                vst1q_u8(
                    dst.add(16),
                    vqtbl1q_u8(v1, vld1q_u8(DECODE_1248[hi].0.as_ptr())),
                );
            }
            l0 + NIBBLE_LENS_1248[hi] as usize
        }
    }

    /// Control nibble of the two u64 lanes of `v`.
    #[target_feature(enable = "neon")]
    #[inline]
    fn nibble(v: uint64x2_t) -> usize {
        let minus_code = vaddq_u64(
            vaddq_u64(vcgtq_u64(v, vdupq_n_u64(0xFF)), vcgtq_u64(v, vdupq_n_u64(0xFFFF))),
            vcgtq_u64(v, vdupq_n_u64(0xFFFF_FFFF)),
        );
        let code = vreinterpretq_u64_s64(vnegq_s64(vreinterpretq_s64_u64(minus_code)));
        (vgetq_lane_u64::<0>(code) | (vgetq_lane_u64::<1>(code) << 2)) as usize
    }

    // The second pair's 16-byte store starts at most 16 bytes in.
    impl_encode_group! {
        Group => u64, 4 values, room 32, |src, dst| {
            // SAFETY: NEON and four values at `src`, 32 writable bytes at `dst` (caller): the
            // stores at 0 and l0 <= 16 end by 32.
            unsafe {
                let v0 = vld1q_u64(src);
                let v1 = vld1q_u64(src.add(2));
                let (n0, n1) = (nibble(v0), nibble(v1));
                let l0 = NIBBLE_LENS_1248[n0] as usize;
                let m0 = vld1q_u8(ENCODE_1248[n0].0.as_ptr());
                vst1q_u8(dst, vqtbl1q_u8(vreinterpretq_u8_u64(v0), m0));
                let m1 = vld1q_u8(ENCODE_1248[n1].0.as_ptr());
                vst1q_u8(dst.add(l0), vqtbl1q_u8(vreinterpretq_u8_u64(v1), m1));
                ((n0 | (n1 << 4)) as u8, l0 + NIBBLE_LENS_1248[n1] as usize)
            }
        }
    }
}

/// U64Coder1234: one load and two `tbl` per control byte.
pub(crate) mod c1234 {
    use core::arch::aarch64::*;

    use crate::group_encode::impl_encode_group;
    use crate::stream32::aarch64::neon::encode_group;
    use crate::stream32::{Classic, Scheme32};
    use crate::stream64::groups::u64_group;
    use crate::stream64::{DECODE_1234, S1234};

    // A group uses at most 16 data bytes, in one load.
    u64_group! {
        /// A group of U64Coder1234: one load and two `tbl` per control byte.
        S1234, window 16, |src, c, dst| {
            let dst = dst.cast::<u8>();
            let m = DECODE_1234[c as usize].0.as_ptr();
            // SAFETY: NEON and the window (caller): 16 readable bytes at `src`, 32 writable at
            // `dst`; the table row has 32 bytes.
            unsafe {
                let v = vld1q_u8(src);
                vst1q_u8(dst, vqtbl1q_u8(v, vld1q_u8(m)));
                vst1q_u8(dst.add(16), vqtbl1q_u8(v, vld1q_u8(m.add(16))));
            }
            Classic::CTRL_LENS[c as usize] as usize
        }
    }

    // One 16-byte store (the U32Classic group's).
    impl_encode_group! {
        Group => u64, 4 values, room 16, |src, dst| {
            // SAFETY: NEON and four values at `src`, 16 writable bytes at `dst` (caller).
            unsafe {
                // The low 32 bits of the four values (only they are packed).
                let v0 = vmovn_u64(vld1q_u64(src));
                let v1 = vmovn_u64(vld1q_u64(src.add(2)));
                encode_group::<Classic>(vcombine_u32(v0, v1), dst)
            }
        }
    }
}
