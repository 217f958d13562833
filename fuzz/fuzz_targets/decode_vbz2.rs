#![no_main]
//! Arbitrary bytes as a VBZ2 stream of an arbitrary sample count: samples or a typed error,
//! never a panic; what decodes re-encodes to a stream that decodes the same.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (n, bytes) = svb_fuzz::count_and_bytes(data);
    if let Ok(samples) = svb_vbz::decode_vbz2(bytes, n) {
        assert_eq!(samples.len(), n);
        let again = svb_vbz::encode_vbz2(&samples);
        assert_eq!(svb_vbz::decode_vbz2(&again, n).expect("own stream"), samples);
    }
});
