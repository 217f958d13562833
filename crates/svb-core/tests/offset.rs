//! The offset decoders (`decode_offset_to_slice`: each value plus a base, in the unpack's
//! pass) of both plain u32 wires: every ISA against the plain decode followed by the addition,
//! at every length 0..=70 and around 4096, every slack after the stream, bases that wrap;
//! truncated and random bytes give every ISA the plain decoder's error.

use svb_core::{Codec, Isa, OffsetKernels, U32Classic, U32Variant0124};
use svb_testdata::Rng;

/// The offset decoders this CPU runs, of `for_isa`'s codec.
fn all(for_isa: impl Fn(Isa) -> Option<&'static OffsetKernels>) -> Vec<&'static OffsetKernels> {
    let ks: Vec<_> =
        [Isa::Scalar, Isa::Ssse3, Isa::Avx2, Isa::Neon].into_iter().filter_map(for_isa).collect();
    assert!(ks.len() >= 2 || cfg!(not(any(target_arch = "x86_64", target_arch = "aarch64"))));
    ks
}

/// `n` values of 0 to 4 significant bytes.
fn values(rng: &mut Rng, n: usize) -> Vec<u32> {
    (0..n)
        .map(|_| {
            let w = rng.next() as u32;
            match rng.next() % 5 {
                0 => 0,
                b => w >> (32 - 8 * b),
            }
        })
        .collect()
}

fn check<C: Codec<Value = u32>>(
    codec: &C, kernels: &[&OffsetKernels],
    offset: impl Fn(&[u8], u32, &mut [u32]) -> Result<usize, svb_core::DecodeError>, seed: u64,
) {
    let mut rng = Rng(seed);
    let lengths = (0..=70).chain(4090..=4100);
    for n in lengths {
        let vals = values(&mut rng, n);
        let bytes = codec.encode(&vals);
        for base in [0, 1, 7, 0x8000_0000, u32::MAX] {
            let want: Vec<u32> = vals.iter().map(|v| v.wrapping_add(base)).collect();
            for slack in [0, 1, 15, 16, 40] {
                let mut input = bytes.clone();
                input.extend((0..slack).map(|i| i as u8 ^ 0xA5));
                for k in kernels {
                    let mut out = vec![0xDEAD_BEEF; n];
                    let used = k.decode_to_slice(&input, base, &mut out);
                    assert_eq!(used, Ok(bytes.len()), "{:?} n={n} slack={slack}", k.isa());
                    assert_eq!(out, want, "{:?} n={n} base={base} slack={slack}", k.isa());
                }
                let mut out = vec![0; n];
                assert_eq!(offset(&input, base, &mut out), Ok(bytes.len()));
                assert_eq!(out, want);
            }
            // Every truncation: the plain decoder's error, from every ISA.
            if n <= 70 {
                for cut in 0..bytes.len() {
                    let mut plain = vec![0; n];
                    let expected = codec.decode_to_slice(&bytes[..cut], &mut plain);
                    assert!(expected.is_err(), "n={n} cut={cut}");
                    for k in kernels {
                        let mut out = vec![0; n];
                        assert_eq!(
                            k.decode_to_slice(&bytes[..cut], base, &mut out).map(|_| ()),
                            expected.clone().map(|_| ()),
                            "{:?} n={n} cut={cut}",
                            k.isa()
                        );
                    }
                }
            }
        }
    }
    // Random bytes: the same answer (consumed length or error) and values as the plain
    // decode plus the base.
    for _ in 0..2000 {
        let len = (rng.next() % 200) as usize;
        let bytes: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
        let n = (rng.next() % 300) as usize;
        let base = rng.next() as u32;
        let mut plain = vec![0; n];
        let expected = codec.decode_to_slice(&bytes, &mut plain);
        for k in kernels {
            let mut out = vec![0; n];
            let got = k.decode_to_slice(&bytes, base, &mut out);
            assert_eq!(got, expected, "{:?} garbage len={len} n={n}", k.isa());
            if got.is_ok() {
                let want: Vec<u32> = plain.iter().map(|v| v.wrapping_add(base)).collect();
                assert_eq!(out, want, "{:?}", k.isa());
            }
        }
    }
}

#[test]
fn classic_offset_decode_is_decode_plus_base_on_every_isa() {
    let ks = all(|isa| U32Classic.offset_kernels_for(isa));
    check(&U32Classic, &ks, |i, b, o| U32Classic.decode_offset_to_slice(i, b, o), 1);
}

#[test]
fn variant0124_offset_decode_is_decode_plus_base_on_every_isa() {
    let ks = all(|isa| U32Variant0124.offset_kernels_for(isa));
    check(&U32Variant0124, &ks, |i, b, o| U32Variant0124.decode_offset_to_slice(i, b, o), 2);
}
