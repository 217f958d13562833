//! Every ISA's delta decode against a scalar reference; multi-chain decode against
//! single-chain for every split; zigzag and delta round trips at the extremes.

use proptest::prelude::*;
use svb_delta::delta::{self, Delta};
use svb_delta::{zigzag, Isa};

fn all_kernels() -> Vec<&'static delta::Kernels> {
    let ks: Vec<_> = Isa::available().filter_map(delta::kernels_for).collect();
    svb_testdata::assert_simd_ran(ks.iter().map(|k| k.isa()));
    ks
}

/// The obvious loop.
fn reference<T: Delta>(initial: T, deltas: &[T]) -> Vec<T> {
    let mut acc = initial;
    deltas
        .iter()
        .map(|&d| {
            acc = acc.wrapping_add(d);
            acc
        })
        .collect()
}

use svb_testdata::Rng;

fn check_decode<T: Delta + PartialEq + std::fmt::Debug>(initial: T, deltas: &[T]) {
    let expected = reference(initial, deltas);
    let last = expected.last().copied().unwrap_or(initial);
    for k in all_kernels() {
        let mut out = vec![T::default(); deltas.len()];
        assert_eq!(
            k.decode_to_slice(initial, deltas, &mut out),
            last,
            "{} n={}",
            k.isa(),
            deltas.len()
        );
        assert_eq!(out, expected, "{} n={}", k.isa(), deltas.len());
        let mut inplace = deltas.to_vec();
        assert_eq!(k.decode_in_place(initial, &mut inplace), last);
        assert_eq!(inplace, expected, "{} in place n={}", k.isa(), deltas.len());
        let mut appended = vec![T::default(); 3];
        k.decode_into(initial, deltas, &mut appended);
        assert_eq!(&appended[3..], &expected[..]);
    }
}

macro_rules! lengths_test {
    ($name:ident, $t:ty, $lengths:expr) => {
        #[test]
        fn $name() {
            let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
            for n in $lengths {
                let d: Vec<$t> = (0..n).map(|_| rng.next() as $t).collect();
                check_decode(rng.next() as $t, &d);
                // Extremes: every delta the largest or smallest value, wrapping constantly.
                check_decode(<$t>::MAX, &vec![<$t>::MAX; n]);
                check_decode(<$t>::MIN, &vec![<$t>::MIN; n]);
                // Round trip through encode.
                let v: Vec<$t> = (0..n).map(|_| rng.next() as $t).collect();
                let init = rng.next() as $t;
                assert_eq!(
                    delta::decode_with_initial(init, &delta::encode_with_initial(init, &v)),
                    v
                );
            }
        }
    };
}
// Every length 0..=4100 for the widths the signal formats use; every tail for the others.
lengths_test!(i16_every_isa_every_length, i16, 0..=4100);
lengths_test!(u16_every_isa_every_tail, u16, (0..=300).chain(4090..=4100));
lengths_test!(i32_every_isa_every_length, i32, 0..=4100);
lengths_test!(u32_every_isa_every_tail, u32, (0..=300).chain(4090..=4100));
lengths_test!(i64_every_isa_every_tail, i64, (0..=300).chain(4090..=4100));
lengths_test!(u64_every_isa_every_tail, u64, (0..=300).chain(4090..=4100));

#[test]
fn encode_matches_definition() {
    let v: Vec<i32> = vec![5, -3, i32::MAX, i32::MIN, 0];
    assert_eq!(delta::encode_with_initial(7, &v), [-2, -8, i32::MAX.wrapping_add(3), 1, i32::MIN]);
    let mut out = [0i32; 5];
    assert_eq!(delta::encode_to_slice(7, &v, &mut out), 0);
    assert_eq!(delta::encode(&[] as &[u64]), Vec::<u64>::new());
}

fn signal(rng: &mut Rng, n: usize) -> Vec<i16> {
    (0..n).map(|_| (rng.next() % 2001) as i16 - 1000).collect()
}

#[test]
fn two_chain_equals_single_chain_for_every_length() {
    let mut rng = Rng(0xD1B5_4A32_D192_ED03);
    for n in (0..=300).chain(4090..=4100) {
        let v = signal(&mut rng, n);
        let init = rng.next() as i16;
        let d = delta::encode_with_initial(init, &v);
        let mid = delta::mid_carry(init, &d);
        for k in all_kernels() {
            let mut out = vec![0i16; n];
            k.decode_2chain_to_slice(init, &d, mid, &mut out);
            assert_eq!(out, v, "{} n={n}", k.isa());
            let mut appended = vec![1i16];
            k.decode_2chain_into(init, &d, mid, &mut appended);
            assert_eq!(&appended[1..], &v[..]);
        }
        assert_eq!(delta::decode_2chain(init, &d, mid), v);
    }
}

#[test]
fn k_chain_equals_single_chain_for_every_split() {
    let mut rng = Rng(0xA076_1D64_78BD_642F);
    for n in (0..=200).chain([255, 256, 1000, 4095, 4096, 4100, 8192]) {
        let v = signal(&mut rng, n);
        let init = rng.next() as i16;
        let d = delta::encode_with_initial(init, &v);
        for kk in 1..=12 {
            let points = delta::split_points(init, &d, kk);
            assert_eq!(points.len(), kk - 1);
            let sub = delta::kchain_len(n, kk);
            for (j, p) in points.iter().enumerate() {
                assert_eq!(p.offset, (j + 1) * sub);
                assert_eq!(p.carry, if p.offset == 0 { init } else { v[p.offset - 1] });
            }
            let carries = delta::kchain_carries(init, &d, kk);
            for k in all_kernels() {
                let mut out = vec![0i16; n];
                k.decode_kchain_to_slice(init, &d, &carries, &mut out);
                assert_eq!(out, v, "{} n={n} k={kk}", k.isa());
            }
            assert_eq!(delta::decode_kchain(init, &d, &carries), v);
        }
    }
}

#[test]
fn zigzag_every_i16_and_extremes() {
    let all: Vec<i16> = (i16::MIN..=i16::MAX).collect();
    let codes = zigzag::encode(&all);
    assert_eq!(zigzag::decode::<i16>(&codes), all);
    let mut sorted = codes.clone();
    sorted.sort_unstable();
    assert_eq!(sorted, (0..=u16::MAX).collect::<Vec<_>>());
    assert_eq!(zigzag::encode(&[i64::MIN, i64::MAX, -1, 0]), [u64::MAX, u64::MAX - 1, 1, 0]);
    let mut out = [0u32; 3];
    zigzag::encode_to_slice(&[-2i32, 2, 0], &mut out);
    assert_eq!(out, [3, 4, 0]);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn prop_decode_i16(d in prop::collection::vec(any::<i16>(), 0..4100), init in any::<i16>()) {
        check_decode(init, &d);
    }

    #[test]
    fn prop_decode_u32(d in prop::collection::vec(any::<u32>(), 0..4100), init in any::<u32>()) {
        check_decode(init, &d);
    }

    #[test]
    fn prop_decode_u64(d in prop::collection::vec(any::<u64>(), 0..2000), init in any::<u64>()) {
        check_decode(init, &d);
    }

    #[test]
    fn prop_chains(v in prop::collection::vec(any::<i16>(), 0..3000), init in any::<i16>(), kk in 1usize..=16) {
        let d = delta::encode_with_initial(init, &v);
        prop_assert_eq!(delta::decode_2chain(init, &d, delta::mid_carry(init, &d)), v.clone());
        prop_assert_eq!(delta::decode_kchain(init, &d, &delta::kchain_carries(init, &d, kk)), v);
    }

    #[test]
    fn prop_zigzag(v in prop::collection::vec(any::<i32>(), 0..1000)) {
        prop_assert_eq!(zigzag::decode::<i32>(&zigzag::encode(&v)), v);
    }
}

/// The x86 zigzag blocks equal `Zigzag::unzigzag` on every u16 and on u32 codes of every
/// width (lane order kept).
#[cfg(target_arch = "x86_64")]
#[test]
fn simd_unzigzag_blocks_equal_scalar() {
    use core::arch::x86_64::*;
    use svb_delta::kernels::x86_64::*;
    use svb_delta::zigzag::Zigzag;
    let codes16: Vec<u16> = (0..=u16::MAX).collect();
    let mut rng = Rng(0x5eed);
    let codes32: Vec<u32> = (0..4092)
        .map(|i| (rng.next() as u32) >> (i % 32))
        .chain([0, 1, u32::MAX, u32::MAX - 1])
        .collect();
    let want16: Vec<u16> = codes16.iter().map(|&z| i16::unzigzag(z) as u16).collect();
    let want32: Vec<u32> = codes32.iter().map(|&z| i32::unzigzag(z) as u32).collect();
    let mut got16 = vec![0u16; codes16.len()];
    let mut got32 = vec![0u32; codes32.len()];
    // SAFETY: SSE2 is part of x86-64; loads and stores stay inside the vectors (lengths are
    // multiples of the lane counts).
    unsafe {
        for (z, o) in codes16.chunks_exact(8).zip(got16.chunks_exact_mut(8)) {
            let v = unzigzag_u16x8(_mm_loadu_si128(z.as_ptr().cast()));
            _mm_storeu_si128(o.as_mut_ptr().cast(), v);
        }
        for (z, o) in codes32.chunks_exact(4).zip(got32.chunks_exact_mut(4)) {
            let v = unzigzag_u32x4(_mm_loadu_si128(z.as_ptr().cast()));
            _mm_storeu_si128(o.as_mut_ptr().cast(), v);
        }
    }
    assert_eq!(got16, want16);
    assert_eq!(got32, want32);
    if is_x86_feature_detected!("avx2") {
        got16.fill(0);
        got32.fill(0);
        // SAFETY: AVX2 detected; as above with 16 / 8 lanes.
        unsafe {
            for (z, o) in codes16.chunks_exact(16).zip(got16.chunks_exact_mut(16)) {
                let v = unzigzag_u16x16(_mm256_loadu_si256(z.as_ptr().cast()));
                _mm256_storeu_si256(o.as_mut_ptr().cast(), v);
            }
            for (z, o) in codes32.chunks_exact(8).zip(got32.chunks_exact_mut(8)) {
                let v = unzigzag_u32x8(_mm256_loadu_si256(z.as_ptr().cast()));
                _mm256_storeu_si256(o.as_mut_ptr().cast(), v);
            }
        }
        assert_eq!(got16, want16);
        assert_eq!(got32, want32);
    }
}
