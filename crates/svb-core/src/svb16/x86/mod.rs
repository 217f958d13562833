//! x86 kernels of Svb16.

macro_rules! encode_entries {
    ($isa:literal, $feature:literal) => {
        /// The encode kernel of this ISA (see the codec's `Kernels`).
        ///
        /// # Safety
        #[doc = concat!("The CPU must support ", $isa, ".")]
        pub(crate) unsafe fn encode(
            values: &[u16], out: &mut [MaybeUninit<u8>],
        ) -> $crate::EncodeResult {
            // SAFETY: the ISA (this function's contract); `encode_with` has checked that
            // `out` holds `max_encoded_len(n)` bytes.
            encode_with(values, out, |values, out, klen| unsafe { encode_all(values, out, klen) })
        }

        /// # Safety
        #[doc = concat!("The CPU must support ", $isa, ".")]
        /// `out` must hold at least `max_encoded_len(values.len())` bytes and `klen` be the
        /// key length of `values.len()` values.
        #[target_feature(enable = $feature)]
        unsafe fn encode_all(
            values: &[u16], out: &mut [MaybeUninit<u8>], klen: usize,
        ) -> (usize, usize) {
            let (dp, g) = encode_blocks!(key_word_of, values, out, klen);
            // SAFETY: the ISA includes SSSE3; `out` holds `max_encoded_len(n)` bytes
            // (caller); the loop checks its bounds.
            unsafe { crate::group_encode::encode_groups::<Group>(values, out, klen, dp, g) }
        }
    };
}

/// The `decode_split` of an x86 ISA (what `decode_entries!` calls): SSSE3's block loop,
/// single-group loop and tail (`#[inline(always)]`, with no features of their own) compiled
/// as one function with this ISA's features, so AVX2's copy is VEX-encoded with no calls
/// between the loops (measured here, SVB-ZD's u32 loop split in two such functions took 9%
/// longer at n = 128).
macro_rules! decode_split {
    ($isa:literal, $feature:literal) => {
        /// Decodes `out.len()` values from their key bytes `keys` (at least
        /// `out.len().div_ceil(8)`) and `data`, each group through `F` from the running value
        /// `acc`: the block loop, the single-group loop, then the tail. Returns the data bytes
        /// consumed.
        ///
        /// # Safety
        #[doc = concat!("The CPU must support ", $isa, ".")]
        #[target_feature(enable = $feature)]
        unsafe fn decode_split<F: Finish16, O: Lane16>(
            keys: &[u8], data: &[u8], acc: u16, out: &mut [MaybeUninit<O>],
        ) -> $crate::DecodeResult {
            use crate::svb16::x86::ssse3::{decode_blocks, decode_groups, finish_decode};
            debug_assert!(keys.len() >= out.len().div_ceil(8));
            // SAFETY: the ISA (this function's contract) includes SSSE3; each loop starts
            // where the one before it stopped and checks its own bounds.
            unsafe {
                let (dp, g, carry) = decode_blocks::<F, O>(keys, data, out, F::sse_carry(acc));
                let (dp, g, carry) = decode_groups::<F, O>(keys, data, out, dp, g, carry);
                finish_decode::<F, O>(keys, data, dp, g, carry, out)
            }
        }
    };
}

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
