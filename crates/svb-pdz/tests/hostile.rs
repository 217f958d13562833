//! Hostile blocks: each of the checks ONT's POD5 adapter makes refuses what it should, with
//! the error that names it; frames that inflate to one byte more or less than a sample a
//! byte, truncated and lying frames, and any bytes are errors, never panics.

use proptest::prelude::*;
use svb_io::zstd_frame;
use svb_pdz::{PdzError, HEADER_LEN};

fn signal(n: usize) -> Vec<i16> {
    (0..n).map(|i| (i as i16).wrapping_mul(37) % 700 - 350).collect()
}

/// `block` with header field `i` set to `v`.
fn with_field(block: &[u8], i: usize, v: u64) -> Vec<u8> {
    let mut b = block.to_vec();
    b[8 * i..8 * i + 8].copy_from_slice(&v.to_le_bytes());
    b
}

#[test]
fn each_adapter_check_refuses() {
    let n = 1000;
    let block = svb_pdz::encode(&signal(n)).unwrap();
    let mut out = vec![0i16; n];
    let err = |b: &[u8], n: usize| svb_pdz::decode(b, n).unwrap_err();
    // Shorter than the header.
    assert_eq!(err(&block[..23], n), PdzError::NoHeader { len: 23 });
    assert_eq!(err(&[], 0), PdzError::NoHeader { len: 0 });
    // Another count than the row's.
    assert!(matches!(err(&block, n + 1), PdzError::SampleCount { header: 1000, expected: 1001 }));
    assert!(matches!(err(&block, 999), PdzError::SampleCount { .. }));
    // A trailing byte, and one byte short.
    let mut long = block.clone();
    long.push(0);
    assert!(matches!(err(&long, n), PdzError::Length { .. }));
    assert!(matches!(err(&block[..block.len() - 1], n), PdzError::Length { .. }));
    // Plane lengths: beyond zstd's bound, and moved between the planes.
    let h = svb_pdz::Header::parse(&block).unwrap();
    assert!(matches!(
        err(&with_field(&block, 1, 1 << 40), n),
        PdzError::PlaneTooLarge { plane: "low", .. }
    ));
    assert!(matches!(
        err(&with_field(&block, 2, u64::MAX), n),
        PdzError::PlaneTooLarge { plane: "high", .. }
    ));
    let moved = with_field(&with_field(&block, 1, h.low_len - 5), 2, h.high_len + 5);
    assert!(matches!(err(&moved, n), PdzError::Plane { .. }));
    // Larger than any block of n samples.
    let mut huge = block.clone();
    huge.resize(svb_pdz::max_encoded_len(n) + 1, 0);
    assert!(matches!(err(&huge, n), PdzError::LargerThanBound { .. }));
    // More samples than a u32 row holds (the output slice is never touched).
    #[cfg(target_pointer_width = "64")]
    assert!(matches!(
        svb_pdz::check(&block, 1 << 32),
        Err(PdzError::TooManySamples { samples: 4294967296 })
    ));
    // Nothing was written to `out` by the refusals above.
    assert!(svb_pdz::decode_into(&block[..10], &mut out).is_err());
    assert!(out.iter().all(|&s| s == 0));
}

/// Planes whose frames inflate to n - 1 or n + 1 bytes, or are not zstd, are refused.
#[test]
fn planes_must_inflate_to_exactly_n_bytes() {
    let n: usize = 300;
    let u = vec![0u8; n.div_ceil(4)];
    let make = |low: &[u8], high: &[u8]| {
        let z = |plane| zstd_frame::compress(1, plane).unwrap();
        assemble(n, &u, &z(low), &z(high))
    };
    let ok = vec![7u8; n];
    assert!(svb_pdz::decode(&make(&ok, &ok), n).is_ok());
    for bad in [vec![7u8; n - 1], vec![7u8; n + 1], vec![]] {
        assert!(matches!(
            svb_pdz::decode(&make(&bad, &ok), n),
            Err(PdzError::Plane { plane: "low", .. })
        ));
        assert!(matches!(
            svb_pdz::decode(&make(&ok, &bad), n),
            Err(PdzError::Plane { plane: "high", .. })
        ));
    }
    // Not a frame at all: the plane's bytes zeroed.
    let mut b = make(&ok, &ok);
    let start = HEADER_LEN + u.len();
    b[start..start + 4].fill(0);
    assert!(matches!(svb_pdz::decode(&b, n), Err(PdzError::Plane { plane: "low", .. })));
    // A lying content size (declares 1 GiB in a few bytes) fails without allocating it.
    let lying = svb_testdata::zstd_lying_frame(16, 1 << 30);
    assert!(svb_pdz::decode(&assemble(n, &u, &lying, &lying), n).is_err());
}

/// A block of `n` samples of the raw plane `u` and the compressed planes `z_low`, `z_high`.
fn assemble(n: usize, u: &[u8], z_low: &[u8], z_high: &[u8]) -> Vec<u8> {
    let mut b = Vec::new();
    for v in [n as u64, z_low.len() as u64, z_high.len() as u64] {
        b.extend_from_slice(&v.to_le_bytes());
    }
    for part in [u, z_low, z_high] {
        b.extend_from_slice(part);
    }
    b
}

/// Every truncation and every single-byte change of a real block: an error or a signal,
/// never a panic; a change inside B_u (raw) still decodes, to another signal.
#[test]
fn truncations_and_flips() {
    let n = 700;
    let block = svb_pdz::encode(&signal(n)).unwrap();
    for cut in 0..block.len() {
        assert!(svb_pdz::decode(&block[..cut], n).is_err());
    }
    for at in 0..block.len() {
        let mut b = block.clone();
        b[at] ^= 0x5A;
        let r = svb_pdz::decode(&b, n);
        if (HEADER_LEN..HEADER_LEN + n.div_ceil(4)).contains(&at) {
            assert_ne!(r.unwrap(), signal(n), "a flip in B_u at {at}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// Any bytes, any count: an error or a signal of that count.
    #[test]
    fn any_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..400), n in 0usize..2000) {
        if let Ok(s) = svb_pdz::decode(&bytes, n) {
            prop_assert_eq!(s.len(), n);
        }
    }
}
