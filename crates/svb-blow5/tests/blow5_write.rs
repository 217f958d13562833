//! The BLOW5 writer: files slow5lib wrote (../shared/data/blow5) rewritten from their records
//! come out byte for byte (uncompressed records: the whole file; zstd records: the header and
//! every record before compression, the frames differing only by the libzstd version) and
//! record for record with zlib; the signal blobs are slow5lib's in every case. Random records
//! of every auxiliary type round-trip through our reader under every compression; bad records
//! and schemas are typed errors.

use std::path::Path;

use svb_blow5::Blow5WriteError;
use svb_blow5::{
    AuxField, AuxValue, FieldType, OnExisting, Publish, Reader, Record, RecordCompression, Schema,
    SignalCompression, WriteOptions, Writer, ZstdProfile,
};
use svb_testdata::{Rng, TempDir};

fn options_of(r: &Reader) -> WriteOptions {
    WriteOptions {
        record_compression: r.header().record_compression,
        signal_compression: r.header().signal_compression,
        ..WriteOptions::default()
    }
}

/// Rewrites `src` record by record with `options` (a batch of 3, so batches split) into `out`
/// (replacing the last test's).
fn rewrite(src: &Path, out: &Path, options: WriteOptions) -> Vec<Record> {
    let mut options = options;
    options.publish.on_existing = OnExisting::Replace;
    let r = Reader::open(src).unwrap();
    let records: Vec<Record> = r.records().map(|x| x.unwrap()).collect();
    let mut w = Writer::create(out, Schema::of(r.header()), options).unwrap();
    // Half one by one, half in one call.
    let (a, b) = records.split_at(records.len() / 2);
    for rec in a {
        w.add_record(rec).unwrap();
    }
    w.add_records(b).unwrap();
    assert_eq!(w.len(), records.len() as u64);
    assert_eq!(w.finish().unwrap(), records.len() as u64);
    records
}

#[svb_testdata::data_test]
fn slow5lib_files_rewritten_byte_for_byte(data: &Path, tmp: &TempDir) {
    // zlib records: libdeflate and zlib emit other streams, so only the records compare.
    let mut exact = 0;
    for name in [
        "reads_none_none.blow5",
        "reads_zstd_svb_zd.blow5",
        "reads_zstd_ex_zd.blow5",
        "reads_zlib_svb_zd.blow5",
    ] {
        let src = data.join("blow5").join(name);
        let out = tmp.0.join(name);
        let opts = WriteOptions { batch_records: 3, ..options_of(&Reader::open(&src).unwrap()) };
        let zlib = opts.record_compression == RecordCompression::Zlib;
        let records = rewrite(&src, &out, opts);
        let back = Reader::open(&out).unwrap();
        assert_eq!(back.header().read_groups, Reader::open(&src).unwrap().header().read_groups);
        let again: Vec<Record> = back.records().map(|x| x.unwrap()).collect();
        assert_eq!(again, records, "{name}: records");
        // The signal blobs are slow5lib's, byte for byte, whatever the record compression.
        let orig = Reader::open(&src).unwrap();
        for i in 0..records.len() {
            assert_eq!(
                back.signal_blob(i).unwrap(),
                orig.signal_blob(i).unwrap(),
                "{name}: record {i} signal blob"
            );
        }
        if !zlib {
            // The header and every record before compression are slow5lib's bytes; the zstd
            // frames differ only by the libzstd version (slow5lib's level, 1, and flags).
            let (a, b) = (file_parts(&src), file_parts(&out));
            assert_eq!(a.0, b.0, "{name}: header");
            assert_eq!(a.1.len(), b.1.len(), "{name}: records");
            for (i, (x, y)) in a.1.iter().zip(&b.1).enumerate() {
                assert!(x == y, "{name}: record {i}: {} bytes, slow5lib's {}", y.len(), x.len());
            }
            if opts_none(&src) {
                assert!(std::fs::read(&src).unwrap() == std::fs::read(&out).unwrap(), "{name}");
            }
            exact += 1;
        }
    }
    assert_eq!(exact, 3);
}

fn opts_none(path: &Path) -> bool {
    Reader::open(path).unwrap().header().record_compression == RecordCompression::None
}

/// A file's header bytes and its records as stored before record compression (zstd frames
/// inflated), after checking the end-of-file marker.
fn file_parts(path: &Path) -> (Vec<u8>, Vec<Vec<u8>>) {
    let b = std::fs::read(path).unwrap();
    let zstd = b[9] == 2;
    let text = u32::from_le_bytes(b[64..68].try_into().unwrap()) as usize;
    let mut at = 68 + text;
    let mut records = Vec::new();
    while &b[at..at + 5] != b"5WOLB" {
        let n = u64::from_le_bytes(b[at..at + 8].try_into().unwrap()) as usize;
        let raw = &b[at + 8..at + 8 + n];
        records.push(if zstd {
            let size = svb_io::zstd_frame::content_size(raw).unwrap() as usize;
            let mut body = Vec::new();
            svb_io::zstd_frame::decompress_into(raw, size, &mut body).unwrap();
            body
        } else {
            raw.to_vec()
        });
        at += 8 + n;
    }
    assert_eq!(at + 5, b.len());
    (b[..68 + text].to_vec(), records)
}

#[svb_testdata::data_test]
fn slow5tools_files_with_aux_fields_and_read_groups_round_trip(data: &Path, tmp: &TempDir) {
    let dir = data.join("blow5").join("slow5tools");
    let mut files = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let src = entry.unwrap().path();
        if src.extension().is_none_or(|e| e != "blow5") {
            continue;
        }
        let orig = Reader::open(&src).unwrap();
        for (rc, sc) in [
            (RecordCompression::Zstd, SignalCompression::SvbZd),
            (RecordCompression::Zlib, SignalCompression::ExZd),
            (RecordCompression::None, SignalCompression::None),
        ] {
            let out = tmp.0.join("out.blow5");
            let opts = WriteOptions {
                record_compression: rc,
                signal_compression: sc,
                batch_records: 2,
                // Test files need not reach the disk.
                publish: Publish { sync: false, ..Publish::default() },
                ..WriteOptions::default()
            };
            let records = rewrite(&src, &out, opts);
            let back = Reader::open(&out).unwrap();
            assert_eq!(back.header().aux, orig.header().aux, "{}", src.display());
            assert_eq!(back.header().read_groups, orig.header().read_groups);
            assert_eq!(
                (back.header().record_compression, back.header().signal_compression),
                (rc, sc)
            );
            let again: Vec<Record> = back.records().map(|x| x.unwrap()).collect();
            assert_eq!(again, records, "{} {rc:?} {sc:?}", src.display());
        }
        files += 1;
    }
    assert!(files >= 5, "{files} slow5tools files");
}

/// The nine record and signal compression pairs, in batches of `batch_records`, and zstd
/// records under the decode-fast profile with each signal compression.
fn every_compression(batch_records: usize) -> impl Iterator<Item = WriteOptions> {
    let decode_fast = [SignalCompression::None, SignalCompression::SvbZd, SignalCompression::ExZd]
        .map(|signal_compression| WriteOptions {
            record_compression: RecordCompression::Zstd,
            signal_compression,
            batch_records,
            zstd_profile: ZstdProfile::DecodeFast,
            publish: Publish { sync: false, ..Publish::default() },
            ..WriteOptions::default()
        });
    [RecordCompression::None, RecordCompression::Zlib, RecordCompression::Zstd]
        .into_iter()
        .flat_map(move |record_compression| {
            [SignalCompression::None, SignalCompression::SvbZd, SignalCompression::ExZd].map(
                |signal_compression| WriteOptions {
                    record_compression,
                    signal_compression,
                    batch_records,
                    publish: Publish { sync: false, ..Publish::default() },
                    ..WriteOptions::default()
                },
            )
        })
        .chain(decode_fast)
        // SLOW5 text: no compression.
        .chain(std::iter::once(WriteOptions {
            batch_records,
            publish: Publish { sync: false, ..Publish::default() },
            ..WriteOptions::slow5()
        }))
}

/// A schema with a field of every kind, and two read groups.
fn every_kind_schema() -> Schema {
    let scalar = |name: &str, size| FieldType::Scalar { name: name.into(), size };
    let array = |name: &str, size| FieldType::Array { name: name.into(), size };
    let f = |name: &str, ty| AuxField { name: name.into(), ty };
    Schema {
        read_groups: vec![
            vec![("run_id".into(), "run-a".into()), ("flow_cell_id".into(), "FAB1".into())],
            vec![("run_id".into(), "run-b".into())],
        ],
        aux: vec![
            f("channel_number", array("char", 1)),
            f("median_before", scalar("double", 8)),
            f("read_number", scalar("int32_t", 4)),
            f("start_mux", scalar("uint8_t", 1)),
            f("start_time", scalar("uint64_t", 8)),
            f("scale", scalar("float", 4)),
            f("tiny", scalar("int8_t", 1)),
            f("flag", scalar("char", 1)),
            f("events", array("uint16_t", 2)),
            f(
                "end_reason",
                FieldType::Enum(
                    ["unknown", "partial", "mux_change", "unblock_mux_change", "signal_positive"]
                        .map(String::from)
                        .to_vec(),
                ),
            ),
        ],
    }
}

fn random_record(rng: &mut Rng, i: usize, len: usize) -> Record {
    let mut level = 500i16;
    let raw_signal = (0..len)
        .map(|k| {
            let x = rng.next();
            level = if k % 211 == 7 {
                (x >> 20) as i16
            } else {
                level.wrapping_add((x % 41) as i16 - 20)
            };
            level
        })
        .collect();
    let x = rng.next();
    Record {
        read_id: format!("read-{i:05}-{x:x}"),
        read_group: (i % 2) as u32,
        digitisation: 8192.0,
        offset: (x % 20) as f64 - 10.0,
        range: 1437.5,
        sampling_rate: 4000.0,
        raw_signal,
        aux: vec![
            ("channel_number".into(), AuxValue::Text(format!("{}", x % 3000))),
            ("median_before".into(), AuxValue::Float(200.25 + i as f64)),
            ("read_number".into(), AuxValue::Int(-(i as i64) * 1000)),
            ("start_mux".into(), AuxValue::UInt(x % 5)),
            ("start_time".into(), AuxValue::UInt(x)),
            ("scale".into(), AuxValue::Float(0.5)),
            ("tiny".into(), AuxValue::Int(-128)),
            ("flag".into(), AuxValue::Char(b'y')),
            ("events".into(), AuxValue::Array((0..2 * (i % 4)).map(|b| b as u8).collect())),
            ("end_reason".into(), AuxValue::Enum((i % 5) as u8, None)),
        ],
    }
}

#[test]
fn random_records_round_trip_under_every_compression() {
    let tmp = TempDir::new("blow5-write-random");
    let mut rng = Rng(0x5EED_B10B);
    let lens = [0usize, 1, 7, 8, 9, 15, 16, 17, 100, 4096, 102_401];
    let records: Vec<Record> =
        lens.iter().enumerate().map(|(i, &len)| random_record(&mut rng, i, len)).collect();
    for opts in every_compression(4) {
        let (rc, sc) = (opts.record_compression, opts.signal_compression);
        let path = tmp.0.join(format!(
            "{rc:?}-{sc:?}-{:?}.{}",
            opts.zstd_profile,
            opts.form.format().extension()
        ));
        let mut w = Writer::create(&path, every_kind_schema(), opts).unwrap();
        // ex-zd refuses an empty signal (slow5lib cannot read one back).
        let records: Vec<&Record> = records
            .iter()
            .filter(|r| sc != SignalCompression::ExZd || !r.raw_signal.is_empty())
            .collect();
        for r in &records {
            w.add_record(r).unwrap();
        }
        w.finish().unwrap();
        let back = Reader::open(&path).unwrap();
        assert_eq!(back.len(), records.len());
        for (i, want) in records.iter().enumerate() {
            let got = back.record(i).unwrap();
            assert_eq!(got.read_id, want.read_id);
            let head = (got.read_id.clone(), got.read_group);
            assert_eq!(back.record_head(i).unwrap(), head, "{rc:?} {sc:?} record {i}");
            assert_eq!(got.raw_signal, want.raw_signal, "{rc:?} {sc:?} record {i}");
            assert_eq!(got.read_group, want.read_group);
            assert_eq!(got.offset, want.offset);
            // Enum labels come back with their names; everything else as written.
            for ((n, g), (m, w)) in got.aux.iter().zip(&want.aux) {
                assert_eq!(n, m);
                match (g, w) {
                    (AuxValue::Enum(a, Some(_)), AuxValue::Enum(b, None)) => assert_eq!(a, b),
                    _ => assert_eq!(g, w, "{n}"),
                }
            }
        }
        assert_eq!(back.header().attribute(1, "run_id"), Some("run-b"));
        // A key the second group lacks is written as unset.
        assert_eq!(back.header().attribute(1, "flow_cell_id"), None);
    }
}

/// `Reader::record_head` (what copies of stored records read of each) gives every record's
/// id and read group from its first bytes, whatever the id's length (up to the format's
/// 65535) and the record's (beyond the 16 KiB first read), read whole or by positioned
/// reads; a record cut inside its id is an error, never a shorter id.
#[test]
fn record_heads_are_read_from_the_first_bytes_whatever_the_id() {
    let tmp = TempDir::new("blow5-record-head");
    let mut rng = Rng(0x4EAD);
    let id_lens = [1usize, 36, 505, 506, 507, 3000, 16_400, 65_535];
    for opts in every_compression(2) {
        let (rc, sc) = (opts.record_compression, opts.signal_compression);
        let path = tmp.0.join(format!(
            "{rc:?}-{sc:?}-{:?}.{}",
            opts.zstd_profile,
            opts.form.format().extension()
        ));
        let records: Vec<Record> = id_lens
            .iter()
            .enumerate()
            .map(|(i, &n)| {
                let mut r = random_record(&mut rng, i, [10, 300_000][i % 2]);
                r.read_id = (0..n).map(|k| (b'a' + ((k * 7 + i) % 26) as u8) as char).collect();
                r
            })
            .collect();
        let binary = opts.form.format().extension() == "blow5";
        let mut w = Writer::create(&path, every_kind_schema(), opts).unwrap();
        for r in &records {
            w.add_record(r).unwrap();
        }
        w.finish().unwrap();
        for access in [svb_blow5::Access::ReadWhole, svb_blow5::Access::ReadAt] {
            let back = Reader::open_with(&path, access).unwrap();
            for (i, want) in records.iter().enumerate() {
                let head = back.record_head(i).unwrap();
                assert_eq!(head.0, want.read_id, "{rc:?} {sc:?} {access:?} record {i}");
                assert_eq!(head.1, want.read_group);
            }
        }
        if !binary {
            continue;
        }
        // The last record (a 65535-byte id) cut 100 bytes into its id: its size field made
        // to agree, the end marker after it.
        let bytes = std::fs::read(&path).unwrap();
        let r = Reader::open(&path).unwrap();
        let (at, _) = r.record_span(records.len() - 1).unwrap();
        let body = records.last().unwrap();
        let mut raw = (body.read_id.len() as u16).to_le_bytes().to_vec();
        raw.extend_from_slice(&body.read_id.as_bytes()[..100]);
        let raw = match rc {
            RecordCompression::None => raw,
            RecordCompression::Zstd => svb_io::zstd_frame::compress(1, &raw).unwrap(),
            RecordCompression::Zlib => {
                use std::io::Write;
                let mut z =
                    flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::new(6));
                z.write_all(&raw).unwrap();
                z.finish().unwrap()
            }
        };
        let mut cut = bytes[..at as usize].to_vec();
        cut.extend((raw.len() as u64).to_le_bytes());
        cut.extend(&raw);
        cut.extend(b"5WOLB");
        let cut_path = tmp.0.join(format!("cut-{rc:?}-{sc:?}.blow5"));
        std::fs::write(&cut_path, cut).unwrap();
        let back = Reader::open(&cut_path).unwrap();
        let e = back.record_head(records.len() - 1).unwrap_err();
        assert!(e.to_string().contains("record"), "{rc:?}: {e}");
    }
}

/// Runs of stored records copied by `Writer::add_stored_span` (by the kernel from a file read
/// by positioned reads, from memory from one read whole) are the bytes the same records make
/// one by one; a run named by fewer records, a reader that located its records through an
/// index, and a SLOW5 destination are errors that write nothing.
#[test]
fn stored_spans_copy_the_records_byte_for_byte() {
    let tmp = TempDir::new("blow5-stored-span");
    let mut rng = Rng(0x5BA7);
    let records: Vec<Record> =
        (0..9).map(|i| random_record(&mut rng, i, [3, 70_000, 500][i % 3])).collect();
    let src = tmp.0.join("src.blow5");
    let opts = WriteOptions {
        publish: Publish { sync: false, ..Publish::default() },
        ..WriteOptions::default()
    };
    let mut w = Writer::create(&src, every_kind_schema(), opts.clone()).unwrap();
    w.add_records(&records).unwrap();
    w.finish().unwrap();
    let heads: Vec<(&str, u32)> =
        records.iter().map(|r| (r.read_id.as_str(), r.read_group)).collect();
    // Records 1..4 and 6..9, then 0 alone.
    let runs = [1..4, 6..9, 0..1];
    let one_by_one = tmp.0.join("one.blow5");
    let r = Reader::open(&src).unwrap();
    let mut w = Writer::create(&one_by_one, every_kind_schema(), opts.clone()).unwrap();
    for run in runs.clone() {
        let bytes: Vec<Vec<u8>> = run.clone().map(|i| r.stored_record(i).unwrap()).collect();
        let stored: Vec<(&str, u32, &[u8])> =
            run.clone().zip(&bytes).map(|(i, b)| (heads[i].0, heads[i].1, b.as_slice())).collect();
        for outcome in w.add_stored_records(&stored).unwrap() {
            outcome.unwrap();
        }
    }
    w.finish().unwrap();
    let want = std::fs::read(&one_by_one).unwrap();
    for access in [svb_blow5::Access::ReadWhole, svb_blow5::Access::ReadAt] {
        let r = Reader::open_with(&src, access).unwrap();
        let out = tmp.0.join(format!("{access:?}.blow5"));
        let mut w = Writer::create(&out, every_kind_schema(), opts.clone()).unwrap();
        assert!(w.stores_like(r.header()));
        for run in runs.clone() {
            w.add_stored_span(&r, run.clone(), &heads[run]).unwrap();
        }
        // A read id already written, and a run of two named by one, write nothing.
        assert!(matches!(
            w.add_stored_span(&r, 0..1, &heads[0..1]),
            Err(Blow5WriteError::DuplicateReadId { .. })
        ));
        assert!(w.add_stored_span(&r, 4..6, &heads[4..5]).is_err());
        w.finish().unwrap();
        assert_eq!(std::fs::read(&out).unwrap(), want, "{access:?}");
    }
    // Records located through an index, their size fields unread, are not copied in spans.
    let index = svb_blow5::Index::build(&Reader::open(&src).unwrap()).unwrap();
    let through_index = Reader::open_indexed(&src, &index).unwrap();
    let mut w = Writer::create(tmp.0.join("x.blow5"), every_kind_schema(), opts.clone()).unwrap();
    assert!(w.add_stored_span(&through_index, 0..2, &heads[0..2]).is_err());
    let text = WriteOptions { publish: opts.publish, ..WriteOptions::slow5() };
    let mut t = Writer::create(tmp.0.join("x.slow5"), every_kind_schema(), text).unwrap();
    assert!(t.add_stored_span(&r, 0..2, &heads[0..2]).is_err());
}

#[test]
fn bad_records_are_typed_errors_and_leave_the_file_good() {
    let tmp = TempDir::new("blow5-write-bad");
    let path = tmp.0.join("out.blow5");
    let mut rng = Rng(7);
    let good = random_record(&mut rng, 0, 100);
    let mut w = Writer::create(&path, every_kind_schema(), WriteOptions::default()).unwrap();
    w.add_record(&good).unwrap();
    let dup = w.add_record(&good).unwrap_err();
    assert!(matches!(dup, Blow5WriteError::DuplicateReadId { .. }), "{dup}");
    let mut r = random_record(&mut rng, 1, 10);
    r.read_group = 2;
    let e = w.add_record(&r).unwrap_err().to_string();
    assert!(e.contains("read group 2 of a file with 2"), "{e}");
    let mut r = random_record(&mut rng, 2, 10);
    r.aux[9].1 = AuxValue::Enum(5, None);
    let e = w.add_record(&r).unwrap_err().to_string();
    assert!(e.contains("end_reason") && e.contains("label 5 of an enum of 5"), "{e}");
    let mut r = random_record(&mut rng, 3, 10);
    r.aux[6].1 = AuxValue::Int(128);
    let e = w.add_record(&r).unwrap_err().to_string();
    assert!(e.contains("128 does not fit int8_t"), "{e}");
    let mut r = random_record(&mut rng, 4, 10);
    r.aux.remove(3);
    let e = w.add_record(&r).unwrap_err().to_string();
    assert!(e.contains("start_mux missing"), "{e}");
    let mut r = random_record(&mut rng, 5, 10);
    r.aux[1].1 = AuxValue::Text("x".into());
    let e = w.add_record(&r).unwrap_err().to_string();
    assert!(e.contains("a text value for a double field"), "{e}");
    let mut r = random_record(&mut rng, 6, 10);
    r.read_id.clear();
    assert!(w.add_record(&r).is_err());
    // A batch with a bad record writes none of it.
    let batch = [random_record(&mut rng, 7, 10), {
        let mut r = random_record(&mut rng, 8, 10);
        r.aux.push(("nope".into(), AuxValue::UInt(1)));
        r
    }];
    let e = w.add_records(&batch).unwrap_err().to_string();
    assert!(e.contains("nope is not in the schema"), "{e}");
    assert_eq!(w.finish().unwrap(), 1);
    let back = Reader::open(&path).unwrap();
    assert_eq!(back.len(), 1);
    let exzd =
        WriteOptions { signal_compression: SignalCompression::ExZd, ..WriteOptions::default() };
    let mut w = Writer::create(tmp.0.join("exzd.blow5"), every_kind_schema(), exzd).unwrap();
    let e = w.add_record(&random_record(&mut rng, 9, 0)).unwrap_err().to_string();
    assert!(e.contains("empty signal cannot be stored as ex-zd"), "{e}");
    w.add_record(&random_record(&mut rng, 10, 1)).unwrap();
    assert_eq!(w.finish().unwrap(), 1);
    assert_eq!(back.record(0).unwrap().read_id, good.read_id);
}

#[test]
fn bad_schemas_create_no_file() {
    let tmp = TempDir::new("blow5-write-schema");
    let path = tmp.0.join("out.blow5");
    let refused = |s: Schema| match Writer::create(&path, s, WriteOptions::default()) {
        Ok(_) => panic!("a bad schema was accepted"),
        Err(e) => e.to_string(),
    };
    let mut s = every_kind_schema();
    s.read_groups.clear();
    let e = refused(s);
    assert!(e.contains("no read groups"), "{e}");
    let mut s = every_kind_schema();
    s.read_groups[0][0].1 = "a\tb".into();
    assert!(Writer::create(&path, s, WriteOptions::default()).is_err());
    let mut s = every_kind_schema();
    s.aux.push(s.aux[0].clone());
    let e = refused(s);
    assert!(e.contains("declared twice"), "{e}");
    let mut s = every_kind_schema();
    s.aux[0].name = "read_id".into();
    assert!(Writer::create(&path, s, WriteOptions::default()).is_err());
    let opts = WriteOptions { batch_records: 0, ..WriteOptions::default() };
    assert!(Writer::create(&path, every_kind_schema(), opts).is_err());
    let opts = WriteOptions {
        record_compression: RecordCompression::Zlib,
        zstd_profile: ZstdProfile::DecodeFast,
        ..WriteOptions::default()
    };
    let e = Writer::create(&path, every_kind_schema(), opts).err().unwrap().to_string();
    assert!(e.contains("needs zstd records"), "{e}");
    assert_eq!(std::fs::read_dir(&tmp.0).unwrap().count(), 0);
}

#[test]
fn an_unfinished_writer_leaves_no_file() {
    let tmp = TempDir::new("blow5-write-drop");
    let path = tmp.0.join("out.blow5");
    let mut rng = Rng(11);
    let mut w = Writer::create(&path, every_kind_schema(), WriteOptions::default()).unwrap();
    for i in 0..5 {
        w.add_record(&random_record(&mut rng, i, 1000)).unwrap();
    }
    // While writing, only a hidden partial file exists; no reader takes it for the output.
    assert!(!path.exists());
    let names: Vec<String> = std::fs::read_dir(&tmp.0)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(names.len() == 1 && names[0].starts_with(".out.blow5.partial"), "{names:?}");
    drop(w);
    assert_eq!(std::fs::read_dir(&tmp.0).unwrap().count(), 0);
}

/// The auxiliary fields blue-crab wrote into a file of ONT reads (slow5tools' test data),
/// two read groups.
fn slow5tools_schema(data: &Path) -> Schema {
    let blue_crab = Reader::open(data.join("blow5/slow5tools/p2solo_ulk114_dna.blow5")).unwrap();
    Schema {
        read_groups: vec![
            vec![("run_id".into(), "run-a".into()), ("asic_id".into(), "123".into())],
            vec![("run_id".into(), "run-b".into()), ("asic_id".into(), "456".into())],
        ],
        aux: blue_crab.header().aux.clone(),
    }
}

fn slow5tools_record(rng: &mut Rng, i: usize, len: usize) -> Record {
    let mut r = random_record(rng, i, len);
    let x = rng.next();
    r.aux = vec![
        ("channel_number".into(), AuxValue::Text(format!("{}", 1 + x % 512))),
        ("median_before".into(), AuxValue::Float(180.0 + (x % 1000) as f64 / 8.0)),
        ("read_number".into(), AuxValue::Int((x % 100_000) as i64)),
        ("start_mux".into(), AuxValue::UInt(x % 5)),
        ("start_time".into(), AuxValue::UInt(x >> 20)),
        ("end_reason".into(), AuxValue::Enum((x % 8) as u8, None)),
        // Values a float holds exactly, so they compare equal after the round trip.
        ("tracked_scaling_shift".into(), AuxValue::Float(-12.5)),
        ("tracked_scaling_scale".into(), AuxValue::Float(0.1875)),
        ("predicted_scaling_shift".into(), AuxValue::Float((x % 64) as f64)),
        ("predicted_scaling_scale".into(), AuxValue::Float(1.25)),
        ("num_reads_since_mux_change".into(), AuxValue::UInt(x % 1000)),
        ("time_since_mux_change".into(), AuxValue::Float(0.5)),
        ("num_minknow_events".into(), AuxValue::UInt(x >> 30)),
    ];
    r
}

fn sha256_hex(signal: &[i16]) -> String {
    use sha2::{Digest, Sha256};
    let mut h = Sha256::new();
    for s in signal {
        h.update(s.to_le_bytes());
    }
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

/// slow5lib's own reader (pyslow5, `pip install pyslow5`) reads every record and field of
/// our files under every compression exactly as written. Skipped without it or the
/// conformance data, except under CI=true.
#[test]
#[ignore = "needs the shared test data (../shared/data or SVB_TEST_DATA) and Python with pyslow5 (pip); run with --include-ignored"]
fn pyslow5_reads_our_files_exactly() {
    let Some(python) = svb_testdata::python_with("pyslow5", "pyslow5") else { return };
    let Some((data, tmp)) = svb_testdata::data_and_tmp("blow5-write-pyslow5") else { return };
    let mut rng = Rng(0xB10B_5EED);
    let records: Vec<Record> = [0usize, 1, 7, 8, 9, 100, 4097, 102_401]
        .iter()
        .enumerate()
        .map(|(i, &len)| slow5tools_record(&mut rng, i, len))
        .collect();
    let mut files = Vec::new();
    for opts in every_compression(3) {
        let (rc, sc) = (opts.record_compression, opts.signal_compression);
        let path = tmp.0.join(format!(
            "{rc:?}-{sc:?}-{:?}.{}",
            opts.zstd_profile,
            opts.form.format().extension()
        ));
        let mut w = Writer::create(&path, slow5tools_schema(&data), opts).unwrap();
        // An empty signal is refused as ex-zd (slow5lib cannot read one back).
        let r = &records[usize::from(sc == SignalCompression::ExZd)..];
        w.add_records(r).unwrap();
        w.finish().unwrap();
        files.push((path, r));
    }
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/python/pyslow5_read.py");
    let lines: Vec<serde_json::Value> =
        svb_testdata::python_lines(&python, &script, files.iter().map(|(f, _)| f))
            .iter()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
    let mut lines = lines.as_slice();
    for (f, records) in &files {
        let (chunk, rest) = lines.split_at(1 + records.len());
        lines = rest;
        assert_eq!(chunk[0]["file"], f.to_str().unwrap());
        let groups = chunk[0]["read_groups"].as_array().unwrap();
        assert_eq!(groups.len(), 2, "{}", f.display());
        assert_eq!(groups[1]["run_id"], "run-b");
        assert_eq!(groups[0]["asic_id"], "123");
        for (want, got) in records.iter().zip(&chunk[1..]) {
            let what = format!("{} {}", f.display(), want.read_id);
            assert!(got.get("read_id").is_some(), "{what}: {got}");
            assert_eq!(got["read_id"], want.read_id.as_str(), "{what}");
            assert_eq!(got["read_group"], want.read_group, "{what}");
            assert_eq!(got["digitisation"], want.digitisation, "{what}");
            assert_eq!(got["offset"], want.offset, "{what}");
            assert_eq!(got["range"], want.range, "{what}");
            assert_eq!(got["sampling_rate"], want.sampling_rate, "{what}");
            assert_eq!(got["samples"], want.raw_signal.len(), "{what}");
            assert_eq!(got["sha256"], sha256_hex(&want.raw_signal).as_str(), "{what}");
            for (name, v) in &want.aux {
                let g = &got["aux"][name];
                match v {
                    AuxValue::Text(t) => assert_eq!(g, t.as_str(), "{what} {name}"),
                    AuxValue::Float(x) => assert_eq!(g, x, "{what} {name}"),
                    AuxValue::Int(x) => assert_eq!(g, x, "{what} {name}"),
                    AuxValue::UInt(x) => assert_eq!(g, x, "{what} {name}"),
                    AuxValue::Enum(i, _) => assert_eq!(g, i, "{what} {name}"),
                    other => panic!("{other:?}"),
                }
            }
        }
    }
    assert!(lines.is_empty());
}

#[test]
fn a_writer_told_so_keeps_a_read_id_that_repeats() {
    let tmp = TempDir::new("blow5-write-repeats");
    let path = tmp.0.join("out.blow5");
    let mut rng = Rng(11);
    let one = random_record(&mut rng, 0, 50);
    let options = WriteOptions { unique_read_ids: false, ..WriteOptions::default() };
    let mut w = Writer::create(&path, every_kind_schema(), options).unwrap();
    w.add_record(&one).unwrap();
    w.add_records(&[one.clone(), one.clone()]).unwrap();
    assert_eq!(w.finish().unwrap(), 3);
    let back = Reader::open(&path).unwrap();
    assert_eq!(back.len(), 3);
    for i in 0..3 {
        assert_eq!(back.read_id(i).unwrap(), one.read_id);
    }
}

/// The header's `@` attributes are written in name order, as slow5lib writes them, whatever
/// the order the schema holds them in (a merge of groups with different attributes is then
/// slow5tools' bytes); a group lacking one has `.`.
#[test]
fn header_attributes_are_written_in_name_order() {
    let schema = Schema {
        read_groups: vec![
            vec![("run_id".into(), "r1".into()), ("flow_cell_id".into(), "FAB1".into())],
            vec![("run_id".into(), "r2".into()), ("asic_id".into(), "42".into())],
        ],
        aux: Vec::new(),
    };
    let text = schema.text().unwrap();
    let attributes: Vec<&str> = text.lines().filter(|l| l.starts_with('@')).collect();
    assert_eq!(attributes, ["@asic_id\t.\t42", "@flow_cell_id\tFAB1\t.", "@run_id\tr1\tr2"]);
}
