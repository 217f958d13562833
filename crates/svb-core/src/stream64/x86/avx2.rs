//! AVX2 kernels of the u64 codecs: one 256-bit shuffle per control byte (four u64 values).

/// U64Coder1248.
pub(crate) mod c1248 {
    #[cfg(target_arch = "x86")]
    use core::arch::x86::*;
    #[cfg(target_arch = "x86_64")]
    use core::arch::x86_64::*;
    use core::mem::MaybeUninit;

    use super::super::ssse3::c1248 as ssse3;
    use crate::error::{DecodeError, EncodeError};
    use crate::stream32::x86::avx2::control_word_of_minus_codes;
    use crate::stream64::scalar::{decode_with, encode_with};
    use crate::stream64::{CODE_1248, DECODE_1248, ENCODE_1248, NIBBLE_LENS_1248, S1248};
    use crate::tables::Row16;

    /// The shuffle rows of nibbles `lo` and `hi` of `table` as one vector, `lo`'s in the low
    /// lane (one group's two pairs).
    #[target_feature(enable = "avx2")]
    #[inline]
    fn row_pair(table: &[Row16; 16], lo: usize, hi: usize) -> __m256i {
        // SAFETY: two 16-byte rows of the table.
        unsafe { _mm256_loadu2_m128i(table[hi].0.as_ptr().cast(), table[lo].0.as_ptr().cast()) }
    }

    /// The decode kernel of this ISA (see the codec's `Kernels`).
    ///
    /// # Safety
    /// The CPU must support AVX2 (and so SSSE3).
    pub(crate) unsafe fn decode(
        input: &[u8],
        out: &mut [MaybeUninit<u64>],
    ) -> Result<usize, DecodeError> {
        // SAFETY: the caller guarantees AVX2 (and SSSE3) (this function's contract);
        // `ctrl` is the control stream of out.len() values.
        decode_with::<S1248>(input, out, |ctrl, data, out| unsafe {
            let (dp, g) = decode_groups(ctrl, data, out);
            super::super::ssse3::decode_groups_copied::<ssse3::Group>(ctrl, data, out, dp, g)
        })
    }

    /// # Safety
    /// The CPU must support AVX2 (and so SSSE3); `ctrl` must hold the control bytes of
    /// `out.len()` values (as `split_control` returns them); the function keeps every load
    /// inside `data` and every store inside `out` itself.
    #[target_feature(enable = "avx2")]
    unsafe fn decode_groups(
        ctrl: &[u8],
        data: &[u8],
        out: &mut [MaybeUninit<u64>],
    ) -> (usize, usize) {
        let full = out.len() / 4;
        let src = data.as_ptr();
        let dst = out.as_mut_ptr().cast::<u64>();
        let (mut dp, mut g) = (0usize, 0usize);
        // Blocks of 4 groups as the C reference's u32 loop: the data offset advanced by
        // length tables, one bound check a block (a group takes at most 32 bytes, so the
        // block's last load ends at most 128 bytes in).
        while g + 4 <= full && data.len() - dp >= 128 {
            let cw = u32::from_le_bytes([ctrl[g], ctrl[g + 1], ctrl[g + 2], ctrl[g + 3]]);
            for k in 0..4 {
                let c = (cw >> (8 * k)) as u8;
                let (lo, hi) = ((c & 0xF) as usize, (c >> 4) as usize);
                let l0 = NIBBLE_LENS_1248[lo] as usize;
                // SAFETY: the block's groups before this one took at most 96 bytes, so both
                // loads (at dp and dp + l0 <= dp + 16) end inside the 128 bytes left at the
                // block's start; group g + k < full writes values 4(g+k)..+4 inside out.
                unsafe {
                    let v = _mm256_loadu2_m128i(src.add(dp + l0).cast(), src.add(dp).cast());
                    let m = row_pair(&DECODE_1248, lo, hi);
                    _mm256_storeu_si256(dst.add(4 * (g + k)).cast(), _mm256_shuffle_epi8(v, m));
                }
                dp += l0 + NIBBLE_LENS_1248[hi] as usize;
            }
            g += 4;
        }
        while g < full && data.len() - dp >= 32 {
            let c = ctrl[g];
            let (lo, hi) = ((c & 0xF) as usize, (c >> 4) as usize);
            let l0 = NIBBLE_LENS_1248[lo] as usize;
            // SAFETY: a group uses at most 32 data bytes and data.len() - dp >= 32, so both
            // loads (at dp and dp + l0 <= dp + 16) stay inside data; g < full so values
            // 4g..4g+4 are inside out.
            unsafe {
                let v = _mm256_loadu2_m128i(src.add(dp + l0).cast(), src.add(dp).cast());
                let m = row_pair(&DECODE_1248, lo, hi);
                _mm256_storeu_si256(dst.add(4 * g).cast(), _mm256_shuffle_epi8(v, m));
            }
            dp += l0 + NIBBLE_LENS_1248[hi] as usize;
            g += 1;
        }
        (dp, g)
    }

    /// The encode kernel of this ISA (see the codec's `Kernels`).
    ///
    /// # Safety
    /// The CPU must support AVX2 (and so SSSE3).
    pub(crate) unsafe fn encode(
        values: &[u64],
        out: &mut [MaybeUninit<u8>],
    ) -> Result<usize, EncodeError> {
        // SAFETY: the caller guarantees AVX2 (this function's contract); `encode_with`
        // has checked that `out` holds `max_encoded_len(n)` bytes.
        encode_with::<S1248>(values, out, |values, out, ctrl_len| unsafe {
            let (dp, g) = encode_blocks(values, out, ctrl_len);
            let (dp, g) = encode_groups(values, out, ctrl_len, dp, g);
            ssse3::encode_groups(values, out, ctrl_len, dp, g)
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
            _mm256_add_epi32(
                below(_mm256_srli_epi64::<8>(v)),
                below(_mm256_srli_epi64::<16>(v)),
            ),
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
    /// takes at most 32). Returns `(dp, g)`.
    ///
    /// # Safety
    /// The CPU must support AVX2 (and so SSSE3); `out` must hold at least
    /// `max_encoded_len(values.len())` bytes and `ctrl_len` be the control length of
    /// `values.len()` values.
    #[target_feature(enable = "avx2")]
    unsafe fn encode_blocks(
        values: &[u64],
        out: &mut [MaybeUninit<u8>],
        ctrl_len: usize,
    ) -> (usize, usize) {
        let full = values.len() / 4;
        let room = out.len() - ctrl_len;
        let base = out.as_mut_ptr().cast::<u8>();
        let (mut dp, mut g) = (0usize, 0usize);
        if full < 8 {
            return (dp, g);
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
        (dp, g)
    }

    /// # Safety
    /// The CPU must support AVX2 (and so SSSE3); `out` must hold at least
    /// `max_encoded_len(values.len())` bytes and `ctrl_len` be the control length of
    /// `values.len()` values.
    #[target_feature(enable = "avx2")]
    unsafe fn encode_groups(
        values: &[u64],
        out: &mut [MaybeUninit<u8>],
        ctrl_len: usize,
        mut dp: usize,
        mut g: usize,
    ) -> (usize, usize) {
        let full = values.len() / 4;
        let room = out.len() - ctrl_len;
        let base = out.as_mut_ptr().cast::<u8>();
        let zero = _mm256_setzero_si256();
        while g < full && room - dp >= 32 {
            // SAFETY: g < full so values 4g..4g+4 exist; the halves are stored at dp and
            // dp + l0 <= dp + 16, ending by dp + 32 <= room; control byte g < ctrl_len.
            unsafe {
                let v = _mm256_loadu_si256(values.as_ptr().add(4 * g).cast());
                let z = _mm256_movemask_epi8(_mm256_cmpeq_epi8(v, zero)) as u32 as usize;
                // Codes are below 4, so the nibbles below 16 (the mask says so to the compiler).
                let n0 = (CODE_1248[z & 0xFF] as usize
                    | (CODE_1248[(z >> 8) & 0xFF] as usize) << 2)
                    & 0xF;
                let n1 = (CODE_1248[(z >> 16) & 0xFF] as usize
                    | (CODE_1248[(z >> 24) & 0xFF] as usize) << 2)
                    & 0xF;
                let l0 = NIBBLE_LENS_1248[n0] as usize;
                let m = row_pair(&ENCODE_1248, n0, n1);
                let r = _mm256_shuffle_epi8(v, m);
                let d = base.add(ctrl_len + dp);
                _mm_storeu_si128(d.cast(), _mm256_castsi256_si128(r));
                _mm_storeu_si128(d.add(l0).cast(), _mm256_extracti128_si256::<1>(r));
                *base.add(g) = (n0 | (n1 << 4)) as u8;
                dp += l0 + NIBBLE_LENS_1248[n1] as usize;
            }
            g += 1;
        }
        (dp, g)
    }
}

/// U64Coder1234.
pub(crate) mod c1234 {
    #[cfg(target_arch = "x86")]
    use core::arch::x86::*;
    #[cfg(target_arch = "x86_64")]
    use core::arch::x86_64::*;
    use core::mem::MaybeUninit;

    use super::super::ssse3::c1234 as ssse3;
    use crate::error::{DecodeError, EncodeError};
    use crate::stream32::x86::avx2::control_word_of_regs;
    use crate::stream32::x86::ssse3::{control_word, encode_block_regs, encode_group, prefix_lens};
    use crate::stream32::{Classic, Scheme32};
    use crate::stream64::scalar::{decode_with, encode_checking};
    use crate::stream64::{DECODE_1234, S1234};

    /// The decode kernel of this ISA (see the codec's `Kernels`).
    ///
    /// # Safety
    /// The CPU must support AVX2 (and so SSSE3).
    pub(crate) unsafe fn decode(
        input: &[u8],
        out: &mut [MaybeUninit<u64>],
    ) -> Result<usize, DecodeError> {
        // SAFETY: the caller guarantees AVX2 (and SSSE3) (this function's contract);
        // `ctrl` is the control stream of out.len() values.
        decode_with::<S1234>(input, out, |ctrl, data, out| unsafe {
            let (dp, g) = decode_groups(ctrl, data, out);
            let (dp, g) =
                super::super::ssse3::decode_groups::<ssse3::Group>(ctrl, data, out, dp, g);
            super::super::ssse3::decode_groups_copied::<ssse3::Group>(ctrl, data, out, dp, g)
        })
    }

    /// # Safety
    /// The CPU must support AVX2 (and so SSSE3); `ctrl` must hold the control bytes of
    /// `out.len()` values (as `split_control` returns them); the function keeps every load
    /// inside `data` and every store inside `out` itself.
    #[target_feature(enable = "avx2")]
    unsafe fn decode_groups(
        ctrl: &[u8],
        data: &[u8],
        out: &mut [MaybeUninit<u64>],
    ) -> (usize, usize) {
        let full = out.len() / 4;
        let src = data.as_ptr();
        let dst = out.as_mut_ptr().cast::<u64>();
        let (mut dp, mut g) = (0usize, 0usize);
        // Blocks of 8 groups as the C reference's u32 loop: the data offset advanced by
        // the length table, one bound check a block (128 bytes left: a group takes at most
        // 16 bytes).
        while g + 8 <= full && data.len() - dp >= 128 {
            // SAFETY: g + 8 <= full <= ctrl.len().
            let cw = unsafe { control_word(ctrl, g) };
            for k in 0..8 {
                let c = (cw >> (8 * k)) as u8 as usize;
                // SAFETY: the block's groups before this one took at most 112 bytes, so the
                // 16-byte load ends inside the 128 bytes left at the block's start; group
                // g + k < full writes 4 values inside out; the table row is 32 aligned bytes.
                unsafe {
                    let v = _mm256_broadcastsi128_si256(_mm_loadu_si128(src.add(dp).cast()));
                    let m = _mm256_load_si256(DECODE_1234[c].0.as_ptr().cast());
                    _mm256_storeu_si256(dst.add(4 * (g + k)).cast(), _mm256_shuffle_epi8(v, m));
                }
                dp += Classic::CTRL_LENS[c] as usize;
            }
            g += 8;
        }
        while g < full && data.len() - dp >= 16 {
            let c = ctrl[g] as usize;
            // SAFETY: dp + 16 <= data.len() (loop condition); g < full so values 4g..4g+4
            // are inside out; the table row is 32 aligned bytes.
            unsafe {
                let v = _mm256_broadcastsi128_si256(_mm_loadu_si128(src.add(dp).cast()));
                let m = _mm256_load_si256(DECODE_1234[c].0.as_ptr().cast());
                _mm256_storeu_si256(dst.add(4 * g).cast(), _mm256_shuffle_epi8(v, m));
            }
            dp += Classic::CTRL_LENS[c] as usize;
            g += 1;
        }
        (dp, g)
    }

    /// The encode kernel of this ISA (see the codec's `Kernels`).
    ///
    /// # Safety
    /// The CPU must support AVX2 (and so SSSE3).
    pub(crate) unsafe fn encode(
        values: &[u64],
        out: &mut [MaybeUninit<u8>],
    ) -> Result<usize, EncodeError> {
        // SAFETY: the caller guarantees AVX2 (this function's contract); `encode_checking`
        // has checked that `out` holds `max_encoded_len(n)` bytes. The loops pack the low
        // halves of the values only, so a value of 2^32 or more (refused after them) cannot
        // make them write more than 4 bytes a value.
        encode_checking::<S1234>(values, out, |values, out, ctrl_len| unsafe {
            let (dp, g, seen) = encode_blocks(values, out, ctrl_len);
            let examined = 4 * g;
            let (dp, g) = encode_groups(values, out, ctrl_len, dp, g);
            let (dp, g) = ssse3::encode_groups(values, out, ctrl_len, dp, g);
            (dp, g, examined, seen)
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
    /// together for the range check. Stops where a block's last store would pass `out`;
    /// returns `(dp, g, OR of the values of the groups encoded)`.
    ///
    /// # Safety
    /// The CPU must support AVX2 (and so SSSE3); `out` must hold at least
    /// `max_encoded_len(values.len())` bytes and `ctrl_len` be the control length of
    /// `values.len()` values.
    #[target_feature(enable = "avx2")]
    unsafe fn encode_blocks(
        values: &[u64],
        out: &mut [MaybeUninit<u8>],
        ctrl_len: usize,
    ) -> (usize, usize, u64) {
        let full = values.len() / 4;
        let room = out.len() - ctrl_len;
        let base = out.as_mut_ptr().cast::<u8>();
        let mut high = _mm256_setzero_si256();
        let (mut dp, mut g) = (0usize, 0usize);
        if full < 8 {
            return (dp, g, 0);
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
        (dp, g, seen)
    }

    /// # Safety
    /// The CPU must support AVX2 (and so SSSE3); `out` must hold at least
    /// `max_encoded_len(values.len())` bytes and `ctrl_len` be the control length of
    /// `values.len()` values.
    #[target_feature(enable = "avx2")]
    unsafe fn encode_groups(
        values: &[u64],
        out: &mut [MaybeUninit<u8>],
        ctrl_len: usize,
        mut dp: usize,
        mut g: usize,
    ) -> (usize, usize) {
        let full = values.len() / 4;
        let room = out.len() - ctrl_len;
        let base = out.as_mut_ptr().cast::<u8>();
        let low_dwords = _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6);
        while g < full && room - dp >= 16 {
            // SAFETY: g < full so values 4g..4g+4 exist; dp + 16 <= room keeps the store in
            // `out`; control byte g < ctrl_len.
            unsafe {
                let v = _mm256_loadu_si256(values.as_ptr().add(4 * g).cast());
                let low = _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(v, low_dwords));
                let (c, len) = encode_group::<Classic>(low, base.add(ctrl_len + dp));
                *base.add(g) = c;
                dp += len;
            }
            g += 1;
        }
        (dp, g)
    }
}
