//! Every FAST5 file of the conformance data read as h5py with ONT's VBZ plugin reads it (its
//! `manifest.json`): layout, read ids, every sample (sha256, count, first samples) and every
//! mapped attribute; files h5py cannot open, or that hold no reads, refused with a typed error.

use serde_json::Value;
use sha2::{Digest, Sha256};
use svb_fast5::{Fast5Error, Layout, Reader};

fn manifest() -> Option<(std::path::PathBuf, Vec<Value>)> {
    let dir = svb_testdata::data_dir()?.join("fast5");
    let text = std::fs::read_to_string(dir.join("manifest.json")).unwrap();
    let m: Value = serde_json::from_str(&text).unwrap();
    Some((dir, m["files"].as_array().unwrap().clone()))
}

fn sha256(signal: &[i16]) -> String {
    let mut h = Sha256::new();
    for s in signal {
        h.update(s.to_le_bytes());
    }
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

/// A manifest number (`"NaN"` for NaN) as f64.
fn number(v: &Value) -> Option<f64> {
    match v {
        Value::String(s) if s == "NaN" => Some(f64::NAN),
        v => v.as_f64(),
    }
}

fn same_f64(a: f64, b: f64) -> bool {
    a == b || (a.is_nan() && b.is_nan())
}

#[test]
#[ignore = "needs the shared test data (../shared/data or SVB_TEST_DATA); run with --include-ignored"]
fn every_read_of_every_file_as_h5py_reads_it() {
    let Some((dir, files)) = manifest() else { return };
    let mut reads_checked = 0;
    let mut fields_refused = 0;
    for f in &files {
        let name = f["file"].as_str().unwrap();
        let path = dir.join(name);
        let expected = f["reads"].as_array().cloned().unwrap_or_default();
        let opened = Reader::open(&path);
        if expected.is_empty() {
            let e = opened.expect_err(name);
            assert!(
                matches!(e, Fast5Error::Hdf5 { .. } | Fast5Error::NotFast5 { .. }),
                "{name}: {e:?}"
            );
            assert!(e.to_string().contains(name), "{e}");
            continue;
        }
        let r = opened.unwrap_or_else(|e| panic!("{name}: {e}"));
        let layout = match f["layout"].as_str() {
            Some("multi-read") => Layout::MultiRead,
            Some("single-read") => Layout::SingleRead,
            other => panic!("{name}: layout {other:?}"),
        };
        assert_eq!(r.layout(), layout, "{name}");
        assert_eq!(r.len(), expected.len(), "{name}");
        for want in &expected {
            // A file without attributes is known by its group names alone.
            let group = want["group"].as_str().unwrap();
            let id = want["read_id"].as_str().or_else(|| group.strip_prefix("/read_")).unwrap();
            let what = format!("{name} {id}");
            let i = r.find(id).unwrap_or_else(|| panic!("{what}: not found"));
            let signal = r.signal(i).unwrap_or_else(|e| panic!("{what}: {e}"));
            let n = want["num_samples"].as_u64().unwrap_or_else(|| panic!("{what}: {want}"));
            assert_eq!(signal.len() as u64, n, "{what}");
            assert_eq!(sha256(&signal), want["sha256"].as_str().unwrap(), "{what}");
            let first8: Vec<i16> = serde_json::from_value(want["first8"].clone()).unwrap();
            assert_eq!(signal[..first8.len()], first8, "{what}");
            reads_checked += 1;

            // The mapped attributes: equal where h5py gives them all a usable type; where one
            // is missing or mistyped, our reader refuses the read naming that attribute.
            let read = match r.read(i) {
                Ok(read) => read,
                Err(e) => {
                    let Fast5Error::Field { field, .. } = &e else { panic!("{what}: {e:?}") };
                    let attr = field.rsplit('/').next().unwrap();
                    let key = match attr {
                        "channel_number" => "channel",
                        a => a,
                    };
                    let v = &want[key];
                    let usable = match key {
                        "channel" | "run_id" | "read_id" => v.is_string(),
                        // A scalar enum or integer (arrays, of strings or numbers, are refused
                        // as slow5tools refuses them).
                        "end_reason" => !want["end_reason_value"].is_null(),
                        _ => number(v).is_some(),
                    };
                    // An array where writers store a scalar is refused whatever it holds.
                    let array = e.to_string().contains("an array");
                    assert!(!usable || array, "{what}: refused {field} ({e}) but h5py gives {v}");
                    fields_refused += 1;
                    continue;
                }
            };
            assert_eq!(read.read_id, id, "{what}");
            assert_eq!(read.channel_number, want["channel"].as_str().unwrap(), "{what}");
            for (got, key) in [
                (read.digitisation, "digitisation"),
                (read.offset, "offset"),
                (read.range, "range"),
                (read.sampling_rate, "sampling_rate"),
                (read.start_time as f64, "start_time"),
                (read.duration as f64, "duration"),
                (read.read_number as f64, "read_number"),
                (read.start_mux as f64, "start_mux"),
            ] {
                let w = number(&want[key]).unwrap_or_else(|| panic!("{what}: {key}"));
                assert!(same_f64(got, w), "{what}: {key} {got} != {w}");
            }
            match (read.median_before, number(&want["median_before"])) {
                (Some(g), Some(w)) => assert!(same_f64(g, w), "{what}: median_before {g} {w}"),
                (g, w) => assert_eq!(g.is_some(), w.is_some(), "{what}: median_before"),
            }
            let end = read.end_reason.as_ref();
            match &want["end_reason"] {
                Value::Null if want["end_reason_value"].is_null() => {
                    assert!(end.is_none(), "{what}: end_reason {end:?}")
                }
                // A plain integer: a number, no label.
                Value::Null => {
                    let e = end.unwrap_or_else(|| panic!("{what}: no end_reason"));
                    assert_eq!(e.label, None, "{what}");
                    assert_eq!(e.value, want["end_reason_value"].as_i64(), "{what}");
                }
                Value::String(label) if want["end_reason_value"].is_null() => {
                    assert_eq!(end.and_then(|e| e.label.as_deref()), Some(label.as_str()), "{what}")
                }
                Value::String(label) => {
                    let e = end.unwrap_or_else(|| panic!("{what}: no end_reason"));
                    assert_eq!(e.label.as_deref(), Some(label.as_str()), "{what}");
                    assert_eq!(e.value, want["end_reason_value"].as_i64(), "{what}");
                }
                Value::Number(n) => {
                    let e = end.unwrap_or_else(|| panic!("{what}: no end_reason"));
                    assert_eq!(e.value, n.as_i64(), "{what}");
                }
                other => panic!("{what}: end_reason {other}"),
            }
            assert_eq!(read.run_id, want["run_id"].as_str().unwrap(), "{what}");
        }
    }
    assert!(reads_checked >= 90, "{reads_checked} reads");
    println!("{reads_checked} reads checked, {fields_refused} refused for a field");
}
