//! [`Svb16`]: ONT's 16-bit StreamVByte, the integer stage of POD5's VBZ signal compression.
//!
//! Wire: `ceil(n/8)` key bytes, one bit per value, LSB first (0: one data byte, 1: two bytes
//! little-endian), then the data bytes of each value in order.

/// The two decode entries of an ISA's module, written once: `decode` (the codec's kernel: a
/// whole stream, `Plain`, into u16) and `decode_zigzag_delta` (`I16ZigzagDelta`'s: keys and
/// data apart, `ZigzagDelta`, into i16), both through the module's own
/// `decode_split::<F, O>(keys, data, acc, out) -> data bytes`, whose contract is that the
/// CPU supports `$isa` (the name the safety contract gives).
macro_rules! decode_entries {
    ($isa:literal) => {
        /// The decode kernel of this ISA (see the codec's `Kernels`).
        ///
        /// # Safety
        #[doc = concat!("The CPU must support ", $isa, ".")]
        pub(crate) unsafe fn decode(
            input: &[u8], out: &mut [core::mem::MaybeUninit<u16>],
        ) -> Result<usize, crate::error::DecodeError> {
            use crate::svb16::finish::Plain;
            let (keys, data) = crate::svb16::scalar::split_keys(input, out.len())?;
            // SAFETY: the caller guarantees the ISA (this function's contract); split_keys
            // gave the key bytes of out.len() values.
            let used = unsafe { decode_split::<Plain, u16>(keys, data, 0, out)? };
            Ok(keys.len() + used)
        }

        /// The zigzag-delta kernel of this ISA (see [`crate::svb16::zigzag_delta`]).
        ///
        /// # Safety
        #[doc = concat!("The CPU must support ", $isa, "; `keys` must hold at least")]
        /// `out.len().div_ceil(8)` bytes.
        pub(crate) unsafe fn decode_zigzag_delta(
            keys: &[u8], data: &[u8], prev: i16, out: &mut [core::mem::MaybeUninit<i16>],
        ) -> Result<usize, crate::error::DecodeError> {
            use crate::svb16::finish::ZigzagDelta;
            // SAFETY: the caller guarantees the ISA and the key bytes (this function's
            // contract).
            unsafe { decode_split::<ZigzagDelta, i16>(keys, data, prev as u16, out) }
        }
    };
}

#[cfg(target_arch = "aarch64")]
pub(crate) mod aarch64;
pub(crate) mod finish;
pub(crate) mod scalar;
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
pub(crate) mod x86;
pub(crate) mod zigzag_delta;

pub use zigzag_delta::{I16ZigzagDelta, ZigzagDeltaKernels};

use svb_dispatch::{per_isa, Isa};

use crate::codec::{Codec, Kernels};
use crate::tables::{self, Row16, LENS_SVB16};
use crate::DecodeResult;

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

codec_impl!(
    Svb16: u16,
    kernels KERNELS,
    control key_len,
    bytes 1..=2,
    encoded_len,
);

/// The encoded length of `n` values whose key bytes start `control`.
fn encoded_len(control: &[u8], n: usize) -> DecodeResult {
    let (keys, _) = crate::codec::split_control_stream(control, n, key_len(n))?;
    let needed = keys.len();
    let ones: usize = keys[..n / 8].iter().map(|k| k.count_ones() as usize).sum();
    let tail = if !n.is_multiple_of(8) {
        (keys[n / 8] & ((1u8 << (n % 8)) - 1)).count_ones() as usize
    } else {
        0
    };
    Ok(needed + n + ones + tail)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lens8_matches_table() {
        svb_testdata::assert_bytewise(lens8, &LENS);
    }
}
