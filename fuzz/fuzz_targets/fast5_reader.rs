#![no_main]
//! Arbitrary bytes as a FAST5 file: the HDF5 layer and the FAST5 reader return a reader or an
//! error naming the file, never a panic; every read's fields and signal then read or fail
//! with an error, the same way twice, together (`read_with_signal`) and through the parallel
//! path.

use libfuzzer_sys::fuzz_target;
use svb_fast5::Reader;

fuzz_target!(|data: &[u8]| {
    let Ok(reader) = Reader::from_bytes("fuzz.fast5", data.to_vec()) else {
        return;
    };
    let mut first_error = None;
    for i in 0..reader.len() {
        let id = reader.read_id(i).expect("an index in range").to_string();
        assert_eq!(reader.find(&id), Some(i));
        let read = reader.read(i);
        let signal = reader.signal(i);
        let mut buf = vec![7i16; 3];
        let into = reader.signal_into(i, &mut buf);
        match (&signal, &into) {
            (Ok(s), Ok(())) => assert_eq!(&buf, s),
            (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string()),
            _ => panic!("signal paths disagree on read {i}"),
        }
        // Both at once (one lookup of the read's groups): the same fields and samples.
        let mut both_signal = vec![7i16; 5];
        match (reader.read_with_signal(i, &mut both_signal), &read, &signal) {
            (Ok(r), Ok(alone), Ok(s)) => {
                assert_eq!(&r, alone);
                assert_eq!(&both_signal, s);
            }
            (Err(_), _, _) => assert!(read.is_err() || signal.is_err(), "read {i}"),
            (Ok(_), _, _) => panic!("read {i}: read_with_signal succeeds alone"),
        }
        if let Some(e) = read.as_ref().err().or(signal.as_ref().err()) {
            first_error.get_or_insert(e.to_string());
        }
    }
    let par = reader.for_each_parallel(svb_fast5::Threads::Current, |_, _, _| {});
    assert_eq!(par.is_err(), first_error.is_some());
});
