//! Typed errors: what went wrong and where.

/// Why a posting list could not be encoded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum EncodeError {
    /// `docs` and `freqs` differ in length.
    #[error("{docs} doc ids but {freqs} frequencies")]
    LengthMismatch {
        /// Doc ids given.
        docs: usize,
        /// Frequencies given.
        freqs: usize,
    },
    /// A doc id is not larger than the one before it.
    #[error("doc ids must be strictly increasing: doc {doc} at index {index} follows {prev}")]
    NotIncreasing {
        /// Index of the offending doc id.
        index: usize,
        /// The doc id.
        doc: u32,
        /// The doc id before it.
        prev: u32,
    },
    /// A frequency of 0.
    #[error("frequency 0 at index {index} (frequencies are at least 1)")]
    ZeroFrequency {
        /// Index of the offending frequency.
        index: usize,
    },
    /// The list does not fit the wire's 32-bit counts and offsets.
    #[error("{docs} docs need {bytes} bytes of block data: the wire's 32-bit fields hold less")]
    TooLarge {
        /// Doc count.
        docs: usize,
        /// Bytes of block data (at most).
        bytes: usize,
    },
}

/// Why a posting list could not be read: a [`PostingsErrorKind`], boxed so that the
/// cursor's hot methods return their `Result` in registers.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(transparent)]
pub struct PostingsError(Box<PostingsErrorKind>);

impl PostingsError {
    /// What went wrong, and where.
    pub fn kind(&self) -> &PostingsErrorKind {
        &self.0
    }
}

impl From<PostingsErrorKind> for PostingsError {
    #[cold]
    fn from(kind: PostingsErrorKind) -> Self {
        PostingsError(Box::new(kind))
    }
}

/// What went wrong reading a posting list. Each variant says where.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PostingsErrorKind {
    /// Fewer bytes than the header and skip table need.
    #[error("posting list truncated: {needed} bytes of header and skip table needed for {docs} docs, {available} present")]
    Truncated {
        /// The doc count of the header (0 when even the header is cut).
        docs: u64,
        /// Bytes needed.
        needed: u64,
        /// Bytes present.
        available: usize,
    },
    /// The header's doc count cannot be coded in the bytes present (every doc takes at least
    /// 1.25 bytes plus its share of the skip table).
    #[error("{docs} docs cannot fit in {available} bytes")]
    CountTooLarge {
        /// The header's doc count.
        docs: u64,
        /// Bytes of the list.
        available: usize,
    },
    /// A skip-table entry is inconsistent with the one before it or with the data.
    #[error("skip table entry {block}: {what}")]
    BadSkip {
        /// Block index.
        block: usize,
        /// What is wrong.
        what: &'static str,
    },
    /// A block's doc ids or frequencies could not be decoded.
    #[error("block {block} {stream}: {source}")]
    Block {
        /// Block index.
        block: usize,
        /// `"doc ids"` or `"frequencies"`.
        stream: &'static str,
        /// The codec's error.
        source: svb_core::DecodeError,
    },
    /// A block's streams do not fill its bytes exactly.
    #[error("block {block}: its streams take {used} of its {len} bytes")]
    BlockLength {
        /// Block index.
        block: usize,
        /// Bytes the streams take.
        used: usize,
        /// Bytes of the block.
        len: usize,
    },
    /// A block's last decoded doc id differs from its skip-table entry.
    #[error("block {block}: last doc id decodes to {decoded}, the skip table says {expected}")]
    LastDocMismatch {
        /// Block index.
        block: usize,
        /// Decoded last doc id.
        decoded: u32,
        /// Skip table's last doc id.
        expected: u32,
    },
}
