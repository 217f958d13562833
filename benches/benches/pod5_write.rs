//! Writing POD5: every read of ../shared/data/pod5/multi_fast5_zip.pod5, 50 times under fresh
//! read ids (the "shared reads x50"), VBZ-compressed on every core (rayon), as
//! ONT's writer lays it out (102400-sample chunks, batches of 100 signal rows).
//! `cargo xtask bench` adds ONT's Python `pod5.Writer` writing the same reads
//! (benches/python/pod5_write.py) as the `python-pod5` peer.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BatchSize, BenchmarkId, Criterion, Throughput};
use svb_pod5::{ReadInfo, Reader, WriteOptions, Writer};

/// How many times the shared reads are written.
pub const COPIES: usize = 50;

fn write(c: &mut Criterion) {
    let Some(dir) = svb_testdata::data_dir() else { return };
    let src = Reader::open(dir.join("pod5/multi_fast5_zip.pod5")).unwrap();
    let mut reads: Vec<(ReadInfo, Vec<i16>)> = Vec::new();
    for copy in 0..COPIES {
        for (i, r) in src.reads().iter().enumerate() {
            let mut read = r.info.clone();
            // A fresh id per copy: the copy number in the id's last two bytes.
            read.read_id[14..].copy_from_slice(&(copy as u16).to_le_bytes());
            reads.push((read, src.decode_signal(i).unwrap()));
        }
    }
    let samples: u64 = reads.iter().map(|(_, s)| s.len() as u64).sum();
    let out_dir = std::env::temp_dir().join(format!("svb-bench-pod5-write-{}", std::process::id()));
    std::fs::create_dir_all(&out_dir).unwrap();
    let out = out_dir.join("svb-write.pod5");

    let mut g = c.benchmark_group("pod5_write_vbz/all_cores");
    g.throughput(Throughput::Elements(samples));
    g.sample_size(10);
    // `svb`: the default, the file synced to the disk before its rename; `svb-unsynced`:
    // the write-back left to the OS, as the peer leaves it.
    for (name, sync) in [("svb", true), ("svb-unsynced", false)] {
        g.bench_function(BenchmarkId::new(name, samples), |b| {
            // A new file each time, as the peer writes it: renaming over the last one would
            // make the file system write back the new one first (ext4's auto_da_alloc).
            let fresh = || {
                let _ = std::fs::remove_file(&out);
            };
            b.iter_batched(
                fresh,
                |()| {
                    let mut options = WriteOptions::default();
                    options.publish.sync = sync;
                    let mut w = Writer::create(&out, options).unwrap();
                    for run in src.run_infos() {
                        w.add_run_info(run).unwrap();
                    }
                    w.add_reads(black_box(&reads)).unwrap();
                    black_box(w.finish().unwrap());
                },
                BatchSize::PerIteration,
            )
        });
    }
    g.finish();
    let _ = std::fs::remove_dir_all(&out_dir);
}

criterion_group!(benches, write);
criterion_main!(benches);
