//! Broken BLOW5 files: every defect gives an error naming the file (and the record), never a
//! panic: truncation anywhere, wrong magic, a size field past the end, a bad end marker, a
//! corrupt record, a signal that fails to decode.

use svb_blow5::Blow5Error;
use svb_blow5::Reader;
use svb_blow5::Threads;
use svb_testdata::data_dir;

fn load(name: &str) -> Option<Vec<u8>> {
    Some(std::fs::read(data_dir()?.join("blow5").join(name)).unwrap())
}

/// Opens and decodes everything; returns the first error.
fn first_error(bytes: Vec<u8>) -> Option<Blow5Error> {
    let reader = match Reader::from_bytes("broken.blow5", bytes) {
        Ok(r) => r,
        Err(e) => return Some(e),
    };
    let seq = reader.records().find_map(|r| r.err());
    let par = reader.decode_all(Threads::Current).err();
    let each = reader.for_each_parallel(Threads::Current, |_, _| {}).err();
    // All three name the same (lowest) failing record.
    assert_eq!(seq.as_ref().map(|e| e.to_string()), par.as_ref().map(|e| e.to_string()));
    assert_eq!(seq.as_ref().map(|e| e.to_string()), each.as_ref().map(|e| e.to_string()));
    seq
}

#[test]
#[ignore = "needs the shared test data (../shared/data or SVB_TEST_DATA); run with --include-ignored"]
fn truncation_anywhere_is_an_error() {
    for name in ["reads_zstd_svb_zd.blow5", "reads_zlib_svb_zd.blow5", "reads_zstd_ex_zd.blow5"] {
        let Some(bytes) = load(name) else { return };
        let step = bytes.len() / 97;
        for cut in (0..bytes.len()).step_by(step).chain([bytes.len() - 1, bytes.len() - 5]) {
            let e =
                first_error(bytes[..cut].to_vec()).unwrap_or_else(|| panic!("{name} cut {cut}"));
            assert!(e.to_string().starts_with("broken.blow5: "), "{e}");
        }
    }
}

#[test]
#[ignore = "needs the shared test data (../shared/data or SVB_TEST_DATA); run with --include-ignored"]
fn each_defect_is_named() {
    let Some(good) = load("reads_zstd_svb_zd.blow5") else { return };
    assert!(first_error(good.clone()).is_none());

    let mut bad = good.clone();
    bad[0] = b'S';
    assert!(matches!(first_error(bad), Some(Blow5Error::Header { .. })));

    let mut bad = good.clone();
    bad[9] = 7; // record compression
    assert!(matches!(first_error(bad), Some(Blow5Error::Header { .. })));

    let mut bad = good.clone();
    let n = bad.len();
    bad[n - 1] = b'X';
    assert!(matches!(first_error(bad), Some(Blow5Error::Eof { .. })));

    let hs = u32::from_le_bytes(good[64..68].try_into().unwrap()) as usize;
    let first = 68 + hs;
    let mut bad = good.clone();
    bad[first..first + 8].copy_from_slice(&u64::MAX.to_le_bytes());
    match first_error(bad) {
        Some(Blow5Error::Record { index: 0, what, .. }) => {
            assert!(what.contains("past the end"), "{what}")
        }
        other => panic!("{other:?}"),
    }

    // A corrupt zstd frame in record 0.
    let mut bad = good.clone();
    for b in &mut bad[first + 8 + 20..first + 8 + 60] {
        *b ^= 0x5a;
    }
    let e = first_error(bad).expect("corrupt record");
    assert!(e.to_string().contains("record 0"), "{e}");

    // A record whose signal fails to decode: rebuild record 0 uncompressed with a broken
    // SVB-ZD blob, in a file without record compression.
    let reader = Reader::from_bytes("good", good.clone()).unwrap();
    let blob = reader.signal_blob(0).unwrap();
    let rec = reader.record(0).unwrap();
    let mut body = Vec::new();
    body.extend((rec.read_id.len() as u16).to_le_bytes());
    body.extend(rec.read_id.as_bytes());
    body.extend(rec.read_group.to_le_bytes());
    for v in [rec.digitisation, rec.offset, rec.range, rec.sampling_rate] {
        body.extend(v.to_le_bytes());
    }
    let broken = &blob[..blob.len() - 3];
    body.extend((broken.len() as u64).to_le_bytes());
    body.extend(broken);
    let mut file = good[..first].to_vec();
    file[9] = 0; // records stored as they are
    file.extend((body.len() as u64).to_le_bytes());
    file.extend(&body);
    file.extend(b"5WOLB");
    match first_error(file) {
        Some(Blow5Error::Signal { index: 0, read_id, .. }) => assert_eq!(read_id, rec.read_id),
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_missing_file_names_its_path() {
    let e = Reader::open("/no/such/file.blow5").unwrap_err();
    assert_eq!(e.to_string(), "/no/such/file.blow5");
    let io = std::error::Error::source(&e).expect("the OS error");
    // Each text once in the chain: the source's is not repeated in the error's own.
    assert_eq!(svb_testdata::error_chain(&e), format!("/no/such/file.blow5: {io}"));
}

/// A signal that fails to decode: the record's error names the file, record and read; its
/// source is the codec's error, whose text is not repeated.
#[test]
fn signal_errors_chain_their_codec_error_once() {
    use svb_testdata::blow5::{write, TestRecord};
    // An SVB-ZD blob declaring 1000 samples in 6 bytes.
    let mut blob = 1000u32.to_le_bytes().to_vec();
    blob.extend([0, 0]);
    let file =
        write(1, &[TestRecord { read_id: "r1", len_raw_signal: blob.len() as u64, signal: &blob }]);
    let e = first_error(file).expect("an error");
    let source = std::error::Error::source(&e).expect("the codec's error").to_string();
    assert!(!e.to_string().contains(&source), "{e}");
    let full = svb_testdata::error_chain(&e);
    assert_eq!(full.matches(&source).count(), 1, "{full}");
    assert!(full.starts_with("broken.blow5: record 0 (r1) at byte"), "{full}");
}

#[global_allocator]
static ALLOC: svb_testdata::alloc::Counting = svb_testdata::alloc::Counting;

/// A zstd record whose frame header declares 3 GB in a 100 KB frame that holds 100 KB: an
/// error naming the record, without reserving what the header declares.
#[test]
#[ignore = "needs the shared test data (../shared/data or SVB_TEST_DATA); run with --include-ignored"]
fn zstd_record_whose_frame_header_lies() {
    let Some(bytes) = load("reads_zstd_svb_zd.blow5") else { return };
    let reader = Reader::from_bytes("x", bytes.clone()).unwrap();
    let data_start = reader.header().data_start;
    let noise = svb_testdata::Rng(0x2545_F491_4F6C_DD1D).bytes(100_000);
    let mut frame = zstd::bulk::compress(&noise, 1).unwrap();
    svb_testdata::zstd_set_content_size(&mut frame, 3 << 30);
    // The first record replaced by the lying frame; the others as they were.
    let first_size = u64::from_le_bytes(bytes[data_start..data_start + 8].try_into().unwrap());
    let rest = data_start + 8 + first_size as usize;
    let mut crafted = bytes[..data_start].to_vec();
    crafted.extend((frame.len() as u64).to_le_bytes());
    crafted.extend(&frame);
    crafted.extend(&bytes[rest..]);
    let (e, peak) = svb_testdata::alloc::peak_during(|| first_error(crafted));
    assert!(peak < 64 << 20, "peak {peak}");
    let e = svb_testdata::error_chain(&e.expect("an error"));
    assert!(e.starts_with("broken.blow5: record 0 at byte"), "{e}");
    assert!(e.contains("zstd"), "{e}");
}
