//! `svb-peer-pod5lib FILE...`: the pod5lib crate on whole POD5 files, the work of the
//! `pod5_file_*` criterion groups (open the file, then every read's signal to int16), on one
//! thread (`reads_iter`) and on every core (`par_reads_iter(0)`). One JSON line per file:
//! `{"file": ..., "samples": N, "one_thread_ns": ..., "all_cores_ns": ..., "runs": R}`,
//! each figure the mean of R >= 5 runs (and at least 2 s) after a warm-up run.
//!
//! `cargo xtask bench` builds and runs it right after criterion and adds the figures as the
//! `pod5lib` peer of those groups.

use std::hint::black_box;
use std::path::Path;
use std::time::{Duration, Instant};

fn one_thread(path: &Path) -> u64 {
    let r = pod5lib::Reader::open(path).expect("pod5lib opens the file");
    let mut samples = 0;
    for read in r.reads_iter() {
        let s = read.signal().expect("pod5lib decodes the read");
        samples += s.len() as u64;
        black_box(s);
    }
    samples
}

fn all_cores(path: &Path) -> u64 {
    let r = pod5lib::Reader::open(path).expect("pod5lib opens the file");
    let mut samples = 0;
    for item in r.par_reads_iter(0) {
        let (_, s) = item.expect("pod5lib decodes the read");
        samples += s.len() as u64;
        black_box(s);
    }
    samples
}

/// Mean time of `f` over at least 5 runs and 2 s, after one warm-up run.
fn mean(f: impl Fn() -> u64) -> (u64, f64, u32) {
    let samples = f();
    let (mut runs, mut elapsed) = (0u32, Duration::ZERO);
    while runs < 5 || elapsed < Duration::from_secs(2) {
        let t = Instant::now();
        black_box(f());
        elapsed += t.elapsed();
        runs += 1;
    }
    (samples, elapsed.as_nanos() as f64 / runs as f64, runs)
}

fn main() {
    let files: Vec<String> = std::env::args().skip(1).collect();
    if files.is_empty() {
        eprintln!("usage: svb-peer-pod5lib FILE...");
        std::process::exit(2);
    }
    for file in files {
        let path = Path::new(&file);
        let (samples, one_ns, runs) = mean(|| one_thread(path));
        let (_, all_ns, _) = mean(|| all_cores(path));
        let name = file.replace('\\', "\\\\").replace('"', "\\\"");
        println!(
            "{{\"file\": \"{name}\", \"samples\": {samples}, \"one_thread_ns\": {one_ns:.0}, \"all_cores_ns\": {all_ns:.0}, \"runs\": {runs}}}"
        );
    }
}
