//! Iterates a 1M-doc posting list by `next_block()` (or the raw block decode) ITERS times, for
//! instruction counts under `valgrind --tool=callgrind`:
//! `postings_blocks block|next|raw dense|sparse|zipf ITERS` (`raw`: the bench's `raw-blocks`).

use std::hint::black_box;

use svb_bench::postings_peers::raw_blocks;
use svb_bench::{sorted_u32, Gaps};
use svb_postings::Postings;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, who, gaps, iters] = &args[..] else {
        eprintln!("usage: postings_blocks block|next|raw GAPS ITERS");
        std::process::exit(2);
    };
    let gaps = Gaps::ALL.into_iter().find(|g| g.name() == gaps).expect("GAPS");
    let docs = sorted_u32(1 << 20, gaps, 2);
    let docs: Vec<u32> = docs.windows(2).take_while(|w| w[1] > w[0]).map(|w| w[0]).collect();
    let freqs: Vec<u32> = (0..docs.len()).map(|i| 1 + (i % 7 == 0) as u32).collect();
    let bytes = svb_postings::encode(&docs, &freqs).unwrap();
    let mut sum = 0u64;
    for _ in 0..iters.parse::<usize>().expect("ITERS") {
        let mut p = Postings::new(black_box(&bytes)).unwrap();
        match who.as_str() {
            "block" => {
                while let Some(block) = p.next_block().unwrap() {
                    for (&d, &f) in block.docs().iter().zip(block.freqs()) {
                        sum += d as u64 + f as u64;
                    }
                }
            }
            "next" => {
                while let Some(d) = p.next().unwrap() {
                    sum += d as u64 + p.freq().unwrap() as u64;
                }
            }
            "raw" => sum += raw_blocks(&bytes),
            _ => panic!("who"),
        }
    }
    println!("{sum}");
}
