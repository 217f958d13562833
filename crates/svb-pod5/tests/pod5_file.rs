//! POD5 files written by ONT's pod5 (../shared/data/pod5): every read's metadata, chunk
//! layout and signal (sha256 of the int16 LE samples) match the json made by ONT's Python API,
//! whichever decode path is used; the stored VBZ chunks of the current writer are exactly
//! what `pod5_blob::compress_signal` writes.

use serde_json::Value;
use sha2::{Digest, Sha256};
use std::path::Path;
use svb_pod5::{Reader, SignalEncoding, TableVersion};
use svb_testdata::{data_dir, read_i16s};
use svb_vbz::Threads;

fn sha256_hex(signal: &[i16]) -> String {
    let mut h = Sha256::new();
    for s in signal {
        h.update(s.to_le_bytes());
    }
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

fn json(path: &std::path::Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// Decodes every read three ways (to a slice, appended to a vector, in parallel) and checks
/// they agree; returns the signals.
fn decode_all(reader: &Reader) -> Vec<Vec<i16>> {
    let mut signals = Vec::new();
    for (i, read) in reader.reads().iter().enumerate() {
        let mut a = vec![0i16; read.info.num_samples as usize];
        reader.decode_signal_to_slice(i, &mut a).unwrap();
        let mut b = vec![7i16; 3];
        reader.decode_signal_into(i, &mut b).unwrap();
        assert_eq!(&b[..3], &[7, 7, 7]);
        assert_eq!(&b[3..], &a[..]);
        signals.push(a);
    }
    let parallel = std::sync::Mutex::new(vec![None; reader.len()]);
    reader
        .for_each_parallel(Threads::Current, |i, read, signal| {
            assert_eq!(signal.len() as u64, read.info.num_samples);
            parallel.lock().unwrap()[i] = Some(signal.to_vec());
        })
        .unwrap();
    let parallel: Vec<Vec<i16>> =
        parallel.into_inner().unwrap().into_iter().map(Option::unwrap).collect();
    assert_eq!(parallel, signals);
    signals
}

#[svb_testdata::data_test]
fn current_writer_matches_the_python_api(dir: &Path) {
    let path = dir.join("pod5/multi_fast5_zip.pod5");
    let reader = Reader::open(&path).unwrap();
    let manifest = json(&dir.join("pod5/multi_fast5_zip.json"));
    let want = manifest["reads"].as_array().unwrap();
    assert_eq!(reader.len(), want.len());
    assert_eq!(reader.len(), 10);
    assert_eq!(reader.footer().pod5_version, "0.3.49");
    assert_eq!(reader.table_version(), TableVersion::V1OrLater);
    assert_eq!(reader.signal_encoding(), SignalEncoding::Vbz);
    assert_eq!(reader.signal_rows().unwrap(), 22);
    assert_eq!(reader.chunk_count(), 22);
    assert_eq!(reader.run_infos().len(), 1);
    let signals = decode_all(&reader);
    for (i, w) in want.iter().enumerate() {
        let id = w["read_id"].as_str().unwrap();
        assert_eq!(reader.find(id), Some(i), "{id}");
        let read = reader.read_by_id(id).unwrap();
        assert_eq!(read.read_id_string(), id);
        let counts = ["num_samples", "read_number", "channel", "start_sample"];
        assert_counts(read, w, &counts, id);
        assert_eq!(
            read.info.calibration_offset as f64,
            w["calibration"]["offset"].as_f64().unwrap()
        );
        assert_eq!(read.info.calibration_scale as f64, w["calibration"]["scale"].as_f64().unwrap());
        assert_eq!(&*read.info.run_info, reader.run_infos()[0].acquisition_id.as_str());
        assert_eq!(sha256_hex(&signals[i]), w["signal_sha256"].as_str().unwrap(), "{id}");
        let expected_file = read_i16s(
            &std::fs::read(dir.join(format!("pod5/multi_fast5_zip.signal/{id}.i16"))).unwrap(),
        );
        assert_eq!(signals[i], expected_file, "{id}");

        let chunks = reader.chunks(i).unwrap();
        let want_chunks = w["chunks"].as_array().unwrap();
        assert_eq!(chunks.len(), want_chunks.len(), "{id}");
        let mut at = 0usize;
        for (c, wc) in chunks.iter().zip(want_chunks) {
            assert_eq!(c.samples, wc["sample_count"].as_u64().unwrap(), "{id}");
            assert_eq!(c.stored_bytes, wc["byte_count"].as_u64().unwrap(), "{id}");
            // The current writer's chunks are our compressor's bytes exactly.
            let n = c.samples as usize;
            let ours = svb_vbz::pod5_blob::compress_signal(&signals[i][at..at + n]);
            assert_eq!(ours.len() as u64, c.stored_bytes, "{id} row {}", c.row);
            at += n;
        }
    }
    assert!(reader.find("00000000-0000-0000-0000-000000000000").is_none());
    assert!(reader.find("not a uuid").is_none());
}

/// The older writers: table version 4 (flat columns) and version 0 (dictionaries of
/// structs, no run-info table), checked against ONT's expectations for the same 10 reads.
#[svb_testdata::data_test]
fn older_writers_match_their_expectations(dir: &Path) {
    let expected = json(&dir.join("pod5/multi_fast5_zip_v4.expected.json"));
    let want = expected["reads"].as_array().unwrap();
    for (name, version) in [
        ("multi_fast5_zip_v4.pod5", TableVersion::V1OrLater),
        ("multi_fast5_zip_v0.pod5", TableVersion::V0),
    ] {
        let reader =
            Reader::from_bytes(name, std::fs::read(dir.join("pod5").join(name)).unwrap()).unwrap();
        assert_eq!(reader.table_version(), version, "{name}");
        assert_eq!(reader.len(), want.len(), "{name}");
        assert_eq!(reader.run_infos().len(), 1, "{name}");
        let signals = decode_all(&reader);
        for w in want {
            let id = w["read_id"].as_str().unwrap();
            let i = reader.find(id).unwrap_or_else(|| panic!("{name}: {id} missing"));
            let read = &reader.reads()[i];
            let s = &signals[i];
            assert_eq!(read.info.num_samples, w["num_samples"].as_u64().unwrap(), "{name} {id}");
            assert_eq!(sha256_hex(s), w["signal_sha256_i16le"].as_str().unwrap(), "{name} {id}");
            let first: Vec<i64> = s.iter().take(16).map(|&v| v as i64).collect();
            let want_first: Vec<i64> =
                w["first16"].as_array().unwrap().iter().map(|v| v.as_i64().unwrap()).collect();
            assert_eq!(first, want_first, "{name} {id}");
            assert_eq!(s.iter().map(|&v| v as i64).sum::<i64>(), w["sum"].as_i64().unwrap());
            let counts = ["channel", "well", "read_number", "start_sample"];
            assert_counts(read, w, &counts, &format!("{name} {id}"));
            let cal = w["calibration"].as_array().unwrap();
            assert_eq!(
                read.info.calibration_offset as f64,
                cal[0].as_f64().unwrap(),
                "{name} {id}"
            );
            assert_eq!(read.info.calibration_scale as f64, cal[1].as_f64().unwrap(), "{name} {id}");
            assert_eq!(
                &*read.info.run_info,
                reader.run_infos()[0].acquisition_id.as_str(),
                "{name}"
            );
            let chunks = reader.chunks(i).unwrap();
            let want_chunks = w["chunks"].as_array().unwrap();
            assert_eq!(chunks.len(), want_chunks.len(), "{name} {id}");
            for (c, wc) in chunks.iter().zip(want_chunks) {
                assert_eq!(c.samples, wc["samples"].as_u64().unwrap(), "{name} {id}");
                if version == TableVersion::V1OrLater {
                    assert_eq!(c.row, wc["row"].as_u64().unwrap(), "{name} {id}");
                    assert_eq!(
                        c.stored_bytes,
                        wc["compressed_len"].as_u64().unwrap(),
                        "{name} {id}"
                    );
                }
            }
        }
    }
}

/// The uncompressed signal layout (`large_list<int16>`), written by ONT's own Python writer
/// from the current file: every read and signal equals the VBZ file's. Needs `python3` with
/// `pod5` (pip install pod5); skipped without it, except under CI=true.
#[test]
#[ignore = "needs the shared test data (../shared/data or SVB_TEST_DATA) and Python with pod5 (pip); run with --include-ignored"]
fn uncompressed_signal_written_by_ont_python_writer() {
    let Some(dir) = data_dir() else { return };
    let Some(python) = svb_testdata::python_with("pod5", "pod5") else { return };
    let src = dir.join("pod5/multi_fast5_zip.pod5");
    let out = std::env::temp_dir().join(format!("svb-uncompressed-{}.pod5", std::process::id()));
    let script = "import sys, pod5\n\
        with pod5.Reader(sys.argv[1]) as r, pod5.Writer(sys.argv[2], \
        signal_compression_type=pod5.SignalType.UncompressedSignal) as w:\n    \
        [w.add_read(rec.to_read()) for rec in r.reads()]\n";
    let _ = std::fs::remove_file(&out);
    let status = std::process::Command::new(&python)
        .args(["-c", script])
        .arg(&src)
        .arg(&out)
        .status()
        .unwrap();
    assert!(status.success());
    let unc = Reader::open(&out).unwrap();
    let vbz = Reader::open(&src).unwrap();
    std::fs::remove_file(&out).unwrap();
    assert_eq!(unc.signal_encoding(), SignalEncoding::Uncompressed);
    assert_eq!(unc.len(), vbz.len());
    let signals = decode_all(&unc);
    for (i, read) in vbz.reads().iter().enumerate() {
        let j = unc.find(&read.read_id_string()).unwrap();
        let u = &unc.reads()[j];
        assert_eq!(u.info.num_samples, read.info.num_samples);
        assert_eq!(u.info.calibration_scale, read.info.calibration_scale);
        assert_eq!(signals[j], vbz.decode_signal(i).unwrap());
        assert!(unc.chunks(j).unwrap().iter().all(|c| c.stored_bytes == 2 * c.samples));
    }
}

/// A reader keeping some reads is the file of those reads: the same reads, fields and
/// signal, in file order, indices counting them alone; every table version.
#[svb_testdata::data_test]
fn open_filtered_keeps_the_wanted_reads(dir: &Path) {
    for name in ["multi_fast5_zip.pod5", "multi_fast5_zip_v4.pod5", "multi_fast5_zip_v0.pod5"] {
        let path = dir.join("pod5").join(name);
        let full = Reader::open(&path).unwrap();
        // Every other read, by id.
        let wanted: Vec<[u8; 16]> =
            full.reads().iter().step_by(2).map(|r| r.info.read_id).collect();
        let some = Reader::open_filtered(&path, |id| wanted.contains(id)).unwrap();
        assert_eq!(some.len(), wanted.len(), "{name}");
        assert_eq!(some.run_infos(), full.run_infos());
        for (k, read) in some.reads().iter().enumerate() {
            let i = full.find(&read.read_id_string()).unwrap();
            assert_eq!(i, 2 * k);
            // Debug text: NaN fields compare equal.
            assert_eq!(format!("{read:?}"), format!("{:?}", full.reads()[i]));
            assert_eq!(some.find(&read.read_id_string()), Some(k));
            assert_eq!(some.decode_signal(k).unwrap(), full.decode_signal(i).unwrap());
        }
        let skipped = full.reads()[1].read_id_string();
        assert_eq!(some.find(&skipped), None);
        let none = Reader::open_filtered(&path, |_| false).unwrap();
        assert!(none.is_empty());
    }
}

/// Each integer field `names` of `read` equals the manifest entry's field of that name.
fn assert_counts(read: &svb_pod5::ReadRow, w: &serde_json::Value, names: &[&str], what: &str) {
    for &name in names {
        let got = match name {
            "num_samples" => read.info.num_samples,
            "read_number" => read.info.read_number.into(),
            "channel" => read.info.channel.into(),
            "well" => read.info.well.into(),
            "start_sample" => read.info.start_sample,
            other => panic!("no integer field {other} in this test"),
        };
        assert_eq!(got, w[name].as_u64().unwrap(), "{what} {name}");
    }
}
