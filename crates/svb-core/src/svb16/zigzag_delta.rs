//! [`I16ZigzagDelta`]: i16 samples as the zigzag codes of their wrapping differences
//! (`s[i] - s[i-1]`, `s[-1]` the caller's `prev`) packed by [`Svb16`](super::Svb16): the
//! integer stage of ONT's VBZ (POD5's signal before zstd). The decoder is fused: the unpack,
//! the zigzag decode and the prefix sum of each group of eight run in registers in one pass
//! (the Svb16 loops with [`ZigzagDelta`](super::finish::ZigzagDelta) after each group).

use core::mem::MaybeUninit;

use svb_dispatch::{per_isa, uninit, Isa};

use super::scalar;
use crate::error::DecodeError;
use crate::DecodeResult;

/// Decode kernel: `(keys, data, prev, out) -> data bytes consumed`.
type DecodeFn = unsafe fn(&[u8], &[u8], i16, &mut [MaybeUninit<i16>]) -> DecodeResult;

/// One ISA's [`I16ZigzagDelta`] decoder. Obtain it with [`I16ZigzagDelta::kernels_for`]
/// (which checks the CPU) to compare ISAs; [`I16ZigzagDelta::kernels`] is the cached best.
///
/// A `&'static ZigzagDeltaKernels` exists only for an ISA this CPU runs (the tables are
/// private and handed out through [`PerIsa`](svb_dispatch::PerIsa)), so its methods are safe.
pub struct ZigzagDeltaKernels {
    isa: Isa,
    decode: DecodeFn,
}

debug_by_isa!(ZigzagDeltaKernels);

per_isa! {
    static KERNELS: PerIsa<ZigzagDeltaKernels> = {
        Scalar => ZigzagDeltaKernels { isa: Isa::Scalar, decode: scalar::decode_zigzag_delta },
        #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
        Ssse3 => ZigzagDeltaKernels {
            isa: Isa::Ssse3,
            decode: super::x86::ssse3::decode_zigzag_delta,
        },
        #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
        Avx2 => ZigzagDeltaKernels {
            isa: Isa::Avx2,
            decode: super::x86::avx2::decode_zigzag_delta,
        },
        #[cfg(target_arch = "aarch64")]
        Neon => ZigzagDeltaKernels {
            isa: Isa::Neon,
            decode: super::aarch64::neon::decode_zigzag_delta,
        },
    };
}

impl ZigzagDeltaKernels {
    /// The ISA these kernels run on.
    pub fn isa(&self) -> Isa {
        self.isa
    }

    /// Decodes `out.len()` samples from their key bytes `keys` and the data bytes `data`
    /// (the two halves of a stream, as [`I16ZigzagDelta::split`] gives them, or kept apart
    /// by a container), the first difference taken from `prev`. Returns the data bytes
    /// consumed. Any input is safe: keys too short for `out.len()` samples, or data too short
    /// for what the keys say, is a [`DecodeError`] (offsets count the key bytes first, as in
    /// one stream). Writes only initialised samples, and all of `out` on `Ok`.
    #[inline]
    pub fn decode_split_uninit(
        &self, keys: &[u8], data: &[u8], prev: i16, out: &mut [MaybeUninit<i16>],
    ) -> DecodeResult {
        crate::codec::split_control_stream(keys, out.len(), super::key_len(out.len()))?;
        // SAFETY: `self` is one of the private tables above, which `KERNELS` hands out only
        // when this CPU runs its ISA; the key bytes were checked just above.
        unsafe { (self.decode)(keys, data, prev, out) }
    }

    /// Decodes one whole stream of `out.len()` samples (key bytes, then data) from `prev`;
    /// returns the bytes consumed, keys included.
    pub fn decode_to_slice(&self, input: &[u8], prev: i16, out: &mut [i16]) -> DecodeResult {
        let (keys, data) = I16ZigzagDelta.split(input, out.len())?;
        // SAFETY: the decoder writes only initialised samples.
        let out = unsafe { uninit::as_uninit_mut(out) };
        Ok(keys.len() + self.decode_split_uninit(keys, data, prev, out)?)
    }
}

/// i16 samples as VBZ's integer stage stores them: `Svb16(zigzag16(s[i] - s[i-1]))`, the
/// differences wrapping in 16 bits, `s[-1]` the caller's `prev` (0 in a POD5 chunk). The
/// count is not stored.
///
/// ```
/// use svb_core::{Codec, I16ZigzagDelta, Svb16};
/// let samples = [10i16, 12, 11, 11, 13, 14, 15, 16, 300, -300];
/// // zigzag of the differences from 0: 10 -> 20, +2 -> 4, -1 -> 1, ...
/// let zz = [20u16, 4, 1, 0, 4, 2, 2, 2, 568, 1199];
/// let bytes = Svb16.encode(&zz);
/// let mut out = [0i16; 10];
/// let used = I16ZigzagDelta.kernels().decode_to_slice(&bytes, 0, &mut out)?;
/// assert_eq!((out, used), (samples, bytes.len()));
/// # Ok::<(), svb_core::DecodeError>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct I16ZigzagDelta;

impl I16ZigzagDelta {
    /// The kernels of `isa`, or `None` when this CPU cannot run it.
    pub fn kernels_for(&self, isa: Isa) -> Option<&'static ZigzagDeltaKernels> {
        KERNELS.get(isa)
    }

    /// The best kernels for this CPU (chosen once, cached).
    #[inline]
    pub fn kernels(&self) -> &'static ZigzagDeltaKernels {
        KERNELS.best()
    }

    /// Splits a stream of `n` samples into its key bytes and its data, or reports the key
    /// bytes truncated.
    #[inline]
    pub fn split<'a>(
        &self, input: &'a [u8], n: usize,
    ) -> Result<(&'a [u8], &'a [u8]), DecodeError> {
        scalar::split_keys(input, n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Codec, Svb16};

    #[test]
    fn short_keys_are_an_error_on_every_isa() {
        for isa in Isa::available() {
            let k = I16ZigzagDelta.kernels_for(isa).unwrap();
            let mut out = [MaybeUninit::new(0i16); 9];
            let e = k.decode_split_uninit(&[0], &[0; 32], 0, &mut out).unwrap_err();
            assert_eq!(e, DecodeError::ControlTruncated { n: 9, needed: 2, available: 1 }, "{isa}");
        }
    }

    #[test]
    fn every_isa_matches_the_scalar_kernel_from_any_prev() {
        let mut rng = svb_testdata::Rng(0x5EED_16D1);
        for n in [0usize, 1, 7, 8, 9, 63, 64, 65, 511, 512, 513, 1000] {
            let codes: Vec<u16> = (0..n)
                .map(|i| match i % 3 {
                    0 => rng.next() as u16,
                    1 => (rng.next() % 256) as u16,
                    _ => 0xFFFF,
                })
                .collect();
            let stream = Svb16.encode(&codes);
            for prev in [0i16, -1, i16::MAX, i16::MIN] {
                let mut want = vec![0i16; n];
                let scalar = I16ZigzagDelta.kernels_for(Isa::Scalar).unwrap();
                let used = scalar.decode_to_slice(&stream, prev, &mut want).unwrap();
                assert_eq!(used, stream.len());
                for isa in Isa::available() {
                    let mut got = vec![0i16; n];
                    let k = I16ZigzagDelta.kernels_for(isa).unwrap();
                    assert_eq!(k.decode_to_slice(&stream, prev, &mut got), Ok(used));
                    assert_eq!(got, want, "{isa} n={n} prev={prev}");
                }
            }
        }
    }
}
