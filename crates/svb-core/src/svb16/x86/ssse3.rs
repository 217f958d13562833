//! SSSE3 kernels of Svb16: one `pshufb` per key byte (8 values), in software-pipelined
//! blocks of 8 key bytes (the offsets of block `i+1` are computed while block `i` is
//! shuffled). The decode loops are generic over the step after each unpack
//! ([`Finish16`]): the codec's is none, the fused VBZ decoder's unzigzag and prefix sum. The
//! AVX2 kernels reuse these loops compiled with AVX2.

#[cfg(target_arch = "x86")]
use core::arch::x86::*;
#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;
use core::mem::MaybeUninit;

use crate::group_encode::impl_encode_group;
use crate::svb16::finish::{Finish16, Lane16};
use crate::svb16::scalar::{decode_tail, encode_with};
use crate::svb16::{lens8, DECODE, ENCODE, LENS};
use crate::tail_window::{shuffle_from, tail_window, WINDOW};
use crate::DecodeResult;

decode_entries!("SSSE3");

decode_split!("SSSE3", "ssse3");

/// Decodes what the SIMD loops left (fewer than 16 data bytes, normally) from one 16-byte
/// window, or with the scalar tail when the data is short (which reports the exact error).
/// Returns the data bytes consumed.
///
/// # Safety
/// The CPU must support SSSE3; `(dp, g, carry)` must be where the group loops stopped.
#[inline(always)]
pub(crate) unsafe fn finish_decode<F: Finish16, O: Lane16>(
    keys: &[u8], data: &[u8], dp: usize, g: usize, carry: F::Sse, out: &mut [MaybeUninit<O>],
) -> DecodeResult {
    // SAFETY: the caller guarantees SSSE3 and the position.
    match unsafe { decode_padded_tail::<F, O>(keys, data, dp, g, carry, out) } {
        Some(used) => Ok(used),
        // SAFETY: SSSE3 (caller).
        None => decode_tail::<F, O>(keys, data, dp, 8 * g, unsafe { F::sse_value(carry) }, out),
    }
}

/// Decodes values `8g..` (the group loops left fewer than 16 data bytes, or only the last
/// partial group) from the [`tail_window`] that holds all their bytes. `None` when the
/// bytes are not all in the data (nothing written then; the scalar tail names the error).
///
/// # Safety
/// The CPU must support SSSE3. `keys` must hold the key bytes of `out.len()` values (as
/// `split_keys` returns them); the function keeps every load inside `data` and every store
/// inside `out` itself. `(dp, 8 * g, carry)` must be where the group loops stopped.
#[inline(always)]
unsafe fn decode_padded_tail<F: Finish16, O: Lane16>(
    keys: &[u8], data: &[u8], dp: usize, g: usize, mut carry: F::Sse, out: &mut [MaybeUninit<O>],
) -> Option<usize> {
    let n = out.len();
    let (full, partial) = (n / 8, n % 8);
    let left = data.len() - dp;
    let mut need = 0usize;
    for &k in &keys[g..full] {
        need += LENS[k as usize] as usize;
        if need > left.min(WINDOW) {
            return None;
        }
    }
    if partial != 0 {
        need += partial + (keys[full] & ((1u8 << partial) - 1)).count_ones() as usize;
    }
    if need > left.min(WINDOW) {
        return None;
    }
    // All `need` bytes are in the window (need <= min(16, left)).
    // SAFETY: SSSE3 (caller) includes SSE2.
    let (window, base) = unsafe { tail_window(data, dp) };
    let dst = out.as_mut_ptr().cast::<u16>();
    let mut off = dp - base;
    for (i, &key) in keys[g..full].iter().enumerate() {
        // SAFETY: SSSE3 (caller); group g + i < full writes 8 values inside out.
        unsafe {
            let v = F::sse(shuffle_from(window, &DECODE[key as usize], off), &mut carry);
            _mm_storeu_si128(dst.add(8 * (g + i)).cast(), v);
        }
        off += LENS[key as usize] as usize;
    }
    if partial != 0 {
        let mut last = [0u16; 8];
        // SAFETY: SSSE3 (caller); `last` holds 16 bytes. Key bits past the last value may
        // index past the needed bytes; they only fill lanes that are not copied out.
        unsafe {
            let v = F::sse(shuffle_from(window, &DECODE[keys[full] as usize], off), &mut carry);
            _mm_storeu_si128(last.as_mut_ptr().cast(), v);
        }
        for (slot, &v) in out[8 * full..].iter_mut().zip(&last) {
            slot.write(O::from_bits(v));
        }
    }
    Some(dp + need)
}

/// Below this many key groups the block loop's start-up latency costs more than it saves;
/// the single-group loop decodes such inputs.
const SMALL: usize = 64;

/// Reads key bytes `g..g+8` as one little-endian word. Needs `g + 8 <= keys.len()`.
///
/// # Safety
/// `g + 8 <= keys.len()`: the 8 bytes read must lie inside `keys`.
#[inline(always)]
unsafe fn key_word(keys: &[u8], g: usize) -> u64 {
    debug_assert!(g + 8 <= keys.len());
    // SAFETY: the caller guarantees g + 8 <= keys.len().
    u64::from_le(unsafe { keys.as_ptr().add(g).cast::<u64>().read_unaligned() })
}

/// Inclusive prefix sums of the 8 per-key data lengths: byte `k` is the data length of
/// groups `0..=k` (at most 128).
#[inline(always)]
pub(crate) fn prefix_lens(kw: u64) -> u64 {
    lens8(kw).wrapping_mul(0x0101_0101_0101_0101)
}

/// Decodes blocks of 8 groups from group 0 while the block's loads stay inside `data`, each
/// group through `F` from `carry`; returns where it stopped `(dp, g, carry)`.
///
/// # Safety
/// The CPU must support SSSE3. `keys` must hold the key bytes of `out.len()` values (as
/// `split_keys` returns them); the function keeps every load inside `data` and every store
/// inside `out` itself.
#[inline(always)]
pub(crate) unsafe fn decode_blocks<F: Finish16, O: Lane16>(
    keys: &[u8], data: &[u8], out: &mut [MaybeUninit<O>], mut carry: F::Sse,
) -> (usize, usize, F::Sse) {
    let full = out.len() / 8;
    let dst = out.as_mut_ptr().cast::<u16>();
    let (mut dp, mut g) = (0usize, 0usize);
    if full < SMALL {
        return (dp, g, carry);
    }
    // SAFETY: 8 <= SMALL <= full <= keys.len().
    let mut kw = unsafe { key_word(keys, 0) };
    let mut sums = prefix_lens(kw);
    while g + 8 <= full {
        let starts = sums << 8;
        // The last (highest) 16-byte load of the block must end inside data.
        if data.len() - dp < (starts >> 56) as usize + 16 {
            break;
        }
        let kw_next = if g + 16 <= full {
            // SAFETY: g + 16 <= full <= keys.len(), so the next block's key word exists.
            unsafe { key_word(keys, g + 8) }
        } else {
            0
        };
        let sums_next = prefix_lens(kw_next);
        // Group k's values: its key is byte k of the word, its data at byte k of `starts`.
        let unpack = |k: usize| {
            let key = (kw >> (8 * k)) as u8 as usize;
            let start = dp + ((starts >> (8 * k)) & 0xFF) as usize;
            // SAFETY: SSSE3 (caller); start - dp <= the last group's start, and
            // data.len() - dp >= that + 16 (checked above), so the load ends inside data.
            unsafe {
                _mm_shuffle_epi8(
                    _mm_loadu_si128(data.as_ptr().add(start).cast()),
                    _mm_load_si128(DECODE[key].0.as_ptr().cast()),
                )
            }
        };
        if F::UNPACK_AHEAD {
            let groups: [__m128i; 8] = core::array::from_fn(unpack);
            for (k, &v) in groups.iter().enumerate() {
                // SAFETY: SSSE3 (caller); group g + k < full writes values
                // 8(g+k)..8(g+k)+8 <= out.len().
                unsafe { _mm_storeu_si128(dst.add(8 * (g + k)).cast(), F::sse(v, &mut carry)) };
            }
        } else {
            for k in 0..8 {
                let v = unpack(k);
                // SAFETY: SSSE3 (caller); group g + k < full writes values
                // 8(g+k)..8(g+k)+8 <= out.len().
                unsafe { _mm_storeu_si128(dst.add(8 * (g + k)).cast(), F::sse(v, &mut carry)) };
            }
        }
        dp += (sums >> 56) as usize;
        g += 8;
        kw = kw_next;
        sums = sums_next;
    }
    (dp, g, carry)
}

/// Decodes single key groups from group `g` (data at `data[dp..]`) while their loads stay
/// inside `data`, each through `F` from `carry`; returns where it stopped `(dp, g, carry)`.
///
/// # Safety
/// The CPU must support SSSE3. `keys` must hold the key bytes of `out.len()` values (as
/// `split_keys` returns them); the function keeps every load inside `data` and every store
/// inside `out` itself. `(dp, g)` must be a position the block loop returned (or `(0, 0)`).
#[inline(always)]
pub(crate) unsafe fn decode_groups<F: Finish16, O: Lane16>(
    keys: &[u8], data: &[u8], out: &mut [MaybeUninit<O>], mut dp: usize, mut g: usize,
    mut carry: F::Sse,
) -> (usize, usize, F::Sse) {
    let full = out.len() / 8;
    let dst = out.as_mut_ptr().cast::<u16>();
    loop {
        // A group takes at most 16 bytes: the next r / 16 groups' loads are in bounds.
        let safe = ((data.len() - dp) / 16).min(full - g);
        if safe == 0 {
            return (dp, g, carry);
        }
        for &key in &keys[g..g + safe] {
            let key = key as usize;
            // SAFETY: SSSE3 (caller); one of the `safe` groups, each taking at most 16
            // bytes, so dp + 16 <= data.len(); g < full so 8 lanes fit in out.
            unsafe {
                let v = _mm_loadu_si128(data.as_ptr().add(dp).cast());
                let m = _mm_load_si128(DECODE[key].0.as_ptr().cast());
                let v = F::sse(_mm_shuffle_epi8(v, m), &mut carry);
                _mm_storeu_si128(dst.add(8 * g).cast(), v);
            }
            dp += LENS[key] as usize;
            g += 1;
        }
    }
}

encode_entries!("SSSE3", "ssse3");

/// Key bytes of the 64 values at `p` (bit i set: value i needs two bytes). Reads 128 bytes.
///
/// # Safety
/// The CPU must support SSSE3, and 64 `u16` values must be readable at `p`.
#[target_feature(enable = "ssse3")]
#[inline]
unsafe fn key_word_of(p: *const u16) -> u64 {
    let high = _mm_set1_epi16(0xFF00u16 as i16);
    let zero = _mm_setzero_si128();
    let narrow = |i: usize| {
        // SAFETY: the caller guarantees 64 readable values at p; i < 8.
        let v = unsafe { _mm_loadu_si128(p.add(8 * i).cast()) };
        _mm_cmpeq_epi16(_mm_and_si128(v, high), zero)
    };
    let flags = |i: usize| {
        _mm_movemask_epi8(_mm_packs_epi16(narrow(2 * i), narrow(2 * i + 1))) as u16 as u64
    };
    !(flags(0) | (flags(1) << 16) | (flags(2) << 32) | (flags(3) << 48))
}

/// Shuffles the 8 key groups of values at `p` (key word `kw`, prefix lengths `sums`) to
/// `dst`; returns the bytes they take. Stores 16 bytes at each group's start (the caller
/// owns them).
///
/// # Safety
/// The CPU must support SSSE3; 64 `u16` values must be readable at `p`, `kw` and `sums` be
/// their key word and prefix lengths, and the bytes from `dst` to 16 past the last group's
/// start writable.
#[target_feature(enable = "ssse3")]
#[inline]
pub(crate) unsafe fn encode_block(p: *const u16, kw: u64, sums: u64, dst: *mut u8) -> usize {
    let starts = sums << 8;
    for k in 0..8 {
        let key = (kw >> (8 * k)) as u8 as usize;
        let start = ((starts >> (8 * k)) & 0xFF) as usize;
        // SAFETY: the caller guarantees 64 values at p and that 16 bytes past the last
        // group's start are writable; group k starts no later than the last group.
        unsafe {
            let v = _mm_loadu_si128(p.add(8 * k).cast());
            let m = _mm_load_si128(ENCODE[key].0.as_ptr().cast());
            _mm_storeu_si128(dst.add(start).cast(), _mm_shuffle_epi8(v, m));
        }
    }
    (sums >> 56) as usize
}

/// A key group (eight u16) of the x86 encoders' single-group loop: one load, the key from a
/// compare and a pack, one shuffle and 16-byte store.
pub(crate) struct Group;

impl_encode_group! {
    Group => u16, 8 values, room 16, |src, dst| {
        // SAFETY: SSSE3, eight values at `src` and 16 writable bytes at `dst` (caller); the
        // table row is 16 aligned bytes.
        unsafe {
            let v = _mm_loadu_si128(src.cast());
            let high = _mm_set1_epi16(0xFF00u16 as i16);
            let narrow = _mm_cmpeq_epi16(_mm_and_si128(v, high), _mm_setzero_si128());
            let key = !_mm_movemask_epi8(_mm_packs_epi16(narrow, narrow)) as usize & 0xFF;
            let m = _mm_load_si128(ENCODE[key].0.as_ptr().cast());
            _mm_storeu_si128(dst.cast(), _mm_shuffle_epi8(v, m));
            (key as u8, LENS[key] as usize)
        }
    }
}
