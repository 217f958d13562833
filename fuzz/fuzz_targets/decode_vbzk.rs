#![no_main]
//! Arbitrary bytes as a VBZ-K stream of an arbitrary sample count: the serial and the
//! parallel decoders give the same samples or the same error, never a panic; what decodes
//! re-encodes (same k) to a stream that decodes the same.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (n, bytes) = svb_fuzz::count_and_bytes(data);
    let serial = svb_vbz::decode_vbzk(bytes, n);
    let parallel = svb_vbz::decode_vbzk_parallel(bytes, n);
    match (&serial, &parallel) {
        (Ok(a), Ok(b)) => assert_eq!(a, b),
        (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string()),
        _ => panic!("serial {serial:?} vs parallel {parallel:?}"),
    }
    if let Ok(samples) = serial {
        let again = svb_vbz::encode_vbzk(&samples, bytes[0] as usize);
        assert_eq!(svb_vbz::decode_vbzk(&again, n).expect("own stream"), samples);
    }
});
