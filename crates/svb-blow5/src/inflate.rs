//! Record decompression: zstd frames through `svb-io` (growth bounded by real output) and
//! zlib streams through libdeflate, each with this thread's reused state and buffer.

use std::cell::RefCell;

use svb_io::zstd_frame;

use crate::error::InflateError;
use crate::header::RecordCompression;

/// Largest decompressed record accepted: a record with a 2-billion-sample signal is 4 GiB;
/// beyond that a size field is a lie.
const MAX_RECORD: u64 = 1 << 33;

thread_local! {
    static BODY: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    static ZLIB: RefCell<Option<libdeflater::Decompressor>> = const { RefCell::new(None) };
}

/// Runs `f` on a record's body: `raw` itself when records are stored as they are, else `raw`
/// decompressed into this thread's buffer (an inflate failure through `err`).
pub(super) fn body<R, E>(
    compression: RecordCompression, raw: &[u8], f: impl FnOnce(&[u8]) -> Result<R, E>,
    err: impl FnOnce(InflateError) -> E,
) -> Result<R, E> {
    let inflate: Inflate = match compression {
        RecordCompression::None => return f(raw),
        RecordCompression::Zstd => inflate_zstd,
        RecordCompression::Zlib => inflate_zlib,
    };
    svb_io::with_scratch(&BODY, |body| match inflate(raw, body) {
        Ok(n) => f(&body[..n]),
        Err(w) => Err(err(w)),
    })
}

/// Runs `f` on the first `n` bytes of a record's body, or as many as `raw` (the first bytes
/// of a stored record of `stored` bytes) yields: only what the head needs is inflated (a
/// zstd record's first blocks, a zlib record's first bytes), into this thread's buffer.
pub(super) fn head<R, E>(
    compression: RecordCompression, raw: &[u8], stored: usize, n: usize,
    f: impl FnOnce(&[u8]) -> Result<R, E>, err: impl FnOnce(InflateError) -> E,
) -> Result<R, E> {
    if compression == RecordCompression::None {
        return f(&raw[..n.min(raw.len())]);
    }
    svb_io::with_scratch(&BODY, |body| {
        let inflated = match compression {
            RecordCompression::Zlib => {
                body.clear();
                body.resize(n, 0);
                let mut z = flate2::Decompress::new(true);
                z.decompress(raw, body, flate2::FlushDecompress::None)
                    .map(|_| body.truncate(z.total_out() as usize))
                    .map_err(|_| InflateError::ZlibInvalid)
            }
            _ => zstd_frame::decompress_prefix(raw, stored, n, body).map_err(InflateError::from),
        };
        match inflated {
            Ok(()) => f(body),
            Err(e) => Err(err(e)),
        }
    })
}

/// A record decompressor: the body into the buffer (replacing its contents), its length.
type Inflate = fn(&[u8], &mut Vec<u8>) -> Result<usize, InflateError>;

/// Decompresses one zstd frame into `out` (replacing its contents) with this thread's
/// context, after checking the declared size against the frame. `out` grows with what the
/// frame really produces, so a header that lies fails before its size is reserved.
fn inflate_zstd(raw: &[u8], out: &mut Vec<u8>) -> Result<usize, InflateError> {
    let declared = zstd_frame::content_size(raw)?;
    if declared > MAX_RECORD {
        return Err(InflateError::TooLarge { len: raw.len(), declared });
    }
    zstd_frame::decompress_into(raw, declared as usize, out)?;
    Ok(out.len())
}

/// Inflates one zlib stream into `out` (replacing its contents) with this thread's state.
fn inflate_zlib(raw: &[u8], out: &mut Vec<u8>) -> Result<usize, InflateError> {
    use libdeflater::DecompressionError;
    // deflate expands at most 1032 times; the limit keeps a bomb from exhausting memory.
    let limit = (raw.len() as u64 * 1032).min(MAX_RECORD) as usize;
    // The buffer keeps its length between records (only its prefix is the body), so it is
    // zero-filled once per growth, not once per record.
    let mut room = out.len().max(raw.len().saturating_mul(8)).clamp(4096, limit.max(4096));
    ZLIB.with_borrow_mut(|z| {
        let z = z.get_or_insert_with(libdeflater::Decompressor::new);
        loop {
            if out.len() < room {
                out.resize(room, 0);
            }
            match z.zlib_decompress(raw, &mut out[..room]) {
                Ok(n) => {
                    // libdeflate checked the stream's adler32 trailer; it must also be the
                    // record's last 4 bytes (nothing may follow the stream).
                    let tail = raw.len().checked_sub(4).map(|t| &raw[t..]);
                    let adler = libdeflater::adler32(&out[..n]).to_be_bytes();
                    if tail != Some(&adler[..]) {
                        return Err(InflateError::ZlibTrailing);
                    }
                    return Ok(n);
                }
                Err(DecompressionError::InsufficientSpace) if room < limit => {
                    room = room.saturating_mul(2).min(limit);
                }
                Err(DecompressionError::InsufficientSpace) => {
                    return Err(InflateError::ZlibTooLarge)
                }
                Err(DecompressionError::BadData) => return Err(InflateError::ZlibInvalid),
            }
        }
    })
}
