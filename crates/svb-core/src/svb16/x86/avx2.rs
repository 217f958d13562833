//! AVX2 kernels of Svb16: the key bytes of 64 values come from 256-bit compares; the
//! shuffles are the SSSE3 block loops (one 128-bit `vpshufb` per key byte) compiled with
//! AVX2, which measured faster here than two-key 256-bit shuffles with lane inserts.

#[cfg(target_arch = "x86")]
use core::arch::x86::*;
#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;
use core::mem::MaybeUninit;

use super::ssse3::{encode_block, prefix_lens, Group};
use crate::svb16::finish::{Finish16, Lane16};
use crate::svb16::scalar::encode_with;

decode_entries!("AVX2");

decode_split!("AVX2", "avx2");

encode_entries!("AVX2", "avx2");

/// Key bytes of the 64 values at `p` (bit i set: value i needs two bytes). Reads 128 bytes.
///
/// # Safety
/// The CPU must support AVX2, and 64 `u16` values must be readable at `p`.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn key_word_of(p: *const u16) -> u64 {
    let high = _mm256_set1_epi16(0xFF00u16 as i16);
    let zero = _mm256_setzero_si256();
    let narrow = |i: usize| {
        // SAFETY: the caller guarantees 64 readable values at p; i < 4.
        let v = unsafe { _mm256_loadu_si256(p.add(16 * i).cast()) };
        _mm256_cmpeq_epi16(_mm256_and_si256(v, high), zero)
    };
    // In-lane packs give values 0-7, 16-23 | 8-15, 24-31; restore value order per 64 bits.
    let flags = |i: usize| {
        let packed = _mm256_packs_epi16(narrow(2 * i), narrow(2 * i + 1));
        _mm256_movemask_epi8(_mm256_permute4x64_epi64::<0b11_01_10_00>(packed)) as u32 as u64
    };
    !(flags(0) | (flags(1) << 32))
}
