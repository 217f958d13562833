//! ex-zd, slow5lib's newer signal codec (wire in docs/FORMATS.md):
//!
//! ```text
//! u8 version (0) | u64 n | u8 q | u16 zd[0] | u32 nex | exceptions | u8 per other value
//! ```
//! `q` is the largest shift (at most 5) whose low bits are zero in every sample; the samples
//! are shifted right by `q`, delta-coded in 16 bits (wrapping) and zigzagged (`zd`). Values of
//! `zd[1..]` above 255 are exceptions, stored as positions (in `zd[1..]`) and `value - 256`:
//! with two or more, `u32 nbytes | StreamVByte-1234 of the positions (first absolute, then
//! gap - 1) | u32 nbytes | StreamVByte-1234 of the values`; with one, `u32 position | u32
//! value`. Every other value is one byte, in order.
//!
//! slow5lib's encoder aborts the process when the output outgrows `2n + 1024` bytes
//! (high-entropy signal); ours encodes any input and matches slow5lib's bytes wherever
//! slow5lib can encode. Zero samples (which slow5lib cannot encode) are the 10-byte header
//! alone, with `q = 0`.

#[cfg(target_arch = "aarch64")]
mod aarch64;
#[cfg(target_arch = "x86_64")]
mod x86_64;

use core::mem::MaybeUninit;

use svb_core::{Codec, U32Classic};
use svb_delta::zigzag::Zigzag;
use svb_dispatch::{per_isa, uninit, Isa};

use crate::SignalError;

const CODEC: &str = "ex-zd";

/// Bytes of `version | n | q`.
pub const HEADER_LEN: usize = 10;

/// The largest `q <= 5` with the low `q` bits of every sample zero.
fn find_q(samples: &[i16]) -> u8 {
    let mut q = 5u8;
    for &s in samples {
        while q > 0 && s & ((1i16 << q) - 1) != 0 {
            q -= 1;
        }
        if q == 0 {
            break;
        }
    }
    q
}

/// Appends the ex-zd blob of `samples` to `out`.
///
/// # Panics
/// With 2^32 samples or more (exception positions are u32).
pub fn encode_exzd_into(samples: &[i16], out: &mut Vec<u8>) {
    let n = samples.len();
    assert!(u32::try_from(n).is_ok(), "an ex-zd blob holds fewer than 2^32 samples");
    out.push(0);
    out.extend_from_slice(&(n as u64).to_le_bytes());
    if n == 0 {
        out.push(0);
        return;
    }
    let q = find_q(samples);
    out.push(q);
    let mut prev = 0i16;
    let zd: Vec<u16> = samples
        .iter()
        .map(|&s| {
            let x = s >> q;
            let d = x.wrapping_sub(prev);
            prev = x;
            d.zigzag()
        })
        .collect();
    out.extend_from_slice(&zd[0].to_le_bytes());
    let rest = &zd[1..];
    let (mut pos, mut ex) = (Vec::new(), Vec::new());
    for (i, &v) in rest.iter().enumerate() {
        if v > 0xFF {
            pos.push(i as u32);
            ex.push(v as u32 - 256);
        }
    }
    out.extend_from_slice(&(pos.len() as u32).to_le_bytes());
    match pos.len() {
        0 => {}
        1 => {
            out.extend_from_slice(&pos[0].to_le_bytes());
            out.extend_from_slice(&ex[0].to_le_bytes());
        }
        _ => {
            let mut gaps = Vec::with_capacity(pos.len());
            gaps.push(pos[0]);
            gaps.extend(pos.windows(2).map(|w| w[1] - w[0] - 1));
            for values in [&gaps, &ex] {
                let at = out.len();
                out.extend_from_slice(&[0; 4]);
                let len = U32Classic.encode_into(values, out) as u32;
                out[at..at + 4].copy_from_slice(&len.to_le_bytes());
            }
        }
    }
    out.extend(rest.iter().filter(|&&v| v <= 0xFF).map(|&v| v as u8));
}

/// The ex-zd blob of `samples`.
///
/// ```
/// use svb_slow5_signal::{decode_exzd, decode_exzd_fused, encode_exzd};
/// let signal: Vec<i16> = (0..2000).map(|i| 8 * (60 + (i % 50) as i16)).collect();
/// let blob = encode_exzd(&signal);
/// assert_eq!(blob[9], 3); // every sample is a multiple of 8: q = 3
/// assert_eq!(decode_exzd(&blob)?, signal);
/// assert_eq!(decode_exzd_fused(&blob)?, signal);
/// # Ok::<(), svb_slow5_signal::SignalError>(())
/// ```
///
/// # Panics
/// With 2^32 samples or more.
pub fn encode_exzd(samples: &[i16]) -> Vec<u8> {
    let mut out = Vec::new();
    encode_exzd_into(samples, &mut out);
    out
}

/// A parsed ex-zd blob: header fields, exceptions decoded into reusable buffers.
struct Parsed<'a> {
    n: usize,
    q: u8,
    zd0: u16,
    /// One byte per value of `zd[1..]` that is not an exception.
    bytes: &'a [u8],
}

/// Reusable ex-zd decoder: keeps its exception buffers between blobs, so decoding many
/// reads allocates only when a read has more exceptions than any before.
///
/// ```
/// let mut dec = svb_slow5_signal::ExZdDecoder::new();
/// let mut out = Vec::new();
/// for len in [10usize, 5000, 77] {
///     let signal: Vec<i16> = (0..len).map(|i| (i * i % 700) as i16).collect();
///     out.clear();
///     dec.decode_into(&svb_slow5_signal::encode_exzd(&signal), &mut out)?;
///     assert_eq!(out, signal);
/// }
/// # Ok::<(), svb_slow5_signal::SignalError>(())
/// ```
#[derive(Debug, Default, Clone)]
pub struct ExZdDecoder {
    pos: Vec<u32>,
    ex: Vec<u32>,
}

impl ExZdDecoder {
    /// A decoder with empty buffers.
    pub fn new() -> Self {
        Self::default()
    }

    /// The sample count an ex-zd blob declares, checked against its size.
    pub fn samples(blob: &[u8]) -> Result<usize, SignalError> {
        let h = crate::error::blob_header::<HEADER_LEN>(CODEC, blob)?;
        if h[0] != 0 {
            return Err(SignalError::UnknownVersion(h[0]));
        }
        let n = u64::from_le_bytes(h[1..9].try_into().expect("8 bytes"));
        // Past the header every sample but the first takes at least one byte (its own, or
        // more than one in the exception streams), and the first takes 2 + 4 (nex).
        let max = match blob.len() - HEADER_LEN {
            0 => 0,
            body => body.saturating_sub(6) as u64 + 1,
        };
        if n > max || n > u32::MAX as u64 {
            return Err(SignalError::CountTooLarge {
                codec: CODEC,
                declared: n,
                len: blob.len(),
                max,
            });
        }
        Ok(n as usize)
    }

    fn parse<'a>(&mut self, blob: &'a [u8]) -> Result<Parsed<'a>, SignalError> {
        let n = Self::samples(blob)?;
        let q = blob[9];
        if q > 5 {
            return Err(SignalError::BadShift(q));
        }
        self.pos.clear();
        self.ex.clear();
        if n == 0 {
            if blob.len() != HEADER_LEN {
                return Err(SignalError::LengthMismatch {
                    codec: CODEC,
                    consumed: HEADER_LEN,
                    len: blob.len(),
                });
            }
            return Ok(Parsed { n, q, zd0: 0, bytes: &[] });
        }
        let mut r = Cursor { blob, at: HEADER_LEN };
        let zd0 = u16::from_le_bytes(r.take::<2>()?);
        let nex = u32::from_le_bytes(r.take::<4>()?) as usize;
        let limit = (n - 1) as u64;
        if nex as u64 > limit {
            return Err(SignalError::CountMismatch { declared: n as u64, found: 1 + nex as u64 });
        }
        match nex {
            0 => {}
            1 => {
                self.pos.push(u32::from_le_bytes(r.take::<4>()?));
                self.ex.push(u32::from_le_bytes(r.take::<4>()?));
            }
            _ => {
                for dst in [&mut self.pos, &mut self.ex] {
                    let len = u32::from_le_bytes(r.take::<4>()?) as usize;
                    let stream = r.slice(len)?;
                    // Each value takes at least one byte: nex <= limit < the blob's size.
                    let used = U32Classic
                        .decode_into(stream, nex, dst)
                        .map_err(|source| SignalError::StreamVByte { codec: CODEC, source })?;
                    if used != len {
                        return Err(SignalError::LengthMismatch {
                            codec: CODEC,
                            consumed: r.at - len + used,
                            len: r.at,
                        });
                    }
                }
                // Gaps back to positions: first absolute, then previous + gap + 1.
                let mut prev: Option<u64> = None;
                for (i, p) in self.pos.iter_mut().enumerate() {
                    let at = match prev {
                        None => *p as u64,
                        Some(q) => q + *p as u64 + 1,
                    };
                    if at >= limit {
                        return Err(SignalError::BadException { index: i, position: at, limit });
                    }
                    *p = at as u32;
                    prev = Some(at);
                }
            }
        }
        if let Some(&p) = self.pos.first() {
            if nex == 1 && p as u64 >= limit {
                return Err(SignalError::BadException { index: 0, position: p as u64, limit });
            }
        }
        let bytes = &blob[r.at..];
        let found = 1 + nex as u64 + bytes.len() as u64;
        if found != n as u64 {
            return Err(SignalError::CountMismatch { declared: n as u64, found });
        }
        Ok(Parsed { n, q, zd0, bytes })
    }

    /// 3-pass decode (values, unzigzag + prefix sum, shift), appending to `out`.
    pub fn decode_into(&mut self, blob: &[u8], out: &mut Vec<i16>) -> Result<(), SignalError> {
        let p = self.parse(blob)?;
        if p.n == 0 {
            return Ok(());
        }
        let mut zd: Vec<u16> = Vec::with_capacity(p.n);
        zd.push(p.zd0);
        let mut bytes = p.bytes.iter();
        let mut exceptions = self.pos.iter().zip(&self.ex).peekable();
        for i in 0..p.n as u32 - 1 {
            let v = match exceptions.peek() {
                Some((&at, &e)) if at == i => {
                    exceptions.next();
                    (e as u16).wrapping_add(256)
                }
                _ => *bytes.next().expect("counted: one byte per non-exception") as u16,
            };
            zd.push(v);
        }
        let deltas: Vec<i16> = zd.iter().map(|&z| i16::unzigzag(z)).collect();
        let start = out.len();
        svb_delta::delta::decode_into(&deltas, out);
        for s in &mut out[start..] {
            *s = s.wrapping_shl(p.q as u32);
        }
        Ok(())
    }

    /// Fused decode (one pass: value, unzigzag, accumulate, shift), appending to `out`.
    pub fn decode_fused_into(
        &mut self, blob: &[u8], out: &mut Vec<i16>,
    ) -> Result<(), SignalError> {
        self.decode_fused_by(KERNELS.best(), blob, out)
    }

    fn decode_fused_by(
        &mut self, f: &Runs, blob: &[u8], out: &mut Vec<i16>,
    ) -> Result<(), SignalError> {
        let p = self.parse(blob)?;
        if p.n == 0 {
            return Ok(());
        }
        // parse() checked n against the blob's length.
        // SAFETY: the runs and the exceptions write all n samples (parse() checked that
        // 1 + exceptions + plain bytes == n, with positions in order and in range).
        unsafe {
            uninit::append_with(out, p.n, |spare| {
                let spare = &mut spare[..p.n];
                let q = p.q as u32;
                let mut acc = i16::unzigzag(p.zd0);
                spare[0].write(acc.wrapping_shl(q));
                let mut at = 1usize;
                let mut bytes = p.bytes;
                let mut next = 0u32;
                for (&pos, &e) in self.pos.iter().zip(&self.ex) {
                    // The plain bytes before this exception, then the exception.
                    let (run, rest) = bytes.split_at((pos - next) as usize);
                    acc = f.run(run, acc, q, &mut spare[at..at + run.len()]);
                    at += run.len();
                    acc = acc.wrapping_add(i16::unzigzag((e as u16).wrapping_add(256)));
                    spare[at].write(acc.wrapping_shl(q));
                    at += 1;
                    bytes = rest;
                    next = pos + 1;
                }
                f.run(bytes, acc, q, &mut spare[at..at + bytes.len()]);
                debug_assert_eq!(at + bytes.len(), p.n);
                Ok::<_, SignalError>(p.n)
            })?;
        }
        Ok(())
    }
}

/// The SIMD part of the fused decoder: whole groups of 8 plain bytes; returns the samples
/// written and the new unshifted sample.
///
/// Safety: the CPU must support the ISA of the table that holds the kernel, and
/// `out.len() == bytes.len()`.
type RunFn = unsafe fn(&[u8], i16, u32, &mut [MaybeUninit<i16>]) -> (usize, i16);

/// One ISA's run decoder. A `&'static Runs` exists only for an ISA this CPU runs (the tables
/// are private and handed out through [`PerIsa`](svb_dispatch::PerIsa)).
struct Runs {
    simd: RunFn,
}

impl Runs {
    /// Decodes a run of plain bytes into the front of `out` (at least as long) after the
    /// unshifted sample `acc`; returns the new `acc`.
    fn run(&self, bytes: &[u8], mut acc: i16, q: u32, out: &mut [MaybeUninit<i16>]) -> i16 {
        let out = &mut out[..bytes.len()];
        let mut done = 0;
        // The SIMD part decodes whole groups of 8 bytes: shorter runs (most of them, between
        // close exceptions) skip the call.
        if bytes.len() >= 8 {
            // SAFETY: `self` is one of the private tables below, which `KERNELS` hands out
            // only when this CPU runs its ISA; out.len() == bytes.len() (sliced above).
            (done, acc) = unsafe { (self.simd)(bytes, acc, q, out) };
        }
        for (&b, slot) in bytes[done..].iter().zip(&mut out[done..]) {
            acc = acc.wrapping_add(i16::unzigzag(b as u16));
            slot.write(acc.wrapping_shl(q));
        }
        acc
    }
}

/// The scalar decoder has no SIMD part: `run`'s loop decodes everything.
fn no_simd(_: &[u8], acc: i16, _: u32, _: &mut [MaybeUninit<i16>]) -> (usize, i16) {
    (0, acc)
}

per_isa! {
    static KERNELS: PerIsa<Runs> = {
        Scalar => Runs { simd: no_simd },
        #[cfg(target_arch = "x86_64")]
        Ssse3 => Runs { simd: x86_64::run },
        #[cfg(target_arch = "x86_64")]
        Avx2 => Runs { simd: x86_64::run_avx2 },
        #[cfg(target_arch = "aarch64")]
        Neon => Runs { simd: aarch64::run },
    };
}

/// Fused ex-zd decode with the kernel of `isa` (`None` when this CPU cannot run it): for
/// comparing ISAs in tests and benchmarks.
pub fn decode_exzd_fused_with(isa: Isa, blob: &[u8]) -> Option<Result<Vec<i16>, SignalError>> {
    let f = KERNELS.get(isa)?;
    let mut out = Vec::new();
    Some(ExZdDecoder::new().decode_fused_by(f, blob, &mut out).map(|()| out))
}

/// Bounds-checked reads from a blob.
struct Cursor<'a> {
    blob: &'a [u8],
    at: usize,
}

impl<'a> Cursor<'a> {
    fn slice(&mut self, len: usize) -> Result<&'a [u8], SignalError> {
        match self.blob.get(self.at..self.at.saturating_add(len)) {
            Some(s) => {
                self.at += len;
                Ok(s)
            }
            None => Err(SignalError::LengthMismatch {
                codec: CODEC,
                consumed: self.at.saturating_add(len),
                len: self.blob.len(),
            }),
        }
    }

    fn take<const N: usize>(&mut self) -> Result<[u8; N], SignalError> {
        Ok(self.slice(N)?.try_into().expect("N bytes"))
    }
}

/// 3-pass decode of an ex-zd blob, appending to `out`.
pub fn decode_exzd_into(blob: &[u8], out: &mut Vec<i16>) -> Result<(), SignalError> {
    ExZdDecoder::new().decode_into(blob, out)
}

/// 3-pass decode of an ex-zd blob.
pub fn decode_exzd(blob: &[u8]) -> Result<Vec<i16>, SignalError> {
    crate::filled(|out| decode_exzd_into(blob, out))
}

/// Fused decode of an ex-zd blob, appending to `out`.
pub fn decode_exzd_fused_into(blob: &[u8], out: &mut Vec<i16>) -> Result<(), SignalError> {
    ExZdDecoder::new().decode_fused_into(blob, out)
}

/// Fused decode of an ex-zd blob.
pub fn decode_exzd_fused(blob: &[u8]) -> Result<Vec<i16>, SignalError> {
    crate::filled(|out| decode_exzd_fused_into(blob, out))
}
