//! Damaged FAST5 files: truncated anywhere, bytes flipped, never a panic; an error names the
//! file, and what a read gives is either an error or the values of the intact file; memory
//! stays bounded by what the bytes hold.

use svb_fast5::Reader;

#[global_allocator]
static A: svb_testdata::alloc::Counting = svb_testdata::alloc::Counting;

fn load(name: &str) -> Option<Vec<u8>> {
    Some(std::fs::read(svb_testdata::data_dir()?.join("fast5").join(name)).unwrap())
}

/// Every read's fields and signal, or the first error's text.
fn read_all(bytes: Vec<u8>) -> Result<Vec<(String, Vec<i16>)>, String> {
    let r = Reader::from_bytes("broken.fast5", bytes).map_err(|e| e.to_string())?;
    (0..r.len())
        .map(|i| {
            let read = r.read(i).map_err(|e| e.to_string())?;
            let signal = r.signal(i).map_err(|e| e.to_string())?;
            Ok((format!("{read:?}"), signal))
        })
        .collect()
}

const FILES: [&str; 3] = [
    "vbz_compression__multi_fast5_vbz.fast5",
    "pod5-file-format__multi_fast5_zip.fast5",
    "pod5-file-format__single_read_fast5__fe85b517-62ee-4a33-8767-41cab5d5ab39.fast5.single-read.fast5",
];

#[test]
#[ignore = "needs the shared test data (../shared/data or SVB_TEST_DATA); run with --include-ignored"]
fn truncation_anywhere_is_an_error_naming_the_file() {
    for name in FILES {
        let Some(bytes) = load(name) else { return };
        let step = (bytes.len() / 23).max(1);
        for cut in (0..bytes.len()).step_by(step).chain([bytes.len() - 1]) {
            let ((), peak) = svb_testdata::alloc::peak_during(|| {
                if let Err(e) = read_all(bytes[..cut].to_vec()) {
                    assert!(e.starts_with("broken.fast5"), "{name} cut {cut}: {e}");
                }
            });
            // The copy of the input, plus at most the intact file's signal and tables.
            assert!(peak < 8 * bytes.len() + (16 << 20), "{name} cut {cut}: peak {peak}");
        }
    }
}

#[test]
#[ignore = "needs the shared test data (../shared/data or SVB_TEST_DATA); run with --include-ignored"]
fn flipped_bytes_give_errors_or_the_intact_values() {
    for name in FILES {
        let Some(bytes) = load(name) else { return };
        let good = read_all(bytes.clone()).unwrap();
        let mut rng = svb_testdata::Rng(0x5eed_f457);
        for _ in 0..60 {
            let mut bad = bytes.clone();
            let at = (rng.next() % bad.len() as u64) as usize;
            bad[at] ^= 1 << (rng.next() % 8);
            let ((), peak) = svb_testdata::alloc::peak_during(|| match read_all(bad) {
                Err(e) => assert!(e.starts_with("broken.fast5"), "{name} byte {at}: {e}"),
                // A flip in padding, unused space or a value: the reader cannot tell, but it
                // reads as many reads as there are.
                Ok(reads) => assert_eq!(reads.len(), good.len(), "{name} byte {at}"),
            });
            assert!(peak < 8 * bytes.len() + (16 << 20), "{name} byte {at}: peak {peak}");
        }
    }
}

#[test]
#[ignore = "needs the shared test data (../shared/data or SVB_TEST_DATA); run with --include-ignored"]
fn not_hdf5_and_no_reads_are_typed_errors() {
    let e = Reader::from_bytes("x.fast5", b"POD5 or anything".to_vec()).unwrap_err();
    assert!(matches!(e, svb_fast5::Fast5Error::Hdf5 { .. }), "{e:?}");
    assert!(e.to_string().starts_with("x.fast5"), "{e}");
    let Some(empty) = load("slow5tools__f2s__err_fast5__empty_fast5.fast5") else { return };
    let e = Reader::from_bytes("empty.fast5", empty).unwrap_err();
    assert!(matches!(e, svb_fast5::Fast5Error::NotFast5 { .. }), "{e:?}");
    let Some(one) = load(FILES[0]) else { return };
    let r = Reader::from_bytes("one.fast5", one).unwrap();
    let e = r.signal(r.len()).unwrap_err();
    assert!(e.to_string().contains("no read 10"), "{e}");
}
