#![no_main]
//! Arbitrary bytes as a BLOW5 file: the header and record parsers return records or errors
//! naming the file, never a panic; sequential, parallel and buffer-reusing reading agree.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(reader) = svb_slow5::blow5::Reader::from_bytes("fuzz.blow5", data.to_vec()) else {
        return;
    };
    // Compared as text: a NaN field never equals itself.
    let seq: Vec<String> = reader
        .records()
        .map(|r| match r {
            Ok(rec) => format!("{rec:?}"),
            Err(e) => format!("error: {e}"),
        })
        .collect();
    match reader.decode_all_parallel() {
        Ok(records) => {
            let par: Vec<String> = records.iter().map(|r| format!("{r:?}")).collect();
            assert_eq!(seq, par);
        }
        Err(e) => {
            let first = seq.iter().find(|r| r.starts_with("error: "));
            assert_eq!(first, Some(&format!("error: {e}")));
        }
    }
    // Worker-reused records: each one that decodes is the sequential record; the error is
    // the first failing record's.
    let each = reader.for_each_parallel(|i, rec| assert_eq!(seq[i], format!("{rec:?}")));
    if let Err(e) = each {
        let first = seq.iter().find(|r| r.starts_with("error: "));
        assert_eq!(first, Some(&format!("error: {e}")));
    }
    // One record reused across all of them, in reverse order.
    let mut reused = svb_slow5::blow5::Record::default();
    for i in (0..reader.len()).rev() {
        if let Some(Ok(())) = reader.record_into(i, &mut reused) {
            assert_eq!(seq[i], format!("{reused:?}"));
        }
    }
    for i in 0..reader.len() {
        let _ = reader.signal_blob(i);
    }
});
