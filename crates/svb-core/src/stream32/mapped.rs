//! What the codecs over mapped u32 values ([`U32Delta`](super::U32Delta),
//! [`I32Zigzag`](super::I32Zigzag)) share: each ISA's classic kernels as one type
//! ([`IsaKernels`]: the decode with any finish step, the encode of any source), so a codec's
//! table is a generic function per ISA.

use core::mem::MaybeUninit;

use super::finish::{Finish, ZeroCheck};
use super::source::Source;
use super::Classic;
use crate::error::DecodeError;
use crate::{DecodeResult, EncodeResult};

/// One ISA's U32Classic kernels: the encode of any [`Source`] and the decode finished by any
/// [`Finish`].
pub(crate) trait IsaKernels: 'static {
    /// Encodes the codes `Src` makes of `values` (`prev` the value before the first) into
    /// the front of `out` (`max_encoded_len(n)` bytes).
    ///
    /// # Safety
    /// The CPU must support the ISA.
    unsafe fn encode_source<Src: Source>(
        values: &[u32], prev: u32, out: &mut [MaybeUninit<u8>],
    ) -> EncodeResult;

    /// Decodes `out.len()` values finished by `F` from the running value `acc`; returns the
    /// bytes consumed and the running value after the last.
    ///
    /// # Safety
    /// The CPU must support the ISA.
    unsafe fn decode_finish<F: Finish>(
        input: &[u8], acc: u32, out: &mut [MaybeUninit<F::Out>],
    ) -> DecodeResult<(usize, u32)>;

    /// As [`IsaKernels::decode_finish`] with a [`Finish::NONZERO`] step: the values the
    /// SIMD block loops decoded are also compared with zero (see [`ZeroCheck`]).
    ///
    /// # Safety
    /// The CPU must support the ISA.
    unsafe fn decode_nonzero<F: Finish>(
        input: &[u8], acc: u32, out: &mut [MaybeUninit<F::Out>],
    ) -> Result<ZeroCheck, DecodeError>;
}

/// The portable kernels.
pub(crate) struct Scalar;
/// The SSSE3 kernels.
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
pub(crate) struct Ssse3;
/// The AVX2 kernels.
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
pub(crate) struct Avx2;
/// The NEON kernels.
#[cfg(target_arch = "aarch64")]
pub(crate) struct Neon;

macro_rules! isa_kernels {
    ($t:ty, $m:path) => {
        impl IsaKernels for $t {
            #[inline]
            unsafe fn encode_source<Src: Source>(
                values: &[u32], prev: u32, out: &mut [MaybeUninit<u8>],
            ) -> $crate::EncodeResult {
                use $m as k;
                // SAFETY: the caller guarantees the ISA.
                #[allow(unused_unsafe)]
                unsafe {
                    k::encode_source::<Classic, Src>(values, prev, out)
                }
            }

            #[inline]
            unsafe fn decode_finish<F: Finish>(
                input: &[u8], acc: u32, out: &mut [MaybeUninit<F::Out>],
            ) -> $crate::DecodeResult<(usize, u32)> {
                use $m as k;
                // SAFETY: the caller guarantees the ISA.
                #[allow(unused_unsafe)]
                unsafe {
                    k::decode_finish::<Classic, F>(input, acc, out)
                }
            }

            #[inline]
            unsafe fn decode_nonzero<F: Finish>(
                input: &[u8], acc: u32, out: &mut [MaybeUninit<F::Out>],
            ) -> Result<ZeroCheck, DecodeError> {
                use $m as k;
                // SAFETY: the caller guarantees the ISA.
                #[allow(unused_unsafe)]
                unsafe {
                    k::decode_nonzero::<Classic, F>(input, acc, out)
                }
            }
        }
    };
}

isa_kernels!(Scalar, super::scalar);
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
isa_kernels!(Ssse3, super::x86::ssse3);
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
isa_kernels!(Avx2, super::x86::avx2);
#[cfg(target_arch = "aarch64")]
isa_kernels!(Neon, super::aarch64::neon);
