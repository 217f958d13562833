//! [`Decoder`]: a u32 decoder whose kernels are chosen once, for callers that decode many
//! small streams (a posting list's 128-value blocks, a column's pages), and its fixed-size
//! block entry, [`Decoder::decode_block`], compiled for each block size.
//!
//! A codec's methods ([`Codec::decode_to_slice`](crate::Codec::decode_to_slice)) look up
//! the best kernels on every call and run a loop that knows nothing of the count; for
//! 128 values that is a tenth of the call. A `Decoder` holds its instruction set, checked
//! against this CPU when it is made, and `decode_block::<N>` calls that ISA's kernel built
//! for `N` values: a direct call (no table, no function pointer), with the block loop's
//! trip count and the control stream's length constants.

use core::marker::PhantomData;
use core::mem::MaybeUninit;

use svb_dispatch::{uninit, Isa};

use super::finish::{Delta, DeltaNonZero, Finish, Offset, Plain, ZeroCheck};
use super::{scalar, Classic, Scheme32, U32Classic, U32Delta, U32Variant0124};
use crate::error::DecodeError;
use crate::DecodeResult;

mod sealed {
    /// Implemented by the u32 wires a [`Decoder`](super::Decoder) decodes.
    pub trait Sealed {}
}

/// A u32 wire a [`Decoder`] decodes: [`U32Classic`], [`U32Variant0124`] and [`U32Delta`].
/// Sealed.
pub trait BlockCodec: sealed::Sealed + Copy {
    /// Decodes `N` values with `isa`'s kernel built for `N`, from the running value `acc`
    /// (the delta wire's `prev`; unused by the others); returns the bytes consumed.
    ///
    /// # Safety
    /// The CPU must run `isa`.
    #[doc(hidden)]
    unsafe fn decode_fixed<const N: usize>(
        isa: Isa, input: &[u8], acc: u32, out: &mut [u32; N],
    ) -> DecodeResult;
}

/// `N` values of wire `S` finished by `F`, with `isa`'s kernel, monomorphised for `N`.
///
/// # Safety
/// The CPU must run `isa`.
#[inline(always)]
unsafe fn dispatch<S: Scheme32, F: Finish<Out = u32>, const N: usize>(
    isa: Isa, input: &[u8], acc: u32, out: &mut [u32; N],
) -> DecodeResult {
    // SAFETY: the kernels write only initialised values.
    let out = unsafe { uninit::as_uninit_mut(&mut out[..]) };
    // SAFETY: the caller guarantees that this CPU runs `isa`.
    let done = unsafe {
        match isa {
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            Isa::Avx2 => fixed::avx2::<S, F, N>(input, acc, out),
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            Isa::Ssse3 => fixed::ssse3::<S, F, N>(input, acc, out),
            #[cfg(target_arch = "aarch64")]
            Isa::Neon => fixed::neon::<S, F, N>(input, acc, out),
            _ => scalar::decode_finish::<S, F>(input, acc, out),
        }
    };
    done.map(|(used, _)| used)
}

/// [`dispatch`] with a [`Finish::NONZERO`] step: what the kernel found of the deltas it
/// compared with zero ([`ZeroCheck`]).
///
/// # Safety
/// The CPU must run `isa`.
#[inline(always)]
unsafe fn dispatch_nonzero<const N: usize>(
    isa: Isa, input: &[u8], acc: u32, out: &mut [u32; N],
) -> Result<ZeroCheck, DecodeError> {
    // SAFETY: the kernels write only initialised values.
    let out = unsafe { uninit::as_uninit_mut(&mut out[..]) };
    // SAFETY: the caller guarantees that this CPU runs `isa`.
    unsafe {
        match isa {
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            Isa::Avx2 => fixed::avx2_nonzero::<N>(input, acc, out),
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            Isa::Ssse3 => fixed::ssse3_nonzero::<N>(input, acc, out),
            #[cfg(target_arch = "aarch64")]
            Isa::Neon => fixed::neon_nonzero::<N>(input, acc, out),
            _ => scalar::decode_nonzero::<Classic, DeltaNonZero>(input, acc, out),
        }
    }
}

/// Each SIMD ISA's decode, compiled with its features for one `N` (the block loop, the
/// control stream's split and the end of the stream inlined into it): `ISA` (any wire and
/// finish step) and `ISA_nonzero` (the delta wire that also looks for zero deltas).
mod fixed {
    use super::*;

    /// The two entries of one ISA: `$name` and `$nonzero`, compiled with `$feature`, calling
    /// the decode entries of the module `$kernels`.
    macro_rules! fixed_entries {
        ($cfg:meta, $feature:literal, $kernels:path, $name:ident, $nonzero:ident) => {
            /// # Safety
            #[doc = concat!("The CPU must support ", $feature, "; `out` holds `N` values.")]
            #[$cfg]
            #[target_feature(enable = $feature)]
            pub(super) unsafe fn $name<S: Scheme32, F: Finish<Out = u32>, const N: usize>(
                input: &[u8], acc: u32, out: &mut [MaybeUninit<u32>],
            ) -> DecodeResult<(usize, u32)> {
                use $kernels as k;
                debug_assert_eq!(out.len(), N);
                // SAFETY: the ISA (caller); `out[..N]` is `out` (caller), its length a
                // constant here.
                unsafe { k::decode_finish::<S, F>(input, acc, &mut out[..N]) }
            }

            /// # Safety
            #[doc = concat!("The CPU must support ", $feature, "; `out` holds `N` values.")]
            #[$cfg]
            #[target_feature(enable = $feature)]
            pub(super) unsafe fn $nonzero<const N: usize>(
                input: &[u8], acc: u32, out: &mut [MaybeUninit<u32>],
            ) -> Result<ZeroCheck, DecodeError> {
                use $kernels as k;
                debug_assert_eq!(out.len(), N);
                // SAFETY: as in the entry above.
                unsafe { k::decode_nonzero::<Classic, DeltaNonZero>(input, acc, &mut out[..N]) }
            }
        };
    }

    fixed_entries!(
        cfg(any(target_arch = "x86", target_arch = "x86_64")),
        "avx2",
        crate::stream32::x86::avx2,
        avx2,
        avx2_nonzero
    );
    fixed_entries!(
        cfg(any(target_arch = "x86", target_arch = "x86_64")),
        "ssse3",
        crate::stream32::x86::ssse3,
        ssse3,
        ssse3_nonzero
    );
    fixed_entries!(
        cfg(target_arch = "aarch64"),
        "neon",
        crate::stream32::aarch64::neon,
        neon,
        neon_nonzero
    );
}

macro_rules! block_codec {
    ($codec:ty, $scheme:ty, $finish:ty) => {
        impl sealed::Sealed for $codec {}

        impl BlockCodec for $codec {
            #[inline(always)]
            unsafe fn decode_fixed<const N: usize>(
                isa: Isa, input: &[u8], acc: u32, out: &mut [u32; N],
            ) -> DecodeResult {
                // SAFETY: the caller guarantees the ISA.
                unsafe { dispatch::<$scheme, $finish, N>(isa, input, acc, out) }
            }
        }
    };
}

block_codec!(U32Classic, Classic, Plain);
block_codec!(U32Variant0124, super::Variant0124, Plain);
block_codec!(U32Delta, Classic, Delta);

/// A decoder of one u32 wire with its kernels chosen once for this CPU: made once, it
/// decodes any number of streams with no lookup per call (memchr's `Finder` shape). Its
/// fixed-size entry, [`decode_block`](Decoder::decode_block), is compiled for each block
/// size it is called with.
///
/// Input is untrusted as everywhere in this crate: any bytes give `Ok` or a
/// [`DecodeError`](crate::DecodeError), and nothing is read outside the slice. No padding
/// is needed after a stream; where a caller has it (a posting list's next block, a buffer
/// with lemire's 16 bytes of `STREAMVBYTE_PADDING`), passing the slice with it lets every
/// group load straight from the data, as lemire's decoder does, and is still safe: the
/// padding is in the slice.
///
/// ```
/// use svb_core::{Codec, Decoder, U32Classic, U32Delta};
/// let values: [u32; 128] = core::array::from_fn(|i| (i as u32) * 1000);
/// let bytes = U32Classic.encode(&values);
/// let decoder = Decoder::new(U32Classic);
/// let mut out = [0u32; 128];
/// assert_eq!(decoder.decode_block(&bytes, &mut out)?, bytes.len());
/// assert_eq!(out, values);
///
/// // A sorted list's block, from the last value of the block before it.
/// let docs: [u32; 128] = core::array::from_fn(|i| 5000 + 3 * i as u32);
/// let bytes = U32Delta.encode(4990, &docs);
/// let delta = Decoder::new(U32Delta);
/// delta.decode_block_from(&bytes, 4990, &mut out)?;
/// assert_eq!(out, docs);
/// # Ok::<(), svb_core::DecodeError>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Decoder<C: BlockCodec> {
    /// Checked against this CPU when the decoder was made.
    isa: Isa,
    codec: PhantomData<C>,
}

impl<C: BlockCodec> Decoder<C> {
    /// The decoder with the best kernels this CPU runs.
    pub fn new(codec: C) -> Self {
        let _ = codec;
        Decoder { isa: Isa::best(), codec: PhantomData }
    }

    /// The decoder with `isa`'s kernels, or `None` when this CPU (or build) cannot run them.
    pub fn with_isa(codec: C, isa: Isa) -> Option<Self> {
        let _ = codec;
        isa.is_available().then_some(Decoder { isa, codec: PhantomData })
    }

    /// The instruction set its kernels use.
    pub fn isa(&self) -> Isa {
        self.isa
    }

    /// Decodes `N` values from the front of `input` into `out`; returns the bytes consumed
    /// (bytes after the stream are left alone). For [`U32Delta`] the values are the sums
    /// from `prev = 0` ([`decode_block_from`](Decoder::decode_block_from) takes another).
    #[inline]
    pub fn decode_block<const N: usize>(&self, input: &[u8], out: &mut [u32; N]) -> DecodeResult {
        // SAFETY: `isa` was checked against this CPU when `self` was made.
        unsafe { C::decode_fixed::<N>(self.isa, input, 0, out) }
    }
}

/// The plain wires' block entry with a base added to every value.
macro_rules! offset_block {
    ($codec:ty, $scheme:ty) => {
        impl Decoder<$codec> {
            /// Decodes `N` values from the front of `input`, each plus `base` (wrapping), in
            /// the same pass: a stream of values stored minus a base (counts stored minus
            /// one, a column's values minus its minimum); returns the bytes consumed.
            #[inline]
            pub fn decode_block_offset<const N: usize>(
                &self, input: &[u8], base: u32, out: &mut [u32; N],
            ) -> DecodeResult {
                // SAFETY: `isa` was checked against this CPU when `self` was made.
                unsafe { dispatch::<$scheme, Offset, N>(self.isa, input, base, out) }
            }
        }
    };
}

offset_block!(U32Classic, Classic);
offset_block!(U32Variant0124, super::Variant0124);

impl Decoder<U32Delta> {
    /// As [`decode_block_from`](Decoder::decode_block_from), for a list that must strictly
    /// increase: every value above the one before it, the first above `prev` (with `None`
    /// the first delta is taken from 0 and the first value may be anything, 0 included);
    /// [`DecodeError::NotIncreasing`] names the first value that is not (`out` then holds
    /// what was decoded). The check is fused into the decode as in
    /// [`DeltaKernels::decode_increasing_to_slice`](crate::DeltaKernels::decode_increasing_to_slice).
    ///
    /// ```
    /// use svb_core::{DecodeError, Decoder, U32Delta};
    /// let docs: [u32; 128] = core::array::from_fn(|i| 100 + 2 * i as u32);
    /// let bytes = U32Delta.encode(90, &docs);
    /// let decoder = Decoder::new(U32Delta);
    /// let mut out = [0u32; 128];
    /// assert_eq!(decoder.decode_increasing_block_from(&bytes, Some(90), &mut out)?, bytes.len());
    /// assert_eq!(out, docs);
    /// // A doc id twice: the second is named.
    /// let mut twice = docs;
    /// twice[6] = twice[5];
    /// let bytes = U32Delta.encode(90, &twice);
    /// let err = decoder.decode_increasing_block_from(&bytes, Some(90), &mut out);
    /// assert_eq!(err, Err(DecodeError::NotIncreasing { index: 6 }));
    /// # Ok::<(), svb_core::DecodeError>(())
    /// ```
    #[inline]
    pub fn decode_increasing_block_from<const N: usize>(
        &self, input: &[u8], prev: Option<u32>, out: &mut [u32; N],
    ) -> DecodeResult {
        // SAFETY: `isa` was checked against this CPU when `self` was made.
        let found = unsafe { dispatch_nonzero::<N>(self.isa, input, prev.unwrap_or(0), out) }?;
        super::delta::check_increasing(&found, prev, out)
    }

    /// Decodes `N` values of a delta stream from `prev` (the value before the first: the
    /// last value of the block before, 0 for a list's first block); returns the bytes
    /// consumed.
    #[inline]
    pub fn decode_block_from<const N: usize>(
        &self, input: &[u8], prev: u32, out: &mut [u32; N],
    ) -> DecodeResult {
        // SAFETY: `isa` was checked against this CPU when `self` was made.
        unsafe { U32Delta::decode_fixed::<N>(self.isa, input, prev, out) }
    }
}
