//! NEON fused SVB-ZD decode: per 8 samples, two `tbl` (U32Classic unpack), unzigzag in
//! 32-bit lanes, narrowed to 16 bits, one prefix-sum block of `svb_delta::kernels`.

use core::arch::aarch64::*;
use core::mem::MaybeUninit;

use svb_core::stream32::blocks::{data_len, decode_shuffle};
use svb_delta::kernels::aarch64::prefix_u16x8;

/// Decodes whole 8-sample groups while both 16-byte loads stay inside `data`; returns
/// `(data bytes used, samples written, last sample)`.
///
/// # Safety
/// The CPU must support NEON; `keys` holds the control bytes of `out.len()` samples.
#[target_feature(enable = "neon")]
pub(super) unsafe fn decode_groups(
    keys: &[u8],
    data: &[u8],
    initial: i16,
    out: &mut [MaybeUninit<i16>],
) -> (usize, usize, i16) {
    let full = out.len() / 8;
    debug_assert!(keys.len() >= 2 * full);
    let dst = out.as_mut_ptr().cast::<u16>();
    let one = vdupq_n_u32(1);
    let mut carry = vdupq_n_u16(initial as u16);
    let (mut dp, mut g) = (0usize, 0usize);
    while g < full && data.len() - dp >= 32 {
        let (k0, k1) = (keys[2 * g], keys[2 * g + 1]);
        let d1 = dp + data_len(k0);
        // SAFETY: dp + 32 <= data.len() (loop condition) and data_len(k0) <= 16, so both
        // 16-byte loads are inside data; the shuffle rows have 16 bytes; group g < full
        // writes samples 8g..8g+8 inside out.
        unsafe {
            let v0 = vreinterpretq_u32_u8(vqtbl1q_u8(
                vld1q_u8(data.as_ptr().add(dp)),
                vld1q_u8(decode_shuffle(k0).as_ptr()),
            ));
            let v1 = vreinterpretq_u32_u8(vqtbl1q_u8(
                vld1q_u8(data.as_ptr().add(d1)),
                vld1q_u8(decode_shuffle(k1).as_ptr()),
            ));
            let u0 = veorq_u32(
                vshrq_n_u32::<1>(v0),
                vreinterpretq_u32_s32(vnegq_s32(vreinterpretq_s32_u32(vandq_u32(v0, one)))),
            );
            let u1 = veorq_u32(
                vshrq_n_u32::<1>(v1),
                vreinterpretq_u32_s32(vnegq_s32(vreinterpretq_s32_u32(vandq_u32(v1, one)))),
            );
            let d = vcombine_u16(vmovn_u32(u0), vmovn_u32(u1));
            let (sums, next) = prefix_u16x8(d, carry);
            vst1q_u16(dst.add(8 * g), sums);
            carry = next;
        }
        dp = d1 + data_len(k1);
        g += 1;
    }
    (dp, 8 * g, vgetq_lane_u16::<0>(carry) as i16)
}
