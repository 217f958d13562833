//! The strictly-increasing check: every ISA against the definition (each value above the one
//! before it, unsigned) on sorted lists of every length 0..=80 and around 128 and 1024, each
//! with a repeat, a decrease and a wrap-around placed at every position, and on random lists.

use svb_delta::increasing::{kernels_for, strictly_increasing, Kernels};
use svb_delta::Isa;
use svb_testdata::Rng;

fn kernels() -> Vec<&'static Kernels> {
    [Isa::Scalar, Isa::Ssse3, Isa::Avx2, Isa::Neon].into_iter().filter_map(kernels_for).collect()
}

fn definition(v: &[u32]) -> bool {
    v.windows(2).all(|w| w[1] > w[0])
}

fn check(v: &[u32]) {
    let want = definition(v);
    for k in kernels() {
        assert_eq!(k.strictly_increasing(v), want, "{:?} {v:?}", k.isa());
    }
    assert_eq!(strictly_increasing(v), want);
}

#[test]
fn every_isa_matches_the_definition() {
    assert!(
        kernels().len() >= 2 || cfg!(not(any(target_arch = "x86_64", target_arch = "aarch64")))
    );
    let mut rng = Rng(11);
    let lengths = (0..=80).chain(120..=136).chain([1023, 1024, 1025]);
    for n in lengths {
        // Sorted, gaps of 1 to 2^20; values near the top of the range for some lists, so that
        // unsigned compares are tested where a signed compare would differ.
        let start = if n % 3 == 0 { 0x7FFF_0000 } else { rng.next() as u32 >> 8 };
        let mut v = Vec::with_capacity(n);
        let mut x = start;
        for _ in 0..n {
            x = x.wrapping_add(1 + (rng.next() as u32 >> 12));
            v.push(x);
        }
        check(&v);
        for i in 1..n {
            let mut bad = v.clone();
            bad[i] = bad[i - 1]; // a repeat
            check(&bad);
            bad[i] = bad[i - 1].wrapping_sub(1 + (rng.next() as u32 % 1000)); // a decrease
            check(&bad);
            let mut wrap = v.clone();
            wrap[i - 1] = u32::MAX; // a wrap-around to what follows
            check(&wrap);
        }
        let random: Vec<u32> = (0..n).map(|_| rng.next() as u32).collect();
        check(&random);
    }
}
