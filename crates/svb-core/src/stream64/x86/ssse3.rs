//! SSSE3 kernels of the u64 codecs.

use core::mem::MaybeUninit;

/// One group (four u64 values) of a codec's SSSE3 decode, run by [`decode_groups`].
pub(crate) trait Group {
    /// Data bytes from a group's start that its loads may touch.
    const WINDOW: usize;

    /// Decodes the four values of control byte `c` from `src` to `dst`; returns the data
    /// bytes they used.
    ///
    /// # Safety
    /// The CPU must support SSSE3; `WINDOW` bytes are readable at `src` and four values
    /// writable at `dst`.
    unsafe fn decode(src: *const u8, c: u8, dst: *mut u64) -> usize;
}

/// Decodes whole groups from group `g` while their loads stay inside `data`, one
/// [`Group::decode`] each.
///
/// # Safety
/// The CPU must support SSSE3; `ctrl` must hold the control bytes of `out.len()` values (as
/// `split_control` returns them); the function keeps every load inside `data` and every
/// store inside `out` itself. `(dp, g)` must be a position the block loop returned (or `(0,
/// 0)`).
#[target_feature(enable = "ssse3")]
#[inline]
pub(crate) unsafe fn decode_groups<G: Group>(
    ctrl: &[u8],
    data: &[u8],
    out: &mut [MaybeUninit<u64>],
    mut dp: usize,
    mut g: usize,
) -> (usize, usize) {
    let full = out.len() / 4;
    let src = data.as_ptr();
    let dst = out.as_mut_ptr().cast::<u64>();
    while g < full && data.len() - dp >= G::WINDOW {
        // SAFETY: SSSE3 (caller); data.len() - dp >= WINDOW (loop condition); g < full so
        // values 4g..4g+4 are inside out.
        dp += unsafe { G::decode(src.add(dp), ctrl[g], dst.add(4 * g)) };
        g += 1;
    }
    (dp, g)
}

/// Decodes blocks of `B` groups from group 0, one [`Group::decode`] each, with one bound
/// check a block: `B * WINDOW` data bytes left (each group takes at most `WINDOW` bytes and
/// loads at most `WINDOW` from its start), the data offset advanced by what each group used,
/// as the C reference's u32 loop does. Returns `(dp, g)`.
///
/// # Safety
/// The CPU must support SSSE3; `ctrl` must hold the control bytes of `out.len()` values (as
/// `split_control` returns them); the function keeps every load inside `data` and every
/// store inside `out` itself.
#[target_feature(enable = "ssse3")]
#[inline]
pub(crate) unsafe fn decode_blocks<G: Group, const B: usize>(
    ctrl: &[u8],
    data: &[u8],
    out: &mut [MaybeUninit<u64>],
) -> (usize, usize) {
    let full = out.len() / 4;
    let src = data.as_ptr();
    let dst = out.as_mut_ptr().cast::<u64>();
    let (mut dp, mut g) = (0usize, 0usize);
    while g + B <= full && data.len() - dp >= B * G::WINDOW {
        for &c in &ctrl[g..g + B] {
            // SAFETY: SSSE3 (caller); the block's groups before this one used at most
            // WINDOW bytes each, so this group's WINDOW bytes lie inside the B * WINDOW left
            // at the block's start; g < full so values 4g..4g+4 are inside out.
            dp += unsafe { G::decode(src.add(dp), c, dst.add(4 * g)) };
            g += 1;
        }
    }
    (dp, g)
}

/// The data bytes [`decode_groups_copied`] copies: the group loop stops with fewer than
/// `Group::WINDOW` (at most 32) bytes left, or with only the partial group left.
const TAIL: usize = 32;

/// Decodes whole groups from group `g` (data at `data[dp..]`, fewer than [`TAIL`] bytes left
/// or no whole group) from a zero-padded copy of the data left, so the last groups take the
/// SIMD loop instead of the scalar tail. Returns where it stopped, or `(dp, g)` unchanged
/// when the groups need more bytes than the data holds (the scalar tail then rewrites them
/// and names the error).
///
/// # Safety
/// The CPU must support SSSE3; `ctrl` must hold the control bytes of `out.len()` values (as
/// `split_control` returns them); `(dp, g)` must be where the group loop stopped.
#[target_feature(enable = "ssse3")]
#[inline]
pub(crate) unsafe fn decode_groups_copied<G: Group>(
    ctrl: &[u8],
    data: &[u8],
    out: &mut [MaybeUninit<u64>],
    dp: usize,
    g: usize,
) -> (usize, usize) {
    if g == out.len() / 4 {
        return (dp, g);
    }
    let take = (data.len() - dp).min(TAIL);
    // Room past the copy for a group's loads (`G::WINDOW` <= 32 bytes) from inside it.
    let mut buf = [0u8; TAIL + 32];
    buf[..take].copy_from_slice(&data[dp..dp + take]);
    // SAFETY: SSSE3 (caller); the loop bounds its loads by `buf` and its stores by `out`.
    let (used, end) = unsafe { decode_groups::<G>(ctrl, &buf, out, 0, g) };
    if used <= take {
        (dp + used, end)
    } else {
        (dp, g)
    }
}

/// U64Coder1248: one `pshufb` per control nibble (two u64 values).
pub(crate) mod c1248 {
    #[cfg(target_arch = "x86")]
    use core::arch::x86::*;
    #[cfg(target_arch = "x86_64")]
    use core::arch::x86_64::*;
    use core::mem::MaybeUninit;

    use crate::error::{DecodeError, EncodeError};
    use crate::stream64::scalar::{decode_with, encode_with};
    use crate::stream64::{CODE_1248, DECODE_1248, ENCODE_1248, NIBBLE_LENS_1248, S1248};

    /// The decode kernel of this ISA (see the codec's `Kernels`).
    ///
    /// # Safety
    /// The CPU must support SSSE3.
    pub(crate) unsafe fn decode(
        input: &[u8],
        out: &mut [MaybeUninit<u64>],
    ) -> Result<usize, DecodeError> {
        // SAFETY: the caller guarantees SSSE3 (this function's contract);
        // `ctrl` is the control stream of out.len() values.
        decode_with::<S1248>(input, out, |ctrl, data, out| unsafe {
            let (dp, g) = super::decode_blocks::<Group, 4>(ctrl, data, out);
            let (dp, g) = super::decode_groups::<Group>(ctrl, data, out, dp, g);
            super::decode_groups_copied::<Group>(ctrl, data, out, dp, g)
        })
    }

    /// A group of U64Coder1248: one `pshufb` per control nibble (two u64 values).
    pub(crate) struct Group;

    impl super::Group for Group {
        // A group uses at most 32 data bytes; its second load starts at most 16 in.
        const WINDOW: usize = 32;

        #[inline(always)]
        unsafe fn decode(src: *const u8, c: u8, dst: *mut u64) -> usize {
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

    /// The encode kernel of this ISA (see the codec's `Kernels`).
    ///
    /// # Safety
    /// The CPU must support SSSE3.
    pub(crate) unsafe fn encode(
        values: &[u64],
        out: &mut [MaybeUninit<u8>],
    ) -> Result<usize, EncodeError> {
        // SAFETY: the caller guarantees SSSE3 (this function's contract); `encode_with`
        // has checked that `out` holds `max_encoded_len(n)` bytes.
        encode_with::<S1248>(values, out, |values, out, ctrl_len| unsafe {
            encode_groups(values, out, ctrl_len, 0, 0)
        })
    }

    /// Control nibble and data bytes of the two u64 lanes of `v`.
    #[target_feature(enable = "ssse3")]
    #[inline]
    pub(crate) fn nibble(v: __m128i) -> usize {
        let z = _mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_setzero_si128())) as usize;
        CODE_1248[z & 0xFF] as usize | (CODE_1248[(z >> 8) & 0xFF] as usize) << 2
    }

    /// Encodes whole groups from group `g` while the stores fit in `out`.
    ///
    /// # Safety
    /// The CPU must support SSSE3; `out` must hold at least `max_encoded_len(values.len())`
    /// bytes and `ctrl_len` be the control length of `values.len()` values. `(dp, g)` must be a
    /// position the block loop returned (or `(0, 0)`).
    #[target_feature(enable = "ssse3")]
    #[inline]
    pub(crate) unsafe fn encode_groups(
        values: &[u64],
        out: &mut [MaybeUninit<u8>],
        ctrl_len: usize,
        mut dp: usize,
        mut g: usize,
    ) -> (usize, usize) {
        let full = values.len() / 4;
        let room = out.len() - ctrl_len;
        let base = out.as_mut_ptr().cast::<u8>();
        while g < full && room - dp >= 32 {
            // SAFETY: g < full so values 4g..4g+4 exist; the two stores (at dp and at
            // dp + l0 <= dp + 16) end by dp + 32 <= room; control byte g < ctrl_len.
            unsafe {
                let v0 = _mm_loadu_si128(values.as_ptr().add(4 * g).cast());
                let v1 = _mm_loadu_si128(values.as_ptr().add(4 * g + 2).cast());
                let (n0, n1) = (nibble(v0), nibble(v1));
                let l0 = NIBBLE_LENS_1248[n0] as usize;
                let d = base.add(ctrl_len + dp);
                _mm_storeu_si128(
                    d.cast(),
                    _mm_shuffle_epi8(v0, _mm_load_si128(ENCODE_1248[n0].0.as_ptr().cast())),
                );
                _mm_storeu_si128(
                    d.add(l0).cast(),
                    _mm_shuffle_epi8(v1, _mm_load_si128(ENCODE_1248[n1].0.as_ptr().cast())),
                );
                *base.add(g) = (n0 | (n1 << 4)) as u8;
                dp += l0 + NIBBLE_LENS_1248[n1] as usize;
            }
            g += 1;
        }
        (dp, g)
    }
}

/// U64Coder1234: one 16-byte load and two `pshufb` per control byte.
pub(crate) mod c1234 {
    #[cfg(target_arch = "x86")]
    use core::arch::x86::*;
    #[cfg(target_arch = "x86_64")]
    use core::arch::x86_64::*;
    use core::mem::MaybeUninit;

    use crate::error::{DecodeError, EncodeError};
    use crate::stream32::x86::ssse3::encode_group;
    use crate::stream32::{Classic, Scheme32};
    use crate::stream64::scalar::{decode_with, encode_with};
    use crate::stream64::{DECODE_1234, S1234};

    /// The decode kernel of this ISA (see the codec's `Kernels`).
    ///
    /// # Safety
    /// The CPU must support SSSE3.
    pub(crate) unsafe fn decode(
        input: &[u8],
        out: &mut [MaybeUninit<u64>],
    ) -> Result<usize, DecodeError> {
        // SAFETY: the caller guarantees SSSE3 (this function's contract);
        // `ctrl` is the control stream of out.len() values.
        decode_with::<S1234>(input, out, |ctrl, data, out| unsafe {
            let (dp, g) = super::decode_blocks::<Group, 8>(ctrl, data, out);
            let (dp, g) = super::decode_groups::<Group>(ctrl, data, out, dp, g);
            super::decode_groups_copied::<Group>(ctrl, data, out, dp, g)
        })
    }

    /// A group of U64Coder1234: one load and two `pshufb` per control byte.
    pub(crate) struct Group;

    impl super::Group for Group {
        // A group uses at most 16 data bytes, in one load.
        const WINDOW: usize = 16;

        #[inline(always)]
        unsafe fn decode(src: *const u8, c: u8, dst: *mut u64) -> usize {
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

    /// The encode kernel of this ISA (see the codec's `Kernels`).
    ///
    /// # Safety
    /// The CPU must support SSSE3.
    pub(crate) unsafe fn encode(
        values: &[u64],
        out: &mut [MaybeUninit<u8>],
    ) -> Result<usize, EncodeError> {
        // SAFETY: the caller guarantees SSSE3 (this function's contract); `encode_with`
        // has checked that `out` holds `max_encoded_len(n)` bytes and every value is
        // below 2^32.
        encode_with::<S1234>(values, out, |values, out, ctrl_len| unsafe {
            encode_groups(values, out, ctrl_len, 0, 0)
        })
    }

    /// Encodes whole groups from group `g` while a 16-byte store fits in `out`.
    ///
    /// # Safety
    /// The CPU must support SSSE3; `out` must hold at least `max_encoded_len(values.len())`
    /// bytes and `ctrl_len` be the control length of `values.len()` values. `(dp, g)` must be a
    /// position the block loop returned (or `(0, 0)`).
    #[target_feature(enable = "ssse3")]
    #[inline]
    pub(crate) unsafe fn encode_groups(
        values: &[u64],
        out: &mut [MaybeUninit<u8>],
        ctrl_len: usize,
        mut dp: usize,
        mut g: usize,
    ) -> (usize, usize) {
        let full = values.len() / 4;
        let room = out.len() - ctrl_len;
        let base = out.as_mut_ptr().cast::<u8>();
        while g < full && room - dp >= 16 {
            // SAFETY: g < full so values 4g..4g+4 exist; dp + 16 <= room keeps the store in
            // `out`; control byte g < ctrl_len.
            unsafe {
                let v0 = _mm_castsi128_ps(_mm_loadu_si128(values.as_ptr().add(4 * g).cast()));
                let v1 = _mm_castsi128_ps(_mm_loadu_si128(values.as_ptr().add(4 * g + 2).cast()));
                // The low 32 bits of the four values (the high halves are zero).
                let low = _mm_castps_si128(_mm_shuffle_ps::<0b10_00_10_00>(v0, v1));
                let (c, len) = encode_group::<Classic>(low, base.add(ctrl_len + dp));
                *base.add(g) = c;
                dp += len;
            }
            g += 1;
        }
        (dp, g)
    }
}
