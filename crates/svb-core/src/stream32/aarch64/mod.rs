//! AArch64 kernels of the u32 codecs.

pub(crate) mod neon;
