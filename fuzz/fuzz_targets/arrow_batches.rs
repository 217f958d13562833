#![no_main]
//! Arbitrary bytes as a POD5 or BLOW5 file read as Arrow record batches (`svb-arrow`): the
//! first byte picks the signal column (none, raw, pA) and whether batches are one read; the
//! rest is the file. Opening and every batch give batches or an error, never a panic, and a
//! batch's signal list holds what its length column says.

use libfuzzer_sys::fuzz_target;
use svb_arrow::{Options, ReadBatches, SignalColumn};

fuzz_target!(|data: &[u8]| {
    let Some((&mode, file)) = data.split_first() else {
        return;
    };
    let path =
        std::env::temp_dir().join(format!("svb-fuzz-arrow-batches-{}.bin", std::process::id()));
    if std::fs::write(&path, file).is_err() {
        return;
    }
    let signal = match mode % 3 {
        0 => SignalColumn::None,
        1 => SignalColumn::Raw,
        _ => SignalColumn::PicoAmps,
    };
    let options = Options {
        signal,
        batch_reads: if mode & 0x80 != 0 { 1 } else { 1024 },
        batch_samples: 1 << 16,
        ..Options::default()
    };
    // The file is this process's, written each run and removed after it.
    if let Ok(batches) = ReadBatches::open([&path], options) {
        for batch in batches {
            let Ok(batch) = batch else { break };
            if let Some(name) = signal.column() {
                let lists = batch.column_by_name(name).expect("the signal column");
                assert_eq!(lists.len(), batch.num_rows());
            }
        }
    }
    let _ = std::fs::remove_file(&path);
});
