//! SVB-ZD and ex-zd on their own: round trips over every tail and value shape, the 3-pass
//! and fused decoders equal, hand-checked bytes, and bad blobs giving typed errors.

use proptest::prelude::*;
use svb_slow5_signal::{
    decode_exzd, decode_exzd_fused, decode_svbzd, decode_svbzd_fused, decode_svbzd_fused_from,
    encode_exzd, encode_svbzd, svbzd, ExZdDecoder, SignalError,
};

fn signal(n: usize, seed: u64, spread: u64) -> Vec<i16> {
    let mut rng = svb_testdata::Rng(seed | 1);
    let mut v = 400i16;
    (0..n)
        .map(|_| {
            let x = rng.next();
            v = v.wrapping_add(((x % (2 * spread + 1)) as i64 - spread as i64) as i16);
            v
        })
        .collect()
}

fn shapes(n: usize) -> Vec<Vec<i16>> {
    vec![
        signal(n, n as u64 + 1, 20),
        signal(n, n as u64 + 2, 300),   // many ex-zd exceptions
        signal(n, n as u64 + 3, 40000), // deltas past 16 bits
        signal(n, n as u64 + 4, 20).iter().map(|s| s & !7).collect(), // q = 3
        (0..n).map(|i| if i % 2 == 0 { i16::MIN } else { i16::MAX }).collect(),
        vec![0; n],
        vec![-32 * 7; n],
    ]
}

#[test]
fn every_tail_and_shape_round_trips() {
    for n in (0..=70).chain([4095, 4096, 4097, 100_000]) {
        for s in shapes(n) {
            let v = encode_svbzd(&s);
            assert_eq!(decode_svbzd(&v, n).unwrap(), s, "svbzd n={n}");
            assert_eq!(decode_svbzd_fused(&v, n).unwrap(), s);
            let blob = svbzd::encode_blob(&s);
            assert_eq!(blob[..4], (n as u32).to_le_bytes());
            assert_eq!(svbzd::decode_blob(&blob).unwrap(), s);

            let e = encode_exzd(&s);
            assert_eq!(decode_exzd(&e).unwrap(), s, "exzd n={n}");
            assert_eq!(decode_exzd_fused(&e).unwrap(), s);
        }
    }
}

#[test]
fn svbzd_from_a_carry_continues_a_signal() {
    let s = signal(5000, 9, 50);
    let (a, b) = s.split_at(2000);
    // Deltas of b taken from a's last sample.
    let z = svb_testdata::zigzag_deltas(a[a.len() - 1], b);
    let vb = svb_core::Codec::encode(&svb_core::U32Classic, &z);
    assert_eq!(decode_svbzd_fused_from(&vb, b.len(), a[a.len() - 1]).unwrap(), b);
}

#[test]
fn hand_checked_bytes() {
    // SVB-ZD of 10, 11, 9: deltas 10, 1, -2 -> zigzag 20, 2, 3, one key byte of 1-byte codes.
    assert_eq!(encode_svbzd(&[10, 11, 9]), [0x00, 20, 2, 3]);
    // A 40000 step stays exact: zigzag 39999 takes 2 bytes (code 1), 80000 takes 3 (code 2).
    assert_eq!(encode_svbzd(&[-20000, 20000]), [0b10_01, 0x3f, 0x9c, 0x80, 0x38, 0x01]);
    // ex-zd of 16, 32, 48, 1040: q = 4 -> 1, 2, 3, 65 -> zd 2, 2, 2, 124; no exception.
    let e = encode_exzd(&[16, 32, 48, 1040]);
    let mut want = vec![0u8];
    want.extend(4u64.to_le_bytes());
    want.extend([4, 2, 0, 0, 0, 0, 0, 2, 2, 124]);
    assert_eq!(e, want);
    // One exception: 0, 200 -> zd 0, 400 -> position 0, value 144.
    let e = encode_exzd(&[0, 200]);
    assert_eq!(e[9], 3); // 200 = 8 * 25: q = 3, so 0, 25 -> zd 0, 50: no exception
    let e = encode_exzd(&[1, 201]);
    let mut want = vec![0u8];
    want.extend(2u64.to_le_bytes());
    want.extend([0, 2, 0]); // q 0, zd[0] = 2
    want.extend(1u32.to_le_bytes()); // one exception
    want.extend(0u32.to_le_bytes()); // at position 0
    want.extend(144u32.to_le_bytes()); // 400 - 256
    assert_eq!(e, want);
}

#[test]
fn high_entropy_signal_encodes() {
    // slow5lib's encoder aborts on this (its buffer is 2n + 1024 bytes); ours grows.
    let s = signal(50_000, 77, 30_000);
    let e = encode_exzd(&s);
    assert!(e.len() > 2 * s.len() + 1024);
    assert_eq!(decode_exzd(&e).unwrap(), s);
}

#[test]
fn bad_blobs_give_typed_errors() {
    let s = signal(3000, 5, 300);
    let blob = svbzd::encode_blob(&s);
    for cut in 0..blob.len() {
        assert!(svbzd::decode_blob(&blob[..cut]).is_err(), "svbzd cut {cut}");
    }
    let mut lying = blob.clone();
    lying[..4].copy_from_slice(&u32::MAX.to_le_bytes());
    assert!(matches!(svbzd::decode_blob(&lying), Err(SignalError::CountTooLarge { .. })));
    let mut long = blob.clone();
    long.push(0);
    assert!(matches!(svbzd::decode_blob(&long), Err(SignalError::LengthMismatch { .. })));

    let e = encode_exzd(&s);
    let mut dec = ExZdDecoder::new();
    for cut in 0..e.len() {
        let mut out = Vec::new();
        assert!(dec.decode_fused_into(&e[..cut], &mut out).is_err(), "exzd cut {cut}");
        assert!(decode_exzd(&e[..cut]).is_err());
    }
    let mut bad = e.clone();
    bad[1..9].copy_from_slice(&u64::MAX.to_le_bytes());
    assert!(matches!(decode_exzd(&bad), Err(SignalError::CountTooLarge { .. })));
    let mut bad = e.clone();
    bad[0] = 1;
    assert!(matches!(decode_exzd(&bad), Err(SignalError::UnknownVersion(1))));
    let mut bad = e.clone();
    bad[9] = 6;
    assert!(matches!(decode_exzd(&bad), Err(SignalError::BadShift(6))));
    let mut long = e.clone();
    long.push(0);
    assert!(matches!(decode_exzd(&long), Err(SignalError::CountMismatch { .. })));
    // A single exception placed past the signal.
    let mut one = encode_exzd(&[1, 201, 200]);
    one[16..20].copy_from_slice(&7u32.to_le_bytes());
    assert!(matches!(decode_exzd(&one), Err(SignalError::BadException { .. })));
}

proptest! {
    #[test]
    fn random_signals_round_trip(s in proptest::collection::vec(any::<i16>(), 0..2000), shift in 0u32..6) {
        let s: Vec<i16> = s.iter().map(|v| v.wrapping_shl(shift)).collect();
        prop_assert_eq!(decode_svbzd_fused(&encode_svbzd(&s), s.len()).unwrap(), s.clone());
        let e = encode_exzd(&s);
        prop_assert_eq!(decode_exzd(&e).unwrap(), s.clone());
        prop_assert_eq!(decode_exzd_fused(&e).unwrap(), s);
    }

    #[test]
    fn arbitrary_bytes_never_panic(data in proptest::collection::vec(any::<u8>(), 0..400), n in 0usize..500) {
        let a = decode_exzd(&data);
        let b = decode_exzd_fused(&data);
        prop_assert_eq!(a, b);
        let c = decode_svbzd(&data, n);
        let d = decode_svbzd_fused(&data, n);
        prop_assert_eq!(c.is_ok(), d.is_ok());
        if let (Ok(c), Ok(d)) = (c, d) { prop_assert_eq!(c, d); }
        let _ = svbzd::decode_blob(&data);
    }
}

fn isas() -> Vec<svb_dispatch::Isa> {
    let v: Vec<_> = svb_dispatch::Isa::available().collect();
    #[cfg(target_arch = "aarch64")]
    assert!(v.contains(&svb_dispatch::Isa::Neon));
    v
}

#[test]
fn every_isa_equals_scalar() {
    use svb_dispatch::Isa;
    for n in (0..=70).chain(4090..=4100) {
        for (k, s) in shapes(n).into_iter().enumerate() {
            let v = encode_svbzd(&s);
            for initial in [0i16, -7] {
                let expected =
                    svb_slow5_signal::decode_svbzd_fused_with(Isa::Scalar, &v, n, initial)
                        .unwrap()
                        .unwrap();
                if initial == 0 {
                    assert_eq!(expected, (s.clone(), v.len()));
                }
                for isa in isas() {
                    let got =
                        svb_slow5_signal::decode_svbzd_fused_with(isa, &v, n, initial).unwrap();
                    assert_eq!(got.unwrap(), expected, "{isa} n={n} shape {k}");
                }
            }
            if n == 67 || n == 4093 {
                let step = if n == 67 { 1 } else { 31 };
                for cut in (0..v.len()).step_by(step) {
                    let expected =
                        svb_slow5_signal::decode_svbzd_fused_with(Isa::Scalar, &v[..cut], n, 0)
                            .unwrap();
                    assert!(expected.is_err());
                    for isa in isas() {
                        let got = svb_slow5_signal::decode_svbzd_fused_with(isa, &v[..cut], n, 0)
                            .unwrap();
                        assert_eq!(got, expected, "{isa} cut {cut}");
                    }
                }
            }
        }
    }
}

proptest! {
    #[test]
    fn garbage_decodes_alike_on_every_isa(data in proptest::collection::vec(any::<u8>(), 0..600), n in 0usize..400) {
        let expected = svb_slow5_signal::decode_svbzd_fused_with(svb_dispatch::Isa::Scalar, &data, n, 3).unwrap();
        for isa in isas() {
            prop_assert_eq!(svb_slow5_signal::decode_svbzd_fused_with(isa, &data, n, 3).unwrap(), expected.clone());
        }
    }
}

#[test]
fn exzd_every_isa_equals_scalar() {
    use svb_dispatch::Isa;
    for n in (0..=70).chain(4090..=4100) {
        for (k, s) in shapes(n).into_iter().enumerate() {
            let e = encode_exzd(&s);
            let expected = svb_slow5_signal::decode_exzd_fused_with(Isa::Scalar, &e).unwrap();
            assert_eq!(expected.as_ref().unwrap(), &s);
            for isa in isas() {
                assert_eq!(
                    svb_slow5_signal::decode_exzd_fused_with(isa, &e).unwrap(),
                    expected,
                    "{isa} n={n} shape {k}"
                );
            }
        }
    }
}

proptest! {
    #[test]
    fn exzd_garbage_decodes_alike_on_every_isa(data in proptest::collection::vec(any::<u8>(), 0..600)) {
        let expected = svb_slow5_signal::decode_exzd_fused_with(svb_dispatch::Isa::Scalar, &data).unwrap();
        for isa in isas() {
            prop_assert_eq!(svb_slow5_signal::decode_exzd_fused_with(isa, &data).unwrap(), expected.clone());
        }
    }
}
