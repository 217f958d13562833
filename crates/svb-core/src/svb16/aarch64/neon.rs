//! NEON kernels of Svb16: one `tbl` per key byte (8 values).

use core::arch::aarch64::*;
use core::mem::MaybeUninit;

use crate::group_encode::{encode_groups, impl_encode_group};
use crate::svb16::finish::{Finish16, Lane16};
use crate::svb16::scalar::{decode_tail, encode_with};
use crate::svb16::{lens8, DECODE, ENCODE, LENS};
use crate::{DecodeResult, EncodeResult};

decode_entries!("NEON");

/// The group loops, then the scalar tail; returns the data bytes consumed.
///
/// # Safety
/// The CPU must support NEON; `keys` must hold at least `out.len().div_ceil(8)` bytes.
#[inline(always)]
unsafe fn decode_split<F: Finish16, O: Lane16>(
    keys: &[u8], data: &[u8], acc: u16, out: &mut [MaybeUninit<O>],
) -> DecodeResult {
    // SAFETY: the caller guarantees NEON and the key bytes.
    let (dp, g, acc) = unsafe { decode_groups::<F, O>(keys, data, acc, out) };
    decode_tail::<F, O>(keys, data, dp, 8 * g, acc, out)
}

/// Decodes whole key groups while their loads stay inside `data` (blocks of 8 while 128
/// bytes are left, then single groups), each through `F` from `acc`; returns where it
/// stopped `(dp, g, acc)`.
///
/// # Safety
/// The CPU must support NEON. `keys` must hold the key bytes of `out.len()` values (as
/// `split_keys` returns them); the function keeps every load inside `data` and every store
/// inside `out` itself.
#[target_feature(enable = "neon")]
unsafe fn decode_groups<F: Finish16, O: Lane16>(
    keys: &[u8], data: &[u8], acc: u16, out: &mut [MaybeUninit<O>],
) -> (usize, usize, u16) {
    let full = out.len() / 8;
    let src = data.as_ptr();
    let dst = out.as_mut_ptr().cast::<u16>();
    // SAFETY: NEON (caller).
    let mut carry = unsafe { F::neon_carry(acc) };
    let mut dp = 0usize;
    let mut g = 0usize;
    while g + 8 <= full && data.len() - dp >= 128 {
        // SAFETY: g + 8 <= full <= keys.len().
        let kw = u64::from_le(unsafe { keys.as_ptr().add(g).cast::<u64>().read_unaligned() });
        let lens = lens8(kw);
        for k in 0..8 {
            let key = (kw >> (8 * k)) as u8 as usize;
            // SAFETY: NEON (caller); the 8 groups of this step use at most 128 data bytes and
            // data.len() - dp >= 128 held at its start, so dp + 16 <= data.len(); group
            // g + k < full writes 8 values inside out.
            unsafe {
                let v = vreinterpretq_u16_u8(vqtbl1q_u8(
                    vld1q_u8(src.add(dp)),
                    vld1q_u8(DECODE[key].0.as_ptr()),
                ));
                vst1q_u16(dst.add(8 * (g + k)), F::neon(v, &mut carry));
            }
            dp += ((lens >> (8 * k)) & 0xFF) as usize;
        }
        g += 8;
    }
    while g < full && data.len() - dp >= 16 {
        let key = keys[g] as usize;
        // SAFETY: NEON (caller); dp + 16 <= data.len() (loop condition); g < full so 8
        // values fit in out.
        unsafe {
            let v = vreinterpretq_u16_u8(vqtbl1q_u8(
                vld1q_u8(src.add(dp)),
                vld1q_u8(DECODE[key].0.as_ptr()),
            ));
            vst1q_u16(dst.add(8 * g), F::neon(v, &mut carry));
        }
        dp += LENS[key] as usize;
        g += 1;
    }
    // SAFETY: NEON (caller).
    (dp, g, unsafe { F::neon_value(carry) })
}

/// The encode kernel of this ISA (see the codec's `Kernels`).
///
/// # Safety
/// The CPU must support NEON.
pub(crate) unsafe fn encode(values: &[u16], out: &mut [MaybeUninit<u8>]) -> EncodeResult {
    // SAFETY: the caller guarantees NEON (this function's contract); `encode_with` has
    // checked that `out` holds `max_encoded_len(n)` bytes.
    encode_with(values, out, |values, out, klen| unsafe { encode_all(values, out, klen) })
}

/// A key group (eight u16) of the NEON encoder: one load, the key from a compare and a
/// horizontal add, one table lookup and 16-byte store.
struct Group;

impl_encode_group! {
    Group => u16, 8 values, room 16, |src, dst| {
        const BITS: [u16; 8] = [1, 2, 4, 8, 16, 32, 64, 128];
        // SAFETY: NEON, eight values at `src` and 16 writable bytes at `dst` (caller); the
        // table row and `BITS` are 16 readable bytes.
        unsafe {
            let v = vld1q_u16(src);
            let over = vandq_u16(vcgtq_u16(v, vdupq_n_u16(0xFF)), vld1q_u16(BITS.as_ptr()));
            let key = vaddvq_u16(over) as usize;
            let m = vld1q_u8(ENCODE[key].0.as_ptr());
            vst1q_u8(dst, vqtbl1q_u8(vreinterpretq_u8_u16(v), m));
            (key as u8, LENS[key] as usize)
        }
    }
}

/// # Safety
/// The CPU must support NEON; `out` must hold at least `max_encoded_len(values.len())` bytes
/// and `klen` be the key length of `values.len()` values.
#[target_feature(enable = "neon")]
unsafe fn encode_all(values: &[u16], out: &mut [MaybeUninit<u8>], klen: usize) -> (usize, usize) {
    // SAFETY: NEON and `out` (caller).
    unsafe { encode_groups::<Group>(values, out, klen, 0, 0) }
}
