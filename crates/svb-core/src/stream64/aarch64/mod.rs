//! AArch64 kernels of the u64 codecs.

pub(crate) mod neon;
