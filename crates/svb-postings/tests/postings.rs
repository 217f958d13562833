//! The posting-list encoder and reader: round trips at every block boundary, `advance`
//! against a reference search, `next_block` against `next`, encoder refusals, and untrusted
//! bytes (every truncation, random corruption) giving errors and never panics.

use proptest::prelude::*;
use svb_postings::{encode, EncodeError, Postings, PostingsError, PostingsErrorKind, BLOCK};
use svb_testdata::Rng;

/// A list of `n` docs from `first` with gaps in `1..=max_gap` and frequencies in 1..=9 (mostly 1).
fn list(rng: &mut Rng, n: usize, first: u32, max_gap: u32) -> (Vec<u32>, Vec<u32>) {
    let mut d = first;
    let docs: Vec<u32> = (0..n)
        .map(|i| {
            if i > 0 {
                d += 1 + (rng.next() % max_gap as u64) as u32;
            }
            d
        })
        .collect();
    let freqs = (0..n)
        .map(|_| match rng.next() % 4 {
            0 => 1 + (rng.next() % 9) as u32,
            _ => 1,
        })
        .collect();
    (docs, freqs)
}

/// Every doc and frequency by `next`, then `None` (twice).
fn by_next(bytes: &[u8]) -> Result<(Vec<u32>, Vec<u32>), PostingsError> {
    let mut p = Postings::new(bytes)?;
    let (mut docs, mut freqs) = (Vec::new(), Vec::new());
    while let Some(d) = p.next()? {
        assert_eq!(p.doc(), Some(d));
        docs.push(d);
        freqs.push(p.freq()?);
    }
    assert_eq!(p.doc(), None);
    assert_eq!(p.next()?, None);
    Ok((docs, freqs))
}

/// Every doc and frequency by `next_block`.
fn by_block(bytes: &[u8]) -> Result<(Vec<u32>, Vec<u32>), PostingsError> {
    let mut p = Postings::new(bytes)?;
    let (mut docs, mut freqs) = (Vec::new(), Vec::new());
    while let Some(b) = p.next_block()? {
        assert!(!b.docs().is_empty() && b.docs().len() <= BLOCK);
        docs.extend_from_slice(b.docs());
        freqs.extend_from_slice(b.freqs());
    }
    Ok((docs, freqs))
}

#[test]
fn round_trips_at_every_block_boundary() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for n in [0, 1, 2, 3, 4, 5, 127, 128, 129, 255, 256, 257, 1000, 4097] {
        for (first, max_gap) in [(0, 1), (0, 4), (5, 100_000), (1_000_000, 300), (0, 40_000)] {
            if max_gap as u64 * n as u64 >= u32::MAX as u64 {
                continue;
            }
            let (docs, freqs) = list(&mut rng, n, first, max_gap);
            let bytes = encode(&docs, &freqs).unwrap();
            assert!(bytes.len() <= svb_postings::max_encoded_len(n));
            assert_eq!(by_next(&bytes).unwrap(), (docs.clone(), freqs.clone()), "n={n}");
            assert_eq!(by_block(&bytes).unwrap(), (docs.clone(), freqs.clone()), "n={n}");
            let p = Postings::new(&bytes).unwrap();
            assert_eq!((p.len(), p.blocks()), (n, n.div_ceil(BLOCK)));
        }
    }
}

/// The reference `advance`: the first doc at or after `target` from index `at`.
fn reference_advance(docs: &[u32], at: usize, target: u32) -> usize {
    at + docs[at..].partition_point(|&d| d < target)
}

#[test]
fn advance_matches_a_reference_search() {
    let mut rng = Rng(0xD1B5_4A32_D192_ED03);
    for n in [1, 100, 128, 129, 1000, 20_000] {
        for max_gap in [1, 3, 1000] {
            let (docs, freqs) = list(&mut rng, n, 3, max_gap);
            let bytes = encode(&docs, &freqs).unwrap();
            let last = docs[n - 1];
            for stride in [1u32, 2, 7, 100, 1000, 50_000] {
                let mut p = Postings::new(&bytes).unwrap();
                let mut at = 0usize;
                let mut target = 0u32;
                loop {
                    let want = reference_advance(&docs, at, target);
                    let got = p.advance(target).unwrap();
                    if want == n {
                        assert_eq!(got, None, "n={n} target={target}");
                        assert_eq!(p.advance(target).unwrap(), None);
                        break;
                    }
                    assert_eq!(got, Some(docs[want]), "n={n} gap={max_gap} target={target}");
                    assert_eq!(p.freq().unwrap(), freqs[want]);
                    at = want;
                    // Sometimes step with next() in between.
                    if rng.next().is_multiple_of(3) {
                        assert_eq!(p.next().unwrap(), docs.get(at + 1).copied());
                        at += 1;
                        if at == n {
                            break;
                        }
                    }
                    target = target.saturating_add(1 + rng.next() as u32 % stride);
                    if target > last.saturating_add(10) {
                        target = last + 1;
                    }
                }
            }
        }
    }
}

#[test]
fn next_block_hands_out_the_rest_of_the_current_block() {
    let docs: Vec<u32> = (0..300).map(|i| i * 2).collect();
    let freqs = vec![1; 300];
    let bytes = encode(&docs, &freqs).unwrap();
    let mut p = Postings::new(&bytes).unwrap();
    assert_eq!(p.advance(20).unwrap(), Some(20));
    let b = p.next_block().unwrap().unwrap();
    assert_eq!(b.docs(), &docs[11..128]);
    assert_eq!(p.doc(), Some(254));
    assert_eq!(p.next().unwrap(), Some(256));
    let b = p.next_block().unwrap().unwrap();
    assert_eq!(b.docs(), &docs[129..256]);
    let b = p.next_block().unwrap().unwrap();
    assert_eq!(b.docs(), &docs[256..]);
    assert!(p.next_block().unwrap().is_none());
    assert_eq!(p.doc(), None);
}

#[test]
fn intersection_by_advance_matches_a_set_intersection() {
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    let (long, lf) = list(&mut rng, 50_000, 0, 8);
    let (short, sf) = list(&mut rng, 500, 17, 800);
    let (a, b) = (encode(&long, &lf).unwrap(), encode(&short, &sf).unwrap());
    let (mut pa, mut pb) = (Postings::new(&a).unwrap(), Postings::new(&b).unwrap());
    let mut got = Vec::new();
    let mut d = pb.next().unwrap();
    while let Some(target) = d {
        match pa.advance(target).unwrap() {
            None => break,
            Some(x) if x == target => {
                got.push(x);
                d = pb.next().unwrap();
            }
            Some(x) => d = pb.advance(x).unwrap(),
        }
    }
    let want: Vec<u32> = short.iter().copied().filter(|d| long.binary_search(d).is_ok()).collect();
    assert!(!want.is_empty());
    assert_eq!(got, want);
}

#[test]
fn encoder_refuses_what_the_wire_cannot_hold() {
    assert_eq!(encode(&[1, 2], &[1]), Err(EncodeError::LengthMismatch { docs: 2, freqs: 1 }));
    assert_eq!(
        encode(&[1, 5, 5], &[1, 1, 1]),
        Err(EncodeError::NotIncreasing { index: 2, doc: 5, prev: 5 })
    );
    assert_eq!(encode(&[1, 5], &[1, 0]), Err(EncodeError::ZeroFrequency { index: 1 }));
    let mut out = vec![9u8];
    assert!(svb_postings::encode_into(&[2, 1], &[1, 1], &mut out).is_err());
    assert_eq!(out, [9], "nothing appended on error");
    // The largest ids and frequencies round-trip.
    let bytes = encode(&[0, u32::MAX - 1, u32::MAX], &[u32::MAX, 1, 2]).unwrap();
    assert_eq!(by_next(&bytes).unwrap(), (vec![0, u32::MAX - 1, u32::MAX], vec![u32::MAX, 1, 2]));
}

/// Reads `bytes` every way there is; returns whether all of it decoded. Panics only on a bug.
fn read_every_way(bytes: &[u8], targets: &[u32]) -> bool {
    let ok_next = by_next(bytes).is_ok();
    let ok_block = by_block(bytes).is_ok();
    if let Ok(mut p) = Postings::new(bytes) {
        for &t in targets {
            match p.advance(t) {
                Ok(Some(d)) => {
                    assert!(d >= t);
                    let _ = p.freq();
                }
                Ok(None) | Err(_) => break,
            }
        }
    }
    ok_next && ok_block
}

#[test]
fn every_truncation_is_an_error_not_a_panic() {
    let mut rng = Rng(0xA076_1D64_78BD_642F);
    let (docs, freqs) = list(&mut rng, 300, 0, 500);
    let bytes = encode(&docs, &freqs).unwrap();
    for cut in 0..bytes.len() {
        assert!(!read_every_way(&bytes[..cut], &[0, 1000, 50_000]), "cut at {cut}");
    }
    let mut longer = bytes.clone();
    longer.push(0);
    assert!(matches!(
        Postings::new(&longer).map_err(|e| e.kind().clone()),
        Err(PostingsErrorKind::BadSkip { .. })
    ));
    // A lying doc count is refused before anything is decoded.
    let mut lying = bytes.clone();
    lying[..4].copy_from_slice(&u32::MAX.to_le_bytes());
    assert!(Postings::new(&lying).is_err());
}

#[test]
fn corrupt_lists_give_errors_or_docs_never_panics() {
    let mut rng = Rng(0x853C_49E6_748F_EA9B);
    let (docs, freqs) = list(&mut rng, 700, 0, 300);
    let bytes = encode(&docs, &freqs).unwrap();
    let mut caught = 0;
    for _ in 0..3000 {
        let mut bad = bytes.clone();
        for _ in 0..1 + rng.next() % 3 {
            let i = (rng.next() as usize) % bad.len();
            bad[i] ^= 1 << (rng.next() % 8);
        }
        if !read_every_way(&bad, &[0, 500, 30_000, 100_000]) {
            caught += 1;
        }
    }
    assert!(caught > 100, "only {caught} of 3000 corruptions detected");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn prop_any_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..2000), t in any::<u32>()) {
        read_every_way(&bytes, &[t / 4, t / 2, t]);
    }

    #[test]
    fn prop_round_trip(seed in any::<u64>(), n in 0usize..3000, gap in 1u32..5000) {
        let mut rng = Rng(seed | 1);
        let (docs, freqs) = list(&mut rng, n, (seed % 1000) as u32, gap);
        let bytes = encode(&docs, &freqs).unwrap();
        prop_assert_eq!(by_next(&bytes).unwrap(), (docs.clone(), freqs.clone()));
        prop_assert_eq!(by_block(&bytes).unwrap(), (docs, freqs));
    }
}
