//! Whole BLOW5 files (../shared/data/blow5, one per compression kind): open, then every
//! record's signal to int16, on one thread and on every core, against the `slow5lib` crate
//! (with its `svb` dependency's `simd-auto`: `slow5lib-simd`; as published, scalar:
//! `slow5lib`, from the `--no-default-features` build) and the `slow5` crate (slowlib's C
//! library) doing the same work in the same run. `slow5` gets a copy of each file, as it may
//! write an index beside its input.
//!
//! Run: `cargo bench -p svb-bench --bench slow5_file` (and with `--no-default-features` for
//! the scalar slow5lib figures; `cargo xtask bench` runs both).

use std::hint::black_box;
use std::path::Path;
use svb_blow5::Threads;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};

/// The name of the slow5lib build under test.
const SLOW5LIB: &str = if cfg!(feature = "peers-simd") { "slow5lib-simd" } else { "slow5lib" };

fn slow5lib_one_thread(path: &Path) {
    let mut r = slow5lib::Slow5Reader::open(path).unwrap();
    for rec in r.records() {
        black_box(rec.unwrap().raw_signal);
    }
}

fn slow5lib_all_cores(path: &Path) {
    use rayon::prelude::*;
    let mut r = slow5lib::Slow5Reader::open(path).unwrap();
    r.par_records().for_each(|rec| {
        black_box(rec.unwrap().raw_signal);
    });
}

fn files(c: &mut Criterion) {
    let Some(dir) = svb_testdata::data_dir() else { return };
    svb_bench::steady_state_allocator();
    let scratch = std::env::temp_dir().join(format!("svb-bench-blow5-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).unwrap();
    for kind in ["zstd_svb_zd", "zstd_ex_zd", "zlib_svb_zd", "none_none"] {
        let path = dir.join("blow5").join(format!("reads_{kind}.blow5"));
        let copy = scratch.join(format!("reads_{kind}.blow5"));
        std::fs::copy(&path, &copy).unwrap();
        let samples: u64 = svb_blow5::Reader::open(&path)
            .unwrap()
            .records()
            .map(|r| r.unwrap().raw_signal.len() as u64)
            .sum();

        let mut g = c.benchmark_group(format!("blow5_file_{kind}/one_thread"));
        g.throughput(Throughput::Elements(samples));
        if cfg!(feature = "peers-simd") {
            g.bench_function(BenchmarkId::new("svb", samples), |b| {
                b.iter(|| {
                    let r = svb_blow5::Reader::open(black_box(&path)).unwrap();
                    for rec in r.records() {
                        black_box(rec.unwrap().raw_signal);
                    }
                })
            });
            #[cfg(feature = "c-peers")]
            g.bench_function(BenchmarkId::new("slow5", samples), |b| {
                b.iter(|| {
                    use slow5::RecordExt;
                    let mut r = slow5::FileReader::open(black_box(&copy)).unwrap();
                    for rec in r.records() {
                        let rec = rec.unwrap();
                        black_box(rec.raw_signal_iter().collect::<Vec<i16>>());
                    }
                })
            });
        }
        g.bench_function(BenchmarkId::new(SLOW5LIB, samples), |b| {
            b.iter(|| slow5lib_one_thread(black_box(&path)))
        });
        g.finish();

        let mut g = c.benchmark_group(format!("blow5_file_{kind}/all_cores"));
        g.throughput(Throughput::Elements(samples));
        if cfg!(feature = "peers-simd") {
            g.bench_function(BenchmarkId::new("svb", samples), |b| {
                b.iter(|| {
                    let r = svb_blow5::Reader::open(black_box(&path)).unwrap();
                    black_box(r.decode_all(Threads::Current).unwrap());
                })
            });
            // The two other ways to reach the bytes: a positioned read per record (what
            // `open` does above 64 MiB), and the unsafe map.
            g.bench_function(BenchmarkId::new("svb-read-at", samples), |b| {
                b.iter(|| {
                    let r =
                        svb_blow5::Reader::open_with(black_box(&path), svb_blow5::Access::ReadAt)
                            .unwrap();
                    black_box(r.decode_all(Threads::Current).unwrap());
                })
            });
            g.bench_function(BenchmarkId::new("svb-mapped", samples), |b| {
                b.iter(|| {
                    // SAFETY: the conformance files are never written.
                    let r = unsafe { svb_blow5::Reader::open_mapped(black_box(&path)) }.unwrap();
                    black_box(r.decode_all(Threads::Current).unwrap());
                })
            });
        }
        g.bench_function(BenchmarkId::new(SLOW5LIB, samples), |b| {
            b.iter(|| slow5lib_all_cores(black_box(&path)))
        });
        g.finish();
    }
    let _ = std::fs::remove_dir_all(&scratch);
}

criterion_group!(benches, files);
criterion_main!(benches);
