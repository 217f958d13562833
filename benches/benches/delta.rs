//! `delta/*` and `zigzag/*` at 128/1024/8192 with `svb` 0.3.1 in the same groups:
//! single-chain i16 decode, 2-chain, K-chain (K = 2, 4, 8), encode, u32 decode, zigzag.
//!
//! Run: `cargo bench -p svb-bench --bench delta`.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use svb_bench::{signal_i16, SIZES};
use svb_delta::{delta, zigzag};

fn group<'a>(
    c: &'a mut Criterion, name: &str, n: usize,
) -> criterion::BenchmarkGroup<'a, criterion::measurement::WallTime> {
    let mut g = c.benchmark_group(name.to_string());
    g.throughput(Throughput::Elements(n as u64));
    g
}

fn delta_benches(c: &mut Criterion) {
    for n in SIZES {
        let v = signal_i16(n);
        let d = delta::encode(&v);
        let mid = delta::mid_carry(0, &d);
        let mut out: Vec<i16> = Vec::with_capacity(n);

        let mut g = group(c, "delta/decode_i16", n);
        g.bench_function(BenchmarkId::new("svb", n), |b| {
            b.iter(|| {
                out.clear();
                delta::decode_into(black_box(&d), &mut out);
            })
        });
        g.bench_function(BenchmarkId::new("svb-0.3.1", n), |b| {
            b.iter(|| {
                out.clear();
                svb_peer::delta::decode_into(black_box(&d), &mut out);
            })
        });
        g.finish();

        let mut g = group(c, "delta/decode_2chain_i16", n);
        g.bench_function(BenchmarkId::new("svb", n), |b| {
            b.iter(|| {
                out.clear();
                delta::decode_2chain_into(0, black_box(&d), mid, &mut out);
            })
        });
        g.bench_function(BenchmarkId::new("svb-0.3.1", n), |b| {
            b.iter(|| {
                out.clear();
                svb_peer::delta::decode_2chain_into(0, black_box(&d), mid, &mut out);
            })
        });
        g.finish();

        let mut g = group(c, "delta/decode_kchain_i16", n);
        for k in [2usize, 4, 8] {
            let carries = delta::kchain_carries(0, &d, k);
            g.bench_function(BenchmarkId::new(format!("svb-k{k}"), n), |b| {
                b.iter(|| {
                    out.clear();
                    delta::decode_kchain_into(0, black_box(&d), &carries, &mut out);
                })
            });
        }
        g.bench_function(BenchmarkId::new("svb-0.3.1-single", n), |b| {
            b.iter(|| {
                out.clear();
                svb_peer::delta::decode_into(black_box(&d), &mut out);
            })
        });
        g.bench_function(BenchmarkId::new("svb-0.3.1-2chain", n), |b| {
            b.iter(|| {
                out.clear();
                svb_peer::delta::decode_2chain_into(0, black_box(&d), mid, &mut out);
            })
        });
        g.finish();

        let mut g = group(c, "delta/encode_i16", n);
        g.bench_function(BenchmarkId::new("svb", n), |b| {
            b.iter(|| {
                out.clear();
                delta::encode_into(black_box(&v), &mut out);
            })
        });
        g.bench_function(BenchmarkId::new("svb-0.3.1", n), |b| {
            b.iter(|| {
                out.clear();
                svb_peer::delta::encode_into(black_box(&v), &mut out);
            })
        });
        g.finish();

        let d32: Vec<u32> = v.iter().map(|&x| (x as i32 as u32).wrapping_mul(2654435761)).collect();
        let mut out32: Vec<u32> = Vec::with_capacity(n);
        let mut g = group(c, "delta/decode_u32", n);
        g.bench_function(BenchmarkId::new("svb", n), |b| {
            b.iter(|| {
                out32.clear();
                delta::decode_into(black_box(&d32), &mut out32);
            })
        });
        g.bench_function(BenchmarkId::new("svb-0.3.1", n), |b| {
            b.iter(|| {
                out32.clear();
                svb_peer::delta::decode_into(black_box(&d32), &mut out32);
            })
        });
        g.finish();

        let codes = zigzag::encode(&d);
        let mut zout: Vec<u16> = Vec::with_capacity(n);
        let mut g = group(c, "zigzag/encode_i16", n);
        g.bench_function(BenchmarkId::new("svb", n), |b| {
            b.iter(|| {
                zout.clear();
                zigzag::encode_into(black_box(&d), &mut zout);
            })
        });
        g.bench_function(BenchmarkId::new("svb-0.3.1", n), |b| {
            b.iter(|| {
                zout.clear();
                svb_peer::zigzag::encode_into(black_box(&d), &mut zout);
            })
        });
        g.finish();
        let mut g = group(c, "zigzag/decode_i16", n);
        g.bench_function(BenchmarkId::new("svb", n), |b| {
            b.iter(|| {
                out.clear();
                zigzag::decode_into(black_box(&codes), &mut out);
            })
        });
        g.bench_function(BenchmarkId::new("svb-0.3.1", n), |b| {
            b.iter(|| {
                out.clear();
                svb_peer::zigzag::decode_into(black_box(&codes), &mut out);
            })
        });
        g.finish();
    }
}

criterion_group!(benches, delta_benches);
criterion_main!(benches);
