//! `Decoder::decode_block::<N>` on every ISA against the scalar kernel of the same codec:
//! block sizes around the 8-group block and 128, random and adversarial values, the stream
//! alone and followed by slack, truncated at every offset, and random bytes.

use proptest::prelude::*;
use svb_core::{
    BlockCodec, Codec, DecodeError, Decoder, Isa, U32Classic, U32Delta, U32Variant0124,
};
use svb_testdata::Rng;

/// Values of random byte widths (0 to 4 significant bytes, biased to the shortest).
fn values(rng: &mut Rng, n: usize) -> Vec<u32> {
    (0..n)
        .map(|_| {
            let w = rng.next();
            match w % 7 {
                0 => 0,
                1 | 2 => (w >> 8) as u32 & 0xFF,
                3 => (w >> 8) as u32 & 0xFFFF,
                4 => (w >> 8) as u32 & 0xFF_FFFF,
                _ => (w >> 8) as u32,
            }
        })
        .collect()
}

/// Every decoder of `codec` this CPU runs.
fn decoders<C: BlockCodec>(codec: C) -> Vec<Decoder<C>> {
    Isa::available().filter_map(|isa| Decoder::with_isa(codec, isa)).collect()
}

/// The reference: the scalar kernel's result for `N` values of `input` (from `prev` for the
/// delta wire).
type Reference<'a> = &'a dyn Fn(&[u8], &mut [u32]) -> Result<usize, DecodeError>;

/// A decoder's block decode of `N` values.
type Run<'a, C, const N: usize> =
    &'a dyn Fn(&Decoder<C>, &[u8], &mut [u32; N]) -> Result<usize, DecodeError>;

/// Every decoder's `decode_block::<N>` (or `decode_block_from` for the delta wire) equals
/// the reference on `input`, values and errors alike.
fn check_input<C: BlockCodec, const N: usize>(
    decoders: &[Decoder<C>], input: &[u8], reference: Reference, run: Run<C, N>,
) {
    let mut want = [0u32; N];
    let expected = reference(input, &mut want);
    for d in decoders {
        let mut got = [0u32; N];
        let result = run(d, input, &mut got);
        assert_eq!(result, expected, "{} N={N} input {} bytes", d.isa(), input.len());
        if expected.is_ok() {
            assert_eq!(got, want, "{} N={N}", d.isa());
        }
    }
}

/// Streams of `N` values, exact, with slack and truncated at every offset, on every ISA;
/// with `round_trip`, the reference also gives back the values encoded (not so for a
/// reference that adds a base or refuses lists that do not increase).
fn check_codec<C: BlockCodec, const N: usize>(
    codec: C, encode: &dyn Fn(&[u32]) -> Vec<u8>, reference: Reference, run: Run<C, N>,
    round_trip: bool,
) {
    let decoders = decoders(codec);
    assert!(decoders.iter().any(|d| d.isa() == Isa::best()));
    let mut rng = Rng(N as u64 + 7);
    for round in 0..8 {
        let values = match round {
            0 => vec![0; N],
            1 => vec![u32::MAX; N],
            2 => (0..N as u32).collect(),
            _ => values(&mut rng, N),
        };
        let bytes = encode(&values);
        for cut in 0..=bytes.len() {
            check_input(&decoders, &bytes[..cut], reference, run);
        }
        for slack in [1, 15, 16, 17, 40] {
            let mut padded = bytes.clone();
            padded.extend((0..slack).map(|_| rng.next() as u8));
            check_input(&decoders, &padded, reference, run);
        }
        if round_trip {
            let mut out = [0u32; N];
            assert_eq!(reference(&bytes, &mut out), Ok(bytes.len()));
            assert_eq!(&out[..], &values[..]);
        }
    }
}

macro_rules! plain_tests {
    ($($name:ident => $codec:expr, [$($n:literal),*];)*) => {
        $(
            #[test]
            fn $name() {
                let scalar = $codec.kernels_for(Isa::Scalar).unwrap();
                let reference = |input: &[u8], out: &mut [u32]| scalar.decode_to_slice(input, out);
                $(
                    check_codec::<_, $n>(
                        $codec,
                        &|v| $codec.encode(v),
                        &reference,
                        &|d, input, out| d.decode_block(input, out),
                        true,
                    );
                )*
            }
        )*
    };
}

plain_tests! {
    classic_blocks_match_scalar => U32Classic, [1, 3, 4, 5, 31, 32, 33, 64, 100, 127, 128, 129, 256];
    variant0124_blocks_match_scalar => U32Variant0124, [1, 3, 4, 5, 31, 32, 33, 64, 100, 127, 128, 129, 256];
}

#[test]
fn delta_blocks_match_scalar() {
    const PREV: u32 = 0xDEAD_BEEF;
    let scalar = U32Delta.kernels_for(Isa::Scalar).unwrap();
    let reference = |input: &[u8], out: &mut [u32]| scalar.decode_to_slice(input, PREV, out);
    let encode = |v: &[u32]| U32Delta.encode(PREV, v);
    macro_rules! sizes {
        ($($n:literal),*) => {$(
            check_codec::<_, $n>(U32Delta, &encode, &reference, &|d, input, out| {
                d.decode_block_from(input, PREV, out)
            }, true);
        )*};
    }
    sizes!(1, 4, 5, 32, 33, 127, 128, 129, 256);
    // `decode_block` is the sums from 0.
    let docs: Vec<u32> = (0..128).map(|i| i * 3 + 1).collect();
    let mut out = [0u32; 128];
    let bytes = U32Delta.encode(0, &docs);
    Decoder::new(U32Delta).decode_block(&bytes, &mut out).unwrap();
    assert_eq!(&out[..], &docs[..]);
}

/// Every control byte in every position of a 128-value block (the stream alone, so the
/// last groups take the end path).
#[test]
fn every_control_byte_in_every_place() {
    let decoders = decoders(U32Classic);
    let scalar = U32Classic.kernels_for(Isa::Scalar).unwrap();
    let mut rng = Rng(3);
    let base = values(&mut rng, 128);
    for c in 0..=255u8 {
        for group in [0, 7, 8, 23, 24, 30, 31] {
            let mut v = base.clone();
            for k in 0..4 {
                let len = ((c >> (2 * k)) & 3) as u32 + 1;
                let word = rng.next() as u32 | 1 << (8 * len - 1);
                v[4 * group + k] = if len == 4 { word } else { word & ((1 << (8 * len)) - 1) };
            }
            let bytes = U32Classic.encode(&v);
            assert_eq!(bytes[group], c);
            check_input::<_, 128>(
                &decoders,
                &bytes,
                &|input, out| scalar.decode_to_slice(input, out),
                &|d, input, out| d.decode_block(input, out),
            );
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Any bytes decode alike on every ISA (values or the same error).
    #[test]
    fn any_bytes_decode_alike(bytes in prop::collection::vec(any::<u8>(), 0..700)) {
        let scalar = U32Variant0124.kernels_for(Isa::Scalar).unwrap();
        check_input::<_, 128>(
            &decoders(U32Variant0124),
            &bytes,
            &|input, out| scalar.decode_to_slice(input, out),
            &|d, input, out| d.decode_block(input, out),
        );
        let scalar = U32Classic.kernels_for(Isa::Scalar).unwrap();
        check_input::<_, 33>(
            &decoders(U32Classic),
            &bytes,
            &|input, out| scalar.decode_to_slice(input, out),
            &|d, input, out| d.decode_block(input, out),
        );
    }
}

/// `decode_block_offset` against the scalar offset kernel: a base of 1 (counts stored minus
/// one) and one that wraps.
#[test]
fn offset_blocks_match_scalar() {
    for base in [1u32, 0xFFFF_FFF0] {
        macro_rules! codec {
            ($codec:expr, $($n:literal),*) => {{
                let scalar = $codec.offset_kernels_for(Isa::Scalar).unwrap();
                let reference =
                    |input: &[u8], out: &mut [u32]| scalar.decode_to_slice(input, base, out);
                $(
                    check_codec::<_, $n>(
                        $codec,
                        &|v| $codec.encode(v),
                        &reference,
                        &|d, input, out| d.decode_block_offset(input, base, out),
                        false,
                    );
                )*
            }};
        }
        codec!(U32Variant0124, 1, 5, 32, 33, 127, 128, 129);
        codec!(U32Classic, 1, 5, 32, 33, 127, 128, 129);
    }
}

/// `decode_increasing_block_from` against the slice decoder's increasing check on the
/// scalar kernel: lists that increase (gaps of every width, from a `prev` and from none),
/// lists with a repeat or a step back at every place, gaps of 3 bytes that wrap past
/// `u32::MAX` within 256 values (no delta zero, none of 4 bytes), and the streams of
/// `check_codec` (values, truncations, slack).
#[test]
fn increasing_blocks_match_scalar() {
    const PREV: u32 = 1000;
    let scalar = U32Delta.kernels_for(Isa::Scalar).unwrap();
    for prev in [Some(PREV), None] {
        let reference =
            |input: &[u8], out: &mut [u32]| scalar.decode_increasing_to_slice(input, prev, out);
        let run = |d: &Decoder<U32Delta>, input: &[u8], out: &mut [u32; 128]| {
            d.decode_increasing_block_from(input, prev, out)
        };
        let from = prev.unwrap_or(0);
        check_codec::<_, 128>(U32Delta, &|v| U32Delta.encode(from, v), &reference, &run, false);
        let decoders = decoders(U32Delta);
        let mut rng = Rng(11);
        for width in [1u32, 2, 3, 4] {
            let mut docs = Vec::with_capacity(128);
            let mut d = from;
            for _ in 0..128 {
                // Width 4: gaps of 4 bytes whose 128 sums stay below 2^32.
                d += match width {
                    4 => (1 << 24) + (rng.next() as u32 & 0x7F_FFFF),
                    w => 1 + (rng.next() as u32 & ((1 << (7 * w)) - 1)),
                };
                docs.push(d);
            }
            let bytes = U32Delta.encode(from, &docs);
            check_input::<_, 128>(&decoders, &bytes, &reference, &run);
            let mut out = [0u32; 128];
            assert_eq!(run(&decoders[0], &bytes, &mut out), Ok(bytes.len()));
            for at in 0..128 {
                for bad in [docs[at.max(1) - 1], docs[at] - 1] {
                    let mut v = docs.clone();
                    v[at] = if at == 0 { from } else { bad };
                    let bytes = U32Delta.encode(from, &v);
                    check_input::<_, 128>(&decoders, &bytes, &reference, &run);
                }
            }
        }
    }
    // 3-byte gaps that wrap: each delta nonzero and under 2^24, the list not increasing.
    let reference =
        |input: &[u8], out: &mut [u32]| scalar.decode_increasing_to_slice(input, Some(PREV), out);
    let docs: Vec<u32> =
        (1..=256u32).map(|i| PREV.wrapping_add(i.wrapping_mul(0xFF_FFFF))).collect();
    let bytes = U32Delta.encode(PREV, &docs);
    let mut out = [0u32; 256];
    assert!(matches!(reference(&bytes, &mut out), Err(DecodeError::NotIncreasing { .. })));
    check_input::<_, 256>(&decoders(U32Delta), &bytes, &reference, &|d, input, out| {
        d.decode_increasing_block_from(input, Some(PREV), out)
    });
}
