#![no_main]
//! Arbitrary bytes as a BLOW5 file: the header and record parsers return records or errors
//! naming the file, never a panic; sequential and parallel reading agree.

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
            let first = seq.into_iter().find(|r| r.starts_with("error: "));
            assert_eq!(first, Some(format!("error: {e}")));
        }
    }
    for i in 0..reader.len() {
        let _ = reader.signal_blob(i);
    }
});
