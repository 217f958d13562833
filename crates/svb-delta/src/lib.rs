//! The transforms every signal pipeline fuses with the StreamVByte codecs: zigzag, wrapping
//! delta encode (auto-vectorised) and delta decode as an explicit SIMD prefix sum per ISA,
//! with the multi-chain decodes (`decode_2chain`, `decode_kchain`) that split one carry
//! chain into independent ones, and the check that a sorted u32 list strictly increases
//! ([`increasing`]).
//!
//! ```
//! use svb_delta::{delta, zigzag};
//! let signal: Vec<i16> = vec![10, 12, 11, 11, 13, 14, 15, 16, 300, -300];
//! let deltas = delta::encode(&signal);
//! assert_eq!(deltas[..4], [10, 2, -1, 0]);
//! let codes = zigzag::encode(&deltas);
//! assert_eq!(codes[..4], [20, 4, 1, 0]);
//! assert_eq!(delta::decode(&zigzag::decode::<i16>(&codes)), signal);
//! ```
//!
//! The SIMD building blocks (one block of prefix sum with a carry in and out) are public in
//! [`kernels`], so the fused pipelines of the crates above call them instead of copying them.

#![cfg_attr(not(feature = "std"), no_std)]
// A soft-float x86-64 target (`x86_64-unknown-none`) gets no SIMD tables (svb_dispatch's
// `per_isa!`), so its x86 kernels are compiled out as unused.
#![cfg_attr(
    all(target_arch = "x86_64", not(target_feature = "sse2")),
    allow(dead_code, unused_imports)
)]

#[cfg(feature = "alloc")]
extern crate alloc;

pub mod delta;
pub mod increasing;
/// Internal: the SIMD blocks svb-core's and svb-slow5-signal's fused kernels are built from, in
/// intrinsic types. Not part of the API (hidden from the docs, no stability promise); do not
/// depend on it directly.
#[doc(hidden)]
pub mod kernels;
pub mod zigzag;

pub use svb_dispatch::Isa;
