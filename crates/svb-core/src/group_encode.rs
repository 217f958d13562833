//! The single-group encode loop of every SIMD encoder (the u32, u64 and Svb16 wires, every
//! ISA), generic over one group's encode: a control byte's values packed by one
//! [`EncodeGroup::encode`], the loop checking the room its stores need.
//!
//! The loop carries no target features of its own: it is `#[inline(always)]`, and runs inside
//! each ISA's `#[target_feature]` entry, where it and the group's intrinsics are compiled for
//! that ISA.

use core::mem::MaybeUninit;

/// One group's SIMD encode: the values of one control (key) byte.
pub(crate) trait EncodeGroup {
    /// The values encoded (`u16`, `u32`, `u64`).
    type Value;
    /// Values a control byte describes (4; 8 for Svb16).
    const VALUES: usize;
    /// Bytes from a group's data start that its stores may touch.
    const ROOM: usize;

    /// Encodes the `VALUES` values at `src` to `dst`; returns their control byte and the data
    /// bytes written (for values outside the codec's range, what it writes is unspecified,
    /// but never more than `ROOM` bytes).
    ///
    /// # Safety
    /// The CPU must support the group's ISA; `VALUES` values are readable at `src` and `ROOM`
    /// bytes writable at `dst`.
    unsafe fn encode(src: *const Self::Value, dst: *mut u8) -> (u8, usize);
}

/// Implements [`EncodeGroup`] for `$group` (generic over `$gen` when given): `$values` values
/// of type `$value` a control byte, stores within `$room` bytes, `$body` the encode of the
/// values at `$src` to `$dst`.
macro_rules! impl_encode_group {
    (
        [$($gen:tt)*] $group:ty => $value:ty, $values:literal values, room $room:literal,
        |$src:ident, $dst:ident| $body:block
    ) => {
        impl<$($gen)*> $crate::group_encode::EncodeGroup for $group {
            type Value = $value;
            const VALUES: usize = $values;
            const ROOM: usize = $room;

            #[inline(always)]
            unsafe fn encode($src: *const $value, $dst: *mut u8) -> (u8, usize) $body
        }
    };
    ($group:ty => $($rest:tt)*) => {
        $crate::group_encode::impl_encode_group!([] $group => $($rest)*);
    };
}
pub(crate) use impl_encode_group;

/// Encodes whole groups from group `g` while a group's stores fit in `out`, one
/// [`EncodeGroup::encode`] each. Returns where it stopped, `(dp, g)` (the scalar tail goes on
/// from there).
///
/// # Safety
/// The CPU must support `G`'s ISA; `out` must hold at least `max_encoded_len(values.len())`
/// bytes and `ctrl_len` be the control length of `values.len()` values; `(dp, g)` must be a
/// position an encode loop returned (or `(0, 0)`).
#[inline(always)]
pub(crate) unsafe fn encode_groups<G: EncodeGroup>(
    values: &[G::Value], out: &mut [MaybeUninit<u8>], ctrl_len: usize, mut dp: usize, mut g: usize,
) -> (usize, usize) {
    let full = values.len() / G::VALUES;
    let room = out.len() - ctrl_len;
    let base = out.as_mut_ptr().cast::<u8>();
    while g < full && room - dp >= G::ROOM {
        // SAFETY: the ISA (caller); g < full so the group's values exist; the stores end by
        // dp + ROOM <= room; control byte g < full <= ctrl_len.
        unsafe {
            let src = values.as_ptr().add(G::VALUES * g);
            let (c, len) = G::encode(src, base.add(ctrl_len + dp));
            *base.add(g) = c;
            dp += len;
        }
        g += 1;
    }
    (dp, g)
}
