//! StreamVByte-family integer codecs with runtime-dispatched SIMD kernels.
//!
//! | codec | values | control | wire-compatible with |
//! |---|---|---|---|
//! | [`U32Classic`] | u32 | 2 bits: 1,2,3,4 bytes | lemire/streamvbyte `streamvbyte_encode` |
//! | [`U32Variant0124`] | u32 | 2 bits: 0,1,2,4 bytes | `streamvbyte_encode_0124` |
//! | [`U32Delta`] | u32, deltas from `prev` | as `U32Classic` | `streamvbyte_delta_encode` |
//! | [`I32Zigzag`] | i32, zigzag-coded | as `U32Classic` | `zigzag_encode` + `streamvbyte_encode` |
//! | [`I16ZigzagDelta32`] | i16, zigzag of 32-bit deltas from `prev` | as `U32Classic` | slow5lib's SVB-ZD (BLOW5) |
//! | [`U64Coder1248`] | u64 | 2 bits: 1,2,4,8 bytes | `streamvbyte64::Coder1248` (as one buffer) |
//! | [`U64Coder1234`] | u64 < 2^32 | as `U32Classic` | `U32Classic`, widened |
//! | [`Svb16`] | u16 | 1 bit: 1,2 bytes | ONT's svb16 inside POD5 |
//! | [`I16ZigzagDelta`] | i16, zigzag deltas from `prev` | as `Svb16` | VBZ's integer stage (POD5) |
//!
//! Every codec writes one flat buffer, all control bytes then all data bytes, and does not
//! store the count. Each has scalar, SSSE3, AVX2 and NEON kernels; the best one this CPU can
//! run is chosen once ([`svb_dispatch::Isa::best`]) and cached. A caller decoding many small
//! u32 streams (a posting list's 128-value blocks) keeps a [`Decoder`], whose
//! [`decode_block`](Decoder::decode_block) calls its ISA's kernel compiled for the block size
//! (as do its offset and strictly-increasing entries).
//!
//! Decoders take untrusted input: any bytes with any `n` give `Ok` or a [`DecodeError`],
//! never a panic, never a read past the input slice (no padding is needed after it), and
//! the `Vec` forms allocate only once the input is long enough to hold `n` values.
//!
//! ```
//! use svb_core::{Codec, Svb16, U32Classic};
//! let ids: Vec<u32> = (0..1000).map(|i| i * 37).collect();
//! let bytes = U32Classic.encode(&ids);
//! assert_eq!(U32Classic.decode(&bytes, ids.len())?, ids);
//!
//! let samples = [512u16, 3, 70, 9000];
//! let mut out = [0u16; 4];
//! let used = Svb16.decode_to_slice(&Svb16.encode(&samples), &mut out)?;
//! assert_eq!((out, used), (samples, 1 + 2 + 1 + 1 + 2));
//! # Ok::<(), svb_core::DecodeError>(())
//! ```

#![cfg_attr(not(feature = "std"), no_std)]
// A soft-float x86-64 target (`x86_64-unknown-none`) gets no SIMD tables (svb_dispatch's
// `per_isa!`), so its x86 kernels are compiled out as unused.
#![cfg_attr(
    all(target_arch = "x86_64", not(target_feature = "sse2")),
    allow(dead_code, unused_imports)
)]

#[cfg(feature = "alloc")]
extern crate alloc;

/// `Debug` for a public kernel table: its type name and ISA (its function pointers say
/// nothing to a reader).
macro_rules! debug_by_isa {
    ($kernels:ident) => {
        impl core::fmt::Debug for $kernels {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.debug_struct(stringify!($kernels)).field("isa", &self.isa).finish_non_exhaustive()
            }
        }
    };
}

/// A codec's [`Codec`] implementation (and its seal): its name, its lengths (`$control_len`
/// control bytes for `n` values, each value `$min..=$max` data bytes, `$encoded_len` the
/// length a stream's control bytes give) and its kernels, `$kernels` (a
/// `PerIsa<Kernels<$value>>`, evaluated in the calling module).
macro_rules! codec_impl {
    (
        $name:ident: $value:ty, kernels $kernels:expr, control $control_len:path,
        bytes $min:literal..=$max:literal, $encoded_len:path $(,)?
    ) => {
        impl crate::codec::sealed::Sealed for $name {}

        impl Codec for $name {
            type Value = $value;

            fn name(&self) -> &'static str {
                stringify!($name)
            }
            fn control_len(&self, n: usize) -> usize {
                $control_len(n)
            }
            fn max_encoded_len(&self, n: usize) -> usize {
                $control_len(n).saturating_add(n.saturating_mul($max))
            }
            fn min_encoded_len(&self, n: usize) -> usize {
                $control_len(n).saturating_add(n.saturating_mul($min))
            }
            fn encoded_len(&self, control: &[u8], n: usize) -> $crate::DecodeResult {
                $encoded_len(control, n)
            }
            fn kernels_for(&self, isa: Isa) -> Option<&'static Kernels<$value>> {
                $kernels.get(isa)
            }
            #[inline]
            fn kernels(&self) -> &'static Kernels<$value> {
                $kernels.best()
            }
        }
    };
}

mod codec;
mod error;
mod group_encode;
pub mod stream32;
pub mod stream64;
pub mod svb16;
mod tables;
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
mod tail_window;

pub use codec::{Codec, Kernels};
pub use error::{DecodeError, DecodeResult, EncodeError, EncodeResult};
pub use stream32::{
    BlockCodec, Decoder, DeltaKernels, I16ZigzagDelta32, I32Zigzag, OffsetKernels, U32Classic,
    U32Delta, U32Variant0124, ZigzagDelta32Kernels,
};
pub use stream64::{U64Coder1234, U64Coder1248};
pub use svb16::{I16ZigzagDelta, Svb16, ZigzagDeltaKernels};

pub use svb_dispatch::Isa;
