//! Wrapping delta coding. Encoding (`d[i] = v[i] - v[i-1]`, `v[-1] = initial`) is a plain
//! loop LLVM vectorises; decoding is a prefix sum with an explicit SIMD kernel per ISA
//! (SSSE3, AVX2, NEON; scalar elsewhere), chosen once at run time.
//!
//! ```
//! use svb_delta::delta;
//! let v: Vec<u32> = vec![100, 105, 103, 110];
//! let d = delta::encode_with_initial(100, &v);
//! assert_eq!(d, [0, 5, u32::MAX - 1, 7]);
//! assert_eq!(delta::decode_with_initial(100, &d), v);
//! ```
//!
//! One prefix sum is a serial chain. [`decode_2chain`] and [`decode_kchain`] decode a
//! stream split into independent chains whose starting values (carries) the encoder stored
//! ([`mid_carry`], [`split_points`]); the chains run interleaved in one loop.

#[macro_use]
mod loops;
#[cfg(target_arch = "aarch64")]
mod aarch64;
mod chains;
mod scalar;
#[cfg(target_arch = "x86_64")]
mod x86_64;

#[cfg(feature = "alloc")]
use alloc::vec::Vec;

#[cfg(feature = "alloc")]
use svb_dispatch::uninit;
use svb_dispatch::{per_isa, Isa};

// Everything public in `chains` (the `Vec` forms exist with the `alloc` feature).
pub use chains::*;

/// Raw decode kernel: `(initial, src, dst, n) -> last`.
type DecodeRaw<T> = unsafe fn(T, *const T, *mut T, usize) -> T;
/// Raw chains kernel: `(src, dst, carries, len) -> (done, carries)`.
type ChainsRaw<T, const K: usize> =
    unsafe fn([*const T; K], [*mut T; K], [T; K], usize) -> (usize, [T; K]);

/// One ISA's prefix-sum kernels. Obtain them with [`kernels_for`] (which checks the CPU) to
/// compare ISAs; the free functions of this module use the cached best choice.
///
/// A `&'static Kernels` exists only for an ISA this CPU runs (the tables are private and
/// handed out through [`PerIsa`](svb_dispatch::PerIsa)), so its methods are safe.
pub struct Kernels {
    isa: Isa,
    pub(crate) u16: DecodeRaw<u16>,
    pub(crate) u32: DecodeRaw<u32>,
    pub(crate) u64: DecodeRaw<u64>,
    pub(crate) chains2_u16: ChainsRaw<u16, 2>,
    pub(crate) chains4_u16: ChainsRaw<u16, 4>,
    pub(crate) chains8_u16: ChainsRaw<u16, 8>,
}

impl core::fmt::Debug for Kernels {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Kernels").field("isa", &self.isa).finish_non_exhaustive()
    }
}

macro_rules! kernels {
    ($isa:expr, $m:path) => {{
        use $m as k;
        Kernels {
            isa: $isa,
            u16: k::decode_u16,
            u32: k::decode_u32,
            u64: k::decode_u64,
            chains2_u16: k::chains_u16::<2>,
            chains4_u16: k::chains_u16::<4>,
            chains8_u16: k::chains_u16::<8>,
        }
    }};
}

per_isa! {
    static KERNELS: PerIsa<Kernels> = {
        Scalar => kernels!(Isa::Scalar, scalar),
        #[cfg(target_arch = "x86_64")]
        Ssse3 => kernels!(Isa::Ssse3, x86_64::ssse3),
        #[cfg(target_arch = "x86_64")]
        Avx2 => kernels!(Isa::Avx2, x86_64::avx2),
        #[cfg(target_arch = "aarch64")]
        Neon => kernels!(Isa::Neon, aarch64::neon),
    };
}

/// The kernels of `isa`, or `None` when this CPU (or build) cannot run them.
pub fn kernels_for(isa: Isa) -> Option<&'static Kernels> {
    KERNELS.get(isa)
}

/// The kernels of the best available ISA (chosen once, cached).
#[inline]
pub fn kernels() -> &'static Kernels {
    KERNELS.best()
}

mod sealed {
    pub trait Sealed {}
}

/// An integer type with wrapping delta coding: `i16`, `u16`, `i32`, `u32`, `i64`, `u64`.
pub trait Delta: Copy + Default + sealed::Sealed + 'static {
    /// Wrapping addition.
    fn wrapping_add(self, other: Self) -> Self;
    /// Wrapping subtraction.
    fn wrapping_sub(self, other: Self) -> Self;
    /// Runs `k`'s prefix sum over `n` elements from `src` to `dst`; returns the last value.
    ///
    /// # Safety
    /// `k` came from [`kernels_for`]; `src` is readable and `dst` writable for `n` elements.
    #[doc(hidden)]
    unsafe fn decode_raw(
        k: &Kernels, initial: Self, src: *const Self, dst: *mut Self, n: usize,
    ) -> Self;
}

macro_rules! delta_impl {
    ($($t:ty => $bits:ident),*) => {$(
        impl sealed::Sealed for $t {}
        impl Delta for $t {
            #[inline(always)]
            fn wrapping_add(self, other: Self) -> Self {
                <$t>::wrapping_add(self, other)
            }
            #[inline(always)]
            fn wrapping_sub(self, other: Self) -> Self {
                <$t>::wrapping_sub(self, other)
            }
            #[inline]
            unsafe fn decode_raw(k: &Kernels, initial: Self, src: *const Self, dst: *mut Self, n: usize) -> Self {
                // SAFETY: same-width integers share layout and wrapping-add bits; the caller
                // guarantees the pointers and that the kernel runs on this CPU.
                unsafe { (k.$bits)(initial as _, src.cast(), dst.cast(), n) as $t }
            }
        }
    )*};
}
delta_impl!(i16 => u16, u16 => u16, i32 => u32, u32 => u32, i64 => u64, u64 => u64);

impl Kernels {
    /// The instruction set these kernels use.
    pub fn isa(&self) -> Isa {
        self.isa
    }

    /// Decodes `deltas` into `out` (same length) starting from `initial`; returns the last
    /// value (`initial` when empty), the carry into a following stream.
    ///
    /// # Panics
    /// When `out.len() != deltas.len()`.
    pub fn decode_to_slice<T: Delta>(&self, initial: T, deltas: &[T], out: &mut [T]) -> T {
        assert_eq!(deltas.len(), out.len(), "delta::decode_to_slice: length mismatch");
        // SAFETY: both slices hold deltas.len() elements; `self` exists only for ISAs this CPU
        // runs (`kernels_for`).
        unsafe { T::decode_raw(self, initial, deltas.as_ptr(), out.as_mut_ptr(), deltas.len()) }
    }

    /// Decodes `values` in place starting from `initial`; returns the last value.
    pub fn decode_in_place<T: Delta>(&self, initial: T, values: &mut [T]) -> T {
        let p = values.as_mut_ptr();
        // SAFETY: the kernels read each block before writing it, so src == dst is allowed;
        // `values` holds len elements.
        unsafe { T::decode_raw(self, initial, p, p, values.len()) }
    }

    /// Decodes `deltas` starting from `initial`, appending to `out`; returns the last value.
    #[cfg(feature = "alloc")]
    pub fn decode_into<T: Delta>(&self, initial: T, deltas: &[T], out: &mut Vec<T>) -> T {
        let n = deltas.len();
        let mut last = initial;
        // SAFETY: the spare capacity holds at least n elements and the kernel writes all n
        // of them; `self` exists only for ISAs this CPU runs.
        let Ok(_) = unsafe {
            uninit::append_with(out, n, |spare| {
                last = T::decode_raw(self, initial, deltas.as_ptr(), spare.as_mut_ptr().cast(), n);
                Ok::<_, core::convert::Infallible>(n)
            })
        };
        last
    }
}

/// Delta-encodes `values` into `out` (same length): `out[i] = values[i] - values[i-1]`, with
/// `values[-1] = initial`, wrapping. Returns the last value (the next stream's initial).
///
/// # Panics
/// When `out.len() != values.len()`.
pub fn encode_to_slice<T: Delta>(initial: T, values: &[T], out: &mut [T]) -> T {
    assert_eq!(values.len(), out.len(), "delta::encode_to_slice: length mismatch");
    let Some((&first, _)) = values.split_first() else {
        return initial;
    };
    out[0] = first.wrapping_sub(initial);
    // Two overlapping views: LLVM vectorises this loop.
    for ((o, &cur), &prev) in out[1..].iter_mut().zip(&values[1..]).zip(values) {
        *o = cur.wrapping_sub(prev);
    }
    values[values.len() - 1]
}

/// Appends the deltas of `values` (from `initial`) to `out`.
#[cfg(feature = "alloc")]
pub fn encode_with_initial_into<T: Delta>(initial: T, values: &[T], out: &mut Vec<T>) {
    let n = values.len();
    let Some((&first, _)) = values.split_first() else { return };
    // SAFETY: all n spare elements are written below.
    let Ok(_) = unsafe {
        uninit::append_with(out, n, |spare| {
            let spare = &mut spare[..n];
            spare[0].write(first.wrapping_sub(initial));
            // Two overlapping views: LLVM vectorises this loop.
            for ((o, &cur), &prev) in spare[1..].iter_mut().zip(&values[1..]).zip(values) {
                o.write(cur.wrapping_sub(prev));
            }
            Ok::<_, core::convert::Infallible>(n)
        })
    };
}

/// Appends the deltas of `values` (from 0) to `out`.
#[cfg(feature = "alloc")]
pub fn encode_into<T: Delta>(values: &[T], out: &mut Vec<T>) {
    encode_with_initial_into(T::default(), values, out);
}

/// The deltas of `values`, the first taken from `initial`.
#[cfg(feature = "alloc")]
pub fn encode_with_initial<T: Delta>(initial: T, values: &[T]) -> Vec<T> {
    let mut out = Vec::with_capacity(values.len());
    encode_with_initial_into(initial, values, &mut out);
    out
}

/// The deltas of `values`, the first taken from 0.
#[cfg(feature = "alloc")]
pub fn encode<T: Delta>(values: &[T]) -> Vec<T> {
    encode_with_initial(T::default(), values)
}

/// Decodes `deltas` into `out` (same length) from `initial`; returns the last value.
///
/// # Panics
/// When `out.len() != deltas.len()`.
pub fn decode_to_slice<T: Delta>(initial: T, deltas: &[T], out: &mut [T]) -> T {
    kernels().decode_to_slice(initial, deltas, out)
}

/// Decodes `values` in place from `initial`; returns the last value.
pub fn decode_in_place<T: Delta>(initial: T, values: &mut [T]) -> T {
    kernels().decode_in_place(initial, values)
}

/// Appends the values of `deltas` (from `initial`) to `out`; returns the last value.
#[cfg(feature = "alloc")]
pub fn decode_with_initial_into<T: Delta>(initial: T, deltas: &[T], out: &mut Vec<T>) -> T {
    kernels().decode_into(initial, deltas, out)
}

/// Appends the values of `deltas` (from 0) to `out`; returns the last value.
#[cfg(feature = "alloc")]
pub fn decode_into<T: Delta>(deltas: &[T], out: &mut Vec<T>) -> T {
    decode_with_initial_into(T::default(), deltas, out)
}

/// The values of `deltas`, starting from `initial`.
#[cfg(feature = "alloc")]
pub fn decode_with_initial<T: Delta>(initial: T, deltas: &[T]) -> Vec<T> {
    let mut out = Vec::new();
    decode_with_initial_into(initial, deltas, &mut out);
    out
}

/// The values of `deltas`, starting from 0.
#[cfg(feature = "alloc")]
pub fn decode<T: Delta>(deltas: &[T]) -> Vec<T> {
    decode_with_initial(T::default(), deltas)
}
