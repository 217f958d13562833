//! The u64 codecs: [`U64Coder1248`] (codes of 1, 2, 4, 8 bytes; the wire of
//! `streamvbyte64::Coder1248` with control and data in one buffer) and [`U64Coder1234`]
//! (u64 values below 2^32 on the `U32Classic` wire).
//!
//! Wire: `(n+3)/4` control bytes (2 bits per value, LSB first), then the data bytes.

#[cfg(target_arch = "aarch64")]
pub(crate) mod aarch64;
#[cfg(any(target_arch = "x86", target_arch = "x86_64", target_arch = "aarch64"))]
pub(crate) mod groups;
pub(crate) mod scalar;
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
pub(crate) mod x86;

use svb_dispatch::{per_isa, Isa, PerIsa};

use crate::codec::{Codec, Kernels};
use crate::stream32::{self, Classic, Scheme32};
use crate::tables::{self, Row16, Row32, LENS_1234, LENS_1248};
use crate::DecodeResult;

/// The byte lengths and code choice of one u64 wire.
pub(crate) trait Scheme64: 'static {
    /// Bytes of codes 0..=3.
    const LENS: [u8; 4];
    /// Largest value the wire holds.
    const MAX: u64;
    /// The 2-bit code of one value (`v <= MAX`).
    fn code(v: u64) -> u8;
}

/// Scheme of [`U64Coder1248`].
pub(crate) struct S1248;
/// Scheme of [`U64Coder1234`].
pub(crate) struct S1234;

impl Scheme64 for S1248 {
    const LENS: [u8; 4] = LENS_1248;
    const MAX: u64 = u64::MAX;
    #[inline(always)]
    fn code(v: u64) -> u8 {
        (v > 0xFF) as u8 + (v > 0xFFFF) as u8 + (v > 0xFFFF_FFFF) as u8
    }
}

impl Scheme64 for S1234 {
    const LENS: [u8; 4] = LENS_1234;
    const MAX: u64 = u32::MAX as u64;
    #[inline(always)]
    fn code(v: u64) -> u8 {
        Classic::code(v as u32)
    }
}

/// U64Coder1248: 8 zero-byte flags of one lane -> its code.
#[cfg_attr(not(any(target_arch = "x86", target_arch = "x86_64")), allow(dead_code))]
pub(crate) static CODE_1248: [u8; 256] = tables::encode_code_64(LENS_1248);
/// U64Coder1248: data bytes of the two values of a control nibble.
pub(crate) static NIBBLE_LENS_1248: [u8; 16] = tables::data_lens(&LENS_1248);
/// U64Coder1248: packed bytes of a control nibble -> two u64 lanes.
pub(crate) static DECODE_1248: [Row16; 16] = tables::rows16(tables::decode_shuffle(&LENS_1248));
/// U64Coder1248: two u64 lanes -> packed bytes of a control nibble.
pub(crate) static ENCODE_1248: [Row16; 16] = tables::rows16(tables::encode_shuffle(&LENS_1248));
/// U64Coder1234: packed bytes of a control byte -> four u64 lanes (32 bytes).
pub(crate) static DECODE_1234: [Row32; 256] = tables::rows32(tables::decode_shuffle(&LENS_1234));

/// Data bytes of a control byte of U64Coder1248.
#[inline(always)]
pub(crate) fn ctrl_len_1248(c: u8) -> usize {
    NIBBLE_LENS_1248[(c & 0xF) as usize] as usize + NIBBLE_LENS_1248[(c >> 4) as usize] as usize
}

/// A u64 codec: its [`Codec`] implementation and its kernels per ISA. `$max` is the largest
/// value's byte count, `$encoded_len` the function that sums a stream's lengths.
macro_rules! kernels_of {
    ($name:ident, $scheme:ty, $group:ident, $max:literal, $encoded_len:path) => {
        codec_impl!(
            $name: u64,
            kernels $name::per_isa(),
            control stream32::control_len,
            bytes 1..=$max,
            $encoded_len,
        );

        impl $name {
            fn per_isa() -> &'static PerIsa<Kernels<u64>> {
                per_isa! {
                    static KERNELS: PerIsa<Kernels<u64>> = {
                        Scalar => Kernels::new(
                            Isa::Scalar,
                            scalar::encode::<$scheme>,
                            scalar::decode::<$scheme>,
                        ),
                        #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
                        Ssse3 => {
                            use x86::ssse3 as k;
                            Kernels::new(
                                Isa::Ssse3,
                                k::encode::<k::$group::Group>,
                                k::decode::<k::$group::Group>,
                            )
                        },
                        #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
                        Avx2 => {
                            use x86::avx2 as k;
                            Kernels::new(Isa::Avx2, k::$group::encode, k::decode::<k::$group::Group>)
                        },
                        #[cfg(target_arch = "aarch64")]
                        Neon => {
                            use aarch64::neon as k;
                            Kernels::new(
                                Isa::Neon,
                                k::encode::<k::$group::Group>,
                                k::decode::<k::$group::Group>,
                            )
                        },
                    };
                }
                &KERNELS
            }
        }

    };
}

/// u64 values in 1, 2, 4 or 8 bytes.
///
/// ```
/// use svb_core::{Codec, U64Coder1248};
/// let v = [1u64, 300, 70_000, 1 << 40, u64::MAX];
/// let bytes = U64Coder1248.encode(&v);
/// assert_eq!(bytes.len(), 2 + 1 + 2 + 4 + 8 + 8);
/// assert_eq!(U64Coder1248.decode(&bytes, v.len()).unwrap(), v);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct U64Coder1248;

/// u64 values below 2^32 on the [`U32Classic`](crate::U32Classic) wire (1, 2, 3 or 4 bytes),
/// decoded straight into u64. Encoding a value of 2^32 or more is an error
/// ([`Codec::try_encode_into`]) or a panic ([`Codec::encode`]).
///
/// ```
/// use svb_core::{Codec, U32Classic, U64Coder1234};
/// let v = [7u64, 1 << 20, u32::MAX as u64];
/// let bytes = U64Coder1234.encode(&v);
/// assert_eq!(bytes, U32Classic.encode(&[7, 1 << 20, u32::MAX]));
/// assert_eq!(U64Coder1234.decode(&bytes, 3).unwrap(), v);
/// assert!(U64Coder1234.try_encode_into(&[1 << 32], &mut Vec::new()).is_err());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct U64Coder1234;

kernels_of!(U64Coder1248, S1248, c1248, 8, encoded_len_1248);
kernels_of!(U64Coder1234, S1234, c1234, 4, stream32::encoded_len::<Classic>);

/// The encoded length of `n` U64Coder1248 values whose control bytes start `control`.
fn encoded_len_1248(control: &[u8], n: usize) -> DecodeResult {
    let (ctrl, _) = crate::codec::split_control_stream(control, n, stream32::control_len(n))?;
    let needed = ctrl.len();
    let mut data: usize = ctrl[..n / 4].iter().map(|&c| ctrl_len_1248(c)).sum();
    if !n.is_multiple_of(4) {
        let c = ctrl[n / 4];
        data += (0..n % 4).map(|k| LENS_1248[(c >> (2 * k)) as usize & 3] as usize).sum::<usize>();
    }
    Ok(needed + data)
}
