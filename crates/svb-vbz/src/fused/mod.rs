//! Fused VBZ decode: svb16 unpack, unzigzag and prefix sum in one loop, per ISA.

#[cfg(target_arch = "aarch64")]
mod aarch64;
pub(crate) mod scalar;
#[cfg(target_arch = "x86_64")]
mod x86_64;

use core::mem::MaybeUninit;

use svb_core::DecodeError;
use svb_dispatch::{per_isa, uninit, Isa};

/// Decodes `out.len()` samples from svb16 key bytes (at least `out.len().div_ceil(8)`) and
/// the front of their data, the first delta taken from `initial`; returns the data bytes
/// consumed. Any input is safe; error offsets count the key bytes first, as in one stream.
/// Writes only initialised samples, and all of `out` on `Ok`.
///
/// Safety: the CPU must support the ISA of the table that holds the kernel.
type FusedFn = unsafe fn(&[u8], &[u8], i16, &mut [MaybeUninit<i16>]) -> Result<usize, DecodeError>;

/// One ISA's fused decoder. A `&'static Fused` exists only for an ISA this CPU runs (the
/// tables are private and handed out through [`PerIsa`](svb_dispatch::PerIsa)).
pub(crate) struct Fused {
    decode: FusedFn,
}

impl Fused {
    /// Runs the decoder (see [`FusedFn`]).
    #[inline]
    pub(crate) fn decode(
        &self,
        keys: &[u8],
        data: &[u8],
        initial: i16,
        out: &mut [MaybeUninit<i16>],
    ) -> Result<usize, DecodeError> {
        // SAFETY: `self` is one of the private tables below, which `KERNELS` hands out only
        // when this CPU runs its ISA.
        unsafe { (self.decode)(keys, data, initial, out) }
    }
}

per_isa! {
    static KERNELS: PerIsa<Fused> = {
        Scalar => Fused { decode: scalar::decode },
        #[cfg(target_arch = "x86_64")]
        Ssse3 => Fused { decode: x86_64::decode_ssse3 },
        #[cfg(target_arch = "x86_64")]
        Avx2 => Fused { decode: x86_64::decode_avx2 },
        #[cfg(target_arch = "aarch64")]
        Neon => Fused { decode: aarch64::decode_neon },
    };
}

/// The best fused decoder (chosen once, cached).
#[inline]
pub(crate) fn best() -> &'static Fused {
    KERNELS.best()
}

/// Fused decode of `n` samples from `initial` with the kernel of `isa` (`None` when this CPU
/// cannot run it): for comparing ISAs in tests and benchmarks. Returns the samples and the
/// bytes consumed.
pub fn decode_vbz_fused_with(
    isa: Isa,
    data: &[u8],
    n: usize,
    initial: i16,
) -> Option<Result<(Vec<i16>, usize), DecodeError>> {
    let f = KERNELS.get(isa)?;
    if let Err(e) = svb_core::Codec::check_plausible(&svb_core::Svb16, data, n) {
        return Some(Err(e));
    }
    let mut out = Vec::new();
    let mut used = 0;
    let r = split_stream(data, n).and_then(|(keys, body)| {
        // SAFETY: on `Ok` the decoder has written all `n` samples.
        unsafe {
            uninit::append_with(&mut out, n, |s| {
                used = f.decode(keys, body, initial, &mut s[..n])?;
                Ok(n)
            })
        }
    });
    Some(r.map(|_| (out, n.div_ceil(8) + used)))
}

/// Splits one svb16 stream of `n` values into its key bytes and its data.
#[inline]
pub(crate) fn split_stream(data: &[u8], n: usize) -> Result<(&[u8], &[u8]), DecodeError> {
    svb_core::svb16::blocks::split_keys(data, n)
}
