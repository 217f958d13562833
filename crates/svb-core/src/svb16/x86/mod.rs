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
        if full >= 16 && room >= 128 {
            // SAFETY: 16 <= full, so values 0..64 exist.
            let mut kw = unsafe { $key_word(values.as_ptr()) };
            while g + 16 <= full && room - dp >= 128 {
                // SAFETY: g + 16 <= full: the next block's 64 values exist; this block's 8
                // key bytes g..g+8 <= klen; its data (at most 128 bytes) fits the
                // room - dp >= 128 bytes left.
                unsafe {
                    let next = $key_word(values.as_ptr().add(8 * (g + 8)));
                    base.add(g).cast::<u64>().write_unaligned(kw.to_le());
                    dp += encode_block(values.as_ptr().add(8 * g), kw, base.add(klen + dp));
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
