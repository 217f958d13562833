//! SSSE3 kernels of the u64 codecs: the groups of both wires, run by the loops of
//! [`groups`](crate::stream64::groups).

use crate::stream64::groups::{decode_kernel, encode_kernel};

decode_kernel!("ssse3");
encode_kernel!("ssse3");

/// U64Coder1248: one `pshufb` per control nibble (two u64 values).
pub(crate) mod c1248 {
    #[cfg(target_arch = "x86")]
    use core::arch::x86::*;
    #[cfg(target_arch = "x86_64")]
    use core::arch::x86_64::*;

    use crate::group_encode::impl_encode_group;
    use crate::stream64::groups::u64_group;
    use crate::stream64::{CODE_1248, DECODE_1248, ENCODE_1248, NIBBLE_LENS_1248, S1248};

    /// Control nibble of the two u64 lanes of `v`.
    ///
    /// # Safety
    /// The CPU must support SSSE3.
    #[inline(always)]
    unsafe fn nibble(v: __m128i) -> usize {
        // SAFETY: SSSE3 (caller).
        let z = unsafe { _mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_setzero_si128())) } as usize;
        // Codes are below 4, so the nibble is below 16 (the mask says so to the compiler).
        (CODE_1248[z & 0xFF] as usize | (CODE_1248[(z >> 8) & 0xFF] as usize) << 2) & 0xF
    }

    // A group uses at most 32 data bytes; its second load starts at most 16 in.
    u64_group! {
        /// A group of U64Coder1248: one `pshufb` per control nibble (two u64 values).
        S1248, window 32, |src, c, dst| {
            let (lo, hi) = ((c & 0xF) as usize, (c >> 4) as usize);
            let l0 = NIBBLE_LENS_1248[lo] as usize;
            // SAFETY: SSSE3 and the window (caller): both 16-byte loads (at 0 and l0 <= 16)
            // stay inside the 32 readable bytes; `dst` holds 4 values.
            unsafe {
                let v0 = _mm_loadu_si128(src.cast());
                let m0 = _mm_load_si128(DECODE_1248[lo].0.as_ptr().cast());
                _mm_storeu_si128(dst.cast(), _mm_shuffle_epi8(v0, m0));
                let v1 = _mm_loadu_si128(src.add(l0).cast());
                let m1 = _mm_load_si128(DECODE_1248[hi].0.as_ptr().cast());
                _mm_storeu_si128(dst.add(2).cast(), _mm_shuffle_epi8(v1, m1));
            }
            l0 + NIBBLE_LENS_1248[hi] as usize
        }
    }

    // The second pair's 16-byte store starts at most 16 bytes in.
    impl_encode_group! {
        Group => u64, 4 values, room 32, |src, dst| {
            // SAFETY: SSSE3 and four values at `src`, 32 writable bytes at `dst` (caller):
            // the stores at 0 and l0 <= 16 end by 32.
            unsafe {
                let v0 = _mm_loadu_si128(src.cast());
                let v1 = _mm_loadu_si128(src.add(2).cast());
                let (n0, n1) = (nibble(v0), nibble(v1));
                let l0 = NIBBLE_LENS_1248[n0] as usize;
                let m0 = _mm_load_si128(ENCODE_1248[n0].0.as_ptr().cast());
                _mm_storeu_si128(dst.cast(), _mm_shuffle_epi8(v0, m0));
                let m1 = _mm_load_si128(ENCODE_1248[n1].0.as_ptr().cast());
                _mm_storeu_si128(dst.add(l0).cast(), _mm_shuffle_epi8(v1, m1));
                ((n0 | (n1 << 4)) as u8, l0 + NIBBLE_LENS_1248[n1] as usize)
            }
        }
    }
}

/// U64Coder1234: one 16-byte load and two `pshufb` per control byte.
pub(crate) mod c1234 {
    #[cfg(target_arch = "x86")]
    use core::arch::x86::*;
    #[cfg(target_arch = "x86_64")]
    use core::arch::x86_64::*;

    use crate::group_encode::impl_encode_group;
    use crate::stream32::x86::ssse3::encode_group;
    use crate::stream32::{Classic, Scheme32};
    use crate::stream64::groups::u64_group;
    use crate::stream64::{DECODE_1234, S1234};

    // A group uses at most 16 data bytes, in one load.
    u64_group! {
        /// A group of U64Coder1234: one load and two `pshufb` per control byte.
        S1234, window 16, |src, c, dst| {
            let m = DECODE_1234[c as usize].0.as_ptr();
            // SAFETY: SSSE3 and the window (caller): 16 readable bytes at `src`, 4 values at
            // `dst`; the table row has 32 aligned bytes.
            unsafe {
                let v = _mm_loadu_si128(src.cast());
                _mm_storeu_si128(dst.cast(), _mm_shuffle_epi8(v, _mm_load_si128(m.cast())));
                _mm_storeu_si128(
                    dst.add(2).cast(),
                    _mm_shuffle_epi8(v, _mm_load_si128(m.add(16).cast())),
                );
            }
            Classic::CTRL_LENS[c as usize] as usize
        }
    }

    // One 16-byte store (the U32Classic group's).
    impl_encode_group! {
        Group => u64, 4 values, room 16, |src, dst| {
            // SAFETY: SSSE3 and four values at `src`, 16 writable bytes at `dst` (caller).
            unsafe {
                let v0 = _mm_castsi128_ps(_mm_loadu_si128(src.cast()));
                let v1 = _mm_castsi128_ps(_mm_loadu_si128(src.add(2).cast()));
                // The low 32 bits of the four values (only they are packed).
                let low = _mm_castps_si128(_mm_shuffle_ps::<0b10_00_10_00>(v0, v1));
                encode_group::<Classic>(low, dst)
            }
        }
    }
}
