//! Whole POD5 files (../shared/data/pod5): open, then every read's signal to int16, on one
//! thread and on every core. `cargo xtask bench` runs the peers doing the same work right
//! after criterion, in their own processes: the `pod5lib` crate (benches/peers/pod5lib, its
//! own workspace: its Arrow cannot share a build with ours) and ONT's Python reader
//! (benches/python/pod5_decode.py), and adds a larger file (`SVB_BENCH_POD5_LARGE`, group
//! `pod5_file_x20`), and the decode-fast twins of the current and x20 files (`pod5_file_fast`,
//! `pod5_file_x20fast`: raw zstd literals, written by our writer) with the chunks alone of
//! the current file and its twin (`pod5_chunks_*`).

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use svb_pod5::Reader;
use svb_vbz::Threads;

fn files(c: &mut Criterion) {
    let Some(dir) = svb_testdata::data_dir() else { return };
    svb_bench::steady_state_allocator();
    let mut files = vec![
        ("current", dir.join("pod5/multi_fast5_zip.pod5")),
        ("v4", dir.join("pod5/multi_fast5_zip_v4.pod5")),
    ];
    // 20 copies of the current file's reads written by ONT's writer (`cargo xtask bench`
    // makes it with benches/python/pod5_decode.py): large enough that opening the file and
    // waking threads do not dominate.
    if let Some(large) = std::env::var_os("SVB_BENCH_POD5_LARGE") {
        files.push(("x20", large.into()));
    }
    // Their decode-fast twins (raw zstd literals), written by our writer: the zstd profile
    // table of docs/PERFORMANCE.md compares each with the file it was made from.
    let twins: Vec<(&str, std::path::PathBuf)> = files
        .iter()
        .filter_map(|(label, path)| match *label {
            "current" => Some(("fast", svb_bench::decode_fast_copy(path))),
            "x20" => Some(("x20fast", svb_bench::decode_fast_copy(path))),
            _ => None,
        })
        .collect();
    files.extend(twins);
    for (label, path) in files {
        let samples: u64 =
            Reader::open(&path).unwrap().reads().iter().map(|r| r.info.num_samples).sum();

        if matches!(label, "current" | "fast") {
            // The chunks alone, from memory, on one thread: zstd and the VBZ decode.
            let r = Reader::open(&path).unwrap();
            let chunks: Vec<(Vec<u8>, usize)> =
                (0..r.len())
                    .flat_map(|i| {
                        let r = &r;
                        r.chunks(i).unwrap().into_iter().enumerate().map(move |(c, info)| {
                            (r.chunk_bytes(i, c).unwrap(), info.samples as usize)
                        })
                    })
                    .collect();
            let largest = chunks.iter().map(|c| c.1).max().unwrap_or(0);
            let mut g = c.benchmark_group(format!("pod5_chunks_{label}/one_thread"));
            g.throughput(Throughput::Elements(samples));
            let mut out = vec![0i16; largest];
            g.bench_function(BenchmarkId::new("svb", samples), |b| {
                b.iter(|| {
                    for (blob, n) in &chunks {
                        svb_vbz::pod5_blob::decompress_signal(black_box(blob), &mut out[..*n])
                            .unwrap();
                    }
                    black_box(&out);
                })
            });
            g.finish();
        }

        let mut g = c.benchmark_group(format!("pod5_file_{label}/one_thread"));
        g.throughput(Throughput::Elements(samples));
        let mut buf = Vec::new();
        g.bench_function(BenchmarkId::new("svb", samples), |b| {
            b.iter(|| {
                let r = Reader::open(black_box(&path)).unwrap();
                for (i, read) in r.reads().iter().enumerate() {
                    // The caller's buffer, grown to the largest read and reused.
                    let n = read.info.num_samples as usize;
                    if buf.len() < n {
                        buf.resize(n, 0);
                    }
                    r.decode_signal_to_slice(i, &mut buf[..n]).unwrap();
                    black_box(&buf[..n]);
                }
            })
        });
        g.finish();

        let mut g = c.benchmark_group(format!("pod5_file_{label}/all_cores"));
        g.throughput(Throughput::Elements(samples));
        g.bench_function(BenchmarkId::new("svb", samples), |b| {
            b.iter(|| {
                let r = Reader::open(black_box(&path)).unwrap();
                r.for_each_parallel(Threads::Current, |_, _, s| {
                    black_box(s);
                })
                .unwrap();
            })
        });
        // The two other ways to reach the bytes: the file read whole on this thread, and the
        // unsafe map (`open` reads each chunk on the thread that decodes it).
        g.bench_function(BenchmarkId::new("svb-read-whole", samples), |b| {
            b.iter(|| {
                let r = Reader::open_with(black_box(&path), svb_pod5::Access::ReadWhole).unwrap();
                r.for_each_parallel(Threads::Current, |_, _, s| {
                    black_box(s);
                })
                .unwrap();
            })
        });
        g.bench_function(BenchmarkId::new("svb-mapped", samples), |b| {
            b.iter(|| {
                // SAFETY: the benchmark files are never written while they are read.
                let r = unsafe { Reader::open_mapped(black_box(&path)) }.unwrap();
                r.for_each_parallel(Threads::Current, |_, _, s| {
                    black_box(s);
                })
                .unwrap();
            })
        });
        g.finish();
    }
}

criterion_group!(benches, files);
criterion_main!(benches);
