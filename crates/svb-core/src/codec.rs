//! The [`Codec`] trait shared by every codec, and the kernel table type.

use core::mem::MaybeUninit;

#[cfg(feature = "alloc")]
use alloc::vec::Vec;

use svb_dispatch::Isa;

use svb_dispatch::uninit;
#[cfg(doc)]
use svb_dispatch::PerIsa;

use crate::error::DecodeError;
use crate::{DecodeResult, EncodeResult};

/// Extra capacity reserved past what a kernel needs, so SIMD stores near the end of a
/// `Vec` still take the fast path.
#[cfg(feature = "alloc")]
const SLACK: usize = 64;

/// Encode kernel: writes the whole stream (control, then data) to the front of `out` and
/// returns its length. Fails with [`EncodeError::OutputTooSmall`] when `out` is shorter than
/// `max_encoded_len(n)`, and with [`EncodeError::ValueTooLarge`] for out-of-range values.
/// Writes only initialised bytes.
///
/// Safety: the CPU must support the ISA of the table that holds the kernel.
pub(crate) type EncodeFn<T> = unsafe fn(&[T], &mut [MaybeUninit<u8>]) -> EncodeResult;
/// Decode kernel: decodes `out.len()` values from the front of `input` and returns the
/// bytes consumed. On `Ok` every element of `out` is written (and only initialised values
/// are ever written). Any `input` is safe: it is never read past its end and needs no padding.
///
/// Safety: the CPU must support the ISA of the table that holds the kernel.
pub(crate) type DecodeFn<T> = unsafe fn(&[u8], &mut [MaybeUninit<T>]) -> DecodeResult;

/// Splits `input` into the first `needed` bytes (the control stream of `n` values) and the
/// rest, or reports the control stream truncated. Shared by every codec family.
#[inline]
pub(crate) fn split_control_stream(
    input: &[u8], n: usize, needed: usize,
) -> Result<(&[u8], &[u8]), DecodeError> {
    if input.len() < needed {
        return Err(DecodeError::ControlTruncated { n, needed, available: input.len() });
    }
    Ok(input.split_at(needed))
}

/// One ISA's kernels of one codec. Obtain them with [`Codec::kernels_for`] (which checks
/// the CPU) to compare ISAs, or let [`Codec`]'s methods use the cached best choice.
///
/// A `&'static Kernels` exists only for an ISA this CPU runs: the tables are private to this
/// crate and handed out only through [`svb_dispatch::PerIsa`], so their methods are safe.
pub struct Kernels<T: 'static> {
    isa: Isa,
    encode: EncodeFn<T>,
    decode: DecodeFn<T>,
}

impl<T: 'static> core::fmt::Debug for Kernels<T> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Kernels").field("isa", &self.isa).finish_non_exhaustive()
    }
}

impl<T: Copy + 'static> Kernels<T> {
    /// A table of `isa`'s kernels. Only ever stored in a private `static` that a
    /// [`PerIsa`] hands out, never given to a caller directly.
    pub(crate) const fn new(isa: Isa, encode: EncodeFn<T>, decode: DecodeFn<T>) -> Self {
        Kernels { isa, encode, decode }
    }

    /// The instruction set these kernels use.
    pub fn isa(&self) -> Isa {
        self.isa
    }

    /// Encodes with these kernels into the front of `out` (`max_encoded_len(n)` bytes).
    pub fn encode_to_slice(&self, values: &[T], out: &mut [u8]) -> EncodeResult {
        // SAFETY: the kernels write only initialised bytes.
        self.encode_uninit(values, unsafe { uninit::as_uninit_mut(out) })
    }

    /// Decodes `out.len()` values with these kernels; returns the bytes consumed.
    pub fn decode_to_slice(&self, input: &[u8], out: &mut [T]) -> DecodeResult {
        // SAFETY: the kernels write only initialised values.
        self.decode_uninit(input, unsafe { uninit::as_uninit_mut(out) })
    }

    #[inline]
    pub(crate) fn encode_uninit(&self, values: &[T], out: &mut [MaybeUninit<u8>]) -> EncodeResult {
        // SAFETY: `self` is one of this crate's private tables, handed out by `PerIsa` only
        // when this CPU runs its ISA.
        unsafe { (self.encode)(values, out) }
    }

    #[inline]
    pub(crate) fn decode_uninit(&self, input: &[u8], out: &mut [MaybeUninit<T>]) -> DecodeResult {
        // SAFETY: as in `encode_uninit`.
        unsafe { (self.decode)(input, out) }
    }
}

pub(crate) mod sealed {
    /// Implemented by this crate's codecs only: `Codec`'s provided methods trust the kernels
    /// a codec returns to initialise what they report.
    pub trait Sealed {}
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
///
/// The trait is sealed: its provided methods trust the kernels a codec returns to initialise
/// every value they report, so only this crate's codecs implement it.
///
/// ```compile_fail,E0277
/// use svb_core::Codec;
/// struct Mine;
/// impl Codec for Mine {
///     type Value = u64;
///     fn name(&self) -> &'static str { "mine" }
///     fn control_len(&self, n: usize) -> usize { n }
///     fn max_encoded_len(&self, n: usize) -> usize { n }
///     fn min_encoded_len(&self, n: usize) -> usize { n }
///     fn encoded_len(&self, _: &[u8], n: usize) -> Result<usize, svb_core::DecodeError> { Ok(n) }
///     fn kernels_for(&self, _: svb_core::Isa) -> Option<&'static svb_core::Kernels<u64>> { None }
///     fn kernels(&self) -> &'static svb_core::Kernels<u64> { unimplemented!() }
/// }
/// ```
pub trait Codec: sealed::Sealed {
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
    fn encoded_len(&self, control: &[u8], n: usize) -> DecodeResult;
    /// The kernels of `isa`, or `None` when this CPU (or build) cannot run them.
    fn kernels_for(&self, isa: Isa) -> Option<&'static Kernels<Self::Value>>;
    /// The kernels of the best ISA, chosen once and cached.
    fn kernels(&self) -> &'static Kernels<Self::Value>;

    /// Encodes into the front of `out` (which needs `max_encoded_len(n)` bytes); returns the
    /// encoded length.
    fn encode_to_slice(&self, values: &[Self::Value], out: &mut [u8]) -> EncodeResult {
        self.kernels().encode_to_slice(values, out)
    }

    /// Appends the encoding of `values` to `out`, or fails (only `U64Coder1234` can: values of
    /// 2^32 or more). Nothing is appended on failure.
    #[cfg(feature = "alloc")]
    fn try_encode_into(&self, values: &[Self::Value], out: &mut Vec<u8>) -> EncodeResult {
        let max = self.max_encoded_len(values.len());
        let k = self.kernels();
        // SAFETY: the encode kernel writes every byte of the length it returns.
        unsafe {
            uninit::append_with(out, max.saturating_add(SLACK), |s| k.encode_uninit(values, s))
        }
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
    fn decode_to_slice(&self, input: &[u8], out: &mut [Self::Value]) -> DecodeResult {
        self.kernels().decode_to_slice(input, out)
    }

    /// Decodes `n` values from the front of `input` and appends them to `out`; returns the
    /// bytes consumed. Input too short to hold `n` values is refused before `out` grows.
    #[cfg(feature = "alloc")]
    fn decode_into(&self, input: &[u8], n: usize, out: &mut Vec<Self::Value>) -> DecodeResult {
        self.check_plausible(input, n)?;
        let mut consumed = 0;
        let k = self.kernels();
        // SAFETY: on `Ok` the decode kernel has written all `n` values it was given.
        unsafe {
            uninit::append_with(out, n.saturating_add(SLACK), |spare| {
                consumed = k.decode_uninit(input, &mut spare[..n])?;
                Ok(n)
            })?;
        }
        Ok(consumed)
    }

    /// Decodes exactly `n` values from `input`, which must hold nothing else
    /// ([`DecodeError::TrailingBytes`] otherwise).
    #[cfg(feature = "alloc")]
    fn decode(&self, input: &[u8], n: usize) -> Result<Vec<Self::Value>, DecodeError> {
        let mut out = Vec::new();
        let consumed = self.decode_into(input, n, &mut out)?;
        if consumed != input.len() {
            return Err(DecodeError::TrailingBytes { consumed, trailing: input.len() - consumed });
        }
        Ok(out)
    }

    /// Refuses input shorter than the smallest encoding of `n` values.
    fn check_plausible(&self, input: &[u8], n: usize) -> Result<(), DecodeError> {
        split_control_stream(input, n, self.control_len(n))?;
        let min = self.min_encoded_len(n);
        if input.len() < min {
            return Err(DecodeError::TooShortForCount { n, min_len: min, available: input.len() });
        }
        if n.checked_mul(core::mem::size_of::<Self::Value>())
            .is_none_or(|b| b > isize::MAX as usize)
        {
            return Err(DecodeError::CountTooLarge { n });
        }
        Ok(())
    }
}
