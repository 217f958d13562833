//! VBZ, Oxford Nanopore's raw-signal compression, as POD5 files store it: the i16 signal is
//! delta-coded (wrapping, from 0), zigzagged, packed with [`Svb16`](svb_core::Svb16) and
//! compressed as one zstd level-1 frame with no size header; the sample count lives in the
//! POD5 signal table.
//!
//! ```
//! let signal: Vec<i16> = (0..10_000).map(|i| 500 + ((i * 37) % 61) as i16 - 30).collect();
//! let blob = svb_vbz::pod5_blob::compress_signal(&signal);
//! let mut out = vec![0i16; signal.len()];
//! svb_vbz::pod5_blob::decompress_signal(&blob, &mut out)?;
//! assert_eq!(out, signal);
//! # Ok::<(), svb_vbz::VbzError>(())
//! ```
//!
//! The POD5 file around these blobs (its tables, reader and writer) is the `svb-pod5` crate;
//! [`hdf5_filter`] is the wire of the VBZ HDF5 filter (id 32020) that FAST5 files use.
//!
//! The VBZ integer stage alone (no zstd) has a 3-pass decoder ([`decode_vbz`]) and a fused
//! one ([`decode_vbz_fused`]) that unpacks, unzigzags and prefix-sums in one SIMD loop.

mod batch;
mod error;
mod fused;
pub mod hdf5_filter;
pub mod pod5_blob;
mod vbz;
mod vbz_k;
mod zstd_io;

pub use batch::{decode_vbz_batch, Chunk, Threads};
pub use error::VbzError;
pub use fused::decode_vbz_fused_with;
pub use vbz::{
    decode_vbz, decode_vbz_fused, decode_vbz_fused_from, decode_vbz_fused_from_into,
    decode_vbz_fused_into, decode_vbz_into, encode_vbz, encode_vbz_into, max_encoded_len,
};
pub use vbz_k::{
    decode_vbz2, decode_vbz2_into, decode_vbzk, decode_vbzk_batch, decode_vbzk_into,
    decode_vbzk_parallel, decode_vbzk_parallel_into, encode_vbz2, encode_vbz2_into, encode_vbzk,
    encode_vbzk_into, vbzk_header_len, MAX_K, VBZ2_HEADER_LEN,
};

/// The vector `fill` appends to (the allocating forms of the `_into` functions).
pub(crate) fn filled<T, E>(fill: impl FnOnce(&mut Vec<T>) -> Result<(), E>) -> Result<Vec<T>, E> {
    let mut out = Vec::new();
    fill(&mut out)?;
    Ok(out)
}
