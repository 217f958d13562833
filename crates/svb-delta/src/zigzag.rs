//! Zigzag: signed integers to unsigned so that small magnitudes get small codes
//! (`0, -1, 1, -2, ...` -> `0, 1, 2, 3, ...`): `(v << 1) ^ (v >> (bits - 1))`, decoded by
//! `(u >> 1) ^ -(u & 1)`. Plain loops that LLVM vectorises for every target.

#[cfg(feature = "alloc")]
use alloc::vec::Vec;

/// A signed integer with a zigzag code.
pub trait Zigzag: Copy {
    /// The unsigned type of the codes.
    type Unsigned: Copy;
    /// The code of one value.
    fn zigzag(self) -> Self::Unsigned;
    /// The value of one code.
    fn unzigzag(code: Self::Unsigned) -> Self;
}

macro_rules! zigzag_impl {
    ($($s:ty => $u:ty),*) => {$(
        impl Zigzag for $s {
            type Unsigned = $u;
            #[inline(always)]
            fn zigzag(self) -> $u {
                ((self as $u) << 1) ^ ((self >> (<$s>::BITS - 1)) as $u)
            }
            #[inline(always)]
            fn unzigzag(code: $u) -> $s {
                ((code >> 1) as $s) ^ (-((code & 1) as $s))
            }
        }
    )*};
}
zigzag_impl!(i8 => u8, i16 => u16, i32 => u32, i64 => u64);

/// Zigzag codes of `values`, written to `out` (which must have the same length).
///
/// # Panics
/// When `out.len() != values.len()`.
pub fn encode_to_slice<T: Zigzag>(values: &[T], out: &mut [T::Unsigned]) {
    assert_eq!(values.len(), out.len(), "zigzag::encode_to_slice: length mismatch");
    for (o, &v) in out.iter_mut().zip(values) {
        *o = v.zigzag();
    }
}

/// Values of the zigzag `codes`, written to `out` (which must have the same length).
///
/// # Panics
/// When `out.len() != codes.len()`.
pub fn decode_to_slice<T: Zigzag>(codes: &[T::Unsigned], out: &mut [T]) {
    assert_eq!(codes.len(), out.len(), "zigzag::decode_to_slice: length mismatch");
    for (o, &c) in out.iter_mut().zip(codes) {
        *o = T::unzigzag(c);
    }
}

/// Appends the zigzag codes of `values` to `out`.
#[cfg(feature = "alloc")]
pub fn encode_into<T: Zigzag>(values: &[T], out: &mut Vec<T::Unsigned>) {
    out.extend(values.iter().map(|&v| v.zigzag()));
}

/// Appends the values of the zigzag `codes` to `out`.
#[cfg(feature = "alloc")]
pub fn decode_into<T: Zigzag>(codes: &[T::Unsigned], out: &mut Vec<T>) {
    out.extend(codes.iter().map(|&c| T::unzigzag(c)));
}

/// The zigzag codes of `values`.
///
/// ```
/// assert_eq!(svb_delta::zigzag::encode(&[0i32, -1, 1, -2, i32::MIN]), [0u32, 1, 2, 3, u32::MAX]);
/// ```
#[cfg(feature = "alloc")]
pub fn encode<T: Zigzag>(values: &[T]) -> Vec<T::Unsigned> {
    let mut out = Vec::with_capacity(values.len());
    encode_into(values, &mut out);
    out
}

/// The values of the zigzag `codes`.
///
/// ```
/// assert_eq!(svb_delta::zigzag::decode::<i16>(&[0, 1, 2, 3, u16::MAX]), [0i16, -1, 1, -2, i16::MIN]);
/// ```
#[cfg(feature = "alloc")]
pub fn decode<T: Zigzag>(codes: &[T::Unsigned]) -> Vec<T> {
    let mut out = Vec::with_capacity(codes.len());
    decode_into(codes, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extremes_round_trip() {
        for v in [0i16, 1, -1, i16::MAX, i16::MIN, 12345, -12345] {
            assert_eq!(i16::unzigzag(v.zigzag()), v);
        }
        for v in [0i64, -1, i64::MAX, i64::MIN] {
            assert_eq!(i64::unzigzag(v.zigzag()), v);
        }
        assert_eq!(i32::MIN.zigzag(), u32::MAX);
        assert_eq!(i32::MAX.zigzag(), u32::MAX - 1);
        for c in 0..=u16::MAX {
            assert_eq!(i16::unzigzag(c).zigzag(), c);
        }
    }
}
