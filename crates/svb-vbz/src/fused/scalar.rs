//! Portable fused decode, and the tail of the SIMD ones.

use core::mem::MaybeUninit;

use svb_core::DecodeError;

/// zigzag16 decode.
#[inline(always)]
pub(crate) fn unzigzag(z: u16) -> u16 {
    (z >> 1) ^ 0u16.wrapping_sub(z & 1)
}

pub(crate) fn decode(
    keys: &[u8],
    data: &[u8],
    initial: i16,
    out: &mut [MaybeUninit<i16>],
) -> Result<usize, DecodeError> {
    decode_tail(keys, data, 0, 0, initial as u16, out)
}

/// Decodes samples `first..out.len()` whose data starts at `data[dp..]`, after the sample
/// value `prev`; returns the data bytes used in all.
pub(crate) fn decode_tail(
    keys: &[u8],
    data: &[u8],
    mut dp: usize,
    first: usize,
    mut prev: u16,
    out: &mut [MaybeUninit<i16>],
) -> Result<usize, DecodeError> {
    for (i, slot) in out.iter_mut().enumerate().skip(first) {
        let wide = (keys[i / 8] >> (i % 8)) & 1 == 1;
        let len = 1 + wide as usize;
        let Some(bytes) = data.get(dp..dp + len) else {
            return Err(DecodeError::DataTruncated {
                index: i,
                offset: keys.len() + dp,
                needed: len,
                available: keys.len() + data.len(),
            });
        };
        let z = if wide {
            u16::from_le_bytes([bytes[0], bytes[1]])
        } else {
            bytes[0] as u16
        };
        prev = prev.wrapping_add(unzigzag(z));
        slot.write(prev as i16);
        dp += len;
    }
    Ok(dp)
}
