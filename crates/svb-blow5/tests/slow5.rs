//! SLOW5 text: every shared BLOW5 file written as SLOW5 reads back record for record and
//! field for field, and BLOW5 -> SLOW5 -> BLOW5 gives the very bytes a direct rewrite gives;
//! damaged text is a typed error naming the record; slow5lib's and slow5tools' own `.slow5`
//! test files read exactly as pyslow5 reads them (`SVB_SLOW5_REPOS`, where they could be
//! fetched).

use std::path::{Path, PathBuf};

use svb_blow5::{
    AuxValue, Blow5Error, FieldType, OnExisting, Reader, Record, RecordCompression, Schema,
    WriteOptions, Writer,
};
use svb_model::Form;
use svb_testdata::TempDir;

/// Every BLOW5 file of the conformance data.
fn shared_blow5(data: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for dir in ["blow5", "blow5/slow5lib", "blow5/slow5tools"] {
        for (_, p) in svb_testdata::files_with_suffix(&data.join(dir), ".blow5") {
            files.push(p);
        }
    }
    assert!(files.len() >= 18, "{files:?}");
    files
}

/// Writes `records` under `schema` to `out` with `options`, replacing what is there.
fn write(out: &Path, schema: Schema, mut options: WriteOptions, records: &[Record]) {
    options.publish.on_existing = OnExisting::Replace;
    options.batch_records = 3;
    let mut w = Writer::create(out, schema, options).unwrap();
    w.add_records(records).unwrap();
    w.finish().unwrap();
}

/// Records compared with NaN equal to NaN (a missing float reads back as NaN).
fn same(a: &[Record], b: &[Record]) -> bool {
    format!("{a:?}") == format!("{b:?}")
}

#[svb_testdata::data_test]
fn blow5_to_slow5_and_back_keeps_every_field_and_byte(data: &Path, tmp: &TempDir) {
    for src in shared_blow5(data) {
        let name = src.file_name().unwrap().to_string_lossy().into_owned();
        let r = Reader::open(&src).unwrap();
        let records: Vec<Record> = r.records().map(|x| x.unwrap()).collect();
        let text = tmp.join(&format!("{name}.slow5"));
        write(&text, Schema::of(r.header()), WriteOptions::slow5(), &records);
        let t = Reader::open(&text).unwrap();
        assert_eq!(t.header().form, Form::Text);
        assert_eq!(t.header().read_groups, r.header().read_groups, "{name}");
        assert_eq!(t.header().aux, r.header().aux, "{name}");
        let back: Vec<Record> = t.records().map(|x| x.unwrap()).collect();
        assert!(same(&back, &records), "{name}: records after SLOW5");
        // Parallel decode and the metadata scan agree with the sequential read.
        let all = t.decode_all(svb_blow5::Threads::Current).unwrap();
        assert!(same(&all, &records), "{name}: decode_all");
        let mut fields = Record::default();
        for (i, rec) in records.iter().enumerate() {
            assert_eq!(t.fields_into(i, &mut fields).unwrap(), rec.raw_signal.len() as u64);
            assert_eq!(t.read_id(i).unwrap(), rec.read_id);
        }
        // Back to BLOW5 with the file's own compression: the bytes of a direct rewrite.
        let options = || WriteOptions {
            record_compression: r.header().record_compression,
            signal_compression: r.header().signal_compression,
            ..WriteOptions::default()
        };
        let (direct, via_text) = (tmp.join("direct.blow5"), tmp.join("via-text.blow5"));
        write(&direct, Schema::of(r.header()), options(), &records);
        write(&via_text, Schema::of(t.header()), options(), &back);
        assert!(
            std::fs::read(&direct).unwrap() == std::fs::read(&via_text).unwrap(),
            "{name}: BLOW5 -> SLOW5 -> BLOW5 differs from BLOW5 -> BLOW5"
        );
    }
}

#[svb_testdata::data_test]
fn slow5_files_read_by_every_access_and_index(data: &Path, tmp: &TempDir) {
    let src = data.join("blow5/slow5tools/example_multi_rg_v0.2.0_zstd_svb-zd.blow5");
    let r = Reader::open(&src).unwrap();
    let records: Vec<Record> = r.records().map(|x| x.unwrap()).collect();
    let text = tmp.join("multi.slow5");
    write(&text, Schema::of(r.header()), WriteOptions::slow5(), &records);
    for access in [svb_blow5::Access::ReadWhole, svb_blow5::Access::ReadAt] {
        let t = Reader::open_with(&text, access).unwrap();
        let back: Vec<Record> = t.records().map(|x| x.unwrap()).collect();
        assert!(same(&back, &records), "{access:?}");
    }
    // slow5lib's index of a SLOW5 file: each line's offset and length with its newline.
    let index = svb_blow5::Index::build(&Reader::open(&text).unwrap()).unwrap();
    let mut t = Reader::open_indexed(&text, &index).unwrap();
    t.use_index(index);
    let bytes = std::fs::read(&text).unwrap();
    for (i, rec) in records.iter().enumerate() {
        let (offset, size) = t.record_span(i).unwrap();
        let line = &bytes[offset as usize..(offset + size) as usize];
        assert!(line.starts_with(rec.read_id.as_bytes()) && line.ends_with(b"\n"));
        let at = t.find_many(std::slice::from_ref(&rec.read_id)).unwrap()[0];
        assert_eq!(at, Some(i));
        assert!(same(&[t.record(i).unwrap()], std::slice::from_ref(rec)));
    }
    // An index of another file does not fit.
    let other = Reader::open(&src).unwrap();
    let wrong = svb_blow5::Index::build(&other).unwrap();
    assert!(Reader::open_indexed(&text, &wrong).is_err());
}

/// A small SLOW5 file of 3 records as slow5lib writes one.
const SMALL: &str = "#slow5_version\t0.2.0\n#num_read_groups\t1\n@run_id\tabc\n\
#char*\tuint32_t\tdouble\tdouble\tdouble\tdouble\tuint64_t\tint16_t*\tint32_t\n\
#read_id\tread_group\tdigitisation\toffset\trange\tsampling_rate\tlen_raw_signal\traw_signal\tread_number\n\
r0\t0\t8192\t6\t1467.6\t4000\t3\t1,2,3\t7\n\
r1\t0\t8192\t6\t1467.6\t4000\t2\t-4,5\t8\n\
r2\t0\t8192\t6\t1467.6\t4000\t1\t6\t.\n";

fn open_text(tmp: &svb_testdata::TempDir, text: &str) -> Result<Reader, Blow5Error> {
    let path = tmp.join("t.slow5");
    std::fs::write(&path, text).unwrap();
    Reader::open(&path)
}

#[test]
fn damaged_slow5_is_a_typed_error_naming_the_record() {
    let tmp = svb_testdata::TempDir::new("slow5-bad");
    let r = open_text(&tmp, SMALL).unwrap();
    assert_eq!(r.len(), 3);
    assert_eq!(r.record(1).unwrap().raw_signal, [-4, 5]);
    // Cut anywhere in the records: the last line without its newline is refused at open.
    let records_at = SMALL.find("r0\t").unwrap();
    for cut in records_at + 1..SMALL.len() {
        let text = &SMALL[..cut];
        match open_text(&tmp, text) {
            Ok(r) => {
                assert!(text.ends_with('\n'), "cut at {cut} opened");
                // Whole lines only: every record that is there decodes or is an error.
                assert!(r.len() < 3);
            }
            Err(Blow5Error::Record { index, what, .. }) => {
                assert!(what.contains("cut short"), "{what}");
                assert_eq!(index, SMALL[records_at..cut].matches('\n').count());
            }
            Err(e) => panic!("cut at {cut}: {e}"),
        }
    }
    // Cut in the header.
    for cut in [0, 10, 30, records_at - 1] {
        let e = open_text(&tmp, &SMALL[..cut]).unwrap_err();
        assert!(matches!(e, Blow5Error::Header { .. } | Blow5Error::Io { .. }), "{cut}: {e}");
    }
    // A damaged field: the record's number, its offset and the field are named.
    for (from, to, why) in [
        ("-4,5\t8", "-4,5,6\t8", "more than len_raw_signal 2"),
        ("-4,5\t8", "-4,x\t8", "sample 1"),
        ("\t8\n", "\t8\t9\n", "10 fields, the header names 9"),
        ("r1\t0", "r1\t1", "read group 1"),
        ("r1\t0\t8192", "r1\t0\t81.9.2", "digitisation"),
        ("\t2\t-4,5", "\t99999999999\t-4,5", "holds fewer samples"),
    ] {
        let r = open_text(&tmp, &SMALL.replace(from, to)).unwrap();
        let e = r.record(1).unwrap_err();
        match &e {
            Blow5Error::Record { index: 1, what, .. } if what.contains(why) => {}
            e => panic!("{to}: {e}"),
        }
        assert!(r.record(0).is_ok() && r.record(2).is_ok());
    }
}

#[test]
fn slow5_options_without_compression_only() {
    let tmp = svb_testdata::TempDir::new("slow5-options");
    let schema = Schema { read_groups: vec![vec![("run_id".into(), "x".into())]], aux: vec![] };
    let e = Writer::create(
        tmp.join("x.slow5"),
        schema,
        WriteOptions { record_compression: RecordCompression::Zstd, ..WriteOptions::slow5() },
    )
    .err()
    .unwrap();
    assert!(e.to_string().contains("no compression"), "{e}");
    assert!(tmp.entries().is_empty());
}

/// The `.slow5` files of slow5lib's and slow5tools' test data (`svb_testdata::slow5_repos`:
/// `SVB_SLOW5_REPOS`, else the shared data's copy, at pinned commits): each read by pyslow5
/// and by us, every record and field compared; a file pyslow5 refuses we refuse.
#[test]
#[ignore = "needs slow5lib's and slow5tools' test data (SVB_SLOW5_REPOS) and Python with pyslow5 (pip); run with --include-ignored"]
fn slow5lib_and_slow5tools_test_files_read_as_pyslow5_reads_them() {
    let Some(repos) = svb_testdata::slow5_repos() else { return };
    let Some(python) = svb_testdata::python_with("pyslow5", "pyslow5") else { return };
    let mut files = Vec::new();
    collect_slow5(&repos, &mut files);
    files.sort();
    assert!(files.len() >= 150, "{} .slow5 files", files.len());
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/python/pyslow5_read.py");
    let lines: Vec<serde_json::Value> = svb_testdata::python_lines(
        &python,
        &script,
        std::iter::once(Path::new("--isolated")).chain(files.iter().map(PathBuf::as_path)),
    )
    .iter()
    .map(|l| serde_json::from_str(l).unwrap())
    .collect();
    let (mut read, mut refused, mut records) = (0, 0, 0);
    let mut lines = lines.as_slice();
    for f in &files {
        let (head, rest) = lines.split_first().expect("a line per file");
        assert_eq!(head["file"], f.to_str().unwrap());
        let n = head["records"].as_u64();
        let (chunk, rest) = rest.split_at(n.unwrap_or(0) as usize);
        lines = rest;
        let ours = Reader::open(f).and_then(|r| {
            let recs: Result<Vec<Record>, _> = r.records().collect();
            recs.map(|recs| (r, recs))
        });
        // pyslow5 refused the file, or stopped early without a word (its record iterator
        // ends at a record it cannot parse): a damaged file, which we refuse.
        let damaged = n.is_none_or(|n| n < record_lines(f));
        if damaged {
            assert!(
                ours.is_err(),
                "{}: pyslow5 refuses it ({}), svb reads it",
                f.display(),
                head.get("error").unwrap_or(&head["records"])
            );
            refused += 1;
            continue;
        }
        let (r, ours) =
            ours.unwrap_or_else(|e| panic!("{}: pyslow5 reads it, svb: {e}", f.display()));
        let groups = head["read_groups"].as_array().unwrap();
        assert_eq!(groups.len(), r.header().read_groups.len());
        for (g, want) in groups.iter().enumerate() {
            for (k, v) in want.as_object().unwrap() {
                assert_eq!(r.header().attribute(g, k), v.as_str(), "{} @{k}", f.display());
            }
        }
        assert_eq!(ours.len(), chunk.len(), "{}", f.display());
        for (rec, want) in ours.iter().zip(chunk) {
            let what = format!("{} {}", f.display(), rec.read_id);
            assert_eq!(want["read_id"], rec.read_id.as_str(), "{what}");
            assert_eq!(want["read_group"], rec.read_group, "{what}");
            for (k, v) in [
                ("digitisation", rec.digitisation),
                ("offset", rec.offset),
                ("range", rec.range),
                ("sampling_rate", rec.sampling_rate),
            ] {
                assert_eq!(want[k].as_f64(), Some(v), "{what} {k}");
            }
            assert_eq!(want["samples"], rec.raw_signal.len(), "{what}");
            assert_eq!(want["sha256"], sha256_hex(&rec.raw_signal).as_str(), "{what}");
            for ((name, v), field) in rec.aux.iter().zip(&r.header().aux) {
                assert_aux(&want["aux"][name], v, &field.ty, &format!("{what} {name}"));
            }
            records += 1;
        }
        read += 1;
    }
    assert!(lines.is_empty());
    println!(
        "{read} files read exactly ({records} records), {refused} refused as pyslow5 refuses them"
    );
}

/// The lines after a SLOW5 file's header (its `#read_id` line): its records, when it is whole.
fn record_lines(f: &Path) -> u64 {
    let bytes = std::fs::read(f).unwrap();
    let Some(at) = bytes.windows(9).position(|w| w == b"\n#read_id") else {
        return 0;
    };
    let body = &bytes[at + 1..];
    let header_end = body.iter().position(|&b| b == b'\n').map_or(body.len(), |n| n + 1);
    body[header_end..].split(|&b| b == b'\n').filter(|l| !l.is_empty()).count() as u64
}

fn collect_slow5(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            collect_slow5(&p, out);
        } else if p.extension().is_some_and(|e| e == "slow5") && p.is_file() {
            out.push(p);
        }
    }
}

/// pyslow5's value of an auxiliary field (JSON) against ours (of type `ty`).
fn assert_aux(want: &serde_json::Value, got: &AuxValue, ty: &FieldType, what: &str) {
    match got {
        AuxValue::Text(t) => assert_eq!(want, t.as_str(), "{what}"),
        AuxValue::Float(x) if x.is_nan() => assert!(want.is_null(), "{what}: {want}"),
        AuxValue::Float(x) => assert_eq!(want.as_f64(), Some(*x), "{what}"),
        AuxValue::Int(x) => assert_eq!(want, x, "{what}"),
        AuxValue::UInt(x) => assert_eq!(want, x, "{what}"),
        AuxValue::Enum(i, _) => assert_eq!(want, i, "{what}"),
        AuxValue::Char(c) => assert_eq!(want, (*c as char).to_string().as_str(), "{what}"),
        AuxValue::Array(b) => {
            let FieldType::Array { name, size } = ty else {
                panic!("{what}: an array value of a {ty:?} field");
            };
            let items: Vec<serde_json::Value> = b
                .chunks_exact(*size)
                .map(|c| {
                    let mut w = [0u8; 8];
                    w[..*size].copy_from_slice(c);
                    let u = u64::from_le_bytes(w);
                    let shift = 64 - 8 * *size as u32;
                    match name.as_str() {
                        "float" => serde_json::json!(f32::from_bits(u as u32) as f64),
                        "double" => serde_json::json!(f64::from_bits(u)),
                        n if n.starts_with('u') => serde_json::json!(u),
                        _ => serde_json::json!(((u << shift) as i64) >> shift),
                    }
                })
                .collect();
            assert_eq!(want.as_array(), Some(&items), "{what}");
        }
    }
}

fn sha256_hex(signal: &[i16]) -> String {
    use sha2::{Digest, Sha256};
    let mut h = Sha256::new();
    for s in signal {
        h.update(s.to_le_bytes());
    }
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}
