#![no_main]
//! Arbitrary reads through the FAST5 writer under each signal filter (chosen by the first
//! byte), read back by our reader: every read as written, its samples and its attributes
//! (text of any bytes and of lengths around the most a header message holds, numbers of any
//! value, end reasons of any label list). What the writer refuses (a duplicate id, a NUL in
//! text, a number its type cannot hold, an enum value outside its members, an attribute
//! larger than a header message) is a typed error and leaves no file, never a panic.

use std::sync::Arc;

use libfuzzer_sys::fuzz_target;
use svb_fast5::{AttrValue, Attrs, ReadGroups, Reader, SignalFilter, WriteOptions, Writer};
use svb_io::{OnExisting, Publish};

/// Takes `n` bytes off the front of `at` (fewer where it is shorter).
fn take<'a>(at: &mut &'a [u8], n: usize) -> &'a [u8] {
    let n = n.min(at.len());
    let (head, tail) = at.split_at(n);
    *at = tail;
    head
}

fn byte(at: &mut &[u8]) -> u8 {
    take(at, 1).first().copied().unwrap_or(0)
}

/// An attribute value made of the next bytes: its kind by one byte.
fn value(at: &mut &[u8]) -> AttrValue {
    let kind = byte(at);
    let mut eight = [0u8; 8];
    let raw = take(at, 8);
    eight[..raw.len()].copy_from_slice(raw);
    match kind % 5 {
        0 => AttrValue::Int(i64::from_le_bytes(eight)),
        1 => AttrValue::UInt(u64::from_le_bytes(eight)),
        2 => AttrValue::Float(f64::from_le_bytes(eight)),
        // Text of any bytes, or long: around the most an object header's message holds
        // (65,528 bytes with the attribute's name and types), which the writer refuses past.
        3 if eight[1] & 0x80 != 0 => {
            let len = 65_300 + usize::from(eight[2]) * 2;
            AttrValue::Text(String::from_utf8_lossy(take(at, 4)).repeat(len / 4 + 1))
        }
        3 => {
            let len = usize::from(eight[0] % 24);
            AttrValue::Text(String::from_utf8_lossy(take(at, len)).into_owned())
        }
        _ => {
            let labels: Vec<String> = (0..1 + eight[0] % 6).map(|i| format!("reason{i}")).collect();
            let values =
                (0..labels.len() as i64).map(|v| (v * 3 + i64::from(eight[1])) % 300).collect();
            AttrValue::Enum { label: None, value: i64::from(eight[2]), labels, values }
        }
    }
}

const RAW_NAMES: [&str; 6] =
    ["read_number", "start_time", "duration", "start_mux", "median_before", "end_reason"];

fuzz_target!(|data: &[u8]| {
    let mut at = data;
    let mode = byte(&mut at);
    let signal = [SignalFilter::Vbz, SignalFilter::Gzip(1), SignalFilter::None][mode as usize % 3];
    let run: Attrs = Arc::from(vec![("run_id".to_string(), AttrValue::Text("fuzz".into()))]);
    let mut reads = Vec::new();
    while reads.len() < 4 && at.len() >= 3 {
        let id = format!("r{}", byte(&mut at) % 6);
        let n = usize::from(u16::from_le_bytes([byte(&mut at), byte(&mut at)]));
        let signal: Vec<i16> = take(&mut at, 2 * n)
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]))
            .collect();
        let mut raw = vec![("read_id".to_string(), AttrValue::Text(id.clone()))];
        for name in RAW_NAMES.iter().take(usize::from(byte(&mut at) % 7)) {
            raw.push((name.to_string(), value(&mut at)));
        }
        let channel = vec![
            ("channel_number".to_string(), AttrValue::Text("1".into())),
            ("digitisation".to_string(), AttrValue::Float(8192.0)),
            ("offset".to_string(), value(&mut at)),
            ("range".to_string(), AttrValue::Float(1400.0)),
            ("sampling_rate".to_string(), AttrValue::Float(4000.0)),
        ];
        reads.push((id, raw, channel, signal));
    }
    let path = std::env::temp_dir().join(format!("svb-fuzz-fast5-{}.fast5", std::process::id()));
    let options = WriteOptions {
        signal,
        // The path is this process's, reused run after run; the file need not reach the disk.
        publish: Publish { sync: false, on_existing: OnExisting::Replace },
    };
    let own = vec![("run_id".to_string(), AttrValue::Text("fuzz".into()))];
    let mut w = Writer::create(&path, options).unwrap();
    let mut written = Vec::new();
    for (id, raw, channel, signal) in &reads {
        let groups = ReadGroups {
            read_id: id,
            read: &own,
            raw,
            channel_id: channel,
            tracking_id: &run,
            context_tags: &run,
            signal,
        };
        if w.add_reads(&[groups]).is_ok() {
            written.push((id, raw, signal));
        }
    }
    assert_eq!(w.finish().unwrap(), written.len() as u64);
    let back = Reader::open(&path).unwrap();
    assert_eq!(back.len(), written.len());
    for (id, raw, signal) in written {
        let i = back.find(id).expect("every read written is found");
        // A read whose mapped attributes do not read as FAST5's (a start_mux of 2^40) is an
        // error naming it; its samples and attributes are still the ones written.
        assert_eq!(&back.signal(i).unwrap(), signal);
        if let Ok(read) = back.read(i) {
            for (name, want) in raw {
                let got = &read.raw.iter().find(|(n, _)| n == name).expect("written").1;
                let same = match (want.as_f64(), got.as_f64()) {
                    (Some(x), Some(y)) => {
                        x.to_bits() == y.to_bits()
                            || (x as f32).to_bits() == (y as f32).to_bits()
                            || (x.is_nan() && y.is_nan())
                    }
                    _ => want == got,
                };
                assert!(same, "{name}: {want:?} written, {got:?} read");
            }
        }
    }
    let _ = std::fs::remove_file(&path);
});
