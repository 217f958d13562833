//! Multi-chain decode of i16 delta streams: independent carry chains decoded interleaved in
//! one loop, so one chain's carry latency hides behind another's arithmetic.
//!
//! Two layouts:
//! - 2-chain (VBZ2): the halves `[0, n/2)` and `[n/2, n)`; the second starts from
//!   [`mid_carry`] = `initial + sum(deltas[..n/2])`.
//! - K-chain (VBZ-K): chains `0..K-1` of [`kchain_len`] = `(n / K) & !7` elements each (a
//!   multiple of 8, so SIMD blocks stay whole), the last one takes the rest; chain `j > 0`
//!   starts from the carry `initial + sum(deltas[..j * kchain_len])` ([`split_points`]).
//!
//! Wrong carries give wrong values, never undefined behaviour.

#[cfg(feature = "alloc")]
use alloc::vec::Vec;
#[cfg(feature = "alloc")]
use core::convert::Infallible;
#[cfg(feature = "alloc")]
use svb_dispatch::uninit;

use super::{kernels, Kernels};

/// `initial + sum(deltas[..n/2])` (wrapping): the value just before the second half, which a
/// 2-chain encoder stores.
pub fn mid_carry(initial: i16, deltas: &[i16]) -> i16 {
    deltas[..deltas.len() / 2].iter().fold(initial, |acc, &d| acc.wrapping_add(d))
}

/// Length of each of the first `k - 1` chains of a K-chain split of `n` elements:
/// `(n / k) & !7` (0 when `k` is 0).
pub fn kchain_len(n: usize, k: usize) -> usize {
    n.checked_div(k).unwrap_or(0) & !7
}

/// Where chain `j > 0` of a K-chain split starts, and the value just before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SplitPoint {
    /// Element offset of the chain's first delta.
    pub offset: usize,
    /// `initial + sum(deltas[..offset])`: the chain's starting value.
    pub carry: i16,
}

/// The `k - 1` split points of a K-chain split of `deltas` (empty for `k <= 1`): what an
/// encoder stores so a decoder can start every chain at once.
///
/// ```
/// use svb_delta::delta;
/// let v: Vec<i16> = (0..100).map(|i| i * 3).collect();
/// let d = delta::encode(&v);
/// let points = delta::split_points(0, &d, 4);
/// assert_eq!(points.len(), 3);
/// assert_eq!(points[0].offset, 24); // (100 / 4) & !7
/// assert_eq!(points[0].carry, v[23]);
/// let carries: Vec<i16> = points.iter().map(|p| p.carry).collect();
/// assert_eq!(delta::decode_kchain(0, &d, &carries), v);
/// ```
#[cfg(feature = "alloc")]
pub fn split_points(initial: i16, deltas: &[i16], k: usize) -> Vec<SplitPoint> {
    let sub = kchain_len(deltas.len(), k);
    let mut points = Vec::with_capacity(k.saturating_sub(1));
    let mut carry = initial;
    for j in 1..k {
        let (from, to) = ((j - 1) * sub, j * sub);
        carry = deltas[from..to].iter().fold(carry, |acc, &d| acc.wrapping_add(d));
        points.push(SplitPoint { offset: to, carry });
    }
    points
}

/// The `k - 1` carries of a K-chain split (the `carry` of each [`split_points`] entry).
#[cfg(feature = "alloc")]
pub fn kchain_carries(initial: i16, deltas: &[i16], k: usize) -> Vec<i16> {
    split_points(initial, deltas, k).into_iter().map(|p| p.carry).collect()
}

/// Pointers of one chain.
#[derive(Clone, Copy)]
struct Chain {
    src: *const u16,
    dst: *mut u16,
    carry: u16,
    len: usize,
}

impl Kernels {
    /// Runs chains that share a common prefix length `common` interleaved, then finishes
    /// each chain alone.
    ///
    /// # Safety
    /// Every chain's `src` is readable and `dst` writable for its `len` >= `common` elements.
    unsafe fn run_group(&self, chains: &[Chain], common: usize) {
        macro_rules! group {
            ($k:literal, $f:ident) => {{
                let src: [*const u16; $k] = core::array::from_fn(|j| chains[j].src);
                let dst: [*mut u16; $k] = core::array::from_fn(|j| chains[j].dst);
                let carries: [u16; $k] = core::array::from_fn(|j| chains[j].carry);
                // SAFETY: every chain holds at least `common` elements (caller).
                unsafe { (self.$f)(src, dst, carries, common) }
            }};
        }
        let (done, carries): (usize, [u16; 8]) = match chains.len() {
            8 => group!(8, chains8_u16),
            4 => {
                let (d, c) = group!(4, chains4_u16);
                (d, core::array::from_fn(|j| c.get(j).copied().unwrap_or(0)))
            }
            2 => {
                let (d, c) = group!(2, chains2_u16);
                (d, core::array::from_fn(|j| c.get(j).copied().unwrap_or(0)))
            }
            _ => (0, core::array::from_fn(|j| chains.get(j).map_or(0, |c| c.carry))),
        };
        for (c, &carry) in chains.iter().zip(&carries) {
            // SAFETY: `done <= len` elements were decoded; the rest are inside the chain.
            unsafe { (self.u16)(carry, c.src.add(done), c.dst.add(done), c.len - done) };
        }
    }

    /// 2-chain decode of `deltas` into `out` (same length): the second half starts from
    /// `mid_carry` (see [`mid_carry`]).
    ///
    /// # Panics
    /// When `out.len() != deltas.len()`.
    pub fn decode_2chain_to_slice(
        &self, initial: i16, deltas: &[i16], mid_carry: i16, out: &mut [i16],
    ) {
        assert_eq!(deltas.len(), out.len(), "delta::decode_2chain_to_slice: length mismatch");
        // SAFETY: `out` holds deltas.len() writable elements.
        unsafe { self.decode_2chain_raw(initial, deltas, mid_carry, out.as_mut_ptr()) };
    }

    /// # Safety
    /// `dst` is writable for `deltas.len()` elements.
    unsafe fn decode_2chain_raw(
        &self, initial: i16, deltas: &[i16], mid_carry: i16, dst: *mut i16,
    ) {
        let n = deltas.len();
        let mid = n / 2;
        let (s, d) = (deltas.as_ptr().cast::<u16>(), dst.cast::<u16>());
        // SAFETY: mid <= n, inside both buffers.
        let (s_mid, d_mid) = unsafe { (s.add(mid), d.add(mid)) };
        let chains = [
            Chain { src: s, dst: d, carry: initial as u16, len: mid },
            Chain { src: s_mid, dst: d_mid, carry: mid_carry as u16, len: n - mid },
        ];
        // SAFETY: the chains tile [0, n) of both buffers; mid <= n - mid.
        unsafe { self.run_group(&chains, mid) };
    }

    /// K-chain decode of `deltas` into `out` (same length), `K = carries.len() + 1`; chain `j`
    /// starts from `carries[j - 1]` (see [`split_points`]).
    ///
    /// # Panics
    /// When `out.len() != deltas.len()`.
    pub fn decode_kchain_to_slice(
        &self, initial: i16, deltas: &[i16], carries: &[i16], out: &mut [i16],
    ) {
        assert_eq!(deltas.len(), out.len(), "delta::decode_kchain_to_slice: length mismatch");
        // SAFETY: `out` holds deltas.len() writable elements.
        unsafe { self.decode_kchain_raw(initial, deltas, carries, out.as_mut_ptr()) };
    }

    /// # Safety
    /// `dst` is writable for `deltas.len()` elements.
    unsafe fn decode_kchain_raw(
        &self, initial: i16, deltas: &[i16], carries: &[i16], dst: *mut i16,
    ) {
        let n = deltas.len();
        let k = carries.len() + 1;
        let sub = kchain_len(n, k);
        let (s, d) = (deltas.as_ptr().cast::<u16>(), dst.cast::<u16>());
        let chain = |j: usize| {
            // SAFETY: j * sub <= (k - 1) * sub <= n, inside both buffers.
            let (src, dst) = unsafe { (s.add(j * sub), d.add(j * sub)) };
            Chain {
                src,
                dst,
                carry: if j == 0 { initial as u16 } else { carries[j - 1] as u16 },
                len: if j + 1 == k { n - j * sub } else { sub },
            }
        };
        let mut j = 0;
        while j < k {
            let size = match k - j {
                r if r >= 8 => 8,
                r if r >= 4 => 4,
                r if r >= 2 => 2,
                _ => 1,
            };
            let group: [Chain; 8] = core::array::from_fn(|i| chain((j + i).min(k - 1)));
            // SAFETY: the chains tile [0, n) of both buffers and each holds at least `sub`
            // elements.
            unsafe { self.run_group(&group[..size], sub) };
            j += size;
        }
    }

    /// Appends the 2-chain decode of `deltas` to `out`.
    #[cfg(feature = "alloc")]
    pub fn decode_2chain_into(
        &self, initial: i16, deltas: &[i16], mid_carry: i16, out: &mut Vec<i16>,
    ) {
        let n = deltas.len();
        // SAFETY: the spare capacity holds at least n elements, and the chains write all n
        // of them.
        let Ok(_) = unsafe {
            uninit::append_with(out, n, |spare| {
                self.decode_2chain_raw(initial, deltas, mid_carry, spare.as_mut_ptr().cast());
                Ok::<_, Infallible>(n)
            })
        };
    }

    /// Appends the K-chain decode of `deltas` to `out`.
    #[cfg(feature = "alloc")]
    pub fn decode_kchain_into(
        &self, initial: i16, deltas: &[i16], carries: &[i16], out: &mut Vec<i16>,
    ) {
        let n = deltas.len();
        // SAFETY: as in `decode_2chain_into`.
        let Ok(_) = unsafe {
            uninit::append_with(out, n, |spare| {
                self.decode_kchain_raw(initial, deltas, carries, spare.as_mut_ptr().cast());
                Ok::<_, Infallible>(n)
            })
        };
    }
}

/// 2-chain decode into `out` with the best kernels (see [`Kernels::decode_2chain_to_slice`]).
pub fn decode_2chain_to_slice(initial: i16, deltas: &[i16], mid_carry: i16, out: &mut [i16]) {
    kernels().decode_2chain_to_slice(initial, deltas, mid_carry, out);
}

/// K-chain decode into `out` with the best kernels (see [`Kernels::decode_kchain_to_slice`]).
pub fn decode_kchain_to_slice(initial: i16, deltas: &[i16], carries: &[i16], out: &mut [i16]) {
    kernels().decode_kchain_to_slice(initial, deltas, carries, out);
}

/// Appends the 2-chain decode of `deltas` to `out`.
#[cfg(feature = "alloc")]
pub fn decode_2chain_into(initial: i16, deltas: &[i16], mid_carry: i16, out: &mut Vec<i16>) {
    kernels().decode_2chain_into(initial, deltas, mid_carry, out);
}

/// The 2-chain decode of `deltas`: the values, identical to [`super::decode_with_initial`].
///
/// ```
/// use svb_delta::delta;
/// let v: Vec<i16> = (0..1000).map(|i| (i * 7 % 300) as i16 - 150).collect();
/// let d = delta::encode(&v);
/// assert_eq!(delta::decode_2chain(0, &d, delta::mid_carry(0, &d)), v);
/// ```
#[cfg(feature = "alloc")]
pub fn decode_2chain(initial: i16, deltas: &[i16], mid_carry: i16) -> Vec<i16> {
    let mut out = Vec::new();
    decode_2chain_into(initial, deltas, mid_carry, &mut out);
    out
}

/// Appends the K-chain decode of `deltas` to `out`.
#[cfg(feature = "alloc")]
pub fn decode_kchain_into(initial: i16, deltas: &[i16], carries: &[i16], out: &mut Vec<i16>) {
    kernels().decode_kchain_into(initial, deltas, carries, out);
}

/// The K-chain decode of `deltas` (`K = carries.len() + 1`).
#[cfg(feature = "alloc")]
pub fn decode_kchain(initial: i16, deltas: &[i16], carries: &[i16]) -> Vec<i16> {
    let mut out = Vec::new();
    decode_kchain_into(initial, deltas, carries, &mut out);
    out
}
