//! x86 kernels of the u32 codecs.

/// The pipelined block loop of the encoders: the control word of block `i+1` is computed
/// (by `$control_word`, 32 values -> 8 control bytes) while block `i` is shuffled out.
/// Evaluates to `(dp, g)`, where single-group encoding continues. Used inside `unsafe`.
macro_rules! encode_blocks {
    ($control_word:expr, $values:expr, $out:expr, $ctrl_len:expr) => {{
        let values: &[u32] = $values;
        let out: &mut [core::mem::MaybeUninit<u8>] = $out;
        let ctrl_len: usize = $ctrl_len;
        let full = values.len() / 4;
        let room = out.len() - ctrl_len;
        let base = out.as_mut_ptr().cast::<u8>();
        let (mut dp, mut g) = (0usize, 0usize);
        if full >= 8 {
            // SAFETY: 8 <= full, so values 0..32 exist.
            let mut cw = unsafe { $control_word(values.as_ptr()) };
            while g + 8 <= full {
                let sums = prefix_lens::<S>(cw);
                // The last group's 16-byte store must end inside `out`.
                if room - dp < ((sums << 8) >> 56) as usize + 16 {
                    break;
                }
                // SAFETY: the next block's 32 values exist when g + 16 <= full; this block's
                // 8 control bytes g..g+8 <= ctrl_len; every store of the block ends by the
                // last group's start + 16 <= room - dp (checked above).
                unsafe {
                    let next = if g + 16 <= full {
                        $control_word(values.as_ptr().add(4 * (g + 8)))
                    } else {
                        0
                    };
                    base.add(g).cast::<u64>().write_unaligned(cw.to_le());
                    dp += encode_block::<S>(
                        values.as_ptr().add(4 * g),
                        cw,
                        sums,
                        base.add(ctrl_len + dp),
                    );
                    cw = next;
                }
                g += 8;
            }
        }
        (dp, g)
    }};
}

/// An ISA's decode entries: `decode` (the codec's kernel), `decode_finish` (with a step
/// `F`), and the one function compiled with the ISA's features that holds SSSE3's block loop
/// and tail (`#[inline(always)]`, with no features of their own: AVX2's copy is VEX-encoded,
/// with no calls between the loops).
macro_rules! decode_entries {
    ($isa:literal, $feature:literal) => {
        /// The decode kernel of this ISA (see the codec's `Kernels`).
        ///
        /// # Safety
        #[doc = concat!("The CPU must support ", $isa, ".")]
        #[target_feature(enable = $feature)]
        pub(crate) unsafe fn decode<S: Scheme32>(
            input: &[u8],
            out: &mut [MaybeUninit<u32>],
        ) -> Result<usize, DecodeError> {
            // SAFETY: the ISA (this function's contract).
            unsafe { decode_finish::<S, crate::stream32::finish::Plain>(input, 0, out) }
                .map(|(used, _)| used)
        }

        /// The decode kernel with `F` after the unpack of each group, from the running value
        /// `acc`; returns the bytes consumed and the running value after the last value.
        ///
        /// # Safety
        #[doc = concat!("The CPU must support ", $isa, ".")]
        #[target_feature(enable = $feature)]
        #[inline]
        pub(crate) unsafe fn decode_finish<S: Scheme32, F: Finish>(
            input: &[u8],
            acc: u32,
            out: &mut [MaybeUninit<F::Out>],
        ) -> Result<(usize, u32), DecodeError> {
            let (ctrl, data) = split_control(input, out.len())?;
            // SAFETY: the ISA (this function's contract).
            unsafe { decode_all::<S, F>(ctrl, data, acc, out) }
        }

        /// The block loop and the tail compiled as one function with this ISA's features.
        ///
        /// # Safety
        #[doc = concat!("The CPU must support ", $isa, ".")]
        /// `ctrl` must hold the control bytes of `out.len()` values (as `split_control`
        /// returns them); the loops keep every load inside `data` and every store inside
        /// `out` themselves.
        #[target_feature(enable = $feature)]
        #[inline]
        unsafe fn decode_all<S: Scheme32, F: Finish>(
            ctrl: &[u8],
            data: &[u8],
            acc: u32,
            out: &mut [MaybeUninit<F::Out>],
        ) -> Result<(usize, u32), DecodeError> {
            use crate::stream32::x86::ssse3::{carried, decode_blocks};
            // SAFETY: the ISA (caller) includes SSSE3; the tail starts where the block loop
            // stopped.
            unsafe {
                let carry = _mm_set1_epi32(acc as i32);
                let (dp, g, carry) = decode_blocks::<S, F>(ctrl, data, out, 0, 0, carry);
                if 4 * g == out.len() {
                    return Ok((ctrl.len() + dp, carried(carry)));
                }
                decode_rest::<S, F>(ctrl, data, dp, g, carry, out)
            }
        }

        /// What the block loop left: the groups and the partial group (a function of its own,
        /// so that the block loop's callers save no more registers and reserve no more stack
        /// than the loop needs).
        ///
        /// # Safety
        #[doc = concat!("The CPU must support ", $isa, ".")]
        /// `ctrl` must hold the control bytes of `out.len()` values; `(dp, g, carry)` where the
        /// block loop stopped.
        #[target_feature(enable = $feature)]
        #[inline(never)]
        unsafe fn decode_rest<S: Scheme32, F: Finish>(
            ctrl: &[u8],
            data: &[u8],
            dp: usize,
            g: usize,
            carry: __m128i,
            out: &mut [MaybeUninit<F::Out>],
        ) -> Result<(usize, u32), DecodeError> {
            use crate::stream32::x86::ssse3::{decode_blocks, decode_groups, finish_decode_with};
            // SAFETY: the ISA (caller) includes SSSE3; the tail starts where the block loop
            // stopped; on the copy, the block loop then the single-group loop keep their
            // loads inside the copy they are given.
            unsafe {
                finish_decode_with::<S, F>(
                    ctrl,
                    data,
                    dp,
                    g,
                    carry,
                    out,
                    8,
                    |buf, g, carry, out| {
                        let (dp, g, carry) = decode_blocks::<S, F>(ctrl, buf, out, 0, g, carry);
                        decode_groups::<S, F>(ctrl, buf, out, dp, g, carry)
                    },
                )
            }
        }
    };
}

/// An ISA's encode entries: `encode` (the codec's kernel) and the one function compiled with
/// the ISA's features that runs the pipelined block loop (with the module's own
/// `control_word_of`) and the single-group loop.
macro_rules! encode_entries {
    ($isa:literal, $feature:literal) => {
        /// The encode kernel of this ISA (see the codec's `Kernels`).
        ///
        /// # Safety
        #[doc = concat!("The CPU must support ", $isa, ".")]
        pub(crate) unsafe fn encode<S: Scheme32>(
            values: &[u32],
            out: &mut [MaybeUninit<u8>],
        ) -> Result<usize, EncodeError> {
            // SAFETY: the ISA (this function's contract); `encode_with` has checked that
            // `out` holds `max_encoded_len(n)` bytes.
            encode_with::<S>(values, out, |values, out, ctrl_len| unsafe {
                encode_all::<S>(values, out, ctrl_len)
            })
        }

        /// # Safety
        #[doc = concat!("The CPU must support ", $isa, ".")]
        /// `out` must hold at least `max_encoded_len(values.len())` bytes and `ctrl_len` be
        /// the control length of `values.len()` values.
        #[target_feature(enable = $feature)]
        unsafe fn encode_all<S: Scheme32>(
            values: &[u32],
            out: &mut [MaybeUninit<u8>],
            ctrl_len: usize,
        ) -> (usize, usize) {
            let (dp, g) = encode_blocks!(control_word_of::<S>, values, out, ctrl_len);
            // SAFETY: the ISA includes SSSE3; `out` holds `max_encoded_len(n)` bytes
            // (caller); the loop checks its bounds.
            unsafe { crate::group_encode::encode_groups::<Group<S>>(values, out, ctrl_len, dp, g) }
        }
    };
}

pub(crate) mod avx2;
pub(crate) mod avx2_blocks16;
pub(crate) mod ssse3;
