//! Writing BLOW5: every read of ../shared/data/blow5/reads_none_none.blow5, 20 times under
//! fresh read ids (31M samples), with zstd records and SVB-ZD signals, on every core (rayon).
//! `cargo xtask bench` adds pyslow5's `write_record_batch` on 2 threads writing the same
//! records (benches/python/blow5_write.py) as the `pyslow5` peer.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BatchSize, BenchmarkId, Criterion, Throughput};
use svb_blow5::{Reader, Record, Schema, WriteOptions, Writer};

/// How many times the shared reads are written.
pub const COPIES: usize = 20;

fn write(c: &mut Criterion) {
    let Some(dir) = svb_testdata::data_dir() else { return };
    let src = Reader::open(dir.join("blow5/reads_none_none.blow5")).unwrap();
    let schema = Schema::of(src.header());
    let reads: Vec<Record> = src.records().map(|r| r.unwrap()).collect();
    let records: Vec<Record> = (0..COPIES)
        .flat_map(|copy| {
            reads.iter().map(move |r| Record {
                read_id: if copy == 0 {
                    r.read_id.clone()
                } else {
                    format!("{}-{copy}", r.read_id)
                },
                ..r.clone()
            })
        })
        .collect();
    let samples: u64 = records.iter().map(|r| r.raw_signal.len() as u64).sum();
    let out_dir = std::env::temp_dir().join(format!("svb-bench-write-{}", std::process::id()));
    std::fs::create_dir_all(&out_dir).unwrap();
    let out = out_dir.join("svb-write.blow5");

    let mut g = c.benchmark_group("blow5_write_zstd_svb_zd/all_cores");
    g.throughput(Throughput::Elements(samples));
    g.sample_size(20);
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
                    let mut w = Writer::create(&out, schema.clone(), options).unwrap();
                    w.add_records(black_box(&records)).unwrap();
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
