#![no_main]
//! A BLOW5 file opened through an index that may not be its own: the input is
//! `[u16 LE index length][index bytes][file bytes]`. Opening gives a reader or an error, and
//! every record read through it (by position and by id) gives a record or an error, never a
//! panic, whatever the index claims.

use libfuzzer_sys::fuzz_target;
use svb_blow5::{Index, Reader};

fuzz_target!(|data: &[u8]| {
    let Some((len, rest)) = data.split_first_chunk::<2>() else {
        return;
    };
    let len = (u16::from_le_bytes(*len) as usize).min(rest.len());
    let (index, file) = rest.split_at(len);
    let Ok(index) = Index::parse(index) else {
        return;
    };
    // The reader reads a file by path: one per fuzzing process, written each run and
    // removed after it.
    let path =
        std::env::temp_dir().join(format!("svb-fuzz-open-indexed-{}.blow5", std::process::id()));
    if std::fs::write(&path, file).is_err() {
        return;
    }
    if let Ok(r) = Reader::open_indexed(&path, &index) {
        for i in 0..r.len() {
            let _ = r.record(i);
            let _ = r.read_id(i);
        }
        for (offset, size) in index.positions() {
            let _ = r.record_at(offset, size);
        }
    }
    let _ = std::fs::remove_file(&path);
});
