#![no_main]
//! Arbitrary bytes as a BLOW5 file: the header and record parsers return records or errors
//! naming the file, never a panic; sequential and parallel reading agree.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(reader) = svb_slow5::blow5::Reader::from_bytes("fuzz.blow5", data.to_vec()) else {
        return;
    };
    let seq: Vec<_> = reader.records().map(|r| r.map_err(|e| e.to_string())).collect();
    let par = reader.decode_all_parallel().map_err(|e| e.to_string());
    match par {
        Ok(records) => assert_eq!(seq, records.into_iter().map(Ok).collect::<Vec<_>>()),
        Err(e) => assert_eq!(seq.into_iter().find_map(|r| r.err()), Some(e)),
    }
    for i in 0..reader.len() {
        let _ = reader.signal_blob(i);
    }
});
