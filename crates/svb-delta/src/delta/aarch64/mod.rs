//! AArch64 prefix-sum kernels.

pub(crate) mod neon;
