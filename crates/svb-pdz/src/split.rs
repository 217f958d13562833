//! The piecewise split of PDZ, portable: the planes of a signal (encode) and the signal of
//! its planes (decode, the scalar twin of the SIMD merges and their tail).
//!
//! Samples `0..P` (`P = 128 * (n / 128)`, the vectorised section) are split in groups of
//! 64: sample `64g + 8c + k` (chunk `c`, lane `k`, both `0..8`) has its zig-zag delta `z`
//! cut into `u = z & 3` (B_u: bits `2c..2c+2` of the group's little-endian u16 word `k`),
//! `l = (z >> 2) & 0xFF` and the high byte `z >> 8` with its low two bits clear (B_l and
//! B_h: byte `16q + 2k + j` of the group's 64, for chunk `c = 2q + j`). The samples after
//! `P` (the tail) store the raw delta `d`, not zig-zagged: `d & 3` packed four to a B_u
//! byte from its low bits, `(d >> 2) & 0xFF` in B_l and `d >> 10` in B_h.

/// Samples in the vectorised section of `n`: whole 128-sample blocks.
#[inline]
pub(crate) fn vector_samples(n: usize) -> usize {
    n / 128 * 128
}

/// Bytes of the raw plane B_u of `n` samples: 2 bits a sample, the tail's rounded up.
#[inline]
pub(crate) fn u_len(n: usize) -> usize {
    n.div_ceil(4)
}

/// Zig-zag code of a 16-bit delta.
#[inline(always)]
pub(crate) fn zigzag(d: u16) -> u16 {
    (d << 1) ^ ((d as i16) >> 15) as u16
}

/// The delta of a zig-zag code.
#[inline(always)]
pub(crate) fn unzigzag(z: u16) -> u16 {
    (z >> 1) ^ (z & 1).wrapping_neg()
}

/// Splits `samples` into the three planes: `u` (`u_len(n)` bytes), `l` and `h` (`n` bytes
/// each); every byte of them is written.
pub(crate) fn split(samples: &[i16], u: &mut [u8], l: &mut [u8], h: &mut [u8]) {
    let n = samples.len();
    debug_assert!(u.len() == u_len(n) && l.len() == n && h.len() == n);
    let p = vector_samples(n);
    let mut prev = 0u16;
    for (g, group) in samples[..p].chunks_exact(64).enumerate() {
        let mut words = [0u16; 8];
        for (i, &x) in group.iter().enumerate() {
            let d = (x as u16).wrapping_sub(prev);
            prev = x as u16;
            let z = zigzag(d);
            let (c, k) = (i / 8, i % 8);
            words[k] |= (z & 3) << (2 * c);
            let at = 64 * g + 16 * (c / 2) + 2 * k + c % 2;
            l[at] = (z >> 2) as u8;
            h[at] = (z >> 8) as u8 & 0xFC;
        }
        for (k, w) in words.iter().enumerate() {
            u[16 * g + 2 * k..16 * g + 2 * k + 2].copy_from_slice(&w.to_le_bytes());
        }
    }
    split_tail(samples, u, l, h, p, prev);
}

/// The tail of [`split`]: samples `p..` (raw deltas), from the sample before them, `prev`.
#[inline]
pub(crate) fn split_tail(
    samples: &[i16], u: &mut [u8], l: &mut [u8], h: &mut [u8], p: usize, mut prev: u16,
) {
    let tail_u = &mut u[p / 4..];
    tail_u.fill(0);
    for (t, &x) in samples[p..].iter().enumerate() {
        let d = (x as u16).wrapping_sub(prev);
        prev = x as u16;
        tail_u[t / 4] |= ((d & 3) as u8) << (2 * (t % 4));
        l[p + t] = (d >> 2) as u8;
        h[p + t] = (d >> 10) as u8;
    }
}

/// The signal of the planes (`u`: `u_len(n)` bytes, `l` and `h`: `n` = `out.len()` bytes
/// each), as ONT's scalar decoder reads any bytes: in the vectorised section
/// `z = u | l << 2 | h << 8` (ORed, in 16 bits), in the tail `d = u | l << 2 | h << 10`;
/// then the deltas summed from 0 (wrapping).
pub(crate) fn merge(u: &[u8], l: &[u8], h: &[u8], out: &mut [i16]) {
    let n = out.len();
    debug_assert!(u.len() == u_len(n) && l.len() == n && h.len() == n);
    let p = vector_samples(n);
    let mut x = 0u16;
    for (g, group) in out[..p].chunks_exact_mut(64).enumerate() {
        for (i, o) in group.iter_mut().enumerate() {
            let (c, k) = (i / 8, i % 8);
            let word = u16::from_le_bytes([u[16 * g + 2 * k], u[16 * g + 2 * k + 1]]);
            let at = 64 * g + 16 * (c / 2) + 2 * k + c % 2;
            let z = (word >> (2 * c)) & 3 | u16::from(l[at]) << 2 | u16::from(h[at]) << 8;
            x = x.wrapping_add(unzigzag(z));
            *o = x as i16;
        }
    }
    merge_tail(u, l, h, p, x, out);
}

/// The tail of [`merge`]: samples `p..` (raw deltas), from the running sample `x`.
#[inline]
pub(crate) fn merge_tail(u: &[u8], l: &[u8], h: &[u8], p: usize, mut x: u16, out: &mut [i16]) {
    let tail_u = &u[p / 4..];
    for (t, o) in out[p..].iter_mut().enumerate() {
        let d = u16::from((tail_u[t / 4] >> (2 * (t % 4))) & 3)
            | u16::from(l[p + t]) << 2
            | u16::from(h[p + t]) << 10;
        x = x.wrapping_add(d);
        *o = x as i16;
    }
}
