//! `svb bench`: Melem/s of each codec and operation on built-in realistic signal, on this
//! machine, in a few seconds (the criterion suites in benches/ give the peer comparisons).

use std::hint::black_box;
use std::time::{Duration, Instant};

use clap::Args as ClapArgs;
use svb_core::{Codec, Svb16, U32Classic};

#[derive(ClapArgs)]
pub struct Args {
    /// Samples per run.
    #[arg(long, default_value_t = 1 << 20)]
    pub samples: usize,
    /// Seconds per measurement.
    #[arg(long, default_value_t = 0.2)]
    pub seconds: f64,
}

/// A nanopore-like signal: a random walk around 500 with noise and occasional level jumps.
pub fn signal(n: usize) -> Vec<i16> {
    signal_seeded(n, 0x853C_49E6_748F_EA9B)
}

/// [`signal`] from another seed (not 0): another read of the same kind.
pub fn signal_seeded(n: usize, seed: u64) -> Vec<i16> {
    let mut x = seed.max(1);
    let mut level = 500i32;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            if x.is_multiple_of(97) {
                level = 300 + (x >> 40) as i32 % 400;
            }
            (level + ((x >> 8) % 41) as i32 - 20) as i16
        })
        .collect()
}

/// Runs `f` repeatedly for about `seconds`; returns Melem/s for `n` elements a run.
fn measure(n: usize, seconds: f64, mut f: impl FnMut()) -> f64 {
    f();
    let budget = Duration::from_secs_f64(seconds);
    let start = Instant::now();
    let mut runs = 0u64;
    while start.elapsed() < budget || runs < 3 {
        f();
        runs += 1;
    }
    (n as f64 * runs as f64) / start.elapsed().as_secs_f64() / 1e6
}

pub fn run(args: &Args) -> Result<(), String> {
    let n = args.samples;
    let t = args.seconds;
    let s = signal(n);
    let zz: Vec<u16> = svb_delta::zigzag::encode(&svb_delta::delta::encode(&s));
    let u32s: Vec<u32> = zz.iter().map(|&z| z as u32 * 3).collect();
    println!("svb bench: {n} samples of built-in signal, ISA {}", svb_core::Isa::best());
    println!("| codec | op | Melem/s |");
    println!("|---|---|---:|");
    // One row: `f` run for about `t` seconds.
    let row = |codec: &str, op: &str, f: &mut dyn FnMut()| {
        println!("| {codec} | {op} | {:.0} |", measure(n, t, f));
    };

    let enc = U32Classic.encode(&u32s);
    let mut out32 = vec![0u32; n];
    row("U32Classic", "encode", &mut || {
        black_box(U32Classic.encode(black_box(&u32s)));
    });
    row("U32Classic", "decode", &mut || {
        U32Classic.decode_to_slice(black_box(&enc), &mut out32).unwrap();
    });
    let enc16 = Svb16.encode(&zz);
    let mut out16 = vec![0u16; n];
    row("Svb16", "encode", &mut || {
        black_box(Svb16.encode(black_box(&zz)));
    });
    row("Svb16", "decode", &mut || {
        Svb16.decode_to_slice(black_box(&enc16), &mut out16).unwrap();
    });

    let vbz = svb_vbz::encode_vbz(&s);
    let mut samples: Vec<i16> = Vec::with_capacity(n);
    row("VBZ", "decode_fused", &mut || {
        samples.clear();
        svb_vbz::decode_vbz_fused_into(black_box(&vbz), n, &mut samples).unwrap();
    });
    let k = svb_vbz::encode_vbzk(&s, rayon::current_num_threads().max(2));
    row("VBZ-K", "decode_parallel", &mut || {
        samples.clear();
        svb_vbz::decode_vbzk_parallel_into(black_box(&k), n, &mut samples).unwrap();
    });
    let blob = svb_vbz::pod5_blob::compress_signal(&s);
    let mut buf = vec![0i16; n];
    row("POD5 VBZ", "compress", &mut || {
        black_box(svb_vbz::pod5_blob::compress_signal(black_box(&s)));
    });
    row("POD5 VBZ", "decompress", &mut || {
        svb_vbz::pod5_blob::decompress_signal(black_box(&blob), &mut buf).unwrap();
    });
    let svbzd = svb_slow5_signal::encode_svbzd(&s);
    row("SVB-ZD", "decode_fused", &mut || {
        samples.clear();
        svb_slow5_signal::decode_svbzd_fused_into(black_box(&svbzd), n, &mut samples).unwrap();
    });
    let exzd = svb_slow5_signal::encode_exzd(&s);
    let mut dec = svb_slow5_signal::ExZdDecoder::new();
    row("ex-zd", "decode_fused", &mut || {
        samples.clear();
        dec.decode_fused_into(black_box(&exzd), &mut samples).unwrap();
    });
    Ok(())
}
