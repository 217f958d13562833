//! The one audited bridge between initialised and uninitialised memory: kernels write into
//! `MaybeUninit` buffers, so a `Vec`'s spare capacity is filled without zeroing it first and
//! a caller's initialised slice can be handed to the same kernels.

use core::mem::MaybeUninit;

#[cfg(feature = "alloc")]
use alloc::vec::Vec;

/// Views an initialised slice as `MaybeUninit`, for a kernel that writes values into it.
///
/// # Safety
/// Everything written through the returned view must be an initialised `T`: never
/// `MaybeUninit::uninit()` (the slice stays readable as `&[T]` afterwards).
#[inline(always)]
pub unsafe fn as_uninit_mut<T: Copy>(s: &mut [T]) -> &mut [MaybeUninit<T>] {
    // SAFETY: `MaybeUninit<T>` has the layout of `T`; the caller stores only initialised
    // values, so `s` stays initialised.
    unsafe { core::slice::from_raw_parts_mut(s.as_mut_ptr().cast(), s.len()) }
}

/// Reserves room for `reserve` more elements in `v`, runs `fill` on its spare capacity (at
/// least `reserve` elements) and, when `fill` returns `Ok(written)`, makes the first `written`
/// of them part of `v`. On `Err` nothing is appended.
///
/// # Safety
/// When `fill` returns `Ok(written)` it has initialised the first `written` elements of the
/// slice it was given.
///
/// # Panics
/// When `written` exceeds the slice `fill` was given (a broken `fill`, never input).
#[cfg(feature = "alloc")]
#[inline]
pub unsafe fn append_with<T, E>(
    v: &mut Vec<T>, reserve: usize, fill: impl FnOnce(&mut [MaybeUninit<T>]) -> Result<usize, E>,
) -> Result<usize, E> {
    v.reserve(reserve);
    let spare = v.spare_capacity_mut();
    let room = spare.len();
    let written = fill(spare)?;
    assert!(written <= room, "append_with: {written} written, room for {room}");
    let new_len = v.len() + written;
    // SAFETY: `fill` initialised the first `written` spare elements (the caller's contract),
    // and they fit the capacity (checked above).
    unsafe { v.set_len(new_len) };
    Ok(written)
}

#[cfg(all(test, feature = "alloc"))]
mod tests {
    use super::*;

    #[test]
    fn append_with_appends_what_was_written_and_nothing_on_error() {
        let mut v = vec![1u32, 2];
        // SAFETY: the closure writes the 3 elements it reports.
        let n = unsafe {
            append_with(&mut v, 3, |spare| {
                for (i, s) in spare[..3].iter_mut().enumerate() {
                    s.write(10 + i as u32);
                }
                Ok::<_, ()>(3)
            })
        };
        assert_eq!((n, &v[..]), (Ok(3), &[1, 2, 10, 11, 12][..]));
        // SAFETY: reports an error, so nothing is exposed.
        let e = unsafe { append_with(&mut v, 100, |_| Err::<usize, _>("bad")) };
        assert_eq!((e, v.len()), (Err("bad"), 5));
    }

    #[test]
    fn as_uninit_mut_writes_show_through() {
        let mut a = [0u16; 4];
        // SAFETY: only initialised values are written.
        let view = unsafe { as_uninit_mut(&mut a) };
        view[2].write(7);
        assert_eq!(a, [0, 0, 7, 0]);
    }
}
