//! The postings baselines read back what they encode and agree with our reader on every
//! `next`, `freq` and `advance`: the benchmark compares equal work.

use svb_bench::postings_peers::{BitPacked, Naive4, VInt};
use svb_bench::{sorted_u32, Gaps, Rng};
use svb_postings::Postings;

fn freqs(n: usize) -> Vec<u32> {
    let mut r = Rng(0x2545_F491_4F6C_DD1D);
    (0..n)
        .map(|_| if r.next().is_multiple_of(3) { 2 + (r.next() % 200) as u32 } else { 1 })
        .collect()
}

#[test]
fn baselines_agree_with_our_reader() {
    for gaps in Gaps::ALL {
        for n in [1, 5, 127, 128, 129, 1000, 20_001] {
            let docs = sorted_u32(n, gaps, 3);
            let fr = freqs(n);
            let ours = svb_postings::encode(&docs, &fr).unwrap();
            let (vint, naive) = (VInt::encode(&docs, &fr), Naive4::encode(&docs, &fr));
            let packed = BitPacked::encode(&docs, &fr);
            let (mut a, mut b, mut c) =
                (Postings::new(&ours).unwrap(), VInt::reader(&vint), Naive4::reader(&naive));
            let mut e = BitPacked::reader(&packed);
            for i in 0..n {
                let d = a.next().unwrap();
                assert_eq!(d, Some(docs[i]));
                assert_eq!((b.next(), c.next(), e.next()), (d, d, d), "{gaps:?} n={n} i={i}");
                assert_eq!((b.freq(), c.freq(), e.freq()), (fr[i], fr[i], fr[i]));
            }
            assert_eq!((a.next().unwrap(), b.next(), c.next(), e.next()), (None, None, None, None));

            let mut r = Rng(0x9E37_79B9_7F4A_7C15);
            let (mut a, mut b, mut c) =
                (Postings::new(&ours).unwrap(), VInt::reader(&vint), Naive4::reader(&naive));
            let mut e = BitPacked::reader(&packed);
            let mut target = 0u32;
            loop {
                let want = a.advance(target).unwrap();
                assert_eq!(b.advance(target), want, "{gaps:?} n={n} target={target}");
                assert_eq!(c.advance(target), want, "{gaps:?} n={n} target={target}");
                assert_eq!(e.advance(target), want, "{gaps:?} n={n} target={target}");
                let Some(d) = want else { break };
                let f = a.freq().unwrap();
                assert_eq!((b.freq(), c.freq(), e.freq()), (f, f, f));
                target = d + 1 + (r.next() % (gaps.gap(r.next()) as u64 * 300)) as u32;
            }
        }
    }
}
