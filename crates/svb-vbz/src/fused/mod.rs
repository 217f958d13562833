//! Fused VBZ decode: svb16 unpack, unzigzag and prefix sum in one loop, per ISA.

#[cfg(target_arch = "aarch64")]
mod aarch64;
pub(crate) mod scalar;
#[cfg(target_arch = "x86_64")]
mod x86_64;

use core::mem::MaybeUninit;

use svb_core::DecodeError;
use svb_dispatch::{Cached, Isa};

/// Decodes `out.len()` samples from svb16 key bytes (at least `out.len().div_ceil(8)`) and
/// the front of their data, the first delta taken from `initial`; returns the data bytes
/// consumed. Any input is safe; error offsets count the key bytes first, as in one stream.
pub(crate) type FusedFn =
    fn(&[u8], &[u8], i16, &mut [MaybeUninit<i16>]) -> Result<usize, DecodeError>;

/// One ISA's fused decoder.
pub(crate) struct Fused {
    pub(crate) decode: FusedFn,
}

static SCALAR: Fused = Fused {
    decode: scalar::decode,
};
#[cfg(target_arch = "x86_64")]
static SSSE3: Fused = Fused {
    decode: x86_64::decode_ssse3,
};
#[cfg(target_arch = "x86_64")]
static AVX2: Fused = Fused {
    decode: x86_64::decode_avx2,
};
#[cfg(target_arch = "aarch64")]
static NEON: Fused = Fused {
    decode: aarch64::decode_neon,
};

/// The fused decoder of `isa`, or `None` when this CPU (or build) cannot run it.
pub(crate) fn for_isa(isa: Isa) -> Option<&'static Fused> {
    if !isa.is_available() {
        return None;
    }
    match isa {
        Isa::Scalar => Some(&SCALAR),
        #[cfg(target_arch = "x86_64")]
        Isa::Ssse3 => Some(&SSSE3),
        #[cfg(target_arch = "x86_64")]
        Isa::Avx2 => Some(&AVX2),
        #[cfg(target_arch = "aarch64")]
        Isa::Neon => Some(&NEON),
        #[allow(unreachable_patterns)]
        _ => None,
    }
}

/// The best fused decoder (chosen once, cached).
#[inline]
pub(crate) fn best() -> &'static Fused {
    static BEST: Cached<Fused> = Cached::new(|| for_isa(Isa::best()).unwrap_or(&SCALAR));
    BEST.get()
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
    let f = for_isa(isa)?;
    if let Err(e) = svb_core::Codec::check_plausible(&svb_core::Svb16, data, n) {
        return Some(Err(e));
    }
    let mut out = vec![0i16; n];
    let r = split_stream(data, n)
        .and_then(|(keys, body)| (f.decode)(keys, body, initial, as_uninit(&mut out)))
        .map(|used| (out, n.div_ceil(8) + used));
    Some(r)
}

/// Views initialised samples as `MaybeUninit` for a decoder that only writes samples.
pub(crate) fn as_uninit(out: &mut [i16]) -> &mut [MaybeUninit<i16>] {
    // SAFETY: `MaybeUninit<i16>` has the layout of i16, and the decoders only store
    // initialised samples, so `out` stays initialised.
    unsafe { core::slice::from_raw_parts_mut(out.as_mut_ptr().cast(), out.len()) }
}

/// Splits one svb16 stream of `n` values into its key bytes and its data.
#[inline]
pub(crate) fn split_stream(data: &[u8], n: usize) -> Result<(&[u8], &[u8]), DecodeError> {
    svb_core::svb16::blocks::split_keys(data, n)
}
