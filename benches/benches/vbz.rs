//! VBZ stages and POD5 chunk decompression, with `svb` 0.3.1 (svb16 stages; it has no zstd)
//! and zstd alone in the same groups.
//!
//! Run: `cargo bench -p svb-bench --bench vbz`.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use svb_bench::{signal_i16, SIZES};

fn stages(c: &mut Criterion) {
    for n in SIZES {
        let signal = signal_i16(n);
        let stream = svb_vbz::encode_vbz(&signal);
        assert_eq!(
            stream,
            svb_peer::encode_vbz(&signal),
            "both write ONT's svb16 wire"
        );
        let mut out: Vec<i16> = Vec::with_capacity(n);

        let mut g = c.benchmark_group("vbz/decode_fused");
        g.throughput(Throughput::Elements(n as u64));
        g.bench_function(BenchmarkId::new("svb", n), |b| {
            b.iter(|| {
                out.clear();
                svb_vbz::decode_vbz_fused_into(black_box(&stream), n, &mut out).unwrap();
            })
        });
        g.bench_function(BenchmarkId::new("svb-0.3.1", n), |b| {
            b.iter(|| {
                out.clear();
                svb_peer::decode_vbz_fused_into(black_box(&stream), n, &mut out).unwrap();
            })
        });
        g.finish();

        let mut g = c.benchmark_group("vbz/decode_3pass");
        g.throughput(Throughput::Elements(n as u64));
        g.bench_function(BenchmarkId::new("svb", n), |b| {
            b.iter(|| {
                out.clear();
                svb_vbz::decode_vbz_into(black_box(&stream), n, &mut out).unwrap();
            })
        });
        g.bench_function(BenchmarkId::new("svb-0.3.1", n), |b| {
            b.iter(|| {
                out.clear();
                svb_peer::decode_vbz_into(black_box(&stream), n, &mut out).unwrap();
            })
        });
        g.finish();

        let mut bytes: Vec<u8> = Vec::with_capacity(svb_vbz::max_encoded_len(n));
        let mut g = c.benchmark_group("vbz/encode");
        g.throughput(Throughput::Elements(n as u64));
        g.bench_function(BenchmarkId::new("svb", n), |b| {
            b.iter(|| {
                bytes.clear();
                svb_vbz::encode_vbz_into(black_box(&signal), &mut bytes);
            })
        });
        g.bench_function(BenchmarkId::new("svb-0.3.1", n), |b| {
            b.iter(|| {
                bytes.clear();
                svb_peer::encode_vbz_into(black_box(&signal), &mut bytes);
            })
        });
        g.finish();
    }
}

/// Whole POD5 chunks of the conformance data (real signal from ONT's writer): our
/// decompression against zstd alone on the same blobs (the ceiling: VBZ nearly free).
fn pod5_chunks(c: &mut Criterion) {
    let Some(dir) = svb_testdata::data_dir() else {
        return;
    };
    let chunks: Vec<(Vec<u8>, usize)> = svb_testdata::files_with_suffix(&dir.join("vbz"), ".vbz")
        .into_iter()
        .filter(|(name, _)| name.starts_with("pod5_chunk_"))
        .map(|(_, path)| {
            let blob = std::fs::read(&path).unwrap();
            let n = std::fs::metadata(path.with_extension("i16")).unwrap().len() as usize / 2;
            (blob, n)
        })
        .collect();
    let samples: usize = chunks.iter().map(|(_, n)| n).sum();
    let mut g = c.benchmark_group("pod5/decompress_chunks");
    g.throughput(Throughput::Elements(samples as u64));
    let mut out = vec![0i16; chunks.iter().map(|(_, n)| *n).max().unwrap_or(0)];
    g.bench_function(BenchmarkId::new("svb", samples), |b| {
        b.iter(|| {
            for (blob, n) in &chunks {
                svb_vbz::pod5::decompress_signal(black_box(blob), &mut out[..*n]).unwrap();
            }
        })
    });
    let mut dctx = zstd::bulk::Decompressor::new().unwrap();
    let mut raw: Vec<u8> = Vec::with_capacity(4 * out.len());
    g.bench_function(BenchmarkId::new("zstd-alone", samples), |b| {
        b.iter(|| {
            for (blob, _) in &chunks {
                raw.clear();
                dctx.decompress_to_buffer(black_box(blob.as_slice()), &mut raw)
                    .unwrap();
            }
        })
    });
    g.finish();
}

criterion_group!(benches, stages, pod5_chunks);
criterion_main!(benches);
