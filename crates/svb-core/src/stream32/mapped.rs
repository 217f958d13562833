//! What the codecs over mapped u32 values ([`U32Delta`](super::U32Delta),
//! [`I32Zigzag`](super::I32Zigzag)) share: each ISA's classic kernels as one type
//! ([`IsaKernels`]: the decode with any finish step, the encode of any source, so a codec's
//! table is a generic function per ISA), and the chunked encoder that maps values (to zigzag
//! codes) in pieces on the stack and packs them with the plain kernel, writing straight into
//! the caller's buffer.

use core::mem::MaybeUninit;

use super::finish::Finish;
use super::scalar::check_out_len;
use super::source::Source;
use super::{control_len, Classic};
use crate::error::{DecodeError, EncodeError};

/// One ISA's U32Classic kernels: the plain encode and the decode finished by any [`Finish`].
pub(crate) trait IsaKernels: 'static {
    /// Encodes `values` into the front of `out` (`max_encoded_len(n)` bytes).
    ///
    /// # Safety
    /// The CPU must support the ISA.
    unsafe fn encode(values: &[u32], out: &mut [MaybeUninit<u8>]) -> Result<usize, EncodeError>;

    /// Encodes the codes `Src` makes of `values` (`prev` the value before the first) into
    /// the front of `out` (`max_encoded_len(n)` bytes).
    ///
    /// # Safety
    /// The CPU must support the ISA.
    unsafe fn encode_source<Src: Source>(
        values: &[u32],
        prev: u32,
        out: &mut [MaybeUninit<u8>],
    ) -> Result<usize, EncodeError>;

    /// Decodes `out.len()` values finished by `F` from the running value `acc`; returns the
    /// bytes consumed and the running value after the last.
    ///
    /// # Safety
    /// The CPU must support the ISA.
    unsafe fn decode_finish<F: Finish>(
        input: &[u8],
        acc: u32,
        out: &mut [MaybeUninit<F::Out>],
    ) -> Result<(usize, u32), DecodeError>;
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
            unsafe fn encode(
                values: &[u32],
                out: &mut [MaybeUninit<u8>],
            ) -> Result<usize, EncodeError> {
                use $m as k;
                // SAFETY: the caller guarantees the ISA.
                #[allow(unused_unsafe)]
                unsafe {
                    k::encode::<Classic>(values, out)
                }
            }

            #[inline]
            unsafe fn encode_source<Src: Source>(
                values: &[u32],
                prev: u32,
                out: &mut [MaybeUninit<u8>],
            ) -> Result<usize, EncodeError> {
                use $m as k;
                // SAFETY: the caller guarantees the ISA.
                #[allow(unused_unsafe)]
                unsafe {
                    k::encode_source::<Classic, Src>(values, prev, out)
                }
            }

            #[inline]
            unsafe fn decode_finish<F: Finish>(
                input: &[u8],
                acc: u32,
                out: &mut [MaybeUninit<F::Out>],
            ) -> Result<(usize, u32), DecodeError> {
                use $m as k;
                // SAFETY: the caller guarantees the ISA.
                #[allow(unused_unsafe)]
                unsafe {
                    k::decode_finish::<Classic, F>(input, acc, out)
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

/// Values mapped and packed per chunk (a multiple of 4, so chunks start on a control byte).
const CHUNK: usize = 256;
/// The stack buffer a chunk is packed into: its largest encoding and room for the SIMD
/// stores past the end.
const PACKED: usize = CHUNK / 4 + 4 * CHUNK + 64;

/// Encodes `map(values)` with `K`'s classic kernel into the front of `out` (at least
/// `max_encoded_len(n)` bytes): `map` fills the u32 codes of one chunk of values at a time,
/// in order; each chunk is packed on the stack and its control and data bytes copied to
/// their places in `out`. Returns the encoded length. Writes only initialised bytes.
///
/// # Safety
/// The CPU must support `K`'s ISA.
#[inline]
pub(crate) unsafe fn encode_mapped<K: IsaKernels, X: Copy>(
    values: &[X],
    out: &mut [MaybeUninit<u8>],
    mut map: impl FnMut(&[X], &mut [u32]),
) -> Result<usize, EncodeError> {
    let ctrl_len = check_out_len(values.len(), out.len())?;
    let (ctrl, data) = out.split_at_mut(ctrl_len);
    let mut dp = 0;
    let mut codes = [0u32; CHUNK];
    let mut packed = [MaybeUninit::<u8>::uninit(); PACKED];
    for (i, chunk) in values.chunks(CHUNK).enumerate() {
        let codes = &mut codes[..chunk.len()];
        map(chunk, codes);
        // SAFETY: the caller guarantees the ISA; `packed` holds the largest encoding.
        let len = unsafe { K::encode(codes, &mut packed) }?;
        let cl = control_len(chunk.len());
        ctrl[i * CHUNK / 4..][..cl].copy_from_slice(&packed[..cl]);
        data[dp..][..len - cl].copy_from_slice(&packed[cl..len]);
        dp += len - cl;
    }
    Ok(ctrl_len + dp)
}
