#![no_main]
//! Arbitrary bytes as a FAST5 file: the HDF5 layer and the FAST5 reader return a reader or an
//! error naming the file, never a panic; every read's fields and signal then read or fail
//! with an error, the same way twice and through the parallel path.

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
        if let Some(e) = read.as_ref().err().or(signal.as_ref().err()) {
            first_error.get_or_insert(e.to_string());
        }
    }
    let par = reader.for_each_parallel(svb_fast5::Threads::Current, |_, _, _| {});
    assert_eq!(par.is_err(), first_error.is_some());
});
