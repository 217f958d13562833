//! The fast5 wire of VBZ: ONT's `vbz_compression` library, which fast5 files use as HDF5
//! filter 32020. Unlike POD5's svb16 wire it packs 32-bit values with StreamVByte-1234
//! (`U32Classic`), and it is configured by [`Options`] (HDF5 `cd_values`
//! `[version, integer_size, delta_zigzag, zstd_level]`):
//!
//! 1. integers of `integer_size` bytes (1, 2 or 4; 0 skips this stage) are sign-extended to
//!    32 bits and, with `delta_zigzag`, delta-coded from 0 and zigzagged;
//! 2. the 32-bit values are packed with StreamVByte-1234 (version 0), or for 1-byte integers
//!    of version 1 with half-byte codes (0, 1, 2 or 4 nibbles a value);
//! 3. with `zstd_level` above 0 the result is one zstd frame.
//!
//! The *sized* form, which the HDF5 filter always writes, puts the original byte count (u32
//! LE) in front. For 2-byte integers the encoder works in 16 bits like ONT's x86 (SSE) build,
//! so every value takes at most 2 bytes; the decoder accumulates in 32 bits and truncates,
//! so it also reads the 3-byte values ONT's portable build emits when a delta overflows
//! 16 bits. Every size is checked against the input before anything is allocated: a sized
//! header against what its zstd frame declares and can expand to, and the output allocated
//! only once zstd has produced a stream that can hold it.
//!
//! ```
//! use svb_vbz::hdf5_filter;
//! let signal: Vec<i16> = (0..4000).map(|i| 480 + (i % 50) as i16).collect();
//! let chunk = hdf5_filter::compress_signal(&signal);
//! assert_eq!(chunk[..4], (2 * 4000u32).to_le_bytes()); // the sized header
//! assert_eq!(hdf5_filter::decompress_signal(&chunk)?, signal);
//!
//! // Any options of vbz_compression, on raw bytes (as the HDF5 filter sees a chunk).
//! let opts = hdf5_filter::Options { integer_size: 1, version: 1, ..hdf5_filter::Options::default() };
//! let bytes: Vec<u8> = (0..100u8).map(|b| b / 3).collect();
//! let packed = hdf5_filter::compress_sized(&bytes, &opts)?;
//! assert_eq!(hdf5_filter::decompress_sized(&packed, &opts)?, bytes);
//! # Ok::<(), svb_vbz::VbzError>(())
//! ```

use std::cell::RefCell;

use svb_core::{Codec, I16ZigzagDelta32, U32Classic};
use svb_delta::zigzag::Zigzag;
use svb_dispatch::uninit;

use crate::{zstd_io, VbzError};

/// Options of a fast5 VBZ stream, as vbz_compression's `CompressionOptions`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Options {
    /// Delta-code (from 0) and zigzag the integers before packing them.
    pub delta_zigzag: bool,
    /// Bytes per integer: 1, 2 or 4; 0 skips the integer stage (zstd alone).
    pub integer_size: u32,
    /// zstd level, 1..=22; 0 skips zstd.
    pub zstd_level: u32,
    /// Wire version: 0, or 1 (half-byte codes for 1-byte integers; otherwise as 0).
    pub version: u32,
}

impl Options {
    /// What ONT writes for raw signal: 2-byte integers, delta + zigzag, zstd level 1,
    /// version 0 (HDF5 `cd_values` `[0, 2, 1, 1]`).
    pub const SIGNAL: Options =
        Options { delta_zigzag: true, integer_size: 2, zstd_level: 1, version: 0 };

    /// Options from the HDF5 filter's `cd_values`: `[version, integer_size, delta_zigzag,
    /// zstd_level]` (further values are ignored).
    pub fn from_cd_values(cd_values: &[u32]) -> Result<Self, VbzError> {
        let [version, integer_size, delta_zigzag, zstd_level, ..] = *cd_values else {
            return Err(VbzError::InvalidOption {
                name: "cd_values",
                value: cd_values.len() as u64,
                expected: "at least 4 values",
            });
        };
        let opts = Options { delta_zigzag: delta_zigzag != 0, integer_size, zstd_level, version };
        opts.validate()?;
        Ok(opts)
    }

    /// The HDF5 filter's `cd_values` of these options.
    pub fn cd_values(&self) -> [u32; 4] {
        [self.version, self.integer_size, self.delta_zigzag as u32, self.zstd_level]
    }

    fn validate(&self) -> Result<(), VbzError> {
        if !matches!(self.integer_size, 0 | 1 | 2 | 4) {
            return Err(VbzError::InvalidOption {
                name: "integer_size",
                value: self.integer_size.into(),
                expected: "0, 1, 2 or 4",
            });
        }
        if self.version > 1 {
            return Err(VbzError::InvalidOption {
                name: "version",
                value: self.version.into(),
                expected: "0 or 1",
            });
        }
        if self.zstd_level > 22 {
            return Err(VbzError::InvalidOption {
                name: "zstd_level",
                value: self.zstd_level.into(),
                expected: "0 to 22",
            });
        }
        Ok(())
    }

    /// The integer stage's packing.
    fn packing(&self) -> Packing {
        match (self.integer_size, self.version) {
            (0, _) => Packing::None,
            (1, 1) => Packing::Nibbles,
            _ => Packing::StreamVByte,
        }
    }

    /// Values in `bytes` of input, or an error when they are not whole integers.
    fn values(&self, bytes: usize) -> Result<usize, VbzError> {
        let size = self.integer_size as usize;
        if size == 0 {
            return Ok(bytes);
        }
        if !bytes.is_multiple_of(size) {
            return Err(VbzError::NotWholeIntegers { bytes, integer_size: size });
        }
        Ok(bytes / size)
    }
}

impl Default for Options {
    fn default() -> Self {
        Options::SIGNAL
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Packing {
    /// No integer stage: the bytes themselves.
    None,
    /// StreamVByte-1234 of 32-bit values.
    StreamVByte,
    /// vbz v1 half-byte codes.
    Nibbles,
}

impl Packing {
    /// Smallest and largest packed size of `n` values.
    fn bounds(self, n: usize) -> (usize, usize) {
        match self {
            Packing::None => (n, n),
            Packing::StreamVByte => (U32Classic.min_encoded_len(n), U32Classic.max_encoded_len(n)),
            Packing::Nibbles => (n.div_ceil(4), n.div_ceil(4) + 2 * n),
        }
    }
}

/// Bytes of the sized form's header.
pub const SIZED_HEADER_LEN: usize = 4;

thread_local! {
    static VALUES: RefCell<Vec<u32>> = const { RefCell::new(Vec::new()) };
    static PACKED: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    static SAMPLES: RefCell<Vec<i16>> = const { RefCell::new(Vec::new()) };
}

/// The 32-bit values vbz_compression packs for `src` (little-endian integers).
fn to_values(src: &[u8], opts: &Options, values: &mut Vec<u32>) {
    values.clear();
    let zz = opts.delta_zigzag;
    match opts.integer_size {
        1 => {
            let mut prev = 0i32;
            values.extend(src.iter().map(|&b| {
                let x = b as i8 as i32;
                if zz {
                    let d = x - prev;
                    prev = x;
                    d.zigzag()
                } else {
                    x as u32
                }
            }));
        }
        2 => {
            let mut prev = 0i16;
            values.extend(src.chunks_exact(2).map(|c| {
                let x = i16::from_le_bytes([c[0], c[1]]);
                if zz {
                    // 16-bit wrapping delta and zigzag, as ONT's x86 build: at most 2 bytes.
                    let d = x.wrapping_sub(prev);
                    prev = x;
                    d.zigzag() as u32
                } else {
                    x as i32 as u32
                }
            }));
        }
        4 => {
            let mut prev = 0i32;
            values.extend(src.chunks_exact(4).map(|c| {
                let x = i32::from_le_bytes([c[0], c[1], c[2], c[3]]);
                if zz {
                    let d = x.wrapping_sub(prev);
                    prev = x;
                    d.zigzag()
                } else {
                    x as u32
                }
            }));
        }
        _ => unreachable!("validated integer size"),
    }
}

/// Writes the integers of `values` into `out` (`values.len() * integer_size` bytes),
/// undoing delta + zigzag in 32 bits and truncating to the integer size.
fn from_values(values: &[u32], opts: &Options, out: &mut [u8]) {
    let zz = opts.delta_zigzag;
    let mut acc = 0i32;
    let mut next = |v: u32| {
        if zz {
            acc = acc.wrapping_add(i32::unzigzag(v));
            acc
        } else {
            v as i32
        }
    };
    match opts.integer_size {
        1 => {
            for (o, &v) in out.iter_mut().zip(values) {
                *o = next(v) as u8;
            }
        }
        2 => {
            for (o, &v) in out.chunks_exact_mut(2).zip(values) {
                o.copy_from_slice(&(next(v) as i16).to_le_bytes());
            }
        }
        4 => {
            for (o, &v) in out.chunks_exact_mut(4).zip(values) {
                o.copy_from_slice(&next(v).to_le_bytes());
            }
        }
        _ => unreachable!("validated integer size"),
    }
}

/// Nibble count of each vbz v1 code.
const NIBBLES: [usize; 4] = [0, 1, 2, 4];

/// vbz v1 packing: 2-bit codes (4 a key byte, low bits first), then a nibble stream (low
/// nibble of each byte first, each value's nibbles least significant first).
fn pack_nibbles(values: &[u32], out: &mut Vec<u8>) {
    let keys_at = out.len();
    out.resize(keys_at + values.len().div_ceil(4), 0);
    let mut half = false;
    for (i, &v) in values.iter().enumerate() {
        let code = match v {
            0 => 0,
            1..=0xF => 1,
            0x10..=0xFF => 2,
            _ => 3,
        };
        out[keys_at + i / 4] |= (code as u8) << (2 * (i % 4));
        for j in 0..NIBBLES[code] {
            let nib = ((v >> (4 * j)) & 0xF) as u8;
            if half {
                *out.last_mut().expect("a low nibble was written") |= nib << 4;
            } else {
                out.push(nib);
            }
            half = !half;
        }
    }
}

/// Unpacks `out.len()` values of vbz v1 packing, which must use exactly `input`.
fn unpack_nibbles(input: &[u8], out: &mut [u32]) -> Result<(), VbzError> {
    let n = out.len();
    let (keys, data) = input.split_at(n.div_ceil(4).min(input.len()));
    let code = |i: usize| ((keys[i / 4] >> (2 * (i % 4))) & 3) as usize;
    if keys.len() < n.div_ceil(4) {
        return Err(VbzError::StreamVByte(svb_core::DecodeError::ControlTruncated {
            n,
            needed: n.div_ceil(4),
            available: input.len(),
        }));
    }
    let nibbles: usize = (0..n).map(|i| NIBBLES[code(i)]).sum();
    if nibbles.div_ceil(2) != data.len() {
        return Err(VbzError::LengthMismatch {
            samples: n,
            consumed: keys.len() + nibbles.div_ceil(2),
            len: input.len(),
        });
    }
    let mut pos = 0usize;
    for (i, o) in out.iter_mut().enumerate() {
        let mut v = 0u32;
        for j in 0..NIBBLES[code(i)] {
            let byte = data[pos / 2];
            let nib = if pos.is_multiple_of(2) { byte & 0xF } else { byte >> 4 };
            v |= (nib as u32) << (4 * j);
            pos += 1;
        }
        *o = v;
    }
    Ok(())
}

/// Appends the unsized fast5 VBZ stream of `src` (raw little-endian integers) to `out`:
/// what vbz_compression's `vbz_compress` writes.
pub fn compress_into(src: &[u8], opts: &Options, out: &mut Vec<u8>) -> Result<(), VbzError> {
    opts.validate()?;
    opts.values(src.len())?;
    let packing = opts.packing();
    let level = opts.zstd_level as i32;
    if packing == Packing::None {
        return if level == 0 {
            out.extend_from_slice(src);
            Ok(())
        } else {
            zstd_io::compress_into(level, src, out)
        };
    }
    svb_io::with_scratch(&VALUES, |values| {
        to_values(src, opts, values);
        let pack = |dst: &mut Vec<u8>| match packing {
            Packing::Nibbles => pack_nibbles(values, dst),
            _ => {
                U32Classic.encode_into(values, dst);
            }
        };
        if level == 0 {
            pack(out);
            Ok(())
        } else {
            svb_io::with_scratch(&PACKED, |packed| {
                packed.clear();
                pack(packed);
                zstd_io::compress_into(level, packed, out)
            })
        }
    })
}

/// The unsized fast5 VBZ stream of `src` (raw little-endian integers).
pub fn compress(src: &[u8], opts: &Options) -> Result<Vec<u8>, VbzError> {
    crate::filled(|out| compress_into(src, opts, out))
}

/// Appends the sized form (u32 LE byte count of `src`, then the stream) to `out`: what
/// vbz_compression's `vbz_compress_sized` and the HDF5 filter write.
pub fn compress_sized_into(src: &[u8], opts: &Options, out: &mut Vec<u8>) -> Result<(), VbzError> {
    let size = u32::try_from(src.len()).map_err(|_| VbzError::InvalidOption {
        name: "input bytes",
        value: src.len() as u64,
        expected: "below 2^32 (the sized header is a u32)",
    })?;
    let start = out.len();
    out.extend_from_slice(&size.to_le_bytes());
    let r = compress_into(src, opts, out);
    if r.is_err() {
        out.truncate(start);
    }
    r
}

/// The sized form of `src`.
pub fn compress_sized(src: &[u8], opts: &Options) -> Result<Vec<u8>, VbzError> {
    crate::filled(|out| compress_sized_into(src, opts, out))
}

/// Checks that `src` can hold `len` original bytes under `opts` before anything is
/// allocated; returns the zstd content size (when there is zstd).
fn check(src: &[u8], len: usize, opts: &Options) -> Result<Option<usize>, VbzError> {
    opts.validate()?;
    let n = opts.values(len)?;
    let (min, max) = opts.packing().bounds(n);
    if opts.zstd_level == 0 {
        if src.len() < min {
            return Err(VbzError::StreamVByte(svb_core::DecodeError::TooShortForCount {
                n,
                min_len: min,
                available: src.len(),
            }));
        }
        return Ok(None);
    }
    zstd_io::checked_content_size(src, min, max, n).map(Some)
}

/// Unpacks the integer stage of `packed` into `out` (the original bytes).
/// Refuses a packed stream of `n` values whose decode used `used` of its bytes, not all.
fn all_used(used: usize, n: usize, packed: &[u8]) -> Result<(), VbzError> {
    match used == packed.len() {
        true => Ok(()),
        false => Err(VbzError::LengthMismatch { samples: n, consumed: used, len: packed.len() }),
    }
}

fn unpack(packed: &[u8], opts: &Options, out: &mut [u8]) -> Result<(), VbzError> {
    let packing = opts.packing();
    if packing == Packing::None {
        if packed.len() != out.len() {
            return Err(VbzError::LengthMismatch {
                samples: out.len(),
                consumed: packed.len(),
                len: out.len(),
            });
        }
        out.copy_from_slice(packed);
        return Ok(());
    }
    let n = out.len() / opts.integer_size as usize;
    if packing == Packing::StreamVByte && opts.integer_size == 2 && opts.delta_zigzag {
        // A signal: SVB-ZD's wire, decoded by its fused kernel in one pass (the 32-bit sums
        // truncated to 16 bits are the 16-bit wrapping sums `from_values` gives).
        return svb_io::with_scratch(&SAMPLES, |samples| {
            samples.clear();
            samples.resize(n, 0);
            let used = I16ZigzagDelta32
                .kernels()
                .decode_to_slice(packed, 0, samples)
                .map_err(VbzError::StreamVByte)?;
            all_used(used, n, packed)?;
            for (o, v) in out.chunks_exact_mut(2).zip(samples.iter()) {
                o.copy_from_slice(&v.to_le_bytes());
            }
            Ok(())
        });
    }
    svb_io::with_scratch(&VALUES, |values| {
        values.clear();
        values.resize(n, 0);
        match packing {
            Packing::Nibbles => unpack_nibbles(packed, values)?,
            _ => {
                let used =
                    U32Classic.decode_to_slice(packed, values).map_err(VbzError::StreamVByte)?;
                all_used(used, n, packed)?;
            }
        }
        from_values(values, opts, out);
        Ok(())
    })
}

/// Decompresses an unsized fast5 VBZ stream into `out`, whose length is the original byte
/// count (kept beside the stream by whoever wrote it).
pub fn decompress_into(src: &[u8], opts: &Options, out: &mut [u8]) -> Result<(), VbzError> {
    let declared = check(src, out.len(), opts)?;
    with_packed(src, declared, |packed| unpack(packed, opts, out))
}

/// Runs `f` on the packed stream of `src`: `src` itself when it has no zstd stage
/// (`declared` is `None`), else what zstd inflates it to (its `declared` size checked) in
/// this thread's reused buffer.
fn with_packed<R>(
    src: &[u8], declared: Option<usize>, f: impl FnOnce(&[u8]) -> Result<R, VbzError>,
) -> Result<R, VbzError> {
    match declared {
        None => f(src),
        Some(declared) => svb_io::with_scratch(&PACKED, |packed| {
            zstd_io::decompress_into(src, declared, packed)?;
            f(packed)
        }),
    }
}

/// Decompresses an unsized stream of `len` original bytes. The header is checked against
/// `len` first, and the bytes are allocated only once zstd has produced a stream that can
/// hold them (a header that lies about the size fails before they are).
pub fn decompress(src: &[u8], len: usize, opts: &Options) -> Result<Vec<u8>, VbzError> {
    crate::filled(|out| decompress_append(src, len, opts, out))
}

/// Appends the `len` original bytes of the unsized stream `src` to `out`; `out` is left as
/// it was on an error.
///
/// Every packing of `n` values takes at least a quarter byte a value and `len` is at most 4
/// bytes a value, so once the packed stream exists (read, or really produced by zstd: see
/// `svb_io::zstd_frame`) it justifies the `len` bytes that `out` grows by.
fn decompress_append(
    src: &[u8], len: usize, opts: &Options, out: &mut Vec<u8>,
) -> Result<(), VbzError> {
    let declared = check(src, len, opts)?;
    let start = out.len();
    let r = with_packed(src, declared, |packed| {
        out.resize(start + len, 0);
        unpack(packed, opts, &mut out[start..])
    });
    if r.is_err() {
        out.truncate(start);
    }
    r
}

/// The original byte count in a sized stream's header.
pub fn decompressed_size(src: &[u8]) -> Result<usize, VbzError> {
    match src.first_chunk::<SIZED_HEADER_LEN>() {
        Some(h) => Ok(u32::from_le_bytes(*h) as usize),
        None => Err(VbzError::HeaderTruncated {
            format: "fast5 VBZ sized",
            needed: SIZED_HEADER_LEN,
            available: src.len(),
        }),
    }
}

/// Decompresses a sized stream, appending the original bytes to `out`.
pub fn decompress_sized_into(
    src: &[u8], opts: &Options, out: &mut Vec<u8>,
) -> Result<(), VbzError> {
    let len = decompressed_size(src)?;
    decompress_append(&src[SIZED_HEADER_LEN..], len, opts, out)
}

/// Decompresses a sized stream.
pub fn decompress_sized(src: &[u8], opts: &Options) -> Result<Vec<u8>, VbzError> {
    crate::filled(|out| decompress_sized_into(src, opts, out))
}

/// The sized stream of `signal` with [`Options::SIGNAL`]: a fast5 `Raw/Signal` chunk as
/// ONT's HDF5 filter writes it.
pub fn compress_signal(signal: &[i16]) -> Vec<u8> {
    let bytes: Vec<u8> = signal.iter().flat_map(|s| s.to_le_bytes()).collect();
    compress_sized(&bytes, &Options::SIGNAL).expect("signal options are valid")
}

/// Decompresses a sized [`Options::SIGNAL`] stream, appending the samples to `out`.
pub fn decompress_signal_into(src: &[u8], out: &mut Vec<i16>) -> Result<(), VbzError> {
    decompress_sized_samples_into(src, &Options::SIGNAL, out)
}

/// Decompresses a sized stream under `opts` whose original bytes are 16-bit little-endian
/// integers (a fast5 `Raw/Signal` chunk, whatever options its filter was given), appending
/// them to `out`; `out` is left as it was on an error. A signal's usual options (16-bit
/// integers, delta + zigzag, StreamVByte) are decoded by the fused kernel straight into
/// `out`, with no copy of the original bytes.
pub fn decompress_sized_samples_into(
    src: &[u8], opts: &Options, out: &mut Vec<i16>,
) -> Result<(), VbzError> {
    let len = decompressed_size(src)?;
    let body = &src[SIZED_HEADER_LEN..];
    if !len.is_multiple_of(2) {
        return Err(VbzError::NotWholeIntegers { bytes: len, integer_size: 2 });
    }
    let fused =
        opts.integer_size == 2 && opts.delta_zigzag && opts.packing() == Packing::StreamVByte;
    if !fused {
        let mut bytes = Vec::new();
        decompress_append(body, len, opts, &mut bytes)?;
        let pairs = bytes.as_chunks::<2>().0;
        out.extend(pairs.iter().map(|b| i16::from_le_bytes(*b)));
        return Ok(());
    }
    let declared = check(body, len, opts)?;
    let n = len / 2;
    // As in `decompress_append`: `out` grows only once the packed stream exists (read, or
    // really produced by zstd), which bounds `n` by what the input holds; the samples are
    // decoded into its spare capacity, not over zeros written first.
    with_packed(body, declared, |packed| {
        // SAFETY: on `Ok` the decoder has written all n samples (`append_with` keeps `out`
        // as it was on `Err`).
        unsafe {
            uninit::append_with(out, n, |spare| {
                let used = I16ZigzagDelta32
                    .kernels()
                    .decode_uninit(packed, 0, &mut spare[..n])
                    .map_err(VbzError::StreamVByte)?;
                all_used(used, n, packed)?;
                Ok::<_, VbzError>(n)
            })
        }
        .map(|_| ())
    })
}

/// Decompresses a sized [`Options::SIGNAL`] stream (a fast5 `Raw/Signal` chunk).
pub fn decompress_signal(src: &[u8]) -> Result<Vec<i16>, VbzError> {
    crate::filled(|out| decompress_signal_into(src, out))
}
