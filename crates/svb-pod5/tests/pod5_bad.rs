//! POD5 files written here (svb_testdata::pod5) read back; broken files (truncated, wrong
//! signature, corrupt footer, tables or rows pointing outside, chunks that fail to decode)
//! give errors naming the file, the table and the row, and never panic.

use svb_pod5::{Pod5Error, Reader, SignalEncoding, TableKind};
use svb_testdata::pod5::{ColumnEdit, Compress, Table, TestFile, TestRead};
use svb_vbz::Threads;

fn signal(n: usize, seed: u32) -> Vec<i16> {
    let mut rng = svb_testdata::Rng(seed as u64 * 2654435761 + 1);
    (0..n)
        .map(|i| {
            let x = rng.next();
            (400 + (i as i32 % 50) + (x % 31) as i32 - 15) as i16
        })
        .collect()
}

fn compress(s: &[i16]) -> Vec<u8> {
    svb_vbz::pod5_blob::compress_signal(s)
}

fn reads() -> Vec<TestRead> {
    [0usize, 1, 999, 1000, 1001, 4500]
        .iter()
        .enumerate()
        .map(|(i, &n)| TestRead::new(i as u8 + 1, signal(n, i as u32)))
        .collect()
}

fn file(reads: Vec<TestRead>, compress: Option<&Compress>) -> Vec<u8> {
    TestFile { reads, chunk_samples: 1000, signal_batch_rows: 3, compress, edit: None }.write()
}

fn check_reads_back(bytes: Vec<u8>, want: &[TestRead], encoding: SignalEncoding) {
    let r = Reader::from_bytes("t.pod5", bytes).unwrap();
    assert_eq!(r.signal_encoding(), encoding);
    assert_eq!(r.len(), want.len());
    assert_eq!(r.run_infos().len(), 1);
    assert_eq!(r.run_infos()[0].sample_rate, 5000);
    for (i, w) in want.iter().enumerate() {
        let read = &r.reads()[i];
        assert_eq!(read.info.read_id, w.read_id);
        assert_eq!(read.info.channel, u32::from(w.channel));
        assert_eq!(read.info.well, w.well);
        assert_eq!(&*read.info.end_reason, "signal_positive");
        assert_eq!(read.info.open_pore_level, Some(210.5));
        assert_eq!(r.decode_signal(i).unwrap(), w.signal);
        let chunks = r.chunks(i).unwrap();
        assert_eq!(chunks.len(), w.signal.len().div_ceil(1000));
        assert!(chunks.iter().all(|c| c.samples <= 1000));
    }
    let mut seen = std::sync::Mutex::new(0usize);
    r.for_each_parallel(Threads::Current, |i, _, s| {
        assert_eq!(s, want[i].signal);
        *seen.lock().unwrap() += 1;
    })
    .unwrap();
    assert_eq!(*seen.get_mut().unwrap(), want.len());
}

#[test]
fn written_files_read_back_vbz_and_uncompressed() {
    let want = reads();
    check_reads_back(file(want.clone(), Some(&compress)), &want, SignalEncoding::Vbz);
    check_reads_back(file(want.clone(), None), &want, SignalEncoding::Uncompressed);
    let empty = file(Vec::new(), Some(&compress));
    let r = Reader::from_bytes("empty.pod5", empty).unwrap();
    assert!(r.is_empty());
}

fn open_err(bytes: Vec<u8>) -> Pod5Error {
    match Reader::from_bytes("bad.pod5", bytes) {
        Ok(_) => panic!("a broken file opened"),
        Err(e) => {
            assert!(e.to_string().starts_with("bad.pod5: "), "{e}");
            e
        }
    }
}

#[test]
fn truncated_files_are_rejected_at_every_length() {
    let bytes = file(reads(), Some(&compress));
    for len in 0..bytes.len() {
        let e = open_err(bytes[..len].to_vec());
        assert!(matches!(e, Pod5Error::Container { .. }), "{len}: {e}");
    }
}

/// The recovering open of the same file cut anywhere (a sample of lengths, dense from just
/// before the end of its tables): every read exactly for every cut inside the footer (its
/// tables whole); an error naming the file before that; never a panic or a wrong read.
#[test]
fn the_recovering_open_rebuilds_a_cut_footer_at_every_length() {
    let want = reads();
    for (compress, encoding) in
        [(Some(&compress as &Compress), SignalEncoding::Vbz), (None, SignalEncoding::Uncompressed)]
    {
        let bytes = file(want.clone(), compress);
        let whole = Reader::from_bytes("t.pod5", bytes.clone()).unwrap();
        let tables_end = whole.footer().tables_end() as usize;
        // A sample of lengths before the end of the tables, every third after it, and the
        // ends of the ranges.
        let lens = (0..tables_end - 64)
            .step_by(997)
            .chain((tables_end - 64..=bytes.len()).step_by(3))
            .chain([tables_end - 1, tables_end, bytes.len() - 1, bytes.len()]);
        for len in lens {
            match Reader::from_bytes_recovering("cut.pod5", bytes[..len].to_vec()) {
                Ok((r, fault)) => {
                    assert!(len >= tables_end, "{len}: opened with its tables cut");
                    assert_eq!(fault.is_none(), len == bytes.len(), "{len}");
                    assert_eq!(r.signal_encoding(), encoding);
                    assert_eq!(r.len(), want.len(), "{len}");
                    for (i, w) in want.iter().enumerate() {
                        assert_eq!(r.reads()[i].info.read_id, w.read_id);
                        // The samples at the shortest and longest cuts (the same bytes
                        // between them).
                        if len == tables_end || len + 1 == bytes.len() {
                            assert_eq!(r.decode_signal(i).unwrap(), w.signal, "{len}: {i}");
                        }
                    }
                }
                Err(e) => {
                    assert!(len < tables_end, "{len}: refused with its tables whole: {e}");
                    assert!(e.to_string().starts_with("cut.pod5: "), "{e}");
                }
            }
        }
    }
}

#[test]
fn signature_and_footer_damage() {
    let bytes = file(reads(), Some(&compress));
    let mut b = bytes.clone();
    b[1] = b'Q';
    let e = open_err(b);
    assert!(e.to_string().contains("signature"), "{e}");

    // The footer length field, too large then negative.
    let at = bytes.len() - 32;
    for v in [i64::MAX, -8, 0, bytes.len() as i64] {
        let mut b = bytes.clone();
        b[at..at + 8].copy_from_slice(&v.to_le_bytes());
        let e = open_err(b);
        assert!(e.to_string().contains("footer"), "{v}: {e}");
    }
    // The footer flatbuffer overwritten.
    let len = i64::from_le_bytes(bytes[at..at + 8].try_into().unwrap()) as usize;
    for fill in [0x00u8, 0xff, 0x41] {
        let mut b = bytes.clone();
        b[at - len..at].fill(fill);
        let _ = open_err(b);
    }
}

/// Patches the i64 that equals `old` inside the footer.
fn patch_footer_i64(bytes: &mut [u8], old: i64, new: i64) {
    let at = bytes.len() - 32;
    let len = i64::from_le_bytes(bytes[at..at + 8].try_into().unwrap()) as usize;
    let footer = at - len..at;
    let pos = bytes[footer.clone()]
        .windows(8)
        .position(|w| w == old.to_le_bytes())
        .expect("value in footer")
        + footer.start;
    bytes[pos..pos + 8].copy_from_slice(&new.to_le_bytes());
}

#[test]
fn embedded_tables_outside_the_file_or_cut_short() {
    let bytes = file(reads(), Some(&compress));
    // The first table (signal) starts at 24.
    let mut b = bytes.clone();
    patch_footer_i64(&mut b, 24, 1 << 40);
    let e = open_err(b);
    assert!(e.to_string().contains("outside the data section"), "{e}");

    let arrow_end = bytes.windows(6).position(|w| w == b"ARROW1").unwrap();
    assert_eq!(arrow_end, 24);
    let signal_len = bytes[30..].windows(6).position(|w| w == b"ARROW1").unwrap() + 30 + 6 - 24;
    let mut b = bytes.clone();
    patch_footer_i64(&mut b, signal_len as i64, signal_len as i64 - 16);
    let e = open_err(b);
    assert!(matches!(e, Pod5Error::Table { table: TableKind::Signal, .. }), "{e}");
}

#[test]
fn rows_pointing_past_the_signal_table_or_miscounted() {
    let mut rs = reads();
    rs[2].signal_rows_override = Some(vec![1, 999]);
    let e = open_err(file(rs, Some(&compress)));
    match &e {
        Pod5Error::Row { table: TableKind::Reads, row: 2, what, .. } => {
            assert!(what.contains("signal row 999 is past the signal table"), "{e}")
        }
        _ => panic!("{e}"),
    }
    let mut rs = reads();
    rs[4].num_samples_override = Some(5);
    let e = open_err(file(rs, None));
    assert!(matches!(e, Pod5Error::Row { table: TableKind::Reads, row: 4, .. }), "{e}");
    assert!(e.to_string().contains("num_samples is 5"), "{e}");
}

#[test]
fn a_chunk_that_fails_to_decode_names_the_read_and_row() {
    // Read 4 (1001 samples: rows 3 and 4 of the signal table... its second chunk has 1
    // sample) gets a truncated blob for its first chunk.
    let broken = |s: &[i16]| {
        let mut b = compress(s);
        if s.len() == 1000 && s[0] == signal(1001, 4)[0] && s == &signal(1001, 4)[..1000] {
            b.truncate(b.len() / 2);
        }
        b
    };
    let r = Reader::from_bytes("bad.pod5", file(reads(), Some(&broken))).unwrap();
    for i in [0, 1, 2, 3, 5] {
        r.decode_signal(i).unwrap();
    }
    let e = r.decode_signal(4).unwrap_err();
    match &e {
        Pod5Error::Signal { row: 4, read_id, signal_row, .. } => {
            assert_eq!(read_id, &r.reads()[4].read_id_string());
            assert_eq!(*signal_row, r.chunks(4).unwrap()[0].row);
        }
        _ => panic!("{e}"),
    }
    assert!(e.to_string().starts_with("bad.pod5: read 05050505-"), "{e}");
    let mut buf = vec![0i16; 3];
    assert!(r.decode_signal_into(4, &mut buf).is_err());
    assert_eq!(buf, [0, 0, 0]);
    let par = r.for_each_parallel(Threads::Current, |_, _, _| {}).unwrap_err();
    assert_eq!(par.to_string(), e.to_string());
    let mut short = vec![0i16; 10];
    assert!(matches!(r.decode_signal_to_slice(0, &mut short), Err(Pod5Error::OutputLength { .. })));
}

#[test]
fn random_damage_never_panics() {
    let bytes = file(reads(), Some(&compress));
    let mut rng = svb_testdata::Rng(0x9e37_79b9);
    let mut next = || rng.next();
    let mut opened = 0;
    for _ in 0..3000 {
        let mut b = bytes.clone();
        for _ in 0..1 + next() % 4 {
            let at = (next() % b.len() as u64) as usize;
            b[at] = next() as u8;
        }
        if let Ok(r) = Reader::from_bytes("fuzz.pod5", b) {
            opened += 1;
            for i in 0..r.len() {
                let _ = r.decode_signal(i);
            }
        }
    }
    assert!(opened > 0);
}

/// Every column ONT's reader requires of a file of pod5 0.3.49 (the reads table's, the
/// run-info table's), removed, renamed (as blue-crab's `missing_primary_field.pod5` renames
/// `calibration_offset`) or retyped: the file is refused with an error naming the table and
/// the column, never read with a default in its place.
#[test]
fn a_required_column_removed_renamed_or_retyped_is_refused() {
    let reads = vec![TestRead::new(1, signal(3000, 1))];
    let write = |edit: Option<ColumnEdit>| {
        TestFile {
            reads: reads.clone(),
            chunk_samples: 1000,
            signal_batch_rows: 3,
            compress: Some(&compress),
            edit,
        }
        .write()
    };
    Reader::from_bytes("whole.pod5", write(None)).expect("the unedited file reads");
    let columns: Vec<(Table, TableKind, &str)> = svb_pod5::required_reads_columns("0.3.49")
        .unwrap()
        .into_iter()
        .map(|c| (Table::Reads, TableKind::Reads, c))
        .chain(
            svb_pod5::required_run_info_columns().map(|c| (Table::RunInfo, TableKind::RunInfo, c)),
        )
        .collect();
    assert_eq!(columns.len(), 22 + 20);
    let mut checked = 0;
    for (table, kind, column) in columns {
        let edits = [
            ColumnEdit::Remove(table, column.into()),
            ColumnEdit::Rename(table, column.into(), format!("{column}_renamed")),
            ColumnEdit::Retype(table, column.into()),
        ];
        for e in edits {
            let what = format!("{e:?}");
            match Reader::from_bytes("edited.pod5", write(Some(e))) {
                Err(Pod5Error::Table { table, what: why, .. }) => {
                    assert_eq!(table, kind, "{what}: {why}");
                    assert!(why.contains(&format!("column {column} ")), "{what}: {why}");
                }
                other => panic!("{what}: {other:?}"),
            }
            checked += 1;
        }
    }
    assert_eq!(checked, 3 * 42);
}
