//! Arrow batches of the shared POD5 and BLOW5 files against the readers' own values, and
//! every error path.

use std::path::PathBuf;
use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::types::{Float32Type, Int16Type, UInt64Type, UInt8Type};
use arrow_array::{Array, RecordBatch, RecordBatchReader};
use arrow_schema::DataType;
use std::path::Path;
use svb_arrow::{ArrowReadError, Options, ReadBatches, ReadsError, SignalColumn};
use svb_blow5::{AuxValue, FieldType};
use svb_model::Format;
use svb_testdata::{data_dir, TempDir};

fn all(mut b: ReadBatches) -> Vec<RecordBatch> {
    let mut out = Vec::new();
    while let Some(batch) = b.next_batch().expect("batch") {
        out.push(batch);
    }
    out
}

fn column<'a>(batches: &'a [RecordBatch], name: &str) -> Vec<&'a Arc<dyn Array>> {
    batches.iter().map(|b| b.column_by_name(name).expect("column")).collect()
}

fn strings(batches: &[RecordBatch], name: &str) -> Vec<String> {
    column(batches, name)
        .into_iter()
        .flat_map(|a| {
            a.as_string::<i32>()
                .iter()
                .map(|s| s.expect("non-null").to_string())
                .collect::<Vec<_>>()
        })
        .collect()
}

fn pod5_files() -> Vec<PathBuf> {
    let Some(d) = data_dir() else { return vec![] };
    ["multi_fast5_zip.pod5", "multi_fast5_zip_v4.pod5", "multi_fast5_zip_v0.pod5"]
        .iter()
        .map(|f| d.join("pod5").join(f))
        .collect()
}

fn blow5_files() -> Vec<PathBuf> {
    let Some(d) = data_dir() else { return vec![] };
    let mut v = Vec::new();
    for sub in ["blow5", "blow5/slow5lib", "blow5/slow5tools"] {
        v.extend(
            svb_testdata::files_with_suffix(&d.join(sub), ".blow5").into_iter().map(|(_, p)| p),
        );
    }
    v
}

#[test]
#[ignore = "needs the shared test data (../shared/data or SVB_TEST_DATA); run with --include-ignored"]
fn pod5_metadata_matches_the_reader_in_every_batching() {
    for path in pod5_files() {
        let r = svb_pod5::Reader::open(&path).expect("open");
        for batch_reads in [1, 3, 1024] {
            let b = ReadBatches::open([&path], Options { batch_reads, ..Options::default() })
                .expect("open");
            assert_eq!(b.format(), Format::Pod5);
            assert_eq!(b.schema().fields().len(), 31);
            let batches = all(b);
            assert_eq!(batches.len(), r.len().div_ceil(batch_reads));
            let ids: Vec<String> = r.reads().iter().map(|x| x.read_id_string()).collect();
            assert_eq!(strings(&batches, "read_id"), ids, "{}", path.display());
            let samples: Vec<u64> = column(&batches, "num_samples")
                .into_iter()
                .flat_map(|a| a.as_primitive::<UInt64Type>().values().to_vec())
                .collect();
            let want: Vec<u64> = r.reads().iter().map(|x| x.info.num_samples).collect();
            assert_eq!(samples, want);
            let mux: Vec<u8> = column(&batches, "mux")
                .into_iter()
                .flat_map(|a| a.as_primitive::<UInt8Type>().values().to_vec())
                .collect();
            assert_eq!(mux, r.reads().iter().map(|x| x.info.well).collect::<Vec<_>>());
            let runs: Vec<String> = r
                .reads()
                .iter()
                .map(|x| r.run_info_of(x).map_or("", |r| &r.protocol_run_id).to_string())
                .collect();
            assert_eq!(strings(&batches, "run_id"), runs);
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            assert!(strings(&batches, "filename").iter().all(|f| *f == name));
        }
    }
}

#[test]
#[ignore = "needs the shared test data (../shared/data or SVB_TEST_DATA); run with --include-ignored"]
fn pod5_signal_raw_and_picoamps_are_the_decoded_reads() {
    for path in pod5_files() {
        let r = svb_pod5::Reader::open(&path).expect("open");
        for signal in [SignalColumn::Raw, SignalColumn::PicoAmps] {
            // Batches of at most 150000 samples: the multi-chunk reads are batches of one.
            let b = ReadBatches::open(
                [&path],
                Options {
                    columns: Some(vec!["read_id".into()]),
                    signal,
                    batch_samples: 150_000,
                    ..Options::default()
                },
            )
            .expect("open");
            let name = signal.column().unwrap();
            assert_eq!(b.schema().field(1).name(), name);
            let batches = all(b);
            assert!(batches.len() > 1);
            let mut i = 0;
            for batch in &batches {
                let total: u64 =
                    (i..i + batch.num_rows()).map(|k| r.reads()[k].info.num_samples).sum();
                assert!(batch.num_rows() == 1 || total <= 150_000);
                let lists = batch.column(1).as_list::<i32>();
                for k in 0..lists.len() {
                    let want = r.decode_signal(i).expect("decode");
                    let read = &r.reads()[i];
                    match signal {
                        SignalColumn::Raw => {
                            assert_eq!(
                                lists.value(k).as_primitive::<Int16Type>().values(),
                                &want[..]
                            )
                        }
                        _ => {
                            let pa: Vec<f32> = want
                                .iter()
                                .map(|&s| {
                                    (f32::from(s) + read.info.calibration_offset)
                                        * read.info.calibration_scale
                                })
                                .collect();
                            assert_eq!(
                                lists.value(k).as_primitive::<Float32Type>().values(),
                                &pa[..]
                            );
                        }
                    }
                    i += 1;
                }
            }
            assert_eq!(i, r.len());
        }
    }
}

#[test]
#[ignore = "needs the shared test data (../shared/data or SVB_TEST_DATA); run with --include-ignored"]
fn blow5_columns_are_the_records_fields_and_signal() {
    let files = blow5_files();
    if files.is_empty() {
        return;
    }
    assert!(files.len() >= 15, "{files:?}");
    for path in files {
        let r = svb_blow5::Reader::open(&path).expect("open");
        let records: Vec<svb_blow5::Record> =
            r.records().collect::<Result<_, _>>().expect("records");
        let b = ReadBatches::open(
            [&path],
            Options { signal: SignalColumn::Raw, batch_reads: 2, ..Options::default() },
        )
        .expect("open");
        let schema = b.schema();
        assert_eq!(schema.fields().len(), 8 + r.header().aux.len() + 1);
        let batches = all(b);
        assert_eq!(
            strings(&batches, "read_id"),
            records.iter().map(|x| x.read_id.clone()).collect::<Vec<_>>()
        );
        let signals: Vec<Vec<i16>> = column(&batches, "signal")
            .into_iter()
            .flat_map(|a| {
                let l = a.as_list::<i32>();
                (0..l.len())
                    .map(|k| l.value(k).as_primitive::<Int16Type>().values().to_vec())
                    .collect::<Vec<_>>()
            })
            .collect();
        assert_eq!(
            signals,
            records.iter().map(|x| x.raw_signal.clone()).collect::<Vec<_>>(),
            "{}",
            path.display()
        );
        let lens: Vec<u64> = column(&batches, "len_raw_signal")
            .into_iter()
            .flat_map(|a| a.as_primitive::<UInt64Type>().values().to_vec())
            .collect();
        assert_eq!(lens, records.iter().map(|x| x.raw_signal.len() as u64).collect::<Vec<_>>());
        // Every auxiliary value, through the Arrow type of its C type.
        for (j, field) in r.header().aux.iter().enumerate() {
            let arrays = column(&batches, &field.name);
            let mut k = 0;
            for a in arrays {
                for row in 0..a.len() {
                    let want = &records[k].aux[j].1;
                    check_aux(&field.ty, a.as_ref(), row, want, &path, &field.name);
                    k += 1;
                }
            }
        }
    }
}

fn check_aux(
    ty: &FieldType, a: &dyn Array, row: usize, want: &AuxValue, path: &std::path::Path, name: &str,
) {
    let ctx = format!("{}: {name} row {row}", path.display());
    match (a.data_type(), want) {
        (DataType::Dictionary(..), AuxValue::Enum(i, label)) => {
            let d = a.as_dictionary::<UInt8Type>();
            assert_eq!(d.is_valid(row), label.is_some(), "{ctx}");
            if let (Some(l), FieldType::Enum(labels)) = (label, ty) {
                assert_eq!(d.keys().value(row), *i, "{ctx}");
                assert_eq!(&labels[*i as usize], l, "{ctx}");
            }
        }
        (DataType::Utf8, AuxValue::Text(t)) => {
            assert_eq!(a.as_string::<i32>().value(row), t, "{ctx}")
        }
        (DataType::Utf8, AuxValue::Char(c)) => {
            assert_eq!(a.as_string::<i32>().value(row), char::from(*c).to_string(), "{ctx}")
        }
        (DataType::Float64, AuxValue::Float(f)) => {
            assert_eq!(
                a.as_primitive::<arrow_array::types::Float64Type>().value(row).to_bits(),
                f.to_bits(),
                "{ctx}"
            )
        }
        (DataType::Float32, AuxValue::Float(f)) => {
            assert_eq!(
                a.as_primitive::<Float32Type>().value(row).to_bits(),
                (*f as f32).to_bits(),
                "{ctx}"
            )
        }
        (t, AuxValue::Int(i)) if t.is_signed_integer() => {
            let v = arrow_cast_i64(a, row);
            assert_eq!(v, *i as i128, "{ctx}");
        }
        (t, AuxValue::UInt(u)) if t.is_unsigned_integer() => {
            let v = arrow_cast_i64(a, row);
            assert_eq!(v, *u as i128, "{ctx}");
        }
        (DataType::List(_), AuxValue::Array(bytes)) => {
            let l = a.as_list::<i32>();
            let item = l.value(row);
            assert_eq!(item.to_data().buffers()[0].as_slice(), &bytes[..], "{ctx}");
        }
        (t, v) => panic!("{ctx}: type {t} for value {v:?}"),
    }
}

fn arrow_cast_i64(a: &dyn Array, row: usize) -> i128 {
    use arrow_array::types::*;
    match a.data_type() {
        DataType::Int8 => a.as_primitive::<Int8Type>().value(row).into(),
        DataType::Int16 => a.as_primitive::<Int16Type>().value(row).into(),
        DataType::Int32 => a.as_primitive::<Int32Type>().value(row).into(),
        DataType::Int64 => a.as_primitive::<Int64Type>().value(row).into(),
        DataType::UInt8 => a.as_primitive::<UInt8Type>().value(row).into(),
        DataType::UInt16 => a.as_primitive::<UInt16Type>().value(row).into(),
        DataType::UInt32 => a.as_primitive::<UInt32Type>().value(row).into(),
        DataType::UInt64 => a.as_primitive::<UInt64Type>().value(row).into(),
        t => panic!("not an integer: {t}"),
    }
}

#[test]
#[ignore = "needs the shared test data (../shared/data or SVB_TEST_DATA); run with --include-ignored"]
fn many_files_one_stream_and_projection_in_order() {
    let files = pod5_files();
    if files.is_empty() {
        return;
    }
    let b = ReadBatches::open(
        &files,
        Options { columns: Some(vec!["channel".into(), "read_id".into()]), ..Options::default() },
    )
    .expect("open");
    let s = b.schema();
    assert_eq!(s.field(0).name(), "channel");
    assert_eq!(s.field(1).name(), "read_id");
    assert_eq!(s.fields().len(), 2);
    // Through the RecordBatchReader interface, as an Arrow consumer takes it.
    let reader: Box<dyn RecordBatchReader> = Box::new(b);
    let batches: Vec<RecordBatch> = reader.collect::<Result<_, _>>().expect("batches");
    let total: usize = batches.iter().map(|b| b.num_rows()).sum();
    let want: usize = files.iter().map(|f| svb_pod5::Reader::open(f).unwrap().len()).sum();
    assert_eq!(total, want);
    assert_eq!(batches.len(), files.len());

    // Zero metadata columns still count rows.
    let b = ReadBatches::open(&files[..1], Options { columns: Some(vec![]), ..Options::default() })
        .expect("open");
    let rows: usize = all(b).iter().map(|b| b.num_rows()).sum();
    assert_eq!(rows, svb_pod5::Reader::open(&files[0]).unwrap().len());
}

#[test]
#[ignore = "needs the shared test data (../shared/data or SVB_TEST_DATA); run with --include-ignored"]
fn ipc_file_round_trip() {
    let files = pod5_files();
    if files.is_empty() {
        return;
    }
    let dir = TempDir::new("arrow-ipc");
    let out = dir.join("reads.arrow");
    let b =
        ReadBatches::open(&files[..1], Options { signal: SignalColumn::Raw, ..Options::default() })
            .expect("open");
    let schema = b.schema();
    let batches = all(b);
    {
        let f = std::fs::File::create(&out).unwrap();
        let mut w = arrow_ipc::writer::FileWriter::try_new(f, &schema).unwrap();
        for batch in &batches {
            w.write(batch).unwrap();
        }
        w.finish().unwrap();
    }
    let back = arrow_ipc::reader::FileReader::try_new(std::fs::File::open(&out).unwrap(), None)
        .unwrap()
        .collect::<Result<Vec<_>, _>>()
        .unwrap();
    assert_eq!(back.len(), batches.len());
    for (a, b) in back.iter().zip(&batches) {
        assert_eq!(a, b);
    }
}

#[test]
#[ignore = "needs the shared test data (../shared/data or SVB_TEST_DATA); run with --include-ignored"]
fn errors_say_what_and_where() {
    let dir = TempDir::new("arrow-errors");
    let junk = dir.join("junk.pod5");
    std::fs::write(&junk, b"not a signal file").unwrap();
    // The read layer's error, under the Arrow one.
    let reads_error = |path: &PathBuf| match ReadBatches::open([path], Options::default()) {
        Err(ArrowReadError::Reads(r)) => *r,
        Err(e) => panic!("{e}"),
        Ok(_) => panic!("{} opened", path.display()),
    };
    let e = reads_error(&junk);
    assert!(matches!(e, ReadsError::UnknownFormat { .. }), "{e}");
    assert!(e.to_string().contains("junk.pod5"), "{e}");

    let missing = dir.join("missing.pod5");
    let e = reads_error(&missing);
    assert!(matches!(e, ReadsError::Io { .. }), "{e}");

    let e = ReadBatches::open(Vec::<PathBuf>::new(), Options::default()).err().expect("error");
    assert!(matches!(e, ArrowReadError::NoInput));

    let (pods, blows) = (pod5_files(), blow5_files());
    if pods.is_empty() {
        return;
    }
    let e = ReadBatches::open([&pods[0], &blows[0]], Options::default()).err().expect("error");
    assert!(
        matches!(&e, ArrowReadError::Reads(r) if matches!(**r, ReadsError::MixedFormats { .. })),
        "{e}"
    );

    let e = ReadBatches::open(
        [&pods[0]],
        Options { columns: Some(vec!["read_id".into(), "nope".into()]), ..Options::default() },
    )
    .err()
    .expect("error");
    assert!(e.to_string().contains("no column nope"), "{e}");
    assert!(e.to_string().contains("read_number"), "{e}");

    // BLOW5 files whose auxiliary fields differ: named when reached.
    let plain = blows.iter().find(|p| p.ends_with("reads_zstd_svb_zd.blow5")).unwrap();
    let with_aux = blows.iter().find(|p| p.ends_with("p2solo_ulk114_dna.blow5")).unwrap();
    let mut b = ReadBatches::open([plain, with_aux], Options::default()).expect("open");
    let e = loop {
        match b.next_batch() {
            Ok(Some(_)) => continue,
            Ok(None) => panic!("no mismatch reported"),
            Err(e) => break e,
        }
    };
    assert!(matches!(e, ArrowReadError::SchemaMismatch { .. }), "{e}");
    assert!(e.to_string().contains("p2solo_ulk114_dna.blow5"), "{e}");
}

#[svb_testdata::data_test]
fn damaged_files_give_errors_not_panics(d: &Path, dir: &TempDir) {
    // A BLOW5 file with one byte of each record body flipped: the batch holding a damaged
    // record is an error (through the RecordBatchReader: an ExternalError holding ours).
    let src = std::fs::read(d.join("blow5/reads_zstd_svb_zd.blow5")).unwrap();
    let r = svb_blow5::Reader::open(d.join("blow5/reads_zstd_svb_zd.blow5")).unwrap();
    for i in 0..r.len() {
        let (off, size) = r.record_span(i).unwrap();
        for at in [off as usize + 9, (off + size / 2) as usize] {
            let mut bytes = src.clone();
            bytes[at] ^= 0x5a;
            let p = dir.join("bad.blow5");
            std::fs::write(&p, &bytes).unwrap();
            let Ok(b) = ReadBatches::open(
                [&p],
                Options { signal: SignalColumn::Raw, ..Options::default() },
            ) else {
                continue;
            };
            // Every outcome is values or an error; an error is ours, and ends the batches.
            let outcomes: Vec<_> = b.collect();
            assert!(outcomes.iter().rev().skip(1).all(Result::is_ok));
            for batch in outcomes {
                if let Err(e) = batch {
                    let arrow_schema::ArrowError::ExternalError(inner) = &e else { panic!("{e}") };
                    assert!(inner.downcast_ref::<ArrowReadError>().is_some(), "{e}");
                }
            }
        }
    }
    // A POD5 file cut short is refused at open.
    let src = std::fs::read(d.join("pod5/multi_fast5_zip.pod5")).unwrap();
    for cut in [8, src.len() / 2, src.len() - 1] {
        let p = dir.join("cut.pod5");
        std::fs::write(&p, &src[..cut]).unwrap();
        let e = ReadBatches::open([&p], Options::default()).err().expect("error");
        assert!(
            matches!(&e, ArrowReadError::Reads(r) if matches!(**r, ReadsError::Pod5(_))),
            "{e}"
        );
    }
}

#[svb_testdata::data_test]
fn an_open_reader_gives_the_batches_its_path_gives(data: &Path) {
    for file in [
        "pod5/multi_fast5_zip_v4.pod5",
        "blow5/reads_zstd_ex_zd.blow5",
        "fast5/vbz_compression__multi_fast5_vbz.fast5",
    ] {
        let path = data.join(file);
        let options =
            || Options { signal: SignalColumn::PicoAmps, batch_reads: 3, ..Options::default() };
        let reader = Arc::new(svb_reads::AnyReader::open(&path).unwrap());
        let of_reader = all(ReadBatches::of_reader(reader.clone(), options()).unwrap());
        assert_eq!(of_reader, all(ReadBatches::open([&path], options()).unwrap()), "{file}");
        assert!(of_reader.len() > 1, "{file}");
        // The reader is still the caller's.
        assert_eq!(Arc::strong_count(&reader), 1);
    }
}
