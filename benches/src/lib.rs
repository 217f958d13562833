//! Inputs shared by the benchmarks: deterministic pseudo-random integers of mixed byte
//! widths, the distributions the performance targets are stated for.

#![deny(missing_docs)]

pub use svb_testdata::Rng;

pub mod postings_peers;

/// `n` u32 of mixed 1-4 byte widths.
pub fn mixed_u32(n: usize) -> Vec<u32> {
    let mut r = Rng(0x9E37_79B9_7F4A_7C15);
    (0..n).map(|_| r.mixed(4) as u32).collect()
}

/// `n` u64 of mixed 1-8 byte widths.
pub fn mixed_u64(n: usize) -> Vec<u64> {
    let mut r = Rng(0xD1B5_4A32_D192_ED03);
    (0..n).map(|_| r.mixed(8)).collect()
}

/// `n` u64 below 2^32 of mixed 1-4 byte widths.
pub fn mixed_u64_below_2_32(n: usize) -> Vec<u64> {
    mixed_u32(n).into_iter().map(u64::from).collect()
}

/// `n` u16 of mixed 1-2 byte widths.
pub fn mixed_u16(n: usize) -> Vec<u16> {
    let mut r = Rng(0xA076_1D64_78BD_642F);
    (0..n).map(|_| r.mixed(2) as u16).collect()
}

/// `n` samples shaped like nanopore raw signal: a slow random walk around 500 with noise
/// and occasional level jumps (the deltas mostly fit one zigzag byte, some need two).
pub fn signal_i16(n: usize) -> Vec<i16> {
    signal_i16_seeded(n, 0)
}

/// [`signal_i16`] of another seed (0 gives `signal_i16`): distinct chunks, as distinct reads.
pub fn signal_i16_seeded(n: usize, seed: u64) -> Vec<i16> {
    let mut r = Rng(0x853C_49E6_748F_EA9B ^ seed.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let mut level = 500i32;
    (0..n)
        .map(|_| {
            let w = r.next();
            if w.is_multiple_of(97) {
                level = 300 + (w >> 40) as i32 % 400;
            }
            (level + ((w >> 8) % 41) as i32 - 20) as i16
        })
        .collect()
}

/// Whether streamvbyte64's x86 SIMD path was compiled into this build (it needs the
/// `ssse3` and `sse4.1` target features at compile time; otherwise it runs scalar).
pub const STREAMVBYTE64_SIMD: bool =
    cfg!(all(target_arch = "x86_64", target_feature = "ssse3", target_feature = "sse4.1"))
        || cfg!(target_arch = "aarch64");

/// The gaps of a sorted posting list (doc ids): the workloads of the postings benchmarks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Gaps {
    /// Gaps of 1-4: a frequent term (most deltas take one byte, most control bytes are 0).
    Dense,
    /// Gaps of 1-100000: a rare term (mostly 2- and 3-byte deltas).
    Sparse,
    /// Log-uniform gaps in 1-100000 (P(gap) ~ 1/gap): a Zipf-like mixture of short and long
    /// runs, every code width present.
    Zipf,
}

impl Gaps {
    /// The three workloads.
    pub const ALL: [Gaps; 3] = [Gaps::Dense, Gaps::Sparse, Gaps::Zipf];

    /// Lower-case name, for group names.
    pub fn name(self) -> &'static str {
        match self {
            Gaps::Dense => "dense",
            Gaps::Sparse => "sparse",
            Gaps::Zipf => "zipf",
        }
    }

    /// One gap from 64 random bits.
    pub fn gap(self, r: u64) -> u32 {
        match self {
            Gaps::Dense => 1 + (r % 4) as u32,
            Gaps::Sparse => 1 + (r % 100_000) as u32,
            Gaps::Zipf => {
                let u = (r >> 11) as f64 / (1u64 << 53) as f64;
                (100_000f64.powf(u) as u32).max(1)
            }
        }
    }
}

/// `n` sorted, distinct doc ids from 0 with gaps drawn from `gaps` (wrapping past 2^32 for
/// the sparse lists of 1M ids, as the C reference's wire allows).
pub fn sorted_u32(n: usize, gaps: Gaps, seed: u64) -> Vec<u32> {
    let mut r = Rng(0x2545_F491_4F6C_DD1D ^ seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let mut v = 0u32;
    (0..n)
        .map(|_| {
            v = v.wrapping_add(gaps.gap(r.next()));
            v
        })
        .collect()
}

/// The sizes every codec group is measured at.
pub const SIZES: [usize; 3] = [128, 1024, 8192];

/// The u32 codecs' sizes: [`SIZES`] and one out of cache (1M values), where the C reference
/// is compared too.
pub const U32_SIZES: [usize; 4] = [128, 1024, 8192, 1 << 20];

/// lemire's C StreamVByte library (the `streamvbyte-sys` crate's static library, built by
/// cmake with -O3 -march=native), the reference of the U32 wires: feature `c-peers`.
#[cfg(feature = "c-peers")]
pub mod lemire {
    /// The bytes the C decoder may read past its input (its `STREAMVBYTE_PADDING`).
    pub const PADDING: usize = 16;

    // The library's 0124 functions, which streamvbyte-sys does not declare (its static
    // library holds them: streamvbyte.h of the bundled source).
    extern "C" {
        fn streamvbyte_encode_0124(input: *const u32, length: u32, out: *mut u8) -> usize;
        fn streamvbyte_decode_0124(input: *const u8, out: *mut u32, length: u32) -> usize;
    }

    /// The worst case of an encode of `n` values, with the decoder's padding.
    pub fn max_encoded_len(n: usize) -> usize {
        n.div_ceil(4) + 4 * n + PADDING
    }

    /// Encodes `values` into the front of `out` (grown to the worst case when shorter: a
    /// buffer reused across calls is not cleared or zeroed again, as ours is not); returns the
    /// bytes written (`zero124`: the 0124 wire).
    pub fn encode(values: &[u32], out: &mut Vec<u8>, zero124: bool) -> usize {
        let max = max_encoded_len(values.len());
        if out.len() < max {
            out.resize(max, 0);
        }
        let n = u32::try_from(values.len()).expect("fewer than 2^32 values");
        // SAFETY: `values` holds `n` values and `out` the worst case of their encoding
        // (control bytes plus 4 bytes a value), which is all the C encoder writes.
        unsafe {
            if zero124 {
                streamvbyte_encode_0124(values.as_ptr(), n, out.as_mut_ptr())
            } else {
                streamvbyte_sys::streamvbyte_encode(values.as_ptr(), n, out.as_mut_ptr()) as usize
            }
        }
    }

    /// `streamvbyte_delta_encode`: encodes the deltas of `values` from `prev` into the front
    /// of `out` (grown as in [`encode`]); returns the bytes written.
    pub fn delta_encode(values: &[u32], prev: u32, out: &mut Vec<u8>) -> usize {
        let max = max_encoded_len(values.len());
        if out.len() < max {
            out.resize(max, 0);
        }
        let n = u32::try_from(values.len()).expect("fewer than 2^32 values");
        // SAFETY: as in `encode`: `out` holds the worst case of the encoding.
        unsafe {
            streamvbyte_sys::streamvbyte_delta_encode(values.as_ptr(), n, out.as_mut_ptr(), prev)
                as usize
        }
    }

    /// `streamvbyte_delta_decode`: decodes `out.len()` values of `input` (an encoding of that
    /// many deltas followed by [`PADDING`] bytes) from `prev`; returns the bytes read.
    pub fn delta_decode(input: &[u8], prev: u32, out: &mut [u32]) -> usize {
        let n = u32::try_from(out.len()).expect("fewer than 2^32 values");
        assert!(input.len() >= max_encoded_len(0) && input.len() >= out.len().div_ceil(4));
        // SAFETY: as in `decode`: `out` holds the `n` values written, and `input` is an
        // encoding of `n` values followed by the padding the C decoder may read.
        unsafe {
            streamvbyte_sys::streamvbyte_delta_decode(input.as_ptr(), out.as_mut_ptr(), n, prev)
                as usize
        }
    }

    /// Decodes `out.len()` values of `input`, which must be an encoding of that many values
    /// followed by [`PADDING`] bytes; returns the bytes read.
    pub fn decode(input: &[u8], out: &mut [u32], zero124: bool) -> usize {
        let n = u32::try_from(out.len()).expect("fewer than 2^32 values");
        assert!(input.len() >= max_encoded_len(0) && input.len() >= out.len().div_ceil(4));
        // SAFETY: `out` holds the `n` values the decoder writes; `input` is an encoding of
        // `n` values (the callers encode it with `encode`) followed by the padding the C
        // decoder may read past its data (asserted by the callers' construction).
        unsafe {
            if zero124 {
                streamvbyte_decode_0124(input.as_ptr(), out.as_mut_ptr(), n)
            } else {
                streamvbyte_sys::streamvbyte_decode(input.as_ptr(), out.as_mut_ptr(), n) as usize
            }
        }
    }
}

/// Puts the allocator in the state of a long-running program before a file benchmark:
/// glibc serves large blocks with fresh `mmap`s (page faults on every touch) until a large
/// block has been freed, after which it raises its threshold and reuses heap memory. Which
/// benchmark happened to free a large block first would otherwise decide which peer pays
/// page faults for every record it allocates.
pub fn steady_state_allocator() {
    let block = vec![1u8; 24 << 20];
    drop(std::hint::black_box(block));
}

/// The decode-fast twin of a POD5 file: its reads rewritten by our writer with
/// [`ZstdProfile::DecodeFast`](svb_pod5::ZstdProfile) into
/// `target/bench-data/STEM.decode-fast.pod5` (once; `cargo xtask bench` finds it there for
/// the Python peer).
pub fn decode_fast_copy(src: &std::path::Path) -> std::path::PathBuf {
    use svb_pod5::ZstdProfile;
    use svb_pod5::{Reader, WriteOptions, Writer};
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/bench-data");
    let stem = src.file_stem().unwrap().to_string_lossy();
    let out = dir.join(format!("{stem}.decode-fast.pod5"));
    if out.is_file() {
        return out;
    }
    std::fs::create_dir_all(&dir).unwrap();
    let r = Reader::open(src).unwrap();
    let options = WriteOptions { zstd_profile: ZstdProfile::DecodeFast, ..WriteOptions::default() };
    let mut w = Writer::create(&out, options).unwrap();
    for run in r.run_infos() {
        w.add_run_info(run).unwrap();
    }
    for (i, read) in r.reads().iter().enumerate() {
        w.add_read(&read.info, &r.decode_signal(i).unwrap()).unwrap();
    }
    w.finish().unwrap();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inputs_have_every_width() {
        let v = mixed_u32(8192);
        for bytes in 1..=4u32 {
            assert!(v.iter().any(|&x| (32 - x.leading_zeros()).div_ceil(8).max(1) == bytes));
        }
        assert!(mixed_u64(1000).iter().any(|&x| x > u32::MAX as u64));
        assert!(mixed_u16(1000).iter().any(|&x| x > 255));
    }
}

/// The README's examples, compiled and run as doctests (this crate depends on every library
/// crate the README shows).
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
pub struct ReadmeDoctests;
