//! The u32 codecs of lemire/streamvbyte: [`U32Classic`] (codes 1,2,3,4 bytes) and
//! [`U32Variant0124`] (codes 0,1,2,4 bytes). Both share one set of kernels, specialised by a
//! `Scheme32` that supplies the tables.
//!
//! Wire: `(n+3)/4` control bytes (value `i`'s 2-bit code at byte `i/4`, bits `2*(i%4)`), then
//! the data bytes of each value, little-endian, in order.

#[cfg(target_arch = "aarch64")]
pub(crate) mod aarch64;
mod block;
mod delta;
pub(crate) mod finish;
mod mapped;
mod offset;
pub(crate) mod scalar;
pub(crate) mod source;
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
pub(crate) mod x86;
mod zigzag;
mod zigzag_delta16;

use svb_dispatch::{per_isa, Isa, PerIsa};

pub use block::{BlockCodec, Decoder};
pub use delta::{DeltaKernels, U32Delta};
pub use offset::OffsetKernels;
pub use zigzag::I32Zigzag;
pub use zigzag_delta16::{I16ZigzagDelta32, ZigzagDelta32Kernels};

use crate::codec::{Codec, Kernels};
use crate::tables::{self, Row16, LENS_0124, LENS_1234};
use crate::DecodeResult;

/// The tables and byte lengths that make one u32 wire.
pub(crate) trait Scheme32: 'static {
    /// Bytes of codes 0..=3.
    const LENS: [u8; 4];
    /// Data bytes of each control byte.
    const CTRL_LENS: &'static [u8; 256];
    /// Packed bytes -> four u32 lanes.
    const DECODE: &'static [Row16; 256];
    /// Four u32 lanes -> packed bytes.
    const ENCODE: &'static [Row16; 256];
    /// Zero-byte flags of two lanes -> `ctrl nibble | data bytes << 8`.
    #[cfg_attr(not(any(target_arch = "x86", target_arch = "x86_64")), allow(dead_code))]
    const ENCODE_PAIR: &'static [u16; 256];
    /// Thresholds: the code of `v` is how many of these `v` exceeds.
    const THRESHOLDS: [u32; 3];
    /// Code 0 is an empty value (zero), as in U32Variant0124; otherwise code 0 is one byte.
    const ZERO_IS_EMPTY: bool = Self::LENS[0] == 0;

    /// The 2-bit code of one value.
    #[inline(always)]
    fn code(v: u32) -> u8 {
        (v > Self::THRESHOLDS[0]) as u8
            + (v > Self::THRESHOLDS[1]) as u8
            + (v > Self::THRESHOLDS[2]) as u8
    }

    /// Per-byte data lengths of the 8 control bytes packed in `cw` (byte `k` of the result is
    /// the data length of byte `k` of `cw`).
    fn lens8(cw: u64) -> u64;
}

const M2: u64 = 0x3333_3333_3333_3333;
const M4: u64 = 0x0F0F_0F0F_0F0F_0F0F;

/// Per-byte sum of the four 2-bit fields of each byte.
#[inline(always)]
fn field_sums(x: u64) -> u64 {
    let s = (x & M2) + ((x >> 2) & M2);
    (s & M4) + ((s >> 4) & M4)
}

/// Scheme of [`U32Classic`].
pub(crate) struct Classic;
/// Scheme of [`U32Variant0124`].
pub(crate) struct Variant0124;

static CLASSIC_CTRL_LENS: [u8; 256] = tables::data_lens(&LENS_1234);
static CLASSIC_DECODE: [Row16; 256] = tables::rows16(tables::decode_shuffle(&LENS_1234));
static CLASSIC_ENCODE: [Row16; 256] = tables::rows16(tables::encode_shuffle(&LENS_1234));
#[cfg_attr(not(any(target_arch = "x86", target_arch = "x86_64")), allow(dead_code))]
static CLASSIC_PAIR: [u16; 256] = tables::encode_pair_32(LENS_1234);
static V0124_CTRL_LENS: [u8; 256] = tables::data_lens(&LENS_0124);
static V0124_DECODE: [Row16; 256] = tables::rows16(tables::decode_shuffle(&LENS_0124));
static V0124_ENCODE: [Row16; 256] = tables::rows16(tables::encode_shuffle(&LENS_0124));
#[cfg_attr(not(any(target_arch = "x86", target_arch = "x86_64")), allow(dead_code))]
static V0124_PAIR: [u16; 256] = tables::encode_pair_32(LENS_0124);

impl Scheme32 for Classic {
    const LENS: [u8; 4] = LENS_1234;
    const CTRL_LENS: &'static [u8; 256] = &CLASSIC_CTRL_LENS;
    const DECODE: &'static [Row16; 256] = &CLASSIC_DECODE;
    const ENCODE: &'static [Row16; 256] = &CLASSIC_ENCODE;
    const ENCODE_PAIR: &'static [u16; 256] = &CLASSIC_PAIR;
    const THRESHOLDS: [u32; 3] = [0xFF, 0xFFFF, 0xFF_FFFF];

    #[inline(always)]
    fn lens8(cw: u64) -> u64 {
        field_sums(cw) + 0x0404_0404_0404_0404
    }
}

impl Scheme32 for Variant0124 {
    const LENS: [u8; 4] = LENS_0124;
    const CTRL_LENS: &'static [u8; 256] = &V0124_CTRL_LENS;
    const DECODE: &'static [Row16; 256] = &V0124_DECODE;
    const ENCODE: &'static [Row16; 256] = &V0124_ENCODE;
    const ENCODE_PAIR: &'static [u16; 256] = &V0124_PAIR;
    const THRESHOLDS: [u32; 3] = [0, 0xFF, 0xFFFF];

    #[inline(always)]
    fn lens8(cw: u64) -> u64 {
        // Code c is c bytes, except code 3 which is 4: add one for every field equal to 3.
        let threes = cw & (cw >> 1) & 0x5555_5555_5555_5555;
        field_sums(cw) + field_sums(threes)
    }
}

/// Control bytes of `n` values, 4 per byte.
#[inline]
pub(crate) const fn control_len(n: usize) -> usize {
    n.div_ceil(4)
}

/// Exact encoded length of `n` values from their control bytes.
pub(crate) fn encoded_len<S: Scheme32>(control: &[u8], n: usize) -> DecodeResult {
    let (ctrl, _) = crate::codec::split_control_stream(control, n, control_len(n))?;
    let needed = ctrl.len();
    let full = n / 4;
    let mut data = 0usize;
    let mut chunks = ctrl[..full].chunks_exact(8);
    for c in &mut chunks {
        let lens = S::lens8(u64::from_le_bytes(c.try_into().unwrap_or([0; 8])));
        // Sum the 8 byte lengths (each at most 16).
        data += (lens.wrapping_mul(0x0101_0101_0101_0101) >> 56) as usize;
    }
    for &c in chunks.remainder() {
        data += S::CTRL_LENS[c as usize] as usize;
    }
    if full < needed {
        let c = ctrl[full];
        for k in 0..n % 4 {
            data += S::LENS[(c >> (2 * k)) as usize & 3] as usize;
        }
    }
    Ok(needed + data)
}

macro_rules! u32_codec {
    ($(#[$doc:meta])* $name:ident, $scheme:ty, $min_bytes:literal) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub struct $name;

        impl $name {
            fn per_isa() -> &'static PerIsa<Kernels<u32>> {
                per_isa! {
                    static KERNELS: PerIsa<Kernels<u32>> = {
                        Scalar => Kernels::new(
                            Isa::Scalar,
                            scalar::encode::<$scheme>,
                            scalar::decode::<$scheme>,
                        ),
                        #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
                        Ssse3 => Kernels::new(
                            Isa::Ssse3,
                            x86::ssse3::encode::<$scheme>,
                            x86::ssse3::decode::<$scheme>,
                        ),
                        #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
                        Avx2 => Kernels::new(
                            Isa::Avx2,
                            x86::avx2::encode::<$scheme>,
                            x86::avx2::decode::<$scheme>,
                        ),
                        #[cfg(target_arch = "aarch64")]
                        Neon => Kernels::new(
                            Isa::Neon,
                            aarch64::neon::encode::<$scheme>,
                            aarch64::neon::decode::<$scheme>,
                        ),
                    };
                }
                &KERNELS
            }

            fn offset_per_isa() -> &'static PerIsa<OffsetKernels> {
                use finish::Offset;
                per_isa! {
                    static KERNELS: PerIsa<OffsetKernels> = {
                        Scalar => OffsetKernels {
                            isa: Isa::Scalar,
                            decode: scalar::decode_finish::<$scheme, Offset>,
                        },
                        #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
                        Ssse3 => OffsetKernels {
                            isa: Isa::Ssse3,
                            decode: x86::ssse3::decode_finish::<$scheme, Offset>,
                        },
                        #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
                        Avx2 => OffsetKernels {
                            isa: Isa::Avx2,
                            decode: x86::avx2::decode_finish::<$scheme, Offset>,
                        },
                        #[cfg(target_arch = "aarch64")]
                        Neon => OffsetKernels {
                            isa: Isa::Neon,
                            decode: aarch64::neon::decode_finish::<$scheme, Offset>,
                        },
                    };
                }
                &KERNELS
            }

            /// The offset decoder of `isa`, or `None` when this CPU (or build) cannot run it.
            pub fn offset_kernels_for(&self, isa: Isa) -> Option<&'static OffsetKernels> {
                Self::offset_per_isa().get(isa)
            }

            /// The offset decoder of the best ISA, chosen once and cached.
            #[inline]
            pub fn offset_kernels(&self) -> &'static OffsetKernels {
                Self::offset_per_isa().best()
            }

            /// Decodes `out.len()` values from the front of `input`, each plus `base`
            /// (wrapping), in the same pass as the unpack: frame-of-reference streams (values
            /// stored minus a base) and counts stored minus one. Returns the bytes consumed;
            /// the checks are [`decode_to_slice`](Codec::decode_to_slice)'s.
            #[inline]
            pub fn decode_offset_to_slice(
                &self,
                input: &[u8],
                base: u32,
                out: &mut [u32],
            ) -> $crate::DecodeResult {
                self.offset_kernels().decode_to_slice(input, base, out)
            }
        }

        codec_impl!(
            $name: u32,
            kernels $name::per_isa(),
            control control_len,
            bytes $min_bytes..=4,
            encoded_len::<$scheme>,
        );
    };
}

u32_codec!(
    /// lemire/streamvbyte's classic wire (`streamvbyte_encode`): codes of 1, 2, 3, 4 bytes.
    ///
    /// ```
    /// use svb_core::{Codec, U32Classic};
    /// let v: Vec<u32> = (0..8).map(|i| i * 100).collect();
    /// let bytes = U32Classic.encode(&v);
    /// // The example of the reference README.
    /// assert_eq!(bytes, [0x40, 0x55, 0x00, 0x64, 0xc8, 0x2c, 0x01, 0x90, 0x01, 0xf4, 0x01, 0x58, 0x02, 0xbc, 0x02]);
    /// assert_eq!(U32Classic.decode(&bytes, 8).unwrap(), v);
    /// ```
    U32Classic,
    Classic,
    1
);

u32_codec!(
    /// lemire/streamvbyte's `streamvbyte_encode_0124` wire: codes of 0, 1, 2, 4 bytes (a zero
    /// value takes no data byte).
    ///
    /// ```
    /// use svb_core::{Codec, U32Variant0124};
    /// let v = [0u32, 0, 0, 0, 1, 70000];
    /// let bytes = U32Variant0124.encode(&v);
    /// assert_eq!(bytes.len(), 2 + 1 + 4);
    /// assert_eq!(U32Variant0124.decode(&bytes, v.len()).unwrap(), v);
    /// ```
    U32Variant0124,
    Variant0124,
    0
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lens8_matches_table() {
        svb_testdata::assert_bytewise(Classic::lens8, &CLASSIC_CTRL_LENS);
        svb_testdata::assert_bytewise(Variant0124::lens8, &V0124_CTRL_LENS);
    }

    #[test]
    fn code_matches_lengths() {
        let classic = [(0, 0), (255, 0), (256, 1), (65535, 1), (65536, 2), (0xFF_FFFF, 2)];
        for (v, c) in classic.into_iter().chain([(0x100_0000, 3), (u32::MAX, 3)]) {
            assert_eq!(Classic::code(v), c, "{v}");
        }
        let v0124 = [(0, 0), (1, 1), (255, 1), (256, 2), (65535, 2), (65536, 3), (u32::MAX, 3)];
        for (v, c) in v0124 {
            assert_eq!(Variant0124::code(v), c, "{v}");
        }
    }
}
