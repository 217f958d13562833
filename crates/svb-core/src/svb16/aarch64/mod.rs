//! AArch64 kernels of Svb16.

pub(crate) mod neon;
