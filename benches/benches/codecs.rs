//! `<codec>/{encode,decode}/{128,1024,8192}` for the five codecs, with the peers in each
//! group: `svb` 0.3.1 (its `simd-auto` feature) and `streamvbyte64` 0.2; the U32 codecs also
//! at 1M values, ours also given the C decoder's buffer (`svb-c-buffer`: the stream and 16
//! bytes after it, decoded into a slice) and, with feature `c-peers`, against lemire's C
//! library (`lemire-c`).
//!
//! Run: `cargo bench -p svb-bench --bench codecs` (or `cargo xtask bench`).

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use streamvbyte64::Coder as _;
use svb_bench::{mixed_u16, mixed_u32, mixed_u64, mixed_u64_below_2_32, SIZES, U32_SIZES};
use svb_core::Codec;

/// streamvbyte64's two-buffer encode, sized once.
fn sv64_buffers<C: streamvbyte64::Coder>(n: usize) -> (Vec<u8>, Vec<u8>) {
    let (t, d) = C::max_compressed_bytes(n);
    (vec![0; t], vec![0; d])
}

macro_rules! codec_groups {
    ($c:expr, $name:literal, $values:expr, $elem:ty, ours: $ours:expr, peer_svb: $peer:expr, sv64: [$($sv64:ty)?]) => {
        codec_groups!($c, $name, $values, $elem, ours: $ours, peer_svb: $peer, sv64: [$($sv64)?], sizes: SIZES, c: [])
    };
    ($c:expr, $name:literal, $values:expr, $elem:ty, ours: $ours:expr, peer_svb: $peer:expr, sv64: [$($sv64:ty)?], sizes: $sizes:expr, c: [$($zero124:expr)?]) => {{
        for n in $sizes {
            let values: Vec<$elem> = $values(n);
            let encoded = $ours.encode(&values);

            let mut g = $c.benchmark_group(format!("{}/encode", $name));
            g.throughput(Throughput::Elements(n as u64));
            let mut out = Vec::with_capacity($ours.max_encoded_len(n) + 64);
            g.bench_function(BenchmarkId::new("svb", n), |b| {
                b.iter(|| {
                    out.clear();
                    $ours.encode_into(black_box(&values), &mut out);
                    black_box(out.len())
                })
            });
            let mut out = Vec::with_capacity($ours.max_encoded_len(n) + 64);
            g.bench_function(BenchmarkId::new("svb-0.3.1", n), |b| {
                b.iter(|| {
                    out.clear();
                    $peer.encode_into(black_box(&values), &mut out);
                    black_box(out.len())
                })
            });
            $(codec_groups!(@sv64_encode g, n, values, $sv64);)?
            $(codec_groups!(@c_encode g, n, values, $zero124);)?
            g.finish();

            let mut g = $c.benchmark_group(format!("{}/decode", $name));
            g.throughput(Throughput::Elements(n as u64));
            let mut out: Vec<$elem> = Vec::with_capacity(n + 64);
            g.bench_function(BenchmarkId::new("svb", n), |b| {
                b.iter(|| {
                    out.clear();
                    $ours.decode_into(black_box(&encoded), n, &mut out).unwrap();
                    black_box(out.len())
                })
            });
            let mut out: Vec<$elem> = Vec::with_capacity(n + 64);
            g.bench_function(BenchmarkId::new("svb-0.3.1", n), |b| {
                b.iter(|| {
                    out.clear();
                    $peer.decode_into(black_box(&encoded), n, &mut out).unwrap();
                    black_box(out.len())
                })
            });
            $(codec_groups!(@sv64_decode g, n, values, $elem, $sv64);)?
            $(codec_groups!(@slack_decode g, n, encoded, $elem, $ours, $zero124);)?
            $(codec_groups!(@c_decode g, n, values, $zero124);)?
            g.finish();
        }
    }};
    (@c_encode $g:ident, $n:ident, $values:ident, $zero124:expr) => {{
        #[cfg(feature = "c-peers")]
        {
            let mut out = Vec::new();
            $g.bench_function(BenchmarkId::new("lemire-c", $n), |b| {
                b.iter(|| black_box(svb_bench::lemire::encode(black_box(&$values), &mut out, $zero124)))
            });
        }
    }};
    (@slack_decode $g:ident, $n:ident, $encoded:ident, $elem:ty, $ours:expr, $zero124:expr) => {{
        // The buffer the C decoder gets: the stream and 16 bytes after it (as every posting
        // block but a list's last, every page but a file's last).
        let mut input = $encoded.clone();
        input.extend_from_slice(&[0; 16]);
        let mut out: Vec<$elem> = vec![0; $n];
        $g.bench_function(BenchmarkId::new("svb-c-buffer", $n), |b| {
            b.iter(|| black_box($ours.decode_to_slice(black_box(&input), &mut out).unwrap()))
        });
    }};
    (@c_decode $g:ident, $n:ident, $values:ident, $zero124:expr) => {{
        #[cfg(feature = "c-peers")]
        {
            let mut encoded = Vec::new();
            let used = svb_bench::lemire::encode(&$values, &mut encoded, $zero124);
            encoded.truncate(used + svb_bench::lemire::PADDING);
            let mut out = vec![0u32; $n];
            $g.bench_function(BenchmarkId::new("lemire-c", $n), |b| {
                b.iter(|| black_box(svb_bench::lemire::decode(black_box(&encoded), &mut out, $zero124)))
            });
        }
    }};
    (@sv64_encode $g:ident, $n:ident, $values:ident, $sv64:ty) => {{
        let coder = <$sv64>::new();
        let (mut tags, mut data) = sv64_buffers::<$sv64>($n);
        $g.bench_function(BenchmarkId::new("streamvbyte64", $n), |b| {
            b.iter(|| black_box(coder.encode(black_box(&$values), &mut tags, &mut data)))
        });
    }};
    (@sv64_decode $g:ident, $n:ident, $values:ident, $elem:ty, $sv64:ty) => {{
        let coder = <$sv64>::new();
        let (mut tags, mut data) = sv64_buffers::<$sv64>($n);
        let used = coder.encode(&$values, &mut tags, &mut data);
        let mut out: Vec<$elem> = vec![0; $n];
        $g.bench_function(BenchmarkId::new("streamvbyte64", $n), |b| {
            b.iter(|| black_box(coder.decode(black_box(&tags), &data[..used], &mut out)))
        });
    }};
}

fn codecs(c: &mut Criterion) {
    codec_groups!(c, "U32Classic", mixed_u32, u32,
        ours: svb_core::U32Classic, peer_svb: svb_peer::u32::U32Classic, sv64: [streamvbyte64::Coder1234],
        sizes: U32_SIZES, c: [false]);
    codec_groups!(c, "U32Variant0124", mixed_u32, u32,
        ours: svb_core::U32Variant0124, peer_svb: svb_peer::u32::U32Variant0124, sv64: [streamvbyte64::Coder0124],
        sizes: U32_SIZES, c: [true]);
    codec_groups!(c, "U64Coder1248", mixed_u64, u64,
        ours: svb_core::U64Coder1248, peer_svb: svb_peer::u64::U64Coder1248, sv64: [streamvbyte64::Coder1248]);
    codec_groups!(c, "U64Coder1234", mixed_u64_below_2_32, u64,
        ours: svb_core::U64Coder1234, peer_svb: svb_peer::u64::U64Coder1234, sv64: []);
    codec_groups!(c, "Svb16", mixed_u16, u16,
        ours: svb_core::Svb16, peer_svb: svb_peer::u16::Svb16, sv64: []);
}

criterion_group!(benches, codecs);
criterion_main!(benches);
