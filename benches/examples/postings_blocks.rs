//! Iterates a 1M-doc posting list by `next_block()` (or the raw block decode) ITERS times, for
//! instruction counts under `valgrind --tool=callgrind`:
//! `postings_blocks block|next|raw dense|sparse|zipf ITERS` (`raw`: the bench's `raw-blocks`).

use std::hint::black_box;

use svb_bench::{sorted_u32, Gaps};
use svb_core::{Codec, U32Delta, U32Variant0124};
use svb_postings::{Postings, BLOCK, HEADER_LEN, SKIP_ENTRY_LEN};

/// The bench's `raw-blocks`: every block decoded straight from its bytes, no checks beyond
/// the streams' bounds, the same consumer work.
fn raw_blocks(bytes: &[u8]) -> u64 {
    let (mut docs, mut freqs) = ([0u32; BLOCK], [0u32; BLOCK]);
    let n = u32::from_le_bytes(bytes[..4].try_into().unwrap()) as usize;
    let blocks = n.div_ceil(BLOCK);
    let (skips, data) = bytes[HEADER_LEN..].split_at(blocks * SKIP_ENTRY_LEN);
    let at = |b: usize, k: usize| {
        let i = b * SKIP_ENTRY_LEN + 4 * k;
        u32::from_le_bytes(skips[i..i + 4].try_into().unwrap())
    };
    let (mut start, mut prev, mut sum) = (0usize, 0u32, 0u64);
    for b in 0..blocks {
        let len = (n - b * BLOCK).min(BLOCK);
        let end = at(b, 1) as usize;
        let used = U32Delta
            .decode_to_slice(&data[start..], prev, &mut docs[..len])
            .unwrap();
        let used = used
            + U32Variant0124
                .decode_to_slice(&data[start + used..], &mut freqs[..len])
                .unwrap();
        assert_eq!(start + used, end);
        for (&d, &f) in docs[..len].iter().zip(&freqs[..len]) {
            sum += d as u64 + f as u64;
        }
        prev = at(b, 0);
        start = end;
    }
    sum
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, who, gaps, iters] = &args[..] else {
        eprintln!("usage: postings_blocks block|next|raw GAPS ITERS");
        std::process::exit(2);
    };
    let gaps = Gaps::ALL
        .into_iter()
        .find(|g| g.name() == gaps)
        .expect("GAPS");
    let docs = sorted_u32(1 << 20, gaps, 2);
    let docs: Vec<u32> = docs
        .windows(2)
        .take_while(|w| w[1] > w[0])
        .map(|w| w[0])
        .collect();
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
