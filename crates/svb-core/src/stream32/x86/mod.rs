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

pub(crate) mod avx2;
pub(crate) mod avx2_blocks16;
pub(crate) mod ssse3;
