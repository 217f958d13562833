//! slow5lib's signal codecs (SVB-ZD, ex-zd) with `svb` 0.3.1 in the same groups (whole
//! BLOW5 files are in slow5_file.rs).
//!
//! Run: `cargo bench -p svb-bench --bench slow5`.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use svb_bench::{signal_i16, SIZES};

fn codecs(c: &mut Criterion) {
    for n in SIZES {
        let signal = signal_i16(n);
        let stream = svb_slow5_signal::encode_svbzd(&signal);
        assert_eq!(stream, svb_peer::encode_svbzd(&signal), "the same SVB-ZD wire");
        let mut out: Vec<i16> = Vec::with_capacity(n);

        let mut g = c.benchmark_group("svbzd/decode_fused");
        g.throughput(Throughput::Elements(n as u64));
        g.bench_function(BenchmarkId::new("svb", n), |b| {
            b.iter(|| {
                out.clear();
                svb_slow5_signal::decode_svbzd_fused_into(black_box(&stream), n, &mut out).unwrap();
            })
        });
        g.bench_function(BenchmarkId::new("svb-0.3.1", n), |b| {
            b.iter(|| {
                out.clear();
                svb_peer::decode_svbzd_fused_into(black_box(&stream), n, &mut out).unwrap();
            })
        });
        g.finish();

        let mut g = c.benchmark_group("svbzd/decode_3pass");
        g.throughput(Throughput::Elements(n as u64));
        g.bench_function(BenchmarkId::new("svb", n), |b| {
            b.iter(|| {
                out.clear();
                svb_slow5_signal::decode_svbzd_into(black_box(&stream), n, &mut out).unwrap();
            })
        });
        g.bench_function(BenchmarkId::new("svb-0.3.1", n), |b| {
            b.iter(|| {
                out.clear();
                svb_peer::decode_svbzd_into(black_box(&stream), n, &mut out).unwrap();
            })
        });
        g.finish();

        let ours = svb_slow5_signal::encode_exzd(&signal);
        let theirs = svb_peer::encode_exzd(&signal);
        let mut dec = svb_slow5_signal::ExZdDecoder::new();
        let mut g = c.benchmark_group("exzd/decode_fused");
        g.throughput(Throughput::Elements(n as u64));
        g.bench_function(BenchmarkId::new("svb", n), |b| {
            b.iter(|| {
                out.clear();
                dec.decode_fused_into(black_box(&ours), &mut out).unwrap();
            })
        });
        g.bench_function(BenchmarkId::new("svb-0.3.1", n), |b| {
            b.iter(|| {
                out.clear();
                svb_peer::decode_exzd_fused_into(black_box(&theirs), &mut out).unwrap();
            })
        });
        g.finish();
    }
}

criterion_group!(benches, codecs);
criterion_main!(benches);
