#![no_main]
//! Arbitrary bytes as a POD5 file: the container, footer and Arrow table parsers (and the
//! scan that rebuilds a missing footer, the salvage of a killed writer's footer-less tables)
//! return a reader or an error naming the file, never a panic; every read then decodes or fails
//! with an error, the same way through every decode path.

use libfuzzer_sys::fuzz_target;
use svb_pod5::Reader;

fuzz_target!(|data: &[u8]| {
    // The recovering open (a footer rebuilt by scanning for the embedded tables): a reader
    // whose reads all decode or fail, or an error; the same reader as the plain open's for
    // a whole file.
    let recovered = Reader::from_bytes_recovering("fuzz.pod5", data.to_vec());
    if let Ok((r, _)) = &recovered {
        for i in 0..r.len() {
            let _ = r.decode_signal(i);
        }
    }
    // A killed writer's files: the input after two u32 lengths split in three (the file,
    // its reads table, its run-info table); a reader whose reads all decode or fail, or an
    // error.
    if let [a0, a1, a2, a3, b0, b1, b2, b3, rest @ ..] = data {
        let len = |w: [u8; 4]| u32::from_le_bytes(w) as usize;
        let cut1 = len([*a0, *a1, *a2, *a3]).min(rest.len());
        let cut2 = cut1.saturating_add(len([*b0, *b1, *b2, *b3])).min(rest.len());
        let killed = Reader::from_killed_writer_bytes(
            "killed.pod5",
            rest[..cut1].to_vec(),
            rest[cut1..cut2].to_vec(),
            rest[cut2..].to_vec(),
        );
        if let Ok((r, _)) = killed {
            for i in 0..r.len() {
                let _ = r.decode_signal(i);
            }
        }
    }
    let Ok(reader) = Reader::from_bytes("fuzz.pod5", data.to_vec()) else {
        return;
    };
    match recovered {
        Ok((r, fault)) => {
            assert!(fault.is_none(), "a whole file has no fault");
            // Debug forms: NaN fields are equal there, not under PartialEq.
            assert_eq!(format!("{:?}", r.reads()), format!("{:?}", reader.reads()));
        }
        Err(e) => panic!("the recovering open refuses a whole file: {e}"),
    }
    let mut first_error = None;
    for i in 0..reader.len() {
        let read = &reader.reads()[i];
        let chunks = reader.chunks(i).expect("an index in range");
        assert_eq!(chunks.iter().map(|c| c.samples).sum::<u64>(), read.info.num_samples);
        let _ = reader.find(&read.read_id_string());
        let one = reader.decode_signal(i);
        let mut buf = vec![0i16; 2];
        let into = reader.decode_signal_into(i, &mut buf);
        match (&one, &into) {
            (Ok(s), Ok(())) => assert_eq!(&buf[2..], &s[..]),
            (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string()),
            _ => panic!("decode paths disagree on read {i}"),
        }
        if let Err(e) = one {
            first_error.get_or_insert(e.to_string());
        }
    }
    let par = reader.for_each_parallel(svb_vbz::Threads::Current, |_, _, _| {});
    assert_eq!(par.err().map(|e| e.to_string()), first_error);
});
