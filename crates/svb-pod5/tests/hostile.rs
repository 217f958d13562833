//! Crafted POD5 input that is valid everywhere except one declared size: each is a
//! typed error naming where, with a peak allocation under 64 MiB (counted by the global
//! allocator of this test binary). The files are built here by svb-testdata.

use svb_pod5::{Access, Pod5Error, Reader, TableKind};
use svb_testdata::alloc::{peak_during, Counting};
use svb_testdata::pod5::{TestFile, TestRead};
use svb_testdata::zstd_lying_frame as lying_frame;
use svb_vbz::Threads;

#[global_allocator]
static ALLOC: Counting = Counting;

const LIMIT: usize = 64 << 20;

fn temp_path(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("svb-hostile-{}-{name}", std::process::id()))
}

/// Opens `bytes` every way a caller can: in memory, and from a file read whole and by
/// positioned reads.
fn open_every_way(name: &str, bytes: &[u8]) -> Vec<Result<Reader, Pod5Error>> {
    let path = temp_path(name);
    std::fs::write(&path, bytes).unwrap();
    let out = vec![
        Reader::from_bytes(name, bytes.to_vec()),
        Reader::open_with(&path, Access::ReadWhole),
        Reader::open_with(&path, Access::ReadAt),
    ];
    std::fs::remove_file(path).unwrap();
    out
}

/// Case 1: an uncompressed row whose `samples` says 0xF0000000 (and `num_samples` to match)
/// for a list of 1000 samples is refused at open, naming the signal table and row.
#[test]
fn uncompressed_row_whose_samples_column_lies() {
    let mut read = TestRead::new(1, (0..1000).map(|i| i as i16).collect());
    read.chunk_samples_override = Some(vec![0xF000_0000]);
    read.num_samples_override = Some(0xF000_0000);
    let bytes = TestFile {
        reads: vec![read],
        chunk_samples: 102_400,
        signal_batch_rows: 100,
        compress: None,
        edit: None,
    }
    .write();
    for r in open_every_way("uncompressed.pod5", &bytes) {
        let (r, peak) = peak_during(|| r.map(|reader| reader.decode_signal(0)));
        assert!(peak < LIMIT, "peak {peak}");
        match r {
            Err(e @ Pod5Error::Row { table: TableKind::Signal, row: 0, .. }) => {
                let s = e.to_string();
                assert!(s.contains("uncompressed.pod5") && s.contains("says 4026531840"), "{s}");
            }
            other => panic!("{other:?}"),
        }
    }
}

/// Case 2: a read listing one 1M-sample chunk 4000 times (num_samples 4e9) is refused at
/// open, naming the read.
#[test]
fn vbz_read_listing_one_chunk_many_times() {
    let signal: Vec<i16> = (0..1 << 20).map(|i| (i % 7) as i16).collect();
    let mut read = TestRead::new(2, signal);
    read.signal_rows_override = Some(vec![0; 4000]);
    read.num_samples_override = Some(4000 << 20);
    let compress = |s: &[i16]| svb_vbz::pod5_blob::compress_signal(s);
    let bytes = TestFile {
        reads: vec![read],
        chunk_samples: 1 << 20,
        signal_batch_rows: 100,
        compress: Some(&compress),
        edit: None,
    }
    .write();
    for r in open_every_way("repeated.pod5", &bytes) {
        let (r, peak) = peak_during(|| r.map(|reader| reader.decode_signal(0)));
        assert!(peak < LIMIT, "peak {peak}");
        match r {
            Err(e @ Pod5Error::Row { table: TableKind::Reads, row: 0, .. }) => {
                let s = e.to_string();
                assert!(s.contains("signal row 0 is listed twice"), "{s}");
                assert!(s.contains("02020202-0202-0202-0202-020202020202"), "{s}");
            }
            other => panic!("{other:?}"),
        }
    }
}

/// Case 3, POD5 reader: one chunk whose zstd header (and `samples`) claim 2^30 samples in a
/// 100 KB frame that holds 100 KB. Every decode path fails naming the read and signal row,
/// without allocating the claimed 2 GiB.
#[test]
fn vbz_chunk_whose_frame_header_lies() {
    let n = 1u64 << 30;
    let declared = n + n / 8; // the smallest svb16 stream of n samples
    let blob = lying_frame(100_000, declared);
    let mut read = TestRead::new(3, vec![0; 10]);
    read.chunk_samples_override = Some(vec![n as u32]);
    read.num_samples_override = Some(n);
    let compress = |_: &[i16]| blob.clone();
    let bytes = TestFile {
        reads: vec![read, TestRead::new(4, vec![5; 100])],
        chunk_samples: 102_400,
        signal_batch_rows: 100,
        compress: Some(&compress),
        edit: None,
    }
    .write();
    for reader in open_every_way("lying-frame.pod5", &bytes) {
        let reader = reader.unwrap();
        let check = |r: Result<(), Pod5Error>| match r {
            Err(e @ Pod5Error::Signal { row: 0, signal_row: 0, .. }) => {
                assert!(e.to_string().contains("03030303-0303"), "{e}");
                // The codec's error is the source, its text not repeated in the error's own.
                let source = std::error::Error::source(&e).expect("the codec's error");
                assert!(
                    matches!(
                        source.downcast_ref::<svb_pod5::SignalError>(),
                        Some(svb_pod5::SignalError::Vbz(svb_vbz::VbzError::Zstd(_)))
                    ),
                    "{source}"
                );
                assert!(!e.to_string().contains("zstd"), "{e}");
            }
            other => panic!("{other:?}"),
        };
        let (r, peak) = peak_during(|| reader.decode_signal(0).map(drop));
        assert!(peak < LIMIT, "decode_signal peak {peak}");
        check(r);
        let mut out = vec![7i16; 3];
        let (r, peak) = peak_during(|| reader.decode_signal_into(0, &mut out));
        assert!(peak < LIMIT, "decode_signal_into peak {peak}");
        check(r);
        assert_eq!(out, [7, 7, 7]);
        let (r, peak) = peak_during(|| reader.for_each_parallel(Threads::Current, |_, _, _| {}));
        assert!(peak < LIMIT, "for_each_parallel peak {peak}");
        check(r);
    }
}

/// The bound is on what the input can justify, not a cap: a real chunk of 40M samples of a
/// flat signal (a few KB of zstd) still decodes, every way.
#[test]
fn highly_compressible_chunks_still_decode() {
    let signal = vec![480i16; 40 << 20];
    let blob = svb_vbz::pod5_blob::compress_signal(&signal);
    assert!(blob.len() < 100_000);
    assert_eq!(svb_vbz::pod5_blob::decompress_signal_to_vec(&blob, signal.len()).unwrap(), signal);
    let compress = |s: &[i16]| svb_vbz::pod5_blob::compress_signal(s);
    let bytes = TestFile {
        reads: vec![TestRead::new(9, signal.clone())],
        chunk_samples: 20 << 20,
        signal_batch_rows: 100,
        compress: Some(&compress),
        edit: None,
    }
    .write();
    for reader in open_every_way("flat.pod5", &bytes) {
        let reader = reader.unwrap();
        assert_eq!(reader.decode_signal(0).unwrap(), signal);
        let seen = std::sync::atomic::AtomicBool::new(false);
        reader
            .for_each_parallel(Threads::Current, |_, _, s| {
                assert!(s == &signal[..]);
                seen.store(true, std::sync::atomic::Ordering::Relaxed);
            })
            .unwrap();
        assert!(seen.into_inner());
    }
}

/// Case 4: a file opened for positioned reads and then rewritten in place (every byte of its
/// tables, the signal offsets among them) or truncated gives errors or other samples, never
/// a crash; a file read whole at open is not affected at all.
#[test]
fn a_file_changed_after_open_gives_errors_not_crashes() {
    let reads: Vec<TestRead> = (0..6u8)
        .map(|r| {
            TestRead::new(r, (0..150_000).map(|i| ((i * (r as i32 + 3)) % 900) as i16).collect())
        })
        .collect();
    let compress = |s: &[i16]| svb_vbz::pod5_blob::compress_signal(s);
    for compress in [Some(&compress as &svb_testdata::pod5::Compress<'_>), None] {
        let bytes = TestFile {
            reads: reads.clone(),
            chunk_samples: 40_000,
            signal_batch_rows: 3,
            compress,
            edit: None,
        }
        .write();
        let path =
            temp_path(if compress.is_some() { "changed-vbz.pod5" } else { "changed-raw.pod5" });
        std::fs::write(&path, &bytes).unwrap();
        let at = Reader::open_with(&path, Access::ReadAt).unwrap();
        let whole = Reader::open_with(&path, Access::ReadWhole).unwrap();
        let good: Vec<Vec<i16>> = (0..at.len()).map(|i| at.decode_signal(i).unwrap()).collect();
        // Every byte between the leading marker and the footer flipped.
        let footer_at = bytes.windows(8).rposition(|w| w == b"FOOTER\0\0").unwrap();
        let mut flipped = bytes.clone();
        for b in &mut flipped[24..footer_at] {
            *b ^= 0xA5;
        }
        std::fs::write(&path, &flipped).unwrap();
        let mut changed = 0;
        for (i, good) in good.iter().enumerate() {
            match at.decode_signal(i) {
                Ok(s) => changed += usize::from(&s != good),
                Err(e) => {
                    changed += 1;
                    assert!(e.to_string().contains("changed-"), "{e}");
                }
            }
            assert_eq!(&whole.decode_signal(i).unwrap(), good);
        }
        assert_eq!(changed, good.len());
        let _ = at.for_each_parallel(Threads::Current, |_, _, _| {});
        // Truncated to a quarter: the chunks past the cut are I/O errors naming their row.
        std::fs::write(&path, &bytes[..bytes.len() / 4]).unwrap();
        let e = at.decode_signal(at.len() - 1).unwrap_err();
        assert!(e.to_string().contains("signal table, row"), "{e}");
        assert!(
            e.to_string().contains("run past the end")
                || e.to_string().contains("fill whole buffer"),
            "{e}"
        );
        assert!(at.for_each_parallel(Threads::Current, |_, _, _| {}).is_err());
        std::fs::remove_file(&path).unwrap();
    }
}

/// A read longer than `for_each_parallel`'s window is decoded a window of chunks at a time
/// (and a chunk longer than a window alone): the same samples as every other path, between
/// shorter reads.
#[test]
fn reads_longer_than_a_window_decode_the_same_every_way() {
    let compress = |s: &[i16]| svb_vbz::pod5_blob::compress_signal(s);
    let long = |seed: u8, n: usize| {
        TestRead::new(
            seed,
            (0..n).map(|i| ((i * (seed as usize + 7)) % 1013) as i16 - 500).collect(),
        )
    };
    for chunk_samples in [1 << 20, 3 << 20, 5 << 20] {
        let reads = vec![long(1, 1000), long(2, 9_500_000), long(3, 20), long(4, 4 << 20)];
        let bytes = TestFile {
            reads: reads.clone(),
            chunk_samples,
            signal_batch_rows: 3,
            compress: Some(&compress),
            edit: None,
        }
        .write();
        let reader = Reader::from_bytes("long.pod5", bytes).unwrap();
        let seen = std::sync::Mutex::new(vec![false; reads.len()]);
        reader
            .for_each_parallel(Threads::Current, |i, _, s| {
                assert!(s == &reads[i].signal[..], "read {i}, chunks of {chunk_samples}");
                seen.lock().unwrap()[i] = true;
            })
            .unwrap();
        assert!(seen.into_inner().unwrap().iter().all(|&s| s));
        for (i, r) in reads.iter().enumerate() {
            assert!(reader.decode_signal(i).unwrap() == r.signal);
        }
    }
}
