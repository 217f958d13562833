//! Every ISA's split and merge against the scalar ones, on signals that round-trip (the
//! same block from every ISA's split) and on planes of any bytes (a hostile block's pieces ORed as ONT's scalar decoder ORs them), at every
//! length around the 64- and 128-sample boundaries.

use proptest::prelude::*;
use svb_io::zstd_frame;
use svb_pdz::{Isa, HEADER_LEN};
use svb_testdata::Rng;

/// A block of `n` samples made of the given planes (`u`: `ceil(n / 4)` bytes, `l` and `h`:
/// `n` bytes), each plane compressed as the encoder does.
fn block_of(n: usize, u: &[u8], l: &[u8], h: &[u8]) -> Vec<u8> {
    let (zl, zh) = (zstd_frame::compress(1, l).unwrap(), zstd_frame::compress(1, h).unwrap());
    let mut b = Vec::new();
    for v in [n as u64, zl.len() as u64, zh.len() as u64] {
        b.extend_from_slice(&v.to_le_bytes());
    }
    b.extend_from_slice(u);
    b.extend_from_slice(&zl);
    b.extend_from_slice(&zh);
    b
}

/// Every ISA's split writes the scalar split's block of `signal`, which every ISA decodes
/// back; returns it.
fn every_isa_encodes_alike(signal: &[i16]) -> Vec<u8> {
    let want = svb_pdz::encode_with_isa(signal, Isa::Scalar).unwrap().unwrap();
    for isa in Isa::available() {
        let got = svb_pdz::encode_with_isa(signal, isa).unwrap().unwrap();
        assert_eq!(got, want, "{isa} n={}", signal.len());
    }
    assert_eq!(every_isa_alike(&want, signal.len()), signal);
    want
}

/// Every ISA decodes `block` (of `n` samples) as the scalar merge does.
fn every_isa_alike(block: &[u8], n: usize) -> Vec<i16> {
    svb_testdata::assert_simd_ran(Isa::available());
    let mut want = vec![0i16; n];
    svb_pdz::decode_into_with_isa(block, &mut want, Isa::Scalar).unwrap().unwrap();
    for isa in Isa::available() {
        let mut got = vec![0x2A2Ai16; n];
        svb_pdz::decode_into_with_isa(block, &mut got, isa).unwrap().unwrap();
        assert_eq!(got, want, "{isa} n={n}");
    }
    want
}

const LENGTHS: [usize; 16] =
    [0, 1, 4, 63, 64, 65, 127, 128, 129, 191, 192, 255, 256, 257, 1000, 4099];

#[test]
fn signals_round_trip_on_every_isa() {
    let mut rng = Rng(0x51_6E41);
    for n in LENGTHS {
        for spread in [0u64, 3, 300, 70_000] {
            let signal: Vec<i16> = if spread == 70_000 {
                (0..n).map(|_| rng.next() as i16).collect()
            } else {
                rng.walk(n, spread)
            };
            let block = every_isa_encodes_alike(&signal);
            assert_eq!(block.len(), svb_pdz::check(&block, n).map(|_| block.len()).unwrap());
            assert!(block.len() <= svb_pdz::max_encoded_len(n));
            assert_eq!(svb_pdz::encode(&signal).unwrap(), block, "n={n} spread={spread}");
        }
    }
    // The extremes: deltas of +32767 and -32768 alternating, and every value.
    let extremes: Vec<i16> =
        (0..1000).map(|i| if i % 2 == 0 { i16::MIN } else { i16::MAX }).collect();
    let every: Vec<i16> = (i16::MIN..=i16::MAX).collect();
    for signal in [extremes, every] {
        every_isa_encodes_alike(&signal);
    }
}

#[test]
fn planes_of_any_bytes_merge_alike() {
    let mut rng = Rng(0xB10C);
    for n in LENGTHS {
        for _ in 0..4 {
            let (u, l, h) = (rng.bytes(n.div_ceil(4)), rng.bytes(n), rng.bytes(n));
            every_isa_alike(&block_of(n, &u, &l, &h), n);
        }
        // All ones: every piece's high bits set, so that the ORs overlap.
        let ff = vec![0xFF; n];
        every_isa_alike(&block_of(n, &ff[..n.div_ceil(4)], &ff, &ff), n);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn prop_round_trip(signal in prop::collection::vec(any::<i16>(), 0..700)) {
        every_isa_encodes_alike(&signal);
    }

    #[test]
    fn prop_any_planes(n in 0usize..600, seed in any::<u64>()) {
        let mut rng = Rng(seed);
        let (u, l, h) = (rng.bytes(n.div_ceil(4)), rng.bytes(n), rng.bytes(n));
        every_isa_alike(&block_of(n, &u, &l, &h), n);
    }
}

/// The header is little-endian u64s at the front.
#[test]
fn header_is_at_the_front() {
    let block = svb_pdz::encode(&[1, 2, 3, 4, 5]).unwrap();
    let h = svb_pdz::Header::parse(&block).unwrap();
    assert_eq!(h.samples, 5);
    assert_eq!(block.len() as u64, HEADER_LEN as u64 + 2 + h.low_len + h.high_len);
}
