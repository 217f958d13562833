//! What can go wrong with a PDZ block.

use svb_io::zstd_frame::FrameError;

/// Why a PDZ block could not be decoded (or a signal encoded). Every check ONT's POD5
/// adapter makes before it decodes a block is one of these, in its order.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PdzError {
    /// More samples than a POD5 row can hold (its `samples` column is a u32).
    #[error("{samples} samples: a PDZ block holds at most 4294967295")]
    TooManySamples {
        /// The sample count asked for.
        samples: u64,
    },
    /// The block is larger than any encoding of its samples can be.
    #[error(
        "a {len}-byte PDZ block is larger than any block of {samples} samples ({bound} bytes)"
    )]
    LargerThanBound {
        /// The block's length.
        len: usize,
        /// The samples expected.
        samples: usize,
        /// The largest block of that many samples.
        bound: usize,
    },
    /// The block is shorter than its 24-byte header.
    #[error("a {len}-byte PDZ block is shorter than its 24-byte header")]
    NoHeader {
        /// The block's length.
        len: usize,
    },
    /// The header's sample count is not the one the block was read for (the POD5 row's
    /// `samples`).
    #[error("the PDZ header says {header} samples where {expected} were expected")]
    SampleCount {
        /// The header's count.
        header: u64,
        /// The count expected.
        expected: usize,
    },
    /// A compressed plane's length in the header is more than zstd can make of its n bytes.
    #[error("the PDZ header gives the {plane} plane {len} bytes, more than zstd makes of {samples} bytes ({bound})")]
    PlaneTooLarge {
        /// `"low"` (B_l) or `"high"` (B_h).
        plane: &'static str,
        /// The length in the header.
        len: u64,
        /// The samples (the plane's inflated length).
        samples: usize,
        /// zstd's bound for that many bytes.
        bound: usize,
    },
    /// The block's length is not the header's 24 bytes, the raw plane and the two
    /// compressed planes (trailing bytes included).
    #[error(
        "a PDZ block of {samples} samples with these planes is {expected} bytes; this one is {len}"
    )]
    Length {
        /// The block's length.
        len: usize,
        /// What its header and sample count make it.
        expected: u64,
        /// The samples.
        samples: usize,
    },
    /// A compressed plane is not a zstd frame that inflates to exactly one byte a sample.
    #[error("the PDZ {plane} plane: {source}")]
    Plane {
        /// `"low"` (B_l) or `"high"` (B_h).
        plane: &'static str,
        /// What zstd said.
        source: FrameError,
    },
    /// A compressed plane's frame declares another size than one byte a sample.
    #[error("the PDZ {plane} plane's frame declares {declared} bytes where {samples} samples take {samples}")]
    PlaneSize {
        /// `"low"` (B_l) or `"high"` (B_h).
        plane: &'static str,
        /// The content size its frame declares.
        declared: u64,
        /// The samples.
        samples: usize,
    },
    /// zstd could not compress a plane (it could not allocate).
    #[error("compressing the PDZ {plane} plane: {source}")]
    Compress {
        /// `"low"` (B_l) or `"high"` (B_h).
        plane: &'static str,
        /// What zstd said.
        source: FrameError,
    },
}
