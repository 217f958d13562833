//! NEON fused decode: per key byte, one `tbl` (svb16), unzigzag and one prefix-sum block of
//! `svb_delta::kernels`.

use core::arch::aarch64::*;
use core::mem::MaybeUninit;

use svb_core::svb16::blocks::{data_len, decode_shuffle};
use svb_core::DecodeError;
use svb_delta::kernels::aarch64::prefix_u16x8;

use super::scalar::decode_tail;

/// The fused decoder of this ISA (see `super::Fused`).
///
/// # Safety
/// The CPU must support NEON.
pub(crate) unsafe fn decode_neon(
    keys: &[u8],
    data: &[u8],
    initial: i16,
    out: &mut [MaybeUninit<i16>],
) -> Result<usize, DecodeError> {
    debug_assert!(keys.len() >= out.len().div_ceil(8));
    // SAFETY: the caller guarantees NEON (this function's contract).
    let (dp, g, last) = unsafe { decode_groups(keys, data, initial as u16, out) };
    decode_tail(keys, data, dp, 8 * g, last, out)
}

/// Decodes whole key groups while their loads stay inside `data`; returns where it stopped
/// `(dp, g, last sample)`.
///
/// # Safety
/// The CPU must support NEON; `keys` must hold at least `out.len().div_ceil(8)` bytes. Every
/// load and store is kept inside `data` and `out` by the function itself.
#[target_feature(enable = "neon")]
unsafe fn decode_groups(
    keys: &[u8],
    data: &[u8],
    initial: u16,
    out: &mut [MaybeUninit<i16>],
) -> (usize, usize, u16) {
    let full = out.len() / 8;
    let dst = out.as_mut_ptr().cast::<u16>();
    let mut carry = vdupq_n_u16(initial);
    let one = vdupq_n_u16(1);
    let (mut dp, mut g) = (0usize, 0usize);
    while g < full && data.len() - dp >= 16 {
        let key = keys[g];
        // SAFETY: dp + 16 <= data.len() (loop condition); group g < full writes 8 samples
        // inside out; the shuffle row has 16 bytes.
        unsafe {
            let z = vreinterpretq_u16_u8(vqtbl1q_u8(
                vld1q_u8(data.as_ptr().add(dp)),
                vld1q_u8(decode_shuffle(key).as_ptr()),
            ));
            let d = veorq_u16(
                vshrq_n_u16::<1>(z),
                vreinterpretq_u16_s16(vnegq_s16(vreinterpretq_s16_u16(vandq_u16(z, one)))),
            );
            let (sums, next) = prefix_u16x8(d, carry);
            vst1q_u16(dst.add(8 * g), sums);
            carry = next;
        }
        dp += data_len(key);
        g += 1;
    }
    (dp, g, vgetq_lane_u16::<0>(carry))
}
