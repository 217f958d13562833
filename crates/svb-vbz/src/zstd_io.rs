//! zstd with one compression and one decompression context per thread (reused across
//! calls), and the frame-header checks every decoder makes before it allocates.

use std::cell::RefCell;

use crate::VbzError;

thread_local! {
    static COMPRESSOR: RefCell<Option<(i32, zstd::bulk::Compressor<'static>)>> = const { RefCell::new(None) };
    static DECOMPRESSOR: RefCell<Option<zstd::bulk::Decompressor<'static>>> = const { RefCell::new(None) };
}

/// Largest expansion of one zstd frame: a 4-byte RLE block (3-byte header, 1 byte) yields
/// 128 KiB. A declared content size beyond this many times the frame is a lie.
pub(crate) const MAX_EXPANSION: u64 = 32 * 1024;

/// Appends one zstd frame (content size in its header) of `src` at `level` to `out`.
pub(crate) fn compress_into(level: i32, src: &[u8], out: &mut Vec<u8>) -> Result<(), VbzError> {
    let zerr = |e: std::io::Error| VbzError::Zstd(e.to_string());
    COMPRESSOR.with_borrow_mut(|slot| {
        let c = match slot {
            Some((l, c)) if *l == level => c,
            _ => {
                &mut slot
                    .insert((level, zstd::bulk::Compressor::new(level).map_err(zerr)?))
                    .1
            }
        };
        // Into the tail of `out`: a `Vec` given to zstd as the buffer is written from 0.
        let start = out.len();
        out.resize(start + zstd::zstd_safe::compress_bound(src.len()), 0);
        let r = c.compress_to_buffer(src, &mut out[start..]);
        out.truncate(start + *r.as_ref().unwrap_or(&0));
        r.map(|_| ()).map_err(zerr)
    })
}

/// The content size a frame declares, which must lie in `min..=max` (the stream sizes of
/// `samples` values) and within what the frame's length can expand to.
pub(crate) fn checked_content_size(
    frame: &[u8],
    min: usize,
    max: usize,
    samples: usize,
) -> Result<usize, VbzError> {
    let declared = match zstd::zstd_safe::get_frame_content_size(frame) {
        Ok(Some(d)) => d,
        // lib_pod5 and vbz_compression always write the content size and refuse frames
        // without one.
        Ok(None) => {
            return Err(VbzError::Zstd(
                "the frame does not declare its content size".into(),
            ))
        }
        Err(_) => {
            return Err(VbzError::Zstd(format!(
                "not a zstd frame ({} bytes)",
                frame.len()
            )))
        }
    };
    if declared > max as u64 || declared > (frame.len() as u64).saturating_mul(MAX_EXPANSION) {
        return Err(VbzError::FrameTooLarge {
            declared,
            max,
            samples,
        });
    }
    if declared < min as u64 {
        return Err(VbzError::FrameTooSmall {
            declared: declared as usize,
            min,
            samples,
        });
    }
    Ok(declared as usize)
}

/// Decompresses one frame (whose content size was checked to be `declared`) into `out`,
/// replacing its contents; more content than declared is an error.
pub(crate) fn decompress_into(
    frame: &[u8],
    declared: usize,
    out: &mut Vec<u8>,
) -> Result<(), VbzError> {
    out.clear();
    out.reserve(declared);
    DECOMPRESSOR.with_borrow_mut(|d| {
        let d = match d {
            Some(d) => d,
            None => d.insert(
                zstd::bulk::Decompressor::new().map_err(|e| VbzError::Zstd(e.to_string()))?,
            ),
        };
        d.decompress_to_buffer(frame, out)
            .map_err(|e| VbzError::Zstd(e.to_string()))
    })?;
    if out.len() != declared {
        return Err(VbzError::Zstd(format!(
            "the frame declares {declared} bytes and holds {}",
            out.len()
        )));
    }
    Ok(())
}
