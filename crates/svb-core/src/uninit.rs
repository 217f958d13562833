//! The two places where initialised and uninitialised memory meet: kernels write into
//! `MaybeUninit` buffers so a `Vec`'s spare capacity is filled without zeroing it first.

use core::mem::MaybeUninit;

#[cfg(feature = "alloc")]
use alloc::vec::Vec;

/// Views an initialised slice as `MaybeUninit` for a kernel that only writes valid values.
pub(crate) fn as_uninit_mut<T>(s: &mut [T]) -> &mut [MaybeUninit<T>] {
    // SAFETY: `MaybeUninit<T>` has the layout of `T`; the kernels behind this view only ever
    // store initialised `T` values (Copy integers), so `s` stays initialised.
    unsafe { core::slice::from_raw_parts_mut(s.as_mut_ptr().cast(), s.len()) }
}

/// Extra capacity reserved past what a kernel needs, so SIMD stores near the end of a
/// `Vec` still take the fast path.
#[cfg(feature = "alloc")]
pub(crate) const SLACK: usize = 64;

/// Reserves `reserve + SLACK` elements in `v`, runs `fill` on the spare capacity and, when it
/// returns `Ok(written)`, makes its first `written` elements part of `v`.
///
/// `fill` must have initialised those `written` elements when it returns `Ok`; on `Err`
/// nothing is appended.
#[cfg(feature = "alloc")]
pub(crate) fn append_with<T, E>(
    v: &mut Vec<T>,
    reserve: usize,
    fill: impl FnOnce(&mut [MaybeUninit<T>]) -> Result<usize, E>,
) -> Result<usize, E> {
    v.reserve(reserve.saturating_add(SLACK));
    let spare = v.spare_capacity_mut();
    let written = fill(spare)?;
    assert!(written <= spare.len());
    let new_len = v.len() + written;
    // SAFETY: `fill` initialised the first `written` spare elements (its contract, and every
    // caller passes a kernel that writes each element it reports), and `written` fits the
    // capacity (checked above).
    unsafe { v.set_len(new_len) };
    Ok(written)
}
