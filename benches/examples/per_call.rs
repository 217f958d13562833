//! Runs one u32 codec operation on one block size many times, for instruction counts under
//! `valgrind --tool=callgrind` (per-call costs that criterion's wall time cannot separate
//! from noise on a shared machine), or as an interleaved duel with lemire's C library. Prints
//! the checksum of the outputs so nothing is optimised away.
//!
//! ```text
//! cargo build --release -p svb-bench --features c-peers --example per_call
//! valgrind --tool=callgrind target/release/examples/per_call classic-decode svb 128 10000
//! target/release/examples/per_call delta-decode-dense duel 128 20000
//! ```
//!
//! OP: `classic-decode`, `0124-decode`, `classic-encode`, `0124-encode` (mixed 1-4 byte
//! values, as the criterion groups), `delta-decode-GAPS`, `delta-encode-GAPS` (sorted ids,
//! GAPS `dense`, `sparse` or `zipf`). WHO: `svb` (decoders given the C decoder's buffer: the
//! stream and 16 bytes), `svb-exact` (the stream alone), `svb-block` / `svb-block-exact`
//! (the same through `svb_core::Decoder::decode_block::<128>`, N = 128 only), `c` (feature
//! `c-peers`), or `duel`
//! (feature `c-peers`: `svb` and `c` interleaved, 100 rounds of ITERS calls each, printing
//! each one's fastest round in ns a call and their ratio; a check of a criterion figure on a
//! noisy machine, not a substitute for one; `duel-WHO` pits WHO against `c`). `svb-ssse3`:
//! the delta decoder's SSSE3 kernels.

use std::hint::black_box;

use svb_bench::Gaps;
use svb_core::{Codec, U32Classic, U32Delta, U32Variant0124};

/// The `prev` of the delta streams.
const PREV: u32 = 7;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, op, who, n, iters] = &args[..] else {
        eprintln!("usage: per_call OP WHO N ITERS");
        std::process::exit(2);
    };
    let n: usize = n.parse().expect("N");
    let iters: usize = iters.parse().expect("ITERS");
    let Some(op) = Op::parse(op, n) else {
        eprintln!("unknown op {op}");
        std::process::exit(2);
    };
    #[cfg(feature = "c-peers")]
    if let Some(rest) = who.strip_prefix("duel") {
        let ours = rest.strip_prefix('-').unwrap_or("svb");
        let time = |who: &str| {
            let t = std::time::Instant::now();
            black_box(op.run(who, iters));
            t.elapsed().as_secs_f64() * 1e9 / iters as f64
        };
        let (mut best, mut c) = (f64::MAX, f64::MAX);
        for _ in 0..100 {
            best = best.min(time(ours));
            c = c.min(time("c"));
        }
        println!("{ours} {best:.2} ns, c {c:.2} ns, {ours}/c speed {:.3}", c / best);
        return;
    }
    println!("{}", op.run(who, iters));
}

/// What is run: the codec, the direction, the values.
struct Op {
    kind: Kind,
    decode: bool,
    values: Vec<u32>,
}

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Classic,
    V0124,
    Delta,
}

impl Op {
    fn parse(op: &str, n: usize) -> Option<Op> {
        let (kind, rest) = op.split_once('-')?;
        let (dir, gaps) = rest.split_once('-').unwrap_or((rest, ""));
        let decode = match dir {
            "decode" => true,
            "encode" => false,
            _ => return None,
        };
        let (kind, values) = match (kind, gaps) {
            ("classic", "") => (Kind::Classic, svb_bench::mixed_u32(n)),
            ("0124", "") => (Kind::V0124, svb_bench::mixed_u32(n)),
            ("delta", g) => {
                let gaps = Gaps::ALL.into_iter().find(|x| x.name() == g)?;
                (Kind::Delta, svb_bench::sorted_u32(n, gaps, 1))
            }
            _ => return None,
        };
        Some(Op { kind, decode, values })
    }

    /// `iters` calls by `who`; the checksum of their outputs.
    fn run(&self, who: &str, iters: usize) -> u64 {
        match self.kind {
            Kind::Classic => self.run_plain(U32Classic, who, iters),
            Kind::V0124 => self.run_plain(U32Variant0124, who, iters),
            Kind::Delta => self.run_delta(who, iters),
        }
    }

    fn run_plain<C: Codec<Value = u32> + BlockDecode>(
        &self, codec: C, who: &str, iters: usize,
    ) -> u64 {
        let values = &self.values[..];
        let n = values.len();
        let exact = codec.encode(values);
        let mut padded = exact.clone();
        padded.extend_from_slice(&[0; 16]);
        let mut sum = 0u64;
        match (self.decode, who) {
            (true, "svb" | "svb-exact") => {
                let input = if who == "svb" { &padded[..] } else { &exact[..] };
                let mut out = vec![0u32; n];
                for _ in 0..iters {
                    sum += codec.decode_to_slice(black_box(input), &mut out).unwrap() as u64;
                    sum += out[n - 1] as u64;
                }
            }
            (true, "svb-block" | "svb-block-exact") => {
                let input = if who == "svb-block" { &padded[..] } else { &exact[..] };
                assert_eq!(n, 128, "the block decoder runs 128-value blocks");
                let decoder = codec.block_decoder();
                let mut out = [0u32; 128];
                for _ in 0..iters {
                    sum += decoder(black_box(input), &mut out) as u64;
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
                let zero124 = self.kind == Kind::V0124;
                let mut out = vec![0u32; n];
                for _ in 0..iters {
                    sum += svb_bench::lemire::decode(black_box(&padded), &mut out, zero124) as u64;
                    sum += out[n - 1] as u64;
                }
            }
            #[cfg(feature = "c-peers")]
            (false, "c") => {
                let zero124 = self.kind == Kind::V0124;
                let mut out = Vec::new();
                for _ in 0..iters {
                    sum += svb_bench::lemire::encode(black_box(values), &mut out, zero124) as u64;
                }
            }
            _ => unknown(who),
        }
        sum
    }

    fn run_delta(&self, who: &str, iters: usize) -> u64 {
        let values = &self.values[..];
        let n = values.len();
        let exact = U32Delta.encode(PREV, values);
        let mut padded = exact.clone();
        padded.extend_from_slice(&[0; 16]);
        let mut sum = 0u64;
        match (self.decode, who) {
            (true, "svb" | "svb-exact" | "svb-ssse3") => {
                let input = if who == "svb-exact" { &exact[..] } else { &padded[..] };
                let k = if who == "svb-ssse3" {
                    U32Delta.kernels_for(svb_core::Isa::Ssse3).unwrap()
                } else {
                    U32Delta.kernels()
                };
                let mut out = vec![0u32; n];
                for _ in 0..iters {
                    sum += k.decode_to_slice(black_box(input), PREV, &mut out).unwrap() as u64;
                    sum += out[n - 1] as u64;
                }
            }
            (true, "svb-block" | "svb-block-exact") => {
                let input = if who == "svb-block" { &padded[..] } else { &exact[..] };
                assert_eq!(n, 128, "the block decoder runs 128-value blocks");
                let decoder = svb_core::Decoder::new(U32Delta);
                let mut out = [0u32; 128];
                for _ in 0..iters {
                    sum +=
                        decoder.decode_block_from(black_box(input), PREV, &mut out).unwrap() as u64;
                    sum += out[n - 1] as u64;
                }
            }
            (false, "svb") => {
                let mut out = vec![0u8; U32Delta.max_encoded_len(n) + 16];
                for _ in 0..iters {
                    sum +=
                        U32Delta.encode_to_slice(PREV, black_box(values), &mut out).unwrap() as u64;
                }
            }
            #[cfg(feature = "c-peers")]
            (true, "c") => {
                let mut out = vec![0u32; n];
                for _ in 0..iters {
                    sum +=
                        svb_bench::lemire::delta_decode(black_box(&padded), PREV, &mut out) as u64;
                    sum += out[n - 1] as u64;
                }
            }
            #[cfg(feature = "c-peers")]
            (false, "c") => {
                let mut out = Vec::new();
                for _ in 0..iters {
                    sum +=
                        svb_bench::lemire::delta_encode(black_box(values), PREV, &mut out) as u64;
                }
            }
            _ => unknown(who),
        }
        sum
    }
}

/// A codec's 128-value block decode through [`svb_core::Decoder`], as a closure.
trait BlockDecode {
    fn block_decoder(self) -> impl Fn(&[u8], &mut [u32; 128]) -> usize;
}

impl<C: svb_core::BlockCodec> BlockDecode for C {
    fn block_decoder(self) -> impl Fn(&[u8], &mut [u32; 128]) -> usize {
        let decoder = svb_core::Decoder::new(self);
        move |input, out| decoder.decode_block(input, out).unwrap()
    }
}

fn unknown(who: &str) -> ! {
    eprintln!("unknown who {who}");
    std::process::exit(2)
}
