#![no_main]
//! Arbitrary bytes as a BLOW5 or SLOW5 text file: the header and record parsers return
//! records or errors naming the file, never a panic (opened whole, or salvaging what comes
//! before a cut); sequential, parallel and buffer-reusing reading agree, and so do a record's
//! head and its fields.

use libfuzzer_sys::fuzz_target;
use svb_blow5::Threads;

fuzz_target!(|data: &[u8]| {
    // Salvaging opens every file the plain open opens, alike (no cut), and more: its
    // records decode or are errors, never a panic.
    let salvaged = svb_blow5::Reader::from_bytes_recovering("fuzz.blow5", data.to_vec());
    if let Ok((r, cut)) = &salvaged {
        for i in 0..r.len() {
            let _ = r.record(i);
        }
        if let Some(cut) = cut {
            assert!(cut.offset + cut.bytes == data.len() as u64);
        }
    }
    let Ok(reader) = svb_blow5::Reader::from_bytes("fuzz.blow5", data.to_vec()) else {
        return;
    };
    let (salvaged, cut) = salvaged.expect("a file that opens is salvaged");
    assert!(cut.is_none());
    assert_eq!(salvaged.len(), reader.len());
    // Compared as text: a NaN field never equals itself.
    let seq: Vec<String> = reader
        .records()
        .map(|r| match r {
            Ok(rec) => format!("{rec:?}"),
            Err(e) => format!("error: {e}"),
        })
        .collect();
    match reader.decode_all(Threads::Current) {
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
    let each =
        reader.for_each_parallel(Threads::Current, |i, rec| assert_eq!(seq[i], format!("{rec:?}")));
    if let Err(e) = each {
        let first = seq.iter().find(|r| r.starts_with("error: "));
        assert_eq!(first, Some(&format!("error: {e}")));
    }
    // One record reused across all of them, in reverse order.
    let mut reused = svb_blow5::Record::default();
    for i in (0..reader.len()).rev() {
        if let Ok(()) = reader.record_into(i, &mut reused) {
            assert_eq!(seq[i], format!("{reused:?}"));
        }
    }
    for i in 0..reader.len() {
        let _ = reader.signal_blob(i);
        // The stored form of a BLOW5 record: its size field and exactly that many bytes.
        if let Ok(stored) = reader.stored_record(i) {
            let size = u64::from_le_bytes(stored[..8].try_into().unwrap());
            assert_eq!(size, stored.len() as u64 - 8);
        }
        // Fields only: a record that decodes whole gives the same fields and its sample
        // count (a bad signal may still pass here: its samples are not decoded).
        let mut fields = svb_blow5::Record::default();
        if let (Ok(n), Ok(full)) = (reader.fields_into(i, &mut fields), reader.record(i)) {
            assert_eq!(n, full.raw_signal.len() as u64);
            fields.raw_signal = full.raw_signal.clone();
            assert_eq!(format!("{fields:?}"), format!("{full:?}"));
        }
        // The head (read id and group, from the first bytes only) of a record whose fields
        // parse is theirs; of any other, a head or an error.
        let head = reader.record_head(i);
        if let Ok(full) = reader.fields_into(i, &mut fields).map(|_| &fields) {
            assert_eq!(head.unwrap(), (full.read_id.clone(), full.read_group));
        }
    }
    // The index of a file that decodes, through its bytes and back.
    if let Ok(index) = svb_blow5::Index::build(&reader) {
        assert!(index.matches(&reader));
        assert_eq!(svb_blow5::Index::parse(&index.to_bytes()), Ok(index));
    }
});
