//! Sorted integer lists, on posting-list gaps (see [`Gaps`]):
//!
//! - `U32Delta/{decode,encode}_{dense,sparse,zipf}` at 128, 1024, 8192 and 1M values: our
//!   fused delta codec against lemire's C `streamvbyte_delta_decode` / `_encode`
//!   (`lemire-c`, feature `c-peers`).
//! - `postings/iterate_{dense,sparse,zipf}`: every doc and frequency of a 1M-doc list, by
//!   `next()` + `freq()` (`svb`) and by `next_block()` (`svb-block`), against the VInt and
//!   naive 4-doc StreamVByte readers (`vint`, `naive-4doc`, [`postings_peers`]) and the raw
//!   decode of the same blocks with no reader (`raw-blocks`: the rate `next_block` is held to),
//!   and tantivy's bit-packed blocks (`bitpacking`: `BitPacker4x`, [`postings_peers`]). Each
//!   list's bytes per doc are printed to standard error.
//! - `postings/intersect_{dense,sparse,zipf}`: a 1M-doc list intersected by `advance` with a
//!   list 100 times shorter spread over the same ids (half of its docs in the long list);
//!   throughput counts the short list's docs.
//!
//! Run: `cargo bench -p svb-bench --features c-peers --bench postings`.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use svb_bench::postings_peers::{raw_blocks, BitPacked, Naive4, VInt};
use svb_bench::{sorted_u32, Gaps, Rng, U32_SIZES};
use svb_core::U32Delta;
use svb_postings::Postings;

/// Docs of the long lists.
const LIST: usize = 1 << 20;

/// Frequencies shaped like term frequencies: mostly 1, a tail up to 40.
fn freqs(n: usize) -> Vec<u32> {
    let mut r = Rng(0xD1B5_4A32_D192_ED03);
    (0..n)
        .map(|_| match r.next() % 8 {
            0..=4 => 1,
            5 | 6 => 2 + (r.next() % 3) as u32,
            _ => 5 + (r.next() % 36) as u32,
        })
        .collect()
}

/// The list 100 times shorter than `long`, over the same ids: every 100th doc (at a random
/// place in its run of 100), or the id after it when the coin says miss.
fn short_of(long: &[u32]) -> Vec<u32> {
    let mut r = Rng(0x853C_49E6_748F_EA9B);
    let mut v: Vec<u32> = long
        .chunks_exact(100)
        .map(|run| {
            let d = run[(r.next() % 100) as usize];
            if r.next().is_multiple_of(2) {
                d
            } else {
                d.wrapping_add(1)
            }
        })
        .collect();
    v.dedup();
    v
}

fn postings(c: &mut Criterion) {
    for gaps in Gaps::ALL {
        let docs = sorted_u32(LIST, gaps, 2);
        // Long sparse lists wrap past 2^32: keep the increasing prefix.
        let docs: Vec<u32> = docs.windows(2).take_while(|w| w[1] > w[0]).map(|w| w[0]).collect();
        let fr = freqs(docs.len());
        let ours = svb_postings::encode(&docs, &fr).unwrap();
        let vint = VInt::encode(&docs, &fr);
        let naive = Naive4::encode(&docs, &fr);
        let packed = BitPacked::encode(&docs, &fr);
        // The sizes the speeds are bought with (skip tables not counted).
        let skip_table = docs.len().div_ceil(svb_postings::BLOCK) * svb_postings::SKIP_ENTRY_LEN;
        eprintln!(
            "postings/{} sizes, bytes per doc: svb {:.3}, vint {:.3}, bitpacking {:.3}, naive-4doc {:.3}",
            gaps.name(),
            (ours.len() - svb_postings::HEADER_LEN - skip_table) as f64 / docs.len() as f64,
            vint.bytes() as f64 / docs.len() as f64,
            packed.bytes() as f64 / docs.len() as f64,
            naive.bytes() as f64 / docs.len() as f64,
        );

        let mut g = c.benchmark_group(format!("postings/iterate_{}", gaps.name()));
        g.throughput(Throughput::Elements(docs.len() as u64));
        g.bench_function(BenchmarkId::new("svb", LIST), |b| {
            b.iter(|| {
                let mut p = Postings::new(black_box(&ours)).unwrap();
                let mut sum = 0u64;
                while let Some(d) = p.next().unwrap() {
                    sum += d as u64 + p.freq().unwrap() as u64;
                }
                sum
            })
        });
        g.bench_function(BenchmarkId::new("svb-block", LIST), |b| {
            b.iter(|| {
                let mut p = Postings::new(black_box(&ours)).unwrap();
                let mut sum = 0u64;
                while let Some(block) = p.next_block().unwrap() {
                    for (&d, &f) in block.docs().iter().zip(block.freqs()) {
                        sum += d as u64 + f as u64;
                    }
                }
                sum
            })
        });
        g.bench_function(BenchmarkId::new("raw-blocks", LIST), |b| {
            b.iter(|| raw_blocks(black_box(&ours)))
        });
        g.bench_function(BenchmarkId::new("vint", LIST), |b| {
            b.iter(|| {
                let mut p = VInt::reader(black_box(&vint));
                let mut sum = 0u64;
                while let Some(d) = p.next() {
                    sum += d as u64 + p.freq() as u64;
                }
                sum
            })
        });
        g.bench_function(BenchmarkId::new("bitpacking", LIST), |b| {
            b.iter(|| {
                let mut p = BitPacked::reader(black_box(&packed));
                let mut sum = 0u64;
                while let Some(d) = p.next() {
                    sum += d as u64 + p.freq() as u64;
                }
                sum
            })
        });
        g.bench_function(BenchmarkId::new("naive-4doc", LIST), |b| {
            b.iter(|| {
                let mut p = Naive4::reader(black_box(&naive));
                let mut sum = 0u64;
                while let Some(d) = p.next() {
                    sum += d as u64 + p.freq() as u64;
                }
                sum
            })
        });
        g.finish();

        let short = short_of(&docs);
        let sf = freqs(short.len());
        let (s_ours, s_vint, s_naive) = (
            svb_postings::encode(&short, &sf).unwrap(),
            VInt::encode(&short, &sf),
            Naive4::encode(&short, &sf),
        );
        let s_packed = BitPacked::encode(&short, &sf);
        let mut g = c.benchmark_group(format!("postings/intersect_{}", gaps.name()));
        g.throughput(Throughput::Elements(short.len() as u64));
        // The short list leads; the long one advances to each of its docs.
        macro_rules! intersect {
            ($short:expr, $long:expr, $next:ident, $advance:ident) => {{
                let (mut s, mut l) = ($short, $long);
                let mut hits = 0u32;
                let mut d = s.$next();
                while let Some(t) = d {
                    match l.$advance(t) {
                        None => break,
                        Some(x) if x == t => {
                            hits += 1;
                            d = s.$next();
                        }
                        Some(x) => d = s.$advance(x),
                    }
                }
                hits
            }};
        }
        g.bench_function(BenchmarkId::new("svb", LIST), |b| {
            b.iter(|| {
                let (s, l) = (
                    Postings::new(black_box(&s_ours)).unwrap(),
                    Postings::new(black_box(&ours)).unwrap(),
                );
                intersect!(OkCursor(s), OkCursor(l), next, advance)
            })
        });
        g.bench_function(BenchmarkId::new("vint", LIST), |b| {
            b.iter(|| {
                intersect!(
                    VInt::reader(black_box(&s_vint)),
                    VInt::reader(black_box(&vint)),
                    next,
                    advance
                )
            })
        });
        g.bench_function(BenchmarkId::new("bitpacking", LIST), |b| {
            b.iter(|| {
                intersect!(
                    BitPacked::reader(black_box(&s_packed)),
                    BitPacked::reader(black_box(&packed)),
                    next,
                    advance
                )
            })
        });
        g.bench_function(BenchmarkId::new("naive-4doc", LIST), |b| {
            b.iter(|| {
                intersect!(
                    Naive4::reader(black_box(&s_naive)),
                    Naive4::reader(black_box(&naive)),
                    next,
                    advance
                )
            })
        });
        g.finish();
    }
}

/// Our cursor with the errors unwrapped (the bench lists are valid), so one intersection
/// loop serves every reader.
struct OkCursor<'a>(Postings<'a>);

impl OkCursor<'_> {
    #[inline]
    fn next(&mut self) -> Option<u32> {
        self.0.next().unwrap()
    }

    #[inline]
    fn advance(&mut self, target: u32) -> Option<u32> {
        self.0.advance(target).unwrap()
    }
}

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
            // The buffer the C decoder gets: the stream and 16 bytes after it.
            let mut slack = encoded.clone();
            slack.extend_from_slice(&[0; 16]);
            g.bench_function(BenchmarkId::new("svb-c-buffer", n), |b| {
                b.iter(|| black_box(U32Delta.decode_to_slice(black_box(&slack), PREV, &mut out)))
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
                        black_box(svb_bench::lemire::delta_encode(black_box(&ids), PREV, &mut out))
                    })
                });
            }
            g.finish();
        }
    }
}

criterion_group!(benches, delta_codec, postings);
criterion_main!(benches);
