#![no_main]
//! Arbitrary bytes as a VBZ-K stream of an arbitrary sample count: the serial and the
//! parallel decoders both give the same samples or both refuse (the parallel error the same
//! on every run), never a panic; what decodes
//! re-encodes (same k) to a stream that decodes the same.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (n, bytes) = svb_fuzz::count_and_bytes(data);
    let serial = svb_vbz::decode_vbzk(bytes, n);
    let parallel = svb_vbz::decode_vbzk_parallel(bytes, n);
    match (&serial, &parallel) {
        (Ok(a), Ok(b)) => assert_eq!(a, b),
        // Both refuse; the serial decoder runs one chain, so its error may be worded from
        // the whole stream rather than a sub-stream.
        (Err(_), Err(_)) => {
            let again = svb_vbz::decode_vbzk_parallel(bytes, n).unwrap_err();
            assert_eq!(again.to_string(), parallel.as_ref().unwrap_err().to_string());
        }
        _ => panic!("serial {serial:?} vs parallel {parallel:?}"),
    }
    if let Ok(samples) = serial {
        let again = svb_vbz::encode_vbzk(&samples, bytes[0] as usize);
        assert_eq!(svb_vbz::decode_vbzk(&again, n).expect("own stream"), samples);
    }
});
