//! Shared helpers of the integration tests: the conformance data folder and ISA loops.
#![allow(dead_code)]

use svb_core::{Codec, Isa, Kernels};

/// Every kernel table of `codec` this machine can run.
pub fn all_kernels<C: Codec>(codec: &C) -> Vec<&'static Kernels<C::Value>> {
    let ks: Vec<_> = Isa::available().filter_map(|isa| codec.kernels_for(isa)).collect();
    svb_testdata::assert_simd_ran(ks.iter().map(|k| k.isa()));
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
    k: &Kernels<C::Value>, input: &[u8], n: usize,
) -> Result<(Vec<C::Value>, usize), svb_core::DecodeError>
where
    C::Value: Default,
{
    let mut out = vec![C::Value::default(); n];
    let used = k.decode_to_slice(input, &mut out)?;
    Ok((out, used))
}

/// Every kernel table of `codec` encodes `values` to exactly `wire` and decodes `wire` back
/// to `values`, consuming all of it; `what` names the case in a failure.
pub fn assert_wire_every_isa<C: Codec>(codec: &C, values: &[C::Value], wire: &[u8], what: &str)
where
    C::Value: Default + PartialEq + std::fmt::Debug,
{
    for k in all_kernels(codec) {
        let isa = k.isa();
        assert_eq!(encode_with(codec, k, values), wire, "{what} encode {isa}");
        let (got, used) = decode_with::<C>(k, wire, values.len()).unwrap();
        assert_eq!((&got[..], used), (values, wire.len()), "{what} decode {isa}");
    }
}
