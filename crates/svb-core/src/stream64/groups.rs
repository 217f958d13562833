//! The group loops of every SIMD kernel of the u64 codecs (SSSE3, AVX2, NEON; both wires),
//! generic over one group's decode or encode.
//!
//! The loops carry no target features of their own: they are `#[inline(always)]`, and each
//! ISA runs them inside `#[target_feature]` functions of its own ([`decode_kernel!`] and
//! [`encode_kernel!`] write them), where they, and the group's intrinsics with them, are
//! compiled for that ISA.

use core::mem::MaybeUninit;

use super::Scheme64;

/// One group (four u64 values) of a codec's SIMD kernels.
pub(crate) trait Group {
    /// The wire the group decodes or encodes.
    type Scheme: Scheme64;
}

/// One group (four u64 values) of a codec's SIMD decode.
pub(crate) trait DecodeGroup: Group {
    /// Data bytes from a group's start that its loads may touch; a group also uses at most
    /// this many.
    const WINDOW: usize;

    /// Decodes the four values of control byte `c` from `src` to `dst`; returns the data
    /// bytes they used.
    ///
    /// # Safety
    /// The CPU must support the group's ISA; `WINDOW` bytes are readable at `src` and four
    /// values writable at `dst`.
    unsafe fn decode(src: *const u8, c: u8, dst: *mut u64) -> usize;
}

/// Declares a module's u64 decode group: `pub(crate) struct Group` of wire `$scheme`, whose
/// [`DecodeGroup::decode`] is `$body` over `$src`, `$c`, `$dst` with a window of `$window`
/// bytes.
macro_rules! u64_group {
    (
        $(#[$doc:meta])*
        $scheme:ty, window $window:literal, |$src:ident, $c:ident, $dst:ident| $body:block
    ) => {
        $(#[$doc])*
        pub(crate) struct Group;

        impl $crate::stream64::groups::Group for Group {
            type Scheme = $scheme;
        }

        impl $crate::stream64::groups::DecodeGroup for Group {
            const WINDOW: usize = $window;

            #[inline(always)]
            unsafe fn decode($src: *const u8, $c: u8, $dst: *mut u64) -> usize $body
        }
    };
}
pub(crate) use u64_group;

/// Decodes whole groups from group `g` while their loads stay inside `data`, one
/// [`DecodeGroup::decode`] each. Returns where it stopped, `(dp, g)`.
///
/// # Safety
/// The CPU must support `G`'s ISA; `ctrl` must hold the control bytes of `out.len()` values
/// (as `split_control` returns them); `(dp, g)` must be a position a loop of this module
/// returned (or `(0, 0)`). Every load stays inside `data`, every store inside `out`.
#[inline(always)]
pub(crate) unsafe fn decode_groups<G: DecodeGroup>(
    ctrl: &[u8], data: &[u8], out: &mut [MaybeUninit<u64>], mut dp: usize, mut g: usize,
) -> (usize, usize) {
    let full = out.len() / 4;
    let src = data.as_ptr();
    let dst = out.as_mut_ptr().cast::<u64>();
    while g < full && data.len() - dp >= G::WINDOW {
        // SAFETY: the ISA (caller); data.len() - dp >= WINDOW (loop condition); g < full so
        // values 4g..4g+4 are inside out.
        dp += unsafe { G::decode(src.add(dp), ctrl[g], dst.add(4 * g)) };
        g += 1;
    }
    (dp, g)
}

/// Data bytes a block of [`decode_blocks`] checks for: `BLOCK / WINDOW` groups (4 of
/// U64Coder1248, 8 of U64Coder1234).
const BLOCK: usize = 128;

/// Decodes blocks of `BLOCK / WINDOW` groups from group 0, one [`DecodeGroup::decode`] each,
/// with one bound check a block: [`BLOCK`] data bytes left (each group takes at most `WINDOW`
/// bytes and loads at most `WINDOW` from its start), the data offset advanced by what each
/// group used, as the C reference's u32 loop does. Returns `(dp, g)`.
///
/// # Safety
/// As [`decode_groups`] from `(0, 0)`.
#[inline(always)]
pub(crate) unsafe fn decode_blocks<G: DecodeGroup>(
    ctrl: &[u8], data: &[u8], out: &mut [MaybeUninit<u64>],
) -> (usize, usize) {
    // Groups a block (a constant once `G` is known; at most 8, the control word's bytes).
    let b = const { BLOCK / G::WINDOW };
    const { assert!(BLOCK / G::WINDOW <= 8, "a block's control bytes fill one u64") };
    let full = out.len() / 4;
    // The control bytes of the whole groups (all of them, by the contract), so the block's
    // control bytes need no check of their own.
    let Some(ctrl) = ctrl.get(..full) else {
        return (0, 0);
    };
    let src = data.as_ptr();
    let dst = out.as_mut_ptr().cast::<u64>();
    let (mut dp, mut g) = (0usize, 0usize);
    while g + b <= full && data.len() - dp >= BLOCK {
        // The block's control bytes in one load, taken apart by shifts: a load per group
        // fewer (the loop is load-bound).
        let mut word = [0u8; 8];
        word[..b].copy_from_slice(&ctrl[g..g + b]);
        let cw = u64::from_le_bytes(word);
        for k in 0..b {
            // SAFETY: the ISA (caller); the block's groups before this one used at most
            // WINDOW bytes each, so this group's WINDOW bytes lie inside the BLOCK bytes left
            // at the block's start; g < full so values 4g..4g+4 are inside out.
            dp += unsafe { G::decode(src.add(dp), (cw >> (8 * k)) as u8, dst.add(4 * g)) };
            g += 1;
        }
    }
    (dp, g)
}

/// The data bytes [`decode_groups_copied`] copies: the group loop stops with fewer than
/// `DecodeGroup::WINDOW` (at most 32) bytes left, or with only the partial group left.
const TAIL: usize = 32;

/// Decodes whole groups from group `g` (data at `data[dp..]`, fewer than [`TAIL`] bytes left
/// or no whole group) from a zero-padded copy of the data left, so the last groups take the
/// SIMD loop instead of the scalar tail. Returns where it stopped, or `(dp, g)` unchanged
/// when the groups need more bytes than the data holds (the scalar tail then rewrites them
/// and names the error).
///
/// # Safety
/// As [`decode_groups`]; `(dp, g)` must be where it stopped.
#[inline(always)]
pub(crate) unsafe fn decode_groups_copied<G: DecodeGroup>(
    ctrl: &[u8], data: &[u8], out: &mut [MaybeUninit<u64>], dp: usize, g: usize,
) -> (usize, usize) {
    if g == out.len() / 4 {
        return (dp, g);
    }
    let take = (data.len() - dp).min(TAIL);
    // Room past the copy for a group's loads (`G::WINDOW` <= 32 bytes) from inside it.
    let mut buf = [0u8; TAIL + 32];
    buf[..take].copy_from_slice(&data[dp..dp + take]);
    // SAFETY: the ISA (caller); the loop bounds its loads by `buf` and its stores by `out`.
    let (used, end) = unsafe { decode_groups::<G>(ctrl, &buf, out, 0, g) };
    if used <= take {
        (dp + used, end)
    } else {
        (dp, g)
    }
}

/// Every whole group of a decode: blocks, single groups while the data lasts, the last ones
/// from a padded copy. Returns `(dp, g)` for the scalar tail.
///
/// # Safety
/// As [`decode_groups`] from `(0, 0)`.
#[inline(always)]
pub(crate) unsafe fn decode_all<G: DecodeGroup>(
    ctrl: &[u8], data: &[u8], out: &mut [MaybeUninit<u64>],
) -> (usize, usize) {
    // SAFETY: the caller's contract, passed on; each loop returns a position the next takes.
    unsafe {
        let (dp, g) = decode_blocks::<G>(ctrl, data, out);
        let (dp, g) = decode_groups::<G>(ctrl, data, out, dp, g);
        decode_groups_copied::<G>(ctrl, data, out, dp, g)
    }
}

/// Writes an ISA's decode kernel of the u64 codecs, `decode::<G>` (a codec's `Kernels`
/// entry for its group `G`), with [`decode_all`] compiled for the target feature `$feature`.
macro_rules! decode_kernel {
    ($feature:literal) => {
        #[doc = concat!(
            "The ", $feature, " decode kernel of group `G`'s codec (see the codec's `Kernels`)."
        )]
        ///
        /// # Safety
        #[doc = concat!("The CPU must support ", $feature, ", and `G` be a group of it.")]
        pub(crate) unsafe fn decode<G: $crate::stream64::groups::DecodeGroup>(
            input: &[u8],
            out: &mut [::core::mem::MaybeUninit<u64>],
        ) -> Result<usize, $crate::error::DecodeError> {
            #[target_feature(enable = $feature)]
            unsafe fn decode_all<G: $crate::stream64::groups::DecodeGroup>(
                ctrl: &[u8],
                data: &[u8],
                out: &mut [::core::mem::MaybeUninit<u64>],
            ) -> (usize, usize) {
                // SAFETY: the CPU feature and `ctrl` (caller), and `G` is a group of it.
                unsafe { $crate::stream64::groups::decode_all::<G>(ctrl, data, out) }
            }
            $crate::stream64::scalar::decode_with::<G::Scheme>(input, out, |ctrl, data, out| {
                // SAFETY: the caller guarantees the CPU feature (this function's contract);
                // `ctrl` is the control stream of out.len() values.
                unsafe { decode_all::<G>(ctrl, data, out) }
            })
        }
    };
}
pub(crate) use decode_kernel;

/// Writes an ISA's encode kernel of the u64 codecs, `encode::<G>` (a codec's `Kernels`
/// entry for its group `G`), with [`encode_groups`] compiled for the target feature
/// `$feature`.
macro_rules! encode_kernel {
    ($feature:literal) => {
        #[doc = concat!(
            "The ", $feature, " encode kernel of group `G`'s codec (see the codec's `Kernels`)."
        )]
        ///
        /// # Safety
        #[doc = concat!("The CPU must support ", $feature, ", and `G` be a group of it.")]
        pub(crate) unsafe fn encode<G: $crate::stream64::groups::Group + $crate::group_encode::EncodeGroup<Value = u64>>(
            values: &[u64],
            out: &mut [::core::mem::MaybeUninit<u8>],
        ) -> Result<usize, $crate::error::EncodeError> {
            #[target_feature(enable = $feature)]
            unsafe fn encode_all<G: $crate::group_encode::EncodeGroup<Value = u64>>(
                values: &[u64],
                out: &mut [::core::mem::MaybeUninit<u8>],
                ctrl_len: usize,
            ) -> (usize, usize) {
                // SAFETY: the CPU feature and `out` (caller), and `G` is a group of it.
                unsafe {
                    $crate::group_encode::encode_groups::<G>(values, out, ctrl_len, 0, 0)
                }
            }
            $crate::stream64::scalar::encode_with::<G::Scheme>(values, out, |values, out, len| {
                // SAFETY: the caller guarantees the CPU feature (this function's contract);
                // `encode_with` has checked that `out` holds `max_encoded_len(n)` bytes and
                // that every value fits the wire; `len` is the control length.
                unsafe { encode_all::<G>(values, out, len) }
            })
        }
    };
}
pub(crate) use encode_kernel;
