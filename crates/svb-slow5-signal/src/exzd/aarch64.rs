//! NEON ex-zd run decode: 8 plain bytes at a time widened to u16, unzigzagged,
//! prefix-summed with `svb_delta::kernels` and shifted left by `q`.

use core::arch::aarch64::*;
use core::mem::MaybeUninit;

use svb_delta::kernels::aarch64::prefix_u16x8;

/// Decodes whole groups of 8 bytes of `bytes` into `out` (same length), continuing from the
/// unshifted sample `acc`; returns the samples written and the new `acc`.
///
/// # Safety
/// The CPU must support NEON; `out.len() == bytes.len()`.
#[target_feature(enable = "neon")]
pub(super) unsafe fn run(
    bytes: &[u8], acc: i16, q: u32, out: &mut [MaybeUninit<i16>],
) -> (usize, i16) {
    debug_assert_eq!(bytes.len(), out.len());
    let groups = bytes.len() / 8;
    let dst = out.as_mut_ptr().cast::<u16>();
    let one = vdupq_n_u16(1);
    let shift = vdupq_n_s16(q as i16);
    let mut carry = vdupq_n_u16(acc as u16);
    for g in 0..groups {
        // SAFETY: 8g + 8 <= bytes.len() == out.len(): the 8-byte load and the 8-sample store
        // stay inside their slices.
        unsafe {
            let z = vmovl_u8(vld1_u8(bytes.as_ptr().add(8 * g)));
            let d = veorq_u16(
                vshrq_n_u16::<1>(z),
                vreinterpretq_u16_s16(vnegq_s16(vreinterpretq_s16_u16(vandq_u16(z, one)))),
            );
            let (sums, next) = prefix_u16x8(d, carry);
            vst1q_u16(dst.add(8 * g), vshlq_u16(sums, shift));
            carry = next;
        }
    }
    (8 * groups, vgetq_lane_u16::<0>(carry) as i16)
}
