#![no_main]
//! Arbitrary bytes as an SVB-ZD stream of an arbitrary count (3-pass and fused decoders
//! agree) and as a slow5lib blob (a lying count is refused, never allocated).

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (n, bytes) = svb_fuzz::count_and_bytes(data);
    let three = svb_slow5::decode_svbzd(bytes, n);
    let fused = svb_slow5::decode_svbzd_fused(bytes, n);
    assert_eq!(three.is_ok(), fused.is_ok(), "{three:?} vs {fused:?}");
    if let (Ok(a), Ok(b)) = (&three, &fused) {
        assert_eq!(a, b);
        // Values past 16 bits of delta are not canonical: re-encoding may be shorter, but it
        // decodes to the same samples.
        let again = svb_slow5::encode_svbzd(a);
        assert_eq!(&svb_slow5::decode_svbzd_fused(&again, n).expect("own stream"), a);
    }
    if let Ok(samples) = svb_slow5::svbzd::decode_blob(data) {
        let again = svb_slow5::svbzd::encode_blob(&samples);
        assert_eq!(svb_slow5::svbzd::decode_blob(&again).expect("own blob"), samples);
    }
});
