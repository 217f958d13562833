//! `--keep-going` of `svb subset` and `svb convert`: without it the first bad input stops the
//! command and leaves no output; with it the bad input is named, the others are written, and
//! the exit status is 1.

mod common;
use common::{fails, s, svb};
use std::path::Path;
use svb_testdata::TempDir;

#[svb_testdata::data_test]
fn subset_and_convert_go_past_a_bad_input(d: &Path, tmp: &TempDir) {
    let good = d.join("pod5/multi_fast5_zip.pod5");
    let bad = tmp.join("bad.pod5");
    std::fs::write(&bad, b"\x8bPOD\r\n\x1a\n truncated").unwrap();
    let r = svb_pod5::Reader::open(&good).unwrap();
    let ids: Vec<String> = r.reads().iter().map(|x| x.read_id_string()).collect();
    let list = tmp.join("ids.txt");
    std::fs::write(&list, ids.join("\n")).unwrap();

    // subset: stops without --keep-going, nothing written.
    let out = tmp.join("picked.pod5");
    let run = svb(&["subset", s(&bad), s(&good), "--read-ids", s(&list), "-o", s(&out)]);
    assert!(fails(&run).contains("bad.pod5"));
    assert!(!out.exists());
    // With it: the good file's reads, the bad one named, status 1.
    let run =
        svb(&["subset", s(&bad), s(&good), "--read-ids", s(&list), "-o", s(&out), "--keep-going"]);
    assert_eq!(run.status.code(), Some(1));
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(err.contains("left out") && err.contains("bad.pod5"), "{err}");
    let picked = svb_pod5::Reader::open(&out).unwrap();
    assert_eq!(picked.len(), ids.len());

    // convert: the same.
    let b5 = tmp.join("all.blow5");
    let run = svb(&["convert", s(&bad), s(&good), "-o", s(&b5)]);
    assert!(!run.status.success());
    assert!(!b5.exists());
    let run = svb(&["convert", s(&bad), s(&good), "-o", s(&b5), "--keep-going"]);
    assert_eq!(run.status.code(), Some(1));
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(err.contains("left out") && err.contains("bad.pod5"), "{err}");
    assert_eq!(svb_blow5::Reader::open(&b5).unwrap().len(), ids.len());

    // One output per input: the bad input has none, the good one its own.
    let dir = tmp.join("each");
    let run = svb(&["convert", s(&bad), s(&good), "-o", s(&dir), "--to", "blow5", "--keep-going"]);
    assert_eq!(run.status.code(), Some(1));
    let names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["multi_fast5_zip.blow5"]);
}

#[svb_testdata::data_test]
fn subset_goes_past_a_damaged_read(d: &Path, tmp: &TempDir) {
    // The shared records with uncompressed records (so that a damaged field leaves the read
    // id readable: the index finds it) and SVB-ZD signal.
    let shared = svb_blow5::Reader::open(d.join("blow5/reads_zstd_svb_zd.blow5")).unwrap();
    let src = tmp.join("plain.blow5");
    let options = svb_blow5::WriteOptions {
        record_compression: svb_blow5::RecordCompression::None,
        signal_compression: svb_blow5::SignalCompression::SvbZd,
        ..svb_blow5::WriteOptions::default()
    };
    let mut w =
        svb_blow5::Writer::create(&src, svb_blow5::Schema::of(shared.header()), options).unwrap();
    let records: Vec<svb_blow5::Record> = shared.records().collect::<Result<_, _>>().unwrap();
    w.add_records(&records).unwrap();
    w.finish().unwrap();
    let r = svb_blow5::Reader::open(&src).unwrap();
    let ids: Vec<String> = records.iter().map(|x| x.read_id.clone()).collect();
    // Record 3's sample count made larger than its signal bytes can hold.
    let mut bytes = std::fs::read(&src).unwrap();
    svb_testdata::blow5::set_sample_count(&mut bytes, r.record_span(3).unwrap(), &ids[3], 1 << 40);
    let bad = tmp.join("damaged.blow5");
    std::fs::write(&bad, &bytes).unwrap();
    let list = tmp.join("ids.txt");
    std::fs::write(&list, ids.join("\n")).unwrap();
    let out = tmp.join("picked.blow5");
    let run = svb(&["subset", s(&bad), "--read-ids", s(&list), "-o", s(&out), "--keep-going"]);
    let err = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(1), "{err}");
    assert!(err.contains("left out"), "{err}");
    let picked = svb_blow5::Reader::open(&out).unwrap();
    assert_eq!(picked.len(), ids.len() - 1);
}
