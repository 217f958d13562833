//! Every SIMD kernel against the scalar kernel: random and adversarial input, every control
//! byte, every length 0..=70 and 4090..=4100, truncation at every offset, random bytes.

mod common;

use common::*;
use proptest::prelude::*;
use svb_core::{Codec, Isa, Svb16, U32Classic, U32Variant0124, U64Coder1234, U64Coder1248};

/// A codec's value type, built from a random word and a byte width.
trait TestValue: Copy + Default + PartialEq + std::fmt::Debug + 'static {
    /// Value with exactly `bytes` significant bytes (0: the value 0).
    fn with_bytes(word: u64, bytes: u32) -> Self;
}
impl TestValue for u16 {
    fn with_bytes(w: u64, b: u32) -> Self {
        with_bytes(w, b.min(2)) as u16
    }
}
impl TestValue for u32 {
    fn with_bytes(w: u64, b: u32) -> Self {
        with_bytes(w, b.min(4)) as u32
    }
}
impl TestValue for u64 {
    fn with_bytes(w: u64, b: u32) -> Self {
        with_bytes(w, b.min(8))
    }
}

fn with_bytes(word: u64, bytes: u32) -> u64 {
    match bytes {
        0 => 0,
        8 => word | 1 << 63,
        b => (word & ((1u64 << (8 * b)) - 1)) | 1 << (8 * b - 1),
    }
}

use svb_testdata::Rng;

/// One `#[test]` per codec, each calling `$check(&codec, arg)`.
macro_rules! tests {
    ($check:ident: $($name:ident => $codec:expr, ();)*) => {
        $(
            #[test]
            fn $name() {
                $check(&$codec);
            }
        )*
    };
    ($check:ident: $($name:ident => $codec:expr, $arg:expr;)*) => {
        $(
            #[test]
            fn $name() {
                $check(&$codec, $arg);
            }
        )*
    };
}

/// `n` values whose byte widths are drawn from `widths`.
fn values<T: TestValue>(rng: &mut Rng, n: usize, widths: &[u32]) -> Vec<T> {
    (0..n).map(|_| T::with_bytes(rng.next(), widths[rng.next() as usize % widths.len()])).collect()
}

/// Bytes after a stream that the decoders are given.
const SLACKS: [usize; 9] = [1, 4, 11, 15, 16, 17, 24, 33, 40];

/// Every kernel encodes `vals` to the scalar bytes and decodes them back; every truncation
/// of the stream gives each kernel the scalar kernel's error.
fn check_all<C: Codec>(codec: &C, vals: &[C::Value], truncations: bool) -> Vec<u8>
where
    C::Value: TestValue,
{
    let kernels = all_kernels(codec);
    let scalar = codec.kernels_for(Isa::Scalar).unwrap();
    let reference = encode_with(codec, scalar, vals);
    assert_eq!(codec.encoded_len(&reference, vals.len()).unwrap(), reference.len());
    assert!(reference.len() <= codec.max_encoded_len(vals.len()));
    assert!(reference.len() >= codec.min_encoded_len(vals.len()));
    for k in &kernels {
        assert_eq!(
            encode_with(codec, k, vals),
            reference,
            "{} encode {} n={}",
            codec.name(),
            k.isa(),
            vals.len()
        );
        // Exactly-sized input: no padding after the stream.
        let (got, used) = decode_with::<C>(k, &reference, vals.len()).unwrap();
        assert_eq!(used, reference.len(), "{} {}", codec.name(), k.isa());
        assert_eq!(got, vals, "{} decode {} n={}", codec.name(), k.isa(), vals.len());
        // With trailing bytes the stream still decodes and reports its own length: fewer
        // than, exactly and more than the 16 bytes past the stream that let every group run
        // on the vector path from the data itself.
        for slack in SLACKS {
            let mut padded = reference.clone();
            padded.extend_from_slice(&[0xAB; 40][..slack]);
            assert_eq!(
                decode_with::<C>(k, &padded, vals.len()).unwrap(),
                (vals.to_vec(), reference.len()),
                "{} {} n={} slack {slack}",
                codec.name(),
                k.isa(),
                vals.len()
            );
        }
    }
    if truncations {
        for cut in 0..reference.len() {
            let expected = decode_with::<C>(scalar, &reference[..cut], vals.len()).unwrap_err();
            for k in &kernels {
                let got = decode_with::<C>(k, &reference[..cut], vals.len()).unwrap_err();
                assert_eq!(got, expected, "{} {} cut at {cut}", codec.name(), k.isa());
            }
        }
    }
    reference
}

/// All ISAs decode arbitrary bytes exactly as the scalar kernel does (values or error).
fn check_garbage<C: Codec>(codec: &C, bytes: &[u8], n: usize)
where
    C::Value: TestValue,
{
    let scalar = codec.kernels_for(Isa::Scalar).unwrap();
    let expected = decode_with::<C>(scalar, bytes, n);
    for k in all_kernels(codec) {
        assert_eq!(decode_with::<C>(k, bytes, n), expected, "{} {} n={n}", codec.name(), k.isa());
    }
}

const LENGTHS: [std::ops::RangeInclusive<usize>; 2] = [0..=70, 4090..=4100];

fn lengths_and_mixes<C: Codec>(codec: &C, max_bytes: u32)
where
    C::Value: TestValue,
{
    let mixes: Vec<Vec<u32>> = vec![
        (0..=max_bytes).collect(),
        vec![1],
        vec![0],
        vec![max_bytes],
        vec![0, max_bytes],
        vec![1, 2],
    ];
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    for range in LENGTHS {
        for n in range {
            for mix in &mixes {
                let v: Vec<C::Value> = values(&mut rng, n, mix);
                check_all(codec, &v, n <= 70);
            }
        }
    }
}

tests! { lengths_and_mixes:
    u32_classic_lengths => U32Classic, 4;
    u32_variant0124_lengths => U32Variant0124, 4;
    u64_coder1248_lengths => U64Coder1248, 8;
    u64_coder1234_lengths => U64Coder1234, 4;
    svb16_lengths => Svb16, 2;
}

/// Every byte pattern a code depends on, in every lane: each value is a byte (0, 1, 0x7F,
/// 0x80 or 0xFF) in each of its four places, alone or with every other, so that a control
/// computation that looks at the wrong byte, or at a byte's value rather than whether it is
/// zero, gives another code somewhere. Streams of 64 values run the encoders' block loops.
fn byte_patterns<C: Codec<Value = u32>>(codec: &C) {
    let mut patterns = Vec::new();
    for byte in [0u32, 1, 0x7F, 0x80, 0xFF] {
        for places in 0u32..16 {
            patterns.push((0..4).filter(|p| places >> p & 1 == 1).map(|p| byte << (8 * p)).sum());
        }
    }
    patterns.sort_unstable();
    patterns.dedup();
    let mut rng = Rng(0xA076_1D64_78BD_642F);
    for shift in 0..patterns.len() {
        let v: Vec<u32> = (0..64).map(|i| patterns[(i * 7 + shift) % patterns.len()]).collect();
        check_all(codec, &v, false);
        let v: Vec<u32> = (0..64).map(|_| patterns[rng.next() as usize % patterns.len()]).collect();
        check_all(codec, &v, false);
    }
}

tests! { byte_patterns:
    byte_patterns_u32_classic => U32Classic, ();
    byte_patterns_u32_variant0124 => U32Variant0124, ();
}

/// Four values whose 2-bit codes spell control byte `c` for a wire with code lengths `lens`.
fn group_for<T: TestValue>(rng: &mut Rng, c: u8, lens: [u32; 4]) -> [T; 4] {
    std::array::from_fn(|k| T::with_bytes(rng.next(), lens[(c >> (2 * k)) as usize & 3]))
}

fn every_control_byte<C: Codec>(codec: &C, lens: [u32; 4])
where
    C::Value: TestValue,
{
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    // Each control byte alone, then all 256 in one stream (forwards and backwards).
    let mut all = Vec::new();
    for c in 0..=255u8 {
        let g = group_for::<C::Value>(&mut rng, c, lens);
        let bytes = check_all(codec, &g, false);
        assert_eq!(bytes[0], c, "{} control byte", codec.name());
        all.extend_from_slice(&g);
    }
    let bytes = check_all(codec, &all, false);
    assert_eq!(bytes[..256], (0..=255u8).collect::<Vec<_>>()[..]);
    all.reverse();
    check_all(codec, &all, false);
}

tests! { every_control_byte:
    every_control_byte_u32_classic => U32Classic, [1, 2, 3, 4];
    every_control_byte_u32_variant0124 => U32Variant0124, [0, 1, 2, 4];
    every_control_byte_u64_coder1248 => U64Coder1248, [1, 2, 4, 8];
    every_control_byte_u64_coder1234 => U64Coder1234, [1, 2, 3, 4];
}

#[test]
fn every_key_byte_svb16() {
    let mut rng = Rng(0xD1B5_4A32_D192_ED03);
    let mut all = Vec::new();
    for key in 0..=255u8 {
        let g: Vec<u16> =
            (0..8).map(|k| u16::with_bytes(rng.next(), 1 + ((key >> k) & 1) as u32)).collect();
        let bytes = check_all(&Svb16, &g, false);
        assert_eq!(bytes[0], key);
        all.extend_from_slice(&g);
    }
    check_all(&Svb16, &all, false);
    all.reverse();
    check_all(&Svb16, &all, false);
}

#[test]
fn u64_coder1234_rejects_wide_values_on_every_isa() {
    let mut v = vec![5u64; 100];
    v[77] = 1 << 32;
    for k in all_kernels(&U64Coder1234) {
        let mut out = vec![0u8; U64Coder1234.max_encoded_len(v.len())];
        let err = k.encode_to_slice(&v, &mut out).unwrap_err();
        assert_eq!(
            err,
            svb_core::EncodeError::ValueTooLarge {
                index: 77,
                value: 1 << 32,
                max: u32::MAX as u64
            }
        );
    }
}

#[test]
fn small_output_is_an_error_not_a_panic() {
    for k in all_kernels(&U32Classic) {
        let mut out = vec![0u8; 10];
        assert!(k.encode_to_slice(&[1, 2, 3, 4, 5], &mut out).is_err());
    }
}

#[test]
fn garbage_is_decoded_alike_by_every_isa() {
    let mut rng = Rng(0xA076_1D64_78BD_642F);
    for _ in 0..400 {
        let len = (rng.next() % 700) as usize;
        let bytes: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
        for n in [0, 1, 3, 4, 5, 8, 31, 64, 100, 255, 256, 1000, 5000] {
            check_garbage(&U32Classic, &bytes, n);
            check_garbage(&U32Variant0124, &bytes, n);
            check_garbage(&U64Coder1248, &bytes, n);
            check_garbage(&U64Coder1234, &bytes, n);
            check_garbage(&Svb16, &bytes, n);
        }
    }
}

#[test]
fn vec_decoders_refuse_implausible_counts_before_allocating() {
    // 4 billion values from 10 bytes must fail on the length check, not on an allocation.
    let bytes = [0u8; 10];
    for n in [usize::MAX, 1 << 40, 4_000_000_000] {
        let refused = |e: Result<(), svb_core::DecodeError>| {
            assert!(matches!(e, Err(svb_core::DecodeError::ControlTruncated { .. })), "{n}");
        };
        refused(U32Classic.decode(&bytes, n).map(drop));
        refused(U32Variant0124.decode(&bytes, n).map(drop));
        refused(U64Coder1248.decode(&bytes, n).map(drop));
        refused(Svb16.decode(&bytes, n).map(drop));
    }
    // Enough control bytes but too little data for one byte per value.
    assert_eq!(
        U32Classic.decode(&[0u8; 10], 40),
        Err(svb_core::DecodeError::TooShortForCount { n: 40, min_len: 50, available: 10 })
    );
    assert_eq!(
        U32Classic.decode(&[0, 1, 2, 3, 4, 9], 4),
        Err(svb_core::DecodeError::TrailingBytes { consumed: 5, trailing: 1 })
    );
}

fn widths_strategy(max: u32) -> impl Strategy<Value = Vec<u32>> {
    prop::collection::vec(0..=max, 1..4)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn prop_u32_round_trip(seed in any::<u64>(), n in 0usize..3000, widths in widths_strategy(4)) {
        let mut rng = Rng(seed | 1);
        let v: Vec<u32> = values(&mut rng, n, &widths);
        check_all(&U32Classic, &v, false);
        check_all(&U32Variant0124, &v, false);
        let wide: Vec<u64> = v.iter().map(|&x| x as u64).collect();
        let b = check_all(&U64Coder1234, &wide, false);
        prop_assert_eq!(b, U32Classic.encode(&v));
    }

    #[test]
    fn prop_u64_round_trip(seed in any::<u64>(), n in 0usize..3000, widths in widths_strategy(8)) {
        let mut rng = Rng(seed | 1);
        let v: Vec<u64> = values(&mut rng, n, &widths);
        check_all(&U64Coder1248, &v, false);
    }

    #[test]
    fn prop_svb16_round_trip(v in prop::collection::vec(any::<u16>(), 0..3000)) {
        check_all(&Svb16, &v, false);
    }

    #[test]
    fn prop_any_bytes_decode_alike(bytes in prop::collection::vec(any::<u8>(), 0..600), n in 0usize..2000) {
        check_garbage(&U32Classic, &bytes, n);
        check_garbage(&U32Variant0124, &bytes, n);
        check_garbage(&U64Coder1248, &bytes, n);
        check_garbage(&U64Coder1234, &bytes, n);
        check_garbage(&Svb16, &bytes, n);
    }
}
