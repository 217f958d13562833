#![no_main]
//! Arbitrary bytes as a VBZ-K stream of an arbitrary sample count: the serial and the
//! parallel decoders both give the same samples or both refuse (the parallel error the same
//! on every run), never a panic, and so do batches of it (a task per sub-stream or per
//! chunk); what decodes re-encodes (same k) to a stream that decodes the same.

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
    // As batches: one chunk (a task per sub-stream) and 16 copies (a task per chunk on up to
    // 4 workers): the same samples, or an error naming chunk 0.
    for copies in [1usize, 16] {
        let chunk = svb_vbz::Chunk { data: bytes, samples: n };
        let mut out = vec![0i16; n * copies];
        let batch =
            svb_vbz::decode_vbzk_batch(&vec![chunk; copies], &mut out, svb_vbz::Threads::Current);
        match (&serial, batch) {
            (Ok(a), Ok(())) => assert!(out.chunks(n.max(1)).all(|c| c == &a[..])),
            (Err(_), Err(svb_vbz::VbzError::Chunk { index: 0, .. })) => {}
            (s, b) => panic!("serial {s:?} vs batch of {copies}: {b:?}"),
        }
    }
    if let Ok(samples) = serial {
        let again = svb_vbz::encode_vbzk(&samples, bytes[0] as usize);
        assert_eq!(svb_vbz::decode_vbzk(&again, n).expect("own stream"), samples);
    }
});
