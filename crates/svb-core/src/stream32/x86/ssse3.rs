//! SSSE3 kernels of the u32 codecs: one `pshufb` per control byte (4 values).
//!
//! Decoding runs blocks of 8 groups as the C reference's loop does (a data pointer advanced
//! by a length table, which costs fewer instructions a group than offsets from prefix sums),
//! with one bound check a block: 128 data bytes left, or near the end the block's last load
//! inside the slice. A stream followed by 16 bytes (the C decoder's padding, or the next
//! stream of a buffer) so runs every block, and its last groups, on the data itself. Of a
//! stream that ends at its slice's end, the last block or two (and the groups after the
//! last whole block) load their last groups from the data's last 16 bytes, each shuffle row
//! moved up by where its group starts in them (`end_block`): no group needs a check of its
//! own, nothing is copied, and no padding is asked of the caller (at n = 128, 0.76x lemire's
//! decoder on a padded buffer, where the zero-padded copy of the tail this replaced gave
//! 0.61x). Encoding runs steps of 4 groups: their 4 control bytes from one control
//! computation (aqrit's, lemire's C encoder's: `keys8`), then one shuffle a group stored at
//! a data pointer that a length table advances. The AVX2 kernels reuse these loops (compiled
//! with AVX2 enabled), with a 256-bit control computation for encoding.

#[cfg(target_arch = "x86")]
use core::arch::x86::*;
#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;
use core::mem::MaybeUninit;

use crate::error::DecodeError;
use crate::group_encode::impl_encode_group;
use crate::stream32::finish::{Finish, Lane32};
use crate::stream32::scalar::{decode_tail, split_control};
use crate::stream32::source::Source;
use crate::stream32::Scheme32;
use crate::DecodeResult;

decode_entries!("SSSE3", "ssse3");

/// The running value a broadcast carry holds.
#[target_feature(enable = "sse2")]
#[inline]
pub(crate) fn carried(carry: __m128i) -> u32 {
    _mm_cvtsi128_si32(carry) as u32
}

/// Decodes what the SIMD block loop left (its last block or two, and fewer than 8 groups
/// after them) with [`decode_end`], or, when the data is shorter than 16 bytes or too short
/// for its groups, with the scalar tail, which reports the exact error. Returns the bytes
/// consumed, control included, and the running value after the last.
///
/// # Safety
/// The CPU must support SSSE3; `(dp, g, carry)` must be where the SIMD loops stopped (or
/// `(0, 0, acc)`); `ctrl` must hold the control bytes of `out.len()` values.
#[inline(always)]
pub(crate) unsafe fn finish_decode<S: Scheme32, F: Finish>(
    ctrl: &[u8], data: &[u8], dp: usize, g: usize, carry: __m128i, out: &mut [MaybeUninit<F::Out>],
) -> DecodeResult<(usize, u32)> {
    if 4 * g == out.len() {
        // SAFETY: SSSE3 (caller) includes SSE2.
        return Ok((ctrl.len() + dp, unsafe { carried(carry) }));
    }
    // SAFETY: SSSE3 (caller); `decode_end` starts where the block loop stopped and bounds
    // its own loads and stores.
    let (used, acc) = match unsafe { decode_end::<S, F>(ctrl, data, dp, g, carry, out) } {
        Ok(done) => done,
        Err((dp, g, carry)) => {
            // SAFETY: SSSE3 (caller) includes SSE2.
            let acc = unsafe { carried(carry) };
            decode_tail::<S, F>(ctrl, data, dp, 4 * g, acc, out)?
        }
    };
    Ok((ctrl.len() + used, acc))
}

/// Decodes groups `g..` and the partial group, up to 8 whole groups a step, each group
/// loaded where it starts when 16 bytes are left there, and otherwise from the data's last
/// 16 bytes with its shuffle row moved up by where it starts in them (a saturating add, so
/// the row's 0xFF "zero" entries stay 0xFF): no copy of the data and no padding after it.
/// A step's group starts come from the prefix sums of its control bytes, so its groups do
/// not wait on each other's lengths, and its one check is the step's total against the
/// bytes left. Returns the data bytes used and the running value after the last value, or
/// `Err` with where it stopped (`(dp, g, carry)`, every value before it written) when the
/// data is shorter than 16 bytes or than the groups need.
///
/// # Safety
/// The CPU must support SSSE3. `ctrl` must hold the control bytes of `out.len()` values (as
/// `split_control` returns them); `(dp, g, carry)` a position the SIMD loops stopped at.
#[inline(always)]
unsafe fn decode_end<S: Scheme32, F: Finish>(
    ctrl: &[u8], data: &[u8], mut dp: usize, mut g: usize, mut carry: __m128i,
    out: &mut [MaybeUninit<F::Out>],
) -> Result<(usize, u32), (usize, usize, __m128i)> {
    let full = out.len() / 4;
    let dst = out.as_mut_ptr().cast::<F::Out>();
    while g < full {
        let take = (full - g).min(8);
        // The step's control bytes (and whatever follows them in `ctrl`: lengths past
        // `take` are not used).
        let cw = match ctrl.get(g..g + 8) {
            Some(b) => u64::from_le_bytes(b.try_into().unwrap_or([0; 8])),
            None => ctrl[g..].iter().rev().fold(0, |w, &b| (w << 8) | u64::from(b)),
        };
        // SAFETY: data[dp..] is readable; groups g..g + take are whole groups of out;
        // SSSE3 (caller).
        let step = unsafe {
            end_block::<S, F>(
                data.as_ptr().add(dp),
                data.len() - dp,
                cw,
                take,
                dst.add(4 * g),
                &mut carry,
            )
        };
        match step {
            Some(used) => dp += used,
            None => return Err((dp, g, carry)),
        }
        g += take;
    }
    let partial = out.len() % 4;
    if partial == 0 {
        // SAFETY: SSSE3 (caller) includes SSE2.
        return Ok((dp, unsafe { carried(carry) }));
    }
    let c = ctrl[full];
    let need: usize = (0..partial).map(|k| S::LENS[(c >> (2 * k)) as usize & 3] as usize).sum();
    if need > data.len() - dp || data.len() < 16 {
        return Err((dp, g, carry));
    }
    // The partial group's bytes end inside the data, which holds 16: its load is the
    // data's last 16 bytes when fewer are left at dp. Lanes past the last value pick bytes
    // that are not copied out (the running value is taken from the last lane that is).
    let mut lanes = [F::Out::default(); 4];
    // SAFETY: data.len() >= 16 (above); the partial group's bytes dp..dp + need end inside
    // the data; `lanes` holds four lanes; SSSE3 (caller).
    unsafe {
        let v = unpack_near_end::<S>(data.as_ptr(), data.len() - 16, dp, c as usize);
        F::Out::store4(lanes.as_mut_ptr(), F::sse(v, &mut carry));
    }
    for (slot, &v) in out[4 * full..].iter_mut().zip(&lanes) {
        slot.write(v);
    }
    Ok((dp + need, lanes[partial - 1].to_u32()))
}

/// Inclusive prefix sums of the 8 per-byte data lengths of `cw`: byte `k` is the data length
/// of groups `0..=k` (at most 128, so bytes never carry into each other).
#[inline(always)]
pub(crate) fn prefix_lens<S: Scheme32>(cw: u64) -> u64 {
    S::lens8(cw).wrapping_mul(0x0101_0101_0101_0101)
}

/// Decodes blocks of 8 groups from group `g` (data at `data[dp..]`) while the block's last
/// 16-byte load stays inside `data`; returns where it stopped `(dp, g, carry)`, each group
/// finished by `F` from `carry`. Per group: one load, one shuffle, one store and a
/// length-table add to the data pointer, as the C reference's loop (which reads the next
/// control word a block ahead, too), with one bound check a block: 128 bytes left (no group
/// of the block can then load past the end), or else, near the end, the start of the block's
/// last group from its control word plus 16. A stream followed by 16 bytes of anything (the
/// next block of a posting list, a page's next column) so runs every block here, with no
/// tail.
///
/// The next block's control word is read while this block is shuffled, as the C reference's
/// loop does (at 8192 values 8% faster on Zen 3 than reading each block's word at its start);
/// the tables are the statics themselves (laundering their pointers through `black_box`, once
/// needed to keep LLVM from batching a block's loads ahead of its stores, cost 30
/// instructions a call and no longer changes the loop).
///
/// With [`Finish::NONZERO`] each unpacked value is compared with zero as well (one compare
/// and one OR a group; for a block of one-byte values a minimum of its 32 data bytes) and
/// each block's 4-byte codes are noted, into `found`; otherwise `found` is left alone.
///
/// # Safety
/// The CPU must support SSSE3. `ctrl` must hold the control bytes of `out.len()` values (as
/// `split_control` returns them); the function keeps every load inside `data` and every store
/// inside `out` itself. `dp <= data.len()` and `g <= out.len() / 4`.
#[inline(always)]
pub(crate) unsafe fn decode_blocks<S: Scheme32, F: Finish>(
    ctrl: &[u8], data: &[u8], out: &mut [MaybeUninit<F::Out>], dp: usize, g: usize,
    mut carry: __m128i, found: &mut Found,
) -> (usize, usize, __m128i) {
    const {
        assert!(!(F::NONZERO && F::PAIRS), "the zero check runs on single groups");
        assert!(!F::NONZERO || S::LENS[3] == 4, "code 3 is a 4-byte value");
    };
    let blocks = (out.len() / 4 - g) / 8;
    if blocks == 0 {
        return (dp, g, carry);
    }
    let base = data.as_ptr();
    // `p` never passes `end`: a block runs only when its groups' data ends inside data. At or
    // before `roomy`, 128 bytes are left.
    let end = base as usize + data.len();
    let roomy = end.saturating_sub(128);
    // SAFETY: dp <= data.len() (caller).
    let mut p = unsafe { base.add(dp) };
    // SAFETY: 4g <= out.len(); control bytes g .. g + 8 * blocks belong to whole groups
    // (g + 8 * blocks <= out.len() / 4 <= ctrl.len()).
    let (mut dst, mut kp, kend) = unsafe {
        let kp = ctrl.as_ptr().add(g);
        (out.as_mut_ptr().cast::<F::Out>().add(4 * g), kp, kp.add(8 * blocks))
    };
    let last = kend.wrapping_sub(8);
    // SAFETY: kp < kend, the start of a block's 8 control bytes.
    let mut next = unsafe { kp.cast::<u64>().read_unaligned() };
    loop {
        let cw = u64::from_le(next);
        let kn = if kp == last { kp } else { kp.wrapping_add(8) };
        // SAFETY: kn is this block's or the next block's start, both with 8 control bytes.
        next = unsafe { kn.cast::<u64>().read_unaligned() };
        // The block's last group starts at the sum of the first seven groups' lengths (a
        // block of the shortest groups, a dense posting list's usual block, read off its
        // constant).
        if p as usize > roomy && last_group_start::<S>(cw) + 16 > end - p as usize {
            // The stream's last block or two: decoded here from loads moved back to end at
            // the data's end where the block's data does, when it does (a zero check, which
            // this path does not make, leaves them to its caller's tail).
            if F::NONZERO {
                break;
            }
            // SAFETY: p is inside data, `end` its end; the block's 8 groups are whole groups
            // of out (dst + 32 lanes); SSSE3 (caller).
            match unsafe { end_block::<S, F>(p, end - p as usize, cw, 8, dst, &mut carry) } {
                // SAFETY: the block's data (used bytes) ends inside data.
                Some(used) => p = unsafe { p.add(used) },
                None => break,
            }
        } else {
            // SAFETY: the block's last load ends inside data (checked above).
            p = unsafe { full_block::<S, F>(p, cw, dst, &mut carry, found) };
        }
        // SAFETY: the next block's values and control bytes (if any) are inside out and
        // ctrl; one past is allowed.
        unsafe {
            dst = dst.add(32);
            kp = kp.add(8);
        }
        if kp == kend {
            break;
        }
    }
    // SAFETY: p and base are pointers into data, kp into ctrl.
    let (dp, g) = unsafe { (p.offset_from(base), kp.offset_from(ctrl.as_ptr())) };
    (dp as usize, g as usize, carry)
}

/// One block of 8 groups whose last group's 16-byte load ends inside the data: unpacked from
/// `p`, finished by `F` from `carry` and stored at `dst`; returns the data past the block.
///
/// # Safety
/// The CPU must support SSSE3; `cw` the block's control word; 16 bytes readable from the
/// start of its last group (the sum of the first seven groups' lengths past `p`); 32 lanes
/// writable at `dst`.
#[inline(always)]
unsafe fn full_block<S: Scheme32, F: Finish>(
    mut p: *const u8, cw: u64, dst: *mut F::Out, carry_io: &mut __m128i, found: &mut Found,
) -> *const u8 {
    let rows = S::DECODE.as_ptr();
    let lens = S::CTRL_LENS.as_ptr();
    let mut carry = *carry_io;
    {
        if F::NONZERO && !(F::ONES && cw == 0) {
            // Both bits of a 2-bit code set: code 3, a 4-byte value (none in a block of
            // one-byte values).
            found.long |= cw & (cw >> 1);
        }
        if F::ONES && S::LENS[0] == 1 && cw == 0 {
            // 32 one-byte values (`ONES` steps run on the classic wire only, where code 0 is
            // one byte): the block's last group starts 28 bytes in, so its 16-byte load,
            // checked above, covers the four 8-byte loads (and the two 16-byte loads of the
            // zero check).
            if F::NONZERO {
                // SAFETY: p + 32 <= p + 44, inside data (above); SSSE3 includes SSE2.
                unsafe {
                    let least =
                        _mm_min_epu8(_mm_loadu_si128(p.cast()), _mm_loadu_si128(p.add(16).cast()));
                    found.zeros =
                        _mm_or_si128(found.zeros, _mm_cmpeq_epi8(least, _mm_setzero_si128()));
                }
            }
            for h in 0..4 {
                // SAFETY: p + 8h + 8 <= p + 44, inside data (above); values 8h..8h + 8 of
                // the block are inside out.
                unsafe {
                    let b = _mm_loadl_epi64(p.add(8 * h).cast());
                    let (lo, hi) = F::sse_ones8(b, &mut carry);
                    F::Out::store4(dst.add(8 * h), lo);
                    F::Out::store4(dst.add(8 * h + 4), hi);
                }
            }
            // SAFETY: the block's 32 data bytes are inside data (above).
            p = unsafe { p.add(32) };
        } else if F::PAIRS {
            for j in 0..4 {
                let (c0, c1) =
                    ((cw >> (16 * j)) as u8 as usize, (cw >> (16 * j + 8)) as u8 as usize);
                // SAFETY: groups 2j and 2j + 1 start no later than the block's last group,
                // whose 16-byte load ends inside data (checked at the block's start). Both
                // are whole groups of out, their 8 lanes inside it. `rows` and `lens` are
                // the scheme's 256-entry tables.
                unsafe {
                    let v0 = _mm_shuffle_epi8(
                        _mm_loadu_si128(p.cast()),
                        _mm_load_si128(rows.add(c0).cast()),
                    );
                    p = p.add(*lens.add(c0) as usize);
                    let v1 = _mm_shuffle_epi8(
                        _mm_loadu_si128(p.cast()),
                        _mm_load_si128(rows.add(c1).cast()),
                    );
                    p = p.add(*lens.add(c1) as usize);
                    store8(dst.add(8 * j), F::sse_pair(v0, v1, &mut carry));
                }
            }
        } else {
            for k in 0..8 {
                let c = (cw >> (8 * k)) as u8 as usize;
                // SAFETY: this group starts no later than the block's last group, whose
                // 16-byte load ends inside data (checked at the block's start). The block's 8
                // groups are whole groups of out. `rows` and `lens` are the scheme's
                // 256-entry tables.
                unsafe {
                    let v = _mm_loadu_si128(p.cast());
                    let m = _mm_load_si128(rows.add(c).cast());
                    let v = _mm_shuffle_epi8(v, m);
                    if F::NONZERO {
                        found.zeros =
                            _mm_or_si128(found.zeros, _mm_cmpeq_epi32(v, _mm_setzero_si128()));
                    }
                    let v = F::sse(v, &mut carry);
                    F::Out::store4(dst.add(4 * k), v);
                    p = p.add(*lens.add(c) as usize);
                }
            }
        }
    }
    *carry_io = carry;
    p
}

/// The first `take` (1 to 8) groups of control word `cw`, whose data starts at `p` with
/// `left` bytes to the data's end, unpacked and finished by `F` from `carry` into the lanes
/// at `dst`: each group loaded where it starts while 16 bytes are left there, else from the
/// data's last 16 bytes with its shuffle row moved up by where it starts in them (a
/// saturating add, so the row's 0xFF "zero" entries stay 0xFF). The group starts come from
/// the prefix sums of the control bytes, so no group waits on another's length, and the one
/// check is their total against `left`. Returns the data bytes they take, or `None` (nothing
/// written) when that is more than `left` or `left` is under 16.
///
/// # Safety
/// The CPU must support SSSE3; `left` bytes readable at `p`; `4 * take` lanes writable at
/// `dst`.
#[inline(always)]
unsafe fn end_block<S: Scheme32, F: Finish>(
    p: *const u8, left: usize, cw: u64, take: usize, dst: *mut F::Out, carry: &mut __m128i,
) -> Option<usize> {
    // Byte k: the data length of groups 0..=k (bytes of `cw` past `take` are not used).
    let sums = prefix_lens::<S>(cw);
    let total = (sums >> (8 * (take - 1))) as u8 as usize;
    if total > left || left < 16 {
        return None;
    }
    let last16 = left - 16;
    let starts = sums << 8;
    for k in 0..take {
        let c = (cw >> (8 * k)) as u8 as usize;
        let at = (starts >> (8 * k)) as u8 as usize;
        // SAFETY: left = last16 + 16 bytes are readable at p; the group's bytes end by
        // at + its length <= total <= left; k < take, so its four lanes are writable at
        // dst; SSSE3 (caller).
        unsafe {
            let v = unpack_near_end::<S>(p, last16, at, c);
            F::Out::store4(dst.add(4 * k), F::sse(v, carry));
        }
    }
    Some(total)
}

/// The four values of the group of control byte `c` whose data starts `at` bytes past `p`:
/// loaded there while 16 bytes are left (`at <= last16`), else from the last 16 bytes
/// (`p + last16`) with the shuffle row moved up by where the group starts in them (a
/// saturating add, so the row's 0xFF "zero" entries stay 0xFF).
///
/// # Safety
/// The CPU must support SSSE3; `last16 + 16` bytes readable at `p`; the group's data (its
/// control byte's length from `at`) must end by `last16 + 16`, so that its used indices,
/// moved up, stay below 16.
#[inline(always)]
unsafe fn unpack_near_end<S: Scheme32>(
    p: *const u8, last16: usize, at: usize, c: usize,
) -> __m128i {
    let from = at.min(last16);
    // SAFETY: from + 16 <= last16 + 16 bytes, readable at p (caller); the rows are 16
    // aligned bytes; SSSE3 (caller).
    unsafe {
        let v = _mm_loadu_si128(p.add(from).cast());
        let m = _mm_adds_epu8(
            _mm_load_si128(S::DECODE[c].0.as_ptr().cast()),
            _mm_set1_epi8((at - from) as i8),
        );
        _mm_shuffle_epi8(v, m)
    }
}

/// What [`decode_blocks`] finds for a [`Finish::NONZERO`] step: `zeros` has bits set where
/// a value was zero; `long` is the OR of the blocks' `cw & (cw >> 1)`, whose even bits mark
/// the values that took 4 bytes (code 3 in a control byte).
#[derive(Clone, Copy)]
pub(crate) struct Found {
    pub(crate) zeros: __m128i,
    pub(crate) long: u64,
}

impl Found {
    /// Nothing found yet.
    #[target_feature(enable = "sse2")]
    #[inline]
    pub(crate) fn new() -> Found {
        Found { zeros: _mm_setzero_si128(), long: 0 }
    }
}

/// Where the last of the 8 groups of control word `cw` starts: the data length of the first
/// seven.
#[inline(always)]
fn last_group_start<S: Scheme32>(cw: u64) -> usize {
    if cw == 0 {
        7 * S::CTRL_LENS[0] as usize
    } else {
        // Byte 6 of the prefix sums: groups 0..=6.
        (prefix_lens::<S>(cw) >> 48) as u8 as usize
    }
}

/// Stores eight 16-bit lanes (two groups of a [`Finish::PAIRS`] step) at `dst`.
///
/// # Safety
/// SSE2; eight lanes of 16 bits writable at `dst`.
#[inline(always)]
unsafe fn store8<O>(dst: *mut O, v: __m128i) {
    // SAFETY: the caller guarantees 16 writable bytes at dst and SSE2.
    unsafe { _mm_storeu_si128(dst.cast(), v) }
}

encode_entries!("SSSE3", "ssse3");

/// The codes of the 16 values at `p` (4 groups) and their 4 control bytes, as a
/// little-endian word: one step of the encoders' loop.
///
/// # Safety
/// The CPU must support SSSE3; 16 `u32` values must be readable at `p` (and the one before
/// them when `Src::PREV`).
#[target_feature(enable = "ssse3")]
#[inline]
pub(crate) unsafe fn step<S: Scheme32, Src: Source>(p: *const u32) -> ([__m128i; 4], u32) {
    // SAFETY: the caller guarantees 16 readable values at p (and the one before for Src).
    let v: [__m128i; 4] = core::array::from_fn(|i| unsafe { Src::sse(p.add(4 * i)) });
    (v, keys4::<S>(v))
}

/// The 4 control bytes of 16 codes (4 groups) held in vectors, as a little-endian word.
#[target_feature(enable = "ssse3")]
#[inline]
pub(crate) fn keys4<S: Scheme32>(v: [__m128i; 4]) -> u32 {
    keys8::<S>(v[0], v[1]) | (keys8::<S>(v[2], v[3]) << 16)
}

/// Shuffles the 4 groups of codes `v` (control bytes `keys`) to `data[dp..]`, as lemire's C
/// loop does: each group's row from the table by its control byte, 16 bytes stored at the
/// data pointer, which its length in the table advances. Returns the data pointer after them.
///
/// # Safety
/// The CPU must support SSSE3; `keys` must be the control bytes of `v`, and the bytes from
/// `data + dp` to 16 past the last group's start writable (`dp + 64`, as no group takes
/// more than 16 bytes).
#[inline(always)]
pub(crate) unsafe fn store_groups<S: Scheme32>(
    v: [__m128i; 4], keys: u32, data: *mut u8, mut dp: usize,
) -> usize {
    for (k, &v) in v.iter().enumerate() {
        let c = (keys >> (8 * k)) as u8 as usize;
        // SAFETY: SSSE3 (caller); the row is 16 aligned bytes; the group's store ends by its
        // start + 16, writable (caller).
        unsafe {
            let m = _mm_load_si128(S::ENCODE[c].0.as_ptr().cast());
            _mm_storeu_si128(data.add(dp).cast(), _mm_shuffle_epi8(v, m));
        }
        dp += S::CTRL_LENS[c] as usize;
    }
    dp
}

/// The lanes of `v` made such that the classic (1-2-3-4 byte) code of each is the code of
/// `S` of the lane it was: the lanes themselves for U32Classic; for U32Variant0124, whose
/// code is one more for a nonzero value (and 3 from 2 bytes up), `v | v << 8`, whose highest
/// nonzero byte is the value's, one byte up (byte 3 nonzero when byte 2 or 3 is).
#[target_feature(enable = "sse2")]
#[inline]
fn classic_lanes<S: Scheme32>(v: __m128i) -> __m128i {
    if S::ZERO_IS_EMPTY {
        _mm_or_si128(v, _mm_slli_epi32::<8>(v))
    } else {
        v
    }
}

/// The two control bytes of the eight u32 lanes of `a` then `b`, by aqrit's method (lemire's
/// C encoder's): each byte made 0 or 1 (nonzero), byte pairs packed to 0, 1 or 255 by
/// unsigned saturation, a lane's high pair clamped to 0x0101 when it is 1 (so its low pair
/// no longer counts), then 0x7F00 added with saturation: the top bits of each lane's two
/// bytes are its code's two bits, and one `movemask` gathers them.
#[target_feature(enable = "sse2")]
#[inline]
fn keys8<S: Scheme32>(a: __m128i, b: __m128i) -> u32 {
    let ones = _mm_set1_epi8(1);
    let nonzero = |v: __m128i| _mm_min_epu8(classic_lanes::<S>(v), ones);
    let pairs = _mm_packus_epi16(nonzero(a), nonzero(b));
    let m = _mm_adds_epu16(_mm_min_epi16(pairs, _mm_set1_epi16(0x0101)), _mm_set1_epi16(0x7F00));
    _mm_movemask_epi8(m) as u32
}

/// Shuffles 8 groups of codes held in vectors (control word `cw`, prefix lengths `sums`) to
/// `dst`; returns the bytes they take (the u64 codecs' blocks of narrow values).
///
/// # Safety
/// The CPU must support SSSE3; `cw` and `sums` must be the control word and prefix lengths of
/// the groups, and the bytes from `dst` to 16 past the last group's start writable.
#[inline(always)]
pub(crate) unsafe fn encode_block_regs<S: Scheme32>(
    groups: [__m128i; 8], cw: u64, sums: u64, dst: *mut u8,
) -> usize {
    let starts = sums << 8;
    for (k, &v) in groups.iter().enumerate() {
        let c = (cw >> (8 * k)) as u8 as usize;
        let start = ((starts >> (8 * k)) & 0xFF) as usize;
        // SAFETY: the caller guarantees that 16 bytes past the last group's start are
        // writable; group k starts no later than the last group.
        unsafe {
            let m = _mm_load_si128(S::ENCODE[c].0.as_ptr().cast());
            _mm_storeu_si128(dst.add(start).cast(), _mm_shuffle_epi8(v, m));
        }
    }
    (sums >> 56) as usize
}

/// A u32 group of the x86 encoders' single-group loop: the source's codes of four values
/// (one load for the plain codecs), [`encode_group`]'s shuffle and 16-byte store. The loop
/// runs it from group 1 on for a source that reads the value before.
pub(crate) struct Group<S, Src>(core::marker::PhantomData<(S, Src)>);

impl_encode_group! {
    [S: Scheme32, Src: Source] Group<S, Src> => u32, 4 values, room 16, |src, dst| {
        // SAFETY: SSSE3, four values at `src` (and the one before for Src: the loop starts
        // at group 1 then) and 16 writable bytes at `dst` (caller).
        unsafe { encode_group::<S>(Src::sse(src), dst) }
    }
}

/// Packs the four u32 lanes of `v` to `dst` (16 bytes are stored; the caller owns them) and
/// returns the control byte and the bytes used.
///
/// # Safety
/// The CPU must support SSSE3, and 16 bytes at `dst` must be writable.
#[target_feature(enable = "ssse3")]
#[inline]
pub(crate) unsafe fn encode_group<S: Scheme32>(v: __m128i, dst: *mut u8) -> (u8, usize) {
    let z = _mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_setzero_si128())) as usize;
    let e0 = S::ENCODE_PAIR[z & 0xFF] as usize;
    let e1 = S::ENCODE_PAIR[(z >> 8) & 0xFF] as usize;
    let c = (e0 & 0xF) | ((e1 & 0xF) << 4);
    // SAFETY: the table row is 16 aligned bytes; the caller guarantees 16 writable bytes at dst.
    unsafe {
        let m = _mm_load_si128(S::ENCODE[c].0.as_ptr().cast());
        _mm_storeu_si128(dst.cast(), _mm_shuffle_epi8(v, m));
    }
    (c as u8, (e0 >> 8) + (e1 >> 8))
}
