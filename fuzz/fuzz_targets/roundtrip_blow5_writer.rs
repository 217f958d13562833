#![no_main]
//! Arbitrary signals through the BLOW5 writer under every record and signal compression, or
//! as SLOW5 text (chosen by the first byte), read back by our reader: every record as written. A record the
//! writer refuses (only an empty ex-zd signal can be) is a typed error, never a panic.

use libfuzzer_sys::fuzz_target;
use svb_blow5::{
    AuxField, AuxValue, FieldType, OnExisting, Publish, Reader, Record, RecordCompression, Schema,
    SignalCompression, WriteOptions, Writer, ZstdProfile,
};

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let record_compression =
        [RecordCompression::None, RecordCompression::Zlib, RecordCompression::Zstd]
            [mode as usize % 3];
    let signal_compression =
        [SignalCompression::None, SignalCompression::SvbZd, SignalCompression::ExZd]
            [mode as usize / 3 % 3];
    // Up to four records: each a u16 LE sample count, then its samples (as far as they go).
    let mut records = Vec::new();
    let mut at = rest;
    while records.len() < 4 && at.len() >= 2 {
        let n = u16::from_le_bytes([at[0], at[1]]) as usize;
        let body = &at[2..];
        let take = (2 * n).min(body.len() & !1);
        let raw_signal: Vec<i16> =
            body[..take].chunks_exact(2).map(|c| i16::from_le_bytes([c[0], c[1]])).collect();
        at = &body[take..];
        records.push(Record {
            read_id: format!("r{}", records.len()),
            digitisation: 8192.0,
            range: 1400.0,
            sampling_rate: 4000.0,
            aux: vec![("n".into(), AuxValue::UInt(raw_signal.len() as u64))],
            raw_signal,
            ..Record::default()
        });
    }
    let schema = Schema {
        read_groups: vec![vec![("run_id".into(), "fuzz".into())]],
        aux: vec![AuxField {
            name: "n".into(),
            ty: FieldType::Scalar { name: "uint32_t".into(), size: 4 },
        }],
    };
    let path = std::env::temp_dir().join(format!("svb-fuzz-writer-{}.blow5", std::process::id()));
    // Bit 6: SLOW5 text, which has no compression.
    let text = mode & 0x40 != 0;
    let options = WriteOptions {
        record_compression: if text { RecordCompression::None } else { record_compression },
        signal_compression: if text { SignalCompression::None } else { signal_compression },
        form: if text { svb_model::Form::Text } else { svb_model::Form::Binary },
        batch_records: 2,
        version: (0, 2, 0),
        unique_read_ids: true,
        // Raw literals when the records are zstd and the mode says so.
        zstd_profile: if record_compression == RecordCompression::Zstd && mode >= 128 && !text {
            ZstdProfile::DecodeFast
        } else {
            ZstdProfile::Standard
        },
        // The path is this process's, reused run after run; the file need not reach the disk.
        publish: Publish { sync: false, on_existing: OnExisting::Replace },
        // Exact text floats: what is read back must be what was written.
        float_text: svb_blow5::FloatText::Exact,
    };
    // Bit 5: the version slow5lib keeps for an input of 0.1.0 (0.1.0 itself for uncompressed
    // or zlib records without signal compression): the same layout, read back alike.
    let options = match mode & 0x20 != 0 {
        true => options.versioned_like((0, 1, 0)),
        false => options,
    };
    let mut w = Writer::create(&path, schema, options).unwrap();
    let mut written = Vec::new();
    for r in &records {
        match w.add_record(r) {
            Ok(()) => written.push(r),
            Err(e) => {
                assert!(
                    r.raw_signal.is_empty() && signal_compression == SignalCompression::ExZd,
                    "{e}"
                );
            }
        }
    }
    assert_eq!(w.finish().unwrap(), written.len() as u64);
    let back = Reader::open(&path).unwrap();
    assert_eq!(back.len(), written.len());
    for (i, want) in written.iter().enumerate() {
        let got = back.record(i).unwrap();
        assert_eq!(&got.raw_signal, &want.raw_signal);
        assert_eq!(got.read_id, want.read_id);
        assert_eq!(got.aux, want.aux);
    }
    let _ = std::fs::remove_file(&path);
});
