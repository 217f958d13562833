#![no_main]
//! Arbitrary bytes as an SVB-ZD stream of an arbitrary count (3-pass and fused decoders
//! agree) and as a slow5lib blob (a lying count is refused, never allocated).

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (n, bytes) = svb_fuzz::count_and_bytes(data);
    let three = svb_slow5_signal::decode_svbzd(bytes, n);
    let fused = svb_slow5_signal::decode_svbzd_fused(bytes, n);
    assert_eq!(three.is_ok(), fused.is_ok(), "{three:?} vs {fused:?}");
    if let (Ok(a), Ok(b)) = (&three, &fused) {
        assert_eq!(a, b);
        // Values past 16 bits of delta are not canonical: re-encoding may be shorter, but it
        // decodes to the same samples.
        let again = svb_slow5_signal::encode_svbzd(a);
        assert_eq!(&svb_slow5_signal::decode_svbzd_fused(&again, n).expect("own stream"), a);
    }
    // Every ISA's fused kernel (the AVX2 16-sample loop, the SSSE3 8-sample loop, their
    // zero-padded tails) equals the scalar one, from a carry too.
    let scalar = svb_slow5_signal::decode_svbzd_fused_with(svb_dispatch::Isa::Scalar, bytes, n, -5);
    for isa in svb_dispatch::Isa::available() {
        let got = svb_slow5_signal::decode_svbzd_fused_with(isa, bytes, n, -5);
        assert_eq!(got, scalar, "{isa}");
    }
    if let Ok(samples) = svb_slow5_signal::svbzd::decode_blob(data) {
        let again = svb_slow5_signal::svbzd::encode_blob(&samples);
        assert_eq!(svb_slow5_signal::svbzd::decode_blob(&again).expect("own blob"), samples);
    }
});
