//! BLOW5 files written by slow5lib and slow5tools (../shared/data/blow5): every record's
//! signal matches the expected samples or their sha256; every stored SVB-ZD / ex-zd blob is
//! exactly what our encoders write for its samples.

use serde_json::Value;
use sha2::{Digest, Sha256};
use std::path::Path;
use svb_blow5::Threads;
use svb_blow5::{Access, Reader, SignalCompression};
use svb_testdata::{data_dir, read_i16s};

fn sha256_hex(signal: &[i16]) -> String {
    let mut h = Sha256::new();
    for s in signal {
        h.update(s.to_le_bytes());
    }
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

/// Decodes every record both ways (sequential, parallel), checks re-encoding is byte-exact,
/// and returns the records.
fn read_all(reader: &Reader) -> Vec<svb_blow5::Record> {
    let seq: Vec<_> = reader.records().map(|r| r.unwrap()).collect();
    let par = reader.decode_all(Threads::Current).unwrap();
    assert_eq!(seq, par);
    // Each record through `for_each_parallel` (reused records per worker) is the same record.
    let seen = std::sync::Mutex::new(vec![false; seq.len()]);
    reader
        .for_each_parallel(Threads::Current, |i, r| {
            assert_eq!(r, &seq[i], "record {i}");
            let mut seen = seen.lock().unwrap();
            assert!(!seen[i], "record {i} seen twice");
            seen[i] = true;
        })
        .unwrap();
    assert!(seen.into_inner().unwrap().iter().all(|&s| s));
    // One `Record` reused across every record, largest first and back: nothing is left over
    // from the record decoded before.
    let mut reused = svb_blow5::Record::default();
    let mut order: Vec<usize> = (0..seq.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(seq[i].raw_signal.len()));
    for &i in order.iter().chain(order.iter().rev()) {
        reader.record_into(i, &mut reused).unwrap();
        assert_eq!(reused, seq[i], "record {i} decoded into a reused record");
    }
    let past = reader.record_into(seq.len(), &mut reused).unwrap_err();
    assert!(matches!(past, svb_blow5::Blow5Error::NoRecord { .. }), "{past}");
    for (i, r) in seq.iter().enumerate() {
        let blob = reader.signal_blob(i).unwrap();
        let ours = match reader.header().signal_compression {
            SignalCompression::None => r.raw_signal.iter().flat_map(|s| s.to_le_bytes()).collect(),
            SignalCompression::SvbZd => svb_slow5_signal::svbzd::encode_blob(&r.raw_signal),
            SignalCompression::ExZd => svb_slow5_signal::encode_exzd(&r.raw_signal),
        };
        assert!(ours == blob, "{}: record {i}: re-encoded signal differs", reader.path().display());
        // The 3-pass decoders agree with the fused ones the reader uses.
        match reader.header().signal_compression {
            SignalCompression::SvbZd => {
                let n = svb_slow5_signal::svbzd::blob_samples(&blob).unwrap();
                assert_eq!(svb_slow5_signal::decode_svbzd(&blob[4..], n).unwrap(), r.raw_signal);
            }
            SignalCompression::ExZd => {
                assert_eq!(svb_slow5_signal::decode_exzd(&blob).unwrap(), r.raw_signal);
            }
            SignalCompression::None => {}
        }
    }
    seq
}

#[svb_testdata::data_test]
fn slow5lib_files_with_every_compression_pair(dir: &Path) {
    let manifest: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("blow5/manifest.json")).unwrap())
            .unwrap();
    let files = manifest["files"].as_array().unwrap();
    assert_eq!(files.len(), 4);
    for f in files {
        let name = f["file"].as_str().unwrap();
        let reader = Reader::open(dir.join("blow5").join(name)).unwrap();
        let h = reader.header();
        assert_eq!(h.version, (0, 2, 0), "{name}");
        assert_eq!(
            format!("{:?}", h.record_compression).to_lowercase(),
            f["record_compression"].as_str().unwrap(),
            "{name}"
        );
        let want = match f["signal_compression"].as_str().unwrap() {
            "svb_zd" => SignalCompression::SvbZd,
            "ex_zd" => SignalCompression::ExZd,
            _ => SignalCompression::None,
        };
        assert_eq!(h.signal_compression, want, "{name}");
        let records = read_all(&reader);
        assert_eq!(records.len(), 10, "{name}");
        for r in &records {
            let expected = read_i16s(
                &std::fs::read(
                    dir.join("pod5/multi_fast5_zip.signal").join(format!("{}.i16", r.read_id)),
                )
                .unwrap(),
            );
            assert_eq!(r.raw_signal, expected, "{name} {}", r.read_id);
            assert!(r.digitisation > 0.0 && r.sampling_rate > 0.0);
        }
    }
}

fn check_expected(folder: &str, count_key: &str) {
    let Some(dir) = data_dir() else { return };
    let dir = dir.join("blow5").join(folder);
    let expected: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("expected.json")).unwrap()).unwrap();
    let files = expected["files"].as_array().unwrap();
    assert!(!files.is_empty());
    for f in files {
        let name = f["file"].as_str().unwrap();
        let reader = Reader::open(dir.join(name)).unwrap_or_else(|e| panic!("{e}"));
        if let Some(hex) = f["header_bytes_hex"].as_str() {
            let bytes = std::fs::read(dir.join(name)).unwrap();
            let ours: String = bytes[..hex.len() / 2].iter().map(|b| format!("{b:02x}")).collect();
            assert_eq!(ours, hex, "{name}");
        }
        if let Some(v) = f["version"].as_array() {
            let v: Vec<u8> = v.iter().map(|x| x.as_u64().unwrap() as u8).collect();
            assert_eq!(reader.header().version, (v[0], v[1], v[2]), "{name}");
        }
        let records = read_all(&reader);
        let reads = f["reads"].as_array().unwrap();
        assert_eq!(records.len(), reads.len(), "{name}");
        for (r, e) in records.iter().zip(reads) {
            assert_eq!(r.read_id, e["read_id"].as_str().unwrap(), "{name}");
            assert_eq!(
                r.raw_signal.len() as u64,
                e[count_key].as_u64().unwrap(),
                "{name} {}",
                r.read_id
            );
            let first8: Vec<i16> = e["first8"]
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_i64().unwrap() as i16)
                .collect();
            assert_eq!(r.raw_signal[..first8.len()], first8[..], "{name}");
            assert_eq!(
                sha256_hex(&r.raw_signal),
                e["signal_sha256"].as_str().unwrap(),
                "{name} {}",
                r.read_id
            );
        }
    }
}

#[test]
#[ignore = "needs the shared test data (../shared/data or SVB_TEST_DATA); run with --include-ignored"]
fn older_slow5lib_files() {
    check_expected("slow5lib", "len_raw_signal");
}

#[test]
#[ignore = "needs the shared test data (../shared/data or SVB_TEST_DATA); run with --include-ignored"]
fn slow5tools_files() {
    check_expected("slow5tools", "num_samples");
}

/// Every way of reaching the bytes gives the same records: read whole, positioned reads of
/// each record, and the (unsafe) map.
#[svb_testdata::data_test]
fn every_access_agrees(dir: &Path) {
    for kind in ["zstd_svb_zd", "zstd_ex_zd", "zlib_svb_zd", "none_none"] {
        let path = dir.join("blow5").join(format!("reads_{kind}.blow5"));
        let read = Reader::open(&path).unwrap();
        let a: Vec<_> = read.records().map(|r| r.unwrap()).collect();
        assert_eq!(a.len(), 10, "{kind}");
        let at = Reader::open_with(&path, Access::ReadAt).unwrap();
        assert_eq!(read_all(&at), a, "{kind}");
        // SAFETY: the conformance files are never written.
        let mapped = unsafe { Reader::open_mapped(&path) }.unwrap();
        assert_eq!(mapped.decode_all(Threads::Current).unwrap(), a, "{kind}");
    }
    let empty = std::env::temp_dir().join(format!("svb-empty-{}.blow5", std::process::id()));
    std::fs::write(&empty, b"").unwrap();
    // SAFETY: the empty file is not changed while it is open.
    assert!(unsafe { Reader::open_mapped(&empty) }.is_err());
    assert!(Reader::open(&empty).is_err());
    assert!(Reader::open_with(&empty, Access::ReadAt).is_err());
    std::fs::remove_file(&empty).unwrap();
}

/// A file opened for positioned reads and then rewritten or truncated by someone else gives
/// errors or other records, never a crash.
#[svb_testdata::data_test]
fn a_file_changed_after_open_gives_errors_not_crashes(dir: &Path) {
    for kind in ["zstd_svb_zd", "zlib_svb_zd", "none_none"] {
        let orig = std::fs::read(dir.join("blow5").join(format!("reads_{kind}.blow5"))).unwrap();
        let path =
            std::env::temp_dir().join(format!("svb-changed-{}-{kind}.blow5", std::process::id()));
        std::fs::write(&path, &orig).unwrap();
        let reader = Reader::open_with(&path, Access::ReadAt).unwrap();
        let good: Vec<_> = reader.records().map(|r| r.unwrap()).collect();
        // Every byte after the header flipped in place: each record decodes to something or
        // fails with an error naming it.
        let mut flipped = orig.clone();
        let data_start = reader.header().data_start;
        for b in &mut flipped[data_start..] {
            *b ^= 0x5a;
        }
        std::fs::write(&path, &flipped).unwrap();
        let mut failed = 0;
        for (i, r) in reader.records().enumerate() {
            match r {
                Ok(r) => assert_ne!(r, good[i], "{kind} record {i} unchanged"),
                Err(e) => {
                    failed += 1;
                    assert!(e.to_string().contains(&format!("record {i}")), "{e}");
                }
            }
        }
        assert!(failed > 0, "{kind}");
        let _ = reader.decode_all(Threads::Current);
        // Truncated to half: the records past the cut are I/O errors naming them.
        std::fs::write(&path, &orig[..orig.len() / 2]).unwrap();
        let last = reader.len() - 1;
        let e = svb_testdata::error_chain(&reader.record(last).unwrap_err());
        assert!(e.contains("run past the end") || e.contains("fill whole buffer"), "{e}");
        assert!(e.to_string().contains(&format!("record {last}")), "{e}");
        assert!(reader.for_each_parallel(Threads::Current, |_, _| {}).is_err());
        std::fs::remove_file(&path).unwrap();
    }
}
