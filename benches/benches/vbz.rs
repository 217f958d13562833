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
        assert_eq!(stream, svb_peer::encode_vbz(&signal), "both write ONT's svb16 wire");
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

        let v2 = svb_vbz::encode_vbz2(&signal);
        #[allow(deprecated)] // the peer marks VBZ2 deprecated in favour of VBZ-K
        let peer_v2 = svb_peer::encode_vbz2(&signal);
        assert_eq!(v2, peer_v2, "both write seed 000's VBZ2");
        let mut g = c.benchmark_group("vbz/decode_vbz2");
        g.throughput(Throughput::Elements(n as u64));
        g.bench_function(BenchmarkId::new("svb", n), |b| {
            b.iter(|| {
                out.clear();
                svb_vbz::decode_vbz2_into(black_box(&v2), n, &mut out).unwrap();
            })
        });
        g.bench_function(BenchmarkId::new("svb-0.3.1", n), |b| {
            b.iter(|| {
                out.clear();
                #[allow(deprecated)]
                svb_peer::decode_vbz2_into(black_box(&v2), n, &mut out).unwrap();
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
    let Some(dir) = svb_testdata::data_dir() else { return };
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
                svb_vbz::pod5_blob::decompress_signal(black_box(blob), &mut out[..*n]).unwrap();
            }
        })
    });
    let mut dctx = zstd::bulk::Decompressor::new().unwrap();
    let mut raw: Vec<u8> = Vec::with_capacity(4 * out.len());
    g.bench_function(BenchmarkId::new("zstd-alone", samples), |b| {
        b.iter(|| {
            for (blob, _) in &chunks {
                raw.clear();
                dctx.decompress_to_buffer(black_box(blob.as_slice()), &mut raw).unwrap();
            }
        })
    });
    g.finish();

    // The same chunks as one batch on every core, against our one-thread figure.
    let batch: Vec<svb_vbz::Chunk> =
        chunks.iter().map(|(blob, n)| svb_vbz::Chunk { data: blob, samples: *n }).collect();
    let mut all = vec![0i16; samples];
    let one_thread = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    let mut g = c.benchmark_group("pod5/decompress_batch");
    g.throughput(Throughput::Elements(samples as u64));
    g.bench_function(BenchmarkId::new("svb-all-cores", samples), |b| {
        b.iter(|| {
            svb_vbz::pod5_blob::decompress_batch(
                black_box(&batch),
                &mut all,
                svb_vbz::Threads::Current,
            )
            .unwrap()
        })
    });
    g.bench_function(BenchmarkId::new("one-thread", samples), |b| {
        b.iter(|| {
            svb_vbz::pod5_blob::decompress_batch(
                black_box(&batch),
                &mut all,
                svb_vbz::Threads::Pool(&one_thread),
            )
            .unwrap()
        })
    });
    g.finish();
}

/// 64 chunks of 8192 samples (distinct signals, as distinct reads are): the parallel
/// decoders on rayon's global pool (every core) against our single-chain fused decode of the
/// same chunks on one thread, and `svb` 0.3.1's VBZ-K parallel decode (threads per call).
fn batches(c: &mut Criterion) {
    const CHUNKS: usize = 64;
    const N: usize = 8192;
    let signals: Vec<Vec<i16>> =
        (0..CHUNKS).map(|i| svb_bench::signal_i16_seeded(N, i as u64)).collect();
    let total = (CHUNKS * N) as u64;
    let mut out = vec![0i16; CHUNKS * N];
    let vbz: Vec<Vec<u8>> = signals.iter().map(|s| svb_vbz::encode_vbz(s)).collect();
    let one_thread = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();

    let plain = chunk_refs(&vbz, N);
    let mut g = c.benchmark_group("vbz/batch64_fused");
    g.throughput(Throughput::Elements(total));
    g.bench_function(BenchmarkId::new("svb-all-cores", N), |b| {
        b.iter(|| {
            svb_vbz::decode_vbz_batch(black_box(&plain), &mut out, svb_vbz::Threads::Current)
                .unwrap()
        })
    });
    g.bench_function(BenchmarkId::new("single-chain-1thread", N), |b| {
        b.iter(|| {
            svb_vbz::decode_vbz_batch(
                black_box(&plain),
                &mut out,
                svb_vbz::Threads::Pool(&one_thread),
            )
            .unwrap()
        })
    });
    g.finish();

    for k in [2usize, 4] {
        let enc: Vec<Vec<u8>> = signals.iter().map(|s| svb_vbz::encode_vbzk(s, k)).collect();
        assert_eq!(enc[0], svb_peer::encode_vbzk(&signals[0], k));
        let batch = chunk_refs(&enc, N);
        let mut g = c.benchmark_group(format!("vbzk/batch64_k{k}"));
        g.throughput(Throughput::Elements(total));
        g.bench_function(BenchmarkId::new(format!("svb-k{k}"), N), |b| {
            b.iter(|| {
                svb_vbz::decode_vbzk_batch(black_box(&batch), &mut out, svb_vbz::Threads::Current)
                    .unwrap()
            })
        });
        g.bench_function(BenchmarkId::new("single-chain-1thread", N), |b| {
            b.iter(|| {
                svb_vbz::decode_vbz_batch(
                    black_box(&plain),
                    &mut out,
                    svb_vbz::Threads::Pool(&one_thread),
                )
                .unwrap()
            })
        });
        let mut v: Vec<i16> = Vec::with_capacity(N);
        g.bench_function(BenchmarkId::new(format!("svb-0.3.1-k{k}"), N), |b| {
            b.iter(|| {
                for d in &enc {
                    v.clear();
                    svb_peer::decode_vbzk_parallel_into(black_box(d), N, &mut v).unwrap();
                }
            })
        });
        g.finish();
    }
}

fn chunk_refs(enc: &[Vec<u8>], samples: usize) -> Vec<svb_vbz::Chunk<'_>> {
    enc.iter().map(|d| svb_vbz::Chunk { data: d, samples }).collect()
}

criterion_group!(benches, stages, pod5_chunks, batches);
criterion_main!(benches);
