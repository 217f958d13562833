//! The [`Codec`] trait shared by every codec, and the kernel table type.

use core::mem::MaybeUninit;

#[cfg(feature = "alloc")]
use alloc::vec::Vec;

use svb_dispatch::Isa;

use crate::error::{DecodeError, EncodeError};
use crate::uninit;

/// Encode kernel: writes the whole stream (control, then data) to the front of `out` and
/// returns its length. Fails with [`EncodeError::OutputTooSmall`] when `out` is shorter than
/// `max_encoded_len(n)`, and with [`EncodeError::ValueTooLarge`] for out-of-range values.
pub type EncodeFn<T> = fn(&[T], &mut [MaybeUninit<u8>]) -> Result<usize, EncodeError>;
/// Decode kernel: decodes `out.len()` values from the front of `input` and returns the
/// bytes consumed. On `Ok` every element of `out` is written. Any `input` is safe: it is
/// never read past its end and needs no padding.
pub type DecodeFn<T> = fn(&[u8], &mut [MaybeUninit<T>]) -> Result<usize, DecodeError>;

/// Splits `input` into the first `needed` bytes (the control stream of `n` values) and the
/// rest, or reports the control stream truncated. Shared by every codec family.
#[inline]
pub(crate) fn split_control_stream(
    input: &[u8],
    n: usize,
    needed: usize,
) -> Result<(&[u8], &[u8]), DecodeError> {
    if input.len() < needed {
        return Err(DecodeError::ControlTruncated {
            n,
            needed,
            available: input.len(),
        });
    }
    Ok(input.split_at(needed))
}

/// One ISA's kernels of one codec. Obtain them with [`Codec::kernels_for`] (which checks
/// the CPU) to compare ISAs, or let [`Codec`]'s methods use the cached best choice.
#[derive(Debug)]
pub struct Kernels<T: 'static> {
    /// The instruction set these kernels use.
    pub isa: Isa,
    /// Encoder.
    pub encode: EncodeFn<T>,
    /// Decoder.
    pub decode: DecodeFn<T>,
}

impl<T: Copy + 'static> Kernels<T> {
    /// Encodes with these kernels into the front of `out` (`max_encoded_len(n)` bytes).
    pub fn encode_to_slice(&self, values: &[T], out: &mut [u8]) -> Result<usize, EncodeError> {
        (self.encode)(values, uninit::as_uninit_mut(out))
    }

    /// Decodes `out.len()` values with these kernels; returns the bytes consumed.
    pub fn decode_to_slice(&self, input: &[u8], out: &mut [T]) -> Result<usize, DecodeError> {
        (self.decode)(input, uninit::as_uninit_mut(out))
    }
}

/// A StreamVByte-family codec: one flat buffer of all control bytes, then all data bytes.
/// The count `n` is not stored; the container that holds the stream stores it.
///
/// ```
/// use svb_core::{Codec, U32Classic};
/// let values = [0u32, 100, 200, 300, 400, 500, 600, 700];
/// let bytes = U32Classic.encode(&values);
/// assert_eq!(bytes[..2], [0x40, 0x55]);
/// assert_eq!(U32Classic.decode(&bytes, values.len()).unwrap(), values);
/// ```
pub trait Codec {
    /// The integer type coded.
    type Value: Copy + 'static;

    /// The codec's name (`"U32Classic"`).
    fn name(&self) -> &'static str;
    /// Bytes of the control (key) stream for `n` values.
    fn control_len(&self, n: usize) -> usize;
    /// Largest possible encoded length of `n` values (saturates at `usize::MAX`).
    fn max_encoded_len(&self, n: usize) -> usize;
    /// Smallest possible encoded length of `n` values: a decoder refuses shorter input
    /// before it allocates anything.
    fn min_encoded_len(&self, n: usize) -> usize;
    /// Exact encoded length (control + data) of `n` values, read from their control stream.
    fn encoded_len(&self, control: &[u8], n: usize) -> Result<usize, DecodeError>;
    /// The kernels of `isa`, or `None` when this CPU (or build) cannot run them.
    fn kernels_for(&self, isa: Isa) -> Option<&'static Kernels<Self::Value>>;
    /// The kernels of the best ISA, chosen once and cached.
    fn kernels(&self) -> &'static Kernels<Self::Value>;

    /// Encodes into the front of `out` (which needs `max_encoded_len(n)` bytes); returns the
    /// encoded length.
    fn encode_to_slice(
        &self,
        values: &[Self::Value],
        out: &mut [u8],
    ) -> Result<usize, EncodeError> {
        (self.kernels().encode)(values, uninit::as_uninit_mut(out))
    }

    /// Appends the encoding of `values` to `out`, or fails (only `U64Coder1234` can: values of
    /// 2^32 or more). Nothing is appended on failure.
    #[cfg(feature = "alloc")]
    fn try_encode_into(
        &self,
        values: &[Self::Value],
        out: &mut Vec<u8>,
    ) -> Result<usize, EncodeError> {
        let max = self.max_encoded_len(values.len());
        uninit::append_with(out, max, |spare| (self.kernels().encode)(values, spare))
    }

    /// Appends the encoding of `values` to `out`; returns the bytes appended.
    ///
    /// # Panics
    /// Only for `U64Coder1234`, on a value of 2^32 or more (use
    /// [`try_encode_into`](Codec::try_encode_into) to get an error instead).
    #[cfg(feature = "alloc")]
    fn encode_into(&self, values: &[Self::Value], out: &mut Vec<u8>) -> usize {
        match self.try_encode_into(values, out) {
            Ok(len) => len,
            Err(e) => panic!("{}: {e}", self.name()),
        }
    }

    /// Encodes `values` into a new buffer.
    ///
    /// # Panics
    /// As [`encode_into`](Codec::encode_into).
    #[cfg(feature = "alloc")]
    fn encode(&self, values: &[Self::Value]) -> Vec<u8> {
        let mut out = Vec::new();
        self.encode_into(values, &mut out);
        out
    }

    /// Decodes `out.len()` values from the front of `input`; returns the bytes consumed
    /// (bytes after the stream are left alone).
    fn decode_to_slice(&self, input: &[u8], out: &mut [Self::Value]) -> Result<usize, DecodeError> {
        self.kernels().decode_to_slice(input, out)
    }

    /// Decodes `n` values from the front of `input` and appends them to `out`; returns the
    /// bytes consumed. Input too short to hold `n` values is refused before `out` grows.
    #[cfg(feature = "alloc")]
    fn decode_into(
        &self,
        input: &[u8],
        n: usize,
        out: &mut Vec<Self::Value>,
    ) -> Result<usize, DecodeError> {
        self.check_plausible(input, n)?;
        let mut consumed = 0;
        uninit::append_with(out, n, |spare| {
            consumed = (self.kernels().decode)(input, &mut spare[..n])?;
            Ok(n)
        })?;
        Ok(consumed)
    }

    /// Decodes exactly `n` values from `input`, which must hold nothing else
    /// ([`DecodeError::TrailingBytes`] otherwise).
    #[cfg(feature = "alloc")]
    fn decode(&self, input: &[u8], n: usize) -> Result<Vec<Self::Value>, DecodeError> {
        let mut out = Vec::new();
        let consumed = self.decode_into(input, n, &mut out)?;
        if consumed != input.len() {
            return Err(DecodeError::TrailingBytes {
                consumed,
                trailing: input.len() - consumed,
            });
        }
        Ok(out)
    }

    /// Refuses input shorter than the smallest encoding of `n` values.
    fn check_plausible(&self, input: &[u8], n: usize) -> Result<(), DecodeError> {
        let needed = self.control_len(n);
        if input.len() < needed {
            return Err(DecodeError::ControlTruncated {
                n,
                needed,
                available: input.len(),
            });
        }
        let min = self.min_encoded_len(n);
        if input.len() < min {
            return Err(DecodeError::TooShortForCount {
                n,
                min_len: min,
                available: input.len(),
            });
        }
        if n.checked_mul(core::mem::size_of::<Self::Value>())
            .is_none_or(|b| b > isize::MAX as usize)
        {
            return Err(DecodeError::CountTooLarge { n });
        }
        Ok(())
    }
}
