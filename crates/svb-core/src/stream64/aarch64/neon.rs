//! NEON kernels of the u64 codecs.

use core::mem::MaybeUninit;

use crate::stream64::groups::{self, DecodeGroup, EncodeGroup};

/// Every whole group of a decode ([`groups::decode_all`]) compiled for NEON.
///
/// # Safety
/// The CPU must support NEON; `ctrl` must hold the control bytes of `out.len()` values (as
/// `split_control` returns them).
#[target_feature(enable = "neon")]
unsafe fn decode_all<G: DecodeGroup, const B: usize>(
    ctrl: &[u8],
    data: &[u8],
    out: &mut [MaybeUninit<u64>],
) -> (usize, usize) {
    // SAFETY: NEON and `ctrl` (caller), and `G` is a NEON group.
    unsafe { groups::decode_all::<G, B>(ctrl, data, out) }
}

/// Every whole group of an encode ([`groups::encode_groups`]) compiled for NEON.
///
/// # Safety
/// The CPU must support NEON; `out` must hold at least `max_encoded_len(values.len())`
/// bytes and `ctrl_len` be the control length of `values.len()` values.
#[target_feature(enable = "neon")]
unsafe fn encode_all<G: EncodeGroup>(
    values: &[u64],
    out: &mut [MaybeUninit<u8>],
    ctrl_len: usize,
) -> (usize, usize) {
    // SAFETY: NEON and `out` (caller), and `G` is a NEON group.
    unsafe { groups::encode_groups::<G>(values, out, ctrl_len, 0, 0) }
}

/// U64Coder1248: one `tbl` per control nibble (two u64 values).
pub(crate) mod c1248 {
    use core::arch::aarch64::*;
    use core::mem::MaybeUninit;

    use crate::error::{DecodeError, EncodeError};
    use crate::stream64::groups::{DecodeGroup, EncodeGroup};
    use crate::stream64::scalar::{decode_with, encode_with};
    use crate::stream64::{DECODE_1248, ENCODE_1248, NIBBLE_LENS_1248, S1248};

    /// The decode kernel of this ISA (see the codec's `Kernels`).
    ///
    /// # Safety
    /// The CPU must support NEON.
    pub(crate) unsafe fn decode(
        input: &[u8],
        out: &mut [MaybeUninit<u64>],
    ) -> Result<usize, DecodeError> {
        // SAFETY: the caller guarantees NEON (this function's contract);
        // `ctrl` is the control stream of out.len() values.
        decode_with::<S1248>(input, out, |ctrl, data, out| unsafe {
            super::decode_all::<Group, 4>(ctrl, data, out)
        })
    }

    /// A group of U64Coder1248: one `tbl` per control nibble (two u64 values).
    pub(crate) struct Group;

    impl DecodeGroup for Group {
        // A group uses at most 32 data bytes; its second load starts at most 16 in.
        const WINDOW: usize = 32;

        #[inline(always)]
        unsafe fn decode(src: *const u8, c: u8, dst: *mut u64) -> usize {
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

    /// The encode kernel of this ISA (see the codec's `Kernels`).
    ///
    /// # Safety
    /// The CPU must support NEON.
    pub(crate) unsafe fn encode(
        values: &[u64],
        out: &mut [MaybeUninit<u8>],
    ) -> Result<usize, EncodeError> {
        // SAFETY: the caller guarantees NEON (this function's contract); `encode_with`
        // has checked that `out` holds `max_encoded_len(n)` bytes.
        encode_with::<S1248>(values, out, |values, out, ctrl_len| unsafe {
            super::encode_all::<Group>(values, out, ctrl_len)
        })
    }

    /// Control nibble of the two u64 lanes of `v`.
    #[target_feature(enable = "neon")]
    #[inline]
    fn nibble(v: uint64x2_t) -> usize {
        let minus_code = vaddq_u64(
            vaddq_u64(
                vcgtq_u64(v, vdupq_n_u64(0xFF)),
                vcgtq_u64(v, vdupq_n_u64(0xFFFF)),
            ),
            vcgtq_u64(v, vdupq_n_u64(0xFFFF_FFFF)),
        );
        let code = vreinterpretq_u64_s64(vnegq_s64(vreinterpretq_s64_u64(minus_code)));
        (vgetq_lane_u64::<0>(code) | (vgetq_lane_u64::<1>(code) << 2)) as usize
    }

    impl EncodeGroup for Group {
        // The second pair's 16-byte store starts at most 16 bytes in.
        const ROOM: usize = 32;

        #[inline(always)]
        unsafe fn encode(src: *const u64, dst: *mut u8) -> (u8, usize) {
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
    use core::mem::MaybeUninit;

    use crate::error::{DecodeError, EncodeError};
    use crate::stream32::aarch64::neon::encode_group;
    use crate::stream32::{Classic, Scheme32};
    use crate::stream64::groups::{DecodeGroup, EncodeGroup};
    use crate::stream64::scalar::{decode_with, encode_with};
    use crate::stream64::{DECODE_1234, S1234};

    /// The decode kernel of this ISA (see the codec's `Kernels`).
    ///
    /// # Safety
    /// The CPU must support NEON.
    pub(crate) unsafe fn decode(
        input: &[u8],
        out: &mut [MaybeUninit<u64>],
    ) -> Result<usize, DecodeError> {
        // SAFETY: the caller guarantees NEON (this function's contract);
        // `ctrl` is the control stream of out.len() values.
        decode_with::<S1234>(input, out, |ctrl, data, out| unsafe {
            super::decode_all::<Group, 8>(ctrl, data, out)
        })
    }

    /// A group of U64Coder1234: one load and two `tbl` per control byte.
    pub(crate) struct Group;

    impl DecodeGroup for Group {
        // A group uses at most 16 data bytes, in one load.
        const WINDOW: usize = 16;

        #[inline(always)]
        unsafe fn decode(src: *const u8, c: u8, dst: *mut u64) -> usize {
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

    /// The encode kernel of this ISA (see the codec's `Kernels`).
    ///
    /// # Safety
    /// The CPU must support NEON.
    pub(crate) unsafe fn encode(
        values: &[u64],
        out: &mut [MaybeUninit<u8>],
    ) -> Result<usize, EncodeError> {
        // SAFETY: the caller guarantees NEON (this function's contract); `encode_with`
        // has checked that `out` holds `max_encoded_len(n)` bytes and every value is
        // below 2^32.
        encode_with::<S1234>(values, out, |values, out, ctrl_len| unsafe {
            super::encode_all::<Group>(values, out, ctrl_len)
        })
    }

    impl EncodeGroup for Group {
        // One 16-byte store (the U32Classic group's).
        const ROOM: usize = 16;

        #[inline(always)]
        unsafe fn encode(src: *const u64, dst: *mut u8) -> (u8, usize) {
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
