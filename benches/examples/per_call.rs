//! Runs one codec operation on one block size many times, for instruction counts under
//! `valgrind --tool=callgrind` (per-call costs that criterion's wall time cannot separate
//! from noise on a shared machine). Prints the checksum of the outputs so nothing is
//! optimised away.
//!
//! ```text
//! cargo build --release -p svb-bench --features c-peers --example per_call
//! valgrind --tool=callgrind target/release/examples/per_call classic-decode svb 128 10000
//! ```
//!
//! Ops: `classic-decode`, `0124-decode`, `classic-encode`, `0124-encode`; who: `svb` (given
//! the C decoder's buffer: the stream and 16 bytes), `svb-exact` (the stream alone), `c`
//! (with feature `c-peers`), or `duel` (with `c-peers`: `svb` and `c` interleaved, 100 rounds
//! of ITERS calls each, printing each one's fastest round in ns a call and their ratio; a
//! check of a criterion figure on a noisy machine, not a substitute for one).

use std::hint::black_box;

use svb_core::{Codec, U32Classic, U32Variant0124};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, op, who, n, iters] = &args[..] else {
        eprintln!("usage: per_call OP WHO N ITERS");
        std::process::exit(2);
    };
    let n: usize = n.parse().expect("N");
    let iters: usize = iters.parse().expect("ITERS");
    let values = svb_bench::mixed_u32(n);
    let zero124 = op.starts_with("0124");
    #[cfg(feature = "c-peers")]
    if who == "duel" {
        let time = |who: &str| {
            let t = std::time::Instant::now();
            let sum = if zero124 {
                run(U32Variant0124, op, who, &values, iters)
            } else {
                run(U32Classic, op, who, &values, iters)
            };
            black_box(sum);
            t.elapsed().as_secs_f64() * 1e9 / iters as f64
        };
        let (mut ours, mut c) = (f64::MAX, f64::MAX);
        for _ in 0..100 {
            ours = ours.min(time("svb"));
            c = c.min(time("c"));
        }
        println!("svb {ours:.2} ns, c {c:.2} ns, svb/c speed {:.3}", c / ours);
        return;
    }
    let sum = if zero124 {
        run(U32Variant0124, op, who, &values, iters)
    } else {
        run(U32Classic, op, who, &values, iters)
    };
    println!("{sum}");
}

/// `iters` calls of `op` by `who` on `values`; the checksum of their outputs.
fn run<C: Codec<Value = u32>>(codec: C, op: &str, who: &str, values: &[u32], iters: usize) -> u64 {
    let n = values.len();
    #[cfg(feature = "c-peers")]
    let zero124 = op.starts_with("0124");
    let exact = codec.encode(values);
    let mut padded = exact.clone();
    padded.extend_from_slice(&[0; 16]);
    let mut sum = 0u64;
    match (op.ends_with("decode"), who) {
        (true, "svb") | (true, "svb-exact") => {
            let input = if who == "svb" {
                &padded[..]
            } else {
                &exact[..]
            };
            let mut out = vec![0u32; n];
            for _ in 0..iters {
                sum += codec.decode_to_slice(black_box(input), &mut out).unwrap() as u64;
                sum += out[n - 1] as u64;
            }
        }
        (false, "svb") => {
            let mut out = vec![0u8; codec.max_encoded_len(n) + 16];
            for _ in 0..iters {
                sum += codec.encode_to_slice(black_box(values), &mut out).unwrap() as u64;
            }
        }
        #[cfg(feature = "c-peers")]
        (true, "c") => {
            let mut out = vec![0u32; n];
            for _ in 0..iters {
                sum += svb_bench::lemire::decode(black_box(&padded), &mut out, zero124) as u64;
                sum += out[n - 1] as u64;
            }
        }
        #[cfg(feature = "c-peers")]
        (false, "c") => {
            let mut out = Vec::new();
            for _ in 0..iters {
                sum += svb_bench::lemire::encode(black_box(values), &mut out, zero124) as u64;
            }
        }
        _ => {
            eprintln!("unknown op {op} or who {who}");
            std::process::exit(2);
        }
    }
    sum
}
