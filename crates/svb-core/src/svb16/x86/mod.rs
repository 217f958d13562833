//! x86 kernels of Svb16.

/// The pipelined block loop of the encoders: the key word of block `i+1` (64 values -> 8
/// key bytes, by `$key_word`) is computed while block `i` is shuffled out. Evaluates to
/// `(dp, g)`, where single-group encoding continues.
macro_rules! encode_blocks {
    ($key_word:expr, $values:expr, $out:expr, $klen:expr) => {{
        let values: &[u16] = $values;
        let out: &mut [core::mem::MaybeUninit<u8>] = $out;
        let klen: usize = $klen;
        let full = values.len() / 8;
        let room = out.len() - klen;
        let base = out.as_mut_ptr().cast::<u8>();
        let (mut dp, mut g) = (0usize, 0usize);
        if full >= 8 {
            // SAFETY: 8 <= full, so values 0..64 exist.
            let mut kw = unsafe { $key_word(values.as_ptr()) };
            while g + 8 <= full {
                let sums = prefix_lens(kw);
                // The last group's 16-byte store must end inside `out`.
                if room - dp < ((sums << 8) >> 56) as usize + 16 {
                    break;
                }
                // SAFETY: the next block's 64 values exist when g + 16 <= full; this block's
                // 8 key bytes g..g+8 <= klen; every store of the block ends by the last
                // group's start + 16 <= room - dp (checked above).
                unsafe {
                    let next = if g + 16 <= full {
                        $key_word(values.as_ptr().add(8 * (g + 8)))
                    } else {
                        0
                    };
                    base.add(g).cast::<u64>().write_unaligned(kw.to_le());
                    dp += encode_block(values.as_ptr().add(8 * g), kw, sums, base.add(klen + dp));
                    kw = next;
                }
                g += 8;
            }
        }
        (dp, g)
    }};
}

pub(crate) mod avx2;
pub(crate) mod ssse3;
