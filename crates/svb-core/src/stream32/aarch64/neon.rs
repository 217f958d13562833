//! NEON kernels of the u32 codecs: one `tbl` per control byte (4 values).

use core::arch::aarch64::*;
use core::mem::MaybeUninit;

use crate::error::DecodeError;
use crate::group_encode::{encode_groups, impl_encode_group};
use crate::stream32::finish::{Finish, Lane32, Plain, ZeroCheck};
use crate::stream32::scalar::{decode_tail, encode_with, split_control};
use crate::stream32::source::{Source, Values};
use crate::stream32::Scheme32;
use crate::{DecodeResult, EncodeResult};

/// The decode kernel of this ISA (see the codec's `Kernels`).
///
/// # Safety
/// The CPU must support NEON.
pub(crate) unsafe fn decode<S: Scheme32>(
    input: &[u8], out: &mut [MaybeUninit<u32>],
) -> DecodeResult {
    // SAFETY: NEON (this function's contract).
    unsafe { decode_finish::<S, Plain>(input, 0, out) }.map(|(used, _)| used)
}

/// The decode kernel with `F` after the unpack of each group, from the running value `acc`;
/// returns the bytes consumed and the running value after the last value.
///
/// # Safety
/// The CPU must support NEON.
pub(crate) unsafe fn decode_finish<S: Scheme32, F: Finish>(
    input: &[u8], acc: u32, out: &mut [MaybeUninit<F::Out>],
) -> DecodeResult<(usize, u32)> {
    let (ctrl, data) = split_control(input, out.len())?;
    // SAFETY: the caller guarantees NEON (this function's contract).
    let (dp, g, acc, _) = unsafe { decode_groups::<S, F>(ctrl, data, acc, out) };
    let (used, acc) = decode_tail::<S, F>(ctrl, data, dp, 4 * g, acc, out)?;
    Ok((ctrl.len() + used, acc))
}

/// As [`decode_finish`] with a [`Finish::NONZERO`] step: the group loops also look for zero
/// values, the scalar tail does not (see [`ZeroCheck`]).
///
/// # Safety
/// The CPU must support NEON.
pub(crate) unsafe fn decode_nonzero<S: Scheme32, F: Finish>(
    input: &[u8], acc: u32, out: &mut [MaybeUninit<F::Out>],
) -> Result<ZeroCheck, DecodeError> {
    let (ctrl, data) = split_control(input, out.len())?;
    // SAFETY: the caller guarantees NEON (this function's contract).
    let (dp, g, acc, (zero, long)) = unsafe { decode_groups::<S, F>(ctrl, data, acc, out) };
    let (used, _) = decode_tail::<S, F>(ctrl, data, dp, 4 * g, acc, out)?;
    Ok(ZeroCheck { used: ctrl.len() + used, checked: 4 * g, zero, long })
}

/// Decodes whole groups while their 16-byte loads stay inside `data`; returns where it
/// stopped `(dp, g)`, the running value, and with [`Finish::NONZERO`] whether a value
/// unpacked was zero and whether one took 4 bytes (`false` for other steps).
///
/// # Safety
/// The CPU must support NEON. `ctrl` must hold the control bytes of `out.len()` values (as
/// `split_control` returns them); the function keeps every load inside `data` and every store
/// inside `out` itself.
#[target_feature(enable = "neon")]
unsafe fn decode_groups<S: Scheme32, F: Finish>(
    ctrl: &[u8], data: &[u8], acc: u32, out: &mut [MaybeUninit<F::Out>],
) -> (usize, usize, u32, (bool, bool)) {
    const {
        assert!(!(F::NONZERO && F::PAIRS), "the zero check runs on single groups");
        assert!(!F::NONZERO || S::LENS[3] == 4, "code 3 is a 4-byte value");
    };
    let mut zeros = vdupq_n_u32(0);
    // Both bits of a 2-bit code set (code 3, a 4-byte value), OR-ed over the groups.
    let mut long = 0u64;
    // Lanes of `u` that are zero, OR-ed into `zeros` (a compare and an OR a group).
    let check = |u: uint32x4_t, zeros: &mut uint32x4_t| {
        if F::NONZERO {
            *zeros = vorrq_u32(*zeros, vceqzq_u32(u));
        }
    };
    let full = out.len() / 4;
    let src = data.as_ptr();
    let dst = out.as_mut_ptr().cast::<F::Out>();
    let mut carry = vdupq_n_u32(acc);
    // A group's values from its control byte and the start of its data. Called only while 16
    // bytes are readable there.
    let unpack = |c: usize, at: usize| {
        // SAFETY: at + 16 <= data.len() (the callers' checks); NEON (caller).
        let v = unsafe { vqtbl1q_u8(vld1q_u8(src.add(at)), vld1q_u8(S::DECODE[c].0.as_ptr())) };
        vreinterpretq_u32_u8(v)
    };
    let mut dp = 0usize;
    let mut g = 0usize;
    while g + 8 <= full && data.len() - dp >= 128 {
        // SAFETY: g + 8 <= full <= ctrl.len().
        let cw = u64::from_le(unsafe { ctrl.as_ptr().add(g).cast::<u64>().read_unaligned() });
        if F::NONZERO {
            long |= cw & (cw >> 1);
        }
        let lens = S::lens8(cw);
        // The 8 groups of this step use at most 128 data bytes and data.len() - dp >= 128
        // held at its start, so each group's 16-byte load is inside data.
        let next = |k: usize, dp: &mut usize| {
            let v = unpack((cw >> (8 * k)) as u8 as usize, *dp);
            *dp += ((lens >> (8 * k)) & 0xFF) as usize;
            v
        };
        if F::PAIRS {
            for j in 0..4 {
                let v0 = next(2 * j, &mut dp);
                let v1 = next(2 * j + 1, &mut dp);
                // SAFETY: NEON (caller); groups g + 2j and g + 2j + 1 < full: their 8 lanes
                // fit in out.
                unsafe {
                    let v = F::neon_pair(v0, v1, &mut carry);
                    vst1q_u32(dst.add(4 * (g + 2 * j)).cast(), v);
                }
            }
        } else {
            for k in 0..8 {
                let u = next(k, &mut dp);
                check(u, &mut zeros);
                // SAFETY: NEON (caller); group g + k < full writes 4 values inside out.
                unsafe { F::Out::store4_neon(dst.add(4 * (g + k)), F::neon(u, &mut carry)) };
            }
        }
        g += 8;
    }
    if F::PAIRS {
        while g + 2 <= full && data.len() - dp >= 32 {
            let (c0, c1) = (ctrl[g] as usize, ctrl[g + 1] as usize);
            let v0 = unpack(c0, dp);
            let v1 = unpack(c1, dp + S::CTRL_LENS[c0] as usize);
            // SAFETY: NEON (caller); groups g and g + 1 < full: their 8 lanes fit in out.
            unsafe { vst1q_u32(dst.add(4 * g).cast(), F::neon_pair(v0, v1, &mut carry)) };
            dp += (S::CTRL_LENS[c0] + S::CTRL_LENS[c1]) as usize;
            g += 2;
        }
    }
    while g < full && data.len() - dp >= 16 {
        let c = ctrl[g] as usize;
        let u = unpack(c, dp);
        check(u, &mut zeros);
        if F::NONZERO {
            long |= (c & (c >> 1)) as u64;
        }
        // SAFETY: NEON (caller); g < full so 4 values fit in out.
        unsafe { F::Out::store4_neon(dst.add(4 * g), F::neon(u, &mut carry)) };
        dp += S::CTRL_LENS[c] as usize;
        g += 1;
    }
    let found = (vmaxvq_u32(zeros) != 0, long & 0x5555_5555_5555_5555 != 0);
    (dp, g, vgetq_lane_u32::<0>(carry), found)
}

/// The encode kernel of this ISA (see the codec's `Kernels`).
///
/// # Safety
/// The CPU must support NEON.
pub(crate) unsafe fn encode<S: Scheme32>(
    values: &[u32], out: &mut [MaybeUninit<u8>],
) -> EncodeResult {
    // SAFETY: NEON (this function's contract).
    unsafe { encode_source::<S, Values>(values, 0, out) }
}

/// Encodes the codes `Src` makes of `values` (`prev` the value before the first).
///
/// # Safety
/// The CPU must support NEON.
#[inline]
pub(crate) unsafe fn encode_source<S: Scheme32, Src: Source>(
    values: &[u32], prev: u32, out: &mut [MaybeUninit<u8>],
) -> EncodeResult {
    // SAFETY: the caller guarantees NEON (this function's contract); `encode_with` has
    // checked that `out` holds `max_encoded_len(n)` bytes.
    encode_with::<S, Src>(values, prev, out, |values, out, ctrl_len| unsafe {
        encode_all::<S, Src>(values, prev, out, ctrl_len)
    })
}

/// A u32 group of the NEON encoder: the source's codes of four values (one load for the
/// plain codecs), [`encode_group`]'s table lookup and 16-byte store. The loop runs it from
/// group 1 on for a source that reads the value before.
struct Group<S, Src>(core::marker::PhantomData<(S, Src)>);

impl_encode_group! {
    [S: Scheme32, Src: Source] Group<S, Src> => u32, 4 values, room 16, |src, dst| {
        // SAFETY: NEON, four values at `src` (and the one before for Src: the loop starts at
        // group 1 then) and 16 writable bytes at `dst` (caller).
        unsafe { encode_group::<S>(Src::neon(src), dst) }
    }
}

/// # Safety
/// The CPU must support NEON; `out` must hold at least `max_encoded_len(values.len())` bytes
/// and `ctrl_len` be the control length of `values.len()` values.
#[target_feature(enable = "neon")]
unsafe fn encode_all<S: Scheme32, Src: Source>(
    values: &[u32], prev: u32, out: &mut [MaybeUninit<u8>], ctrl_len: usize,
) -> (usize, usize) {
    let (mut dp, mut g) = (0, 0);
    if Src::PREV && values.len() >= 4 {
        // The first group's codes made with `prev`: the group loop's loads read the value
        // before.
        let base = out.as_mut_ptr().cast::<u8>();
        // SAFETY: NEON; values 0..4 exist; `out` holds ctrl_len + 4n >= ctrl_len + 16 bytes
        // (caller), and ctrl_len >= 1 for the control byte.
        unsafe {
            let (c, len) =
                encode_group::<S>(Src::neon_first(values.as_ptr(), prev), base.add(ctrl_len));
            *base = c;
            (dp, g) = (len, 1);
        }
    }
    // SAFETY: NEON and `out` (caller).
    unsafe { encode_groups::<Group<S, Src>>(values, out, ctrl_len, dp, g) }
}

/// Packs the four u32 lanes of `v` to `dst` (16 bytes are stored; the caller owns them) and
/// returns the control byte and the bytes used.
///
/// # Safety
/// The CPU must support NEON, and 16 bytes at `dst` must be writable.
#[target_feature(enable = "neon")]
#[inline]
pub(crate) unsafe fn encode_group<S: Scheme32>(v: uint32x4_t, dst: *mut u8) -> (u8, usize) {
    const SHIFTS: [i32; 4] = [0, 2, 4, 6];
    // Each compare gives all ones (-1) where v exceeds the threshold.
    let minus_code = vaddq_u32(
        vaddq_u32(
            vcgtq_u32(v, vdupq_n_u32(S::THRESHOLDS[0])),
            vcgtq_u32(v, vdupq_n_u32(S::THRESHOLDS[1])),
        ),
        vcgtq_u32(v, vdupq_n_u32(S::THRESHOLDS[2])),
    );
    let code = vreinterpretq_u32_s32(vnegq_s32(vreinterpretq_s32_u32(minus_code)));
    // SAFETY: SHIFTS has 4 elements; the table row has 16; the caller guarantees 16
    // writable bytes at dst.
    unsafe {
        let c = vaddvq_u32(vshlq_u32(code, vld1q_s32(SHIFTS.as_ptr()))) as usize;
        let m = vld1q_u8(S::ENCODE[c].0.as_ptr());
        vst1q_u8(dst, vqtbl1q_u8(vreinterpretq_u8_u32(v), m));
        (c as u8, S::CTRL_LENS[c] as usize)
    }
}
