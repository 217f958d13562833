//! [`I32Zigzag`]: signed 32-bit values as lemire/streamvbyte's `zigzag_encode` then
//! `streamvbyte_encode` write them: each value zigzag-coded (`0, -1, 1, -2` -> `0, 1, 2, 3`,
//! so small magnitudes take one byte) and packed as [`U32Classic`](super::U32Classic). Both
//! directions are fused: the decoder unzigzags each group in registers in the same pass as
//! the unpack, the encoder zigzags each load of values before packing it.

use core::mem::MaybeUninit;

use svb_dispatch::{per_isa, Isa};

use super::finish::Unzigzag;
use super::mapped::IsaKernels;
use super::source::Zigzags;
use super::U32Classic;
use crate::codec::{Codec, Kernels};
use crate::{DecodeResult, EncodeResult};

/// The fused zigzag encode of ISA `K`: the plain loops, each load of values a load of their
/// zigzag codes.
///
/// # Safety
/// The CPU must support `K`'s ISA.
unsafe fn encode<K: IsaKernels>(values: &[i32], out: &mut [MaybeUninit<u8>]) -> EncodeResult {
    // SAFETY: i32 and u32 share size and alignment and every bit pattern is valid for both:
    // the same values read as u32 (the source takes them as i32 again).
    let values = unsafe { &*(values as *const [i32] as *const [u32]) };
    // SAFETY: the caller guarantees the ISA.
    unsafe { K::encode_source::<Zigzags>(values, 0, out) }
}

/// The fused unpack + unzigzag of ISA `K`.
///
/// # Safety
/// The CPU must support `K`'s ISA.
unsafe fn decode<K: IsaKernels>(input: &[u8], out: &mut [MaybeUninit<i32>]) -> DecodeResult {
    // SAFETY: i32 and u32 share size and alignment, and every bit pattern is valid for both,
    // so the kernel's u32 writes are i32 values.
    let out = unsafe { &mut *(out as *mut [MaybeUninit<i32>] as *mut [MaybeUninit<u32>]) };
    // SAFETY: the caller guarantees the ISA.
    unsafe { K::decode_finish::<Unzigzag>(input, 0, out) }.map(|(used, _)| used)
}

/// Zigzag-coded StreamVByte of i32: lemire/streamvbyte's `zigzag_encode` followed by
/// `streamvbyte_encode`, byte for byte. Values near zero of either sign take one byte.
///
/// ```
/// use svb_core::{Codec, I32Zigzag};
/// let v = [0i32, -1, 1, -2, 1000, -70_000, i32::MIN, i32::MAX];
/// let bytes = I32Zigzag.encode(&v);
/// // The codes are 0, 1, 2, 3 (1 byte each), 2000, 139999 (2 and 3), then two of 4 bytes.
/// assert_eq!(bytes.len(), 2 + 4 + 2 + 3 + 4 + 4);
/// assert_eq!(I32Zigzag.decode(&bytes, v.len())?, v);
/// # Ok::<(), svb_core::DecodeError>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct I32Zigzag;

macro_rules! zigzag_kernels {
    ($isa:expr, $k:ty) => {
        Kernels::new($isa, encode::<$k>, decode::<$k>)
    };
}

per_isa! {
    static KERNELS: PerIsa<Kernels<i32>> = {
        Scalar => zigzag_kernels!(Isa::Scalar, super::mapped::Scalar),
        #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
        Ssse3 => zigzag_kernels!(Isa::Ssse3, super::mapped::Ssse3),
        #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
        Avx2 => zigzag_kernels!(Isa::Avx2, super::mapped::Avx2),
        #[cfg(target_arch = "aarch64")]
        Neon => zigzag_kernels!(Isa::Neon, super::mapped::Neon),
    };
}

impl crate::codec::sealed::Sealed for I32Zigzag {}

impl Codec for I32Zigzag {
    type Value = i32;

    fn name(&self) -> &'static str {
        "I32Zigzag"
    }
    // The wire is U32Classic's.
    fn control_len(&self, n: usize) -> usize {
        U32Classic.control_len(n)
    }
    fn max_encoded_len(&self, n: usize) -> usize {
        U32Classic.max_encoded_len(n)
    }
    fn min_encoded_len(&self, n: usize) -> usize {
        U32Classic.min_encoded_len(n)
    }
    fn encoded_len(&self, control: &[u8], n: usize) -> DecodeResult {
        U32Classic.encoded_len(control, n)
    }
    fn kernels_for(&self, isa: Isa) -> Option<&'static Kernels<i32>> {
        KERNELS.get(isa)
    }
    #[inline]
    fn kernels(&self) -> &'static Kernels<i32> {
        KERNELS.best()
    }
}
