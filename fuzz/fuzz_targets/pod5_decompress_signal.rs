#![no_main]
//! Arbitrary bytes as a POD5 signal blob of an arbitrary sample count: values or a typed
//! error, never a panic; a successful decode re-compresses to a blob that decodes the same.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (n, blob) = svb_fuzz::count_and_bytes(data);
    if let Ok(samples) = svb_vbz::pod5::decompress_signal_to_vec(blob, n) {
        let again = svb_vbz::pod5::compress_signal(&samples);
        assert_eq!(
            svb_vbz::pod5::decompress_signal_to_vec(&again, n).expect("own blob"),
            samples
        );
    }
});
