//! Portable kernels of the u64 codecs, and the tails of their SIMD kernels.

use core::mem::MaybeUninit;

use super::Scheme64;
use crate::error::EncodeError;
use crate::stream32::control_len;
pub(crate) use crate::stream32::scalar::split_control;
use crate::stream32::scalar::{put_tail_value, tail_value};
use crate::{DecodeResult, EncodeResult};

/// Checks that `out` holds the largest encoding of `values` and that every value fits the
/// scheme; returns the control length.
#[inline]
pub(crate) fn check_encode<S: Scheme64>(values: &[u64], out_len: usize) -> EncodeResult {
    let ctrl_len = check_out_len::<S>(values.len(), out_len)?;
    check_values::<S>(values, 0, 0)?;
    Ok(ctrl_len)
}

/// Checks that `out` holds the largest encoding of `n` values; returns the control length.
#[inline]
fn check_out_len<S: Scheme64>(n: usize, out_len: usize) -> EncodeResult {
    let widest = S::LENS[3] as usize;
    let needed = control_len(n).saturating_add(n.saturating_mul(widest));
    if out_len < needed {
        return Err(EncodeError::OutputTooSmall { needed, available: out_len });
    }
    Ok(control_len(n))
}

/// Checks that every value fits the scheme, given `seen`, the OR of `values[..from]` (which a
/// kernel has examined already).
#[inline]
fn check_values<S: Scheme64>(values: &[u64], from: usize, seen: u64) -> Result<(), EncodeError> {
    if S::MAX == u64::MAX {
        return Ok(());
    }
    // Eight independent lanes, so the OR vectorises.
    let mut lanes = [seen; 8];
    let rest = &values[from..];
    let mut chunks = rest.chunks_exact(8);
    for c in &mut chunks {
        for (l, &v) in lanes.iter_mut().zip(c) {
            *l |= v;
        }
    }
    let all = lanes.iter().chain(chunks.remainder()).fold(0, |a, &v| a | v);
    if all > S::MAX {
        let index = values.iter().position(|&v| v > S::MAX).unwrap_or(0);
        return Err(EncodeError::ValueTooLarge { index, value: values[index], max: S::MAX });
    }
    Ok(())
}

pub(crate) fn decode<S: Scheme64>(input: &[u8], out: &mut [MaybeUninit<u64>]) -> DecodeResult {
    decode_with::<S>(input, out, |_, _, _| (0, 0))
}

/// The skeleton of every u64 decode kernel: the control stream split off, whole groups by
/// `groups` (an ISA's SIMD loops, given the control stream of `out.len()` values; it
/// returns where it stopped, `(data bytes, groups)`), the rest by the scalar tail.
#[inline(always)]
pub(crate) fn decode_with<S: Scheme64>(
    input: &[u8], out: &mut [MaybeUninit<u64>],
    groups: impl FnOnce(&[u8], &[u8], &mut [MaybeUninit<u64>]) -> (usize, usize),
) -> DecodeResult {
    let (ctrl, data) = split_control(input, out.len())?;
    let (dp, g) = groups(ctrl, data, out);
    let used = decode_tail::<S>(ctrl, data, dp, 4 * g, out)?;
    Ok(ctrl.len() + used)
}

/// The skeleton of every u64 encode kernel: `out`'s room and the values checked, whole
/// groups by `groups` (an ISA's SIMD loops, given `out` with room for the largest encoding,
/// values the scheme holds, and the control length; it returns where it stopped, `(data
/// bytes, groups)`), the rest by the scalar tail.
#[inline(always)]
pub(crate) fn encode_with<S: Scheme64>(
    values: &[u64], out: &mut [MaybeUninit<u8>],
    groups: impl FnOnce(&[u64], &mut [MaybeUninit<u8>], usize) -> (usize, usize),
) -> EncodeResult {
    let ctrl_len = check_encode::<S>(values, out.len())?;
    let (dp, g) = groups(values, out, ctrl_len);
    let used = encode_tail::<S>(values, out, ctrl_len, dp, 4 * g);
    Ok(ctrl_len + used)
}

/// [`encode_with`] for a kernel that checks the values it packs itself: `groups` returns
/// also how many values from the front it examined and the OR of them, and only the rest are
/// scanned here (one pass over the values fewer). On a value that does not fit, `out` holds
/// whatever the kernel wrote.
#[cfg_attr(not(any(target_arch = "x86", target_arch = "x86_64")), allow(dead_code))]
#[inline(always)]
pub(crate) fn encode_checking<S: Scheme64>(
    values: &[u64], out: &mut [MaybeUninit<u8>],
    groups: impl FnOnce(&[u64], &mut [MaybeUninit<u8>], usize) -> (usize, usize, usize, u64),
) -> EncodeResult {
    let ctrl_len = check_out_len::<S>(values.len(), out.len())?;
    let (dp, g, examined, seen) = groups(values, out, ctrl_len);
    check_values::<S>(values, examined, seen)?;
    let used = encode_tail::<S>(values, out, ctrl_len, dp, 4 * g);
    Ok(ctrl_len + used)
}

/// Decodes values `first..out.len()` (`first` a multiple of 4) with data from `data[dp..]`;
/// returns the data bytes used in all.
#[inline]
pub(crate) fn decode_tail<S: Scheme64>(
    ctrl: &[u8], data: &[u8], mut dp: usize, first: usize, out: &mut [MaybeUninit<u64>],
) -> DecodeResult {
    let n = out.len();
    let mut i = first;
    while i + 4 <= n && data.len() - dp >= 32 {
        let c = ctrl[i / 4];
        for k in 0..4 {
            let len = S::LENS[(c >> (2 * k)) as usize & 3] as usize;
            let mut word = [0u8; 8];
            word.copy_from_slice(&data[dp..dp + 8]);
            let mask = if len == 8 { u64::MAX } else { (1u64 << (8 * len)) - 1 };
            out[i + k].write(u64::from_le_bytes(word) & mask);
            dp += len;
        }
        i += 4;
    }
    while i < n {
        let len = S::LENS[(ctrl[i / 4] >> (2 * (i % 4))) as usize & 3] as usize;
        out[i].write(tail_value(data, dp, len, i, ctrl.len())?);
        dp += len;
        i += 1;
    }
    Ok(dp)
}

pub(crate) fn encode<S: Scheme64>(values: &[u64], out: &mut [MaybeUninit<u8>]) -> EncodeResult {
    encode_with::<S>(values, out, |_, _, _| (0, 0))
}

/// Encodes values `first..` (`first` a multiple of 4) with data at `out[ctrl_len + dp..]`;
/// returns the data bytes written in all. The values were checked by [`check_encode`].
#[inline]
pub(crate) fn encode_tail<S: Scheme64>(
    values: &[u64], out: &mut [MaybeUninit<u8>], ctrl_len: usize, mut dp: usize, first: usize,
) -> usize {
    let (ctrl, data) = out.split_at_mut(ctrl_len);
    for (g, group) in values[first..].chunks(4).enumerate() {
        let mut c = 0u8;
        for (k, &v) in group.iter().enumerate() {
            let code = S::code(v);
            c |= code << (2 * k);
            dp += put_tail_value(&mut data[dp..], v, S::LENS[code as usize]);
        }
        ctrl[first / 4 + g].write(c);
    }
    dp
}
