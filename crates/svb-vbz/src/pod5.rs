//! The POD5 signal wire: one zstd level-1 frame of the VBZ stream, no size header; the
//! sample count comes from the POD5 signal table's `samples` column. Byte-compatible with
//! ONT's lib_pod5 (`compress_signal` reproduces its bytes: libzstd 1.5.7, level 1).
//!
//! Decompression reuses one zstd context and one scratch buffer per thread, refuses a frame
//! whose declared size exceeds what `n` samples can need before allocating anything, and
//! requires the svb16 stream to use exactly the decompressed bytes. Zero samples may be
//! stored as an empty blob or as an empty zstd frame; both decode.

use std::cell::RefCell;

use crate::vbz::{decode_vbz_fused_to_slice, encode_vbz_into, max_encoded_len};
use crate::VbzError;

/// zstd level of POD5's VBZ.
pub const ZSTD_LEVEL: i32 = 1;

thread_local! {
    static COMPRESSOR: RefCell<Option<zstd::bulk::Compressor<'static>>> = const { RefCell::new(None) };
    static DECOMPRESSOR: RefCell<Option<zstd::bulk::Decompressor<'static>>> = const { RefCell::new(None) };
    static SCRATCH: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// Appends the POD5 blob of `samples` to `out`.
pub fn compress_signal_into(samples: &[i16], out: &mut Vec<u8>) {
    SCRATCH.with_borrow_mut(|vbz| {
        vbz.clear();
        encode_vbz_into(samples, vbz);
        COMPRESSOR.with_borrow_mut(|c| {
            let c = c.get_or_insert_with(|| {
                zstd::bulk::Compressor::new(ZSTD_LEVEL).expect("zstd level 1 is valid")
            });
            out.reserve(zstd::zstd_safe::compress_bound(vbz.len()));
            c.compress_to_buffer(vbz.as_slice(), out)
                .expect("the output holds compress_bound bytes");
        });
    });
}

/// The POD5 blob of `samples` (what lib_pod5's `compress_signal` writes).
pub fn compress_signal(samples: &[i16]) -> Vec<u8> {
    let mut out = Vec::new();
    compress_signal_into(samples, &mut out);
    out
}

/// Largest expansion of one zstd frame: a 4-byte RLE block (3-byte header, 1 byte) yields
/// 128 KiB. A declared content size beyond this many times the blob is a lie.
const MAX_ZSTD_EXPANSION: u64 = 32 * 1024;

/// Validates the frame header against `n` samples before anything is allocated; returns the
/// declared content size.
fn check_frame(blob: &[u8], n: usize) -> Result<usize, VbzError> {
    let max = max_encoded_len(n);
    let declared = match zstd::zstd_safe::get_frame_content_size(blob) {
        Ok(Some(d)) => d,
        // lib_pod5 always writes the content size, and its decoder refuses frames without.
        Ok(None) => {
            return Err(VbzError::Zstd(
                "the frame does not declare its content size".into(),
            ))
        }
        Err(_) => {
            return Err(VbzError::Zstd(format!(
                "not a zstd frame ({} bytes)",
                blob.len()
            )))
        }
    };
    if declared > max as u64 || declared > (blob.len() as u64).saturating_mul(MAX_ZSTD_EXPANSION) {
        return Err(VbzError::FrameTooLarge {
            declared,
            max,
            samples: n,
        });
    }
    let min = svb_core::Codec::min_encoded_len(&svb_core::Svb16, n);
    if declared < min as u64 {
        return Err(VbzError::Svb16(svb_core::DecodeError::TooShortForCount {
            n,
            min_len: min,
            available: declared as usize,
        }));
    }
    Ok(declared as usize)
}

/// Decompresses a POD5 blob into `out`, which must have the chunk's sample count.
pub fn decompress_signal(blob: &[u8], out: &mut [i16]) -> Result<(), VbzError> {
    let n = out.len();
    if blob.is_empty() && n == 0 {
        return Ok(());
    }
    let declared = check_frame(blob, n)?;
    SCRATCH.with_borrow_mut(|vbz| {
        vbz.clear();
        vbz.reserve(declared);
        DECOMPRESSOR.with_borrow_mut(|d| {
            let d = match d {
                Some(d) => d,
                None => d.insert(
                    zstd::bulk::Decompressor::new().map_err(|e| VbzError::Zstd(e.to_string()))?,
                ),
            };
            // Decompresses into at most the declared size: more content fails here.
            d.decompress_to_buffer(blob, vbz)
                .map_err(|e| VbzError::Zstd(e.to_string()))
        })?;
        decode_vbz_fused_to_slice(vbz, out)
    })
}

/// Decompresses a POD5 blob of `n` samples, appending them to `out`. The frame header is
/// checked against `n` before `out` grows.
pub fn decompress_signal_into(blob: &[u8], n: usize, out: &mut Vec<i16>) -> Result<(), VbzError> {
    if !(blob.is_empty() && n == 0) {
        check_frame(blob, n)?;
    }
    let len = out.len();
    out.resize(len + n, 0);
    let r = decompress_signal(blob, &mut out[len..]);
    if r.is_err() {
        out.truncate(len);
    }
    r
}

/// Decompresses a POD5 blob of `n` samples into a new vector.
pub fn decompress_signal_to_vec(blob: &[u8], n: usize) -> Result<Vec<i16>, VbzError> {
    let mut out = Vec::new();
    decompress_signal_into(blob, n, &mut out)?;
    Ok(out)
}
