//! Shared helpers of the integration tests: the conformance data folder and ISA loops.
#![allow(dead_code)]

use svb_core::{Codec, Isa, Kernels};

/// Every kernel table of `codec` this machine can run.
pub fn all_kernels<C: Codec>(codec: &C) -> Vec<&'static Kernels<C::Value>> {
    let ks: Vec<_> = Isa::available()
        .filter_map(|isa| codec.kernels_for(isa))
        .collect();
    assert!(ks.iter().any(|k| k.isa() == Isa::Scalar));
    // The SIMD kernels must really run where the target has them (NEON under qemu too).
    #[cfg(target_arch = "aarch64")]
    assert!(
        ks.iter().any(|k| k.isa() == Isa::Neon),
        "NEON kernels not exercised"
    );
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") {
        assert!(
            ks.iter().any(|k| k.isa() == Isa::Avx2),
            "AVX2 kernels not exercised"
        );
    }
    ks
}

/// Encodes with one kernel table into a fresh buffer of exactly `max_encoded_len` bytes.
pub fn encode_with<C: Codec>(codec: &C, k: &Kernels<C::Value>, values: &[C::Value]) -> Vec<u8> {
    let mut out = vec![0u8; codec.max_encoded_len(values.len())];
    let len = k.encode_to_slice(values, &mut out).expect("encode");
    out.truncate(len);
    out
}

/// Decodes `n` values with one kernel table; returns the values and the bytes consumed.
pub fn decode_with<C: Codec>(
    k: &Kernels<C::Value>,
    input: &[u8],
    n: usize,
) -> Result<(Vec<C::Value>, usize), svb_core::DecodeError>
where
    C::Value: Default,
{
    let mut out = vec![C::Value::default(); n];
    let used = k.decode_to_slice(input, &mut out)?;
    Ok((out, used))
}
