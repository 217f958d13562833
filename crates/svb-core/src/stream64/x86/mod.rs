//! x86 kernels of the u64 codecs.

pub(crate) mod avx2;
pub(crate) mod ssse3;
