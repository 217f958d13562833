//! x86 prefix-sum kernels.

pub(crate) mod avx2;
pub(crate) mod ssse3;
