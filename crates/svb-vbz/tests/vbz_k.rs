//! VBZ2 and VBZ-K: headers as specified, round trips over every tail and many k, the
//! serial, parallel and batch decoders equal, and bad headers or bytes give typed errors.

use proptest::prelude::*;
use svb_vbz::{
    decode_vbz2, decode_vbz_batch, decode_vbzk, decode_vbzk_batch, decode_vbzk_parallel,
    encode_vbz, encode_vbz2, encode_vbzk, Chunk, Threads, VbzError,
};

fn signal(n: usize, seed: u64) -> Vec<i16> {
    let mut rng = svb_testdata::Rng(seed | 1);
    let mut v = 0i16;
    (0..n)
        .map(|i| {
            let x = rng.next();
            v = match i % 97 {
                // jumps that need two bytes, and wrap
                0 => (x >> 16) as i16,
                _ => v.wrapping_add((x % 61) as i16 - 30),
            };
            v
        })
        .collect()
}

/// svb16 data bytes of the first `m` samples of `samples`' VBZ stream.
fn data_bytes_before(samples: &[i16], m: usize) -> u32 {
    let mut prev = 0i16;
    samples[..m]
        .iter()
        .map(|&s| {
            let d = s.wrapping_sub(prev);
            prev = s;
            let z = ((d as u16) << 1) ^ ((d >> 15) as u16);
            1 + (z > 0xFF) as u32
        })
        .sum()
}

fn check(samples: &[i16], k: usize) {
    let n = samples.len();
    let vbz = encode_vbz(samples);

    let v2 = encode_vbz2(samples);
    let half = (n / 2) & !7;
    let carry = if half > 0 { samples[half - 1] } else { 0 };
    assert_eq!(v2[..2], carry.to_le_bytes(), "n={n}");
    assert_eq!(v2[2..6], data_bytes_before(samples, half).to_le_bytes());
    assert_eq!(v2[6..], vbz[..]);
    assert_eq!(decode_vbz2(&v2, n).unwrap(), samples, "vbz2 n={n}");

    let vk = encode_vbzk(samples, k);
    let sub = (n / k) & !7;
    let eff = if sub == 0 { 1 } else { k };
    assert_eq!(vk[0] as usize, eff);
    let header = 1 + 6 * (eff - 1);
    for i in 1..eff {
        let p = &vk[1 + 6 * (i - 1)..1 + 6 * i];
        assert_eq!(p[..2], samples[i * sub - 1].to_le_bytes());
        assert_eq!(p[2..], data_bytes_before(samples, i * sub).to_le_bytes());
    }
    assert_eq!(vk[header..], vbz[..]);
    assert_eq!(decode_vbzk(&vk, n).unwrap(), samples, "vbzk n={n} k={k}");
    assert_eq!(decode_vbzk_parallel(&vk, n).unwrap(), samples);
}

#[test]
fn round_trips_every_tail_and_k() {
    for n in (0..=70).chain(4090..=4100).chain([8192, 102_400]) {
        let s = signal(n, n as u64 + 3);
        for k in [1, 2, 3, 4, 5, 8, 12, 255] {
            check(&s, k);
        }
    }
}

#[test]
fn extremes() {
    for n in [16, 17, 64, 1000] {
        let alternating: Vec<i16> =
            (0..n).map(|i| if i % 2 == 0 { i16::MIN } else { i16::MAX }).collect();
        check(&alternating, 2);
        check(&alternating, 7);
        check(&vec![0; n], 4);
        check(&vec![-1; n], 3);
    }
}

#[test]
fn empty_streams() {
    assert_eq!(encode_vbz2(&[]), [0; 6]);
    assert_eq!(encode_vbzk(&[], 4), [1]);
    assert!(decode_vbz2(&[0; 6], 0).unwrap().is_empty());
    assert!(decode_vbzk(&[1], 0).unwrap().is_empty());
    assert!(matches!(decode_vbz2(&[], 0), Err(VbzError::HeaderTruncated { .. })));
    assert!(matches!(decode_vbzk(&[], 0), Err(VbzError::HeaderTruncated { .. })));
}

#[test]
fn bad_headers_are_typed_errors() {
    let s = signal(4096, 9);
    let vk = encode_vbzk(&s, 4);
    // k = 0, and k too large for n.
    let mut bad = vk.clone();
    bad[0] = 0;
    assert!(matches!(decode_vbzk(&bad, s.len()), Err(VbzError::BadSubStreamCount { k: 0, .. })));
    assert!(matches!(
        decode_vbzk(&encode_vbzk(&s[..40], 4), 40),
        Ok(v) if v == s[..40]
    ));
    let mut bad = encode_vbzk(&s[..40], 1);
    bad[0] = 9; // (40 / 9) & !7 == 0: an encoder never writes this
    assert!(matches!(decode_vbzk(&bad, 40), Err(VbzError::BadSubStreamCount { k: 9, .. })));
    // Offsets that run backwards, past the data, or off by one.
    for (at, value) in [(3 + 6, 0u32), (3, u32::MAX), (3, 1)] {
        let mut bad = vk.clone();
        let old = u32::from_le_bytes(bad[at..at + 4].try_into().unwrap());
        let new = if value == 1 { old + 1 } else { value };
        bad[at..at + 4].copy_from_slice(&new.to_le_bytes());
        let e = decode_vbzk(&bad, s.len()).unwrap_err();
        assert!(
            matches!(e, VbzError::BadSplitOffset { .. } | VbzError::SubStreamLength { .. }),
            "{e}"
        );
        assert_eq!(decode_vbzk_parallel(&bad, s.len()).unwrap_err().to_string(), e.to_string());
    }
    // Wrong n and trailing bytes.
    assert!(decode_vbzk(&vk, s.len() - 1).is_err());
    assert!(decode_vbzk(&vk, s.len() + 1).is_err());
    let mut long = vk.clone();
    long.push(0);
    assert!(matches!(decode_vbzk(&long, s.len()), Err(VbzError::LengthMismatch { .. })));
    let mut long2 = encode_vbz2(&s);
    long2.push(0);
    assert!(decode_vbz2(&long2, s.len()).is_err());
}

#[test]
fn truncation_at_every_offset_is_an_error() {
    let s = signal(300, 5);
    let v2 = encode_vbz2(&s);
    let vk = encode_vbzk(&s, 3);
    for cut in 0..v2.len() {
        assert!(decode_vbz2(&v2[..cut], s.len()).is_err(), "cut {cut}");
    }
    for cut in 0..vk.len() {
        assert!(decode_vbzk(&vk[..cut], s.len()).is_err(), "cut {cut}");
        assert!(decode_vbzk_parallel(&vk[..cut], s.len()).is_err());
    }
}

#[test]
fn a_lying_count_is_refused_before_allocating() {
    // Header claims nothing; n of 2^40 samples cannot fit in these bytes.
    let e = decode_vbzk(&[1, 0, 0], 1 << 40).unwrap_err();
    assert!(matches!(e, VbzError::Svb16(_)), "{e}");
    let e = decode_vbz2(&[0; 12], 1 << 40).unwrap_err();
    assert!(matches!(e, VbzError::Svb16(_)), "{e}");
}

/// The chunks of a batch: each encoded stream with its signal's sample count.
fn batch<'a>(enc: &'a [Vec<u8>], signals: &[Vec<i16>]) -> Vec<Chunk<'a>> {
    enc.iter().zip(signals).map(|(d, s)| Chunk { data: d, samples: s.len() }).collect()
}

#[test]
fn batches_equal_single_decodes() {
    let signals: Vec<Vec<i16>> = (0..64).map(|i| signal(8192 - 37 * i, i as u64)).collect();
    let expected: Vec<i16> = signals.concat();
    for k in [1, 2, 4] {
        let enc: Vec<Vec<u8>> = signals.iter().map(|s| encode_vbzk(s, k)).collect();
        let chunks = batch(&enc, &signals);
        let mut out = vec![0i16; expected.len()];
        decode_vbzk_batch(&chunks, &mut out, Threads::Current).unwrap();
        assert_eq!(out, expected, "k={k}");
        // Few chunks per worker: a task per sub-stream.
        let few = signals[..3].concat();
        let mut out = vec![0i16; few.len()];
        decode_vbzk_batch(&chunks[..3], &mut out, Threads::Current).unwrap();
        assert_eq!(out, few, "k={k}, 3 chunks");
    }
    let enc: Vec<Vec<u8>> = signals.iter().map(|s| encode_vbz(s)).collect();
    let chunks = batch(&enc, &signals);
    let pool = rayon::ThreadPoolBuilder::new().num_threads(3).build().unwrap();
    let mut out = vec![0i16; expected.len()];
    decode_vbz_batch(&chunks, &mut out, Threads::Pool(&pool)).unwrap();
    assert_eq!(out, expected);

    // Wrong output length, and a broken chunk named by its index.
    let mut short = vec![0i16; expected.len() - 1];
    assert!(matches!(
        decode_vbz_batch(&chunks, &mut short, Threads::Current),
        Err(VbzError::OutputLength { .. })
    ));
    let mut broken = chunks.clone();
    broken[17].data = &broken[17].data[..100];
    let e = decode_vbz_batch(&broken, &mut out, Threads::Current).unwrap_err();
    assert!(matches!(e, VbzError::Chunk { index: 17, .. }), "{e}");
}

#[test]
fn parallel_decode_runs_on_the_callers_pool() {
    let s = signal(50_000, 77);
    let v = encode_vbzk(&s, 4);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .thread_name(|i| format!("caller-pool-{i}"))
        .build()
        .unwrap();
    let mut out = Vec::new();
    pool.install(|| {
        assert!(rayon::current_thread_index().is_some());
        svb_vbz::decode_vbzk_parallel_into(&v, s.len(), &mut out)
    })
    .unwrap();
    assert_eq!(out, s);
}

proptest! {
    #[test]
    fn random_signals_round_trip(s in proptest::collection::vec(any::<i16>(), 0..3000), k in 1usize..20) {
        prop_assert_eq!(decode_vbz2(&encode_vbz2(&s), s.len()).unwrap(), s.clone());
        let vk = encode_vbzk(&s, k);
        prop_assert_eq!(decode_vbzk(&vk, s.len()).unwrap(), s.clone());
        prop_assert_eq!(decode_vbzk_parallel(&vk, s.len()).unwrap(), s);
    }

    #[test]
    fn arbitrary_bytes_never_panic(data in proptest::collection::vec(any::<u8>(), 0..200), n in 0usize..300) {
        let a = decode_vbzk(&data, n);
        let b = decode_vbzk_parallel(&data, n);
        prop_assert_eq!(a.is_ok(), b.is_ok());
        let _ = decode_vbz2(&data, n);
    }
}

#[test]
fn the_formats_md_example() {
    let s: Vec<i16> = (0..20).collect();
    let mut expected = vec![0x07, 0x00, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00];
    expected.extend([0x02; 19]);
    assert_eq!(encode_vbz2(&s), expected);
    // VBZ-K with k = 2 carries the same split point behind its k byte.
    let mut k2 = vec![0x02];
    k2.extend(&expected);
    assert_eq!(encode_vbzk(&s, 2), k2);
}

/// A case of the VBZ-K fuzz target: its sample count (the first two bytes, below 8192) and
/// its stream.
fn fuzz_case(hex: &str) -> (usize, Vec<u8>) {
    let data = svb_testdata::from_hex(hex);
    let n = u16::from_le_bytes([data[0], data[1]]) as usize % 8192;
    (n, data[2..].to_vec())
}

#[test]
fn parallel_errors_name_the_first_failing_sub_stream() {
    // Found by fuzzing: several sub-streams fail; both decoders must name the first.
    let hex = [
        "35000601590000000000000000000000000000000000000000000000003b0000",
        "0000000000000000000000ac0000000000000000000000600000fbffffffffff",
        "ffffffffffffffffffffff00000000000000000000003b000000800000000000",
        "000000000000000000000000000000000000fbffffffffffffffffffffffffff",
        "ffffffffffffffffffffffffffffffffffffff4bffffffff00000046ffffffff",
        "ffffffffffffffffffffffffff",
    ]
    .concat();
    let (n, data) = fuzz_case(&hex);
    let bytes = &data[..];
    let serial = decode_vbzk(bytes, n).unwrap_err().to_string();
    for _ in 0..50 {
        assert_eq!(decode_vbzk_parallel(bytes, n).unwrap_err().to_string(), serial);
    }
}

#[test]
fn a_carry_that_disagrees_with_the_samples_is_refused() {
    let s = signal(5000, 21);
    let mut v2 = encode_vbz2(&s);
    v2[0] ^= 1;
    assert!(matches!(decode_vbz2(&v2, s.len()), Err(VbzError::BadSplitCarry { index: 1, .. })));
    let mut vk = encode_vbzk(&s, 3);
    vk[1 + 6] ^= 0x40; // carry of split point 2
    for r in [decode_vbzk(&vk, s.len()), decode_vbzk_parallel(&vk, s.len())] {
        assert!(matches!(r, Err(VbzError::BadSplitCarry { index: 2, .. })), "{r:?}");
    }
    let mut out = vec![0i16; s.len()];
    let chunks = [Chunk { data: &vk, samples: s.len() }];
    assert!(matches!(
        decode_vbzk_batch(&chunks, &mut out, Threads::Current),
        Err(VbzError::Chunk { index: 0, .. })
    ));
}

/// In a batch decoded one task per chunk, a bad chunk is named, and of two the first.
#[test]
fn a_bad_chunk_in_a_large_vbzk_batch_is_named() {
    let signals: Vec<Vec<i16>> = (0..64).map(|i| signal(4000 + 13 * i, i as u64)).collect();
    let mut enc: Vec<Vec<u8>> = signals.iter().map(|s| encode_vbzk(s, 3)).collect();
    let total: usize = signals.iter().map(Vec::len).sum();
    let decode = |enc: &[Vec<u8>]| {
        let chunks = batch(enc, &signals);
        let mut out = vec![0i16; total];
        decode_vbzk_batch(&chunks, &mut out, Threads::Current)
    };
    enc[37][1 + 6] ^= 0x40; // carry of split point 2
    let e = decode(&enc).unwrap_err();
    assert!(
        matches!(&e, VbzError::Chunk { index: 37, source } if matches!(**source, VbzError::BadSplitCarry { index: 2, .. })),
        "{e:?}"
    );
    enc[10].pop();
    let e = decode(&enc).unwrap_err();
    assert!(matches!(e, VbzError::Chunk { index: 10, .. }), "{e:?}");
}

#[test]
fn split_points_past_truncated_data_are_refused() {
    // Found by fuzzing: offsets that agree with the keys, the data shorter than the keys say.
    let hex = [
        "e80303270040020000561178040000f6f78c7df8ffc167becfcf9fffb777fccf",
        "dbff1fbffff8dbce1effcfd9e7f3ff3ff3fd8d7ff7f7ff39ecfffde1c1839fdf",
        "e7e71fe3fb8ffbf08dff3ffbf86ffbbddfb6e3e1f76f7e0cfee771fe9effffff",
        "ff7dfeffbfcf9be70f737ffcfb7df08f7f1f7fdfff7fcf7cfcdfffd9f6d9613f",
        "be9ff3ffbbfd03ecfffcf76f3946379f361d110cc80ff6140350a84db5543e3e",
        "179e185318dc111d12141a2a17451707004c550a280a394c2bb30a85204a333f",
        "33540006654d249224241fe01a2b2a013dd82c6139c639392d1a228d09411aa4",
        "2e04480a131a9f3850231c48cf313d0109cff624d5237312ad22f007ed111c16",
        "a80223491b0a46af2ae30af60a1e4d71209c207e01122a091a53110f23d3184b",
        "1e9e0bb4287a226815cd345754b62583608e67f32c3819312fc7191623760c52",
        "1f97337214010d07500761272f7c2f3e12691214193fac256419224d6aea29c0",
        "0a332b8d0905060110dc0a3c0bb11c8a1c3709140db10ce7079807540135ae34",
        "0a9e02f23a853179336242f51af921e456e934de1cbf15fc301538d012d91202",
        "262b6d2c7449f31c39368e376d0144661c1f01591bce2b9f2fb22e310120462d",
        "2e011d14b511d86f2d49fc24d10a171a682b2320d61f30a20ba90b5c2d332d19",
        "377231401855751a7f16a41b2f1d0e40df228d380e73b50cbd2d16006c3df75b",
        "801e5a43961e931e26a22e992eb71e5037d1181b5c3d05473a5242bc2f8d3216",
        "739c198b59b80f7230d624ff247f26b026311f103d011e91318831cd20322104",
        "08e125c41d1c43693f943f587d02382548cb13bd01ee2545703c9d5b1e1f4e30",
        "57300c28b32755be067b0641281a1917223cff244a1c552b304c23324b0b32ae",
        "174b2c881421a534f24cb90b550c140ae827dd316b1c10ad0fb219db22ea39af",
        "02612e8a137d13220f0d0f862483241c37082cfd5822a5220de335c20c1837f4",
        "28bb360b02901eab0ad913aa2a3f02bb0a191ff628532782192d1d6234b73078",
        "25c331320c38372932450517196a1906aa017541be3f7807c107181bb81a8550",
        "f4351422e6561b153e451e66398d396b297a291c2acb13a813dc20d92091113d",
        "18a029520ce80303270040020000561178040000f6f78c7df8ffc167becfcf9f",
        "ffb777fccfdbff1fbffff8dbce1effcfd9e7f3ff3ff3fd8d7ff7f7ff39ecfffd",
        "e1c1839fdfe7e71fe3fb8ffbf08dff3ffbf86ffbbddfb6e3e1f76f7e0cfee771",
        "fe9effffffff7dfeffbf491b9b2dac2d525b1623910e5f22533ec13c983c570c",
        "440cc81b7922c80634c33dc03dca06bd0659289d12690434cf9be70f737ffcfb",
        "7df08f7f1f7fdfff7fcf7cfcdfffd9f6d9613fbe9ff3ffbbfd03ecfffcf76f39",
        "46379f361d110cc80ff6140350a84db5543e3e179e185318dc111d12141a2a17",
        "451707004c550a280a394c2bb30a85204a333f335400ffffffffffffffffffff",
        "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
        "ffffffffffffffffffffffffffffffffffffffffffffffff06654d249224241f",
        "e01a2b2a013dd82c6139c639392d1a228d09411aa42e04480a131a9f3850231c",
        "48cf313d0109cff624d523731217561e9c1cad22ed07f0111c16a80223491b0a",
        "462f3b4baf2ae30a",
    ]
    .concat();
    let (n, data) = fuzz_case(&hex);
    assert!(decode_vbzk(&data, n).is_err());
    assert!(decode_vbzk_parallel(&data, n).is_err());
}
