//! The error type of the VBZ decoders.

/// Why a VBZ stream or a POD5 signal blob could not be decoded.
///
/// A variant that wraps another error returns it from `source()` and does not repeat its text
/// in `Display`: print the whole chain (`{:#}` with anyhow, or walk `source()`).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum VbzError {
    /// The svb16 stream is malformed (the position is inside).
    #[error("svb16 stream")]
    Svb16(#[from] svb_core::DecodeError),
    /// The svb16 stream decoded but did not use every byte it was given.
    #[error("stream of {samples} values uses {consumed} of its {len} bytes")]
    LengthMismatch {
        /// Samples decoded.
        samples: usize,
        /// Bytes the stream used.
        consumed: usize,
        /// Bytes it was given.
        len: usize,
    },
    /// The StreamVByte stream of a fast5 VBZ chunk is malformed (the position is inside).
    #[error("StreamVByte stream: {0}")]
    StreamVByte(svb_core::DecodeError),
    /// A fast5 VBZ option that vbz_compression does not define.
    #[error("fast5 VBZ option {name} = {value} is not supported ({expected})")]
    InvalidOption {
        /// Option name.
        name: &'static str,
        /// Its value.
        value: u64,
        /// What is allowed.
        expected: &'static str,
    },
    /// A byte count that is not a whole number of integers.
    #[error("{bytes} bytes are not a whole number of {integer_size}-byte integers")]
    NotWholeIntegers {
        /// Byte count.
        bytes: usize,
        /// Integer size of the options.
        integer_size: usize,
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
    /// The zstd frame declares less content than `samples` samples need.
    #[error(
        "zstd frame declares {declared} bytes, fewer than the {min} that {samples} samples need"
    )]
    FrameTooSmall {
        /// Content size in the frame header.
        declared: usize,
        /// Smallest stream of `samples` samples.
        min: usize,
        /// Samples expected.
        samples: usize,
    },
    /// zstd could not compress or decompress the blob (the frame error is the source).
    #[error("zstd frame")]
    Zstd(#[from] svb_io::zstd_frame::FrameError),
    /// A VBZ2 / VBZ-K / fast5 header is shorter than its fixed fields.
    #[error("{format} header needs {needed} bytes, the stream has {available}")]
    HeaderTruncated {
        /// Which wire.
        format: &'static str,
        /// Bytes the header needs.
        needed: usize,
        /// Bytes available.
        available: usize,
    },
    /// A VBZ-K header declares a sub-stream count its encoder cannot write for this many
    /// samples (0, or more than one when `(n / k) & !7` is 0).
    #[error("VBZ-K header declares {k} sub-streams, impossible for {samples} samples")]
    BadSubStreamCount {
        /// Declared count.
        k: usize,
        /// Samples expected.
        samples: usize,
    },
    /// A split point's data offset is not where the keys put its sub-stream's data.
    #[error(
        "split point {index}: data offset {offset}, the keys put sub-stream {index} at {expected}"
    )]
    BadSplitOffset {
        /// Split point (1-based: sub-stream `index` starts there).
        index: usize,
        /// Offset in the header.
        offset: u64,
        /// The data bytes of the samples before the split, from the keys.
        expected: usize,
    },
    /// A split point's carry is not the decoded sample just before its split.
    #[error(
        "split point {index}: carry {carry}, the sample before the split decodes to {decoded}"
    )]
    BadSplitCarry {
        /// Split point (1-based).
        index: usize,
        /// Carry in the header.
        carry: i16,
        /// The decoded sample before the split.
        decoded: i16,
    },
    /// A sub-stream of a VBZ2 / VBZ-K stream is malformed (positions inside it count from
    /// its own key bytes).
    #[error("sub-stream {index} (samples from {first_sample})")]
    SubStream {
        /// Sub-stream number.
        index: usize,
        /// Its first sample in the chunk.
        first_sample: usize,
        /// What is wrong.
        source: svb_core::DecodeError,
    },
    /// A sub-stream decoded without using exactly the data bytes its split points give it.
    #[error("sub-stream {index} uses {consumed} data bytes, its split points give it {len}")]
    SubStreamLength {
        /// Sub-stream number.
        index: usize,
        /// Data bytes it used.
        consumed: usize,
        /// Data bytes between its split points.
        len: usize,
    },
    /// The output buffer does not have the length the chunks need.
    #[error("output holds {len} samples, the chunks need {needed}")]
    OutputLength {
        /// Samples the chunks hold.
        needed: usize,
        /// Length of the output.
        len: usize,
    },
    /// A chunk of a batch failed (the chunk's index in the batch, then why).
    #[error("chunk {index}")]
    Chunk {
        /// Index in the batch.
        index: usize,
        /// What is wrong.
        source: Box<VbzError>,
    },
}
