//! [`I16ZigzagDelta32`]: i16 samples as the zigzag codes of their differences taken in 32
//! bits (`s[i] - s[i-1]`, `s[-1]` the caller's `prev`), packed as
//! [`U32Classic`](super::U32Classic): slow5lib's SVB-ZD, the signal of many BLOW5 files. The
//! decoder is fused: the u32 loops with [`ZigzagDelta16`] after the unpack, two groups at a
//! time narrowed to 16-bit lanes and prefix-summed in registers.

use crate::DecodeResult;
use core::mem::MaybeUninit;

use svb_dispatch::{per_isa, uninit, Isa};

use super::finish::{Lane32, ZigzagDelta16};
use super::mapped::IsaKernels;

/// Decode kernel: `(input, prev, out) -> bytes consumed`.
type DecodeFn = unsafe fn(&[u8], i16, &mut [MaybeUninit<i16>]) -> DecodeResult;

/// One ISA's [`I16ZigzagDelta32`] decoder. Obtain it with [`I16ZigzagDelta32::kernels_for`]
/// (which checks the CPU) to compare ISAs; [`I16ZigzagDelta32::kernels`] is the cached best.
///
/// A `&'static ZigzagDelta32Kernels` exists only for an ISA this CPU runs (the tables are
/// private and handed out through [`PerIsa`](svb_dispatch::PerIsa)), so its methods are safe.
pub struct ZigzagDelta32Kernels {
    isa: Isa,
    decode: DecodeFn,
}

debug_by_isa!(ZigzagDelta32Kernels);

/// The fused decode of ISA `K`.
///
/// # Safety
/// The CPU must support `K`'s ISA.
unsafe fn decode<K: IsaKernels>(
    input: &[u8], prev: i16, out: &mut [MaybeUninit<i16>],
) -> DecodeResult {
    // SAFETY: the caller guarantees the ISA.
    unsafe { K::decode_finish::<ZigzagDelta16>(input, prev.to_u32(), out) }.map(|(used, _)| used)
}

/// The fused decode of AVX2: the 16-sample block loop, then the SSSE3 loops.
///
/// # Safety
/// The CPU must support AVX2.
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
unsafe fn decode_avx2(input: &[u8], prev: i16, out: &mut [MaybeUninit<i16>]) -> DecodeResult {
    // SAFETY: the caller guarantees AVX2.
    unsafe { super::x86::avx2_blocks16::decode::<ZigzagDelta16>(input, prev.to_u32(), out) }
        .map(|(used, _)| used)
}

per_isa! {
    static KERNELS: PerIsa<ZigzagDelta32Kernels> = {
        Scalar => ZigzagDelta32Kernels {
            isa: Isa::Scalar,
            decode: decode::<super::mapped::Scalar>,
        },
        #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
        Ssse3 => ZigzagDelta32Kernels {
            isa: Isa::Ssse3,
            decode: decode::<super::mapped::Ssse3>,
        },
        #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
        Avx2 => ZigzagDelta32Kernels {
            isa: Isa::Avx2,
            decode: decode_avx2,
        },
        #[cfg(target_arch = "aarch64")]
        Neon => ZigzagDelta32Kernels {
            isa: Isa::Neon,
            decode: decode::<super::mapped::Neon>,
        },
    };
}

impl ZigzagDelta32Kernels {
    /// The ISA these kernels run on.
    pub fn isa(&self) -> Isa {
        self.isa
    }

    /// Decodes `out.len()` samples from the front of `input` (control bytes, then data),
    /// the first difference taken from `prev`; returns the bytes consumed (the stream may
    /// go on past them). Any input is safe: a stream too short is a [`DecodeError`](crate::DecodeError) naming
    /// where. Writes only initialised samples, and all of `out` on `Ok`.
    #[inline]
    pub fn decode_uninit(
        &self, input: &[u8], prev: i16, out: &mut [MaybeUninit<i16>],
    ) -> DecodeResult {
        // SAFETY: `self` is one of the private tables above, which `KERNELS` hands out only
        // when this CPU runs its ISA.
        unsafe { (self.decode)(input, prev, out) }
    }

    /// [`decode_uninit`](Self::decode_uninit) into initialised samples.
    pub fn decode_to_slice(&self, input: &[u8], prev: i16, out: &mut [i16]) -> DecodeResult {
        // SAFETY: the decoder writes only initialised samples.
        self.decode_uninit(input, prev, unsafe { uninit::as_uninit_mut(out) })
    }
}

/// i16 samples as slow5lib's SVB-ZD stores them: `U32Classic(zigzag32(s[i] - s[i-1]))`, the
/// differences taken in 32 bits (a jump of more than 32767 stays one value), `s[-1]` the
/// caller's `prev` (0 in a BLOW5 record). The count is not stored.
///
/// ```
/// use svb_core::{Codec, I16ZigzagDelta32, U32Classic};
/// let samples = [10i16, 12, 11, -20000, 20000];
/// // zigzag of the 32-bit differences from 0: 10 -> 20, +2 -> 4, -1 -> 1, -20011 -> 40021, +40000 -> 80000
/// let bytes = U32Classic.encode(&[20, 4, 1, 40021, 80000]);
/// let mut out = [0i16; 5];
/// let used = I16ZigzagDelta32.kernels().decode_to_slice(&bytes, 0, &mut out)?;
/// assert_eq!((out, used), (samples, bytes.len()));
/// # Ok::<(), svb_core::DecodeError>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct I16ZigzagDelta32;

impl I16ZigzagDelta32 {
    /// The kernels of `isa`, or `None` when this CPU cannot run it.
    pub fn kernels_for(&self, isa: Isa) -> Option<&'static ZigzagDelta32Kernels> {
        KERNELS.get(isa)
    }

    /// The best kernels for this CPU (chosen once, cached).
    #[inline]
    pub fn kernels(&self) -> &'static ZigzagDelta32Kernels {
        KERNELS.best()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Codec, U32Classic};

    #[test]
    fn every_isa_matches_the_scalar_kernel_from_any_prev() {
        let mut rng = svb_testdata::Rng(0x5EED_2D32);
        for n in [0usize, 1, 3, 4, 5, 7, 8, 9, 31, 32, 33, 127, 128, 129, 1000, 4099] {
            let codes: Vec<u32> = (0..n)
                .map(|i| match i % 4 {
                    0 => rng.next() as u32 % 131_072,
                    1 => (rng.next() % 256) as u32,
                    2 => u32::MAX - (rng.next() as u32 % 7),
                    _ => 0,
                })
                .collect();
            let stream = U32Classic.encode(&codes);
            for prev in [0i16, -1, i16::MAX, i16::MIN, 1234] {
                let mut want = vec![0i16; n];
                let scalar = I16ZigzagDelta32.kernels_for(Isa::Scalar).unwrap();
                let used = scalar.decode_to_slice(&stream, prev, &mut want).unwrap();
                assert_eq!(used, stream.len());
                let mut acc = prev as i32;
                for (i, &z) in codes.iter().enumerate() {
                    acc = acc.wrapping_add(((z >> 1) as i32) ^ -((z & 1) as i32));
                    assert_eq!(want[i], acc as i16, "scalar n={n} i={i}");
                }
                for isa in Isa::available() {
                    let k = I16ZigzagDelta32.kernels_for(isa).unwrap();
                    let mut got = vec![0i16; n];
                    assert_eq!(k.decode_to_slice(&stream, prev, &mut got), Ok(used));
                    assert_eq!(got, want, "{isa} n={n} prev={prev}");
                    for cut in [0, stream.len() / 2, stream.len().saturating_sub(1)] {
                        if cut < stream.len() {
                            let mut a = vec![0i16; n];
                            let mut b = vec![0i16; n];
                            assert_eq!(
                                k.decode_to_slice(&stream[..cut], prev, &mut a),
                                scalar.decode_to_slice(&stream[..cut], prev, &mut b),
                                "{isa} n={n} cut={cut}"
                            );
                        }
                    }
                }
            }
        }
    }
}
