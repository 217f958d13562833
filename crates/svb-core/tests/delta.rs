//! The delta (`U32Delta`) and zigzag (`I32Zigzag`) codecs: byte for byte with the reference
//! C library's `streamvbyte_delta_encode` and `zigzag_encode` + `streamvbyte_encode` (the
//! vectors in ../shared/data/streamvbyte_delta), and every ISA's fused decoder against the
//! scalar one on random, adversarial, truncated and garbage input.

mod common;

use common::*;
use proptest::prelude::*;
use std::path::Path;
use svb_core::DecodeResult;
use svb_core::{Codec, DecodeError, DeltaKernels, I32Zigzag, Isa, U32Classic, U32Delta};
use svb_testdata::{data_dir, read_u32s, Rng};

/// Every delta kernel table this machine runs (the SIMD ones must be among them).
fn delta_kernels() -> Vec<&'static DeltaKernels> {
    let ks: Vec<_> = Isa::available().filter_map(|isa| U32Delta.kernels_for(isa)).collect();
    // The same ISAs as the plain codec, which `all_kernels` checks are really exercised.
    assert_eq!(ks.len(), all_kernels(&U32Classic).len());
    ks
}

fn encode_delta(k: &DeltaKernels, prev: u32, values: &[u32]) -> Vec<u8> {
    let mut out = vec![0u8; U32Delta.max_encoded_len(values.len())];
    let len = k.encode_to_slice(prev, values, &mut out).expect("encode");
    out.truncate(len);
    out
}

fn decode_delta(
    k: &DeltaKernels, input: &[u8], n: usize, prev: u32,
) -> Result<(Vec<u32>, usize), DecodeError> {
    let mut out = vec![0u32; n];
    let used = k.decode_to_slice(input, prev, &mut out)?;
    Ok((out, used))
}

/// What `decode_increasing_to_slice` must give, from the scalar plain decode and the
/// definition: the plain decode's error, or the first value not above the one before it
/// (the first value: not above `prev`, when given), or the bytes consumed.
fn increasing_expected(input: &[u8], n: usize, prev: Option<u32>) -> DecodeResult {
    let scalar = U32Delta.kernels_for(Isa::Scalar).unwrap();
    let (values, used) = decode_delta(scalar, input, n, prev.unwrap_or(0))?;
    let first_bad = match (prev, values.first()) {
        (Some(p), Some(&f)) if f <= p => Some(0),
        _ => values.windows(2).position(|w| w[1] <= w[0]).map(|i| i + 1),
    };
    match first_bad {
        Some(index) => Err(DecodeError::NotIncreasing { index }),
        None => Ok(used),
    }
}

/// Every ISA's fused increasing decode gives [`increasing_expected`]'s answer, and on
/// success the plain decode's values.
fn check_increasing(input: &[u8], n: usize, prev: Option<u32>) {
    let expected = increasing_expected(input, n, prev);
    for k in delta_kernels() {
        let mut out = vec![0u32; n];
        let got = k.decode_increasing_to_slice(input, prev, &mut out);
        assert_eq!(got, expected, "{} n={n} prev={prev:?}", k.isa());
        if got.is_ok() {
            let plain = decode_delta(k, input, n, prev.unwrap_or(0)).unwrap().0;
            assert_eq!(out, plain, "{} n={n}", k.isa());
        }
    }
}

/// (name, prev, values, reference bytes) of every `.d1.svb` vector.
fn delta_vectors() -> Vec<(String, u32, Vec<u32>, Vec<u8>)> {
    let Some(dir) = data_dir() else {
        return Vec::new();
    };
    let dir = dir.join("streamvbyte_delta");
    let manifest = std::fs::read_to_string(dir.join("manifest.tsv")).unwrap();
    manifest
        .lines()
        .skip(1)
        // The signed vectors (no prev) are `zigzag_matches_reference_c_both_ways`'.
        .filter(|line| line.split('\t').nth(2) != Some("-"))
        .map(|line| {
            let f: Vec<&str> = line.split('\t').collect();
            let (name, n, prev, bytes) = (f[0], f[1], f[2], f[3]);
            let values = read_u32s(&std::fs::read(dir.join(format!("{name}.u32"))).unwrap());
            let svb = std::fs::read(dir.join(format!("{name}.d1.svb"))).unwrap();
            assert_eq!(values.len(), n.parse::<usize>().unwrap(), "{name}");
            assert_eq!(svb.len(), bytes.parse::<usize>().unwrap(), "{name}");
            (name.to_owned(), prev.parse().unwrap(), values, svb)
        })
        .collect()
}

#[test]
#[ignore = "needs the shared test data (../shared/data or SVB_TEST_DATA); run with --include-ignored"]
fn delta_matches_reference_c_both_ways() {
    let vectors = delta_vectors();
    if data_dir().is_some() {
        assert_eq!(vectors.len(), 160, "20 lengths x 4 gap shapes x 2 prevs");
    }
    for (name, prev, values, svb) in &vectors {
        for k in delta_kernels() {
            assert_eq!(&encode_delta(k, *prev, values), svb, "{name} encode {}", k.isa());
            assert_eq!(
                decode_delta(k, svb, values.len(), *prev).unwrap(),
                (values.clone(), svb.len()),
                "{name} decode {}",
                k.isa()
            );
        }
        assert_eq!(&U32Delta.encode(*prev, values), svb, "{name}");
        assert_eq!(&U32Delta.decode(svb, values.len(), *prev).unwrap(), values);
        assert_eq!(U32Delta.encoded_len(svb, values.len()).unwrap(), svb.len());
    }
}

#[svb_testdata::data_test]
fn zigzag_matches_reference_c_both_ways(dir: &Path) {
    let dir = dir.join("streamvbyte_delta");
    let found = svb_testdata::files_with_suffix(&dir, "_signed.i32");
    assert_eq!(found.len(), 20, "one signed vector per length");
    for (name, path) in found {
        let values: Vec<i32> =
            read_u32s(&std::fs::read(&path).unwrap()).into_iter().map(|v| v as i32).collect();
        let svb = std::fs::read(dir.join(format!("{name}_signed.zz.1234.svb"))).unwrap();
        assert_wire_every_isa(&I32Zigzag, &values, &svb, &name);
        assert_eq!(I32Zigzag.decode(&svb, values.len()).unwrap(), values);
    }
}

/// A sorted list of `n` values from `start` with gaps drawn by `gap`.
fn sorted(rng: &mut Rng, n: usize, start: u32, gap: impl Fn(u64) -> u32) -> Vec<u32> {
    let mut v = start;
    (0..n)
        .map(|_| {
            v = v.wrapping_add(gap(rng.next()));
            v
        })
        .collect()
}

/// Every ISA encodes `values` to the scalar bytes and decodes them back, with and without
/// bytes after the stream; every truncation gives every ISA the scalar kernel's error.
fn check_delta(prev: u32, values: &[u32], truncations: bool) {
    let scalar = U32Delta.kernels_for(Isa::Scalar).unwrap();
    let reference = encode_delta(scalar, prev, values);
    // The wire is U32Classic over the wrapping deltas.
    let mut last = prev;
    let deltas: Vec<u32> = values.iter().map(|&v| (v.wrapping_sub(last), last = v).0).collect();
    assert_eq!(reference, U32Classic.encode(&deltas), "n={}", values.len());
    for k in delta_kernels() {
        assert_eq!(encode_delta(k, prev, values), reference, "{} n={}", k.isa(), values.len());
        assert_eq!(
            decode_delta(k, &reference, values.len(), prev).unwrap(),
            (values.to_vec(), reference.len()),
            "{} n={}",
            k.isa(),
            values.len()
        );
        // Fewer than, exactly and more than the 16 bytes past the stream that let every
        // group run on the vector path from the data itself.
        for slack in [1, 4, 11, 15, 16, 17, 24, 33, 40] {
            let mut padded = reference.clone();
            padded.extend_from_slice(&[0xAB; 40][..slack]);
            assert_eq!(
                decode_delta(k, &padded, values.len(), prev).unwrap(),
                (values.to_vec(), reference.len()),
                "{} n={} slack {slack}",
                k.isa(),
                values.len()
            );
        }
    }
    for slack in [0, 16] {
        let mut padded = reference.clone();
        padded.extend_from_slice(&[0xAB; 16][..slack]);
        check_increasing(&padded, values.len(), Some(prev));
        check_increasing(&padded, values.len(), None);
    }
    if truncations {
        for cut in 0..reference.len() {
            let expected = decode_delta(scalar, &reference[..cut], values.len(), prev).unwrap_err();
            for k in delta_kernels() {
                let got = decode_delta(k, &reference[..cut], values.len(), prev).unwrap_err();
                assert_eq!(got, expected, "{} cut at {cut}", k.isa());
            }
        }
    }
}

type Gap = fn(u64) -> u32;
const GAPS: [Gap; 6] = [
    |_| 1,
    |r| 1 + (r % 4) as u32,
    |r| 1 + (r % 100_000) as u32,
    |r| (r >> 40) as u32 >> (8 * (r % 4)),
    |r| (r >> 32) as u32,
    |_| 0,
];

#[test]
fn delta_every_isa_matches_scalar_at_every_length() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for n in (0..=70).chain(250..=260).chain(4090..=4100) {
        for (g, gap) in GAPS.iter().enumerate() {
            for prev in [0, 1_000_003, u32::MAX - 5] {
                let v = sorted(&mut rng, n, prev, gap);
                check_delta(prev, &v, n <= 70 && g < 4);
            }
        }
    }
}

#[test]
fn zigzag_every_isa_matches_scalar_at_every_length() {
    let mut rng = Rng(0xD1B5_4A32_D192_ED03);
    let scalar = I32Zigzag.kernels_for(Isa::Scalar).unwrap();
    for n in (0..=70).chain(4090..=4100) {
        for bytes in 1..=4u32 {
            let v: Vec<i32> = (0..n).map(|_| (rng.next() as i32) >> (8 * (4 - bytes))).collect();
            let reference = encode_with(&I32Zigzag, scalar, &v);
            for k in all_kernels(&I32Zigzag) {
                assert_eq!(encode_with(&I32Zigzag, k, &v), reference, "{} n={n}", k.isa());
                let got = decode_with::<I32Zigzag>(k, &reference, n).unwrap();
                assert_eq!(got, (v.clone(), reference.len()), "{} n={n}", k.isa());
                if n <= 40 {
                    for cut in 0..reference.len() {
                        assert_eq!(
                            decode_with::<I32Zigzag>(k, &reference[..cut], n),
                            decode_with::<I32Zigzag>(scalar, &reference[..cut], n),
                        );
                    }
                }
            }
        }
    }
}

/// Lists that fail the increasing check in every way the fused check must catch, at every
/// place a kernel loop can hold them (the block loops, the groups after them, the tails),
/// with and without 16 bytes after the stream: one zero delta (in blocks of one-byte deltas
/// and of mixed lengths), a wrap past `u32::MAX` by 3-byte deltas (which the 256-value runs
/// must see), a wrap by one 4-byte delta that lands above where the list started, and a
/// first value equal to `prev`. Lists without a fault must pass.
#[test]
fn increasing_decode_catches_every_fault_on_every_isa() {
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    let lens: Vec<usize> = (1..=70).chain([127, 128, 129, 255, 256, 257, 511, 600]).collect();
    for &n in &lens {
        for shape in 0..6 {
            let gap: Gap = match shape % 3 {
                0 => |r| 1 + (r % 200) as u32,
                1 => |r| 1 + (r % 70_000) as u32,
                _ => |r| 1 + (r >> 45) as u32,
            };
            let start = rng.next() as u32 >> 4;
            let mut v = sorted(&mut rng, n, start, gap);
            let at = (rng.next() % n as u64) as usize;
            let prev = match shape / 3 {
                // A zero delta at `at` (from prev itself at 0).
                0 => {
                    if at > 0 {
                        v[at] = v[at - 1];
                        for i in at + 1..n {
                            v[i] = v[i - 1].wrapping_add(gap(rng.next()));
                        }
                    }
                    if at == 0 {
                        v[0]
                    } else {
                        start
                    }
                }
                // No fault.
                _ => start,
            };
            for slack in [0, 16] {
                let mut bytes = U32Delta.encode(prev, &v);
                bytes.extend_from_slice(&[0xCD; 16][..slack]);
                check_increasing(&bytes, n, Some(prev));
                check_increasing(&bytes, n, None);
            }
        }
        // Wraps: 3-byte deltas from near the top (every 256-value run must see it), and one
        // 4-byte delta landing above the start.
        for prev in [u32::MAX - 70_000, u32::MAX - (1 << 26), u32::MAX / 2] {
            let v = sorted(&mut rng, n, prev, |r| 1 + (r % (1 << 24)) as u32);
            for slack in [0, 16] {
                let mut bytes = U32Delta.encode(prev, &v);
                bytes.extend_from_slice(&[0xCD; 16][..slack]);
                check_increasing(&bytes, n, Some(prev));
            }
        }
        let mut v = sorted(&mut rng, n, 1000, |r| 1 + (r % 50) as u32);
        let at = (rng.next() % n as u64) as usize;
        let base = if at == 0 { 1000 } else { v[at - 1] };
        v[at] = base.wrapping_add(u32::MAX - 3);
        for i in at + 1..n {
            v[i] = v[i - 1].wrapping_add(7);
        }
        for slack in [0, 16] {
            let mut bytes = U32Delta.encode(1000, &v);
            bytes.extend_from_slice(&[0xCD; 16][..slack]);
            check_increasing(&bytes, n, Some(1000));
        }
    }
}

/// All ISAs decode arbitrary bytes exactly as the scalar kernels do (values or error).
fn check_garbage(bytes: &[u8], n: usize, prev: u32) {
    check_increasing(bytes, n, Some(prev));
    check_increasing(bytes, n, None);
    let scalar = U32Delta.kernels_for(Isa::Scalar).unwrap();
    let expected = decode_delta(scalar, bytes, n, prev);
    for k in delta_kernels() {
        assert_eq!(decode_delta(k, bytes, n, prev), expected, "{} n={n}", k.isa());
    }
    let zscalar = I32Zigzag.kernels_for(Isa::Scalar).unwrap();
    let expected = decode_with::<I32Zigzag>(zscalar, bytes, n);
    for k in all_kernels(&I32Zigzag) {
        assert_eq!(decode_with::<I32Zigzag>(k, bytes, n), expected, "{} n={n}", k.isa());
    }
}

#[test]
fn garbage_is_decoded_alike_by_every_isa() {
    let mut rng = Rng(0xA076_1D64_78BD_642F);
    for _ in 0..300 {
        let len = (rng.next() % 700) as usize;
        let bytes = rng.bytes(len);
        for n in [0, 1, 3, 4, 5, 8, 31, 64, 100, 255, 256, 1000, 5000] {
            check_garbage(&bytes, n, rng.next() as u32);
        }
    }
}

#[test]
fn implausible_counts_are_refused_before_allocating() {
    let bytes = [0u8; 10];
    for n in [usize::MAX, 1 << 40, 4_000_000_000] {
        assert!(matches!(U32Delta.decode(&bytes, n, 0), Err(DecodeError::ControlTruncated { .. })));
        assert!(matches!(I32Zigzag.decode(&bytes, n), Err(DecodeError::ControlTruncated { .. })));
    }
    assert_eq!(
        U32Delta.decode(&[0u8; 10], 40, 7),
        Err(DecodeError::TooShortForCount { n: 40, min_len: 50, available: 10 })
    );
    assert_eq!(
        U32Delta.decode(&[0, 1, 2, 3, 4, 9], 4, 7),
        Err(DecodeError::TrailingBytes { consumed: 5, trailing: 1 })
    );
    assert_eq!(U32Delta.decode(&[0, 1, 2, 3, 4], 4, 7).unwrap(), [8, 10, 13, 17]);
    let mut out = vec![5u32];
    assert!(U32Delta.decode_into(&[0, 1], 4, 0, &mut out).is_err());
    assert_eq!(out, [5], "nothing appended on error");
}

#[test]
fn small_output_is_an_error_not_a_panic() {
    for k in delta_kernels() {
        let mut out = vec![0u8; 10];
        assert!(k.encode_to_slice(0, &[1, 2, 3, 4, 5], &mut out).is_err());
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn prop_delta_round_trip(seed in any::<u64>(), n in 0usize..3000, g in 0usize..GAPS.len(), prev in any::<u32>()) {
        let mut rng = Rng(seed | 1);
        let v = sorted(&mut rng, n, prev, GAPS[g]);
        check_delta(prev, &v, false);
    }

    #[test]
    fn prop_zigzag_round_trip(v in prop::collection::vec(any::<i32>(), 0..3000)) {
        let bytes = I32Zigzag.encode(&v);
        prop_assert_eq!(I32Zigzag.decode(&bytes, v.len()).unwrap(), v);
    }

    #[test]
    fn prop_any_bytes_decode_alike(bytes in prop::collection::vec(any::<u8>(), 0..600), n in 0usize..2000, prev in any::<u32>()) {
        check_garbage(&bytes, n, prev);
    }
}
