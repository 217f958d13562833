//! One posting-list walk, many times, for instruction counts under `valgrind
//! --tool=callgrind` or a quick wall-clock check: the `postings/intersect_*` and
//! `postings/iterate_*` groups' work (`benches/benches/postings.rs`) by one reader.
//!
//! ```text
//! cargo build --release -p svb-bench --example postings_walk
//! valgrind --tool=callgrind target/release/examples/postings_walk intersect-dense svb 10
//! ```
//!
//! OP: `intersect-GAPS` or `iterate-GAPS` (GAPS `dense`, `sparse` or `zipf`); WHO: `svb`,
//! `bitpacking` or `vint`, or `duel-WHO` (`svb` and WHO interleaved, 30 rounds of ITERS
//! walks each, printing each one's fastest round and the ratio: on a noisy machine a check of
//! a criterion figure, not a substitute for one). Prints the checksum and the time a walk.

use std::hint::black_box;

use svb_bench::postings_peers::{BitPacked, BitPackedList, Encoded, VInt};
use svb_bench::{sorted_u32, Gaps, Rng};
use svb_postings::Postings;

/// Docs of the long list (`SVB_WALK_LIST` to change it).
fn list_len() -> usize {
    std::env::var("SVB_WALK_LIST").ok().and_then(|v| v.parse().ok()).unwrap_or(1 << 20)
}

fn freqs(n: usize) -> Vec<u32> {
    let mut r = Rng(0xD1B5_4A32_D192_ED03);
    (0..n).map(|_| 1 + (r.next() % 3) as u32 * (r.next() % 2) as u32).collect()
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, op, who, iters] = &args[..] else {
        eprintln!("usage: postings_walk OP WHO ITERS");
        std::process::exit(2);
    };
    let iters: usize = iters.parse().expect("ITERS");
    let lists = Lists::new(op);
    if let Some(peer) = who.strip_prefix("duel-") {
        let (mut ours, mut theirs) = (f64::MAX, f64::MAX);
        for _ in 0..30 {
            ours = ours.min(lists.run("svb", iters).1);
            theirs = theirs.min(lists.run(peer, iters).1);
        }
        println!("svb {ours:.1} us, {peer} {theirs:.1} us, svb/{peer} speed {:.3}", theirs / ours);
        return;
    }
    let (sum, per) = lists.run(who, iters);
    println!("{sum} ({per:.1} us a walk)");
}

/// The long and short lists of one OP, in every reader's encoding.
struct Lists {
    kind: String,
    svb: (Vec<u8>, Vec<u8>),
    bitpacking: (BitPackedList, BitPackedList),
    vint: (Encoded, Encoded),
}

impl Lists {
    fn new(op: &str) -> Lists {
        let (kind, gaps) = op.split_once('-').expect("OP");
        let gaps = Gaps::ALL.into_iter().find(|g| g.name() == gaps).expect("GAPS");
        let docs = sorted_u32(list_len(), gaps, 2);
        let docs: Vec<u32> = docs.windows(2).take_while(|w| w[1] > w[0]).map(|w| w[0]).collect();
        let short: Vec<u32> = docs.iter().step_by(100).map(|&d| d + (d % 2)).collect();
        let mut short = short;
        short.dedup();
        let (fl, fs) = (freqs(docs.len()), freqs(short.len()));
        Lists {
            kind: kind.to_string(),
            svb: (
                svb_postings::encode(&docs, &fl).unwrap(),
                svb_postings::encode(&short, &fs).unwrap(),
            ),
            bitpacking: (BitPacked::encode(&docs, &fl), BitPacked::encode(&short, &fs)),
            vint: (VInt::encode(&docs, &fl), VInt::encode(&short, &fs)),
        }
    }

    /// `iters` walks by `who`: the checksum and the microseconds a walk.
    fn run(&self, who: &str, iters: usize) -> (u64, f64) {
        let kind = self.kind.as_str();
        let t = std::time::Instant::now();
        let mut sum = 0u64;
        macro_rules! walk {
            ($reader:expr, $long:expr, $short:expr, $next:expr, $advance:expr, $freq:expr) => {
                for _ in 0..iters {
                    if kind == "iterate" {
                        let mut p = $reader($long);
                        while let Some(d) = $next(&mut p) {
                            sum += d as u64 + $freq(&mut p) as u64;
                        }
                    } else {
                        let (mut s, mut l) = ($reader($short), $reader($long));
                        let mut d = $next(&mut s);
                        while let Some(t) = d {
                            match $advance(&mut l, t) {
                                None => break,
                                Some(x) if x == t => {
                                    sum += 1;
                                    d = $next(&mut s);
                                }
                                Some(x) => d = $advance(&mut s, x),
                            }
                        }
                    }
                }
            };
        }
        match who {
            "svb" => {
                let (long, short) = &self.svb;
                walk!(
                    open_svb,
                    long,
                    short,
                    |p: &mut Postings| p.next().unwrap(),
                    |p: &mut Postings, t| p.advance(t).unwrap(),
                    |p: &mut Postings| p.freq().unwrap()
                );
            }
            "bitpacking" => {
                let (long, short) = &self.bitpacking;
                walk!(
                    |b| BitPacked::reader(black_box(b)),
                    long,
                    short,
                    |p: &mut svb_bench::postings_peers::BitPackedReader| p.next(),
                    |p: &mut svb_bench::postings_peers::BitPackedReader, t| p.advance(t),
                    |p: &mut svb_bench::postings_peers::BitPackedReader| p.freq()
                );
            }
            "vint" => {
                let (long, short) = &self.vint;
                walk!(
                    |b| VInt::reader(black_box(b)),
                    long,
                    short,
                    |p: &mut svb_bench::postings_peers::VIntReader| p.next(),
                    |p: &mut svb_bench::postings_peers::VIntReader, t| p.advance(t),
                    |p: &mut svb_bench::postings_peers::VIntReader| p.freq()
                );
            }
            _ => {
                eprintln!("unknown who {who}");
                std::process::exit(2);
            }
        }
        (sum, t.elapsed().as_secs_f64() * 1e6 / iters.max(1) as f64)
    }
}

fn open_svb(bytes: &[u8]) -> Postings<'_> {
    Postings::new(black_box(bytes)).unwrap()
}
