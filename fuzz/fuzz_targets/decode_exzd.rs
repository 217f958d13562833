#![no_main]
//! Arbitrary bytes as an ex-zd blob: the 3-pass and fused decoders give the same samples or
//! the same error, never a panic; what decodes re-encodes to a blob that decodes the same.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let three = svb_slow5_signal::decode_exzd(data);
    let fused = svb_slow5_signal::decode_exzd_fused(data);
    assert_eq!(three, fused);
    // Every ISA's run kernel (AVX2 16 bytes, SSSE3 8, NEON) equals the scalar one.
    for isa in svb_dispatch::Isa::available() {
        assert_eq!(svb_slow5_signal::decode_exzd_fused_with(isa, data).unwrap(), fused, "{isa}");
    }
    if let Ok(samples) = three {
        let again = svb_slow5_signal::encode_exzd(&samples);
        assert_eq!(svb_slow5_signal::decode_exzd(&again).expect("own blob"), samples);
    }
});
