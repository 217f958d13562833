//! [`U32Delta`]: lemire/streamvbyte's `streamvbyte_delta_encode` / `_decode`, the wire of
//! sorted integer lists (posting lists, row ids): the wrapping differences
//! `v[i] - v[i-1]` (`v[-1]` is the caller's `prev`) packed as [`U32Classic`](super::U32Classic).
//! Both directions are fused: the decoder's unpack and prefix sum of each group of four run in
//! registers in one pass (the plain kernels with [`Delta`] after each group), and the
//! encoder's loads of four values are loads of their differences (the plain kernels with the
//! `Deltas` source).

use core::mem::MaybeUninit;

#[cfg(feature = "alloc")]
use alloc::vec::Vec;

use svb_dispatch::{per_isa, uninit, Isa};

use super::finish::{Delta, DeltaNonZero, ZeroCheck};
use super::mapped::IsaKernels;
use super::source::Deltas;
use super::U32Classic;
use crate::error::DecodeError;
use crate::Codec;
use crate::{DecodeResult, EncodeResult};
use svb_delta::increasing::strictly_increasing;

/// Encode kernel: `(prev, values, out) -> encoded length`.
type EncodeFn = unsafe fn(u32, &[u32], &mut [MaybeUninit<u8>]) -> EncodeResult;
/// Decode kernel: `(input, prev, out) -> (bytes consumed, last value)`.
type DecodeFn = unsafe fn(&[u8], u32, &mut [MaybeUninit<u32>]) -> DecodeResult<(usize, u32)>;
/// Decode kernel that also compares the deltas its block loops unpack with zero.
type DecodeNonZeroFn =
    unsafe fn(&[u8], u32, &mut [MaybeUninit<u32>]) -> Result<ZeroCheck, DecodeError>;

/// One ISA's [`U32Delta`] kernels. Obtain them with [`U32Delta::kernels_for`] (which checks
/// the CPU) to compare ISAs; `U32Delta`'s methods use the cached best choice.
///
/// A `&'static DeltaKernels` exists only for an ISA this CPU runs (the tables are private and
/// handed out through [`PerIsa`](svb_dispatch::PerIsa)), so its methods are safe.
pub struct DeltaKernels {
    isa: Isa,
    encode: EncodeFn,
    decode: DecodeFn,
    decode_nonzero: DecodeNonZeroFn,
}

debug_by_isa!(DeltaKernels);

/// The fused delta encode of ISA `K`: the plain loops, each load of four values a load of
/// their differences.
///
/// # Safety
/// The CPU must support `K`'s ISA.
unsafe fn encode<K: IsaKernels>(
    prev: u32, values: &[u32], out: &mut [MaybeUninit<u8>],
) -> EncodeResult {
    // SAFETY: the caller guarantees the ISA.
    unsafe { K::encode_source::<Deltas>(values, prev, out) }
}

/// The fused delta decode of ISA `K`.
///
/// # Safety
/// The CPU must support `K`'s ISA.
unsafe fn decode<K: IsaKernels>(
    input: &[u8], prev: u32, out: &mut [MaybeUninit<u32>],
) -> DecodeResult<(usize, u32)> {
    // SAFETY: the caller guarantees the ISA.
    unsafe { K::decode_finish::<Delta>(input, prev, out) }
}

/// The fused delta decode of ISA `K` whose block loops also compare each delta with zero.
///
/// # Safety
/// The CPU must support `K`'s ISA.
unsafe fn decode_nonzero<K: IsaKernels>(
    input: &[u8], prev: u32, out: &mut [MaybeUninit<u32>],
) -> Result<ZeroCheck, DecodeError> {
    // SAFETY: the caller guarantees the ISA.
    unsafe { K::decode_nonzero::<DeltaNonZero>(input, prev, out) }
}

macro_rules! delta_kernels {
    ($isa:expr, $k:ty) => {
        DeltaKernels {
            isa: $isa,
            encode: encode::<$k>,
            decode: decode::<$k>,
            decode_nonzero: decode_nonzero::<$k>,
        }
    };
}

per_isa! {
    static KERNELS: PerIsa<DeltaKernels> = {
        Scalar => delta_kernels!(Isa::Scalar, super::mapped::Scalar),
        #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
        Ssse3 => delta_kernels!(Isa::Ssse3, super::mapped::Ssse3),
        #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
        Avx2 => delta_kernels!(Isa::Avx2, super::mapped::Avx2),
        #[cfg(target_arch = "aarch64")]
        Neon => delta_kernels!(Isa::Neon, super::mapped::Neon),
    };
}

impl DeltaKernels {
    /// The instruction set these kernels use.
    pub fn isa(&self) -> Isa {
        self.isa
    }

    /// Encodes the deltas of `values` from `prev` into the front of `out` (which needs
    /// [`U32Delta::max_encoded_len`] bytes); returns the encoded length.
    pub fn encode_to_slice(&self, prev: u32, values: &[u32], out: &mut [u8]) -> EncodeResult {
        // SAFETY: the kernels write only initialised bytes; `self` is one of the private
        // tables above, handed out only for ISAs this CPU runs.
        unsafe { (self.encode)(prev, values, uninit::as_uninit_mut(out)) }
    }

    /// Decodes `out.len()` values from the front of `input`, the first delta taken from
    /// `prev`; returns the bytes consumed.
    pub fn decode_to_slice(&self, input: &[u8], prev: u32, out: &mut [u32]) -> DecodeResult {
        // SAFETY: the kernels write only initialised values.
        self.decode_uninit(input, prev, unsafe { uninit::as_uninit_mut(out) })
    }

    /// As [`decode_to_slice`](Self::decode_to_slice), for a list that must strictly
    /// increase: every value above the one before it, the first above `prev` (with `None`
    /// the first delta is taken from 0 and the first value may be anything, 0 included).
    /// [`DecodeError::NotIncreasing`] names the first value that is not; `out` then holds
    /// what was decoded.
    ///
    /// The check is fused: the SIMD block loops compare each delta with zero as they unpack
    /// it (so no second pass reads the values), and a list whose deltas all fit 3 bytes
    /// cannot wrap past `u32::MAX` inside 256 values, which a compare of every 256th value
    /// rules out. Values outside the block loops (a stream's last groups without 16 bytes
    /// after it, every value of the scalar kernel) and lists with 4-byte deltas are checked
    /// by [`svb_delta::increasing`]'s pass.
    #[inline(always)]
    pub fn decode_increasing_to_slice(
        &self, input: &[u8], prev: Option<u32>, out: &mut [u32],
    ) -> DecodeResult {
        // SAFETY: the kernels write only initialised values; `self` is one of the private
        // tables above, handed out only for ISAs this CPU runs.
        let found =
            unsafe { (self.decode_nonzero)(input, prev.unwrap_or(0), uninit::as_uninit_mut(out)) }?;
        check_increasing(&found, prev, out)
    }

    #[inline]
    fn decode_uninit(&self, input: &[u8], prev: u32, out: &mut [MaybeUninit<u32>]) -> DecodeResult {
        // SAFETY: `self` is one of the private tables above, handed out only for ISAs this
        // CPU runs.
        unsafe { (self.decode)(input, prev, out) }.map(|(used, _)| used)
    }
}

/// The bytes a [`DecodeNonZeroFn`]-style decode consumed (`found.used`) when `out`, which it
/// decoded, strictly increases from `prev` (the first value above it; anything with `None`),
/// else [`DecodeError::NotIncreasing`] naming the first value that does not: the values the
/// kernel's findings prove increasing are not looked at again, the rest go through
/// [`svb_delta::increasing`]'s pass.
#[inline(always)]
pub(crate) fn check_increasing(found: &ZeroCheck, prev: Option<u32>, out: &[u32]) -> DecodeResult {
    let proven = if proven_increasing(found, prev, out) { found.checked } else { 0 };
    if !increases_from(prev, out, proven) {
        if let Some(index) = first_not_increasing(prev, out) {
            return Err(DecodeError::NotIncreasing { index });
        }
    }
    Ok(found.used)
}

/// Whether the first `found.checked` values of `out`, whose deltas the kernel found
/// non-zero, strictly increase from `prev`, shown without a pass over them: `false` when that
/// cannot be shown (which is not a verdict). Those deltas wrap past `u32::MAX` only if one
/// takes 4 bytes (`found.long`) or a run of 256 of them ends at or below the value before it
/// (below 2^24 each, 256 sum below 2^32, so such a run wraps at most once and then ends below
/// its start).
#[inline]
fn proven_increasing(found: &ZeroCheck, prev: Option<u32>, out: &[u32]) -> bool {
    if found.zero || found.long {
        return false;
    }
    let checked = found.checked;
    // With no value before (`None`) the first delta is from 0, and was not zero.
    let start = prev.unwrap_or(0);
    (0..checked).step_by(256).all(|s| {
        let before = if s == 0 { start } else { out[s - 1] };
        out[(s + 256).min(checked) - 1] > before
    })
}

/// Whether `out` strictly increases from `prev` (see [`first_not_increasing`]) given that its
/// first `from` values do: [`svb_delta::increasing`]'s pass over the rest, from the last of
/// those on.
#[inline]
fn increases_from(prev: Option<u32>, out: &[u32], from: usize) -> bool {
    match from {
        0 => {
            let first_above = prev.zip(out.first()).is_none_or(|(p, &first)| first > p);
            first_above && strictly_increasing(out)
        }
        n if n == out.len() => true,
        n => strictly_increasing(&out[n - 1..]),
    }
}

/// Index of the first value of `out` that is not above the one before it (the first value:
/// not above `prev`, when there is one).
#[cold]
fn first_not_increasing(prev: Option<u32>, out: &[u32]) -> Option<usize> {
    if let (Some(p), Some(&first)) = (prev, out.first()) {
        if first <= p {
            return Some(0);
        }
    }
    out.windows(2).position(|w| w[1] <= w[0]).map(|i| i + 1)
}

/// Delta-coded StreamVByte of u32 (lemire/streamvbyte's `streamvbyte_delta_encode(in, n, out,
/// prev)` byte for byte): the wrapping differences of consecutive values, the first from the
/// caller's `prev`, packed as [`U32Classic`](super::U32Classic). Sorted lists (posting
/// lists, row ids) take one byte a value where the gaps are under 256.
///
/// Like every codec it stores neither the count nor `prev`: the container keeps both (a
/// block of a posting list takes `prev` from the last id of the block before it).
///
/// ```
/// use svb_core::U32Delta;
/// let ids: Vec<u32> = vec![1000, 1003, 1004, 1100, 70_000, 70_001];
/// let bytes = U32Delta.encode(999, &ids);
/// assert_eq!(bytes.len(), 2 + (1 + 1 + 1 + 1 + 3 + 1));
/// assert_eq!(U32Delta.decode(&bytes, ids.len(), 999)?, ids);
/// // Untrusted input: short or lying streams are errors, never panics.
/// assert!(U32Delta.decode(&bytes[..5], ids.len(), 999).is_err());
/// # Ok::<(), svb_core::DecodeError>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct U32Delta;

impl U32Delta {
    /// The kernels of `isa`, or `None` when this CPU (or build) cannot run them.
    pub fn kernels_for(&self, isa: Isa) -> Option<&'static DeltaKernels> {
        KERNELS.get(isa)
    }

    /// The kernels of the best ISA, chosen once and cached.
    #[inline]
    pub fn kernels(&self) -> &'static DeltaKernels {
        KERNELS.best()
    }

    /// Bytes of the control (key) stream for `n` values.
    pub fn control_len(&self, n: usize) -> usize {
        U32Classic.control_len(n)
    }

    /// Largest encoded length of `n` values (saturates at `usize::MAX`).
    pub fn max_encoded_len(&self, n: usize) -> usize {
        U32Classic.max_encoded_len(n)
    }

    /// Smallest encoded length of `n` values (one data byte each).
    pub fn min_encoded_len(&self, n: usize) -> usize {
        U32Classic.min_encoded_len(n)
    }

    /// Exact encoded length of `n` values, read from their control stream.
    pub fn encoded_len(&self, control: &[u8], n: usize) -> DecodeResult {
        U32Classic.encoded_len(control, n)
    }

    /// Encodes the deltas of `values` from `prev` into the front of `out` (which needs
    /// [`max_encoded_len`](Self::max_encoded_len) bytes); returns the encoded length.
    pub fn encode_to_slice(&self, prev: u32, values: &[u32], out: &mut [u8]) -> EncodeResult {
        self.kernels().encode_to_slice(prev, values, out)
    }

    /// Appends the encoding of `values` (deltas from `prev`) to `out`; returns the bytes
    /// appended.
    #[cfg(feature = "alloc")]
    pub fn encode_into(&self, prev: u32, values: &[u32], out: &mut Vec<u8>) -> usize {
        let k = self.kernels();
        let max = self.max_encoded_len(values.len());
        // SAFETY: the encode kernel writes every byte of the length it returns; `k` is a
        // private table handed out only for ISAs this CPU runs.
        let r = unsafe {
            uninit::append_with(out, max, |spare| (k.encode)(prev, values, &mut spare[..max]))
        };
        match r {
            Ok(len) => len,
            // The buffer holds the largest encoding and every u32 fits: unreachable.
            Err(e) => panic!("U32Delta: {e}"),
        }
    }

    /// The encoding of `values` (deltas from `prev`).
    #[cfg(feature = "alloc")]
    pub fn encode(&self, prev: u32, values: &[u32]) -> Vec<u8> {
        let mut out = Vec::new();
        self.encode_into(prev, values, &mut out);
        out
    }

    /// Decodes `out.len()` values from the front of `input`, the first delta taken from
    /// `prev`; returns the bytes consumed (bytes after the stream are left alone).
    pub fn decode_to_slice(&self, input: &[u8], prev: u32, out: &mut [u32]) -> DecodeResult {
        self.kernels().decode_to_slice(input, prev, out)
    }

    /// Decodes `out.len()` values of a list that must strictly increase: every value above
    /// the one before it, the first above `prev` (with `None` the first delta is taken from
    /// 0 and the first value may be 0). The check is fused into the decode (see
    /// [`DeltaKernels::decode_increasing_to_slice`]); a list that does not increase is
    /// [`DecodeError::NotIncreasing`], whose index names the first value out of order.
    ///
    /// ```
    /// use svb_core::{DecodeError, U32Delta};
    /// let ids = [3u32, 7, 8, 300, 70_000];
    /// let bytes = U32Delta.encode(0, &ids);
    /// let mut out = [0u32; 5];
    /// assert_eq!(U32Delta.decode_increasing_to_slice(&bytes, None, &mut out)?, bytes.len());
    /// assert_eq!(out, ids);
    /// // The same stream after a block that ended at 3: its first id repeats that 3.
    /// let err = U32Delta.decode_increasing_to_slice(&U32Delta.encode(3, &ids), Some(3), &mut out);
    /// assert_eq!(err, Err(DecodeError::NotIncreasing { index: 0 }));
    /// let dup = U32Delta.encode(0, &[3, 7, 7, 9]);
    /// let err = U32Delta.decode_increasing_to_slice(&dup, None, &mut out[..4]);
    /// assert_eq!(err, Err(DecodeError::NotIncreasing { index: 2 }));
    /// # Ok::<(), DecodeError>(())
    /// ```
    #[inline]
    pub fn decode_increasing_to_slice(
        &self, input: &[u8], prev: Option<u32>, out: &mut [u32],
    ) -> DecodeResult {
        self.kernels().decode_increasing_to_slice(input, prev, out)
    }

    /// Decodes `n` values (the first delta from `prev`) from the front of `input` and appends
    /// them to `out`; returns the bytes consumed. Input too short to hold `n` values is
    /// refused before `out` grows.
    #[cfg(feature = "alloc")]
    pub fn decode_into(
        &self, input: &[u8], n: usize, prev: u32, out: &mut Vec<u32>,
    ) -> DecodeResult {
        U32Classic.check_plausible(input, n)?;
        let k = self.kernels();
        let mut used = 0;
        // SAFETY: on `Ok` the decode kernel has written all `n` values it was given.
        unsafe {
            uninit::append_with(out, n, |spare| {
                used = k.decode_uninit(input, prev, &mut spare[..n])?;
                Ok(n)
            })?;
        }
        Ok(used)
    }

    /// Decodes exactly `n` values (the first delta from `prev`) from `input`, which must hold
    /// nothing else ([`DecodeError::TrailingBytes`] otherwise).
    #[cfg(feature = "alloc")]
    pub fn decode(&self, input: &[u8], n: usize, prev: u32) -> Result<Vec<u32>, DecodeError> {
        let mut out = Vec::new();
        let used = self.decode_into(input, n, prev, &mut out)?;
        if used != input.len() {
            return Err(DecodeError::TrailingBytes {
                consumed: used,
                trailing: input.len() - used,
            });
        }
        Ok(out)
    }
}
