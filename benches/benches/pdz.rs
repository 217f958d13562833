//! PDZ blocks (`svb-pdz`) against VBZ blobs (`svb-vbz`, the POD5 signal compression PDZ sits
//! beside) of the same signals, decode and encode, at 8192 and 102400 samples (a POD5 signal
//! chunk), and on the 10 real reads ONT's codec wrote in `../shared/data/pdz` where the data
//! is there. `svb` is our PDZ block (SIMD merge), `pdz-scalar` the same block through our
//! portable merge (its twin), `vbz` our VBZ blob of the same samples.
//!
//! ONT's own decoder is not a peer here: PDZ is on pod5-file-format's development line only
//! (its C++ headers at the commits `../shared/data/pdz/README.md` names, built with
//! `g++ -O2` against libzstd, would be). Bytes per sample of both formats are printed to
//! standard error.
//!
//! Run: `cargo bench -p svb-bench --bench pdz`.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use svb_bench::signal_i16;
use svb_pdz::Isa;

fn signals() -> Vec<(String, Vec<i16>)> {
    let mut all: Vec<(String, Vec<i16>)> =
        [8192, 102_400].into_iter().map(|n| (n.to_string(), signal_i16(n))).collect();
    if let Some(dir) = svb_testdata::data_dir() {
        let mut reads: Vec<Vec<i16>> = svb_testdata::files_with_suffix(&dir.join("pdz"), ".i16")
            .into_iter()
            .filter(|(name, _)| name.starts_with("real_"))
            .map(|(_, path)| svb_testdata::read_i16s(&std::fs::read(path).unwrap()))
            .collect();
        if !reads.is_empty() {
            reads.sort_by_key(|r| r.len());
            all.push(("real-reads".into(), reads.concat()));
        }
    }
    all
}

fn pdz(c: &mut Criterion) {
    for (name, signal) in signals() {
        let n = signal.len();
        let block = svb_pdz::encode(&signal).unwrap();
        let blob = svb_vbz::pod5_blob::compress_signal(&signal);
        eprintln!(
            "pdz/{name}: {n} samples, bytes per sample: pdz {:.4}, vbz {:.4}",
            block.len() as f64 / n as f64,
            blob.len() as f64 / n as f64
        );
        let mut out = vec![0i16; n];

        let mut g = c.benchmark_group("pdz/decode");
        g.throughput(Throughput::Elements(n as u64));
        g.bench_function(BenchmarkId::new("svb", &name), |b| {
            b.iter(|| svb_pdz::decode_into(black_box(&block), &mut out).unwrap())
        });
        g.bench_function(BenchmarkId::new("pdz-scalar", &name), |b| {
            b.iter(|| {
                svb_pdz::decode_into_with_isa(black_box(&block), &mut out, Isa::Scalar)
                    .unwrap()
                    .unwrap()
            })
        });
        g.bench_function(BenchmarkId::new("vbz", &name), |b| {
            b.iter(|| svb_vbz::pod5_blob::decompress_signal(black_box(&blob), &mut out).unwrap())
        });
        g.finish();

        let mut g = c.benchmark_group("pdz/encode");
        g.throughput(Throughput::Elements(n as u64));
        let mut bytes = Vec::with_capacity(svb_pdz::max_encoded_len(n));
        g.bench_function(BenchmarkId::new("svb", &name), |b| {
            b.iter(|| {
                bytes.clear();
                svb_pdz::encode_into(black_box(&signal), &mut bytes).unwrap()
            })
        });
        g.bench_function(BenchmarkId::new("vbz", &name), |b| {
            b.iter(|| svb_vbz::pod5_blob::compress_signal(black_box(&signal)))
        });
        g.finish();
    }
}

criterion_group!(benches, pdz);
criterion_main!(benches);
