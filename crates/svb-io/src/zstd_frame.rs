//! zstd frames with one compression and one decompression context per thread (reused across
//! calls), and a decompression whose memory grows with what the frame really produces.
//!
//! A frame header may declare any content size; a hostile one declares gigabytes in a few
//! bytes. [`decompress_into`] reserves the declared size only when the frame is long enough
//! to plausibly hold it (up to [`EAGER_RATIO`] times its length, plus [`EAGER_SLACK`]);
//! otherwise it starts there and doubles only when zstd has filled the buffer with real
//! output, so a lying header fails after at most twice what the frame actually decodes to.

use std::cell::RefCell;

use zstd::zstd_safe::{self, zstd_sys};

/// Largest expansion of one zstd frame: a 4-byte RLE block (3-byte header, 1 byte) yields
/// 128 KiB. A declared content size beyond this many times the frame is a lie.
pub const MAX_EXPANSION: u64 = 32 * 1024;

/// Content up to this many times the frame's length is reserved at once.
pub const EAGER_RATIO: usize = 16;

/// ... plus this much (1 MiB), so that small frames of very compressible content (a flat
/// signal chunk) decompress in one pass.
pub const EAGER_SLACK: usize = 1 << 20;

/// Why a frame could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum FrameError {
    /// The bytes do not start with a zstd frame header.
    #[error("not a zstd frame ({len} bytes)")]
    NotAFrame {
        /// Bytes given.
        len: usize,
    },
    /// The frame header does not carry the content size (every writer the readers support
    /// writes it).
    #[error("the frame does not declare its content size")]
    NoContentSize,
    /// The header declares more than the frame's length can expand to.
    #[error("a {len}-byte frame cannot hold the {declared} bytes its header declares")]
    Implausible {
        /// Content size in the header.
        declared: u64,
        /// The frame's length.
        len: usize,
    },
    /// Another frame follows the first and adds content to it (or may: it does not say).
    #[error("a second frame at byte {at} adds {} bytes", content.map_or("unknown".into(), |n| n.to_string()))]
    ExtraFrame {
        /// Where the frame starts.
        at: usize,
        /// The content size it declares, if it does.
        content: Option<u64>,
    },
    /// zstd rejected the frame.
    #[error("{0}")]
    Zstd(&'static str),
    /// The frame decompressed to another size than the one given.
    #[error("the frame declares {declared} bytes and holds {got}")]
    LengthMismatch {
        /// Size expected.
        declared: usize,
        /// Size produced (at least this much: production stops at the first byte too many).
        got: usize,
    },
}

/// How frames are compressed beyond their level.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Profile {
    /// zstd's own choices at the level: what lib_pod5 and slow5lib write.
    #[default]
    Standard,
    /// Literals stored raw instead of Huffman-coded (`ZSTD_c_literalCompressionMode`
    /// disabled): every zstd decoder reads such frames, several times faster, and they are
    /// larger. See docs/PERFORMANCE.md for what it costs and gains on nanopore signal.
    DecodeFast,
}

thread_local! {
    static COMPRESSOR: RefCell<Option<((i32, Profile), zstd_safe::CCtx<'static>)>> = const { RefCell::new(None) };
    static DECOMPRESSOR: RefCell<Option<zstd_safe::DCtx<'static>>> = const { RefCell::new(None) };
}

/// Whether a zstd error code says the output buffer is full. A zstd function returns error
/// `e` as `0 - e` (`ZSTD_getErrorCode`, whose enum values are stable since zstd 1.3.1).
fn is_dst_too_small(code: usize) -> bool {
    0usize.wrapping_sub(code) == zstd_sys::ZSTD_ErrorCode::ZSTD_error_dstSize_tooSmall as usize
}

/// Runs `f` with this thread's decompression context (made on first use).
fn with_decompressor<R>(
    f: impl FnOnce(&mut zstd_safe::DCtx<'static>) -> Result<R, FrameError>,
) -> Result<R, FrameError> {
    DECOMPRESSOR.with_borrow_mut(|slot| {
        let d = match slot {
            Some(d) => d,
            None => slot.insert(
                zstd_safe::DCtx::try_create()
                    .ok_or(FrameError::Zstd("could not allocate a decompression context"))?,
            ),
        };
        f(d)
    })
}

fn zstd_error(code: usize) -> FrameError {
    FrameError::Zstd(zstd_safe::get_error_name(code))
}

/// The content size a frame's header declares, checked to be no more than the frame's
/// length can expand to ([`MAX_EXPANSION`]).
pub fn content_size(frame: &[u8]) -> Result<u64, FrameError> {
    declared_size(frame, frame.len())
}

/// The content size the header at the start of `start` declares, checked against what a
/// frame of `frame_len` bytes can expand to.
fn declared_size(start: &[u8], frame_len: usize) -> Result<u64, FrameError> {
    match zstd_safe::get_frame_content_size(start) {
        Ok(Some(d)) if d > (frame_len as u64).saturating_mul(MAX_EXPANSION) => {
            Err(FrameError::Implausible { declared: d, len: frame_len })
        }
        Ok(Some(d)) => Ok(d),
        Ok(None) => Err(FrameError::NoContentSize),
        Err(_) => Err(FrameError::NotAFrame { len: start.len() }),
    }
}

/// Checks that `frame` is one whole zstd frame, followed by nothing or by frames that add
/// nothing (skippable frames, frames declaring 0 bytes), without decompressing it: each
/// frame's header parses and its block headers (and checksum, when it has one) lead to the
/// next, and the last ends exactly at the end of the bytes (`ZSTD_findFrameCompressedSize`).
/// What a decompression to the first frame's declared size can accept; a cut frame, bytes
/// that are not a frame, or a block header that runs past the end fail.
pub fn check_whole(frame: &[u8]) -> Result<(), FrameError> {
    // The length of the frame `rest` starts with.
    let frame_len = |rest: &[u8]| match zstd_safe::find_frame_compressed_size(rest) {
        Ok(0) => Err(FrameError::NotAFrame { len: rest.len() }),
        Ok(n) => Ok(n),
        Err(code) => Err(zstd_error(code)),
    };
    let mut at = frame_len(frame)?;
    while at < frame.len() {
        let rest = &frame[at..];
        match zstd_safe::get_frame_content_size(rest) {
            Ok(Some(0)) => {}
            Ok(content) => return Err(FrameError::ExtraFrame { at, content }),
            Err(_) => return Err(FrameError::NotAFrame { len: rest.len() }),
        }
        at += frame_len(rest)?;
    }
    Ok(())
}

/// The most bytes a frame of `len` bytes can take (`ZSTD_compressBound`).
pub fn compress_bound(len: usize) -> usize {
    zstd_safe::compress_bound(len)
}

/// Appends one zstd frame of `src` at `level` (its content size in the header) to `out`.
pub fn compress_into(level: i32, src: &[u8], out: &mut Vec<u8>) -> Result<(), FrameError> {
    compress_with_into(level, Profile::Standard, src, out)
}

/// Appends one zstd frame of `src` at `level` under `profile` (its content size in the
/// header) to `out`.
///
/// ```
/// use svb_io::zstd_frame::{self, Profile};
/// let src: Vec<u8> = (0..50_000u32).map(|i| (i * i % 251) as u8 / 16).collect();
/// let (mut std, mut fast) = (Vec::new(), Vec::new());
/// zstd_frame::compress_with_into(1, Profile::Standard, &src, &mut std).unwrap();
/// zstd_frame::compress_with_into(1, Profile::DecodeFast, &src, &mut fast).unwrap();
/// assert!(fast.len() > std.len()); // raw literals: larger
/// let mut back = Vec::new();
/// zstd_frame::decompress_into(&fast, src.len(), &mut back).unwrap();
/// assert_eq!(back, src);
/// ```
pub fn compress_with_into(
    level: i32, profile: Profile, src: &[u8], out: &mut Vec<u8>,
) -> Result<(), FrameError> {
    COMPRESSOR.with_borrow_mut(|slot| {
        let c = match slot {
            Some((key, c)) if *key == (level, profile) => c,
            _ => {
                let mut c = zstd_safe::CCtx::try_create()
                    .ok_or(FrameError::Zstd("could not allocate a compression context"))?;
                c.set_parameter(zstd_safe::CParameter::CompressionLevel(level))
                    .map_err(zstd_error)?;
                c.set_parameter(zstd_safe::CParameter::ContentSizeFlag(true))
                    .map_err(zstd_error)?;
                if profile == Profile::DecodeFast {
                    c.set_parameter(zstd_safe::CParameter::LiteralCompressionMode(
                        zstd_safe::ParamSwitch::Disable,
                    ))
                    .map_err(zstd_error)?;
                }
                &mut slot.insert(((level, profile), c)).1
            }
        };
        // Into the spare capacity after `out`'s contents (a cursor there: no zero-fill).
        let start = out.len();
        out.reserve(zstd_safe::compress_bound(src.len()));
        let mut tail = std::io::Cursor::new(&mut *out);
        tail.set_position(start as u64);
        c.compress2(&mut tail, src).map(|_| ()).map_err(zstd_error)
    })
}

/// One zstd frame of `src` at `level`.
pub fn compress(level: i32, src: &[u8]) -> Result<Vec<u8>, FrameError> {
    let mut out = Vec::new();
    compress_into(level, src, &mut out)?;
    Ok(out)
}

/// Decompresses `frame`, which must produce exactly `declared` bytes, into `out` (replacing
/// its contents). `out` grows with the output zstd really produces: at most twice that, or
/// `declared` when the frame is long enough to plausibly hold it (see the module doc).
pub fn decompress_into(frame: &[u8], declared: usize, out: &mut Vec<u8>) -> Result<(), FrameError> {
    out.clear();
    let eager = frame.len().saturating_mul(EAGER_RATIO).saturating_add(EAGER_SLACK);
    // One byte past `declared`: a frame holding more than it declares fills the buffer
    // instead of fitting in it.
    let want = declared.saturating_add(1);
    let mut room = want.min(eager);
    with_decompressor(|d| {
        loop {
            out.clear();
            out.reserve(room);
            match d.decompress(out, frame) {
                Ok(n) if n == declared => return Ok(()),
                Ok(n) => return Err(FrameError::LengthMismatch { declared, got: n }),
                Err(code) if is_dst_too_small(code) => {
                    if out.capacity() >= want {
                        return Err(FrameError::LengthMismatch { declared, got: out.capacity() });
                    }
                    // The frame filled the buffer with real output: it has earned twice that.
                    room = out.capacity().saturating_mul(2).min(want);
                }
                Err(code) => return Err(zstd_error(code)),
            }
        }
    })
}

/// How many bytes of a frame, from its start, hold its header and its first block: what
/// [`decompress_prefix`] needs to decode that block. `None` where `start` is too short to
/// say (it must hold the frame header and the block's 3-byte header) or is no frame.
pub fn first_block_end(start: &[u8]) -> Option<usize> {
    if start.get(..4)? != 0xFD2F_B528u32.to_le_bytes() {
        return None;
    }
    let descriptor = *start.get(4)?;
    let single_segment = descriptor & 0x20 != 0;
    let content_size = match descriptor >> 6 {
        0 => usize::from(single_segment),
        1 => 2,
        2 => 4,
        _ => 8,
    };
    let dictionary = [0, 1, 2, 4][usize::from(descriptor & 3)];
    let header = 5 + usize::from(!single_segment) + dictionary + content_size;
    let block = start.get(header..header + 3)?;
    let block = u32::from_le_bytes([block[0], block[1], block[2], 0]);
    // An RLE block stores its one byte; raw and compressed ones their size.
    let stored = match (block >> 1) & 3 {
        1 => 1,
        _ => (block >> 3) as usize,
    };
    Some(header + 3 + stored)
}

/// Decompresses the first `n` bytes of a frame of `frame_len` bytes whose first bytes are
/// `start` into `out` (replacing its contents): what a reader needs from the head of a record
/// (its read id) without the rest. zstd decodes whole blocks (up to 128 KiB of output each),
/// so this costs the blocks that hold those bytes, not the frame. `out` gets fewer bytes
/// where `start` (which must hold the frame header) ends before they are decoded (the
/// caller gives more of the frame) or the content is shorter. The declared content size is checked against `frame_len` first (a
/// window no larger than the frame can justify), as [`content_size`] checks it.
pub fn decompress_prefix(
    start: &[u8], frame_len: usize, n: usize, out: &mut Vec<u8>,
) -> Result<(), FrameError> {
    use zstd_safe::{InBuffer, OutBuffer, ResetDirective};
    out.clear();
    declared_size(start, frame_len)?;
    out.resize(n, 0);
    let got = with_decompressor(|d| {
        d.reset(ResetDirective::SessionOnly).map_err(zstd_error)?;
        let mut input = InBuffer::around(start);
        let mut output = OutBuffer::around(&mut out[..]);
        let r = loop {
            let before = (input.pos, output.pos());
            match d.decompress_stream(&mut output, &mut input) {
                // The frame is done, the output full, the input used up, or nothing moved.
                Ok(0) => break Ok(output.pos()),
                Ok(_) if output.pos() == n || input.pos == start.len() => break Ok(output.pos()),
                Ok(_) if (input.pos, output.pos()) == before => break Ok(output.pos()),
                Ok(_) => {}
                Err(code) => break Err(zstd_error(code)),
            }
        };
        // The context is left mid-frame: the next one-shot or prefix decompression resets it.
        let _ = d.reset(ResetDirective::SessionOnly);
        r
    })?;
    out.truncate(got);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefixes_are_the_content_s_first_bytes() {
        let content: Vec<u8> =
            (0..400_000u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8 & 0x3f).collect();
        let frame = compress(3, &content).unwrap();
        let mut out = Vec::new();
        for n in [0, 1, 40, 5000, 200_000, 400_000, 500_000] {
            decompress_prefix(&frame, frame.len(), n, &mut out).unwrap();
            assert_eq!(out, &content[..n.min(content.len())], "{n}");
            // A one-shot decompression after a prefix one starts afresh.
            decompress_into(&frame, content.len(), &mut out).unwrap();
            assert_eq!(out, content);
        }
        // The first block's end: what decodes it, and nothing less does.
        let end = first_block_end(&frame).unwrap();
        assert!(end > 20 && end < frame.len(), "{end}");
        decompress_prefix(&frame[..end], frame.len(), 10, &mut out).unwrap();
        assert_eq!(out, content[..10]);
        decompress_prefix(&frame[..end - 1], frame.len(), 10, &mut out).unwrap();
        assert!(out.is_empty());
        assert_eq!(first_block_end(&frame[..5]), None);
        assert_eq!(first_block_end(b"not a zstd frame"), None);
        let rle = rle_frame(1 << 20, 8, 3);
        assert_eq!(first_block_end(&rle), Some(5 + 8 + 3 + 1));
        // Given only the frame's first bytes (its header whole), fewer (possibly none) come
        // out, never others.
        for cut in [20, 1000, frame.len() / 2] {
            decompress_prefix(&frame[..cut], frame.len(), 300_000, &mut out).unwrap();
            assert!(out.len() < 300_000 && out[..] == content[..out.len()], "{cut}");
        }
        // A header declaring more than the whole frame can hold, bytes that are no frame,
        // and damaged blocks are errors.
        let lying = rle_frame(1 << 40, 1, 7);
        assert!(matches!(
            decompress_prefix(&lying, lying.len(), 10, &mut out),
            Err(FrameError::Implausible { .. })
        ));
        assert!(matches!(
            decompress_prefix(b"not zstd", 8, 10, &mut out),
            Err(FrameError::NotAFrame { .. })
        ));
        let mut bad = frame.clone();
        for b in &mut bad[20..60] {
            *b = 0xff;
        }
        assert!(decompress_prefix(&bad, bad.len(), 300_000, &mut out).is_err());
    }

    /// A frame of RLE blocks (`blocks` of 128 KiB of `byte`) whose header declares
    /// `declared` bytes in an 8-byte content-size field.
    fn rle_frame(declared: u64, blocks: usize, byte: u8) -> Vec<u8> {
        let mut f = 0xFD2FB528u32.to_le_bytes().to_vec();
        // FCS flag 3 (8 bytes), single segment.
        f.push(0b1110_0000);
        f.extend(declared.to_le_bytes());
        for i in 0..blocks {
            let last = u32::from(i + 1 == blocks);
            let header = last | (1 << 1) | ((128 * 1024) << 3);
            f.extend(&header.to_le_bytes()[..3]);
            f.push(byte);
        }
        f
    }

    #[test]
    fn check_whole_takes_one_frame_and_frames_that_add_nothing() {
        let one = compress(1, b"some bytes, some bytes, some bytes").unwrap();
        assert_eq!(check_whole(&one), Ok(()));
        assert!(check_whole(&one[..one.len() - 1]).is_err());
        assert!(check_whole(&[]).is_err());
        let empty = compress(1, b"").unwrap();
        let skippable = [0x50, 0x2A, 0x4D, 0x18, 2, 0, 0, 0, 7, 7];
        for tail in [&empty[..], &skippable[..]] {
            assert_eq!(check_whole(&[&one[..], tail].concat()), Ok(()));
        }
        let two = [&one[..], &one[..]].concat();
        assert!(matches!(
            check_whole(&two),
            Err(FrameError::ExtraFrame { at, content: Some(34) }) if at == one.len()
        ));
        assert!(check_whole(&[&one[..], b"junk"].concat()).is_err());
        assert!(check_whole(&[&one[..], &skippable[..9]].concat()).is_err());
    }

    #[test]
    fn round_trip_and_reuse() {
        for len in [0usize, 1, 1000, 300_000] {
            let src: Vec<u8> = (0..len).map(|i| (i * 31 % 97) as u8).collect();
            let frame = compress(1, &src).unwrap();
            let declared = content_size(&frame).unwrap();
            assert_eq!(declared, len as u64);
            let mut out = vec![1, 2, 3];
            decompress_into(&frame, len, &mut out).unwrap();
            assert_eq!(out, src);
            let err = decompress_into(&frame, len + 1, &mut out).unwrap_err();
            assert!(matches!(err, FrameError::LengthMismatch { .. }), "{err}");
        }
    }

    #[test]
    fn highly_compressible_frames_grow_past_the_eager_size() {
        // 40 MiB of one byte in a few hundred bytes: more than the eager reservation.
        let frame = rle_frame(40 << 20, 320, 9);
        assert!(frame.len() * EAGER_RATIO + EAGER_SLACK < 40 << 20);
        let mut out = Vec::new();
        decompress_into(&frame, 40 << 20, &mut out).unwrap();
        assert_eq!(out.len(), 40 << 20);
        assert!(out.iter().all(|&b| b == 9));
    }

    #[test]
    fn a_lying_header_fails_without_reserving_what_it_declares() {
        // Declares 4 GiB, holds 256 KiB (and says so at its last block).
        let frame = rle_frame(4 << 30, 2, 0);
        assert!(matches!(content_size(&frame), Err(FrameError::Implausible { .. })));
        let mut out = Vec::new();
        let err = decompress_into(&frame, 4 << 30, &mut out).unwrap_err();
        assert!(matches!(err, FrameError::Zstd(_)), "{err}");
        assert!(out.capacity() < 8 << 20, "{}", out.capacity());
    }

    #[test]
    fn headers_are_checked() {
        assert_eq!(content_size(b"not zstd"), Err(FrameError::NotAFrame { len: 8 }));
        let frame = rle_frame(u64::MAX / 2, 1, 0);
        assert!(matches!(content_size(&frame), Err(FrameError::Implausible { .. })));
        let mut c = zstd_safe::CCtx::create();
        c.set_parameter(zstd_safe::CParameter::ContentSizeFlag(false)).unwrap();
        let mut unsized_frame = vec![0u8; 64];
        let n = c.compress2(&mut unsized_frame[..], b"abc").unwrap();
        unsized_frame.truncate(n);
        assert_eq!(content_size(&unsized_frame), Err(FrameError::NoContentSize));
    }
}
