//! slow5lib's index: ours is byte for byte the one pyslow5 (slow5lib) builds for the same
//! file, slow5lib finds every read through ours, ours finds every record; a damaged index is
//! an error, never a panic.

use proptest::prelude::*;
use std::path::Path;
use svb_blow5::{Index, Reader};
use svb_testdata::{data_dir, TempDir};

#[svb_testdata::data_test]
fn finds_every_record_of_every_shared_file(data: &Path) {
    for name in [
        "blow5/reads_zstd_svb_zd.blow5",
        "blow5/reads_none_none.blow5",
        "blow5/slow5tools/example_multi_rg_v0.2.0_zstd_svb-zd.blow5",
    ] {
        let r = Reader::open(data.join(name)).unwrap();
        let index = Index::build(&r).unwrap();
        assert_eq!(index.len(), r.len());
        assert!(index.matches(&r));
        let back = Index::parse(&index.to_bytes()).unwrap();
        assert_eq!(back, index);
        let mut through = Reader::open(data.join(name)).unwrap();
        through.use_index(index.clone());
        for rec in r.records() {
            let rec = rec.unwrap();
            let at = through.find_many(std::slice::from_ref(&rec.read_id)).unwrap()[0].unwrap();
            assert_eq!(through.record(at).unwrap(), rec, "{name}");
        }
        assert_eq!(through.find_many(&["no-such-read".into()]).unwrap(), [None]);
        // The index fitted: the records' ids read to be sure of the miss say nothing else.
        assert_eq!(through.index_note(), None);
    }
}

/// slow5lib builds the index of a copy (pyslow5's get_read does), ours of the same file is
/// the same bytes; and slow5lib reads every record through an index we wrote.
#[test]
#[ignore = "needs the shared test data (../shared/data or SVB_TEST_DATA) and Python with pyslow5 (pip); run with --include-ignored"]
fn the_same_bytes_as_slow5libs_index() {
    let Some(data) = data_dir() else { return };
    let Some(python) = svb_testdata::python_with("pyslow5", "pyslow5") else { return };
    let tmp = TempDir::new("blow5-index");
    for name in ["reads_zstd_svb_zd.blow5", "reads_zlib_svb_zd.blow5"] {
        let theirs = tmp.join(&format!("theirs-{name}"));
        let ours = tmp.join(&format!("ours-{name}"));
        std::fs::copy(data.join("blow5").join(name), &theirs).unwrap();
        std::fs::copy(data.join("blow5").join(name), &ours).unwrap();
        let r = Reader::open(&ours).unwrap();
        let ids: Vec<String> = r.records().map(|x| x.unwrap().read_id).collect();
        Index::build(&r).unwrap().write(&Index::path_for(&ours)).unwrap();
        // slow5lib: builds `theirs`'s index, and fetches every read of `ours` through ours.
        let script = format!(
            "import pyslow5, sys\n\
             s = pyslow5.Open({theirs:?}, 'r'); s.get_read({first:?}); s.close()\n\
             s = pyslow5.Open({ours:?}, 'r')\n\
             for rid in {ids:?}:\n\
             \x20   r = s.get_read(rid)\n\
             \x20   assert r is not None and r['read_id'] == rid, rid\n\
             print('ok')\n",
            theirs = theirs.to_str().unwrap(),
            ours = ours.to_str().unwrap(),
            first = ids[0],
        );
        let o = std::process::Command::new(&python).args(["-c", &script]).output().unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let their_index = std::fs::read(Index::path_for(&theirs)).unwrap();
        let our_index = std::fs::read(Index::path_for(&ours)).unwrap();
        assert_eq!(our_index, their_index, "{name}");
    }
}

#[svb_testdata::data_test]
fn a_damaged_index_is_an_error(data: &Path) {
    let r = Reader::open(data.join("blow5/reads_zstd_svb_zd.blow5")).unwrap();
    let bytes = Index::build(&r).unwrap().to_bytes();
    for cut in [0, 8, 63, 64, 65, 100, bytes.len() - 9, bytes.len() - 1] {
        assert!(Index::parse(&bytes[..cut]).is_err(), "cut at {cut}");
    }
    // An id length that runs past the end.
    let mut long = bytes.clone();
    long[64] = 0xff;
    long[65] = 0xff;
    assert!(Index::parse(&long).is_err());
    // Positions the file does not have: the index does not match, lookups find nothing.
    let mut moved = bytes.clone();
    let first_offset = 64 + 2 + 36;
    moved[first_offset] ^= 1;
    let stale = Index::parse(&moved).unwrap();
    assert!(!stale.matches(&r));
    // Through it, a read is found where the records say, and the note says why.
    let id = r.read_id(0).unwrap();
    let mut r = r;
    r.use_index(stale);
    assert_eq!(r.find_many(&[id]).unwrap(), [Some(0)]);
    assert!(r.index_note().is_some_and(|n| n.contains("does not fit")));
}

proptest! {
    #[test]
    fn any_bytes_parse_or_fail_cleanly(mut bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        let _ = Index::parse(&bytes);
        if bytes.len() >= 72 {
            bytes[..9].copy_from_slice(b"SLOW5IDX\x01");
            let n = bytes.len();
            bytes[n - 8..].copy_from_slice(b"XDI5WOLS");
            let _ = Index::parse(&bytes);
        }
    }
}

/// A fields-only decode gives every field of the full decode and the sample count, for
/// every signal compression.
#[svb_testdata::data_test]
fn fields_without_the_signal(data: &Path) {
    for name in [
        "blow5/reads_none_none.blow5",
        "blow5/reads_zstd_svb_zd.blow5",
        "blow5/reads_zstd_ex_zd.blow5",
        "blow5/slow5tools/p2solo_ulk114_dna.blow5",
    ] {
        let r = Reader::open(data.join(name)).unwrap();
        let mut fields = svb_blow5::Record::default();
        for i in 0..r.len() {
            let full = r.record(i).unwrap();
            let n = r.fields_into(i, &mut fields).unwrap();
            assert_eq!(n, full.raw_signal.len() as u64, "{name} {i}");
            assert!(fields.raw_signal.is_empty());
            fields.raw_signal = full.raw_signal.clone();
            assert_eq!(fields, full, "{name} {i}");
            fields.raw_signal.clear();
        }
    }
}

/// Opened through its index, a file gives the same records as opened in full; an index of
/// another file does not fit and is an error at open; one whose positions fit but whose
/// records moved is an error when a record is read, and a lookup by id through it finds the
/// record that holds the id.
#[svb_testdata::data_test]
fn open_indexed_reads_the_same_records_and_refuses_a_wrong_index(data: &Path, tmp: &TempDir) {
    let files = [
        "blow5/reads_zstd_svb_zd.blow5",
        "blow5/reads_none_none.blow5",
        "blow5/reads_zlib_svb_zd.blow5",
        "blow5/slow5tools/example_multi_rg_v0.2.0_zstd_svb-zd.blow5",
    ];
    let mut indexes = Vec::new();
    for name in files {
        let path = data.join(name);
        let full = Reader::open(&path).unwrap();
        let index = Index::build(&full).unwrap();
        let mut r = Reader::open_indexed(&path, &index).unwrap();
        r.use_index(index.clone());
        assert_eq!(r.len(), full.len());
        for i in 0..r.len() {
            assert_eq!(r.record_span(i), full.record_span(i));
            let want = full.record(i).unwrap();
            assert_eq!(r.record(i).unwrap(), want, "{name} record {i}");
            assert_eq!(r.record_by_id(&want.read_id).unwrap().unwrap(), want);
        }
        indexes.push(index);
    }
    // Another file's index.
    let e = Reader::open_indexed(data.join(files[0]), &indexes[3]).unwrap_err();
    assert!(e.to_string().contains("does not fit"), "{e}");
    // Positions that fit, records that moved: two records of one file swapped in place
    // (same sizes), the index of the original.
    let src = std::fs::read(data.join(files[1])).unwrap();
    let full = Reader::open(data.join(files[1])).unwrap();
    let (a, b) = (full.record_span(0).unwrap(), full.record_span(1).unwrap());
    let mut bytes = src.clone();
    let (a0, a1) = (a.0 as usize, (a.0 + a.1) as usize);
    let (b0, b1) = (b.0 as usize, (b.0 + b.1) as usize);
    let mut swapped = src[b0..b1].to_vec();
    swapped.extend_from_slice(&src[a0..a1]);
    bytes[a0..b1].copy_from_slice(&swapped);
    let moved = tmp.join("moved.blow5");
    std::fs::write(&moved, &bytes).unwrap();
    let r = Reader::open_indexed(&moved, &indexes[1]);
    if a.1 == b.1 {
        // Same sizes: the index fits; the ids it names are not where it says, and a lookup
        // through it gives the record the id is in, saying why.
        let mut r = r.unwrap();
        r.use_index(indexes[1].clone());
        let want = full.record(0).unwrap();
        assert_eq!(r.record_by_id(&want.read_id).unwrap().unwrap(), want);
        assert_eq!(r.find_many(&[want.read_id]).unwrap(), [Some(1)]);
        assert!(r.index_note().is_some_and(|n| n.contains("does not fit")));
    } else {
        // Other sizes: the first record's size field disagrees with the index when read.
        match r {
            Ok(r) => assert!(r.record(0).is_err()),
            Err(e) => assert!(e.to_string().contains("does not fit"), "{e}"),
        }
    }
}

/// A file that holds a read id twice has no index slow5lib can load: none is written for it
/// (slow5tools index refuses it too), the refusal naming the id and both records; the file
/// still reads, and a lookup finds the first record.
#[test]
fn no_index_of_a_file_with_a_read_id_twice() {
    use svb_blow5::{Record, RecordCompression, Schema, SignalCompression, WriteOptions, Writer};
    let tmp = TempDir::new("blow5-index-duplicate");
    let path = tmp.join("twice.blow5");
    let schema = Schema { read_groups: vec![vec![("run_id".into(), "r".into())]], aux: vec![] };
    // Our writer refuses a read id twice: the third record's id is made the first's after.
    let options = WriteOptions {
        record_compression: RecordCompression::None,
        signal_compression: SignalCompression::None,
        ..WriteOptions::default()
    };
    let mut w = Writer::create(&path, schema, options).unwrap();
    for (id, s) in [("read-aa", 1i16), ("read-bb", 2), ("read-cc", 3)] {
        w.add_record(&Record {
            read_id: id.into(),
            digitisation: 8192.0,
            range: 1400.0,
            sampling_rate: 4000.0,
            raw_signal: vec![s; 10],
            ..Record::default()
        })
        .unwrap();
    }
    w.finish().unwrap();
    let mut bytes = std::fs::read(&path).unwrap();
    let at = bytes.windows(7).position(|w| w == b"read-cc").unwrap();
    bytes[at..at + 7].copy_from_slice(b"read-aa");
    std::fs::write(&path, bytes).unwrap();
    let r = Reader::open(&path).unwrap();
    let index = Index::build(&r).unwrap();
    assert_eq!(index.duplicate(), Some(("read-aa", 0, 2)));
    let e = index.write(&Index::path_for(&path)).unwrap_err();
    assert!(e.to_string().contains("read id read-aa is in records 0 and 2"), "{e}");
    assert_eq!(tmp.entries(), ["twice.blow5"]);
    let first = r.record_by_id("read-aa").unwrap().unwrap();
    assert_eq!(first.raw_signal, [1; 10]);
}
