//! Typed errors of the codecs. Every variant says where the input went wrong.

/// Why a stream could not be decoded. Each variant carries the position it refers to.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DecodeError {
    /// The input is shorter than the control (key) stream that `n` values need.
    #[error("control stream truncated: {n} values need {needed} control bytes, the input has {available}")]
    ControlTruncated {
        /// Number of values requested.
        n: usize,
        /// Control bytes needed for `n` values.
        needed: usize,
        /// Bytes in the whole input.
        available: usize,
    },
    /// The data stream ends inside value `index`.
    #[error("data truncated at value {index}: it needs {needed} bytes at input offset {offset}, the input ends at {available}")]
    DataTruncated {
        /// Index of the first value that could not be read.
        index: usize,
        /// Input offset at which that value starts.
        offset: usize,
        /// Bytes that value needs.
        needed: usize,
        /// Length of the input.
        available: usize,
    },
    /// The input is shorter than the smallest possible encoding of `n` values (found before
    /// decoding or allocating anything).
    #[error(
        "input of {available} bytes cannot hold {n} values: at least {min_len} bytes are needed"
    )]
    TooShortForCount {
        /// Number of values requested.
        n: usize,
        /// Smallest encoded length of `n` values.
        min_len: usize,
        /// Bytes in the input.
        available: usize,
    },
    /// The stream decoded completely but more bytes follow it.
    #[error("{trailing} trailing bytes after the {consumed} bytes of the encoded stream")]
    TrailingBytes {
        /// Bytes the stream occupies.
        consumed: usize,
        /// Bytes left over after it.
        trailing: usize,
    },
    /// A list that must strictly increase does not: value `index` is not above the one
    /// before it (the first value, above the `prev` it was decoded from).
    #[error("value {index} is not above the one before it: the list must strictly increase")]
    NotIncreasing {
        /// Index of the first value that is not above the one before it.
        index: usize,
    },
    /// `n` values cannot be held in memory on this target (the byte count overflows).
    #[error("count {n} is larger than this target can address")]
    CountTooLarge {
        /// Number of values requested.
        n: usize,
    },
}

/// What a decoder returns: the bytes it consumed (or `T`), or why the input does not decode.
pub type DecodeResult<T = usize> = Result<T, DecodeError>;

/// What an encoder returns: the bytes it wrote (or `T`), or why it cannot.
pub type EncodeResult<T = usize> = Result<T, EncodeError>;

/// Why values could not be encoded (only codecs with a restricted value range fail).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum EncodeError {
    /// A value does not fit the codec (for `U64Coder1234`: a value of 2^32 or more).
    #[error("value {value} at index {index} does not fit the codec (maximum {max})")]
    ValueTooLarge {
        /// Index of the first value that does not fit.
        index: usize,
        /// The value.
        value: u64,
        /// Largest value the codec can store.
        max: u64,
    },
    /// The output slice is shorter than the encoded stream.
    #[error("output buffer of {available} bytes is too small: up to {needed} bytes are needed")]
    OutputTooSmall {
        /// Bytes the caller must provide (`max_encoded_len(n)`).
        needed: usize,
        /// Bytes provided.
        available: usize,
    },
}
