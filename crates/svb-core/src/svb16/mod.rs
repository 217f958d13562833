//! [`Svb16`]: ONT's 16-bit StreamVByte, the integer stage of POD5's VBZ signal compression.
//!
//! Wire: `ceil(n/8)` key bytes, one bit per value, LSB first (0: one data byte, 1: two bytes
//! little-endian), then the data bytes of each value in order.

#[cfg(target_arch = "aarch64")]
pub(crate) mod aarch64;
pub(crate) mod scalar;
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
pub(crate) mod x86;

use svb_dispatch::{per_isa, Isa};

use crate::codec::{Codec, Kernels};
use crate::error::DecodeError;
use crate::tables::{self, Row16, LENS_SVB16};

/// Data bytes of each key byte (8 + popcount).
pub(crate) static LENS: [u8; 256] = tables::data_lens(&LENS_SVB16);
/// Packed bytes of a key -> eight u16 lanes.
pub(crate) static DECODE: [Row16; 256] = tables::rows16(tables::decode_shuffle(&LENS_SVB16));
/// Eight u16 lanes -> packed bytes of a key.
pub(crate) static ENCODE: [Row16; 256] = tables::rows16(tables::encode_shuffle(&LENS_SVB16));

/// Key bytes of `n` values, 8 per byte.
#[inline]
pub(crate) const fn key_len(n: usize) -> usize {
    n.div_ceil(8)
}

/// Per-byte data lengths (8 + popcount) of the 8 key bytes packed in `kw`.
#[inline(always)]
pub(crate) fn lens8(kw: u64) -> u64 {
    let x = kw - ((kw >> 1) & 0x5555_5555_5555_5555);
    let x = (x & 0x3333_3333_3333_3333) + ((x >> 2) & 0x3333_3333_3333_3333);
    ((x + (x >> 4)) & 0x0F0F_0F0F_0F0F_0F0F) + 0x0808_0808_0808_0808
}

/// Building blocks for fused decoders (VBZ's svb16 -> unzigzag -> prefix sum in one loop):
/// the tables and length arithmetic of the Svb16 kernels, public so that crates fusing
/// further stages call them instead of copying them.
pub mod blocks {
    /// Key bytes of `n` values (8 per byte).
    pub const fn key_len(n: usize) -> usize {
        super::key_len(n)
    }

    /// Splits an Svb16 stream of `n` values into its key bytes and its data, or reports the
    /// key stream truncated.
    #[inline]
    pub fn split_keys(input: &[u8], n: usize) -> Result<(&[u8], &[u8]), crate::DecodeError> {
        super::scalar::split_keys(input, n)
    }

    /// Data bytes of the 8 values of key byte `key` (8 + popcount).
    #[inline(always)]
    pub fn data_len(key: u8) -> usize {
        super::LENS[key as usize] as usize
    }

    /// The 16 shuffle indices (for `pshufb` / `tbl`, 16-byte aligned) that expand the packed
    /// bytes of key byte `key` into eight little-endian u16 lanes; 0xFF marks a zero byte.
    #[inline(always)]
    pub fn decode_shuffle(key: u8) -> &'static [u8; 16] {
        &super::DECODE[key as usize].0
    }

    /// Per-byte data lengths of the 8 key bytes packed little-endian in `kw`.
    #[inline(always)]
    pub fn lens8(kw: u64) -> u64 {
        super::lens8(kw)
    }

    /// Inclusive prefix sums of [`lens8`]: byte `k` is the data length of key bytes `0..=k`
    /// (at most 128). `(sums << 8)` gives each group's start offset.
    #[inline(always)]
    pub fn prefix_lens(kw: u64) -> u64 {
        lens8(kw).wrapping_mul(0x0101_0101_0101_0101)
    }
}

/// ONT's svb16 codec for u16 (POD5 applies it to zigzag deltas of the i16 signal).
///
/// ```
/// use svb_core::{Codec, Svb16};
/// // zigzag deltas of the signal [10, 12, 11, 11, 13, 14, 15, 16, 300, -300]
/// let zz = [20u16, 4, 1, 0, 4, 2, 2, 2, 568, 1199];
/// let bytes = Svb16.encode(&zz);
/// assert_eq!(bytes, [0x00, 0x03, 0x14, 0x04, 0x01, 0x00, 0x04, 0x02, 0x02, 0x02, 0x38, 0x02, 0xaf, 0x04]);
/// assert_eq!(Svb16.decode(&bytes, zz.len()).unwrap(), zz);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Svb16;

per_isa! {
    static KERNELS: PerIsa<Kernels<u16>> = {
        Scalar => Kernels::new(Isa::Scalar, scalar::encode, scalar::decode),
        #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
        Ssse3 => Kernels::new(Isa::Ssse3, x86::ssse3::encode, x86::ssse3::decode),
        #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
        Avx2 => Kernels::new(Isa::Avx2, x86::avx2::encode, x86::avx2::decode),
        #[cfg(target_arch = "aarch64")]
        Neon => Kernels::new(Isa::Neon, aarch64::neon::encode, aarch64::neon::decode),
    };
}

impl crate::codec::sealed::Sealed for Svb16 {}

impl Codec for Svb16 {
    type Value = u16;

    fn name(&self) -> &'static str {
        "Svb16"
    }
    fn control_len(&self, n: usize) -> usize {
        key_len(n)
    }
    fn max_encoded_len(&self, n: usize) -> usize {
        key_len(n).saturating_add(n.saturating_mul(2))
    }
    fn min_encoded_len(&self, n: usize) -> usize {
        key_len(n).saturating_add(n)
    }
    fn encoded_len(&self, control: &[u8], n: usize) -> Result<usize, DecodeError> {
        let needed = key_len(n);
        let Some(keys) = control.get(..needed) else {
            return Err(DecodeError::ControlTruncated {
                n,
                needed,
                available: control.len(),
            });
        };
        let ones: usize = keys[..n / 8].iter().map(|k| k.count_ones() as usize).sum();
        let tail = if !n.is_multiple_of(8) {
            (keys[n / 8] & ((1u8 << (n % 8)) - 1)).count_ones() as usize
        } else {
            0
        };
        Ok(needed + n + ones + tail)
    }
    fn kernels_for(&self, isa: Isa) -> Option<&'static Kernels<u16>> {
        KERNELS.get(isa)
    }
    #[inline]
    fn kernels(&self) -> &'static Kernels<u16> {
        KERNELS.best()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lens8_matches_table() {
        let mut rng = svb_testdata::Rng(0x9E37_79B9_7F4A_7C15);
        for _ in 0..1000 {
            let x = rng.next();
            let l = lens8(x);
            for k in 0..8 {
                assert_eq!((l >> (8 * k)) as u8, LENS[(x >> (8 * k)) as u8 as usize]);
            }
        }
    }
}
