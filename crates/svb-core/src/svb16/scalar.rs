//! Portable kernels of Svb16, and the tails of its SIMD kernels.

use core::mem::MaybeUninit;

use super::finish::{Finish16, Lane16, Plain, ZigzagDelta};
use super::key_len;
use crate::error::{DecodeError, EncodeError};
use crate::{DecodeResult, EncodeResult};

#[inline]
pub(crate) fn split_keys(input: &[u8], n: usize) -> Result<(&[u8], &[u8]), DecodeError> {
    crate::codec::split_control_stream(input, n, key_len(n))
}

#[inline]
pub(crate) fn check_out_len(n: usize, out_len: usize) -> EncodeResult {
    let needed = key_len(n).saturating_add(n.saturating_mul(2));
    if out_len < needed {
        return Err(EncodeError::OutputTooSmall { needed, available: out_len });
    }
    Ok(key_len(n))
}

pub(crate) fn decode(input: &[u8], out: &mut [MaybeUninit<u16>]) -> DecodeResult {
    let (keys, data) = split_keys(input, out.len())?;
    let used = decode_tail::<Plain, u16>(keys, data, 0, 0, 0, out)?;
    Ok(keys.len() + used)
}

/// The portable zigzag-delta kernel (see [`super::zigzag_delta`]).
pub(crate) fn decode_zigzag_delta(
    keys: &[u8], data: &[u8], prev: i16, out: &mut [MaybeUninit<i16>],
) -> DecodeResult {
    decode_tail::<ZigzagDelta, i16>(keys, data, 0, 0, prev as u16, out)
}

/// Decodes values `first..out.len()` (`first` a multiple of 8) with data from `data[dp..]`,
/// each group through `F` from the running value `acc`; returns the data bytes used in all.
#[inline]
pub(crate) fn decode_tail<F: Finish16, O: Lane16>(
    keys: &[u8], data: &[u8], mut dp: usize, first: usize, mut acc: u16, out: &mut [MaybeUninit<O>],
) -> DecodeResult {
    let n = out.len();
    let mut i = first;
    while i + 8 <= n && data.len() - dp >= 16 {
        let key = keys[i / 8];
        for k in 0..8 {
            let wide = (key >> k) & 1;
            let word = u16::from_le_bytes([data[dp], data[dp + 1]]);
            let v = F::one(word & (0xFF | (0xFF00 * wide as u16)), &mut acc);
            out[i + k].write(O::from_bits(v));
            dp += 1 + wide as usize;
        }
        i += 8;
    }
    while i < n {
        let len = 1 + ((keys[i / 8] >> (i % 8)) & 1) as usize;
        // At most 2 bytes: the value fits.
        let v = crate::stream32::scalar::tail_value(data, dp, len, i, keys.len())? as u16;
        out[i].write(O::from_bits(F::one(v, &mut acc)));
        dp += len;
        i += 1;
    }
    Ok(dp)
}

pub(crate) fn encode(values: &[u16], out: &mut [MaybeUninit<u8>]) -> EncodeResult {
    encode_with(values, out, |_, _, _| (0, 0))
}

/// The skeleton of every Svb16 encode kernel: `out`'s room checked, whole groups of 8 by
/// `groups` (an ISA's SIMD loops, given `out` with room for the largest encoding and the key
/// length; it returns where it stopped, `(data bytes, groups)`), the rest by the scalar tail.
#[inline(always)]
pub(crate) fn encode_with(
    values: &[u16], out: &mut [MaybeUninit<u8>],
    groups: impl FnOnce(&[u16], &mut [MaybeUninit<u8>], usize) -> (usize, usize),
) -> EncodeResult {
    let klen = check_out_len(values.len(), out.len())?;
    let (dp, g) = groups(values, out, klen);
    let used = encode_tail(values, out, klen, dp, 8 * g);
    Ok(klen + used)
}

/// Encodes values `first..` (`first` a multiple of 8) with data at `out[key_len + dp..]`;
/// returns the data bytes written in all.
#[inline]
pub(crate) fn encode_tail(
    values: &[u16], out: &mut [MaybeUninit<u8>], klen: usize, mut dp: usize, first: usize,
) -> usize {
    let (keys, data) = out.split_at_mut(klen);
    for (g, group) in values[first..].chunks(8).enumerate() {
        let mut key = 0u8;
        for (k, &v) in group.iter().enumerate() {
            data[dp].write(v as u8);
            if v > 0xFF {
                key |= 1 << k;
                data[dp + 1].write((v >> 8) as u8);
                dp += 2;
            } else {
                dp += 1;
            }
        }
        keys[first / 8 + g].write(key);
    }
    dp
}
