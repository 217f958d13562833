//! x86 kernels of the u32 codecs.

#[cfg(target_arch = "x86")]
use core::arch::x86::*;
#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;
use core::mem::MaybeUninit;

use crate::stream32::source::Source;
use crate::stream32::Scheme32;

/// The encoders' loop, from group `g` with `dp` data bytes written: steps of 4 groups, each
/// `step` (the ISA's: the codes of 16 values and their 4 control bytes from one control
/// computation) then [`ssse3::store_groups`] (4 shuffles, the data pointer advanced by the
/// length table), as lemire's C loop runs steps of 2 groups. Returns `(dp, g)` where
/// single-group encoding continues.
///
/// A block loop of 8 groups that made the next block's control word while this one was
/// shuffled, and each group's start from prefix sums of the lengths, took 15% more
/// instructions and ran slower at every size (its shifts and masks to take each start and
/// row out of two words cost more than a length-table add).
///
/// # Safety
/// The CPU must support SSSE3 and `step`'s ISA; `out` must hold at least
/// `max_encoded_len(values.len())` bytes (the control bytes and 4 a value), `ctrl_len` be the
/// control length of `values.len()` values, and `dp <= 16 * g` (no group takes more than 16
/// bytes); `step` must read at most the 16 values at its pointer (and the one before them for
/// a source that reads it: then `g >= 1`).
#[inline(always)]
pub(crate) unsafe fn encode_steps<S: Scheme32>(
    values: &[u32], out: &mut [MaybeUninit<u8>], ctrl_len: usize, mut dp: usize, mut g: usize,
    step: impl Fn(*const u32) -> ([__m128i; 4], u32),
) -> (usize, usize) {
    let full = values.len() / 4;
    let base = out.as_mut_ptr().cast::<u8>();
    while g + 4 <= full {
        // SAFETY: g + 4 <= full, so the step's 16 values exist (and the one before them when
        // the source reads it: g >= 1, the caller). Its 4 control bytes g..g+4 <= full <=
        // ctrl_len. Every group so far took at most 16 bytes (dp <= 16 g), so this step's
        // last 16-byte store ends by dp + 64 <= 16 (g + 4) <= 4 n, inside the 4 n bytes past
        // the control bytes that `out` holds (the caller).
        unsafe {
            let (v, keys) = step(values.as_ptr().add(4 * g));
            base.add(g).cast::<u32>().write_unaligned(keys.to_le());
            dp = ssse3::store_groups::<S>(v, keys, base.add(ctrl_len), dp);
        }
        g += 4;
    }
    (dp, g)
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
            input: &[u8], out: &mut [MaybeUninit<u32>],
        ) -> $crate::DecodeResult {
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
            input: &[u8], acc: u32, out: &mut [MaybeUninit<F::Out>],
        ) -> $crate::DecodeResult<(usize, u32)> {
            let (ctrl, data) = split_control(input, out.len())?;
            // SAFETY: the ISA (this function's contract).
            unsafe { decode_all::<S, F>(ctrl, data, acc, out) }
        }

        /// As [`decode_finish`] with a [`Finish::NONZERO`] step: the block loop also looks
        /// for zero values, the tail does not (see [`ZeroCheck`]).
        ///
        /// [`Finish::NONZERO`]: crate::stream32::finish::Finish::NONZERO
        /// [`ZeroCheck`]: crate::stream32::finish::ZeroCheck
        ///
        /// # Safety
        #[doc = concat!("The CPU must support ", $isa, ".")]
        #[target_feature(enable = $feature)]
        #[inline]
        pub(crate) unsafe fn decode_nonzero<S: Scheme32, F: Finish>(
            input: &[u8], acc: u32, out: &mut [MaybeUninit<F::Out>],
        ) -> Result<crate::stream32::finish::ZeroCheck, DecodeError> {
            use crate::stream32::x86::ssse3::{decode_blocks, Found};
            let (ctrl, data) = split_control(input, out.len())?;
            // SAFETY: the ISA (this function's contract) includes SSSE3; the tail starts
            // where the block loop stopped.
            unsafe {
                let mut found = Found::new();
                let carry = _mm_set1_epi32(acc as i32);
                let (dp, g, carry) =
                    decode_blocks::<S, F>(ctrl, data, out, 0, 0, carry, &mut found);
                let used = if 4 * g == out.len() {
                    ctrl.len() + dp
                } else {
                    decode_rest::<S, F>(ctrl, data, dp, g, carry, out)?.0
                };
                Ok(crate::stream32::finish::ZeroCheck {
                    used,
                    checked: 4 * g,
                    zero: _mm_movemask_epi8(found.zeros) != 0,
                    long: found.long & 0x5555_5555_5555_5555 != 0,
                })
            }
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
            ctrl: &[u8], data: &[u8], acc: u32, out: &mut [MaybeUninit<F::Out>],
        ) -> $crate::DecodeResult<(usize, u32)> {
            use crate::stream32::x86::ssse3::{carried, decode_blocks, Found};
            // SAFETY: the ISA (caller) includes SSSE3; the tail starts where the block loop
            // stopped.
            unsafe {
                let carry = _mm_set1_epi32(acc as i32);
                let (dp, g, carry) =
                    decode_blocks::<S, F>(ctrl, data, out, 0, 0, carry, &mut Found::new());
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
            ctrl: &[u8], data: &[u8], dp: usize, g: usize, carry: __m128i,
            out: &mut [MaybeUninit<F::Out>],
        ) -> $crate::DecodeResult<(usize, u32)> {
            // SAFETY: the ISA (caller) includes SSSE3; the tail starts where the block loop
            // stopped.
            unsafe {
                crate::stream32::x86::ssse3::finish_decode::<S, F>(ctrl, data, dp, g, carry, out)
            }
        }
    };
}

/// An ISA's encode entries: `encode` (the plain codecs' kernel), `encode_source` (the codes
/// of any [`Source`](crate::stream32::source::Source)) and the one function compiled with
/// the ISA's features that runs the step loop (with the module's own `step`) and the
/// single-group loop.
macro_rules! encode_entries {
    ($isa:literal, $feature:literal) => {
        /// The encode kernel of this ISA (see the codec's `Kernels`).
        ///
        /// # Safety
        #[doc = concat!("The CPU must support ", $isa, ".")]
        #[target_feature(enable = $feature)]
        pub(crate) unsafe fn encode<S: Scheme32>(
            values: &[u32], out: &mut [MaybeUninit<u8>],
        ) -> $crate::EncodeResult {
            // SAFETY: the ISA (this function's contract).
            unsafe { encode_source::<S, crate::stream32::source::Values>(values, 0, out) }
        }

        /// Encodes the codes `Src` makes of `values` (`prev` the value before the first):
        /// compiled with the ISA's features, so that the block loop is inlined into it (one
        /// call a kernel call).
        ///
        /// # Safety
        #[doc = concat!("The CPU must support ", $isa, ".")]
        #[target_feature(enable = $feature)]
        #[inline]
        pub(crate) unsafe fn encode_source<S: Scheme32, Src: crate::stream32::source::Source>(
            values: &[u32], prev: u32, out: &mut [MaybeUninit<u8>],
        ) -> $crate::EncodeResult {
            let ctrl_len = crate::stream32::scalar::check_out_len(values.len(), out.len())?;
            // SAFETY: the ISA (this function's contract); `out` holds `max_encoded_len(n)`
            // bytes (checked above).
            let (dp, g) = unsafe { encode_all::<S, Src>(values, prev, out, ctrl_len) };
            Ok(crate::stream32::scalar::encode_rest::<S, Src>(values, prev, out, ctrl_len, dp, g))
        }

        /// # Safety
        #[doc = concat!("The CPU must support ", $isa, ".")]
        /// `out` must hold at least `max_encoded_len(values.len())` bytes and `ctrl_len` be
        /// the control length of `values.len()` values.
        #[target_feature(enable = $feature)]
        #[inline]
        unsafe fn encode_all<S: Scheme32, Src: crate::stream32::source::Source>(
            values: &[u32], prev: u32, out: &mut [MaybeUninit<u8>], ctrl_len: usize,
        ) -> (usize, usize) {
            let (dp, g) = {
                // SAFETY: the ISA includes SSSE3; `out` holds `max_encoded_len(n)` bytes
                // (caller).
                unsafe { crate::stream32::x86::encode_start::<S, Src>(values, prev, out, ctrl_len) }
            };
            // SAFETY: as above; `step` reads 16 values from group g on (and the one before
            // for a source that reads it, when encode_start did the first step: g >= 4).
            let (dp, g) = unsafe {
                crate::stream32::x86::encode_steps::<S>(values, out, ctrl_len, dp, g, |p| {
                    step::<S, Src>(p)
                })
            };
            // SAFETY: as above; the loop checks its bounds, and starts at group 1 for a
            // source that reads the value before.
            unsafe {
                crate::group_encode::encode_groups::<Group<S, Src>>(values, out, ctrl_len, dp, g)
            }
        }
    };
}

/// For a source whose loads read the value before (`Src::PREV`), the start of the stream
/// encoded from codes in registers, the first made with `prev` ([`Source::sse_first`]): the
/// first step (4 groups) when there are 4 whole groups, else the first group. Returns `(data
/// bytes, groups)` done, `(0, 0)` for any other source or fewer than 4 values.
///
/// # Safety
/// The CPU must support SSSE3; `out` must hold at least `max_encoded_len(values.len())` bytes
/// and `ctrl_len` be the control length of `values.len()` values.
#[inline(always)]
pub(crate) unsafe fn encode_start<S: Scheme32, Src: Source>(
    values: &[u32], prev: u32, out: &mut [MaybeUninit<u8>], ctrl_len: usize,
) -> (usize, usize) {
    let full = values.len() / 4;
    if !Src::PREV || full == 0 {
        return (0, 0);
    }
    let p = values.as_ptr();
    let base = out.as_mut_ptr().cast::<u8>();
    // SAFETY: SSSE3 (caller); values 0..4 exist (full >= 1), and 0..16 in the step branch,
    // where every load but the first starts at value 4 or later (the one before it exists).
    // `out` holds ctrl_len + 4n bytes: 16 past the first group's data start for a group, and
    // for a step (n >= 16) 64 >= its last group's start (at most 3 * 16) + 16; its 4 control
    // bytes fit ctrl_len >= 4.
    unsafe {
        if full >= 4 {
            let v: [__m128i; 4] = core::array::from_fn(|k| {
                if k == 0 {
                    Src::sse_first(p, prev)
                } else {
                    Src::sse(p.add(4 * k))
                }
            });
            let keys = ssse3::keys4::<S>(v);
            base.cast::<u32>().write_unaligned(keys.to_le());
            (ssse3::store_groups::<S>(v, keys, base.add(ctrl_len), 0), 4)
        } else {
            let (c, len) = ssse3::encode_group::<S>(Src::sse_first(p, prev), base.add(ctrl_len));
            *base = c;
            (len, 1)
        }
    }
}

pub(crate) mod avx2;
pub(crate) mod avx2_blocks16;
pub(crate) mod ssse3;
