//! Portable kernels of the u32 codecs. Also the tails of every SIMD kernel: a SIMD loop
//! stops where its wide loads or stores would leave the buffers and hands over here.

use core::mem::MaybeUninit;

use super::finish::{Finish, Lane32, Plain, ZeroCheck};
use super::source::{Source, Values};
use super::{control_len, Scheme32};
use crate::error::{DecodeError, EncodeError};
use crate::{DecodeResult, EncodeResult};

/// Splits `input` into the control stream of `n` values and the rest.
#[inline]
pub(crate) fn split_control(input: &[u8], n: usize) -> Result<(&[u8], &[u8]), DecodeError> {
    crate::codec::split_control_stream(input, n, control_len(n))
}

/// Checks that `out` can hold the largest encoding of `n` values.
#[inline]
pub(crate) fn check_out_len(n: usize, out_len: usize) -> EncodeResult {
    let needed = control_len(n).saturating_add(n.saturating_mul(4));
    if out_len < needed {
        return Err(EncodeError::OutputTooSmall { needed, available: out_len });
    }
    Ok(control_len(n))
}

pub(crate) fn decode<S: Scheme32>(input: &[u8], out: &mut [MaybeUninit<u32>]) -> DecodeResult {
    decode_finish::<S, Plain>(input, 0, out).map(|(used, _)| used)
}

/// The decode kernel with `F` after the unpack of each value, from the running value `acc`;
/// returns the bytes consumed and the running value after the last value.
pub(crate) fn decode_finish<S: Scheme32, F: Finish>(
    input: &[u8], acc: u32, out: &mut [MaybeUninit<F::Out>],
) -> DecodeResult<(usize, u32)> {
    let (ctrl, data) = split_control(input, out.len())?;
    let (used, acc) = decode_tail::<S, F>(ctrl, data, 0, 0, acc, out)?;
    Ok((ctrl.len() + used, acc))
}

/// As [`decode_finish`] for a [`Finish::NONZERO`] step: no value is compared with zero
/// here (`checked` 0), the caller checks them all.
pub(crate) fn decode_nonzero<S: Scheme32, F: Finish>(
    input: &[u8], acc: u32, out: &mut [MaybeUninit<F::Out>],
) -> Result<ZeroCheck, DecodeError> {
    let (used, _) = decode_finish::<S, F>(input, acc, out)?;
    Ok(ZeroCheck { used, checked: 0, zero: false, long: false })
}

/// Decodes values `first..out.len()` (`first` a multiple of 4) whose data starts at
/// `data[dp..]`, each finished by `F` from the running value `acc`; returns the data bytes
/// used in all and the running value after the last.
#[inline]
pub(crate) fn decode_tail<S: Scheme32, F: Finish>(
    ctrl: &[u8], data: &[u8], mut dp: usize, first: usize, mut acc: u32,
    out: &mut [MaybeUninit<F::Out>],
) -> DecodeResult<(usize, u32)> {
    let n = out.len();
    let mut i = first;
    // Whole groups while a 4-byte read per value stays inside the data.
    while i + 4 <= n && data.len() - dp >= 16 {
        let c = ctrl[i / 4];
        for k in 0..4 {
            let len = S::LENS[(c >> (2 * k)) as usize & 3] as usize;
            let word = u32::from_le_bytes([data[dp], data[dp + 1], data[dp + 2], data[dp + 3]]);
            out[i + k].write(F::Out::from_u32(F::one(word & mask(len), &mut acc)));
            dp += len;
        }
        i += 4;
    }
    while i < n {
        let len = S::LENS[(ctrl[i / 4] >> (2 * (i % 4))) as usize & 3] as usize;
        // At most 4 bytes: the value fits.
        let v = tail_value(data, dp, len, i, ctrl.len())? as u32;
        out[i].write(F::Out::from_u32(F::one(v, &mut acc)));
        dp += len;
        i += 1;
    }
    Ok((dp, acc))
}

/// Low `len` bytes set.
#[inline(always)]
fn mask(len: usize) -> u32 {
    ((1u64 << (8 * len)) - 1) as u32
}

pub(crate) fn encode<S: Scheme32>(values: &[u32], out: &mut [MaybeUninit<u8>]) -> EncodeResult {
    encode_source::<S, Values>(values, 0, out)
}

/// Encodes the codes `Src` makes of `values` (`prev` the value before the first).
pub(crate) fn encode_source<S: Scheme32, Src: Source>(
    values: &[u32], prev: u32, out: &mut [MaybeUninit<u8>],
) -> EncodeResult {
    encode_with::<S, Src>(values, prev, out, |_, _, _| (0, 0))
}

/// The skeleton of every u32 encode kernel: `out`'s room checked, whole groups by `groups`
/// (an ISA's SIMD loops, given `out` with room for the largest encoding and the control
/// length; it returns where it stopped, `(data bytes, groups)`), the rest by the scalar tail.
/// The codes packed are `Src`'s of `values` (`prev` the value before the first).
#[inline(always)]
pub(crate) fn encode_with<S: Scheme32, Src: Source>(
    values: &[u32], prev: u32, out: &mut [MaybeUninit<u8>],
    groups: impl FnOnce(&[u32], &mut [MaybeUninit<u8>], usize) -> (usize, usize),
) -> EncodeResult {
    let ctrl_len = check_out_len(values.len(), out.len())?;
    let (dp, g) = groups(values, out, ctrl_len);
    Ok(encode_rest::<S, Src>(values, prev, out, ctrl_len, dp, g))
}

/// The stream's length once groups `g..` (whatever the SIMD loops left, `dp` data bytes
/// written before them) are encoded by the scalar tail.
#[inline]
pub(crate) fn encode_rest<S: Scheme32, Src: Source>(
    values: &[u32], prev: u32, out: &mut [MaybeUninit<u8>], ctrl_len: usize, dp: usize, g: usize,
) -> usize {
    let used = if 4 * g < values.len() {
        encode_tail::<S, Src>(values, prev, out, ctrl_len, dp, 4 * g)
    } else {
        dp
    };
    ctrl_len + used
}

/// Encodes the codes of values `first..` (`first` a multiple of 4) with their data at
/// `out[ctrl_len + dp..]`; returns the data bytes written in all. `out` holds
/// `max_encoded_len(values.len())`.
#[inline]
pub(crate) fn encode_tail<S: Scheme32, Src: Source>(
    values: &[u32], prev: u32, out: &mut [MaybeUninit<u8>], ctrl_len: usize, mut dp: usize,
    first: usize,
) -> usize {
    let (ctrl, data) = out.split_at_mut(ctrl_len);
    for (g, start) in (first..values.len()).step_by(4).enumerate() {
        let mut c = 0u8;
        for (k, i) in (start..values.len().min(start + 4)).enumerate() {
            let v = Src::code(values, i, prev);
            let code = S::code(v);
            c |= code << (2 * k);
            dp += put_tail_value(&mut data[dp..], v.into(), S::LENS[code as usize]);
        }
        ctrl[first / 4 + g].write(c);
    }
    dp
}

/// Writes the `len` low bytes of `v`, little-endian, at the front of `data`: how the scalar
/// tails of the u32 and u64 codecs store a value (`data` holds `max_encoded_len`'s room);
/// returns `len`.
#[inline]
pub(crate) fn put_tail_value(data: &mut [MaybeUninit<u8>], v: u64, len: u8) -> usize {
    for (b, slot) in data[..len as usize].iter_mut().enumerate() {
        slot.write((v >> (8 * b)) as u8);
    }
    len as usize
}

/// The value of the `len` little-endian bytes at `data[dp..]`: how the scalar tails of every
/// codec read value `index`, a [`DecodeError::DataTruncated`] where `data` ends first
/// (`key_len`: the key or control bytes before `data`, for the offsets it names).
#[inline]
pub(crate) fn tail_value(
    data: &[u8], dp: usize, len: usize, index: usize, key_len: usize,
) -> Result<u64, DecodeError> {
    let Some(bytes) = data.get(dp..dp + len) else {
        return Err(DecodeError::DataTruncated {
            index,
            offset: key_len + dp,
            needed: len,
            available: key_len + data.len(),
        });
    };
    Ok(bytes.iter().rev().fold(0, |v, &b| (v << 8) | u64::from(b)))
}
