//! The error type of the slow5 signal codecs.

/// Why an SVB-ZD or ex-zd signal blob could not be decoded.
///
/// A variant that wraps another error returns it from `source()` and does not repeat its text
/// in `Display`: print the whole chain (`{:#}` with anyhow, or walk `source()`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SignalError {
    /// The blob is shorter than its fixed header.
    #[error("{codec} blob of {available} bytes, its header needs {needed}")]
    HeaderTruncated {
        /// `svb-zd` or `ex-zd`.
        codec: &'static str,
        /// Header bytes.
        needed: usize,
        /// Bytes in the blob.
        available: usize,
    },
    /// The sample count in the header cannot fit in the blob (checked before allocating).
    #[error("{codec} header declares {declared} samples, the {len}-byte blob holds at most {max}")]
    CountTooLarge {
        /// `svb-zd` or `ex-zd`.
        codec: &'static str,
        /// Declared samples.
        declared: u64,
        /// Bytes in the blob.
        len: usize,
        /// Most samples such a blob can hold.
        max: u64,
    },
    /// The StreamVByte stream inside is malformed (the position is inside that stream).
    #[error("{codec} StreamVByte stream")]
    StreamVByte {
        /// `svb-zd` or `ex-zd` (positions or exceptions).
        codec: &'static str,
        /// What is wrong.
        source: svb_core::DecodeError,
    },
    /// The blob does not end where its content does.
    #[error("{codec} blob: content ends at byte {consumed}, the blob has {len}")]
    LengthMismatch {
        /// `svb-zd` or `ex-zd`.
        codec: &'static str,
        /// Bytes the content uses.
        consumed: usize,
        /// Bytes in the blob.
        len: usize,
    },
    /// An ex-zd version this crate does not know.
    #[error("ex-zd version {0} (only 0 exists)")]
    UnknownVersion(u8),
    /// An ex-zd bit shift above 5.
    #[error("ex-zd bit shift q = {0}, at most 5")]
    BadShift(u8),
    /// An ex-zd exception position outside the signal or out of order.
    #[error("ex-zd exception {index} at position {position}, past {limit}")]
    BadException {
        /// Exception number.
        index: usize,
        /// Its position (in the samples after the first).
        position: u64,
        /// Where positions must stay below.
        limit: u64,
    },
    /// The ex-zd blob decodes to another sample count than its header declares.
    #[error("ex-zd blob declares {declared} samples and holds {found}")]
    CountMismatch {
        /// Header count.
        declared: u64,
        /// Samples in the content.
        found: u64,
    },
}

/// The fixed header of a `codec` blob: its first `N` bytes, or
/// [`SignalError::HeaderTruncated`].
pub(crate) fn blob_header<'a, const N: usize>(
    codec: &'static str, blob: &'a [u8],
) -> Result<&'a [u8; N], SignalError> {
    blob.first_chunk::<N>().ok_or(SignalError::HeaderTruncated {
        codec,
        needed: N,
        available: blob.len(),
    })
}
