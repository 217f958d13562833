//! The error type of the VBZ decoders.

/// Why a VBZ stream or a POD5 signal blob could not be decoded.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum VbzError {
    /// The svb16 stream is malformed (the position is inside).
    #[error("svb16 stream: {0}")]
    Svb16(#[from] svb_core::DecodeError),
    /// The svb16 stream decoded but did not use every byte it was given.
    #[error("svb16 stream of {samples} samples uses {consumed} of its {len} bytes")]
    LengthMismatch {
        /// Samples decoded.
        samples: usize,
        /// Bytes the stream used.
        consumed: usize,
        /// Bytes it was given.
        len: usize,
    },
    /// The zstd frame declares more content than `samples` samples can need.
    #[error(
        "zstd frame declares {declared} bytes, more than the {max} that {samples} samples can need"
    )]
    FrameTooLarge {
        /// Content size in the frame header.
        declared: u64,
        /// Largest svb16 stream of `samples` samples.
        max: usize,
        /// Samples expected.
        samples: usize,
    },
    /// zstd could not decompress the blob.
    #[error("zstd: {0}")]
    Zstd(String),
}
