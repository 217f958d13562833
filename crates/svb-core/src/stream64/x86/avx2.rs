//! AVX2 kernels of the u64 codecs: one 256-bit shuffle per control byte (four u64 values),
//! the groups run by the loops of [`groups`](crate::stream64::groups), and blocks of 8 groups
//! for the encoders.

use crate::stream64::groups::decode_kernel;

decode_kernel!("avx2");

/// U64Coder1248.
pub(crate) mod c1248 {
    #[cfg(target_arch = "x86")]
    use core::arch::x86::*;
    #[cfg(target_arch = "x86_64")]
    use core::arch::x86_64::*;
    use core::mem::MaybeUninit;

    use crate::group_encode::impl_encode_group;
    use crate::stream32::x86::avx2::control_word_of_minus_codes;
    use crate::stream64::groups::u64_group;
    use crate::stream64::scalar::encode_with;
    use crate::stream64::{CODE_1248, DECODE_1248, ENCODE_1248, NIBBLE_LENS_1248, S1248};
    use crate::tables::Row16;
    use crate::EncodeResult;

    /// The shuffle rows of nibbles `lo` and `hi` of `table` as one vector, `lo`'s in the low
    /// lane (one group's two pairs).
    #[target_feature(enable = "avx2")]
    #[inline]
    fn row_pair(table: &[Row16; 16], lo: usize, hi: usize) -> __m256i {
        // SAFETY: two 16-byte rows of the table.
        unsafe { _mm256_loadu2_m128i(table[hi].0.as_ptr().cast(), table[lo].0.as_ptr().cast()) }
    }

    // A group uses at most 32 data bytes; its second load starts at most 16 in.
    u64_group! {
        /// A group of U64Coder1248: its two 16-byte windows (the second starts after the first
        /// pair's bytes) in one vector, one 256-bit shuffle.
        S1248, window 32, |src, c, dst| {
            let (lo, hi) = ((c & 0xF) as usize, (c >> 4) as usize);
            let l0 = NIBBLE_LENS_1248[lo] as usize;
            // SAFETY: AVX2 and the window (caller): both loads (at 0 and l0 <= 16) stay
            // inside the 32 readable bytes; `dst` holds 4 values.
            unsafe {
                let v = _mm256_loadu2_m128i(src.add(l0).cast(), src.cast());
                let m = row_pair(&DECODE_1248, lo, hi);
                _mm256_storeu_si256(dst.cast(), _mm256_shuffle_epi8(v, m));
            }
            l0 + NIBBLE_LENS_1248[hi] as usize
        }
    }

    /// The encode kernel of this ISA (see the codec's `Kernels`).
    ///
    /// # Safety
    /// The CPU must support AVX2 (and so SSSE3).
    pub(crate) unsafe fn encode(values: &[u64], out: &mut [MaybeUninit<u8>]) -> EncodeResult {
        // SAFETY: the caller guarantees AVX2 (this function's contract); `encode_with`
        // has checked that `out` holds `max_encoded_len(n)` bytes.
        encode_with::<S1248>(values, out, |values, out, ctrl_len| unsafe {
            encode_all(values, out, ctrl_len)
        })
    }

    /// Negated codes of the four u64 lanes of `v`, each in both of its u32 halves: minus the
    /// number of the thresholds 2^8, 2^16, 2^32 that the value reaches (a value below 2^k has
    /// `v >> k == 0`).
    #[target_feature(enable = "avx2")]
    #[inline]
    fn minus_codes(v: __m256i) -> __m256i {
        let z = _mm256_setzero_si256();
        let below = |s: __m256i| _mm256_cmpeq_epi64(s, z);
        // Each compare is -1 in both halves of a lane whose value is below the threshold:
        // their sum is code - 3 in each half.
        let below_all = _mm256_add_epi32(
            _mm256_add_epi32(below(_mm256_srli_epi64::<8>(v)), below(_mm256_srli_epi64::<16>(v))),
            below(_mm256_srli_epi64::<32>(v)),
        );
        _mm256_sub_epi32(_mm256_set1_epi32(-3), below_all)
    }

    /// Control bytes of the 32 values at `p` (8 groups) as a little-endian word: 256-bit
    /// shifts and compares, then the U32Classic control-word packing.
    ///
    /// # Safety
    /// The CPU must support AVX2, and 32 values must be readable at `p`.
    #[target_feature(enable = "avx2")]
    #[inline]
    unsafe fn control_word_of(p: *const u64) -> u64 {
        // The low halves of four u64 lanes to the low 128 bits.
        let low_first = _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7);
        let mut minus = [_mm256_setzero_si256(); 4];
        for (i, m) in minus.iter_mut().enumerate() {
            // SAFETY: values 8i..8i+8 of the 32 at p (caller).
            let (a, b) = unsafe {
                (
                    _mm256_loadu_si256(p.add(8 * i).cast()),
                    _mm256_loadu_si256(p.add(8 * i + 4).cast()),
                )
            };
            let a = _mm256_permutevar8x32_epi32(minus_codes(a), low_first);
            let b = _mm256_permutevar8x32_epi32(minus_codes(b), low_first);
            *m = _mm256_permute2x128_si256::<0x20>(a, b);
        }
        control_word_of_minus_codes(minus)
    }

    /// Encodes blocks of 8 groups (32 values): their 8 control bytes computed at once (the
    /// next block's while this one is packed, so the long compare-and-pack chain overlaps the
    /// stores), each group packed by one 256-bit shuffle, its halves stored at the group's
    /// start and after its first pair. One bound check a block: 256 bytes of room (a group
    /// takes at most 32). Then single groups while they fit. Returns `(dp, g)`.
    ///
    /// # Safety
    /// The CPU must support AVX2 (and so SSSE3); `out` must hold at least
    /// `max_encoded_len(values.len())` bytes and `ctrl_len` be the control length of
    /// `values.len()` values.
    #[target_feature(enable = "avx2")]
    unsafe fn encode_all(
        values: &[u64], out: &mut [MaybeUninit<u8>], ctrl_len: usize,
    ) -> (usize, usize) {
        let full = values.len() / 4;
        let room = out.len() - ctrl_len;
        let base = out.as_mut_ptr().cast::<u8>();
        let (mut dp, mut g) = (0usize, 0usize);
        if full < 8 {
            // SAFETY: AVX2 and `out` (caller).
            return unsafe {
                crate::group_encode::encode_groups::<Group>(values, out, ctrl_len, 0, 0)
            };
        }
        // SAFETY: 8 <= full, so values 0..32 exist.
        let mut cw = unsafe { control_word_of(values.as_ptr()) };
        while g + 8 <= full && room - dp >= 256 {
            let next = if g + 16 <= full {
                // SAFETY: g + 16 <= full, so the next block's 32 values exist.
                unsafe { control_word_of(values.as_ptr().add(4 * (g + 8))) }
            } else {
                0
            };
            // SAFETY: control bytes g..g+8 <= ctrl_len; values 4g..4g+32 exist; each
            // group's two stores end by dp + 32 and the block's by dp + 256 <= room.
            unsafe {
                base.add(g).cast::<u64>().write_unaligned(cw.to_le());
                for k in 0..8 {
                    let lanes = _mm256_loadu_si256(values.as_ptr().add(4 * (g + k)).cast());
                    let c = (cw >> (8 * k)) as u8;
                    let (n0, n1) = ((c & 0xF) as usize, (c >> 4) as usize);
                    let l0 = NIBBLE_LENS_1248[n0] as usize;
                    let m = row_pair(&ENCODE_1248, n0, n1);
                    let r = _mm256_shuffle_epi8(lanes, m);
                    let d = base.add(ctrl_len + dp);
                    _mm_storeu_si128(d.cast(), _mm256_castsi256_si128(r));
                    _mm_storeu_si128(d.add(l0).cast(), _mm256_extracti128_si256::<1>(r));
                    dp += l0 + NIBBLE_LENS_1248[n1] as usize;
                }
            }
            cw = next;
            g += 8;
        }
        // SAFETY: AVX2 and `out` (caller); (dp, g) is where the blocks stopped.
        unsafe { crate::group_encode::encode_groups::<Group>(values, out, ctrl_len, dp, g) }
    }

    // The second pair's 16-byte store starts at most 16 bytes in.
    impl_encode_group! {
        Group => u64, 4 values, room 32, |src, dst| {
            // SAFETY: AVX2 and four values at `src`, 32 writable bytes at `dst` (caller): the
            // halves are stored at 0 and l0 <= 16, ending by 32.
            unsafe {
                let v = _mm256_loadu_si256(src.cast());
                let zero = _mm256_setzero_si256();
                let z = _mm256_movemask_epi8(_mm256_cmpeq_epi8(v, zero)) as u32 as usize;
                // Codes are below 4, so the nibbles below 16 (the mask says so to the compiler).
                let n0 = (CODE_1248[z & 0xFF] as usize
                    | (CODE_1248[(z >> 8) & 0xFF] as usize) << 2)
                    & 0xF;
                let n1 = (CODE_1248[(z >> 16) & 0xFF] as usize
                    | (CODE_1248[(z >> 24) & 0xFF] as usize) << 2)
                    & 0xF;
                let l0 = NIBBLE_LENS_1248[n0] as usize;
                let r = _mm256_shuffle_epi8(v, row_pair(&ENCODE_1248, n0, n1));
                _mm_storeu_si128(dst.cast(), _mm256_castsi256_si128(r));
                _mm_storeu_si128(dst.add(l0).cast(), _mm256_extracti128_si256::<1>(r));
                ((n0 | (n1 << 4)) as u8, l0 + NIBBLE_LENS_1248[n1] as usize)
            }
        }
    }
}

/// U64Coder1234.
pub(crate) mod c1234 {
    #[cfg(target_arch = "x86")]
    use core::arch::x86::*;
    #[cfg(target_arch = "x86_64")]
    use core::arch::x86_64::*;
    use core::mem::MaybeUninit;

    use crate::group_encode::impl_encode_group;
    use crate::stream32::x86::avx2::control_word_of_regs;
    use crate::stream32::x86::ssse3::{encode_block_regs, encode_group, prefix_lens};
    use crate::stream32::{Classic, Scheme32};
    use crate::stream64::groups::u64_group;
    use crate::stream64::scalar::encode_checking;
    use crate::stream64::{DECODE_1234, S1234};
    use crate::EncodeResult;

    // A group uses at most 16 data bytes, in one load.
    u64_group! {
        /// A group of U64Coder1234: its 16 data bytes in both lanes, one 256-bit shuffle.
        S1234, window 16, |src, c, dst| {
            let c = c as usize;
            // SAFETY: AVX2 and the window (caller): 16 readable bytes at `src`, 4 values at
            // `dst`; the table row is 32 aligned bytes.
            unsafe {
                let v = _mm256_broadcastsi128_si256(_mm_loadu_si128(src.cast()));
                let m = _mm256_load_si256(DECODE_1234[c].0.as_ptr().cast());
                _mm256_storeu_si256(dst.cast(), _mm256_shuffle_epi8(v, m));
            }
            Classic::CTRL_LENS[c] as usize
        }
    }

    /// The encode kernel of this ISA (see the codec's `Kernels`).
    ///
    /// # Safety
    /// The CPU must support AVX2 (and so SSSE3).
    pub(crate) unsafe fn encode(values: &[u64], out: &mut [MaybeUninit<u8>]) -> EncodeResult {
        // SAFETY: the caller guarantees AVX2 (this function's contract); `encode_checking`
        // has checked that `out` holds `max_encoded_len(n)` bytes. The loops pack the low
        // halves of the values only, so a value of 2^32 or more (refused after them) cannot
        // make them write more than 4 bytes a value.
        encode_checking::<S1234>(values, out, |values, out, ctrl_len| unsafe {
            encode_all(values, out, ctrl_len)
        })
    }

    /// The low halves of the 32 values at `p` as four vectors of 8 u32 (value order), and the
    /// OR of their high halves.
    ///
    /// # Safety
    /// The CPU must support AVX2, and 32 values must be readable at `p`.
    #[target_feature(enable = "avx2")]
    #[inline]
    unsafe fn narrow32(p: *const u64) -> ([__m256i; 4], __m256i) {
        // Low dwords of four u64 to the low 128 bits, high dwords to the high.
        let low_first = _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7);
        let mut high = _mm256_setzero_si256();
        let mut narrow = [_mm256_setzero_si256(); 4];
        for (i, low) in narrow.iter_mut().enumerate() {
            // SAFETY: values 8i..8i+8 of the 32 at p (caller).
            let (a, b) = unsafe {
                (
                    _mm256_loadu_si256(p.add(8 * i).cast()),
                    _mm256_loadu_si256(p.add(8 * i + 4).cast()),
                )
            };
            let a = _mm256_permutevar8x32_epi32(a, low_first);
            let b = _mm256_permutevar8x32_epi32(b, low_first);
            *low = _mm256_permute2x128_si256::<0x20>(a, b);
            high = _mm256_or_si256(high, _mm256_permute2x128_si256::<0x31>(a, b));
        }
        (narrow, high)
    }

    /// Encodes blocks of 8 groups (32 values) with the U32Classic block encoder: the low
    /// halves of the values are gathered into four vectors of 8 u32 ([`narrow32`]), whose
    /// control word is computed with 256-bit compares (the next block's while this one is
    /// packed) and whose groups are packed by one shuffle each, and the high halves are ORed
    /// together for the range check. Stops where a block's last store would pass `out`, then
    /// single groups while they fit. Returns `(dp, g, values examined, their OR)` for
    /// `encode_checking`: only the blocks' values count as examined (the single groups pack
    /// the low halves without looking at the high ones).
    ///
    /// # Safety
    /// The CPU must support AVX2 (and so SSSE3); `out` must hold at least
    /// `max_encoded_len(values.len())` bytes and `ctrl_len` be the control length of
    /// `values.len()` values.
    #[target_feature(enable = "avx2")]
    unsafe fn encode_all(
        values: &[u64], out: &mut [MaybeUninit<u8>], ctrl_len: usize,
    ) -> (usize, usize, usize, u64) {
        let full = values.len() / 4;
        let room = out.len() - ctrl_len;
        let base = out.as_mut_ptr().cast::<u8>();
        let mut high = _mm256_setzero_si256();
        let (mut dp, mut g) = (0usize, 0usize);
        if full < 8 {
            // SAFETY: AVX2 and `out` (caller).
            let (dp, g) =
                unsafe { crate::group_encode::encode_groups::<Group>(values, out, ctrl_len, 0, 0) };
            return (dp, g, 0, 0);
        }
        // SAFETY: 8 <= full, so values 0..32 exist.
        let (mut narrow, mut block_high) = unsafe { narrow32(values.as_ptr()) };
        let mut cw = control_word_of_regs::<Classic>(narrow);
        while g + 8 <= full {
            let sums = prefix_lens::<Classic>(cw);
            // The last group's 16-byte store must end inside `out`.
            if room - dp < ((sums << 8) >> 56) as usize + 16 {
                break;
            }
            // The next block's values and control word, computed while this block is packed
            // (the compare-and-pack chain is long; overlapped, it costs no time).
            let (next, next_high, next_cw) = if g + 16 <= full {
                // SAFETY: g + 16 <= full, so the next block's 32 values exist.
                let (n, h) = unsafe { narrow32(values.as_ptr().add(4 * (g + 8))) };
                (n, h, control_word_of_regs::<Classic>(n))
            } else {
                (narrow, _mm256_setzero_si256(), 0)
            };
            // SAFETY: control bytes g..g+8 <= ctrl_len; every store of the block ends by the
            // last group's start + 16 <= room - dp (checked above); SSSE3 (AVX2).
            unsafe {
                base.add(g).cast::<u64>().write_unaligned(cw.to_le());
                let half = |i: usize, hi: bool| {
                    if hi {
                        _mm256_extracti128_si256::<1>(narrow[i])
                    } else {
                        _mm256_castsi256_si128(narrow[i])
                    }
                };
                let groups = [
                    half(0, false),
                    half(0, true),
                    half(1, false),
                    half(1, true),
                    half(2, false),
                    half(2, true),
                    half(3, false),
                    half(3, true),
                ];
                dp += encode_block_regs::<Classic>(groups, cw, sums, base.add(ctrl_len + dp));
            }
            high = _mm256_or_si256(high, block_high);
            (narrow, block_high, cw) = (next, next_high, next_cw);
            g += 8;
        }
        // Any set bit of a high half makes the OR exceed u32::MAX.
        let seen = (_mm256_testz_si256(high, high) == 0) as u64 * u64::MAX;
        // SAFETY: AVX2 and `out` (caller); (dp, g) is where the blocks stopped.
        let (end, g_end) =
            unsafe { crate::group_encode::encode_groups::<Group>(values, out, ctrl_len, dp, g) };
        (end, g_end, 4 * g, seen)
    }

    // One 16-byte store (the U32Classic group's).
    impl_encode_group! {
        Group => u64, 4 values, room 16, |src, dst| {
            // SAFETY: AVX2 and four values at `src`, 16 writable bytes at `dst` (caller).
            unsafe {
                let v = _mm256_loadu_si256(src.cast());
                let low_dwords = _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6);
                let low = _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(v, low_dwords));
                encode_group::<Classic>(low, dst)
            }
        }
    }
}
