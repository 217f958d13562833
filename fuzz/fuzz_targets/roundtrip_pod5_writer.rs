#![no_main]
//! Arbitrary signals through the POD5 writer (VBZ or uncompressed, and the chunk and batch
//! sizes, chosen by the first two bytes), read back by our reader: every read and every
//! sample as written. A read the writer refuses is a typed error, never a panic.

use libfuzzer_sys::fuzz_target;
use svb_pod5::ZstdProfile;
use svb_pod5::{
    OnExisting, Publish, ReadInfo, Reader, RunInfo, SignalEncoding, WriteOptions, Writer,
};

fuzz_target!(|data: &[u8]| {
    let Some((&[mode, sizes], rest)) = data.split_first_chunk::<2>() else {
        return;
    };
    let signal_encoding =
        if mode & 1 == 0 { SignalEncoding::Vbz } else { SignalEncoding::Uncompressed };
    // Up to six reads: each a u16 LE sample count, then its samples (as far as they go).
    let mut reads = Vec::new();
    let mut at = rest;
    while reads.len() < 6 && at.len() >= 2 {
        let n = u16::from_le_bytes([at[0], at[1]]) as usize;
        let body = &at[2..];
        let take = (2 * n).min(body.len() & !1);
        let signal: Vec<i16> =
            body[..take].chunks_exact(2).map(|c| i16::from_le_bytes([c[0], c[1]])).collect();
        at = &body[take..];
        // Ids repeat when the mode says so: the writer refuses the duplicate.
        let id = if mode & 2 != 0 { reads.len() % 2 } else { reads.len() };
        let mut read = ReadInfo::new([id as u8; 16], "fuzz");
        read.num_samples = signal.len() as u64;
        read.channel = u32::from(sizes) << 9;
        reads.push((read, signal));
    }
    let path = std::env::temp_dir().join(format!("svb-fuzz-writer-{}.pod5", std::process::id()));
    let options = WriteOptions {
        signal_encoding,
        chunk_samples: 1 + usize::from(sizes % 64) * 37,
        signal_batch_rows: 1 + usize::from(sizes / 64),
        read_batch_rows: 1 + usize::from(mode >> 5),
        zstd_profile: if mode & 5 == 4 { ZstdProfile::DecodeFast } else { ZstdProfile::Standard },
        // The path is this process's, reused run after run; the file need not reach the disk.
        publish: Publish { sync: false, on_existing: OnExisting::Replace },
        ..WriteOptions::default()
    };
    let mut w = Writer::create(&path, options).unwrap();
    let run = RunInfo { acquisition_id: "fuzz".into(), ..RunInfo::default() };
    w.add_run_info(&run).unwrap();
    let mut written = Vec::new();
    for (r, s) in &reads {
        // Stored chunks (compressed here, copied by the writer) when the mode says so.
        let added = if signal_encoding == SignalEncoding::Vbz && mode & 8 != 0 {
            let blobs: Vec<(u32, Vec<u8>)> = s
                .chunks(1 + usize::from(sizes % 64) * 37)
                .map(|c| (c.len() as u32, svb_vbz::pod5_blob::compress_signal(c)))
                .collect();
            let refs: Vec<(u32, &[u8])> = blobs.iter().map(|(n, b)| (*n, b.as_slice())).collect();
            w.add_read_stored_chunks(r, &refs)
        } else {
            w.add_read(r, s)
        };
        match added {
            Ok(()) => written.push((r, s)),
            Err(e) => assert!(written.iter().any(|(w, _)| w.read_id == r.read_id), "{e}"),
        }
    }
    assert_eq!(w.finish().unwrap(), written.len() as u64);
    let back = Reader::open(&path).unwrap();
    assert_eq!(back.len(), written.len());
    for (i, (want, signal)) in written.iter().enumerate() {
        assert_eq!(back.reads()[i].info.read_id, want.read_id);
        assert_eq!(back.reads()[i].info.channel, want.channel);
        assert_eq!(&back.decode_signal(i).unwrap(), *signal);
    }
    let _ = std::fs::remove_file(&path);
});
