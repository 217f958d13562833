//! The fused decoder of every ISA against the 3-pass decoder (and the input): random and
//! adversarial signals, every length 0..=70 and 4090..=4100, truncation at every offset,
//! arbitrary bytes.

use proptest::prelude::*;
use svb_dispatch::Isa;
use svb_vbz::{decode_vbz, decode_vbz_fused_with, encode_vbz};

fn isas() -> Vec<Isa> {
    let v: Vec<Isa> = Isa::available().collect();
    #[cfg(target_arch = "aarch64")]
    assert!(v.contains(&Isa::Neon));
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") {
        assert!(v.contains(&Isa::Avx2));
    }
    v
}

fn check(samples: &[i16], initial: i16, truncations: bool) {
    let mut prev = initial;
    let codes: Vec<u16> = samples
        .iter()
        .map(|&s| {
            let d = s.wrapping_sub(prev);
            prev = s;
            ((d as u16) << 1) ^ ((d >> 15) as u16)
        })
        .collect();
    let stream = svb_core::Codec::encode(&svb_core::Svb16, &codes);
    if initial == 0 {
        assert_eq!(stream, encode_vbz(samples));
        assert_eq!(decode_vbz(&stream, samples.len()).unwrap(), samples);
    }
    for isa in isas() {
        let (got, used) =
            decode_vbz_fused_with(isa, &stream, samples.len(), initial).unwrap().unwrap();
        assert_eq!((got.as_slice(), used), (samples, stream.len()), "{isa} n={}", samples.len());
    }
    if truncations {
        for cut in 0..stream.len() {
            let expected =
                decode_vbz_fused_with(Isa::Scalar, &stream[..cut], samples.len(), initial).unwrap();
            assert!(expected.is_err());
            for isa in isas() {
                assert_eq!(
                    decode_vbz_fused_with(isa, &stream[..cut], samples.len(), initial).unwrap(),
                    expected,
                    "{isa} cut {cut}"
                );
            }
        }
    }
}

use svb_testdata::Rng;

#[test]
fn every_length_and_shape() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for n in (0..=70).chain(4090..=4100) {
        let walk: Vec<i16> = (0..n).map(|_| (rng.next() % 60) as i16 + 400).collect();
        check(&walk, 0, n <= 70);
        let wild: Vec<i16> = (0..n).map(|_| rng.next() as i16).collect();
        check(&wild, rng.next() as i16, n <= 70);
        let extremes: Vec<i16> =
            (0..n).map(|i| if i % 2 == 0 { i16::MAX } else { i16::MIN }).collect();
        check(&extremes, 0, false);
        check(&vec![0; n], 0, false);
    }
}

#[test]
fn garbage_decodes_alike_on_every_isa() {
    let mut rng = Rng(0xA076_1D64_78BD_642F);
    for _ in 0..300 {
        let bytes: Vec<u8> = (0..rng.next() % 600).map(|_| rng.next() as u8).collect();
        for n in [0, 1, 7, 8, 9, 64, 100, 255, 500, 2000] {
            let expected = decode_vbz_fused_with(Isa::Scalar, &bytes, n, 3).unwrap();
            for isa in isas() {
                assert_eq!(
                    decode_vbz_fused_with(isa, &bytes, n, 3).unwrap(),
                    expected,
                    "{isa} n={n}"
                );
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]
    #[test]
    fn prop_round_trip(v in prop::collection::vec(any::<i16>(), 0..3000), init in any::<i16>()) {
        check(&v, init, false);
    }
}
