//! x86 kernels of Svb16.

pub(crate) mod avx2;
pub(crate) mod ssse3;
