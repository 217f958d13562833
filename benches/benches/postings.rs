//! Sorted integer lists. `U32Delta/{decode,encode}_{dense,sparse,zipf}` at 128, 1024, 8192
//! and 1M values: our fused delta codec against lemire's C `streamvbyte_delta_decode` /
//! `_encode` (`lemire-c`, feature `c-peers`) on posting-list gaps (see [`Gaps`]).
//!
//! Run: `cargo bench -p svb-bench --features c-peers --bench postings`.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use svb_bench::{sorted_u32, Gaps, U32_SIZES};
use svb_core::U32Delta;

/// The first id's delta is taken from this `prev`, as a block of a longer list would.
const PREV: u32 = 7;

fn delta_codec(c: &mut Criterion) {
    for gaps in Gaps::ALL {
        for n in U32_SIZES {
            let ids = sorted_u32(n, gaps, 1);
            let encoded = U32Delta.encode(PREV, &ids);

            let mut g = c.benchmark_group(format!("U32Delta/decode_{}", gaps.name()));
            g.throughput(Throughput::Elements(n as u64));
            let mut out = vec![0u32; n];
            g.bench_function(BenchmarkId::new("svb", n), |b| {
                b.iter(|| black_box(U32Delta.decode_to_slice(black_box(&encoded), PREV, &mut out)))
            });
            #[cfg(feature = "c-peers")]
            {
                let mut padded = Vec::new();
                let used = svb_bench::lemire::delta_encode(&ids, PREV, &mut padded);
                assert_eq!(padded[..used], encoded[..], "the C wire is ours");
                padded.truncate(used + svb_bench::lemire::PADDING);
                g.bench_function(BenchmarkId::new("lemire-c", n), |b| {
                    b.iter(|| {
                        black_box(svb_bench::lemire::delta_decode(
                            black_box(&padded),
                            PREV,
                            &mut out,
                        ))
                    })
                });
            }
            g.finish();

            let mut g = c.benchmark_group(format!("U32Delta/encode_{}", gaps.name()));
            g.throughput(Throughput::Elements(n as u64));
            let mut out = Vec::with_capacity(U32Delta.max_encoded_len(n) + 64);
            g.bench_function(BenchmarkId::new("svb", n), |b| {
                b.iter(|| {
                    out.clear();
                    black_box(U32Delta.encode_into(PREV, black_box(&ids), &mut out))
                })
            });
            #[cfg(feature = "c-peers")]
            {
                let mut out = Vec::new();
                g.bench_function(BenchmarkId::new("lemire-c", n), |b| {
                    b.iter(|| {
                        black_box(svb_bench::lemire::delta_encode(
                            black_box(&ids),
                            PREV,
                            &mut out,
                        ))
                    })
                });
            }
            g.finish();
        }
    }
}

criterion_group!(benches, delta_codec);
criterion_main!(benches);
