//! The AVX2 kernel of SVB-ZD's fused decode ([`I16ZigzagDelta32`](crate::I16ZigzagDelta32),
//! [`ZigzagDelta16`]), 16 values a block: the four groups are unpacked as two 256-bit vectors
//! (one `vpshufb` each, their data and shuffle rows paired by 128-bit inserts, groups 0|2 and
//! 1|3), then a [`Quad`] step finishes the block in registers: one unzigzag per vector and one
//! in-lane pack leave samples 0..8 | 8..16 in order for one 16-lane prefix-sum block (27
//! vector operations per 16 samples).
//!
//! [`U32Delta`](crate::U32Delta) ran here too (each lane's prefix sum in-lane, the totals
//! moved up with lane permutes) until it measured 0.73-0.79x lemire's C decoder at 8192
//! values on Zen 3, bound by the shuffle pipes (17 shuffles per 16 values); it now runs the
//! SSSE3 block loop compiled with AVX2, one prefix sum a group as the C reference's loop.
//!
//! The block loop runs while a block's last load ends inside the data, so a stream followed
//! by 16 bytes of anything decodes all its blocks there, and its last groups from the data
//! too. What the block loop leaves of a stream that ends at its slice's end (fewer than 64
//! data bytes) goes to the SSSE3 tail (`finish_decode`): the pair loop while 32 bytes are
//! left, then the last groups shuffled out of one load of the data's last 16 bytes; a
//! truncated input goes to the scalar tail, which reports it exactly.

#[cfg(target_arch = "x86")]
use core::arch::x86::*;
#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;
use core::mem::MaybeUninit;

use super::ssse3::finish_decode;
use crate::stream32::finish::{Finish, ZigzagDelta16};
use crate::stream32::scalar::split_control;
use crate::stream32::{Classic, Scheme32};
use crate::DecodeResult;

/// The fused decode with `F`: `out.len()` values from the front of `input`, from the
/// running value `acc`; returns the bytes consumed and the running value after the last.
///
/// # Safety
/// The CPU must support AVX2 (and so SSSE3).
pub(crate) unsafe fn decode<F: Quad>(
    input: &[u8], acc: u32, out: &mut [MaybeUninit<F::Out>],
) -> DecodeResult<(usize, u32)> {
    let (ctrl, data) = split_control(input, out.len())?;
    // SAFETY: the caller guarantees AVX2.
    unsafe { decode_all::<F>(ctrl, data, acc, out) }
}

/// The loops and the tail compiled as one AVX2 function (no call between them, one
/// `vzeroupper` at its end).
///
/// # Safety
/// The CPU must support AVX2. `ctrl` must hold the control bytes of `out.len()` values (as
/// `split_control` returns them); the loops keep every load inside `data` and every store
/// inside `out` themselves.
#[target_feature(enable = "avx2")]
unsafe fn decode_all<F: Quad>(
    ctrl: &[u8], data: &[u8], acc: u32, out: &mut [MaybeUninit<F::Out>],
) -> DecodeResult<(usize, u32)> {
    // SAFETY: AVX2 (caller) implies SSSE3; the tail starts where the block loop stopped, and
    // both bound their own loads and stores.
    unsafe {
        let carry = _mm_set1_epi32(acc as i32);
        let (dp, g, carry) = blocks16::<F>(ctrl, data, 0, carry, out);
        finish_decode::<Classic, F>(ctrl, data, dp, g, carry, out)
    }
}

/// A step that finishes 16 values at once (four groups) for the AVX2 block loop.
pub(crate) trait Quad: Finish {
    /// The groups' order in the two vectors: `false` 0|1 and 2|3, `true` 0|2 and 1|3.
    const INTERLEAVED: bool;

    /// Finishes the block's two vectors (`a`, `b` in [`Quad::INTERLEAVED`] order) from
    /// `carry` (the running value in every lane, updated) and stores its 16 values at `dst`.
    ///
    /// # Safety
    /// The CPU must support AVX2; 16 values writable at `dst`.
    unsafe fn quad(a: __m256i, b: __m256i, carry: &mut __m256i, dst: *mut Self::Out);
}

impl Quad for ZigzagDelta16 {
    const INTERLEAVED: bool = true;

    #[inline(always)]
    unsafe fn quad(a: __m256i, b: __m256i, carry: &mut __m256i, dst: *mut i16) {
        use svb_delta::kernels::x86_64::{prefix_u16x16, unzigzag_u32x8};
        // SAFETY: AVX2 and 16 writable values at dst (caller).
        unsafe {
            // The low 16 bits of each unzigzagged delta, zero above, so the unsigned
            // saturating pack keeps them exactly; packing 0|2 with 1|3 lane-wise leaves the
            // samples in order.
            let low16 = _mm256_set1_epi32(0xFFFF);
            let unzigzag = |v: __m256i| _mm256_and_si256(unzigzag_u32x8(v), low16);
            let d = _mm256_packus_epi32(unzigzag(a), unzigzag(b));
            let (sums, next) = prefix_u16x16(d, *carry);
            _mm256_storeu_si256(dst.cast(), sums);
            *carry = next;
        }
    }
}

/// Decodes 16-value blocks from group `g` (a multiple of 4), its data at the start of `data`
/// (the stream's data, or the copied tail), while all four 16-byte loads of a block stay
/// inside `data`, each finished by `F` from `carry` (the running value broadcast, as the
/// SSSE3 loops keep it); returns `(dp, groups decoded, carry)` where it stopped.
///
/// # Safety
/// The CPU must support AVX2; `ctrl` holds the control bytes of `out.len()` values; `g` is a
/// multiple of 4.
#[inline(always)]
unsafe fn blocks16<F: Quad>(
    ctrl: &[u8], data: &[u8], g: usize, carry: __m128i, out: &mut [MaybeUninit<F::Out>],
) -> (usize, usize, __m128i) {
    if !g.is_multiple_of(4) {
        // The group loop went on from the data past a block boundary: no whole block here.
        return (0, g, carry);
    }
    let blocks = out.len() / 16;
    let dst = out.as_mut_ptr().cast::<F::Out>();
    let src = data.as_ptr();
    // SAFETY: AVX2 (caller).
    let mut carry = unsafe { _mm256_broadcastsi128_si256(carry) };
    let mut dp = 0usize;
    let mut q = g / 4;
    let len = |k: u8| Classic::CTRL_LENS[k as usize] as usize;
    for k in ctrl[4 * q..4 * blocks].chunks_exact(4) {
        let left = data.len() - dp;
        // With 64 bytes left no load of the block passes the end; nearer the end, its last
        // load (at its fourth group) must end inside the data: with 16 bytes past the stream
        // every block runs here.
        if left < 64 && len(k[0]) + len(k[1]) + len(k[2]) + 16 > left {
            break;
        }
        let d1 = dp + len(k[0]);
        let d2 = d1 + len(k[1]);
        let d3 = d2 + len(k[2]);
        // d3 + 16 <= data.len() (checked above: with 64 bytes left, because each group's
        // data is at most 16 bytes), and the other three loads start before d3, so the four
        // 16-byte loads are inside data; the shuffle rows are 16 bytes; block q < blocks
        // writes values 16q..16q+16 inside out.
        let at = [dp, d1, d2, d3];
        let (x, y) = if F::INTERLEAVED { ([0, 2], [1, 3]) } else { ([0, 1], [2, 3]) };
        // SAFETY: AVX2 (caller); the loads are inside data and the shuffle rows (above).
        unsafe {
            let a = unpack_pair(src, at, k, x);
            let b = unpack_pair(src, at, k, y);
            F::quad(a, b, &mut carry, dst.add(16 * q));
        }
        dp = d3 + len(k[3]);
        q += 1;
    }
    // SAFETY: AVX2 (caller).
    (dp, 4 * q, unsafe { _mm256_castsi256_si128(carry) })
}

/// Groups `i` and `j` of a block (data at `src + at[i]`, control byte `k[i]`) unpacked into
/// one vector: group `i` in the low lane, `j` in the high. A function, not a closure: the
/// loops' functions take their features from the entry they are inlined into, and this one,
/// as a closure, was compiled apart without AVX2 (LLVM did not inline it).
///
/// # Safety
/// The CPU must support AVX2; 16 bytes must be readable at both groups' data.
#[inline(always)]
unsafe fn unpack_pair(src: *const u8, at: [usize; 4], k: &[u8], [i, j]: [usize; 2]) -> __m256i {
    let shuffle = |c: u8| Classic::DECODE[c as usize].0.as_ptr();
    // SAFETY: AVX2 and the 16-byte ranges (caller); the shuffle rows are 16 bytes.
    unsafe {
        _mm256_shuffle_epi8(
            _mm256_loadu2_m128i(src.add(at[j]).cast(), src.add(at[i]).cast()),
            _mm256_loadu2_m128i(shuffle(k[j]).cast(), shuffle(k[i]).cast()),
        )
    }
}
