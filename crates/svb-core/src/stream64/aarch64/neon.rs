//! NEON kernels of the u64 codecs.

use core::mem::MaybeUninit;

/// One group (four u64 values) of a codec's NEON decode, run by [`decode_groups`].
pub(crate) trait Group {
    /// Data bytes from a group's start that its loads may touch.
    const WINDOW: usize;

    /// Decodes the four values of control byte `c` from `src` to the 32 bytes at `dst`;
    /// returns the data bytes they used.
    ///
    /// # Safety
    /// The CPU must support NEON; `WINDOW` bytes are readable at `src` and 32 writable at
    /// `dst`.
    unsafe fn decode(src: *const u8, c: u8, dst: *mut u8) -> usize;
}

/// Decodes whole groups while their loads stay inside `data`, one [`Group::decode`] each.
///
/// # Safety
/// The CPU must support NEON; `ctrl` must hold the control bytes of `out.len()` values (as
/// `split_control` returns them); the function keeps every load inside `data` and every store
/// inside `out` itself.
#[target_feature(enable = "neon")]
pub(crate) unsafe fn decode_groups<G: Group>(
    ctrl: &[u8],
    data: &[u8],
    out: &mut [MaybeUninit<u64>],
) -> (usize, usize) {
    let full = out.len() / 4;
    let src = data.as_ptr();
    let dst = out.as_mut_ptr().cast::<u8>();
    let (mut dp, mut g) = (0usize, 0usize);
    while g < full && data.len() - dp >= G::WINDOW {
        // SAFETY: NEON (caller); data.len() - dp >= WINDOW (loop condition); g < full so the
        // 32 bytes of values 4g..4g+4 are inside out.
        dp += unsafe { G::decode(src.add(dp), ctrl[g], dst.add(32 * g)) };
        g += 1;
    }
    (dp, g)
}

/// U64Coder1248: one `tbl` per control nibble (two u64 values).
pub(crate) mod c1248 {
    use core::arch::aarch64::*;
    use core::mem::MaybeUninit;

    use crate::error::{DecodeError, EncodeError};
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
            super::decode_groups::<Group>(ctrl, data, out)
        })
    }

    /// A group of U64Coder1248: one `tbl` per control nibble (two u64 values).
    pub(crate) struct Group;

    impl super::Group for Group {
        // A group uses at most 32 data bytes; its second load starts at most 16 in.
        const WINDOW: usize = 32;

        #[inline(always)]
        unsafe fn decode(src: *const u8, c: u8, dst: *mut u8) -> usize {
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
            encode_groups(values, out, ctrl_len)
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

    /// # Safety
    /// The CPU must support NEON; `out` must hold at least `max_encoded_len(values.len())`
    /// bytes and `ctrl_len` be the control length of `values.len()` values.
    #[target_feature(enable = "neon")]
    unsafe fn encode_groups(
        values: &[u64],
        out: &mut [MaybeUninit<u8>],
        ctrl_len: usize,
    ) -> (usize, usize) {
        let full = values.len() / 4;
        let room = out.len() - ctrl_len;
        let base = out.as_mut_ptr().cast::<u8>();
        let (mut dp, mut g) = (0usize, 0usize);
        while g < full && room - dp >= 32 {
            // SAFETY: g < full so values 4g..4g+4 exist; the stores at dp and
            // dp + l0 <= dp + 16 end by dp + 32 <= room; control byte g < ctrl_len.
            unsafe {
                let v0 = vld1q_u64(values.as_ptr().add(4 * g));
                let v1 = vld1q_u64(values.as_ptr().add(4 * g + 2));
                let (n0, n1) = (nibble(v0), nibble(v1));
                let l0 = NIBBLE_LENS_1248[n0] as usize;
                let d = base.add(ctrl_len + dp);
                vst1q_u8(
                    d,
                    vqtbl1q_u8(
                        vreinterpretq_u8_u64(v0),
                        vld1q_u8(ENCODE_1248[n0].0.as_ptr()),
                    ),
                );
                vst1q_u8(
                    d.add(l0),
                    vqtbl1q_u8(
                        vreinterpretq_u8_u64(v1),
                        vld1q_u8(ENCODE_1248[n1].0.as_ptr()),
                    ),
                );
                *base.add(g) = (n0 | (n1 << 4)) as u8;
                dp += l0 + NIBBLE_LENS_1248[n1] as usize;
            }
            g += 1;
        }
        (dp, g)
    }
}

/// U64Coder1234: one load and two `tbl` per control byte.
pub(crate) mod c1234 {
    use core::arch::aarch64::*;
    use core::mem::MaybeUninit;

    use crate::error::{DecodeError, EncodeError};
    use crate::stream32::aarch64::neon::encode_group;
    use crate::stream32::{Classic, Scheme32};
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
            super::decode_groups::<Group>(ctrl, data, out)
        })
    }

    /// A group of U64Coder1234: one load and two `tbl` per control byte.
    pub(crate) struct Group;

    impl super::Group for Group {
        // A group uses at most 16 data bytes, in one load.
        const WINDOW: usize = 16;

        #[inline(always)]
        unsafe fn decode(src: *const u8, c: u8, dst: *mut u8) -> usize {
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
            encode_groups(values, out, ctrl_len)
        })
    }

    /// # Safety
    /// The CPU must support NEON; `out` must hold at least `max_encoded_len(values.len())`
    /// bytes and `ctrl_len` be the control length of `values.len()` values.
    #[target_feature(enable = "neon")]
    unsafe fn encode_groups(
        values: &[u64],
        out: &mut [MaybeUninit<u8>],
        ctrl_len: usize,
    ) -> (usize, usize) {
        let full = values.len() / 4;
        let room = out.len() - ctrl_len;
        let base = out.as_mut_ptr().cast::<u8>();
        let (mut dp, mut g) = (0usize, 0usize);
        while g < full && room - dp >= 16 {
            // SAFETY: g < full so values 4g..4g+4 exist; dp + 16 <= room keeps the store in
            // `out`; control byte g < ctrl_len.
            unsafe {
                let v0 = vmovn_u64(vld1q_u64(values.as_ptr().add(4 * g)));
                let v1 = vmovn_u64(vld1q_u64(values.as_ptr().add(4 * g + 2)));
                let (c, len) =
                    encode_group::<Classic>(vcombine_u32(v0, v1), base.add(ctrl_len + dp));
                *base.add(g) = c;
                dp += len;
            }
            g += 1;
        }
        (dp, g)
    }
}
