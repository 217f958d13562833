//! PDZ, the second signal compression of ONT's POD5 files (the Arrow extension type
//! `minknow.pdz`, beside VBZ's `minknow.vbz`), byte for byte as ONT's codec writes it.
//!
//! A block holds one signal of `n` int16 samples: its wrapping deltas (from 0) are
//! zig-zag coded and each code cut into a 2-bit, an 8-bit and a 6-bit piece; the 2-bit
//! pieces are stored raw (B_u, `n / 4` bytes), the 8-bit and 6-bit pieces each as a plane
//! of one byte a sample compressed as one zstd level-1 frame (Z_l, Z_h). See
//! docs/FORMATS.md for the layout byte by byte.
//!
//! ```
//! let signal: Vec<i16> = (0..10_000).map(|i| 480 + ((i * 37) % 61) as i16 - 30).collect();
//! let block = svb_pdz::encode(&signal)?;
//! assert_eq!(svb_pdz::decode(&block, signal.len())?, signal);
//! // A block is read for the sample count its POD5 row gives; another count is refused.
//! assert!(svb_pdz::decode(&block, signal.len() - 1).is_err());
//! # Ok::<(), svb_pdz::PdzError>(())
//! ```
//!
//! Decoding takes untrusted bytes: before anything is inflated, a block passes every check
//! ONT's POD5 adapter makes ([`check`]), and each plane must inflate to exactly `n` bytes,
//! into buffers each thread reuses; nothing panics, reads outside the block or allocates
//! more than the sample count asked for. The three pieces are merged, unzigzagged and
//! summed in one SIMD pass (SSSE3, AVX2, NEON; [`decode_into_with_isa`] picks one), where
//! ONT's decoder merges and then sums in a scalar loop; the encoder splits in registers too
//! ([`encode_with_isa`]).

#[cfg(target_arch = "aarch64")]
mod aarch64;
mod error;
mod split;
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
mod x86;

use std::cell::RefCell;

pub use error::PdzError;
pub use svb_dispatch::Isa;
use svb_io::zstd_frame;

/// Bytes of a block's header: the sample count and the two compressed planes' lengths, each
/// a little-endian u64.
pub const HEADER_LEN: usize = 24;

/// Most samples a block holds (a POD5 row's `samples` is a u32).
pub const MAX_SAMPLES: u64 = u32::MAX as u64;

/// The zstd level both planes are compressed at.
const LEVEL: i32 = 1;

/// A block's header.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Header {
    /// Samples of the signal.
    pub samples: u64,
    /// Bytes of the compressed low plane (Z_l).
    pub low_len: u64,
    /// Bytes of the compressed high plane (Z_h).
    pub high_len: u64,
}

impl Header {
    /// The header at the front of `block`; `None` when it is shorter than [`HEADER_LEN`].
    pub fn parse(block: &[u8]) -> Option<Header> {
        let field = |i: usize| {
            let bytes = block.get(8 * i..8 * i + 8)?;
            Some(u64::from_le_bytes(bytes.try_into().ok()?))
        };
        Some(Header { samples: field(0)?, low_len: field(1)?, high_len: field(2)? })
    }
}

/// The largest block of `n` samples: the header, B_u and zstd's bound for each plane.
pub fn max_encoded_len(n: usize) -> usize {
    HEADER_LEN
        .saturating_add(split::u_len(n))
        .saturating_add(zstd_frame::compress_bound(n).saturating_mul(2))
}

/// The checks ONT's POD5 adapter makes before it decodes `block` for a row of `samples`
/// samples, in its order: the count fits a u32 and the block is no larger than any block of
/// that many samples; the block holds a header whose count is `samples`; each compressed
/// plane is no longer than zstd makes of `samples` bytes, and the block is exactly its
/// header, B_u and the two planes (trailing bytes refused). Returns the header.
pub fn check(block: &[u8], samples: usize) -> Result<Header, PdzError> {
    if samples as u64 > MAX_SAMPLES {
        return Err(PdzError::TooManySamples { samples: samples as u64 });
    }
    let bound = max_encoded_len(samples);
    if block.len() > bound {
        return Err(PdzError::LargerThanBound { len: block.len(), samples, bound });
    }
    let header = Header::parse(block).ok_or(PdzError::NoHeader { len: block.len() })?;
    if header.samples != samples as u64 {
        return Err(PdzError::SampleCount { header: header.samples, expected: samples });
    }
    let plane_bound = zstd_frame::compress_bound(samples);
    for (plane, len) in [("low", header.low_len), ("high", header.high_len)] {
        if len > plane_bound as u64 {
            return Err(PdzError::PlaneTooLarge { plane, len, samples, bound: plane_bound });
        }
    }
    // Each term is bounded above (a u32 count, zstd bounds of it): no overflow in u64.
    let expected = (HEADER_LEN + split::u_len(samples)) as u64 + header.low_len + header.high_len;
    if block.len() as u64 != expected {
        return Err(PdzError::Length { len: block.len(), expected, samples });
    }
    Ok(header)
}

/// [`check`], and each compressed plane one whole zstd frame that declares `samples` bytes,
/// without inflating either: what a writer copying a stored block as it is (a POD5 chunk
/// into another PDZ file) can know of it short of decoding it.
///
/// ```
/// let block = svb_pdz::encode(&[5, 6, 7, 8, 9])?;
/// assert!(svb_pdz::check_stored(&block, 5).is_ok());
/// assert!(svb_pdz::check_stored(&block[..block.len() - 1], 5).is_err());
/// # Ok::<(), svb_pdz::PdzError>(())
/// ```
pub fn check_stored(block: &[u8], samples: usize) -> Result<Header, PdzError> {
    let header = check(block, samples)?;
    let (_, low, high) = parts(block, samples, &header);
    for (plane, frame) in [("low", low), ("high", high)] {
        let declared = zstd_frame::content_size(frame)
            .and_then(|d| zstd_frame::check_whole(frame).map(|()| d))
            .map_err(|source| PdzError::Plane { plane, source })?;
        if declared != samples as u64 {
            return Err(PdzError::PlaneSize { plane, declared, samples });
        }
    }
    Ok(header)
}

/// B_u, Z_l and Z_h of a block of `samples` samples that passed [`check`] with `header`
/// (which made the block exactly these parts).
fn parts<'a>(block: &'a [u8], samples: usize, header: &Header) -> (&'a [u8], &'a [u8], &'a [u8]) {
    let (u, planes) = block[HEADER_LEN..].split_at(split::u_len(samples));
    let (low, high) = planes.split_at(header.low_len as usize);
    (u, low, high)
}

std::thread_local! {
    /// The inflated (decode) or split (encode) low and high planes, reused by each thread.
    static LOW: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    static HIGH: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// The PDZ block of `samples`.
pub fn encode(samples: &[i16]) -> Result<Vec<u8>, PdzError> {
    let mut out = Vec::new();
    encode_into(samples, &mut out)?;
    Ok(out)
}

/// Appends the PDZ block of `samples` to `out`; returns its length. Nothing is appended on
/// error (more than [`MAX_SAMPLES`] samples, or zstd unable to allocate).
pub fn encode_into(samples: &[i16], out: &mut Vec<u8>) -> Result<usize, PdzError> {
    encode_planes(samples, out, kernels_of(Isa::best()).0)
}

/// [`encode`] with `isa`'s split (the bytes are the same on every ISA); `None` when this CPU
/// (or build) cannot run it.
pub fn encode_with_isa(samples: &[i16], isa: Isa) -> Option<Result<Vec<u8>, PdzError>> {
    isa.is_available().then(|| {
        let mut out = Vec::new();
        encode_planes(samples, &mut out, kernels_of(isa).0).map(|_| out)
    })
}

/// A split of the signal into the planes: safe to call (its ISA was checked).
type Split = fn(&[i16], &mut [u8], &mut [u8], &mut [u8]);

/// A merge of the planes into the signal: safe to call (its ISA was checked).
type Merge = fn(&[u8], &[u8], &[u8], &mut [i16]);

/// The split and the merge of `isa`, which this CPU runs (checked by the callers).
fn kernels_of(isa: Isa) -> (Split, Merge) {
    match isa {
        #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
        // SAFETY: callers pass an ISA this CPU runs (Isa::best, or checked available).
        Isa::Avx2 => unsafe {
            (|x, u, l, h| x86::split_avx2(x, u, l, h), |u, l, h, out| x86::merge_avx2(u, l, h, out))
        },
        #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
        // SAFETY: as above.
        Isa::Ssse3 => unsafe {
            (
                |x, u, l, h| x86::split_ssse3(x, u, l, h),
                |u, l, h, out| x86::merge_ssse3(u, l, h, out),
            )
        },
        #[cfg(target_arch = "aarch64")]
        // SAFETY: as above.
        Isa::Neon => unsafe {
            (
                |x, u, l, h| aarch64::split_neon(x, u, l, h),
                |u, l, h, out| aarch64::merge_neon(u, l, h, out),
            )
        },
        _ => (split::split, split::merge),
    }
}

/// [`encode_into`] with the split `split`.
fn encode_planes(samples: &[i16], out: &mut Vec<u8>, split: Split) -> Result<usize, PdzError> {
    let n = samples.len();
    if n as u64 > MAX_SAMPLES {
        return Err(PdzError::TooManySamples { samples: n as u64 });
    }
    let start = out.len();
    out.reserve(max_encoded_len(n));
    out.resize(start + HEADER_LEN + split::u_len(n), 0);
    let planes = svb_io::with_scratch(&LOW, |low| {
        svb_io::with_scratch(&HIGH, |high| {
            for plane in [&mut *low, &mut *high] {
                plane.clear();
                plane.resize(n, 0);
            }
            split(samples, &mut out[start + HEADER_LEN..], low, high);
            let mut lens = [0u64; 2];
            for (i, (plane, bytes)) in [("low", &*low), ("high", &*high)].into_iter().enumerate() {
                let before = out.len();
                zstd_frame::compress_into(LEVEL, bytes, out)
                    .map_err(|source| PdzError::Compress { plane, source })?;
                lens[i] = (out.len() - before) as u64;
            }
            Ok(lens)
        })
    });
    let [low_len, high_len] = match planes {
        Ok(lens) => lens,
        Err(e) => {
            out.truncate(start);
            return Err(e);
        }
    };
    for (i, v) in [n as u64, low_len, high_len].into_iter().enumerate() {
        out[start + 8 * i..start + 8 * i + 8].copy_from_slice(&v.to_le_bytes());
    }
    Ok(out.len() - start)
}

/// The `samples` samples of `block` (the count its POD5 row gives), checked as [`check`]
/// says; the output is allocated once the block has passed the checks.
pub fn decode(block: &[u8], samples: usize) -> Result<Vec<i16>, PdzError> {
    let header = check(block, samples)?;
    let mut out = vec![0i16; samples];
    decode_checked(block, &header, &mut out, kernels_of(Isa::best()).1)?;
    Ok(out)
}

/// Decodes `block` into `out`, whose length is the sample count expected.
pub fn decode_into(block: &[u8], out: &mut [i16]) -> Result<(), PdzError> {
    decode_planes(block, out, kernels_of(Isa::best()).1)
}

/// [`decode_into`] with `isa`'s merge; `None` when this CPU (or build) cannot run it.
pub fn decode_into_with_isa(
    block: &[u8], out: &mut [i16], isa: Isa,
) -> Option<Result<(), PdzError>> {
    isa.is_available().then(|| decode_planes(block, out, kernels_of(isa).1))
}

/// Checks `block`, inflates its planes into this thread's buffers and merges them.
fn decode_planes(block: &[u8], out: &mut [i16], merge: Merge) -> Result<(), PdzError> {
    let header = check(block, out.len())?;
    decode_checked(block, &header, out, merge)
}

/// [`decode_planes`] of a block that passed [`check`] with `header` for `out.len()` samples.
fn decode_checked(
    block: &[u8], header: &Header, out: &mut [i16], merge: Merge,
) -> Result<(), PdzError> {
    let n = out.len();
    let (u, z_low, z_high) = parts(block, n, header);
    svb_io::with_scratch(&LOW, |low| {
        svb_io::with_scratch(&HIGH, |high| {
            zstd_frame::decompress_into(z_low, n, low)
                .map_err(|source| PdzError::Plane { plane: "low", source })?;
            zstd_frame::decompress_into(z_high, n, high)
                .map_err(|source| PdzError::Plane { plane: "high", source })?;
            merge(u, low, high, out);
            Ok(())
        })
    })
}
