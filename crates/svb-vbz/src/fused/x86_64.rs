//! SSSE3 fused decode (and the same loop compiled with AVX2): per key byte, one `pshufb`
//! (svb16), three ops of unzigzag and one prefix-sum block of `svb_delta::kernels`; blocks of
//! 8 key bytes are software-pipelined like svb-core's Svb16 decoder.

use core::arch::x86_64::*;
use core::mem::MaybeUninit;

use svb_core::svb16::blocks::{data_len, decode_shuffle, prefix_lens};
use svb_core::DecodeError;
use svb_delta::kernels::x86_64::{prefix_u16x8, unzigzag_u16x8};

use super::scalar::decode_tail;

/// The fused decoder of this ISA (see `super::Fused`).
///
/// # Safety
/// The CPU must support SSSE3.
pub(crate) unsafe fn decode_ssse3(
    keys: &[u8],
    data: &[u8],
    initial: i16,
    out: &mut [MaybeUninit<i16>],
) -> Result<usize, DecodeError> {
    // SAFETY: the caller guarantees SSSE3 (this function's contract).
    unsafe { decode_with(decode_groups, keys, data, initial, out) }
}

/// The fused decoder of this ISA (see `super::Fused`).
///
/// # Safety
/// The CPU must support AVX2 (and so SSSE3).
pub(crate) unsafe fn decode_avx2(
    keys: &[u8],
    data: &[u8],
    initial: i16,
    out: &mut [MaybeUninit<i16>],
) -> Result<usize, DecodeError> {
    // SAFETY: the caller guarantees AVX2, and so SSSE3 (this function's contract).
    unsafe { decode_with(decode_groups_avx2, keys, data, initial, out) }
}

/// A group loop: whole key groups while their loads stay inside the data; returns where it
/// stopped `(dp, g, last sample)`.
type Groups = unsafe fn(&[u8], &[u8], u16, &mut [MaybeUninit<i16>]) -> (usize, usize, u16);

/// Both decoders: `groups`, then what it left through a zero-padded copy (when that needs at
/// most 48 bytes and the data holds them), else with the scalar tail, which reports the exact
/// error. Returns the data bytes consumed.
///
/// # Safety
/// The CPU must support SSSE3 and the features `groups` was compiled with.
#[inline(always)]
unsafe fn decode_with(
    groups: Groups,
    keys: &[u8],
    data: &[u8],
    initial: i16,
    out: &mut [MaybeUninit<i16>],
) -> Result<usize, DecodeError> {
    debug_assert!(keys.len() >= out.len().div_ceil(8));
    // SAFETY: the caller guarantees the features; `(dp, g)` is where the group loop stopped.
    unsafe {
        let (dp, g, last) = groups(keys, data, initial as u16, out);
        match padded_tail(keys, data, dp, g, last, out) {
            Some(used) => Ok(used),
            None => decode_tail(keys, data, dp, 8 * g, last, out),
        }
    }
}

/// The samples after the SIMD loops through a zero-padded 48-byte copy of the rest of the
/// data; `None` when they need more, or more than the data holds.
///
/// # Safety
/// The CPU must support SSSE3; `keys` must hold at least `out.len().div_ceil(8)` bytes and
/// `(dp, g)` be where `decode_groups` stopped.
#[target_feature(enable = "ssse3")]
unsafe fn padded_tail(
    keys: &[u8],
    data: &[u8],
    dp: usize,
    g: usize,
    last: u16,
    out: &mut [MaybeUninit<i16>],
) -> Option<usize> {
    let n = out.len();
    let (full, partial) = (n / 8, n % 8);
    let mut need: usize = keys[g..full].iter().map(|&k| data_len(k)).sum();
    if partial != 0 {
        need += partial + (keys[full] & ((1u8 << partial) - 1)).count_ones() as usize;
    }
    if need > 48 || data.len() - dp < need {
        return None;
    }
    let mut buf = [0u8; 64];
    buf[..need].copy_from_slice(&data[dp..dp + need]);
    let dst = out.as_mut_ptr().cast::<i16>();
    let mut carry = _mm_set1_epi16(last as i16);
    let mut off = 0usize;
    for (i, &key) in keys[g..full].iter().enumerate() {
        // SAFETY: off <= need - len(key) <= 48 - len(key) keeps the 16-byte load inside buf;
        // group g + i < full writes 8 samples inside out.
        carry = unsafe { group(buf.as_ptr().add(off), key, carry, dst.add(8 * (g + i))) };
        off += data_len(key);
    }
    if partial != 0 {
        let mut tail = [0i16; 8];
        // SAFETY: off <= 48 keeps the load inside buf; `tail` holds 8 samples. Key bits past
        // the last sample only decode padding into samples that are not copied out.
        unsafe { group(buf.as_ptr().add(off), keys[full], carry, tail.as_mut_ptr()) };
        for (slot, &v) in out[8 * full..].iter_mut().zip(&tail) {
            slot.write(v);
        }
    }
    Some(dp + need)
}

/// [`decode_groups`] compiled with AVX2.
///
/// # Safety
/// As [`decode_groups`], with AVX2.
#[target_feature(enable = "avx2")]
unsafe fn decode_groups_avx2(
    keys: &[u8],
    data: &[u8],
    initial: u16,
    out: &mut [MaybeUninit<i16>],
) -> (usize, usize, u16) {
    // SAFETY: AVX2 implies SSSE3; the callee checks its own bounds.
    unsafe { decode_groups(keys, data, initial, out) }
}

/// Unpacks one key group of 8 zigzag deltas at `src`, undoes zigzag and prefix-sums it onto
/// `carry`; stores 8 samples at `dst`; returns the new carry.
///
/// # Safety
/// 16 bytes are readable at `src` and 16 writable at `dst`.
#[target_feature(enable = "ssse3")]
#[inline]
unsafe fn group(src: *const u8, key: u8, carry: __m128i, dst: *mut i16) -> __m128i {
    // SAFETY: the caller guarantees both 16-byte ranges; the shuffle row is 16 aligned bytes.
    unsafe {
        let z = _mm_shuffle_epi8(
            _mm_loadu_si128(src.cast()),
            _mm_load_si128(decode_shuffle(key).as_ptr().cast()),
        );
        let (sums, next) = prefix_u16x8(unzigzag_u16x8(z), carry);
        _mm_storeu_si128(dst.cast(), sums);
        next
    }
}

/// Key bytes `g..g+8` as one little-endian word.
///
/// # Safety
/// `g + 8 <= keys.len()`.
#[inline(always)]
unsafe fn key_word(keys: &[u8], g: usize) -> u64 {
    // SAFETY: the caller guarantees g + 8 <= keys.len().
    u64::from_le(unsafe { keys.as_ptr().add(g).cast::<u64>().read_unaligned() })
}

/// Decodes whole key groups while their loads stay inside `data`; returns where it stopped
/// `(dp, g, last sample)`.
///
/// # Safety
/// The CPU must support SSSE3; `keys` must hold at least `out.len().div_ceil(8)` bytes. Every
/// load and store is kept inside `data` and `out` by the function itself.
#[target_feature(enable = "ssse3")]
#[inline]
unsafe fn decode_groups(
    keys: &[u8],
    data: &[u8],
    initial: u16,
    out: &mut [MaybeUninit<i16>],
) -> (usize, usize, u16) {
    let full = out.len() / 8;
    let dst = out.as_mut_ptr().cast::<i16>();
    let mut carry = _mm_set1_epi16(initial as i16);
    let (mut dp, mut g) = (0usize, 0usize);
    // Below 64 key groups the block loop's start-up latency costs more than it saves.
    if full >= 64 {
        // SAFETY: 8 <= full <= keys.len().
        let mut kw = unsafe { key_word(keys, 0) };
        let mut sums = prefix_lens(kw);
        while g + 8 <= full {
            let starts = sums << 8;
            // The last (highest) 16-byte load of the block must end inside data.
            if data.len() - dp < (starts >> 56) as usize + 16 {
                break;
            }
            let kw_next = if g + 16 <= full {
                // SAFETY: g + 16 <= full <= keys.len().
                unsafe { key_word(keys, g + 8) }
            } else {
                0
            };
            let sums_next = prefix_lens(kw_next);
            for k in 0..8 {
                let start = dp + ((starts >> (8 * k)) & 0xFF) as usize;
                // SAFETY: start + 16 <= dp + the last group's start + 16 <= data.len() (checked
                // above); group g + k < full writes samples 8(g+k)..+8 inside out.
                carry = unsafe {
                    group(
                        data.as_ptr().add(start),
                        (kw >> (8 * k)) as u8,
                        carry,
                        dst.add(8 * (g + k)),
                    )
                };
            }
            dp += (sums >> 56) as usize;
            g += 8;
            kw = kw_next;
            sums = sums_next;
        }
    }
    while g < full && data.len() - dp >= 16 {
        let key = keys[g];
        // SAFETY: dp + 16 <= data.len() (loop condition); group g < full fits in out.
        carry = unsafe { group(data.as_ptr().add(dp), key, carry, dst.add(8 * g)) };
        dp += data_len(key);
        g += 1;
    }
    (dp, g, _mm_cvtsi128_si32(carry) as u16)
}
