//! Fused VBZ decode: svb16 unpack, unzigzag and prefix sum in one loop, per ISA. The loop is
//! svb-core's Svb16 loop with one more step per group ([`svb_core::I16ZigzagDelta`]); this
//! module picks its kernels and keeps the VBZ entry points.

use svb_core::{DecodeError, I16ZigzagDelta, ZigzagDeltaKernels};
use svb_dispatch::{uninit, Isa};

/// The best fused decoder (chosen once, cached).
#[inline]
pub(crate) fn best() -> &'static ZigzagDeltaKernels {
    I16ZigzagDelta.kernels()
}

/// Fused decode of `n` samples from `initial` with the kernel of `isa` (`None` when this CPU
/// cannot run it): for comparing ISAs in tests and benchmarks. Returns the samples and the
/// bytes consumed.
pub fn decode_vbz_fused_with(
    isa: Isa, data: &[u8], n: usize, initial: i16,
) -> Option<Result<(Vec<i16>, usize), DecodeError>> {
    let f = I16ZigzagDelta.kernels_for(isa)?;
    if let Err(e) = svb_core::Codec::check_plausible(&svb_core::Svb16, data, n) {
        return Some(Err(e));
    }
    let mut out = Vec::new();
    let mut used = 0;
    let r = split_stream(data, n).and_then(|(keys, body)| {
        // SAFETY: on `Ok` the decoder has written all `n` samples.
        unsafe {
            uninit::append_with(&mut out, n, |s| {
                used = f.decode_split_uninit(keys, body, initial, &mut s[..n])?;
                Ok(n)
            })
        }
    });
    Some(r.map(|_| (out, n.div_ceil(8) + used)))
}

/// Splits one svb16 stream of `n` values into its key bytes and its data.
#[inline]
pub(crate) fn split_stream(data: &[u8], n: usize) -> Result<(&[u8], &[u8]), DecodeError> {
    I16ZigzagDelta.split(data, n)
}
