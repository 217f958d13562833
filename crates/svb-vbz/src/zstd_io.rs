//! The zstd stage of the VBZ wires: frames through `svb_io::zstd_frame` (one reused context
//! per thread, output that grows with what a frame really produces), and the frame-header
//! checks every decoder makes against the sample count before it allocates.

use svb_io::zstd_frame::{self, FrameError};

use crate::VbzError;

/// Appends one zstd frame (content size in its header) of `src` at `level` to `out`.
pub(crate) fn compress_into(level: i32, src: &[u8], out: &mut Vec<u8>) -> Result<(), VbzError> {
    Ok(zstd_frame::compress_into(level, src, out)?)
}

/// [`compress_into`] under a [`zstd_frame::Profile`].
pub(crate) fn compress_with_into(
    level: i32, profile: zstd_frame::Profile, src: &[u8], out: &mut Vec<u8>,
) -> Result<(), VbzError> {
    Ok(zstd_frame::compress_with_into(level, profile, src, out)?)
}

/// The content size a frame declares, which must lie in `min..=max` (the stream sizes of
/// `samples` values) and within what the frame's length can expand to.
pub(crate) fn checked_content_size(
    frame: &[u8], min: usize, max: usize, samples: usize,
) -> Result<usize, VbzError> {
    let declared = match zstd_frame::content_size(frame) {
        Ok(d) => d,
        // More than the frame's length can expand to.
        Err(FrameError::Implausible { declared, .. }) => {
            return Err(VbzError::FrameTooLarge { declared, max, samples })
        }
        // lib_pod5 and vbz_compression always write the content size and refuse frames
        // without one.
        Err(e) => return Err(e.into()),
    };
    if declared > max as u64 {
        return Err(VbzError::FrameTooLarge { declared, max, samples });
    }
    if declared < min as u64 {
        return Err(VbzError::FrameTooSmall { declared: declared as usize, min, samples });
    }
    Ok(declared as usize)
}

/// Decompresses one frame (whose content size was checked to be `declared`) into `out`,
/// replacing its contents; `out` grows with the content zstd really produces, so a header
/// that lies fails before `declared` bytes are reserved. More or less content than declared
/// is an error.
pub(crate) fn decompress_into(
    frame: &[u8], declared: usize, out: &mut Vec<u8>,
) -> Result<(), VbzError> {
    Ok(zstd_frame::decompress_into(frame, declared, out)?)
}
