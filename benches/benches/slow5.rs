//! slow5lib's signal codecs (SVB-ZD, ex-zd) with `svb` 0.3.1 in the same groups, and whole
//! BLOW5 files decoded by our reader (one thread and all cores).
//!
//! Run: `cargo bench -p svb-bench --bench slow5`.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use svb_bench::{signal_i16, SIZES};

fn codecs(c: &mut Criterion) {
    for n in SIZES {
        let signal = signal_i16(n);
        let stream = svb_slow5::encode_svbzd(&signal);
        assert_eq!(
            stream,
            svb_peer::encode_svbzd(&signal),
            "the same SVB-ZD wire"
        );
        let mut out: Vec<i16> = Vec::with_capacity(n);

        let mut g = c.benchmark_group("svbzd/decode_fused");
        g.throughput(Throughput::Elements(n as u64));
        g.bench_function(BenchmarkId::new("svb", n), |b| {
            b.iter(|| {
                out.clear();
                svb_slow5::decode_svbzd_fused_into(black_box(&stream), n, &mut out).unwrap();
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
                svb_slow5::decode_svbzd_into(black_box(&stream), n, &mut out).unwrap();
            })
        });
        g.bench_function(BenchmarkId::new("svb-0.3.1", n), |b| {
            b.iter(|| {
                out.clear();
                svb_peer::decode_svbzd_into(black_box(&stream), n, &mut out).unwrap();
            })
        });
        g.finish();

        let ours = svb_slow5::encode_exzd(&signal);
        let theirs = svb_peer::encode_exzd(&signal);
        let mut dec = svb_slow5::ExZdDecoder::new();
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

/// Whole BLOW5 files of the conformance data: every record's signal, one thread and all
/// cores.
fn files(c: &mut Criterion) {
    let Some(dir) = svb_testdata::data_dir() else {
        return;
    };
    for name in [
        "reads_zstd_svb_zd",
        "reads_zstd_ex_zd",
        "reads_zlib_svb_zd",
        "reads_none_none",
    ] {
        let path = dir.join("blow5").join(format!("{name}.blow5"));
        let reader = svb_slow5::blow5::Reader::open(&path).unwrap();
        let samples: usize = reader.records().map(|r| r.unwrap().raw_signal.len()).sum();
        let mut g = c.benchmark_group(format!("blow5/{name}"));
        g.throughput(Throughput::Elements(samples as u64));
        g.sample_size(20);
        g.bench_function(BenchmarkId::new("svb-1thread", samples), |b| {
            b.iter(|| {
                for r in reader.records() {
                    black_box(r.unwrap());
                }
            })
        });
        g.bench_function(BenchmarkId::new("svb-all-cores", samples), |b| {
            b.iter(|| black_box(reader.decode_all_parallel().unwrap()))
        });
        g.finish();
    }
}

criterion_group!(benches, codecs, files);
criterion_main!(benches);
